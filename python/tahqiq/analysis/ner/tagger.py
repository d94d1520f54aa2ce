"""A learned boundary layer over the rule recognizer for PERS, OCC and FAC (docs/design/ner.md, "The learned layer").

The rules are weakest where these three types start and end: long foreign names (لويس إيناسيو لولا دا سيلفا),
a title and the name after it (المفوضة الأوروبية للشؤون الخارجية كايا كالاس), facility names (ملعب سانتياغو
برنابيو). For each of the three types an averaged structured perceptron tags the tokens B/I/O (one tagger a type,
so a FAC may hold a PERS and an OCC as docs/design/ner.md nests them), decoded by Viterbi. Its features are the
token's key (``tahqiq.arabic.keys.key``) and its neighbours', prefixes and suffixes, the clitic- and article-stripped
stem (``tahqiq.arabic.clitics.strip_proclitic_and_article``, for sharing weight across forms), the
recognizer's word classes (listed first and family names, title/ORG/FAC heads, nisba, verb, gazetteer types …, see
``Recognizer.word_classes``) in a window of two, and the rule layer's own tags (hidden in 70% of the training
visits, with the listed name parts then read as unlisted words, so that the context carries weight where the rules
and their lists fail). The rules stay the source of every other type;
how the tagger's spans meet the rules' is ``combine`` (``extend``, chosen by cross-validation in
tools/train/ner.py), after ``Recognizer`` drops a learned span holding a word the rules know ends a name.

The shipped weights (data/tagger.json) are scored by the native `NerScorer`; their training (`python -m
tools.train.ner`) and the Python twin of the scorer (tools/ner_twin.py, its specification) are repository tooling.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tahqiq.core import NerScorer

TAGGED_TYPES: tuple[str, ...] = ("PERS", "OCC", "FAC")
LABELS: tuple[str, ...] = ("B", "I", "O")
BEGIN, INSIDE, OUTSIDE = 0, 1, 2
NEG = -1e9  # the score of a label that cannot be (I at the start), in the twin's Viterbi
DATA_FILE = Path(__file__).with_name("data") / "tagger.json"
FORMAT = 1


@dataclass(frozen=True, slots=True)
class Sentence:
    """What the tagger sees of one sentence: token keys, the recognizer's word classes and the rules' spans."""

    keys: tuple[str, ...]
    classes: tuple[tuple[str, ...], ...]
    rule_spans: tuple[tuple[str, int, int], ...]  # (type, first token, one past the last), every type


TYPED_PREFIXES = ("r=", "r-2=", "r-1=", "r1=", "r2=", "r-1r=", "rr+1=", "cr=")


@dataclass(slots=True)
class SpanTagger:
    """B/I/O tagger of one entity type: emission weights a feature and transition weights a label pair."""

    weights: dict[str, list[float]] = field(default_factory=dict)
    transitions: list[list[float]] = field(default_factory=lambda: [[0.0] * 3 for _ in range(4)])  # [prev|start]


@dataclass(slots=True)
class NerTagger:
    """One `SpanTagger` a type and the way its spans meet the rules' (``strategy``, see `combine`)."""

    taggers: dict[str, SpanTagger]
    strategy: str = "extend"
    _scorer: NerScorer = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # the native scorer (rust/src/ner_tagger.rs) builds the feature names and sums their weights in the order
        # of tools/ner_twin.py's `features`, so its decisions are those of the twin's `reference_predict`; a shared
        # feature keeps one row, the three labels of each type side by side (zeros for a type that never kept it)
        width = 3 * len(self.taggers)
        shared: dict[str, list[float]] = {}
        typed: list[dict[str, list[float]]] = []
        for t_index, tagger in enumerate(self.taggers.values()):
            own: dict[str, list[float]] = {}
            for name, v in tagger.weights.items():
                if name.startswith(TYPED_PREFIXES):
                    own[name] = list(v)
                else:
                    shared.setdefault(name, [0.0] * width)[3 * t_index : 3 * t_index + 3] = v
            typed.append(own)
        self._scorer = NerScorer(
            list(self.taggers), shared, typed, [tagger.transitions for tagger in self.taggers.values()]
        )

    def predict(self, sentence: Sentence) -> dict[str, list[tuple[int, int]]]:
        """The tagger's token spans per type."""
        if not sentence.keys:
            return {t: [] for t in self.taggers}
        spans = self._scorer.predict(sentence.keys, sentence.classes, sentence.rule_spans)
        return dict(zip(self.taggers, spans, strict=True))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "license": "CC-BY-SA-4.0",
            "strategy": self.strategy,
            "types": {
                t: {
                    "transitions": [[round(v, 4) for v in row] for row in tg.transitions],
                    "weights": {f: [round(v, 4) for v in vs] for f, vs in sorted(tg.weights.items())},
                }
                for t, tg in self.taggers.items()
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NerTagger:
        if data.get("format") != FORMAT:
            raise ValueError(f"ner_tagger data format {data.get('format')!r}, expected {FORMAT}")
        return cls(
            {
                t: SpanTagger({f: list(map(float, v)) for f, v in d["weights"].items()}, d["transitions"])
                for t, d in data["types"].items()
            },
            data["strategy"],
        )

    @classmethod
    def load(cls, path: Path = DATA_FILE) -> NerTagger:
        return cls.from_dict(json.loads(path.read_text(encoding="utf-8")))


class SpanIndex:
    """Spans ``(type, start, end)`` sorted by start, to find those overlapping ``[i, j)`` without reading them all:
    one overlapping starts before ``j`` and less than the longest span's length before ``i``."""

    def __init__(self, spans: Sequence[tuple[str, int, int]]) -> None:
        self.spans = sorted(spans, key=lambda s: s[1])
        self.starts = [s[1] for s in self.spans]
        self.longest = max((s[2] - s[1] for s in self.spans), default=0)

    def overlapping(self, i: int, j: int) -> list[tuple[str, int, int]]:
        lo = bisect_left(self.starts, i - self.longest)
        hi = bisect_left(self.starts, j)
        return [s for s in self.spans[lo:hi] if i < s[2]]


def _cuts(rules: SpanIndex, tagged: dict[str, list[tuple[int, int]]], typ: str, i: int, j: int) -> bool:
    """A grown span [i, j) that would cut a rule span of another type: a title running into the name after it
    (الرئيس التنفيذي بدر | بدر محمد المير) or into the law after it (الرئيس المرسوم | المرسوم الرئاسي رقم 21-300)."""
    return any(
        s[0] != typ and not ((i <= s[1] and s[2] <= j) or (s[1] <= i and j <= s[2])) for s in rules.overlapping(i, j)
    )


def combine(
    rule_spans: Sequence[tuple[str, int, int]], tagged: dict[str, list[tuple[int, int]]], strategy: str
) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]:
    """(rule spans to drop, tagger spans to add) for the tagged types.

    - ``replace``: the tagger alone decides the tagged types;
    - ``merge``: a tagger span replaces the rule spans of its type it overlaps, a rule span the tagger does not
      touch stays (the tagger fixes boundaries and adds what the rules missed, but removes nothing outright);
    - ``extend``: as merge, but a tagger span is taken over an overlapping rule span only when it contains it
      (boundaries only grow), overlaps no second rule span of its type (two names the rules split stay two:
      ابنيهما أمين وحمزة) and cuts no rule span of another type (``_cuts``), and a new span only where no
      rule span of any type lies.
    """
    drop: list[tuple[str, int, int]] = []
    add: list[tuple[str, int, int]] = []
    rules = SpanIndex(rule_spans)
    for typ, spans in tagged.items():
        mine = [s for s in rule_spans if s[0] == typ]
        if strategy == "replace":
            drop.extend(mine)
            add.extend((typ, i, j) for i, j in spans)
            continue
        for i, j in spans:
            near = rules.overlapping(i, j)
            over = [s for s in near if s[0] == typ]
            if strategy == "extend":
                if (
                    len(over) == 1
                    and all(i <= s[1] and s[2] <= j for s in over)
                    and not _cuts(rules, tagged, typ, i, j)
                ):
                    drop.extend(over)
                    add.append((typ, i, j))
                elif not near:
                    add.append((typ, i, j))
            else:
                drop.extend(over)
                add.append((typ, i, j))
    return drop, add
