"""The extractive summarizer's sentence model: fitting it on the gold sets, and cross-validating the method.

    tahqiq report summaries --cv    (the cross-validated figures, per fold, language and length)
    tahqiq report summaries --cv --sweep 4:0.9,16:0.9    (the short summary with other L2 penalties and margins)

The model (:class:`tahqiq.summarize.extractive.SentenceWeights`) is a logistic regression of whether a sentence is
one of the *oracle* sentences of its document, on the sentence's position (a weight for each of the first five), its
forward centrality and the log of its number of content terms. The oracle is the set of three sentences whose
concatenation has the highest ROUGE-1 + ROUGE-2 F1 against the reference, searched over every set of three (the
documents are short; only the first :data:`ORACLE_CANDIDATES` sentences are candidates), as extractive labels are
made for supervised summarizers (SummaRuNNer, BertSum), which search greedily instead. The fit is Newton's method on
the log-likelihood with an L2 penalty on every weight but the bias, so it is deterministic. The penalty depends on
the length the weights are for (:data:`L2`): the short summary's model is shrunk harder toward the lead.

Cross-validation fits the weights on the training documents of each fold and scores the summarizer with them on the
documents left out; the summaries of all folds are pooled into one mean per length and language. Two schemes: by set
(fit on one gold file, score on the other, both ways: the files were written at different times, in different
styles, as a new text will be) and :data:`K_FOLDS` folds over all documents, each set and language spread evenly
over the folds. The margin, the redundancy weight and :data:`L2` are fixed, not refitted in each fold. The short
summary's settings were chosen by :func:`short_sweep`, which adds a third scheme (by set and language) and repeated
random deals of the folds, and reports the worst fold and the documents a departure from Lead-3 made worse.

Repository tooling, never in the wheel: the service only reads the fitted weights, written into
:data:`tahqiq.summarize.extractive.WEIGHTS` and :data:`~tahqiq.summarize.extractive.SHORT_WEIGHTS`.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from tahqiq.summarize.extractive import (
    LENGTH_SENTENCES,
    MAX_RANKED_SENTENCES,
    SentenceWeights,
    choose,
    sentence_features,
    sentence_scores,
    sentence_similarity,
    sentence_terms,
)
from tahqiq.text.sentences import sentence_spans

from tools.evaluate.summaries import by_language, score_documents
from tools.metrics import METRICS, rouge, rouge_n, tokenize

L2: dict[str, float] = {"short": 16.0, "medium": 4.0, "long": 4.0}
"""Ridge penalty on the weights other than the bias, per length of the summary the weights are for: the sets are
small (64 documents, 600 sentences). The short summary's is the larger, shrinking its model toward the lead-only one:
chosen by :func:`short_sweep` as the setting with the largest gain of those whose departures from Lead-3 lowered no
cross-validated document's ROUGE-1 (README.md, "Summarizer quality")."""
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


@dataclass(frozen=True, slots=True)
class GoldDocument:
    """A gold document as the summarizer and the fit see it: its sentences, their features and similarities, the
    oracle labels, and the reference."""

    id: str
    lang: str
    sentences: tuple[str, ...]
    features: np.ndarray
    sim: np.ndarray
    labels: np.ndarray
    reference: str


def gold_document(row: dict[str, str]) -> GoldDocument:
    """The sentences of a gold document with the features and similarities the summarizer computes, and the oracle
    labels the model is fitted to."""
    text = row["text"]
    spans = sentence_spans(text)[:MAX_RANKED_SENTENCES]
    sentences = tuple(text[s:e] for s, e in spans)
    bags = [Counter(sentence_terms(sentence)) for sentence in sentences]
    sim = sentence_similarity(bags)
    labels = np.zeros(len(spans))
    labels[list(oracle([tokenize(sentence) for sentence in sentences], tokenize(row["reference"])))] = 1.0
    return GoldDocument(row["id"], row["lang"], sentences, sentence_features(bags, sim), sim, labels, row["reference"])


