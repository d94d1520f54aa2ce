"""A statistical layer over the relation patterns: logistic regression over candidate entity pairs.

The trigger patterns (``extractor``) are precise but fit the phrasing of the sentences they were written on;
this layer adds the relations they miss. A candidate is an ordered pair of entities of one sentence, neither part
of another's name, disjoint, at most ``MAX_GAP`` words apart, together with a predicate whose domain → range the
pair's types fit (so the layer, too, never breaks domain → range). Each predicate and order (``so``: subject
first; ``os``: object first) is its own binary logistic regression ("class" ``predicate/order``) over sparse
features of the pair: the type pair; the words between the two spans (loosely normalised by the core's
normaliser, a leading clitic or article off, an entity between them replaced by its type), the first and last of
them and, when short, all of them as one phrase; two words before the first span and one after the second; the
distance in words; the types of the entities between and whether one shares the subject's or object's type;
nesting-free order cues (a comma between, a coordinating و on the second span); the spans' head words; and
whether one of the predicate's own trigger words occurs between or before them (the trigger lexicon).

The weights are shipped in ``data/relations_classifier.json``, built by ``python -m tools.train.relations`` from the
development sets with settings chosen by cross-validation. The extractor keeps every pattern relation and adds,
for a pair of entities no pattern related, the best class whose probability reaches the shipped ``threshold``
(a functional predicate's subject keeps a relation it already has); its confidence is that probability times the
entities' mean confidence. Scoring is one dictionary look-up per feature and a sum: cheap next to the patterns.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

import numpy as np

from tahqiq.analysis.relations.model import Mention, Predicate, word_matches
from tahqiq.arabic.clitics import strip_proclitic

__all__ = [
    "MAX_GAP",
    "Candidate",
    "Instance",
    "RelationClassifier",
    "candidates",
    "fit",
    "instances",
    "load_classifier",
    "to_dict",
]

MAX_GAP: Final = 5
_PHRASE: Final = 4  # a between text of at most this many words is also a feature as a whole
_BEFORE: Final = 2
_AFTER: Final = 1


def _bucket(gap: int) -> str:
    return str(gap) if gap <= 3 else "4-5" if gap <= 5 else "6-8" if gap <= 8 else "9+"


@dataclass(frozen=True, slots=True)
class Candidate:
    """An ordered pair of entities (``first`` before ``second`` in the text) and its pair features; ``classes``
    are the ``predicate/order`` names its types allow, each with its own trigger features."""

    first: Mention
    second: Mention
    features: tuple[str, ...]
    classes: tuple[tuple[str, Predicate, str, tuple[str, ...]], ...]  # (class, predicate, order, class features)

    def subject_object(self, order: str) -> tuple[Mention, Mention]:
        return (self.first, self.second) if order == "so" else (self.second, self.first)


def _pair_features(
    a: Mention, b: Mention, ents: Sequence[Mention], words: Sequence[str], text: str
) -> tuple[list[str], list[str], list[str]]:
    """The pair's features, the words between (an entity between as its type) and the words before ``a``."""
    inner = [e for e in ents if a.last <= e.first and e.last <= b.first]
    outermost = [e for e in inner if not any(f is not e and f.first <= e.first and e.last <= f.last for f in inner)]
    starts = {e.first: e for e in outermost}
    between: list[str] = []
    i = a.last
    while i < b.first:
        e = starts.get(i)
        if e is not None:
            between.append("<" + e.type + ">")
            i = e.last
        else:
            between.append(strip_proclitic(words[i]))
            i += 1
    before = [strip_proclitic(w) for w in words[max(0, a.first - _BEFORE) : a.first]]
    after = [strip_proclitic(w) for w in words[b.last : b.last + _AFTER]]
    gap = b.first - a.last
    f = [f"d={_bucket(gap)}", f"ty={a.type}>{b.type}"]
    f += [f"bw={w}" for w in sorted(set(between))]
    if between:
        f += [f"bf={between[0]}", f"bl={between[-1]}"]
        if len(between) <= _PHRASE:
            f.append("bs=" + " ".join(between))
    else:
        f.append("adjacent")
    f += [f"pre{len(before) - k}={w}" for k, w in enumerate(before)]
    f += [f"post{k + 1}={w}" for k, w in enumerate(after)]
    types = {e.type for e in inner}
    f += [f"ie={t}" for t in sorted(types)]
    if a.type in types:
        f.append("ie=first")
    if b.type in types:
        f.append("ie=second")
    if any(c in text[a.end : b.start] for c in "،,؛;"):
        f.append("comma")
    if words[b.first].startswith("و") and len(words[b.first]) > 3:
        f.append("wa")
    f += [f"h1={strip_proclitic(words[a.first])}", f"h2={strip_proclitic(words[b.first])}"]
    return f, between, before


