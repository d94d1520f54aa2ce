"""Relations the extractor reads after the trigger patterns: off nested entities, and off the relations the
patterns found (``RelationExtractor._extract_sentence`` runs each step, in its own order, on the sentence's
``BestRelations``, which each step reads and changes).

- Nesting rules read relations off an entity inside another one's name (EVENT ⊃ city → event_location, PRODUCT ⊃
  maker → produces, OCC ⊃ ORG → member_of / employee_of for a member's or staff title: عضو المكتب السياسي لحركة
  حماس, المتحدث باسم وزارة الخارجية); a ``nisba_of`` rule relates the outer entity to an entity elsewhere in the
  sentence named by its inner nisba (الدستور الأردني … الأردن → law_of). Such a part of a name (the PERS خالد in
  مطار الملك خالد الدولي) is related to its whole by these rules only.
- A person holding a post keeps a courtesy title (الشيخ، الدكتور) only when it is the only one.
- An organisation named again by its definite head noun (نادي الترجي … مشاركة النادي في …) stands in for it; a
  heading title followed by that noun or by له, لها heads it (… نزار بركة أمينا عاما للحزب; رئيسا له; وقال رئيس
  النادي حمدي المدب).
- Who won an event held in a larger one (… ذهبية سباق 3000 متر في دورة الألعاب الأولمبية) took part in the larger;
  who was beaten in it (… متقدما على الإثيوبي لاميشا غيرما; بعد فوزه على الترجي; وفاز فيها على الأرجنتين) took part
  in it too.
- A relation carries over to an entity coordinated with its subject or object by و (تحد المغرب الجزائر …
  وموريتانيا), for a person also by a و on the title before the name (… مودي ووزير الخارجية الهندي جايشانكار), but
  a post, nationality or membership never carries over to a person with a title of their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from tahqiq.analysis.relations.mentions import (
    BestRelations,
    PairKey,
    is_honorific,
    is_name_part,
    lead_of,
    title_holders,
)
from tahqiq.analysis.relations.model import Mention, Predicate
from tahqiq.analysis.relations.rules import NestedRule
from tahqiq.analysis.relations.words import contains, head_in, nisba_names, object_preposition
from tahqiq.arabic.clitics import PROCLITICS
from tahqiq.arabic.keys import loose_unpunctuated
from tahqiq.core import scan

__all__ = [
    "beaten_took_part",
    "carry_over_to_conjuncts",
    "drop_courtesy_posts",
    "heads_named_again",
    "nested_relations",
    "organisations_named_again",
    "won_in_larger_event",
]

# what a title before a person's name says of that person alone: no carrying over to them from a conjunct
_OWN_TITLE: Final = frozenset({"holds_position", "nationality", "employee_of", "member_of", "head_of"})
# a heading title whose organisation is named again by its head noun (رئيس النادي, أمينا عاما للحزب) or a pronoun
# (رئيسا له): the title phrases, and the pronouns that name the organisation before them
_HEAD_TITLES: Final = tuple(
    tuple(loose_unpunctuated(w) for w in t.split())
    for t in ("رئيس", "رئيسة", "رئيسا", "مدير", "مديرة", "مديرا", "أمين عام", "أمينا عاما", "أمينة عامة")
)
_ORG_PRONOUNS: Final = frozenset({loose_unpunctuated("له"), loose_unpunctuated("لها")})
# who beat whom in an event (متقدما على …, بعد فوزه على …, بعد تغلبه على …): the beaten one took part too
_BEAT: Final = frozenset(
    loose_unpunctuated(w) for w in "متقدما متقدمة فوزه فوزها تغلبه تغلبها فاز فازت تغلب تغلبت".split()
)
_IN_IT: Final = frozenset(loose_unpunctuated(w) for w in ("فيه", "فيها"))
_ON: Final = loose_unpunctuated("على")


def nested_relations(
    rules: Sequence[NestedRule],
    by_name: Mapping[str, Predicate],
    min_confidence: float,
    ents: list[Mention],
    loose_words: list[str],
    best: BestRelations,
) -> None:
    """Relations read off nesting: EVENT ⊃ place → event_location; a PERS right before or after an OCC takes
    the OCC's inner NORP as nationality and, for a heading title, its inner ORG/GPE as head_of."""
    for n, rule in enumerate(rules):
        p = by_name[rule.predicate]
        for outer in ents:
            if outer.type not in rule.outer:
                continue
            if rule.heads and not any(contains(loose_words[outer.first : outer.first + len(h)], h) for h in rule.heads):
                continue
            first = loose_words[outer.first]
            if rule.outer_heads is not None and not head_in(first, rule.outer_heads):
                continue
            if head_in(first, rule.not_outer_heads):
                continue
            inside = [e for e in ents if e is not outer and outer.start <= e.start and e.end <= outer.end]
            inner = [  # direct children only: not inside another entity within the outer one
                e
                for e in inside
                if e.type in rule.inner
                and not any(f is not e and f.start <= e.start and e.end <= f.end and f.span != e.span for f in inside)
            ]
            if rule.nisba_of is not None:
                inner = [
                    e
                    for e in ents
                    if e.type in rule.nisba_of
                    and (e.end <= outer.start or outer.end <= e.start)
                    and any(nisba_names(loose_words[n.first : n.last], loose_words[e.first : e.last]) for n in inner)
                ]
            holders = title_holders(outer, ents, loose_words) if outer.type == "OCC" else [outer]
            for holder in holders:
                for other in inner:
                    subj, obj = (other, holder) if rule.inverse else (holder, other)
                    if not p.allows(subj.type, obj.type):
                        continue
                    precision = p.precision if rule.precision is None else rule.precision
                    conf = precision * (subj.confidence + obj.confidence) / 2
                    key = ((subj.start, subj.end, subj.type), (obj.start, obj.end, obj.type))
                    old = best.get(key)
                    if conf >= min_confidence and (old is None or conf > old[0]):
                        best[key] = (conf, p, f"nested/{n}")


