"""No cold start (issue 21): with an empty cache directory, `tahqiq serve` answers its first /ner, /morph and /wsd,
and `Analyzer().ner` returns, within 3 s of starting, because the wheel ships the compiled language data
(tahqiq.analysis.compiled). Building it took about a minute. The sentences hold words outside the compiled
morphology table, so the first answers also start the morphological analyser."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.server import FIRST_REQUESTS, ServerProcess, first_answers, server_env

FIRST_ANSWER_S = 3.0
# The bound is about a start on an idle machine: no test of another test process runs meanwhile.
pytestmark = pytest.mark.alone


def _compiled_files(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.glob("*.pickle")) if cache.exists() else []


def _first_answers(folder: Path) -> dict[str, float]:
    """Starts a server on an empty cache folder; seconds from its start to each route's first 200."""
    cache = folder / "cache"
    env = server_env(f"sqlite:///{folder / 'db.sqlite'}", TAHQIQ_CACHE_DIR=str(cache), TAHQIQ_DATA_DIR=str(folder))
    server = ServerProcess(env)
    started = time.monotonic()
    with server:
        answered = first_answers(server.url, started)
    assert set(answered) == set(FIRST_REQUESTS)
    assert _compiled_files(cache) == []  # read from the wheel, nothing built
    return answered


def _best_of_three(start: Callable[[int], float]) -> float:
    """The fastest of up to three fresh starts: a start on a busy machine can only take longer than the bound it
    is checked against, never shorter, so one start under it proves the bound (and three over it disprove it)."""
    times: list[float] = []
    for attempt in range(3):
        times.append(start(attempt))
        if times[-1] < FIRST_ANSWER_S:
            break
    return min(times)


def test_serve_answers_the_analysis_routes_within_3_s_with_an_empty_cache(tmp_path: Path) -> None:
    seen: list[dict[str, float]] = []

    def start(attempt: int) -> float:
        folder = tmp_path / str(attempt)
        folder.mkdir()
        seen.append(_first_answers(folder))
        return max(seen[-1].values())

    assert _best_of_three(start) < FIRST_ANSWER_S, seen


def test_analyzer_answers_within_3_s_of_import_with_an_empty_cache(tmp_path: Path) -> None:
    program = (
        "import sys, time\n"
        "started = time.perf_counter()\n"
        "from tahqiq.analysis import Analyzer\n"
        "answer = Analyzer(cache_dir=sys.argv[1]).ner(sys.argv[2])\n"
        "print(time.perf_counter() - started, len(answer['entities']))\n"
    )
    text = FIRST_REQUESTS["/ner"]["text"]

    def start(attempt: int) -> float:
        cache = tmp_path / str(attempt)
        argv = [sys.executable, "-c", program, str(cache), text]
        seconds, entities = subprocess.run(argv, capture_output=True, text=True, check=True).stdout.split()
        assert int(entities) >= 1
        assert _compiled_files(cache) == []
        return float(seconds)

    assert _best_of_three(start) < FIRST_ANSWER_S
