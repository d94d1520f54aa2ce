"""The trigger patterns: ``RelationExtractor`` reads the relations of a text one sentence at a time, over each
ordered pair of the sentence's entities, then the steps of ``derived`` and the ``classifier``.

For every ordered pair of entities at most ``max_gap`` words apart (a trigger's own ``max_gap`` may narrow or
widen that; an entity between the two counts as one word, a courtesy title such as الشيخ as none), a pattern of the
inventory (``rules``) matches when its trigger words occur at its site (``between``: in the text between the two
entities; ``before``: within three words before the first, or before the titles standing right before it — ولد
الكاتب الفلسطيني سليم حداد — and never past an earlier entity of the first one's type) and the pair's order fits
(``so``: subject first; ``os``: object first); an empty trigger means adjacency. Verb-first sentences: a
``between`` trigger may also stand before the subject, or its verb may and its preposition stand between (ولد
الشاعر محمود درويش في البروة); an object-first trigger may be split like a verb-first one (تعاقد نادي برشلونة مع
المدرب …).
A trigger's last preposition may be the object's clitic (يقع في الرباط / … بالرباط; التابعة ل / لمجموعة زين). A
trigger word ``*`` matches any one word (يعمل * في: ويعمل جراحا في). A trigger may narrow the subject's or object's
type or first word (``subject_heads``: an institution such as جامعة is ``located_in`` a city, an organisation has
its ``headquarters`` there), or want a subject without a nisba inside (``plain_subject``: شركة سامسونج الكورية في
الرياض is where it acts, not where it sits); a ``topic`` trigger (a possessive pronoun: موقعها، مقرها) takes the
entity before it when that is the sentence's first of its type, at any distance. A candidate is kept only when the
subject's type is in the predicate's domain and the object's type in its range: no relation ever breaks domain →
range. An entity inside another one's name (the PERS خالد in مطار الملك خالد الدولي) is no argument of a trigger:
the nesting rules relate it to its whole. Words are compared loosely (``loose_unpunctuated``, then ``words``) but
keep the ta marbuta, which tells والدة (mother of) from والده (his father); numbers count as words. A ``between``
trigger after a nearer entity of the subject's type (not coordinated with it, not in a prepositional phrase) is
that entity's (أن زوجته ناهد ستشارك في …: ناهد takes part).

Long-distance pairs: the words between may also be read past a clause set off by two commas right after the first
entity (شركة أبل، التي أسسها …، نظارتها …) and past the first entity's conjuncts (التقى A وB وC في كييف D: each
meets D), and a ``between`` trigger standing right before the object, after every entity between, is the object's
even when a nearer entity could fill its slot (ولدت … في مدينة …، وتقيم في دبي); a ``between`` trigger right
before the second entity's titles passes the entities between in either order (… في مدينة الخور بحضور رئيس الاتحاد
… إنفانتينو), not into a title holding the second entity. The sentence's topic (its first entity of its type) is
the elided subject of a later clause: a trigger (not a bare preposition) right before the second entity or the
titles before it relates the two at up to ``FAR_GAP`` words, when no entity between could fill the topic's slot
and the two differ in type (… ثم عمل في هيئة الإذاعة البريطانية; … بمشاركة المخرج الموريتاني …). A trigger before two
conjuncts relates each of them, not one to the other, unless it is marked ``conjuncts`` (الحدود بين الأردن
والعراق; ابنتيه ليلى وسلمى).

``confidence = precision × entity confidence × exp(−0.08 × words between)``: the pattern's measured precision
(``rules``: calibrated with ``MEASURE_CONFIDENCE``), the mean of the two entities' ``confidence`` (1.0 when the NER
gives none) and a decay with distance (none for a ``topic`` trigger; for the elided subject of a later clause the
trigger's own reach, not the distance). Per pair of entities the best predicate wins; for a functional predicate
(one birth place, one capital …) a subject keeps its best object only. The steps of ``derived`` add what nesting,
coordination and the relations found imply, and an organisation named again by its head noun stands in for it.

A statistical layer (``classifier``, weights in ``data/relations_classifier.json``) then adds, for pairs
of entities no pattern judged, the relation its logistic regression finds likely enough (pattern ``classifier``
with ``explain``), short of a second relation of a kind the patterns gave the subject or object, a courtesy title
beside a post held, or a state other than the one the subject's own nisba names. ``classifier=None``: the
patterns alone (the calibration measures them so).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product
from typing import Any, Final, Literal

from tahqiq.analysis.relations.classifier import RelationClassifier, load_classifier
from tahqiq.analysis.relations.derived import (
    beaten_took_part,
    carry_over_to_conjuncts,
    drop_courtesy_posts,
    heads_named_again,
    nested_relations,
    organisations_named_again,
    won_in_larger_event,
)
from tahqiq.analysis.relations.mentions import (
    BestRelations,
    PairKey,
    is_honorific,
    is_name_part,
    lead_of,
    title_holders,
)
from tahqiq.analysis.relations.model import ANY_WORD, Mention, Predicate, Trigger
from tahqiq.analysis.relations.rules import NestedRule, load_inventory, load_nested_rules
from tahqiq.analysis.relations.words import (
    PREPOSITIONS,
    SPLIT_AT,
    clitic_ends_trigger,
    contains,
    head_in,
    match_forms,
    nisba_names,
    object_preposition,
    occurs,
)
from tahqiq.arabic.keys import loose_unpunctuated
from tahqiq.core import scan
from tahqiq.text.sentences import sentence_spans

__all__ = ["ENTITY_TYPES", "MEASURE_CONFIDENCE", "RelationExtractor"]

ENTITY_TYPES: Final = (
    "PERS NORP OCC ORG GPE LOC FAC EVENT DATE TIME CARDINAL ORDINAL PERCENT LANGUAGE QUANTITY WEBSITE UNIT LAW "
    "MONEY PRODUCT CURR"
).split()
DECAY: Final = 0.08
# a pattern's relation is kept at this confidence or more (chosen on the development sets: docs/design/relations.md);
# the calibration measures every pattern that matches (MEASURE_CONFIDENCE), so that a pattern the threshold leaves
# out is still counted and its measured precision cannot flip back to its prior
MIN_CONFIDENCE: Final = 0.3
MEASURE_CONFIDENCE: Final = 0.0
BEFORE_WINDOW: Final = 3
DEFAULT_MAX_GAP: Final = 8
_COMMAS: Final = frozenset("،,")
# the longest clause between two commas that a pair's words may skip (a relative clause or an apposition)
PARENTHETICAL: Final = 12
# the farthest a later clause's verb may stand from the sentence's topic, its elided subject (words)
FAR_GAP: Final = 30

# a relation as the sentence's steps hand it on: (confidence, predicate, subject, object, pattern)
_Relation = tuple[float, Predicate, Mention, Mention, str]
# a pair's reading of the words between: distance, words, courtesy-title word indices, argument types between
_View = tuple[int, list[str], frozenset[int], set[str]]


@dataclass(frozen=True, slots=True)
class _Layout:
    """A sentence's entities indexed for reading the words between two of them (``RelationExtractor._view``)."""

    order: list[Mention]  # by first word, the longer first
    firsts: list[int]  # each one's first word, for bisection
    twins: frozenset[int]  # ids of the entities another one spans exactly (the same words, another type)
    parts: frozenset[int]  # ids of the entities inside another's name (no arguments)

    @classmethod
    def of(cls, ents: list[Mention], args: list[Mention]) -> _Layout:
        order = sorted(ents, key=lambda e: (e.first, -e.last))
        spans = Counter((e.first, e.last) for e in ents)
        arguments = {id(e) for e in args}
        return cls(
            order,
            [e.first for e in order],
            frozenset(id(e) for e in ents if spans[e.first, e.last] > 1),
            frozenset(id(e) for e in ents if id(e) not in arguments),
        )