def training_examples(row: dict[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """The features of each sentence of a gold document, as the summarizer computes them, and its oracle label."""
    document = gold_document(row)
    return document.features, document.labels


def fit_logistic(features: np.ndarray, labels: np.ndarray, l2: float) -> np.ndarray:
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


def fit_weights(rows: Iterable[dict[str, str]], l2: float) -> SentenceWeights:
    """The sentence model fitted on gold documents (``text`` and ``reference``) with the ridge penalty ``l2``,
    rounded to 3 decimals."""
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


def folds_by_group(sets: dict[str, list[dict[str, str]]]) -> list[Fold]:
    """One fold per set and language (set 1's Arabic documents, ...): trained on all the others, tested on it. The
    harshest of the schemes: the test documents share neither the writing time nor the language of a quarter of
    the training data."""
    groups = [(name, lang) for name, rows in sets.items() for lang in sorted({row["lang"] for row in rows})]
    return [
        Fold(
            f"test {name} {lang}",
            tuple(row for other, rows in sets.items() for row in rows if (other, row["lang"]) != (name, lang)),
            tuple(row for row in sets[name] if row["lang"] == lang),
        )
        for name, lang in groups
    ]


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


def k_folds(sets: dict[str, list[dict[str, str]]], k: int = K_FOLDS, seed: int | None = None) -> list[Fold]:
    """``k`` folds over all documents: those of each set and language, in order of id (shuffled by ``seed`` when it
    is given), are dealt to the folds in turn (continuing from one group to the next), so each fold has a share of
    every set and language."""
    rng = random.Random(seed)
    ordered = []
    for name in sets:
        for lang in sorted({row["lang"] for row in sets[name]}):
            group = sorted((r for r in sets[name] if r["lang"] == lang), key=lambda r: r["id"])
            if seed is not None:
                rng.shuffle(group)
            ordered += group
    return [
        Fold(
            f"fold {fold + 1} of {k}",
            tuple(row for i, row in enumerate(ordered) if i % k != fold),
            tuple(row for i, row in enumerate(ordered) if i % k == fold),
        )
        for fold in range(k)
    ]


def cross_validate(folds: list[Fold]) -> dict[str, list[list[dict[str, Any]]]]:
    """For each length, for each fold, the test documents scored (:func:`tools.evaluate.summaries.score_documents`)
    by the summarizer with the weights fitted on that fold's training documents (with that length's :data:`L2`)."""
    cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def examples(row: dict[str, str]) -> tuple[np.ndarray, np.ndarray]:
        if row["id"] not in cache:
            cache[row["id"]] = training_examples(row)
        return cache[row["id"]]

    scored: dict[str, list[list[dict[str, Any]]]] = {length: [] for length in LENGTH_SENTENCES}
    for fold in folds:
        train = [examples(row) for row in fold.train]
        features, labels = np.concatenate([f for f, _ in train]), np.concatenate([y for _, y in train])
        fitted = {
            l2: SentenceWeights.from_vector(fit_logistic(features, labels, l2).tolist()) for l2 in set(L2.values())
        }
        for length in LENGTH_SENTENCES:
            scored[length].append(score_documents(list(fold.test), length, fitted[L2[length]]))
    return scored


def pooled(scored: dict[str, list[list[dict[str, Any]]]]) -> dict[str, dict[str, dict[str, Any]]]:
    """The folds' test documents pooled, per length: :func:`tools.evaluate.summaries.by_language` of them all."""
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
        for length, folds_scored in scored.items():
            for lang, worst in worst_fold(folds_scored).items():
                cells = " / ".join(f"{100 * worst[m]:+.2f}" for m in METRICS)
                lines.append(f"| {scheme} | worst fold (each metric's own) | {length} | {lang} | — | — | — | {cells} |")
    return lines


def worst_fold(folds: list[list[dict[str, Any]]]) -> dict[str, dict[str, float]]:
    """Per language (and ``all``), per metric: the lowest F1 difference, summarizer minus Lead-k, of any one fold's
    test documents (of that language): the pooled mean can hide a fold that lost."""
    worst: dict[str, dict[str, float]] = {}
    for documents in folds:
        for lang, group in by_language(documents).items():
            if not group["n"]:
                continue
            slot = worst.setdefault(lang, {m: float("inf") for m in METRICS})
            for m in METRICS:
                slot[m] = min(slot[m], group["summarizer"][m].fmeasure - group["lead"][m].fmeasure)
    return worst


SWEEP_REPEATS = 20
"""Random deals of the 4- and 8-fold schemes in :func:`short_sweep` (folds of 8 documents are noisy)."""


@dataclass(frozen=True, slots=True)
class SweepRow:
    """The short summary cross-validated with one setting (ridge penalty, lead margin) in one scheme: the pooled F1
    difference from Lead-3 (summarizer minus lead, per metric), the worst fold's, the departures from Lead-3 per
    deal of the folds, the documents (over all deals) where that raised and lowered ROUGE-1, and the worst single
    document's ROUGE-1 difference."""

    l2: float
    margin: float
    scheme: str
    pooled: tuple[float, float, float]
    worst_fold: tuple[float, float, float]
    departures: float
    higher: int
    lower: int
    worst_document: float


def _triple(values: np.ndarray) -> tuple[float, float, float]:
    return float(values[0]), float(values[1]), float(values[2])


def short_sweep(
    sets: dict[str, list[dict[str, str]]],
    settings: Sequence[tuple[float, float]],
    repeats: int = SWEEP_REPEATS,
) -> list[SweepRow]:
    """The short summary cross-validated with each ``(l2, margin)`` in place of ``(L2["short"], LEAD_MARGIN)``, the
    weights refitted in every fold, in four schemes: by set, by set and language, and 4 and 8 folds dealt
    ``repeats`` times at random. What the short summary's settings were chosen on (README.md)."""
    k = LENGTH_SENTENCES["short"]
    documents = {row["id"]: gold_document(row) for rows in sets.values() for row in rows}
    f1_cache: dict[tuple[str, tuple[int, ...]], np.ndarray] = {}

    def f1(document: GoldDocument, chosen: tuple[int, ...]) -> np.ndarray:
        if (document.id, chosen) not in f1_cache:
            scores = rouge(" ".join(document.sentences[i] for i in chosen), document.reference)
            f1_cache[document.id, chosen] = np.array([scores[m].fmeasure for m in METRICS])
        return f1_cache[document.id, chosen]

    schemes = [
        ("by set", [folds_by_set(sets)]),
        ("set x language", [folds_by_group(sets)]),
        (f"4 folds x {repeats}", [k_folds(sets, 4, seed) for seed in range(repeats)]),
        (f"8 folds x {repeats}", [k_folds(sets, 8, seed) for seed in range(repeats)]),
    ]
    rows: list[SweepRow] = []
    for l2, margin in settings:
        for scheme, deals in schemes:
            differences: list[np.ndarray] = []
            fold_means: list[np.ndarray] = []
            departures = 0
            for fold in (fold for folds in deals for fold in folds):
                train = [documents[row["id"]] for row in fold.train]
                vector = fit_logistic(
                    np.concatenate([d.features for d in train]), np.concatenate([d.labels for d in train]), l2
                )
                weights = SentenceWeights.from_vector(vector.tolist())
                fold_differences = []
                for document in (documents[row["id"]] for row in fold.test):
                    lead = tuple(range(min(k, len(document.sentences))))
                    chosen = lead
                    if len(document.sentences) > k:
                        chosen = tuple(choose(sentence_scores(document.features, weights), document.sim, k, margin))
                    departures += chosen != lead
                    fold_differences.append(f1(document, chosen) - f1(document, lead))
                differences += fold_differences
                fold_means.append(np.mean(fold_differences, axis=0))
            r1 = [float(d[0]) for d in differences]
            rows.append(
                SweepRow(
                    l2,
                    margin,
                    scheme,
                    _triple(np.mean(differences, axis=0)),
                    _triple(np.min(fold_means, axis=0)),
                    departures / len(deals),
                    sum(x > 0 for x in r1),
                    sum(x < 0 for x in r1),
                    min(r1),
                )
            )
    return rows


def short_sweep_table(sets: dict[str, list[dict[str, str]]], settings: Sequence[tuple[float, float]]) -> list[str]:
    """Markdown: :func:`short_sweep`, one row per setting and scheme (F1 differences x100)."""
    lines = [
        "| L2 | margin | scheme | summarizer − Lead-3, pooled R1 / R2 / RL | worst fold R1 / R2 / RL "
        f"| departures (of {sum(map(len, sets.values()))}) | ROUGE-1 higher / lower | worst document R1 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in short_sweep(sets, settings):
        pooled_cells, worst_cells = (" / ".join(f"{100 * x:+.2f}" for x in v) for v in (row.pooled, row.worst_fold))
        lines.append(
            f"| {row.l2:g} | {row.margin:g} | {row.scheme} | {pooled_cells} | {worst_cells} | {row.departures:.1f} | "
            f"{row.higher} / {row.lower} | {100 * row.worst_document:+.1f} |"
        )
    return lines
