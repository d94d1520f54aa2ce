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
scripts/train_ner.py), after ``Recognizer`` drops a learned span holding a word the rules know ends a name.

Trained by scripts/train_ner.py on the development gold sets; the weights ship as data/tagger.json.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tahqiq.arabic.clitics import strip_proclitic_and_article
from tahqiq.core import NerScorer

TAGGED_TYPES: tuple[str, ...] = ("PERS", "OCC", "FAC")
LABELS: tuple[str, ...] = ("B", "I", "O")
BEGIN, INSIDE, OUTSIDE = 0, 1, 2
NEG = -1e9
DATA_FILE = Path(__file__).with_name("data") / "tagger.json"
FORMAT = 1


@dataclass(frozen=True, slots=True)
class Sentence:
    """What the tagger sees of one sentence: token keys, the recognizer's word classes and the rules' spans."""

    keys: tuple[str, ...]
    classes: tuple[tuple[str, ...], ...]
    rule_spans: tuple[tuple[str, int, int], ...]  # (type, first token, one past the last), every type


def _affixes(k: str) -> list[str]:
    return [f"p2={k[:2]}", f"p3={k[:3]}", f"x2={k[-2:]}", f"x3={k[-3:]}"]


def rule_labels(sentence: Sentence, typ: str) -> list[str]:
    """The rules' BIO labels for one type (outermost span of the type wins; the types here do not self-nest)."""
    out = ["O"] * len(sentence.keys)
    for t, i, j in sentence.rule_spans:
        if t == typ and out[i] == "O":
            out[i] = "B"
            for x in range(i + 1, j):
                out[x] = "I"
    return out


def outer_labels(sentence: Sentence) -> list[str]:
    """The outermost rule entity over each token, as ``B-TYPE``/``I-TYPE``/``O`` (the rules' flat view)."""
    out = ["O"] * len(sentence.keys)
    for t, i, j in sorted(sentence.rule_spans, key=lambda s: (s[1], -(s[2] - s[1]))):
        if out[i] == "O":
            out[i] = "B-" + t
            for x in range(i + 1, j):
                if out[x] == "O":
                    out[x] = "I-" + t
    return out


def shared_features(sentence: Sentence, *, rules: bool = True) -> list[list[str]]:
    """The features of every token that do not depend on the tagged type (computed once for the three taggers);
    without the rules' tags when `rules` is False (the training's dropout, so that the words themselves carry
    weight where the rules are wrong)."""
    keys, classes = sentence.keys, sentence.classes
    n = len(keys)
    outer = outer_labels(sentence) if rules else ["-"] * n
    out: list[list[str]] = []
    for i in range(n):
        k = keys[i]
        f = ["bias", f"w={k}", f"s={strip_proclitic_and_article(k)}", *_affixes(k), f"o={outer[i]}"]
        for d in (-2, -1, 1, 2):
            j = i + d
            if 0 <= j < n:
                f.append(f"w{d}={keys[j]}")
                f.extend(f"c{d}={c}" for c in classes[j])
            else:
                f.append(f"w{d}=<edge>")
        f.append(f"o-1={outer[i - 1] if i else '^'}")
        f.append(f"o+1={outer[i + 1] if i + 1 < n else '$'}")
        f.extend(f"c={c}" for c in classes[i])
        prev_classes = classes[i - 1] if i else ("^",)
        f.extend(f"c-1c={p}|{c}" for p in prev_classes for c in classes[i])
        out.append(f)
    return out


def typed_features(sentence: Sentence, typ: str, *, rules: bool = True) -> list[list[str]]:
    """The features of every token that read the rules' tags of `typ`."""
    classes = sentence.classes
    n = len(sentence.keys)
    mine = rule_labels(sentence, typ) if rules else ["-"] * n
    out: list[list[str]] = []
    for i in range(n):
        f = [f"r={mine[i]}"]
        f.extend(f"r{d}={mine[i + d]}" for d in (-2, -1, 1, 2) if 0 <= i + d < n)
        f.append(f"r-1r={mine[i - 1] if i else '^'}|{mine[i]}")
        f.append(f"rr+1={mine[i]}|{mine[i + 1] if i + 1 < n else '$'}")
        f.extend(f"cr={c}|{mine[i]}" for c in classes[i])
        out.append(f)
    return out


