"""The same-run A/B tool for PostgreSQL submissions (benches/ab_submissions.py) measures what it reports: one short
round of one variant, the package under test, against the bare route."""

from __future__ import annotations

import shutil
from pathlib import Path

import tahqiq

from benches import ab_submissions


def test_one_round_reports_throughput_ratio_and_costs_per_submission(pg_server_url: str) -> None:
    assert shutil.which("wrk") is not None, "the A/B tool needs wrk (apt-get install wrk)"
    package_dir = str(Path(tahqiq.__file__).resolve().parent.parent)
    medians = ab_submissions.run({"this": package_dir}, rounds=1, seconds=1, connections=32)
    figures = medians["this"]
    assert figures["errors"] == 0
    assert figures["req_s"] > 0 and figures["bare_req_s"] > 0
    assert figures["ratio"] == figures["req_s"] / figures["bare_req_s"]
    assert figures["p50_ms"] > 0 and figures["p99_ms"] >= figures["p50_ms"]
    # the worker's event loop and PostgreSQL did work for every submission, and each wrote to the WAL
    assert figures["python_us"] > 0 and figures["postgres_us"] > 0
    assert figures["wal_records"] > 0 and figures["wal_bytes"] > 0
    # what wrk spent per request, on ours and on the bare route, and the bare server's own CPU per request
    assert figures["wrk_us"] > 0 and figures["bare_wrk_us"] > 0 and figures["bare_server_us"] > 0
