"""Relation extraction over named-entity spans (Area C, `/relations`).

The inventory (``data/relations.json``, CC BY-SA 4.0, written for the project) lists 40 predicates, each with
its domain → range entity types (the 21 Wojood types) and Arabic trigger patterns. For every ordered pair of
entities at most ``max_gap`` words apart (a trigger's own ``max_gap`` may narrow or widen that; an entity between
the two counts as one word, a courtesy title such as الشيخ as none), a pattern matches when its trigger words occur
at its site (``between``: in the text between the two entities; ``before``: within three words before the first,
or before the titles standing right before it — ولد الكاتب الفلسطيني سليم حداد — and never past an earlier
entity of the first one's type) and the pair's order fits (``so``: subject first; ``os``: object first); an
empty trigger means adjacency. Verb-first sentences: a ``between`` trigger may also stand before the subject, or
its verb may and its preposition stand between (ولد الشاعر محمود درويش في البروة). A trigger's last preposition
may be the object's clitic (يقع في الرباط / … بالرباط; التابعة ل / لمجموعة زين). A trigger may narrow the
subject's or object's type or first word (``subject_heads``: an institution such as جامعة is ``located_in`` a
city, an organisation has its ``headquarters`` there), or want a subject without a nisba inside
(``plain_subject``: شركة سامسونج الكورية في الرياض is where it acts, not where it sits); a ``topic`` trigger (a
possessive pronoun: موقعها، مقرها) takes the entity before it when that is the sentence's first of its type, at any
distance. A candidate is kept only when the subject's type is in the
predicate's domain and the object's type in its range: no relation ever breaks domain → range. An entity inside
another one's name (the PERS خالد in مطار الملك خالد الدولي) is related to its whole by the nesting rules only.
Nesting rules read relations off nested entities (EVENT ⊃ city → event_location, PRODUCT ⊃ maker → produces,
OCC ⊃ ORG → member_of / employee_of for a member's or staff title: عضو المكتب السياسي لحركة حماس, المتحدث
باسم وزارة الخارجية); a ``nisba_of`` rule relates the outer entity to an entity elsewhere in the sentence named
by its inner nisba (الدستور الأردني … الأردن → law_of). Words are compared loosely (``_loose``) but keep the
ta marbuta, which tells والدة (mother of) from والده (his father); numbers count as words. A ``between`` trigger
after a nearer entity of the subject's type (not coordinated with it, not in a prepositional phrase) is that
entity's (أن زوجته ناهد ستشارك في …: ناهد takes part).
A relation carries over to an entity coordinated with its subject or object by و (تحد المغرب الجزائر …
وموريتانيا), for a person also by a و on the title before the name (… مودي ووزير الخارجية الهندي جايشانكار), but
a post, nationality or membership never carries over to a person with a title of their own. Long-distance pairs:
the words between may also be read past a clause set off by two commas right after the first entity (شركة أبل،
التي أسسها …، نظارتها …) and past the first entity's conjuncts (التقى A وB وC في كييف D: each meets D), and a
``between`` trigger standing right before the object, after every entity between, is the object's even when a
nearer entity could fill its slot (ولدت … في مدينة …، وتقيم في دبي). The sentence's topic (its first entity of
its type) is the elided subject of a later clause: a trigger (not a bare preposition) right before the second entity
or the titles before it relates the two at up to ``FAR_GAP`` words, when no entity between could fill the topic's
slot and the two differ in type (… ثم عمل في هيئة الإذاعة البريطانية; … بمشاركة المخرج الموريتاني …). A trigger
before two conjuncts relates each
of them, not one to the other, unless it is marked ``conjuncts`` (الحدود بين الأردن والعراق; ابنتيه ليلى وسلمى).
Who won an event held in a larger one (… ذهبية سباق 3000 متر في دورة الألعاب الأولمبية) took part in the larger;
who was beaten in it (… متقدما على الإثيوبي لاميشا غيرما; بعد فوزه على الترجي; وفاز فيها على الأرجنتين) took part
in it too. An object-first trigger may be split like a verb-first one (تعاقد نادي برشلونة مع المدرب …), and a
``between`` trigger right before the second entity's titles passes the entities between in either order (… في
مدينة الخور بحضور رئيس الاتحاد … إنفانتينو), not into a title holding the second entity. A trigger word ``*``
matches any one word (يعمل * في: ويعمل جراحا في). An organisation named again by its definite head noun (نادي
الترجي … مشاركة النادي في …) stands in for it; a heading title followed by that noun or by له, لها heads it (… نزار بركة
أمينا عاما للحزب; رئيسا له; وقال رئيس النادي حمدي المدب).
A person holding a post keeps a courtesy title (الشيخ، الدكتور) only when it is the only one.

``confidence = precision × entity confidence × exp(−0.08 × words between)``: the pattern's MEASURED precision,
the mean of the two entities' ``confidence`` (1.0 when the NER gives none) and a decay with distance (none for a
``topic`` trigger; for the elided subject of a later clause the trigger's own reach, not the distance). Every
trigger and nesting rule carries its own ``precision``, written by
``scripts/calibrate_relations.py``: it runs this extractor (gold entities) on the calibration half —
tests/gold/relations_dev.jsonl, relations_dev_more.jsonl and relations_dev_news.jsonl (development sentences
written for it) and gold ids 1–40 of tests/gold/relations.jsonl (ids 41–80 are held out) — counts each pattern's
true and false positives and stores ``(tp + 1) / (tp + fp + 2)`` (add-one smoothing), or the pattern's ``prior`` (the
predicate's ``precision`` unless the trigger has its own) when it fired fewer than 3 times; ``tp``, ``fp`` and
``prior`` are kept next to it. A trigger without a ``precision`` falls back to its predicate's prior. Re-run the
script after changing a pattern (``--check`` tells whether the file is up to date). Per pair of entities the best
predicate wins; for a functional predicate (one birth place, one capital …) a subject keeps its best object only.

A statistical layer (``classifier``, weights in ``data/relations_classifier.json``) then adds, for pairs
of entities no pattern judged, the relation its logistic regression finds likely enough (pattern ``classifier``
with ``explain``), short of a second relation of a kind the patterns gave the subject or object, a courtesy title
beside a post held, or a state other than the one the subject's own nisba names. ``classifier=None``: the
patterns alone (the calibration measures them so).
"""