Span = tuple[int, int]


def candidates(
    text: str,
    ents: Sequence[Mention],
    args: Sequence[Mention],
    words: Sequence[str],
    predicates: Iterable[Predicate],
    found: Iterable[tuple[str, Span, Span]] = (),
) -> list[Candidate]:
    """Every candidate pair of ``args`` (the entities that are no part of a name) with the classes it allows;
    ``found`` holds the patterns' relations ``(predicate, subject span, object span)`` in the sentence."""
    preds = list(predicates)
    # each predicate's trigger words (three letters or more: no bare preposition), looked up once a pair
    lexicon = {p.name: sorted({w for t in p.triggers for w in t.words if len(w) >= 3}) for p in preds}
    as_subject: dict[Span, set[str]] = {}
    as_object: dict[Span, set[str]] = {}
    matches: dict[tuple[str, str], bool] = {}  # (word, trigger word) → whether it matches, for the whole sentence
    for name, subject_span, object_span in found:
        as_subject.setdefault(subject_span, set()).add(name)
        as_object.setdefault(object_span, set()).add(name)
    out: list[Candidate] = []
    for a in args:
        for b in args:
            if a is b or a.end > b.start or a.last > b.first or b.first - a.last > MAX_GAP:
                continue
            classes: list[tuple[str, Predicate, str, tuple[str, ...]]] = []
            pair: tuple[list[str], list[str], list[str]] | None = None
            for p in preds:
                for order, (subj, obj) in (("so", (a, b)), ("os", (b, a))):
                    if not p.allows(subj.type, obj.type):
                        continue
                    if pair is None:
                        pair = _pair_features(a, b, ents, words, text)
                    own = _trigger_features(lexicon[p.name], pair[1], pair[2], matches) + _found_features(
                        p.name, subj.span, obj.span, as_subject, as_object
                    )
                    classes.append((f"{p.name}/{order}", p, order, own))
            if pair is not None:
                out.append(Candidate(a, b, tuple(pair[0]), tuple(classes)))
    return out


def _found_features(
    name: str, s: Span, o: Span, as_subject: dict[Span, set[str]], as_object: dict[Span, set[str]]
) -> tuple[str, ...]:
    """What the patterns already said of the two entities: the subject is already this predicate's subject (a
    second object is rarer), the object already its object, or either takes part in some pattern relation."""
    out: list[str] = []
    if name in as_subject.get(s, ()):
        out.append("found_s")
    if name in as_object.get(o, ()):
        out.append("found_o")
    if s in as_subject or s in as_object:
        out.append("related_s")
    if o in as_subject or o in as_object:
        out.append("related_o")
    return tuple(out)


def _trigger_features(
    words: list[str], between: list[str], before: list[str], matches: dict[tuple[str, str], bool]
) -> tuple[str, ...]:
    """Whether one of the predicate's trigger ``words`` (any order, any site) occurs between or before the pair
    (``matches`` remembers each word's answer for the sentence: pairs share their words)."""
    out: list[str] = []
    for name, tokens in (("trig_between", between), ("trig_before", before)):
        for token in tokens:
            hit = False
            for w in words:
                known = matches.get((token, w))
                if known is None:
                    known = matches[(token, w)] = word_matches(token, w)
                if known:
                    hit = True
                    break
            if hit:
                out.append(name)
                break
    return tuple(out)


class RelationClassifier:
    """The shipped weights: ``weights[feature][class]`` and a ``bias`` per class; ``threshold`` for adding."""

    def __init__(self, weights: dict[str, dict[str, float]], bias: dict[str, float], threshold: float) -> None:
        self.weights = weights
        self.bias = bias
        self.threshold = threshold

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RelationClassifier:
        return cls(
            {f: {c: float(w) for c, w in ws.items()} for f, ws in data["weights"].items()},
            {c: float(w) for c, w in data["bias"].items()},
            float(data["threshold"]),
        )

    def probabilities(self, cand: Candidate) -> list[float]:
        """P(relation) for each of the candidate's classes, in order."""
        shared: dict[str, float] = {}
        for f in cand.features:
            for c, w in self.weights.get(f, {}).items():
                shared[c] = shared.get(c, 0.0) + w
        out: list[float] = []
        for c, _, _, own in cand.classes:
            z = self.bias.get(c, -10.0) + shared.get(c, 0.0)
            for f in own:
                z += self.weights.get(f, {}).get(c, 0.0)
            out.append(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))))
        return out

    def additions(
        self,
        text: str,
        ents: Sequence[Mention],
        args: Sequence[Mention],
        words: Sequence[str],
        predicates: Iterable[Predicate],
        taken_pairs: set[tuple[Span, Span]],
        functional_taken: set[tuple[str, int, int]],
        patterns_found: Iterable[tuple[str, Span, Span]] = (),
    ) -> list[tuple[float, Predicate, Mention, Mention]]:
        """``(probability, predicate, subject, object)`` for the pairs no pattern judged, ``patterns_found`` being
        the patterns' relations ``(predicate, subject span, object span)``."""
        found: list[tuple[float, Predicate, Mention, Mention]] = []
        for cand in candidates(text, ents, args, words, predicates, patterns_found):
            if (cand.first.span, cand.second.span) in taken_pairs:
                continue
            scored = sorted(zip(self.probabilities(cand), cand.classes, strict=True), key=lambda x: (-x[0], x[1][0]))
            for prob, (_, p, order, _) in scored:
                if prob < self.threshold:
                    break
                s, o = cand.subject_object(order)
                if p.functional and (p.name, s.start, s.end) in functional_taken:
                    continue
                found.append((prob, p, s, o))
                break
        found.sort(key=lambda f: (-f[0], f[2].start, f[3].start, f[1].name))
        kept: list[tuple[float, Predicate, Mention, Mention]] = []
        for prob, p, s, o in found:
            if p.functional:
                k = (p.name, s.start, s.end)
                if k in functional_taken:
                    continue
                functional_taken.add(k)
            kept.append((prob, p, s, o))
        return kept


