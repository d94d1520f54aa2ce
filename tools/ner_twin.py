"""The NER tagger's Python twin (repository tooling, never in the wheel): feature names and Viterbi decoding in
plain Python, as the native scorer (rust/src/ner_tagger.rs, `tahqiq.core.NerScorer`) computes them.

It is the specification the native scorer is tested against (`reference_predict` against `NerTagger.predict`)
and the path the training takes (tools/train/ner.py), which needs the feature names themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from tahqiq.analysis.ner.tagger import BEGIN, INSIDE, NEG, OUTSIDE, NerTagger, Sentence, SpanTagger
from tahqiq.arabic.clitics import strip_proclitic_and_article


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


def decode(tagger: SpanTagger, feats: list[list[str]]) -> list[int]:
    """The best label sequence (Viterbi)."""
    w = tagger.weights
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
    return viterbi(tagger, emit)


def viterbi(tagger: SpanTagger, emit: list[list[float]]) -> list[int]:
    """The best label sequence given each token's label scores."""
    if not emit:
        return []
    tr = tagger.transitions
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


def reference_predict(tagger: NerTagger, sentence: Sentence) -> dict[str, list[tuple[int, int]]]:
    """`predict` computed in Python, feature names and all (the training's path; the native scorer's spec)."""
    return {typ: spans_of(decode(one, features(sentence, typ))) for typ, one in tagger.taggers.items()}