def _entity_fields(entity: Any) -> dict[str, Any]:
    """An entity given as a dict (the JSON shape) or an object with the same attributes (the recognizer's)."""
    if isinstance(entity, dict):
        return entity
    return {k: getattr(entity, k, None) for k in ("type", "start", "end", "text", "confidence")}


def _conjuncts(args: list[Mention], leads: dict[int, int], loose_words: list[str]) -> dict[int, list[Mention]]:
    """Each argument's conjuncts (by ``id``): the entities of its type coordinated right after it by و, on a
    person's title when it has one (… ماكرون والمستشار الألماني فريدريش ميرتس ورئيس الوزراء البريطاني كير ستارمر)."""
    conjuncts: dict[int, list[Mention]] = {}
    for a in reversed(args):
        nxt = next(
            (
                e
                for e in args
                if e.type == a.type
                and leads[id(e)] == a.last
                and loose_words[leads[id(e)]].startswith("و")
                and loose_words[leads[id(e)]] not in ("وزير", "وزيرة")
            ),
            None,
        )
        conjuncts[id(a)] = [] if nxt is None else [nxt, *conjuncts.get(id(nxt), [])]
    return conjuncts


def _words_before(a: Mention, lead: int, ents: list[Mention], loose_words: list[str]) -> list[str]:
    """The words a ``before`` trigger of the pair may stand in: up to ``BEFORE_WINDOW`` words before ``a``'s
    titles (``lead``, their first word)."""
    # a trigger before the first entity does not reach past another one of its type (تحد عمان
    # الإمارات …: تحد is عمان's), but past others (أسس محمد العلي شركة الأفق عام 2010)
    fence = max([0, *(e.last for e in ents if e.last <= lead and e.type == a.type)])
    # … nor into the subject's own title (رئيس بلدية الخليل تيسير …: رئيس is no trigger here)
    return loose_words[max(fence, lead - BEFORE_WINDOW) : lead]