def load_classifier(data: dict[str, Any] | None = None) -> RelationClassifier:
    """The classifier of ``data`` (default: the packaged ``data/relations_classifier.json``)."""
    if data is None:
        path = resources.files("tahqiq.analysis.relations") / "data" / "relations_classifier.json"
        data = json.loads(path.read_text(encoding="utf-8"))
    return RelationClassifier.from_dict(data)


# an instance: its class, its features (pair and class ones) and whether the gold states it
Instance = tuple[str, tuple[str, ...], bool]


def instances(cands: Iterable[Candidate], gold: set[tuple[str, tuple[int, int], tuple[int, int]]]) -> list[Instance]:
    """The training instances of a sentence's candidates; ``gold`` holds ``(predicate, subject span, object
    span)`` of its stated relations."""
    out: list[Instance] = []
    for cand in cands:
        for c, p, order, own in cand.classes:
            s, o = cand.subject_object(order)
            out.append((c, cand.features + own, (p.name, s.span, o.span) in gold))
    return out


def fit(
    data: Sequence[Instance], *, l2: float, iterations: int, min_count: int, threshold: float
) -> RelationClassifier:
    """L2-regularised logistic regression, one weight per (feature, class) seen ``min_count`` times or more and
    a bias per class, by full-batch gradient descent with AdaGrad steps (deterministic: no sampling)."""
    counts: dict[tuple[str, str], int] = {}
    for c, feats, _ in data:
        for f in feats:
            counts[(f, c)] = counts.get((f, c), 0) + 1
    classes = sorted({c for c, _, _ in data})
    columns = {("bias", c): i for i, c in enumerate(classes)}
    for key in sorted(k for k, n in counts.items() if n >= min_count):
        columns[key] = len(columns)
    rows: list[int] = []
    cols: list[int] = []
    for r, (c, feats, _) in enumerate(data):
        rows.append(r)
        cols.append(columns[("bias", c)])
        for f in feats:
            j = columns.get((f, c))
            if j is not None:
                rows.append(r)
                cols.append(j)
    row = np.asarray(rows, dtype=np.int64)
    col = np.asarray(cols, dtype=np.int64)
    y = np.asarray([label for _, _, label in data], dtype=np.float64)
    n, width = len(data), len(columns)
    penalty = np.full(width, l2)
    penalty[: len(classes)] = 0.0  # the biases are not shrunk
    w = np.zeros(width)
    g2 = np.full(width, 1e-8)
    for _ in range(iterations):
        z = np.bincount(row, weights=w[col], minlength=n)
        prob = 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))
        grad = np.bincount(col, weights=(prob - y)[row], minlength=width) / max(n, 1) + penalty * w
        g2 += grad * grad
        w -= 0.5 * grad / np.sqrt(g2)
    weights: dict[str, dict[str, float]] = {}
    bias: dict[str, float] = {}
    for (f, c), j in columns.items():
        value = round(float(w[j]), 3)
        if f == "bias":
            bias[c] = value
        elif value != 0.0:
            weights.setdefault(f, {})[c] = value
    return RelationClassifier(weights, bias, threshold)


def to_dict(model: RelationClassifier) -> dict[str, Any]:
    """The classifier as the shipped file holds it (sorted keys: a rebuild gives the same text)."""
    return {
        "threshold": model.threshold,
        "bias": dict(sorted(model.bias.items())),
        "weights": {f: dict(sorted(ws.items())) for f, ws in sorted(model.weights.items())},
    }