def drop_courtesy_posts(ents: list[Mention], loose_words: list[str], best: BestRelations) -> None:
    """A person holding a post keeps a courtesy title (الشيخ، الأمير، الدكتور) only when it is the only one."""
    posts: dict[tuple[int, int, str], list[PairKey]] = {}
    for key, (_, p, _) in best.items():
        if p.name == "holds_position":
            posts.setdefault(key[0], []).append(key)
    by_key = {(e.start, e.end, e.type): e for e in ents}
    for keys in posts.values():
        courtesy = [k for k in keys if is_honorific(by_key[k[1]], loose_words)]
        if courtesy and len(courtesy) < len(keys):
            for k in courtesy:
                best.pop(k, None)


def heads_named_again(
    by_name: Mapping[str, Predicate],
    min_confidence: float,
    ents: list[Mention],
    args: list[Mention],
    loose_words: list[str],
    best: BestRelations,
) -> None:
    """A heading title whose organisation is named again by its head noun or a pronoun heads the organisation
    named before it: انتخب … حزب الاستقلال نزار بركة أمينا عاما للحزب; وقال رئيس النادي حمدي المدب;
    انتخب مجلس النواب الأردني أحمد الصفدي رئيسا له; … سارة الأميري رئيسة الوكالة."""
    p = by_name.get("head_of")
    if p is None:
        return
    orgs = [e for e in ents if e.type == "ORG"]
    persons = [e for e in args if e.type == "PERS"]
    for i, word in enumerate(loose_words):
        for title in _HEAD_TITLES:
            start = i - len(title)
            if start < 0 or tuple(loose_words[start:i]) != title:
                continue
            if word in _ORG_PRONOUNS:
                # a pronoun names the nearest organisation before it that is no part of another's name
                named = [e for e in orgs if e.last <= start and not is_name_part(e, ents)][-1:]
            else:
                named = [e for e in orgs if e.last <= start and _names_head(word, loose_words[e.first])][-1:]
            if not named:
                continue
            org = named[0]
            # the holder: right before the title (… نزار بركة أمينا عاما للحزب) or right after it (رئيس
            # النادي حمدي المدب), a courtesy title between aside
            after = next((e.last for e in ents if e.first == i + 1 and is_honorific(e, loose_words)), i + 1)
            for person in persons:
                if person.last != start and person.first != after:
                    continue
                if not p.allows(person.type, org.type) or org.last > person.first:
                    continue
                key = ((person.start, person.end, person.type), (org.start, org.end, org.type))
                conf = p.precision * (person.confidence + org.confidence) / 2
                if conf >= min_confidence and key not in best and (key[1], key[0]) not in best:
                    best[key] = (conf, p, "head_of/again")