from __future__ import annotations

import json
import math
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from itertools import product
from typing import Any, Final, Literal

from tahqiq.analysis.relations.classifier import RelationClassifier, load_classifier
from tahqiq.analysis.relations.model import ANY_WORD, Mention, Predicate, Trigger, word_matches
from tahqiq.arabic.clitics import PROCLITICS
from tahqiq.arabic.keys import loose_unpunctuated
from tahqiq.core import scan
from tahqiq.text.sentences import sentence_spans

__all__ = [
    "ENTITY_TYPES",
    "NestedRule",
    "Predicate",
    "RelationExtractor",
    "Trigger",
    "load_inventory",
    "load_nested_rules",
]

ENTITY_TYPES: Final = (
    "PERS NORP OCC ORG GPE LOC FAC EVENT DATE TIME CARDINAL ORDINAL PERCENT LANGUAGE QUANTITY WEBSITE UNIT LAW "
    "MONEY PRODUCT CURR"
).split()
DECAY: Final = 0.08
# a pattern's relation is kept at this confidence or more (0.2 before; 0.3 chosen on the development sets from
# 0.2-0.4, NER.md); the calibration measures every pattern that matches (MEASURE_CONFIDENCE), so that a pattern
# the threshold leaves out is still counted and its measured precision cannot flip back to its prior
MIN_CONFIDENCE: Final = 0.3
MEASURE_CONFIDENCE: Final = 0.0
BEFORE_WINDOW: Final = 3
DEFAULT_MAX_GAP: Final = 8


# head nouns of place, institution and event names that a clitic ب or ل may be attached to (بمدينة الكويت,
# لجامعة …, بجائزة …)
_PLACE_HEADS: Final = frozenset(
    loose_unpunctuated(w)
    for w in (
        "مدينة محافظة منطقة قرية بلدة ولاية إمارة مخيم دار قصر ملعب مطار ميناء مستشفى جامعة مركز مجموعة شركة "
        "حلبة ساحة قاعة فندق متحف مسجد كنيسة جزيرة عاصمة جائزة بطولة مهرجان مؤتمر معرض دورة كأس لقب منتخب نادي"
    ).split()
)
# courtesy titles that stand between a person's post and name (ولي العهد السعودي الأمير محمد بن سلمان)
_HONORIFICS: Final = frozenset(
    loose_unpunctuated(w)
    for w in "الشيخ الشيخة الأمير الأميرة الملك الملكة الدكتور الدكتورة اللواء العميد الفريق السيد السيدة الحاج".split()
)
# entities that are part of another entity's name are no argument of a trigger (مطار الملك خالد: no PERS خالد)
_NAME_TYPES: Final = frozenset({"ORG", "FAC", "EVENT", "LAW", "PRODUCT", "GPE", "LOC"})
_PREPOSITIONS: Final = frozenset({"في", "ل", "ب"})
# a verb-first trigger splits only before its preposition: ولد [الشاعر محمود درويش] في …
_SPLIT_AT: Final = frozenset(loose_unpunctuated(w) for w in ("في", "ب", "ل", "من", "إلى", "على", "مع", "عن", "لدى"))
_COMMAS: Final = frozenset("،,")
# what a title before a person's name says of that person alone: no carrying over to them from a conjunct
_OWN_TITLE: Final = frozenset({"holds_position", "nationality", "employee_of", "member_of", "head_of"})
# the longest clause between two commas that a pair's words may skip (a relative clause or an apposition)
PARENTHETICAL: Final = 12
# the farthest a later clause's verb may stand from the sentence's topic, its elided subject (words)
FAR_GAP: Final = 30
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


@dataclass(frozen=True, slots=True)
class NestedRule:
    """A relation read off nesting: an ``outer`` entity holding an ``inner`` one (see the module docstring)."""

    outer: frozenset[str]
    inner: frozenset[str]
    predicate: str
    heads: tuple[tuple[str, ...], ...]  # for OCC: title words that the outer entity must start with (any when empty)
    precision: float | None = None  # the rule's own precision (the predicate's when None)
    inverse: bool = False  # the inner entity is the subject (إيرباص A350: إيرباص produces it)
    outer_heads: frozenset[str] | None = None  # the outer entity's first word must be one of these
    not_outer_heads: frozenset[str] = frozenset()  # … and must not be one of these
    # the inner entity is a nisba (الأردني): the related one is an entity of these types elsewhere in the sentence
    # named by it (الأردن): الدستور الأردني … الأردن → law_of
    nisba_of: frozenset[str] | None = None