def _arguments_fit(t: Trigger, subj: Mention, obj: Mention, ents: list[Mention], loose_words: list[str]) -> bool:
    """Whether the subject and object are of the types and start with the words the trigger wants, and the
    subject holds no nisba when the trigger wants a plain one."""
    if t.object_types is not None and obj.type not in t.object_types:
        return False
    if t.subject_types is not None and subj.type not in t.subject_types:
        return False
    head = loose_words[subj.first]
    if t.subject_heads is not None and not head_in(head, t.subject_heads):
        return False
    if head_in(head, t.not_subject_heads):
        return False
    head = loose_words[obj.first]
    if t.object_heads is not None and not head_in(head, t.object_heads):
        return False
    if head_in(head, t.not_object_heads):
        return False
    return not (
        t.plain_subject and any(e.type == "NORP" and subj.first <= e.first and e.last <= subj.last for e in ents)
    )


def _post_held_by_another(
    t: Trigger, p: Predicate, gap: int, subj: Mention, obj: Mention, ents: list[Mention], loose_words: list[str]
) -> bool:
    """Whether a title right after a person (an empty ``holds_position`` trigger) is not that person's post: it
    belongs to the next name, or it is a courtesy title after the post that is held."""
    if not t.words and gap == 0 and p.name == "holds_position" and t.order == "so":
        if any(e is not subj and e.first >= obj.last for e in title_holders(obj, ents, loose_words)):
            return True  # … محمود عباس وزير الخارجية أيمن الصفدي: the title is the next name's
    if not t.words and gap == 0 and p.name == "holds_position":
        title = obj
        if is_honorific(title, loose_words) and any(
            f.last == title.first and f.type == "OCC" and not is_honorific(f, loose_words) for f in ents
        ):
            return True  # the post before the courtesy title is the one held
    return False


def _said_of_names(best: BestRelations, ents: list[Mention], aliases: dict[Mention, Mention]) -> list[_Relation]:
    """The relations found, most confident first, an alias's said of the organisation it names instead, and left
    out when the name's own relations already say it."""
    found: list[_Relation] = []
    index = {(e.start, e.end, e.type): e for e in ents}
    mapped: set[tuple[str, PairKey]] = set()
    for (sk, ok), (conf, p, source) in sorted(best.items(), key=lambda kv: -kv[1][0]):
        s, o = aliases.get(index[sk], index[sk]), aliases.get(index[ok], index[ok])
        said_of = (p.name, ((s.start, s.end, s.type), (o.start, o.end, o.type)))
        if s is o or said_of in mapped or (said_of[1] != (sk, ok) and said_of[1] in best):
            continue  # the alias says nothing the name's own relations do not
        mapped.add(said_of)
        found.append((conf, p, s, o, source))
    found.sort(key=lambda f: -f[0])
    return found


def _best_of_functional(found: list[_Relation]) -> tuple[list[_Relation], set[tuple[str, int, int]]]:
    """The relations kept, most confident first: for a functional predicate a subject keeps its best object only;
    and the ``(predicate, subject start, subject end)`` of those functional ones taken."""
    kept: list[_Relation] = []
    taken: set[tuple[str, int, int]] = set()
    for conf, p, s, o, source in found:
        if p.functional:
            k = (p.name, s.start, s.end)
            if k in taken:
                continue
            taken.add(k)
        kept.append((conf, p, s, o, source))
    return kept, taken