def organisations_named_again(text: str, ents: list[Mention], loose_words: list[str]) -> dict[Mention, Mention]:
    """Words outside every entity that name an organisation before them again by its head noun (النادي,
    والاتحاد: نادي …, الاتحاد …), each as an entity of its own mapped to the organisation."""
    # a name inside another (نادي الهلال in مجلس إدارة نادي الهلال) may be the one named again
    orgs = [e for e in ents if e.type == "ORG"]
    if not orgs:
        return {}
    covered = {i for e in ents for i in range(e.first, e.last)}
    out: dict[Mention, Mention] = {}
    words: list[tuple[int, int]] | None = None
    for i, word in enumerate(loose_words):
        if i in covered or not word.startswith(("ال", "وال")):
            continue
        bare = word[1:] if word.startswith("و") else word
        named = [e for e in orgs if e.last <= i and _names_head(bare, loose_words[e.first], ("ال",))][-1:]
        if not named:
            continue
        if words is None:
            words = [(t.start, t.end) for t in scan(text) if t.kind in ("word", "number")]
        start, end = words[i]
        org = named[0]
        out[Mention("ORG", text[start:end], start, end, org.confidence, i, i + 1, alias=True)] = org
    return out


def _names_head(word: str, head: str, articles: tuple[str, ...] = ("ال", "لل")) -> bool:
    """Whether ``word`` is the definite head noun of a name starting with ``head`` (النادي, للحزب: نادي …,
    لحزب …), clitics aside."""
    for article in articles:
        if word.startswith(article) and len(word) - len(article) >= 3:
            bare = word[len(article) :]
            if bare == head or any(head.startswith(c) and head[len(c) :] == bare for c in PROCLITICS):
                return True
    return False


def beaten_took_part(
    by_name: Mapping[str, Predicate],
    args: list[Mention],
    ents: list[Mention],
    loose_words: list[str],
    best: BestRelations,
) -> None:
    """Who was beaten in an event took part in it: the one after متقدما على, بعد فوزه على or بعد تغلبه على
    in the event the subject won (… بذهبية سباق 3000 متر موانع …، متقدما على الإثيوبي لاميشا غيرما), or after
    فاز فيها على in one the subject took part in (شارك المنتخب السعودي في كأس العالم …، وفاز فيها على
    الأرجنتين)."""
    p = by_name.get("participant_in")
    if p is None:
        return
    by_key = {(e.start, e.end, e.type): e for e in args}
    leads = {id(e): lead_of(e, ents) for e in args}
    for key, (conf, q, source) in list(best.items()):
        winner, event = by_key.get(key[0]), by_key.get(key[1])
        if winner is None or event is None or event.type != "EVENT" or q.name not in ("won", "participant_in"):
            continue
        for i in range(max(winner.last, event.last), len(loose_words) - 2):
            if loose_words[i + 1] != _ON:
                continue
            word = loose_words[i]
            if q.name == "won":
                if not head_in(word, _BEAT):
                    continue
            elif word not in _IN_IT or i == 0 or not head_in(loose_words[i - 1], _BEAT):
                continue  # took part and won in it: فاز فيها على
            if any(e.type == winner.type and winner.last <= e.first and e.last <= i for e in args):
                break  # another one of the winner's kind stands between: the clause is theirs
            for e in args:
                if leads[id(e)] != i + 2 or e is winner or not p.allows(e.type, event.type):
                    continue
                new = ((e.start, e.end, e.type), key[1])
                if new not in best and (new[1], new[0]) not in best:
                    best[new] = (conf * 0.9, p, source.split("+")[0] + "+beaten")
            break