def features(sentence: Sentence, typ: str, *, rules: bool = True) -> list[list[str]]:
    """Feature names of every token for the tagger of `typ`."""
    return [
        a + b
        for a, b in zip(shared_features(sentence, rules=rules), typed_features(sentence, typ, rules=rules), strict=True)
    ]


TYPED_PREFIXES = ("r=", "r-2=", "r-1=", "r1=", "r2=", "r-1r=", "rr+1=", "cr=")


def spans_of(labels: Sequence[int]) -> list[tuple[int, int]]:
    """Token spans ``[i, j)`` of a B/I/O label sequence."""
    out: list[tuple[int, int]] = []
    start = -1
    for x, lab in enumerate(labels):
        if lab == BEGIN or (lab == INSIDE and start < 0):
            if start >= 0:
                out.append((start, x))
            start = x
        elif lab == OUTSIDE and start >= 0:
            out.append((start, x))
            start = -1
    if start >= 0:
        out.append((start, len(labels)))
    return out


def labels_of(spans: Sequence[tuple[int, int]], n: int) -> list[int]:
    out = [OUTSIDE] * n
    for i, j in spans:
        if out[i] != OUTSIDE:
            continue  # an inner span of the same type never happens in the gold; keep the outer one
        out[i] = BEGIN
        for x in range(i + 1, j):
            out[x] = INSIDE
    return out


@dataclass(slots=True)
class SpanTagger:
    """B/I/O tagger of one entity type: emission weights a feature and transition weights a label pair."""

    weights: dict[str, list[float]] = field(default_factory=dict)
    transitions: list[list[float]] = field(default_factory=lambda: [[0.0] * 3 for _ in range(4)])  # [prev|start]

    def decode(self, feats: list[list[str]]) -> list[int]:
        """The best label sequence (Viterbi)."""
        w = self.weights
        emit: list[list[float]] = []
        for f in feats:
            s = [0.0, 0.0, 0.0]
            for name in f:
                v = w.get(name)
                if v is not None:
                    s[0] += v[0]
                    s[1] += v[1]
                    s[2] += v[2]
            emit.append(s)
        return self.viterbi(emit)

    def viterbi(self, emit: list[list[float]]) -> list[int]:
        """The best label sequence given each token's label scores."""
        if not emit:
            return []
        tr = self.transitions
        (bb, bi, bo), (ib, ii, io), (ob, _oi, oo), (sb_, _si, so_) = tr
        sb, si, so = sb_ + emit[0][0], NEG, so_ + emit[0][2]
        back: list[tuple[int, int, int]] = []
        # unrolled over the three labels (I never after O); ties go to the first of B, I, O
        for x in range(1, len(emit)):
            eb, ei, eo = emit[x]
            vb, ab = sb + bb, BEGIN
            if si + ib > vb:
                vb, ab = si + ib, INSIDE
            if so + ob > vb:
                vb, ab = so + ob, OUTSIDE
            vi, ai = sb + bi, BEGIN
            if si + ii > vi:
                vi, ai = si + ii, INSIDE
            vo, ao = sb + bo, BEGIN
            if si + io > vo:
                vo, ao = si + io, INSIDE
            if so + oo > vo:
                vo, ao = so + oo, OUTSIDE
            back.append((ab, ai, ao))
            sb, si, so = vb + eb, vi + ei, vo + eo
        score = (sb, si, so)
        last = max(range(3), key=lambda c: score[c])
        path = [last]
        for ptr in reversed(back):
            path.append(ptr[path[-1]])
        path.reverse()
        return path


@dataclass(slots=True)
class NerTagger:
    """One `SpanTagger` a type and the way its spans meet the rules' (``strategy``, see `combine`)."""

    taggers: dict[str, SpanTagger]
    strategy: str = "extend"
    _scorer: NerScorer = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # the native scorer (rust/src/ner_tagger.rs) builds the feature names and sums their weights in the order
        # of `features`, so its decisions are those of `reference_predict`; a shared feature keeps one row, the
        # three labels of each type side by side (zeros for a type that never kept it)
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

    def reference_predict(self, sentence: Sentence) -> dict[str, list[tuple[int, int]]]:
        """`predict` computed in Python, feature names and all (the training's path; the native scorer's spec)."""
        return {typ: spans_of(tagger.decode(features(sentence, typ))) for typ, tagger in self.taggers.items()}

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
    """A grown span [i, j) that would cut a rule span of another tagged type: a title running into the name
    after it (الرئيس التنفيذي بدر | بدر محمد المير)."""
    return any(
        s[0] != typ and s[0] in tagged and not ((i <= s[1] and s[2] <= j) or (s[1] <= i and j <= s[2]))
        for s in rules.overlapping(i, j)
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
      ابنيهما أمين وحمزة) and cuts no rule span of another tagged type (``_cuts``), and a new span only where no
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


