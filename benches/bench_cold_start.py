"""Issue 21, "no cold start": the first answer after a start with an empty cache folder.

- `tahqiq serve`: seconds from the process's start to the last of its first answers to /ner, /morph and /wsd
  (each route polled until it answers 200), with the wheel's compiled language data.
- `Analyzer().ner(...)` in a fresh process: seconds from before the import to the answer, with the wheel's
  compiled data (ours) against the same with the data built at the start, as every fresh install did before the
  wheel shipped it (the anchor; a full run only: it takes about 90 s).

Medians of fresh starts; each start gets a new empty cache folder.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benches import harness
from benches.bench_access import free_port, tahqiq_env
from benches.bench_access import process as server_process
from tests.support.server import FIRST_REQUESTS, first_answers

TARGET_S = 3.0

ANALYZER = """
import sys, time
started = time.perf_counter()
if sys.argv[3] == "shipped":
    from tahqiq.analysis import Analyzer
    Analyzer(cache_dir=sys.argv[1]).ner(sys.argv[2])
else:  # what every fresh install did before the wheel shipped the data: build it, then answer
    from tahqiq.analysis.runner import AnalysisConfig
    service = AnalysisConfig(data_dir="", cache_dir=sys.argv[1], max_chars=10_000).build(shipped_dir=None)
    service.prepare()
    service.recognizer.recognize(sys.argv[2])
print(time.perf_counter() - started)
"""


def _analyzer_s(mode: str) -> float:
    with tempfile.TemporaryDirectory() as cache:
        argv = [sys.executable, "-c", ANALYZER, cache, FIRST_REQUESTS["/ner"]["text"], mode]
        return float(subprocess.run(argv, capture_output=True, text=True, check=True, timeout=600).stdout)


def _serve_s() -> float:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = tahqiq_env(f"sqlite:///{work / 'db.sqlite'}", work)
        env.update({"TAHQIQ_AREAS": "analysis", "TAHQIQ_CACHE_DIR": str(work / "cache"), "TAHQIQ_DATA_DIR": str(work)})
        port = free_port()
        args = [sys.executable, "-m", "tahqiq", "serve", "--port", str(port), "--workers", "1"]
        started = time.monotonic()
        with server_process(args, env, work, f"http://127.0.0.1:{port}/healthz"):
            answered = first_answers(f"http://127.0.0.1:{port}", started, limit_s=300)
        return max(answered.values())


def run(ctx: harness.Context) -> list[harness.Row]:
    starts = 1 if ctx.quick else 7  # quick: one start of each, to see that the benchmark runs
    serve = statistics.median(_serve_s() for _ in range(starts))
    shipped = statistics.median(_analyzer_s("shipped") for _ in range(starts))
    built = None if ctx.quick else _analyzer_s("build")
    ctx.notes.append(f"cold: medians of {starts} fresh starts, each on an empty cache folder")
    return [
        harness.Row(
            "cold",
            "serve: first /ner, /morph and /wsd after the start",
            serve,
            None,
            "-",
            unit="start",
            target=f"<= {TARGET_S:g} s",
            met=serve <= TARGET_S,
        ),
        harness.Row(
            "cold",
            "Analyzer().ner after the import: shipped data vs built at the start",
            shipped,
            built,
            "data built at the start" if built is not None else "- (full run only)",
            unit="start",
            target=f"<= {TARGET_S:g} s",
            met=shipped <= TARGET_S,
        ),
    ]