def _words(text: str) -> frozenset[str]:
    return frozenset(loose_unpunctuated(w) for w in text.split())


def _head_in(word: str, heads: frozenset[str]) -> bool:
    """Whether ``word`` (loosely normalised) is one of ``heads``, a leading clitic or article aside."""
    return word in heads or any(word.startswith(c) and word[len(c) :] in heads for c in PROCLITICS)


def _data() -> dict[str, Any]:
    text = (resources.files("tahqiq.analysis.relations") / "data" / "relations.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def load_nested_rules(data: dict[str, Any] | None = None) -> list[NestedRule]:
    """The nesting rules of ``data`` (default: the packaged ``data/relations.json``)."""
    data = _data() if data is None else data
    return [
        NestedRule(
            frozenset(str(r["outer"]).split()),
            frozenset(str(r["inner"]).split()),
            str(r["predicate"]),
            tuple(tuple(loose_unpunctuated(w) for w in h.split()) for h in r.get("heads", ())),
            float(r["precision"]) if "precision" in r else None,
            bool(r.get("inverse", False)),
            _words(r["outer_heads"]) if "outer_heads" in r else None,
            _words(r.get("not_outer_heads", "")),
            frozenset(str(r["nisba_of"]).split()) if "nisba_of" in r else None,
        )
        for r in data.get("nested", ())
    ]


def load_inventory(data: dict[str, Any] | None = None) -> list[Predicate]:
    """The predicates of ``data`` (default: the packaged ``data/relations.json``)."""
    data = _data() if data is None else data
    out: list[Predicate] = []
    for p in data["predicates"]:
        triggers = tuple(
            Trigger(
                tuple(ANY_WORD if w == ANY_WORD else loose_unpunctuated(w) for w in str(t["text"]).split()),
                str(t.get("site", "between")),
                str(t.get("order", "so")),
                int(t["max_gap"]) if "max_gap" in t else None,
                frozenset(t["object_types"]) if "object_types" in t else None,
                float(t["precision"]) if "precision" in t else None,
                frozenset(t["subject_types"]) if "subject_types" in t else None,
                _words(t["subject_heads"]) if "subject_heads" in t else None,
                _words(t.get("not_subject_heads", "")),
                _words(t["object_heads"]) if "object_heads" in t else None,
                _words(t.get("not_object_heads", "")),
                bool(t.get("topic", False)),
                bool(t.get("plain_subject", False)),
                bool(t.get("conjuncts", False)),
            )
            for t in p["triggers"]
        )
        out.append(
            Predicate(
                str(p["predicate"]),
                frozenset(p["domain"]),
                frozenset(p["range"]),
                str(p.get("description", "")),
                bool(p.get("functional", False)),
                float(p.get("precision", 0.7)),
                triggers,
            )
        )
    return out


_Key = tuple[tuple[int, int, str], tuple[int, int, str]]


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


def _stems(words: list[str]) -> set[str]:
    """The bare forms of a one-word name or nisba: article (and a leading و/ب/ل) off, then the adjective or
    name ending (ي ية يا ا ة) off — الأردني, الأردن → اردن; السعودية, السعودي → سعود; ألمانيا, الألماني → المان."""
    if len(words) != 1:
        return set()
    forms = {words[0]}
    for c in PROCLITICS:
        if words[0].startswith(c) and len(words[0]) - len(c) >= 2:
            forms.add(words[0][len(c) :])
    out = set(forms)
    for f in forms:
        for end in ("ية", "يا", "ي", "ا", "ة"):
            if f.endswith(end) and len(f) - len(end) >= 2:
                out.add(f[: -len(end)])
    return out


def _nisba_names(nisba: list[str], name: list[str]) -> bool:
    """Whether the nisba (الأردني، القطرية) is derived from the one-word name (الأردن، قطر)."""
    if len(nisba) != 1 or not nisba[0].endswith(("ي", "ية")):
        return False
    return bool(_stems(nisba) & _stems(name))


def _match_forms(words: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The forms a trigger word may match in ``words`` (as ``word_matches`` reads them): each word, without a
    clitic, without the future prefix; and their prefixes of three letters or more."""
    forms: set[str] = set()
    for word in words:
        todo = [word] + [word[len(c) :] for c in PROCLITICS if word.startswith(c) and len(word) - len(c) >= 2]
        while todo:
            f = todo.pop()
            if f in forms:
                continue
            forms.add(f)
            if len(f) >= 4 and f[0] == "س" and f[1] in "يتنا":
                todo.append(f[1:])
    return frozenset(forms), frozenset(f[:k] for f in forms for k in range(3, len(f) + 1))


def _occurs(want: str, forms: tuple[frozenset[str], frozenset[str]]) -> bool:
    """Whether ``word_matches(w, want)`` holds for some word of the sentence whose ``_match_forms`` are given."""
    return want in forms[0] or (len(want) >= 3 and want in forms[1])


def _object_preposition(word: str) -> str | None:
    """The preposition a (loosely normalised) first word of an entity carries as a clitic, spelt as a separate
    trigger word would be: ``بالرباط`` / ``بمدينة`` → ``في``, ``لمجموعة`` / ``للكتاب`` → ``ل`` (None when the
    leading letter is more likely part of the name: ``بيروت``, ``لبنان``)."""
    if word.startswith(("بال", "بب")) or (word[:1] == "ب" and word[1:] in _PLACE_HEADS):
        return "في"
    if word.startswith(("لل", "لمجموعة", "لشركة")) or (word[:1] == "ل" and word[1:] in _PLACE_HEADS):
        return "ل"
    return None


def _clitic_ends_trigger(words: tuple[str, ...], object_word: str, *, own_only: bool) -> bool:
    """Whether the trigger ``words`` end with a preposition that the object's first word carries as a clitic, so
    that the trigger stands whole before the object (يقع في الرباط / … بالرباط). With ``own_only`` the clitic must
    stand for the trigger's own preposition (``في`` also for a trigger ending in ``ب``); without it, any clitic
    preposition will do. The site check reads it strictly and the far-trigger and past-fillers checks loosely: one
    reading for all three would change their output and needs recalibrating (see README, relations)."""
    if not words or words[-1] not in _PREPOSITIONS:
        return False
    clitic = _object_preposition(object_word)
    if clitic is None:
        return False
    return not own_only or clitic == words[-1] or (clitic == "في" and words[-1] == "ب")


def _contains(tokens: list[str], words: tuple[str, ...]) -> bool:
    n = len(words)
    if n == 0:
        return not tokens
    return any(all(word_matches(tokens[i + k], words[k]) for k in range(n)) for i in range(len(tokens) - n + 1))


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

    @staticmethod
    def _name_part(e: Mention, ents: list[Mention]) -> bool:
        """Whether ``e`` is inside another entity's name (مطار الملك خالد الدولي, جامعة قطر): such a part is
        related to its whole by the nesting rules only."""
        return any(f.type in _NAME_TYPES and f.start <= e.start and e.end <= f.end and f.span != e.span for f in ents)

    @staticmethod
    def _honorific(e: Mention, loose_words: list[str]) -> bool:
        return e.type == "OCC" and e.last - e.first == 1 and _head_in(loose_words[e.first], _HONORIFICS)

    def _title_holders(self, title: Mention, ents: list[Mention], loose_words: list[str]) -> list[Mention]:
        """The persons a title belongs to: right after it (a courtesy title between them aside: ولي العهد
        السعودي الأمير محمد بن سلمان) or right before it (عبد اللطيف الجواهري، محافظ بنك المغرب)."""
        if self._name_part(title, ents):
            return []
        after = title.last
        honorific = [e for e in ents if e.first == after and e is not title and self._honorific(e, loose_words)]
        if honorific and not self._honorific(title, loose_words):
            after = honorific[0].last
        out: list[Mention] = []
        for e in ents:
            if e.type != "PERS" or self._name_part(e, ents):
                continue
            if 0 <= e.first - after <= 1 or 0 <= title.first - e.last <= 1:
                out.append(e)
        return out

    def _nested(
        self,
        ents: list[Mention],
        loose_words: list[str],
        best: dict[_Key, tuple[float, Predicate, str]],
    ) -> None:
        """Relations read off nesting: EVENT ⊃ place → event_location; a PERS right before or after an OCC takes
        the OCC's inner NORP as nationality and, for a heading title, its inner ORG/GPE as head_of."""
        for n, rule in enumerate(self.nested):
            p = self.by_name[rule.predicate]
            for outer in ents:
                if outer.type not in rule.outer:
                    continue
                if rule.heads and not any(
                    _contains(loose_words[outer.first : outer.first + len(h)], h) for h in rule.heads
                ):
                    continue
                first = loose_words[outer.first]
                if rule.outer_heads is not None and not _head_in(first, rule.outer_heads):
                    continue
                if _head_in(first, rule.not_outer_heads):
                    continue
                inside = [e for e in ents if e is not outer and outer.start <= e.start and e.end <= outer.end]
                inner = [  # direct children only: not inside another entity within the outer one
                    e
                    for e in inside
                    if e.type in rule.inner
                    and not any(
                        f is not e and f.start <= e.start and e.end <= f.end and f.span != e.span for f in inside
                    )
                ]
                if rule.nisba_of is not None:
                    inner = [
                        e
                        for e in ents
                        if e.type in rule.nisba_of
                        and (e.end <= outer.start or outer.end <= e.start)
                        and any(
                            _nisba_names(loose_words[n.first : n.last], loose_words[e.first : e.last]) for n in inner
                        )
                    ]
                holders = self._title_holders(outer, ents, loose_words) if outer.type == "OCC" else [outer]
                for holder in holders:
                    for other in inner:
                        subj, obj = (other, holder) if rule.inverse else (holder, other)
                        if not p.allows(subj.type, obj.type):
                            continue
                        precision = p.precision if rule.precision is None else rule.precision
                        conf = precision * (subj.confidence + obj.confidence) / 2
                        key = ((subj.start, subj.end, subj.type), (obj.start, obj.end, obj.type))
                        old = best.get(key)
                        if conf >= self.min_confidence and (old is None or conf > old[0]):
                            best[key] = (conf, p, f"nested/{n}")

    @staticmethod
    def _lead(e: Mention, ents: list[Mention]) -> int:
        """The first word of the titles and nisbas standing right before ``e`` (its own first word when none):
        a verb before a titled subject stands before the title (ولد الكاتب الفلسطيني سليم حداد)."""
        lead = e.first
        while True:
            before = [f for f in ents if f.last == lead and f.type in ("OCC", "NORP")]
            if not before:
                return lead
            lead = min(f.first for f in before)

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
        if t.site == "before":
            limit = BEFORE_WINDOW if t.max_gap is None else t.max_gap
            # a verb before two conjuncts is said of both, not of one to the other (unless the trigger is one
            # relating conjuncts: الحدود بين الأردن والعراق, ابنتيه ليلى وسلمى)
            if coordinated and not t.conjuncts:
                return False
            return gap <= limit and bool(t.words) and _contains(before, t.words)
        words = t.words
        if not words:
            return not between or all(i in courtesy for i in range(a.last, b.first))
        if t.order == "so" and _clitic_ends_trigger(words, loose_words[b.first], own_only=True):
            between = [*between, words[-1]]
        if _contains(between, words):
            return True
        if not words or coordinated:
            return False  # a verb before two conjuncts is said of both, not of one to the other
        # verb-first sentences: the trigger stands before the subject, or its verb does and its preposition
        # stands between (ولد الشاعر محمود درويش في البروة); object first, only the split one: the verb's own
        # subject stands first and its preposition before the relation's subject (تعاقد نادي برشلونة مع المدرب …)
        if t.order == "so" and gap <= 1 and _contains(before, words):
            return True
        return any(
            words[k] in _SPLIT_AT and _contains(before, words[:k]) and _contains(between, words[k:])
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
        args = [e for e in ents if not self._name_part(e, ents)]
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
        ents, args, loose_words, commas = self._prepare(text, entities)
        named, spans = ents, args  # the entities given: the classifier judges pairs of these only
        # an organisation named again by its head noun (… نادي الترجي …، بعد مشاركة النادي في …) stands in for it
        aliases = self._aliases(text, ents, loose_words)
        if aliases:
            ents = sorted([*ents, *aliases], key=lambda e: (e.start, -e.end))
            args = sorted([*args, *aliases], key=lambda e: (e.start, -e.end))
        layout = _Layout.of(ents, args)
        best: dict[_Key, tuple[float, Predicate, str]] = {}
        widest = max([self.max_gap, *(t.max_gap or 0 for p in self.predicates for t in p.triggers)])
        reach = max(widest, FAR_GAP)  # no view further than this is read
        leads = {id(e): self._lead(e, ents) for e in args}
        # each argument's conjuncts: the entities of its type coordinated right after it by و (on a person's
        # title when it has one: … ماكرون والمستشار الألماني فريدريش ميرتس ورئيس الوزراء البريطاني كير ستارمر)
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
        # a trigger whose first word occurs nowhere in the sentence matches no pair (a preposition may be an
        # entity's clitic, بالرباط, so it is always looked for pair by pair)
        forms = _match_forms(loose_words)
        live = [
            [
                (ti, t)
                for ti, t in enumerate(p.triggers)
                if not t.words or t.words[0] in _PREPOSITIONS or _occurs(t.words[0], forms)
            ]
            for p in self.predicates
        ]

        for a in args:
            for b in args:
                if a is b or not (a.end <= b.start) or a.last > b.first:
                    continue
                # the words between as they stand, and past a clause set off by commas right after the first
                # entity (a relative clause or an apposition: its words and entities are not the pair's)
                views = [self._view(a, b, a.last, layout, loose_words, reach)]
                skip = self._parenthetical(a, b, commas, ents)
                if skip is not None:
                    views.append(self._view(a, b, skip, layout, loose_words, reach))
                # … and past the first's conjuncts: they share what is said of it (التقى A وB وC في كييف D)
                conj = conjuncts[id(a)]
                if conj and conj[-1].last <= b.first and b not in conj:
                    views.append(self._view(a, b, conj[-1].last, layout, loose_words, reach))
                coordinated = b in conj
                # the sentence's topic (its first entity of its type) is the elided subject of a later clause
                # whose verb stands right before the object, at any distance, when no entity that could be the
                # subject stands between (أنس جابر، المولودة في …، وتقيم في دبي، وقد وصلت إلى نهائي بطولة …)
                elided = not coordinated and self._topic(a, args)
                views = [v for k, v in enumerate(views) if v[0] <= widest or (elided and k == 0 and v[0] <= FAR_GAP)]
                if not views:
                    continue
                lead = leads[id(a)]
                # a trigger before the first entity does not reach past another one of its type (تحد عمان
                # الإمارات …: تحد is عمان's), but past others (أسس محمد العلي شركة الأفق عام 2010)
                fence = max([0, *(e.last for e in ents if e.last <= lead and e.type == a.type)])
                # … nor into the subject's own title (رئيس بلدية الخليل تيسير …: رئيس is no trigger here)
                before = loose_words[max(fence, lead - BEFORE_WINDOW) : lead]
                per_predicate = zip(self.predicates, live, strict=True)
                for (p, triggers), (gap, between, courtesy, inside) in product(per_predicate, views):
                    for ti, t in triggers:
                        subj, obj = (a, b) if t.order == "so" else (b, a)
                        if not p.allows(subj.type, obj.type):
                            continue
                        limit = self.max_gap if t.max_gap is None else t.max_gap
                        beyond = gap > limit
                        if beyond and not (elided and self._far_trigger(t, p, a, b, ents, args, loose_words)):
                            continue
                        if t.object_types is not None and obj.type not in t.object_types:
                            continue
                        if t.subject_types is not None and subj.type not in t.subject_types:
                            continue
                        head = loose_words[subj.first]
                        if t.subject_heads is not None and not _head_in(head, t.subject_heads):
                            continue
                        if _head_in(head, t.not_subject_heads):
                            continue
                        head = loose_words[obj.first]
                        if t.object_heads is not None and not _head_in(head, t.object_heads):
                            continue
                        if _head_in(head, t.not_object_heads):
                            continue
                        if t.plain_subject and any(
                            e.type == "NORP" and subj.first <= e.first and e.last <= subj.last for e in ents
                        ):
                            continue
                        if t.topic:
                            # the pronoun refers to the entity before it, the sentence's first of its type (سكانها: the
                            # city; مقرها: the organisation)
                            far = a
                            if any(e.type == far.type and e.start < far.start for e in args):
                                continue
                        elif (
                            not beyond
                            and inside & (p.range if t.order == "so" else p.domain)
                            and not self._past_fillers(
                                t, a, b, ents, loose_words, p.range if t.order == "so" else p.domain
                            )
                        ):
                            continue  # a nearer entity could fill the far slot: it is the one related
                        if not self._trigger_site_ok(
                            t, a, b, between, before, gap, loose_words, courtesy, coordinated=coordinated
                        ):
                            continue
                        if (
                            t.site == "between"
                            and t.order == "so"
                            and t.words
                            and self._nearer_subject(t, a, b, ents, loose_words, b.first - len(between))
                        ):
                            continue
                        if not t.words and gap == 0 and p.name == "holds_position" and t.order == "so":
                            if any(
                                e is not subj and e.first >= obj.last
                                for e in self._title_holders(obj, ents, loose_words)
                            ):
                                continue  # … محمود عباس وزير الخارجية أيمن الصفدي: the title is the next name's
                        if not t.words and gap == 0 and p.name == "holds_position":
                            title = obj
                            if self._honorific(title, loose_words) and any(
                                f.last == title.first and f.type == "OCC" and not self._honorific(f, loose_words)
                                for f in ents
                            ):
                                continue  # the post before the courtesy title is the one held
                        precision = p.precision if t.precision is None else t.precision
                        decay = 1.0 if t.topic else math.exp(-DECAY * min(gap, limit))
                        conf = precision * (subj.confidence + obj.confidence) / 2 * decay
                        key = ((subj.start, subj.end, subj.type), (obj.start, obj.end, obj.type))
                        rkey = (key[1], key[0])
                        if conf < self.min_confidence:
                            continue
                        old = best.get(key) or best.get(rkey)
                        if old is None or conf > old[0]:
                            best.pop(rkey, None)
                            best[key] = (conf, p, f"{p.name}/{ti}")
        self._nested(ents, loose_words, best)
        # pairs the patterns judged (a courtesy title dropped below included): the classifier leaves them alone
        judged = set(best)
        self._honorific_posts(ents, loose_words, best)
        self._named_again(ents, args, loose_words, best)
        self._beaten(args, ents, loose_words, best)
        self._coordinated(args, loose_words, best, ents)
        self._won_at(args, loose_words, best)
        found: list[tuple[float, Predicate, Mention, Mention, str]] = []
        index = {(e.start, e.end, e.type): e for e in ents}
        mapped: set[tuple[str, _Key]] = set()
        for (sk, ok), (conf, p, source) in sorted(best.items(), key=lambda kv: -kv[1][0]):
            s, o = aliases.get(index[sk], index[sk]), aliases.get(index[ok], index[ok])
            said_of = (p.name, ((s.start, s.end, s.type), (o.start, o.end, o.type)))
            if s is o or said_of in mapped or (said_of[1] != (sk, ok) and said_of[1] in best):
                continue  # the alias says nothing the name's own relations do not
            mapped.add(said_of)
            found.append((conf, p, s, o, source))
        found.sort(key=lambda f: -f[0])
        kept: list[tuple[float, Predicate, Mention, Mention, str]] = []
        taken: set[tuple[str, int, int]] = set()
        for conf, p, s, o, source in found:
            if p.functional:
                k = (p.name, s.start, s.end)
                if k in taken:
                    continue
                taken.add(k)
            kept.append((conf, p, s, o, source))
        if self.classifier is not None:
            judged |= set(best)
            pairs = {(k[0][:2], k[1][:2]) for k in judged} | {(k[1][:2], k[0][:2]) for k in judged}
            said = [(p.name, s.span, o.span) for _, p, s, o, _ in kept]
            posts = {s.span for _, p, s, o, _ in kept if p.name == "holds_position"}
            held: set[tuple[str, tuple[int, int]] | tuple[str, tuple[int, int], str]] = {
                (p.name, s.span) for _, p, s, o, _ in kept
            } | {(p.name, o.span, "o") for _, p, s, o, _ in kept}
            for conf, p, s, o in self.classifier.additions(
                text, named, spans, loose_words, self.predicates, pairs, taken, said
            ):
                if p.name == "holds_position" and s.span in posts and self._honorific(o, loose_words):
                    continue  # a courtesy title beside a post held is no post (see _honorific_posts)
                if (p.name, s.span) in held or (p.name, o.span, "o") in held:
                    continue  # the patterns gave the subject (or object) its relation of this kind: no second
                if o.type == "GPE" and self._other_state(s, o, ents, loose_words):
                    continue  # the subject is named with another state's nisba (الدستور المصري … ليبيا)
                conf *= (s.confidence + o.confidence) / 2
                if conf >= self.min_confidence:
                    kept.append((conf, p, s, o, "classifier"))
        kept.sort(key=lambda f: (f[2].start, f[3].start, f[1].name))
        out: list[dict[str, Any]] = []
        for conf, p, s, o, source in kept:
            r = {"predicate": p.name, "subject": s.as_dict(), "object": o.as_dict(), "confidence": round(conf, 3)}
            if explain:
                r["pattern"] = source
            out.append(r)
        return out

    def _view(
        self, a: Mention, b: Mention, start: int, layout: _Layout, loose_words: list[str], reach: int
    ) -> tuple[int, list[str], frozenset[int], set[str]]:
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
        honorific = [e for e in outermost if self._honorific(e, loose_words)]
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
        return bool(nisbas) and not any(_nisba_names(loose_words[n.first : n.last], state_words) for n in nisbas)

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
        if t.site != "between" or t.topic or not any(len(w) >= 3 and w not in _SPLIT_AT for w in t.words):
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
        clitic = _clitic_ends_trigger(words, loose_words[b.first], own_only=False)  # the same for either end
        for end in {b.first, self._lead(b, ents)}:
            tail = loose_words[max(a.last, end - len(words) - 1) : end]
            if clitic:
                tail = [*tail, words[-1]]
            if _contains(tail, words):
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
        lead = self._lead(b, ents)
        # a word naming an organisation again is no entity standing between (… فهد بن نافل إن النادي تعاقد مع …)
        inner = [e for e in ents if a.last <= e.first and e.last <= lead and not e.alias]
        if not inner:
            return False
        start = max(e.last for e in inner)
        if any(start <= e.first < lead for e in ents):
            return False  # the second entity is inside a title there (رئيس الاتحاد الدولي …): the title is related
        tail = loose_words[start:lead]
        words = t.words
        clitic = _clitic_ends_trigger(words, loose_words[lead], own_only=False)
        if clitic:
            tail = [*tail, words[-1]]  # the preposition is the object's clitic (… وتقيم بالرباط)
        # the trigger ends the words before the object: nothing of the sentence's own stands between them
        if len(tail) <= len(words) + 1 and _contains(tail, words):
            return True
        # … or a trigger with a word of any kind holds an entity that could fill no slot (ويعمل جراحا في …)
        if ANY_WORD not in words:
            return False
        size = len(words) - clitic
        window = lead - size
        if window < a.last or any(window <= e.first < lead and e.type in slot for e in ents):
            return False
        return _contains([*loose_words[window:lead], *words[size:]], words)

    def _nearer_subject(
        self, t: Trigger, a: Mention, b: Mention, ents: list[Mention], loose_words: list[str], start: int
    ) -> bool:
        """Whether an entity of the subject's type stands between ``start`` (where the words read begin: the
        subject's end, or past a parenthetical clause or the subject's conjuncts) and the trigger: the trigger is
        that one's (… أن زوجته ناهد شعبان ستشارك في المعرض: ناهد takes part, not the one before her)."""
        for e in ents:
            if e.type != a.type or e.first < start or e.last > b.first or self._name_part(e, ents):
                continue
            if loose_words[e.first].startswith("و") and e.first - a.last <= 1:
                continue  # coordinated with the subject: the trigger is both's (الفرنسية والإنجليزية لغتان …)
            if _object_preposition(loose_words[e.first]) is not None or (
                e.first > 0 and loose_words[e.first - 1] in _SPLIT_AT
            ):
                continue  # in a prepositional phrase (… التابعة لمجموعة زين، من مقرها): no subject
            # the trigger must lie wholly after it, as it would for that entity
            if _contains(loose_words[e.last : b.first], t.words):
                return True
        return False

    def _honorific_posts(
        self, ents: list[Mention], loose_words: list[str], best: dict[_Key, tuple[float, Predicate, str]]
    ) -> None:
        """A person holding a post keeps a courtesy title (الشيخ، الأمير، الدكتور) only when it is the only one."""
        posts: dict[tuple[int, int, str], list[_Key]] = {}
        for key, (_, p, _) in best.items():
            if p.name == "holds_position":
                posts.setdefault(key[0], []).append(key)
        by_key = {(e.start, e.end, e.type): e for e in ents}
        for keys in posts.values():
            courtesy = [k for k in keys if self._honorific(by_key[k[1]], loose_words)]
            if courtesy and len(courtesy) < len(keys):
                for k in courtesy:
                    best.pop(k, None)

    def _named_again(
        self,
        ents: list[Mention],
        args: list[Mention],
        loose_words: list[str],
        best: dict[_Key, tuple[float, Predicate, str]],
    ) -> None:
        """A heading title whose organisation is named again by its head noun or a pronoun heads the organisation
        named before it: انتخب … حزب الاستقلال نزار بركة أمينا عاما للحزب; وقال رئيس النادي حمدي المدب;
        انتخب مجلس النواب الأردني أحمد الصفدي رئيسا له; … سارة الأميري رئيسة الوكالة."""
        p = self.by_name.get("head_of")
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
                    named = [e for e in orgs if e.last <= start and not self._name_part(e, ents)][-1:]
                else:
                    named = [e for e in orgs if e.last <= start and self._names_head(word, loose_words[e.first])][-1:]
                if not named:
                    continue
                org = named[0]
                # the holder: right before the title (… نزار بركة أمينا عاما للحزب) or right after it (رئيس
                # النادي حمدي المدب), a courtesy title between aside
                after = next((e.last for e in ents if e.first == i + 1 and self._honorific(e, loose_words)), i + 1)
                for person in persons:
                    if person.last != start and person.first != after:
                        continue
                    if not p.allows(person.type, org.type) or org.last > person.first:
                        continue
                    key = ((person.start, person.end, person.type), (org.start, org.end, org.type))
                    conf = p.precision * (person.confidence + org.confidence) / 2
                    if conf >= self.min_confidence and key not in best and (key[1], key[0]) not in best:
                        best[key] = (conf, p, "head_of/again")

    def _aliases(self, text: str, ents: list[Mention], loose_words: list[str]) -> dict[Mention, Mention]:
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
            named = [e for e in orgs if e.last <= i and self._names_head(bare, loose_words[e.first], ("ال",))][-1:]
            if not named:
                continue
            if words is None:
                words = [(t.start, t.end) for t in scan(text) if t.kind in ("word", "number")]
            start, end = words[i]
            org = named[0]
            out[Mention("ORG", text[start:end], start, end, org.confidence, i, i + 1, alias=True)] = org
        return out

    @staticmethod
    def _names_head(word: str, head: str, articles: tuple[str, ...] = ("ال", "لل")) -> bool:
        """Whether ``word`` is the definite head noun of a name starting with ``head`` (النادي, للحزب: نادي …,
        لحزب …), clitics aside."""
        for article in articles:
            if word.startswith(article) and len(word) - len(article) >= 3:
                bare = word[len(article) :]
                if bare == head or any(head.startswith(c) and head[len(c) :] == bare for c in PROCLITICS):
                    return True
        return False

    def _beaten(
        self,
        args: list[Mention],
        ents: list[Mention],
        loose_words: list[str],
        best: dict[_Key, tuple[float, Predicate, str]],
    ) -> None:
        """Who was beaten in an event took part in it: the one after متقدما على, بعد فوزه على or بعد تغلبه على
        in the event the subject won (… بذهبية سباق 3000 متر موانع …، متقدما على الإثيوبي لاميشا غيرما), or after
        فاز فيها على in one the subject took part in (شارك المنتخب السعودي في كأس العالم …، وفاز فيها على
        الأرجنتين)."""
        p = self.by_name.get("participant_in")
        if p is None:
            return
        by_key = {(e.start, e.end, e.type): e for e in args}
        leads = {id(e): self._lead(e, ents) for e in args}
        for key, (conf, q, source) in list(best.items()):
            winner, event = by_key.get(key[0]), by_key.get(key[1])
            if winner is None or event is None or event.type != "EVENT" or q.name not in ("won", "participant_in"):
                continue
            for i in range(max(winner.last, event.last), len(loose_words) - 2):
                if loose_words[i + 1] != _ON:
                    continue
                word = loose_words[i]
                if q.name == "won":
                    if not _head_in(word, _BEAT):
                        continue
                elif word not in _IN_IT or i == 0 or not _head_in(loose_words[i - 1], _BEAT):
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

    def _won_at(
        self, args: list[Mention], loose_words: list[str], best: dict[_Key, tuple[float, Predicate, str]]
    ) -> None:
        """Who won an event, prize or race held in a larger event took part in that one (حقق سفيان البقالي ذهبية
        سباق 3000 متر موانع في دورة الألعاب الأولمبية بباريس; نالت … جائزة العين الذهبية في مهرجان كان)."""
        p = self.by_name.get("participant_in")
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
                attached = e.first == prize.last and _object_preposition(loose_words[e.first]) == "في"
                if not attached and not (e.first == prize.last + 1 and loose_words[prize.last] == "في"):
                    continue
                new = ((winner.start, winner.end, winner.type), (e.start, e.end, e.type))
                if p.allows(winner.type, e.type) and new not in best and (new[1], new[0]) not in best:
                    best[new] = (conf * 0.9, p, source.split("+")[0] + "+in")

    def _coordinated(
        self,
        args: list[Mention],
        loose_words: list[str],
        best: dict[_Key, tuple[float, Predicate, str]],
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
                    start = self._lead(e, ents) if e.type == "PERS" else e.first
                    if start < first.last or start - first.last > 3:
                        continue
                    if not loose_words[start].startswith("و") or loose_words[start] in ("وزير", "وزيرة"):
                        continue
                    if e.type == "OCC" and any(h.span != key[0][:2] for h in self._title_holders(e, ents, loose_words)):
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