def train(
    data: Sequence[tuple[Sentence, dict[str, list[tuple[int, int]]]]],
    *,
    epochs: int = 8,
    min_count: int = 2,
    seed: int = 0,
    strategy: str = "extend",
    dropout: float = 0.0,
    forget_names: bool = False,
    types: Sequence[str] = TAGGED_TYPES,
) -> NerTagger:
    """An averaged structured perceptron a type over `data` (sentence, gold token spans per type).

    Features seen fewer than `min_count` times are left out (they would only memorise sentences); each time a
    sentence is visited its rule tags are hidden with probability `dropout` (and, with `forget_names`, its listed
    name parts read as unlisted words: the name lists know the development sentences' names, new text's they
    will not). The order of the sentences and the dropout draws come from `seed`, so the result is a pure function
    of the data."""
    taggers: dict[str, SpanTagger] = {}
    for typ in types:
        with_rules = [features(s, typ) for s, _ in data]
        without = (
            [features(_forget_names(s) if forget_names else s, typ, rules=False) for s, _ in data]
            if dropout
            else with_rules
        )
        counts: Counter[str] = Counter(f for sent in with_rules for tok in sent for f in set(tok))
        feats = [
            [[[f for f in tok if counts[f] >= min_count] for tok in sent] for sent in variant]
            for variant in (with_rules, without)
        ]
        gold = [labels_of(g.get(typ, []), len(s.keys)) for s, g in data]
        taggers[typ] = _perceptron(feats, gold, epochs, seed, dropout)
    return NerTagger(taggers, strategy)


NAME_CLASSES = frozenset(("first", "weakfirst", "family", "~first", "~weakfirst", "~family"))


def _forget_names(sentence: Sentence) -> Sentence:
    """The sentence as if the name lists did not know its names: name-part classes read as ``unlisted``."""
    classes = []
    for c in sentence.classes:
        kept = tuple(x for x in c if x not in NAME_CLASSES)
        if len(kept) < len(c) and not any(x for x in kept if not x.startswith(("end:", "def"))):
            kept = tuple(sorted((*kept, "unlisted")))
        classes.append(kept)
    return Sentence(sentence.keys, tuple(classes), sentence.rule_spans)


def _perceptron(
    variants: list[list[list[list[str]]]], gold: list[list[int]], epochs: int, seed: int, dropout: float
) -> SpanTagger:
    model = SpanTagger()
    w, tr = model.weights, model.transitions
    acc_w: dict[str, list[float]] = {}  # sum over updates of step * delta (the averaging trick)
    acc_tr = [[0.0] * 3 for _ in range(4)]
    step = 1
    order = list(range(len(gold)))
    rng = random.Random(seed)
    for _ in range(epochs):
        rng.shuffle(order)
        for s in order:
            feats = variants[1] if dropout and rng.random() < dropout else variants[0]
            pred = model.decode(feats[s])
            g = gold[s]
            if pred != g:
                for x, (p, t) in enumerate(zip(pred, g, strict=True)):
                    if p != t:
                        for name in feats[s][x]:
                            v = w.setdefault(name, [0.0, 0.0, 0.0])
                            a = acc_w.setdefault(name, [0.0, 0.0, 0.0])
                            v[t] += 1.0
                            v[p] -= 1.0
                            a[t] += step
                            a[p] -= step
                    prev_p = pred[x - 1] if x else 3
                    prev_t = g[x - 1] if x else 3
                    if (prev_p, p) != (prev_t, t):
                        tr[prev_t][t] += 1.0
                        tr[prev_p][p] -= 1.0
                        acc_tr[prev_t][t] += step
                        acc_tr[prev_p][p] -= step
            step += 1
    avg = {
        name: [v[c] - acc_w[name][c] / step for c in range(3)]
        for name, v in w.items()
        if any(abs(v[c] - acc_w[name][c] / step) >= 5e-5 for c in range(3))
    }
    avg_tr = [[tr[p][c] - acc_tr[p][c] / step for c in range(3)] for p in range(4)]
    return SpanTagger(avg, avg_tr)
