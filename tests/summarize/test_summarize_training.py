"""The summarizer's sentence model: the oracle labels, the logistic fit, the weights written in the code, the folds,
and the issue's aim (ROUGE-1/2/L F1 at or above Lead-k) on cross-validated figures over both gold sets."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tahqiq.summarize.extractive import (
    FEATURES,
    LEAD_MARGIN,
    LENGTH_SENTENCES,
    SHORT_WEIGHTS,
    WEIGHTS,
    SentenceWeights,
    length_weights,
)

from tools import metrics
from tools.evaluate import summaries as evaluate
from tools.report import main as report_main
from tools.train import summaries as training

GOLD_DIR = Path(__file__).resolve().parents[1] / "gold"
SETS = {"tuning set 1": GOLD_DIR / "summaries.jsonl", "tuning set 2": GOLD_DIR / "summaries_heldout.jsonl"}


@pytest.fixture(scope="module")
def gold_sets() -> dict[str, list[dict[str, str]]]:
    return {label: evaluate.load_gold(path) for label, path in SETS.items()}


def _brute_force_oracle(sentences: list[list[str]], reference: list[str], k: int) -> float:
    def score(subset: tuple[int, ...]) -> float:
        tokens = [t for i in subset for t in sentences[i]]
        return metrics.rouge_n(tokens, reference, 1).fmeasure + metrics.rouge_n(tokens, reference, 2).fmeasure

    return max(score(s) for s in itertools.combinations(range(len(sentences)), k))


_WORDS = st.sampled_from(["bank", "rate", "rose", "the", "port", "grain", "ship", "27", "وزير", "المالية"])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(_WORDS, max_size=8), min_size=1, max_size=7), st.lists(_WORDS, min_size=1, max_size=12))
def test_oracle_is_the_best_set_of_three(sentences: list[list[str]], reference: list[str]) -> None:
    chosen = training.oracle(sentences, reference)
    assert list(chosen) == sorted(set(chosen))
    if len(sentences) <= training.ORACLE_SENTENCES:
        assert chosen == tuple(range(len(sentences)))
        return
    assert len(chosen) == training.ORACLE_SENTENCES
    tokens = [t for i in chosen for t in sentences[i]]
    score = metrics.rouge_n(tokens, reference, 1).fmeasure + metrics.rouge_n(tokens, reference, 2).fmeasure
    assert score == pytest.approx(_brute_force_oracle(sentences, reference, training.ORACLE_SENTENCES))


def test_oracle_by_hand() -> None:
    sentences = [["a", "scene"], ["bank", "raised", "rate"], ["noise"], ["to", "27", "percent"], ["more", "noise"]]
    reference = "the bank raised its rate to 27 percent".split()
    assert training.oracle(sentences, reference, 2) == (1, 3)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.sampled_from([0.5, 4.0, 20.0]))
def test_logistic_fit_is_the_penalised_optimum(seed: int, l2: float) -> None:
    rng = np.random.default_rng(seed)
    features = np.column_stack([np.ones(60), rng.normal(size=(60, 3))])
    labels = (features @ np.array([-0.5, 2.0, -1.0, 0.0]) + rng.normal(size=60) > 0).astype(float)
    weights = training.fit_logistic(features, labels, l2)
    p = 1.0 / (1.0 + np.exp(-(features @ weights)))
    penalty = l2 * weights
    penalty[0] = 0.0  # the bias is not penalised
    assert np.abs(features.T @ (p - labels) + penalty).max() < 1e-6  # the gradient vanishes: an optimum
    # a stronger penalty shrinks the weights
    assert np.abs(training.fit_logistic(features, labels, 100 * l2)[1:]).sum() < np.abs(weights[1:]).sum()


def test_weights_in_the_code_are_the_fit_on_both_sets(gold_sets: dict[str, list[dict[str, str]]]) -> None:
    rows = [row for rows in gold_sets.values() for row in rows]
    assert training.fit_weights(rows, training.L2["medium"]) == WEIGHTS
    assert training.fit_weights(rows, training.L2["short"]) == SHORT_WEIGHTS
    assert training.L2["medium"] == training.L2["long"] < training.L2["short"]
    for length in LENGTH_SENTENCES:
        assert training.fit_weights(rows, training.L2[length]) == length_weights(length)
    for weights in (WEIGHTS, SHORT_WEIGHTS):
        assert len(weights.vector()) == len(FEATURES)
        # what the data say, and what the method rests on: early sentences, central ones and long ones are chosen
        assert min(weights.position) > 0 and weights.centrality > 0 and weights.length > 0


def test_folds_partition_the_documents(gold_sets: dict[str, list[dict[str, str]]]) -> None:
    everything = sorted(row["id"] for rows in gold_sets.values() for row in rows)
    for folds in (training.folds_by_set(gold_sets), training.k_folds(gold_sets)):
        assert sorted(row["id"] for fold in folds for row in fold.test) == everything  # each tested once
        for fold in folds:
            assert sorted(row["id"] for row in fold.train + fold.test) == everything
            assert not {row["id"] for row in fold.train} & {row["id"] for row in fold.test}
    by_set = training.folds_by_set(gold_sets)
    assert [fold.test for fold in by_set] == [tuple(rows) for rows in gold_sets.values()]
    for folds in (training.k_folds(gold_sets), training.k_folds(gold_sets, seed=3)):
        for fold in folds:
            assert len(fold.test) in (len(everything) // training.K_FOLDS, len(everything) // training.K_FOLDS + 1)
            assert {row["lang"] for row in fold.test} == {"ar", "en"}
    # a seed deals the documents at random (each group shuffled), the same for the same seed
    dealt = [[row["id"] for row in fold.test] for fold in training.k_folds(gold_sets, 4, seed=3)]
    assert dealt == [[row["id"] for row in fold.test] for fold in training.k_folds(gold_sets, 4, seed=3)]
    assert dealt != [[row["id"] for row in fold.test] for fold in training.k_folds(gold_sets, 4)]
    assert dealt != [[row["id"] for row in fold.test] for fold in training.k_folds(gold_sets, 4, seed=4)]
    for folds in (training.k_folds(gold_sets, 4, seed=3), training.folds_by_group(gold_sets)):
        assert sorted(row["id"] for fold in folds for row in fold.test) == everything
        for fold in folds:
            assert not {row["id"] for row in fold.train} & {row["id"] for row in fold.test}
            assert len(fold.train) + len(fold.test) == len(everything)
    # by set and language: each fold is one language of one set
    groups = training.folds_by_group(gold_sets)
    assert len(groups) == 4
    assert all(len({(row["lang"], row["id"][:3]) for row in fold.test}) == 1 for fold in groups)


def test_cross_validated_summarizer_is_at_or_above_lead(gold_sets: dict[str, list[dict[str, str]]]) -> None:
    """The issue's aim, on documents the weights were not fitted on: at every length, ROUGE-1/2/L F1 of the
    summarizer >= Lead-k, overall and in each language, pooled over the folds of each scheme (figures in README.md;
    single folds are not claimed at medium and long: fitted on the first set alone, the summarizer is a little below
    Lead-8 on ROUGE-1 in the second set's English documents; at short they are, in the next test)."""
    for folds in (training.folds_by_set(gold_sets), training.folds_by_group(gold_sets), training.k_folds(gold_sets)):
        pooled = training.pooled(training.cross_validate(folds))
        for length, groups in pooled.items():
            assert groups["all"]["n"] == 64
            for lang, group in groups.items():
                for metric in metrics.METRICS:
                    ours, lead = group["summarizer"][metric].fmeasure, group["lead"][metric].fmeasure
                    assert ours >= lead, (folds[0].name, length, lang, metric)
        short = pooled["short"]["all"]
        assert short["summarizer"]["rouge1"].fmeasure > short["lead"]["rouge1"].fmeasure  # and strictly, at short


def test_cross_validated_short_summary_is_never_below_lead_3_on_rouge_1(
    gold_sets: dict[str, list[dict[str, str]]],
) -> None:
    """What the short summary's model (L2 16) was chosen for: cross-validated by set, by set and language, and in
    8 folds, no document's ROUGE-1 F1 is below Lead-3's, so neither is any fold's or language's; ROUGE-L is not
    below Lead-3 in any fold either, and ROUGE-2 not by more than half a point in a fold (one point in one
    language of a fold: a swap can gain words and lose pairs of them; figures in README.md). And it still gains,
    pooled, on all three."""
    for folds in (training.folds_by_set(gold_sets), training.folds_by_group(gold_sets), training.k_folds(gold_sets)):
        short = training.cross_validate(folds)["short"]
        for documents in short:
            for d in documents:
                assert d["summarizer"]["rouge1"].fmeasure >= d["lead"]["rouge1"].fmeasure, (folds[0].name, d["id"])
        worst = training.worst_fold(short)
        for lang in ("all", "ar", "en"):
            assert worst[lang]["rouge1"] >= 0 and worst[lang]["rougeL"] >= 0, (folds[0].name, lang, worst[lang])
            # one swap's lost word pairs: 0.30 in a fold of 8 documents, 0.79 in its 4 English ones
            assert worst[lang]["rouge2"] >= (-0.005 if lang == "all" else -0.01), (folds[0].name, lang, worst[lang])
        group = by_language_all(short)
        for metric in metrics.METRICS:
            assert group["summarizer"][metric].fmeasure > group["lead"][metric].fmeasure, (folds[0].name, metric)


def by_language_all(folds: list[list[dict[str, object]]]) -> dict[str, Any]:
    return evaluate.by_language([d for fold in folds for d in fold])["all"]


def test_the_old_short_model_fell_below_lead_3_where_the_new_one_does_not(
    gold_sets: dict[str, list[dict[str, str]]],
) -> None:
    """The sweep the short model was chosen on (``report summaries --cv --sweep``), with two random deals: the
    model of the medium and long summaries (L2 4) lowers ROUGE-1 in some documents and folds, the short one (L2 16)
    in none, at the same margin; a margin no score can beat is Lead-3 everywhere. The sweep's by-set row for the
    short summary's settings is what cross_validate() gives through the summarizer itself."""
    settings = [(training.L2["medium"], LEAD_MARGIN), (training.L2["short"], LEAD_MARGIN), (4.0, 1000.0)]
    rows = training.short_sweep(gold_sets, settings, repeats=2)
    assert [(r.l2, r.margin, r.scheme) for r in rows[:4]] == [
        (4.0, LEAD_MARGIN, scheme) for scheme in ("by set", "set x language", "4 folds x 2", "8 folds x 2")
    ]
    old, new, lead = rows[:4], rows[4:8], rows[8:]
    assert sum(r.lower for r in old) > 0 and min(r.worst_fold[0] for r in old) < 0
    assert sum(r.lower for r in new) == 0 and min(r.worst_fold[0] for r in new) >= 0
    assert all(r.pooled[0] > 0 for r in new)
    assert all(r.departures == 0 and r.pooled == (0.0, 0.0, 0.0) == r.worst_fold for r in lead)
    by_set = by_language_all(training.cross_validate(training.folds_by_set(gold_sets))["short"])
    assert new[0].pooled == pytest.approx(
        tuple(by_set["summarizer"][m].fmeasure - by_set["lead"][m].fmeasure for m in metrics.METRICS)
    )


def test_cv_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert report_main(["summaries", "--cv", *(f"--gold={path}" for path in SETS.values())]) == 0
    rows = capsys.readouterr().out.splitlines()
    pooled_rows = [r for r in rows if "| all folds pooled |" in r]
    assert len(pooled_rows) == 2 * len(LENGTH_SENTENCES) * 3  # two schemes, every length, all/ar/en
    fold_rows = [r for r in rows if r.startswith("| by set | test ")]
    assert len(fold_rows) == 2 * len(LENGTH_SENTENCES) * 3
    assert any(
        f"| by set | test {SETS['tuning set 2']}, train {SETS['tuning set 1']} | short | en | 14 |" in r for r in rows
    )
    # one set: only the k-fold scheme
    assert report_main(["summaries", "--cv", "--gold", str(SETS["tuning set 1"])]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert not any(r.startswith("| by set") for r in rows)
    assert any(r.startswith(f"| {training.K_FOLDS} folds | all folds pooled | long | all | 36 |") for r in rows)
    assert any(
        r.startswith(f"| {training.K_FOLDS} folds | worst fold (each metric's own) | short | ar |") for r in rows
    )


def test_sweep_report(capsys: pytest.CaptureFixture[str]) -> None:
    gold = [f"--gold={path}" for path in SETS.values()]
    assert report_main(["summaries", "--cv", "--sweep", "16:0.9,4:2.5", *gold]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("| L2 | margin | scheme |")
    assert len(rows) == 2 + 2 * 4  # header, rule, two settings in four schemes
    assert rows[2].startswith("| 16 | 0.9 | by set |") and rows[-1].startswith("| 4 | 2.5 | 8 folds x 20 |")
    bad_values = ["16", "0:1", "4:-1", "4:nan", "4:0.9:1", "a:b", ""]
    for args, why in [(["--sweep", "16:0.9"], "--sweep needs --cv")] + [
        (["--cv", f"--sweep={value}"], "expected L2:MARGIN pairs") for value in bad_values
    ]:
        with pytest.raises(SystemExit) as exit_info:
            report_main(["summaries", *args, *gold])
        assert exit_info.value.code == 2
        assert why in capsys.readouterr().err, args


def test_sentence_weights_round_trip() -> None:
    vector = [0.12345, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    weights = SentenceWeights.from_vector(vector)
    assert weights.vector() == (0.123, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0)
