"""The batch benchmark's `analyze` rows: ratios only where the work is long enough to time apart from the start."""

from __future__ import annotations

from benches.bench_batch import RESOLVABLE_S, analyze_rows


def test_work_long_enough_gives_per_document_times_without_the_start_and_both_ratios() -> None:
    jobs1, jobs2 = analyze_rows("ner", 800, inproc_s=8.0, starts={1: 1.5, 2: 1.5}, whole={1: 9.5, 2: 5.5})
    assert jobs1.ours_s == 8.0 / 800 and jobs1.anchor_s == 8.0 / 800 and jobs1.met is True
    assert jobs2.ours_s == 4.0 / 800 and jobs2.ratio == 2.0 and jobs2.met is True
    assert "no ratio" not in jobs2.notes


def test_work_too_short_gives_the_whole_runs_time_and_no_ratio() -> None:
    short = RESOLVABLE_S / 2
    rows = analyze_rows("glossary", 800, inproc_s=0.1, starts={1: 1.6, 2: 1.7}, whole={1: 1.6 + short, 2: 1.69})
    for row, whole in zip(rows, (1.6 + short, 1.69), strict=True):
        assert row.ours_s == whole / 800  # never the near-zero or negative difference
        assert row.anchor_s is None and row.ratio is None and row.met is None
        assert "no ratio is claimed" in row.notes