class RelationExtractor:
    """``extract(text, entities)`` → ``[{predicate, subject, object, confidence}]`` (see the module docstring)."""

    def __init__(
        self,
        predicates: list[Predicate] | None = None,
        nested: list[NestedRule] | None = None,
        *,
        max_gap: int = DEFAULT_MAX_GAP,
        min_confidence: float = MIN_CONFIDENCE,
        classifier: RelationClassifier | Literal["shipped"] | None = "shipped",
    ) -> None:
        self.predicates = predicates if predicates is not None else load_inventory()
        if classifier == "shipped":
            classifier = load_classifier()
        # the statistical layer adding what the patterns miss (None: the patterns alone)
        self.classifier: RelationClassifier | None = classifier
        self.by_name = {p.name: p for p in self.predicates}
        self.nested = [
            r for r in (nested if nested is not None else load_nested_rules()) if r.predicate in self.by_name
        ]
        self.max_gap = max_gap
        self.min_confidence = min_confidence

    def inventory(self) -> list[dict[str, Any]]:
        """``[{predicate, domain, range, description}]`` for the documentation and the API."""
        return [
            {"predicate": p.name, "domain": sorted(p.domain), "range": sorted(p.range), "description": p.description}
            for p in self.predicates
        ]

    def _entities(self, text: str, entities: Iterable[Any], words: list[tuple[int, int]]) -> list[Mention]:
        """The given entities of a known type lying within the text, with the ``words`` (spans) they cover."""
        out: list[Mention] = []
        for e in entities:
            get = _entity_fields(e).get
            etype, start, end = str(get("type")), int(get("start") or 0), int(get("end") or 0)
            if etype not in ENTITY_TYPES or not 0 <= start < end <= len(text):
                continue
            idx = [i for i, (s, t) in enumerate(words) if s < end and t > start]
            if not idx:
                continue
            conf = get("confidence", None)
            out.append(
                Mention(
                    etype,
                    str(get("text", None) or text[start:end]),
                    start,
                    end,
                    1.0 if conf is None else float(conf),
                    idx[0],
                    idx[-1] + 1,
                )
            )
        return out

    def _trigger_site_ok(
        self,
        t: Trigger,
        a: Mention,
        b: Mention,
        between: list[str],
        before: list[str],
        gap: int,
        loose_words: list[str],
        courtesy: frozenset[int] = frozenset(),
        *,
        coordinated: bool = False,
    ) -> bool:
        """Whether trigger ``t`` stands where its site wants it for the pair (``between``: the words between,
        ``before``: the words before the first entity; ``coordinated``: ``b`` is one of ``a``'s conjuncts)."""
        if t.site == "before":
            limit = BEFORE_WINDOW if t.max_gap is None else t.max_gap
            # a verb before two conjuncts is said of both, not of one to the other (unless the trigger is one
            # relating conjuncts: الحدود بين الأردن والعراق, ابنتيه ليلى وسلمى)
            if coordinated and not t.conjuncts:
                return False
            return gap <= limit and bool(t.words) and contains(before, t.words)
        words = t.words
        if not words:
            return not between or all(i in courtesy for i in range(a.last, b.first))
        if t.order == "so" and clitic_ends_trigger(words, loose_words[b.first], own_only=True):
            between = [*between, words[-1]]
        if contains(between, words):
            return True
        if not words or coordinated:
            return False  # a verb before two conjuncts is said of both, not of one to the other
        # verb-first sentences: the trigger stands before the subject, or its verb does and its preposition
        # stands between (ولد الشاعر محمود درويش في البروة); object first, only the split one: the verb's own
        # subject stands first and its preposition before the relation's subject (تعاقد نادي برشلونة مع المدرب …)
        if t.order == "so" and gap <= 1 and contains(before, words):
            return True
        return any(
            words[k] in SPLIT_AT and contains(before, words[:k]) and contains(between, words[k:])
            for k in range(1, len(words))
        )

    def prepare(self, text: str, entities: Iterable[Any]) -> tuple[list[Mention], list[Mention], list[str]]:
        """The sentence's entities, those of them that are no part of a name (the arguments) and its loosely
        normalised words (numbers are words too: an entity may be one, DATE 2026 inside كأس العالم 2026)."""
        ents, args, words, _ = self._prepare(text, entities)
        return ents, args, words

    def _prepare(
        self, text: str, entities: Iterable[Any]
    ) -> tuple[list[Mention], list[Mention], list[str], frozenset[int]]:
        """``prepare``'s answer and the indices of the words a comma stands right before."""
        tokens = []
        commas: set[int] = set()
        for t in scan(text):
            if t.kind in ("word", "number"):
                tokens.append(t)
            elif t.text in _COMMAS:
                commas.add(len(tokens))
        ents = self._entities(text, entities, [(t.start, t.end) for t in tokens])
        args = [e for e in ents if not is_name_part(e, ents)]
        return ents, args, [loose_unpunctuated(t.text) for t in tokens], frozenset(commas)

    @staticmethod
    def _parenthetical(a: Mention, b: Mention, commas: frozenset[int], ents: list[Mention]) -> int | None:
        """Where the words after ``a`` go on once a clause set off by two commas right after it is skipped
        (شركة أبل، التي أسسها ستيف جوبز عام 1976، نظارتها …; ومقرها الدار البيضاء، أنها …): the index of the
        first word after the second comma, when it lies before ``b`` and the clause is short; None otherwise."""
        if a.last not in commas:
            return None
        for j in range(a.last + 1, min(b.first, a.last + PARENTHETICAL) + 1):
            if j in commas:
                # an entity running across the comma is no clause boundary
                if j == b.first or any(e.first < j < e.last for e in ents):
                    return None
                return j
        return None

    def extract(self, text: str, entities: Iterable[Any], *, explain: bool = False) -> list[dict[str, Any]]:
        """The relations found; with ``explain`` each also names its ``pattern`` (``predicate/i``: the
        predicate's i-th trigger; ``nested/i``: the i-th nesting rule; ``…+and``: carried over a coordination),
        as the calibration counts them.

        Each sentence is read on its own (``sentence_spans``: a sentence longer than its bound is cut at clause
        marks), with the entities wholly inside it: a relation is said within one sentence, and the work per
        sentence is bounded, so the work per text grows linearly with its length."""
        spans = sentence_spans(text)
        if len(spans) <= 1:
            return self._extract_sentence(text, entities, explain)
        given = [(int(f.get("start") or 0), int(f.get("end") or 0), f) for f in map(_entity_fields, entities)]
        found: list[dict[str, Any]] = []
        for start, end in spans:
            inside = [{**f, "start": s - start, "end": e - start} for s, e, f in given if start <= s and e <= end]
            if len(inside) < 2:
                continue  # a relation needs two entities (an organisation named again stands for the one named)
            for relation in self._extract_sentence(text[start:end], inside, explain):
                for role in ("subject", "object"):
                    relation[role]["start"] += start
                    relation[role]["end"] += start
                found.append(relation)
        return found

    def _extract_sentence(self, text: str, entities: Iterable[Any], explain: bool) -> list[dict[str, Any]]:
        """One sentence's relations, in text order: the patterns over its pairs, the steps of ``derived``, one
        object per functional predicate, then what the classifier adds."""
        ents, args, loose_words, commas = self._prepare(text, entities)
        named, spans = ents, args  # the entities given: the classifier judges pairs of these only
        # an organisation named again by its head noun (… نادي الترجي …، بعد مشاركة النادي في …) stands in for it
        aliases = organisations_named_again(text, ents, loose_words)
        if aliases:
            ents = sorted([*ents, *aliases], key=lambda e: (e.start, -e.end))
            args = sorted([*args, *aliases], key=lambda e: (e.start, -e.end))
        best = self._pattern_relations(ents, args, loose_words, commas)
        nested_relations(self.nested, self.by_name, self.min_confidence, ents, loose_words, best)
        # pairs the patterns judged (a courtesy title dropped below included): the classifier leaves them alone
        judged = set(best)
        drop_courtesy_posts(ents, loose_words, best)
        heads_named_again(self.by_name, self.min_confidence, ents, args, loose_words, best)
        beaten_took_part(self.by_name, args, ents, loose_words, best)
        carry_over_to_conjuncts(args, loose_words, best, ents)
        won_in_larger_event(self.by_name, args, loose_words, best)
        kept, taken = _best_of_functional(_said_of_names(best, ents, aliases))
        if self.classifier is not None:
            judged |= set(best)
            kept += self._classified(self.classifier, text, named, spans, ents, loose_words, judged, kept, taken)
        kept.sort(key=lambda f: (f[2].start, f[3].start, f[1].name))
        out: list[dict[str, Any]] = []
        for conf, p, s, o, source in kept:
            r = {"predicate": p.name, "subject": s.as_dict(), "object": o.as_dict(), "confidence": round(conf, 3)}
            if explain:
                r["pattern"] = source
            out.append(r)
        return out

    def _pattern_relations(
        self, ents: list[Mention], args: list[Mention], loose_words: list[str], commas: frozenset[int]
    ) -> BestRelations:
        """The trigger patterns over every ordered pair of arguments (the first before the second in the text):
        per pair, its most confident relation either way round, at ``min_confidence`` or more."""
        layout = _Layout.of(ents, args)
        best: BestRelations = {}
        widest = max([self.max_gap, *(t.max_gap or 0 for p in self.predicates for t in p.triggers)])
        reach = max(widest, FAR_GAP)  # no view further than this is read
        leads = {id(e): lead_of(e, ents) for e in args}
        conjuncts = _conjuncts(args, leads, loose_words)
        live = self._live_triggers(loose_words)
        for a in args:
            for b in args:
                if a is b or not (a.end <= b.start) or a.last > b.first:
                    continue
                conj = conjuncts[id(a)]
                views = self._views(a, b, conj, layout, loose_words, commas, ents, reach)
                coordinated = b in conj
                # the sentence's topic (its first entity of its type) is the elided subject of a later clause
                # whose verb stands right before the object, at any distance, when no entity that could be the
                # subject stands between (أنس جابر، المولودة في …، وتقيم في دبي، وقد وصلت إلى نهائي بطولة …)
                elided = not coordinated and self._topic(a, args)
                views = [v for k, v in enumerate(views) if v[0] <= widest or (elided and k == 0 and v[0] <= FAR_GAP)]
                if not views:
                    continue
                before = _words_before(a, leads[id(a)], ents, loose_words)
                per_predicate = zip(self.predicates, live, strict=True)
                for (p, triggers), view in product(per_predicate, views):
                    for ti, t in triggers:
                        conf = self._trigger_confidence(
                            t, p, a, b, view, before, ents, args, loose_words, coordinated=coordinated, elided=elided
                        )
                        if conf is None or conf < self.min_confidence:
                            continue
                        subj, obj = (a, b) if t.order == "so" else (b, a)
                        key = ((subj.start, subj.end, subj.type), (obj.start, obj.end, obj.type))
                        rkey = (key[1], key[0])
                        old = best.get(key) or best.get(rkey)
                        if old is None or conf > old[0]:
                            best.pop(rkey, None)
                            best[key] = (conf, p, f"{p.name}/{ti}")
        return best

    def _live_triggers(self, loose_words: list[str]) -> list[list[tuple[int, Trigger]]]:
        """Per predicate, its triggers (with their index) that may match in the sentence: a trigger whose first
        word occurs nowhere in it matches no pair (a preposition may be an entity's clitic, بالرباط, so it is
        always looked for pair by pair)."""
        forms = match_forms(loose_words)
        return [
            [
                (ti, t)
                for ti, t in enumerate(p.triggers)
                if not t.words or t.words[0] in PREPOSITIONS or occurs(t.words[0], forms)
            ]
            for p in self.predicates
        ]

    def _views(
        self,
        a: Mention,
        b: Mention,
        conj: list[Mention],
        layout: _Layout,
        loose_words: list[str],
        commas: frozenset[int],
        ents: list[Mention],
        reach: int,
    ) -> list[_View]:
        """The pair's readings of the words between (``_view``): as they stand, past a clause set off by commas
        right after the first entity (a relative clause or an apposition: its words and entities are not the
        pair's), and past the first's conjuncts ``conj`` (they share what is said of it: التقى A وB وC في كييف D)."""
        views = [self._view(a, b, a.last, layout, loose_words, reach)]
        skip = self._parenthetical(a, b, commas, ents)
        if skip is not None:
            views.append(self._view(a, b, skip, layout, loose_words, reach))
        if conj and conj[-1].last <= b.first and b not in conj:
            views.append(self._view(a, b, conj[-1].last, layout, loose_words, reach))
        return views

    def _trigger_confidence(
        self,
        t: Trigger,
        p: Predicate,
        a: Mention,
        b: Mention,
        view: _View,
        before: list[str],
        ents: list[Mention],
        args: list[Mention],
        loose_words: list[str],
        *,
        coordinated: bool,
        elided: bool,
    ) -> float | None:
        """The confidence of the relation ``p`` that trigger ``t`` finds between ``a`` and ``b`` read in ``view``
        (``before``: the words a ``before`` trigger may stand in), or None when it finds none."""
        gap, between, courtesy, inside = view
        subj, obj = (a, b) if t.order == "so" else (b, a)
        if not p.allows(subj.type, obj.type):
            return None
        limit = self.max_gap if t.max_gap is None else t.max_gap
        beyond = gap > limit
        if beyond and not (elided and self._far_trigger(t, p, a, b, ents, args, loose_words)):
            return None
        if not _arguments_fit(t, subj, obj, ents, loose_words):
            return None
        if t.topic:
            # the pronoun refers to the entity before it, the sentence's first of its type (سكانها: the
            # city; مقرها: the organisation)
            far = a
            if any(e.type == far.type and e.start < far.start for e in args):
                return None
        elif (
            not beyond
            and inside & (p.range if t.order == "so" else p.domain)
            and not self._past_fillers(t, a, b, ents, loose_words, p.range if t.order == "so" else p.domain)
        ):
            return None  # a nearer entity could fill the far slot: it is the one related
        if not self._trigger_site_ok(t, a, b, between, before, gap, loose_words, courtesy, coordinated=coordinated):
            return None
        if (
            t.site == "between"
            and t.order == "so"
            and t.words
            and self._nearer_subject(t, a, b, ents, loose_words, b.first - len(between))
        ):
            return None
        if _post_held_by_another(t, p, gap, subj, obj, ents, loose_words):
            return None
        precision = p.precision if t.precision is None else t.precision
        decay = 1.0 if t.topic else math.exp(-DECAY * min(gap, limit))
        return precision * (subj.confidence + obj.confidence) / 2 * decay

    def _classified(
        self,
        classifier: RelationClassifier,
        text: str,
        named: list[Mention],
        spans: list[Mention],
        ents: list[Mention],
        loose_words: list[str],
        judged: set[PairKey],
        kept: list[_Relation],
        taken: set[tuple[str, int, int]],
    ) -> list[_Relation]:
        """What the classifier adds to the ``kept`` relations, for the pairs of the entities given (``named``,
        ``spans``: the arguments) that no pattern ``judged``."""
        pairs = {(k[0][:2], k[1][:2]) for k in judged} | {(k[1][:2], k[0][:2]) for k in judged}
        said = [(p.name, s.span, o.span) for _, p, s, o, _ in kept]
        posts = {s.span for _, p, s, o, _ in kept if p.name == "holds_position"}
        held: set[tuple[str, tuple[int, int]] | tuple[str, tuple[int, int], str]] = {
            (p.name, s.span) for _, p, s, o, _ in kept
        } | {(p.name, o.span, "o") for _, p, s, o, _ in kept}
        added: list[_Relation] = []
        for conf, p, s, o in classifier.additions(text, named, spans, loose_words, self.predicates, pairs, taken, said):
            if p.name == "holds_position" and s.span in posts and is_honorific(o, loose_words):
                continue  # a courtesy title beside a post held is no post (see derived.drop_courtesy_posts)
            if (p.name, s.span) in held or (p.name, o.span, "o") in held:
                continue  # the patterns gave the subject (or object) its relation of this kind: no second
            if o.type == "GPE" and self._other_state(s, o, ents, loose_words):
                continue  # the subject is named with another state's nisba (الدستور المصري … ليبيا)
            conf *= (s.confidence + o.confidence) / 2
            if conf >= self.min_confidence:
                added.append((conf, p, s, o, "classifier"))
        return added

    def _view(self, a: Mention, b: Mention, start: int, layout: _Layout, loose_words: list[str], reach: int) -> _View:
        """The pair's distance, words between, courtesy-title word indices and the types of the argument entities
        between, reading the words from ``start`` (``a.last``, or past a parenthetical clause) to ``b``; only the
        distance when it is over ``reach``."""
        # entities between the two count as one word each: an interposed date or place is one phrase
        order = layout.order
        inner = [
            e
            for e in order[bisect_left(layout.firsts, start) : bisect_left(layout.firsts, b.first)]
            if e.last <= b.first
        ]
        # the outermost, inside no other one: in this order, an entity is inside an earlier one that reaches as
        # far, or inside its twin (the same words, another type)
        outermost = []
        furthest = -1
        for e in inner:
            if furthest < e.last and id(e) not in layout.twins:
                outermost.append(e)
            furthest = max(furthest, e.last)
        covered = {i for e in outermost for i in range(e.first, e.last)}
        # … and a courtesy title none (نائب رئيس الوزراء الشيخ فهد اليوسف)
        honorific = [e for e in outermost if is_honorific(e, loose_words)]
        gap = b.first - start - len(covered) + len(outermost) - len(honorific)
        if gap > reach:
            return gap, [], frozenset(), set()  # too far for any trigger: the caller drops the view
        courtesy = frozenset(i for e in honorific for i in range(e.first, e.last))
        inside = {e.type for e in inner if id(e) not in layout.parts}
        return gap, loose_words[start : b.first], courtesy, inside

    @staticmethod
    def _other_state(subject: Mention, state: Mention, ents: list[Mention], loose_words: list[str]) -> bool:
        """Whether ``subject`` holds a nisba (a NORP inside its name) that does not name ``state``."""
        nisbas = [e for e in ents if e.type == "NORP" and subject.start <= e.start and e.end <= subject.end]
        state_words = loose_words[state.first : state.last]
        return bool(nisbas) and not any(nisba_names(loose_words[n.first : n.last], state_words) for n in nisbas)

    @staticmethod
    def _topic(a: Mention, args: list[Mention]) -> bool:
        """Whether ``a`` is the sentence's first argument of its type."""
        return not any(e.type == a.type and e.first < a.first for e in args)

    def _far_trigger(
        self,
        t: Trigger,
        p: Predicate,
        a: Mention,
        b: Mention,
        ents: list[Mention],
        args: list[Mention],
        loose_words: list[str],
    ) -> bool:
        """Whether ``t`` may relate the sentence's topic ``a`` to ``b`` (of another type) past the trigger's
        distance: a verb or noun (not a bare preposition) standing right before ``b`` or the titles before it (…
        بمشاركة المخرج الموريتاني عبد الرحمن سيساكو), with no entity between that could fill ``a``'s slot instead."""
        if t.site != "between" or t.topic or not any(len(w) >= 3 and w not in SPLIT_AT for w in t.words):
            return False
        if a.type == b.type:
            return False  # two persons far apart: which one a kinship word or a meeting is about is unclear
        if t.order == "so":
            slot = p.domain if t.subject_types is None else p.domain & t.subject_types
        else:
            slot = p.range if t.object_types is None else p.range & t.object_types
        if any(e.type in slot and a.last <= e.first and e.last <= b.first for e in args):
            return False
        words = t.words
        clitic = clitic_ends_trigger(words, loose_words[b.first], own_only=False)  # the same for either end
        for end in {b.first, lead_of(b, ents)}:
            tail = loose_words[max(a.last, end - len(words) - 1) : end]
            if clitic:
                tail = [*tail, words[-1]]
            if contains(tail, words):
                return True
        return False

    def _past_fillers(
        self, t: Trigger, a: Mention, b: Mention, ents: list[Mention], loose_words: list[str], slot: frozenset[str]
    ) -> bool:
        """Whether a ``between`` trigger stands after every entity between the two (those that could fill the
        far slot among them), right before the second entity or the titles before it, so that none of them can be
        related instead (ولدت … في مدينة قصر هلال …، وتقيم في دبي: تقيم في is دبي's, not the city's before it;
        افتتح … البطولة على استاد البيت في مدينة الخور بحضور رئيس الاتحاد … إنفانتينو: he attends, not the city)."""
        if t.site != "between" or not t.words or t.topic:
            return False
        lead = lead_of(b, ents)
        # a word naming an organisation again is no entity standing between (… فهد بن نافل إن النادي تعاقد مع …)
        inner = [e for e in ents if a.last <= e.first and e.last <= lead and not e.alias]
        if not inner:
            return False
        start = max(e.last for e in inner)
        if any(start <= e.first < lead for e in ents):
            return False  # the second entity is inside a title there (رئيس الاتحاد الدولي …): the title is related
        tail = loose_words[start:lead]
        words = t.words
        clitic = clitic_ends_trigger(words, loose_words[lead], own_only=False)
        if clitic:
            tail = [*tail, words[-1]]  # the preposition is the object's clitic (… وتقيم بالرباط)
        # the trigger ends the words before the object: nothing of the sentence's own stands between them
        if len(tail) <= len(words) + 1 and contains(tail, words):
            return True
        # … or a trigger with a word of any kind holds an entity that could fill no slot (ويعمل جراحا في …)
        if ANY_WORD not in words:
            return False
        size = len(words) - clitic
        window = lead - size
        if window < a.last or any(window <= e.first < lead and e.type in slot for e in ents):
            return False
        return contains([*loose_words[window:lead], *words[size:]], words)

    def _nearer_subject(
        self, t: Trigger, a: Mention, b: Mention, ents: list[Mention], loose_words: list[str], start: int
    ) -> bool:
        """Whether an entity of the subject's type stands between ``start`` (where the words read begin: the
        subject's end, or past a parenthetical clause or the subject's conjuncts) and the trigger: the trigger is
        that one's (… أن زوجته ناهد شعبان ستشارك في المعرض: ناهد takes part, not the one before her)."""
        for e in ents:
            if e.type != a.type or e.first < start or e.last > b.first or is_name_part(e, ents):
                continue
            if loose_words[e.first].startswith("و") and e.first - a.last <= 1:
                continue  # coordinated with the subject: the trigger is both's (الفرنسية والإنجليزية لغتان …)
            if object_preposition(loose_words[e.first]) is not None or (
                e.first > 0 and loose_words[e.first - 1] in SPLIT_AT
            ):
                continue  # in a prepositional phrase (… التابعة لمجموعة زين، من مقرها): no subject
            # the trigger must lie wholly after it, as it would for that entity
            if contains(loose_words[e.last : b.first], t.words):
                return True
        return False
