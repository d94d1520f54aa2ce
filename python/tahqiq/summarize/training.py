"""The extractive summarizer's sentence model: fitting it on the gold sets, and cross-validating the method.

    tahqiq report summaries --cv    (the cross-validated figures, per fold, language and length)

The model (:class:`tahqiq.summarize.extractive.SentenceWeights`) is a logistic regression of whether a sentence is
one of the *oracle* sentences of its document, on the sentence's position (a weight for each of the first five), its
forward centrality and the log of its number of content terms. The oracle is the set of three sentences whose
concatenation has the highest ROUGE-1 + ROUGE-2 F1 against the reference, searched over every set of three (the
documents are short; only the first :data:`ORACLE_CANDIDATES` sentences are candidates), as extractive labels are
made for supervised summarizers (SummaRuNNer, BertSum), which search greedily instead. The fit is Newton's method on
the log-likelihood with an L2 penalty (:data:`L2`) on every weight but the bias, so it is deterministic.

Cross-validation fits the weights on the training documents of each fold and scores the summarizer with them on the
documents left out; the summaries of all folds are pooled into one mean per length and language. Two schemes: by set
(fit on one gold file, score on the other, both ways: the files were written at different times, in different
styles, as a new text will be) and :data:`K_FOLDS` folds over all documents, each set and language spread evenly
over the folds. The margin, the redundancy weight and :data:`L2` are fixed, not refitted in each fold.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tahqiq.summarize.evaluate import METRICS, by_language, rouge_n, score_documents, tokenize
from tahqiq.summarize.extractive import (
    LENGTH_SENTENCES,
    MAX_RANKED_SENTENCES,
    SentenceWeights,
    sentence_features,
    sentence_similarity,
    sentence_terms,
)
from tahqiq.summarize.sentences import sentence_spans

L2 = 4.0
"""Ridge penalty on the weights other than the bias: the sets are small (64 documents, 600 sentences)."""
ORACLE_SENTENCES = 3
"""Oracle sets have this many sentences, those of a short summary (oracles for 5 and 8 fitted worse, README)."""
ORACLE_CANDIDATES = 30
"""Only the first this many sentences of a document are searched for its oracle (the gold texts have at most 20)."""
K_FOLDS = 8
_NEWTON_STEPS = 50


def oracle(sentences: Sequence[Sequence[str]], reference: Sequence[str], k: int = ORACLE_SENTENCES) -> tuple[int, ...]:
    """Indices of the ``k`` sentences (ROUGE token lists) whose concatenation has the highest ROUGE-1 + ROUGE-2 F1
    against ``reference``; of equal sets, the first in lexicographic order. All of them when there are no more."""
    candidates = range(min(len(sentences), ORACLE_CANDIDATES))
    if len(candidates) <= k:
        return tuple(candidates)
    best, best_score = tuple(candidates[:k]), -1.0
    for subset in itertools.combinations(candidates, k):
        tokens = [token for i in subset for token in sentences[i]]
        score = rouge_n(tokens, reference, 1).fmeasure + rouge_n(tokens, reference, 2).fmeasure
        if score > best_score:
            best, best_score = subset, score
    return best


def training_examples(row: dict[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """The features of each sentence of a gold document, as the summarizer computes them, and its oracle label."""
    text = row["text"]
    spans = sentence_spans(text)[:MAX_RANKED_SENTENCES]
    bags = [Counter(sentence_terms(text[s:e])) for s, e in spans]
    features = sentence_features(bags, sentence_similarity(bags))
    labels = np.zeros(len(spans))
    labels[list(oracle([tokenize(text[s:e]) for s, e in spans], tokenize(row["reference"])))] = 1.0
    return features, labels


def fit_logistic(features: np.ndarray, labels: np.ndarray, l2: float = L2) -> np.ndarray:
    """Weights maximising the log-likelihood of ``labels`` (0/1) minus ``l2 / 2`` times the squared weights other
    than the first (the bias): Newton's method from zero, until the step is negligible."""
    weights = np.zeros(features.shape[1])
    penalty = l2 * np.eye(features.shape[1])
    penalty[0, 0] = 0.0
    for _ in range(_NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(features @ weights)))
        gradient = features.T @ (p - labels) + penalty @ weights
        hessian = (features * (p * (1.0 - p))[:, None]).T @ features + penalty
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return weights


def fit_weights(rows: Iterable[dict[str, str]], l2: float = L2) -> SentenceWeights:
    """The sentence model fitted on gold documents (``text`` and ``reference``), rounded to 3 decimals."""
    examples = [training_examples(row) for row in rows]
    features = np.concatenate([f for f, _ in examples])
    labels = np.concatenate([y for _, y in examples])
    return SentenceWeights.from_vector(fit_logistic(features, labels, l2).tolist())


