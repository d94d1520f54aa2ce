"""The in-process A/B tool for PostgreSQL submissions (benches/inproc_submissions.py) measures what it reports: one
short run of the package under test."""

from __future__ import annotations

from pathlib import Path

import tahqiq

from benches import inproc_submissions


def test_one_run_reports_throughput_and_cpu_per_submission(pg_server_url: str) -> None:
    package_dir = str(Path(tahqiq.__file__).resolve().parent.parent)
    medians = inproc_submissions.run({"this": package_dir}, rounds=1, seconds=0.5)
    figures = medians["this"]
    assert figures["sub_s"] > 0
    # the process (requests, accept batches, processor) and the database's backends did work for every submission
    assert figures["process_us"] > 0 and figures["postgres_us"] > 0