def won_in_larger_event(
    by_name: Mapping[str, Predicate], args: list[Mention], loose_words: list[str], best: BestRelations
) -> None:
    """Who won an event, prize or race held in a larger event took part in that one (حقق سفيان البقالي ذهبية
    سباق 3000 متر موانع في دورة الألعاب الأولمبية بباريس; نالت … جائزة العين الذهبية في مهرجان كان)."""
    p = by_name.get("participant_in")
    if p is None:
        return
    by_key = {(e.start, e.end, e.type): e for e in args}
    for key, (conf, won, source) in list(best.items()):
        prize = by_key.get(key[1])
        winner = by_key.get(key[0])
        if won.name != "won" or prize is None or winner is None:
            continue
        for e in args:
            if e.type != "EVENT" or e is prize:
                continue
            attached = e.first == prize.last and object_preposition(loose_words[e.first]) == "في"
            if not attached and not (e.first == prize.last + 1 and loose_words[prize.last] == "في"):
                continue
            new = ((winner.start, winner.end, winner.type), (e.start, e.end, e.type))
            if p.allows(winner.type, e.type) and new not in best and (new[1], new[0]) not in best:
                best[new] = (conf * 0.9, p, source.split("+")[0] + "+in")


def carry_over_to_conjuncts(
    args: list[Mention],
    loose_words: list[str],
    best: BestRelations,
    ents: list[Mention],
) -> None:
    """A relation carries over to an entity coordinated with its subject or object by و (تحد المغرب الجزائر
    من الشرق وموريتانيا من الجنوب; العربية والأمازيغية لغتان رسميتان في الجزائر), the same type, at most
    three words after it, with no entity of that type in between. A person's و may stand on the title before
    the name (استقبل … ناريندرا مودي ووزير الخارجية الهندي سوبرامانيام جايشانكار); a post does not carry over
    to a title that names its own holder (… مودي ووزير الخارجية … جايشانكار: the title is جايشانكار's)."""
    by_key = {(e.start, e.end, e.type): e for e in args}
    todo = list(best.items())
    while todo:
        key, (conf, p, source) = todo.pop()
        if p.functional or source.startswith("nested/"):
            continue  # … nor does one read off a name (الريال البرازيلي names البرازيل, not its conjuncts)
        for side in (0, 1):
            first = by_key.get(key[side])
            if first is None:
                continue
            for e in args:
                if e.type != first.type or e.first < first.last:
                    continue
                # where the conjunct starts: the titles before a person's name are part of it
                start = lead_of(e, ents) if e.type == "PERS" else e.first
                if start < first.last or start - first.last > 3:
                    continue
                if not loose_words[start].startswith("و") or loose_words[start] in ("وزير", "وزيرة"):
                    continue
                if e.type == "OCC" and any(h.span != key[0][:2] for h in title_holders(e, ents, loose_words)):
                    continue
                if start != e.first and p.name in _OWN_TITLE:
                    continue  # a person named with a title of their own holds that one, not the first's
                if any(f.type == e.type and first.last <= f.first and f.last <= e.first for f in args):
                    continue
                other = by_key.get(key[1 - side])
                if other is None or other is e or (e.start < other.end and other.start < e.end):
                    continue
                ek = (e.start, e.end, e.type)
                new = (ek, key[1]) if side == 0 else (key[0], ek)
                if new not in best and (new[1], new[0]) not in best:
                    best[new] = (conf * 0.9, p, source.split("+")[0] + "+and")
                    todo.append((new, best[new]))
