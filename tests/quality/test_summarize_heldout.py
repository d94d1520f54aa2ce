"""The second summarization gold set (tests/gold/summaries_heldout.jsonl, held out until it had been looked at once,
now tuning data like the first): its shape, its independence from the first set, and the report that prints both.
The aim (at or above Lead-k) is checked on cross-validated figures, in tests/summarize/test_summarize_training.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tahqiq.summarize.extractive import LENGTH_SENTENCES, detect_language
from tahqiq.text.sentences import split_sentences

from tools import metrics
from tools.evaluate import summaries as evaluate
from tools.report import main as report_main

GOLD_DIR = Path(__file__).resolve().parents[1] / "gold"
TUNING = GOLD_DIR / "summaries.jsonl"
HELDOUT = GOLD_DIR / "summaries_heldout.jsonl"
HELDOUT2 = GOLD_DIR / "summaries_heldout2.jsonl"
HELDOUT3 = GOLD_DIR / "summaries_heldout3.jsonl"


def test_heldout_set_shape() -> None:
    rows = [json.loads(line) for line in HELDOUT.read_text(encoding="utf-8").splitlines()]
    assert len({row["id"] for row in rows}) == len(rows) >= 24
    for lang in ("ar", "en"):
        docs = [row for row in rows if row["lang"] == lang]
        assert len(docs) >= 12
        for row in docs:
            assert set(row) == {"id", "lang", "title", "text", "reference"}
            assert row["id"].startswith(f"{lang}-h"), row["id"]
            assert 6 <= len(split_sentences(row["text"])) <= 20, row["id"]
            assert detect_language(row["text"]) == lang
            assert 2 <= len(split_sentences(row["reference"])) <= 4, row["id"]
            # an abstract, not a copy of the lead or of any other sentence of the text
            assert not set(split_sentences(row["reference"])) & set(split_sentences(row["text"])), row["id"]


def test_heldout_set_shares_nothing_with_the_tuning_set() -> None:
    tuning, heldout = evaluate.load_gold(TUNING), evaluate.load_gold(HELDOUT)
    assert not {r["id"] for r in tuning} & {r["id"] for r in heldout}
    assert not {r["title"] for r in tuning} & {r["title"] for r in heldout}
    tuning_sentences = {s for r in tuning for s in split_sentences(r["text"])}
    assert not tuning_sentences & {s for r in heldout for s in split_sentences(r["text"])}


# The second and third held-out sets were written blind after the summarizer existed (tests/gold/SUMMARIES.md); only
# their shape is tested here, never a score. Each row: the file, its id tag, documents a language, sentence range.
BLIND_SETS = [(HELDOUT2, "g", 14, (7, 18)), (HELDOUT3, "k", 20, (8, 18))]


@pytest.mark.parametrize(("path", "tag", "per_language", "sentences"), BLIND_SETS, ids=["second", "third"])
def test_blind_heldout_set_shape(path: Path, tag: str, per_language: int, sentences: tuple[int, int]) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len({row["id"] for row in rows}) == len(rows) >= 2 * per_language
    low, high = sentences
    for lang in ("ar", "en"):
        docs = [row for row in rows if row["lang"] == lang]
        assert len(docs) >= per_language
        for row in docs:
            assert set(row) == {"id", "lang", "title", "text", "reference"}
            assert row["id"].startswith(f"{lang}-{tag}"), row["id"]
            assert low <= len(split_sentences(row["text"])) <= high, row["id"]
            assert detect_language(row["text"]) == lang
            assert 2 <= len(split_sentences(row["reference"])) <= 4, row["id"]
            # an abstract, not a copy of the lead or of any other sentence of the text
            assert not set(split_sentences(row["reference"])) & set(split_sentences(row["text"])), row["id"]


@pytest.mark.parametrize("later", [HELDOUT2, HELDOUT3], ids=["second", "third"])
def test_blind_heldout_set_shares_nothing_with_the_earlier_sets(later: Path) -> None:
    sets = [TUNING, HELDOUT, HELDOUT2, HELDOUT3]
    earlier = [row for path in sets[: sets.index(later)] for row in evaluate.load_gold(path)]
    blind = evaluate.load_gold(later)
    assert not {r["id"] for r in earlier} & {r["id"] for r in blind}
    assert not {r["title"] for r in earlier} & {r["title"] for r in blind}
    earlier_sentences = {s for r in earlier for s in split_sentences(r["text"])}
    assert not earlier_sentences & {s for r in blind for s in split_sentences(r["text"])}


def test_default_gold_sets_are_the_files_in_tests_gold() -> None:
    assert {path.name for path in evaluate.GOLD_SETS.values()} == {TUNING.name, HELDOUT.name}
    assert evaluate.GOLD_SETS["tuning set 2"] == evaluate.HELDOUT_GOLD


def test_report_prints_both_sets_by_default(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(GOLD_DIR.parent.parent)  # the report's default paths are relative to the repository
    assert report_main(["summaries"]) == 0
    out = capsys.readouterr().out
    tuning_at, heldout_at = out.index("tuning set 1: "), out.index("tuning set 2: ")
    assert tuning_at < heldout_at
    assert f"on {evaluate.DEFAULT_GOLD}, length short" in out[tuning_at:heldout_at]
    assert f"on {evaluate.HELDOUT_GOLD}, length short" in out[heldout_at:]
    for gold, part in ((TUNING, out[tuning_at:heldout_at]), (HELDOUT, out[heldout_at:])):
        assert f"all ({len(evaluate.load_gold(gold))} documents)" in part


def test_report_with_one_gold_file_prints_only_that_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert report_main(["summaries", "--gold", str(HELDOUT)]) == 0
    out = capsys.readouterr().out
    assert "tuning set" not in out
    assert f"on {HELDOUT}, length short" in out
    assert f"all ({len(evaluate.load_gold(HELDOUT))} documents)" in out


def test_length_all_table_matches_the_detailed_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert report_main(["summaries", "--gold", str(HELDOUT), "--length", "all"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| gold set |")]
    assert len(rows) == len(LENGTH_SENTENCES) * 3  # every length, for all, ar and en
    for length, k in LENGTH_SENTENCES.items():
        group = evaluate.summaries_report(HELDOUT, length)["by_lang"]["en"]
        ours = " / ".join(f"{100 * group['summarizer'][m].fmeasure:.1f}" for m in metrics.METRICS)
        lead = " / ".join(f"{100 * group['lead'][m].fmeasure:.1f}" for m in metrics.METRICS)
        assert f"| gold set | {length} | en | {group['n']} | {ours} | Lead-{k} {lead} |" in rows


def test_report_names_a_missing_default_set(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    assert report_main(["summaries"]) == 2
    assert f"no gold file {evaluate.DEFAULT_GOLD}" in capsys.readouterr().err


def test_wins_and_losses_counts_documents_not_means() -> None:
    def doc(ours: float, lead: float) -> dict[str, dict[str, metrics.Score]]:
        return {"summarizer": {"rouge1": metrics.Score(0, 0, ours)}, "lead": {"rouge1": metrics.Score(0, 0, lead)}}

    # one large win against two small losses: the mean favours the summarizer, the counts do not
    docs = [doc(0.9, 0.1), doc(0.4, 0.5), doc(0.3, 0.31), doc(0.2, 0.2)]
    assert evaluate.wins_and_losses(docs) == (1, 2)  # the tie counts on neither side
    result = evaluate.summaries_report(HELDOUT, "short")
    higher, lower = evaluate.wins_and_losses(result["documents"])
    differing = [d for d in result["documents"] if d["summarizer"]["rouge1"] != d["lead"]["rouge1"]]
    assert higher + lower == len(differing)


def test_report_prints_wins_and_losses(capsys: pytest.CaptureFixture[str]) -> None:
    assert report_main(["summaries", "--gold", str(HELDOUT), "--length", "medium"]) == 0
    out = capsys.readouterr().out
    result = evaluate.summaries_report(HELDOUT, "medium")
    for lang in ("ar", "en"):
        higher, lower = evaluate.wins_and_losses([d for d in result["documents"] if d["lang"] == lang])
        part = out[out.index(f"  {lang} (") :]
        assert f"above lead-5 on {higher} documents, below on {lower}" in part.splitlines()[3]


def test_report_with_two_gold_files_labels_each_by_its_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert report_main(["summaries", "--gold", str(TUNING), "--gold", str(HELDOUT), "--length", "all"]) == 0
    rows = capsys.readouterr().out.splitlines()
    for gold in (TUNING, HELDOUT):
        n = len(evaluate.load_gold(gold))
        assert any(row.startswith(f"| {gold} | short | all | {n} |") for row in rows), gold
