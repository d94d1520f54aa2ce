"""Scores shared by the evaluations and the training (repository tooling, never in the wheel).

- :func:`prf`: precision, recall and F1 from true positive, false positive and false negative counts (NER,
  relations, the NER tagger's training).
- ROUGE-1, ROUGE-2 and ROUGE-L of summaries (:func:`rouge`), with the project's tokenizer (:func:`tokenize`); the
  conventions are in :mod:`tools.evaluate.summaries`.

They sit in a module of their own so that the summaries' evaluation and training both import them and neither
imports the other (in the package, ``summarize.training`` imported ``summarize.evaluate``, which imported it back).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tahqiq.core import normalize

__all__ = ["METRICS", "Score", "lcs_length", "prf", "rouge", "rouge_l", "rouge_n", "tokenize"]

METRICS = ("rouge1", "rouge2", "rougeL")
_TOKEN = re.compile(r"[^\W_]+")


def prf(tp: int, fp: int, fn: int) -> dict[str, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "tp": tp, "fp": fp, "fn": fn}


@dataclass(frozen=True, slots=True)
class Score:
    """Precision, recall and F1 of one metric on one document (all 0 when either side has no tokens)."""

    precision: float
    recall: float
    fmeasure: float


def tokenize(text: str) -> list[str]:
    """ROUGE tokens: lowercase, normalised, runs of letters and digits."""
    return _TOKEN.findall(normalize(text.lower()))


def _score(overlap: int, candidate: int, reference: int) -> Score:
    precision = overlap / candidate if candidate else 0.0
    recall = overlap / reference if reference else 0.0
    f = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(precision, recall, f)


def _ngrams(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def rouge_n(candidate: Sequence[str], reference: Sequence[str], n: int) -> Score:
    """ROUGE-N of token lists: n-grams shared, each counted at most as often as on the side where it is rarer."""
    c, r = _ngrams(candidate, n), _ngrams(reference, n)
    return _score(sum((c & r).values()), sum(c.values()), sum(r.values()))


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence (dynamic programming, one row at a time)."""
    if len(a) < len(b):
        a, b = b, a
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def rouge_l(candidate: Sequence[str], reference: Sequence[str]) -> Score:
    """ROUGE-L: the longest common subsequence over the candidate's and the reference's lengths."""
    return _score(lcs_length(candidate, reference), len(candidate), len(reference))


def rouge(candidate: str, reference: str) -> dict[str, Score]:
    """ROUGE-1, ROUGE-2 and ROUGE-L of two texts, keyed like ``rouge-score`` (``rouge1``, ``rouge2``, ``rougeL``)."""
    c, r = tokenize(candidate), tokenize(reference)
    return {"rouge1": rouge_n(c, r, 1), "rouge2": rouge_n(c, r, 2), "rougeL": rouge_l(c, r)}