@dataclass(frozen=True, slots=True)
class Fold:
    """One split of the gold documents: the model is fitted on ``train`` and the summarizer scored on ``test``."""

    name: str
    train: tuple[dict[str, str], ...]
    test: tuple[dict[str, str], ...]


def folds_by_set(sets: dict[str, list[dict[str, str]]]) -> list[Fold]:
    """One fold per set: trained on the other sets, tested on it."""
    return [
        Fold(
            f"test {name}, train {' + '.join(other for other in sets if other != name)}",
            tuple(row for other, rows in sets.items() if other != name for row in rows),
            tuple(rows),
        )
        for name, rows in sets.items()
    ]


def k_folds(sets: dict[str, list[dict[str, str]]], k: int = K_FOLDS) -> list[Fold]:
    """``k`` folds over all documents: those of each set and language, in order of id, are dealt to the folds in
    turn (continuing from one group to the next), so each fold has a share of every set and language."""
    ordered = [
        row
        for name in sets
        for lang in sorted({row["lang"] for row in sets[name]})
        for row in sorted((r for r in sets[name] if r["lang"] == lang), key=lambda r: r["id"])
    ]
    return [
        Fold(
            f"fold {fold + 1} of {k}",
            tuple(row for i, row in enumerate(ordered) if i % k != fold),
            tuple(row for i, row in enumerate(ordered) if i % k == fold),
        )
        for fold in range(k)
    ]


def cross_validate(folds: list[Fold], l2: float = L2) -> dict[str, list[list[dict[str, Any]]]]:
    """For each length, for each fold, the test documents scored (:func:`tahqiq.summarize.evaluate.score_documents`)
    by the summarizer with the weights fitted on that fold's training documents."""
    cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def examples(row: dict[str, str]) -> tuple[np.ndarray, np.ndarray]:
        if row["id"] not in cache:
            cache[row["id"]] = training_examples(row)
        return cache[row["id"]]

    scored: dict[str, list[list[dict[str, Any]]]] = {length: [] for length in LENGTH_SENTENCES}
    for fold in folds:
        train = [examples(row) for row in fold.train]
        vector = fit_logistic(np.concatenate([f for f, _ in train]), np.concatenate([y for _, y in train]), l2)
        weights = SentenceWeights.from_vector(vector.tolist())
        for length in LENGTH_SENTENCES:
            scored[length].append(score_documents(list(fold.test), length, weights))
    return scored


def pooled(scored: dict[str, list[list[dict[str, Any]]]]) -> dict[str, dict[str, dict[str, Any]]]:
    """The folds' test documents pooled, per length: :func:`tahqiq.summarize.evaluate.by_language` of them all."""
    return {length: by_language([d for fold in folds for d in fold]) for length, folds in scored.items()}


def _f1(group: dict[str, Any], side: str) -> str:
    return " / ".join(f"{100 * group[side][m].fmeasure:.1f}" for m in METRICS)


def _difference(group: dict[str, Any]) -> str:
    return " / ".join(f"{100 * (group['summarizer'][m].fmeasure - group['lead'][m].fmeasure):+.2f}" for m in METRICS)


def cross_validation_table(sets: dict[str, list[dict[str, str]]]) -> list[str]:
    """Markdown: ROUGE-1/2/L F1 x100 of the summarizer and Lead-k on the documents left out, per fold of the by-set
    scheme (with two or more sets) and pooled over the folds of each scheme, per length and language."""
    schemes = [(f"{K_FOLDS} folds", k_folds(sets), False)]
    if len(sets) > 1:
        schemes.insert(0, ("by set", folds_by_set(sets), True))
    lines = [
        "| scheme | test documents | length | lang | docs | summarizer R1 / R2 / RL | Lead-k R1 / R2 / RL "
        "| difference |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for scheme, folds, per_fold in schemes:
        scored = cross_validate(folds)
        rows: list[tuple[str, str, dict[str, Any]]] = []
        if per_fold:
            rows += [
                (fold.name, length, by_language(scored[length][i]))
                for i, fold in enumerate(folds)
                for length in LENGTH_SENTENCES
            ]
        rows += [("all folds pooled", length, groups) for length, groups in pooled(scored).items()]
        for name, length, groups in rows:
            k = LENGTH_SENTENCES[length]
            for lang, group in groups.items():
                lines.append(
                    f"| {scheme} | {name} | {length} | {lang} | {group['n']} | {_f1(group, 'summarizer')} | "
                    f"Lead-{k} {_f1(group, 'lead')} | {_difference(group)} |"
                )
    return lines
