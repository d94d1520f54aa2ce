"""Analysis off the event loop: the bounded pool, 503 while the language data loads or when the queue is full, and
/health answering while a long text is analysed on a real server."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from blacksheep import Application
from blacksheep.testing import TestClient
from tahqiq.analysis.service import AnalysisService
from tahqiq.config import Settings
from tahqiq.web.app import create_app
from tahqiq.workpool import PoolFull, WorkPool

from tests.support.server import CACHE_DIR, ServerProcess, analysis_server

GOLD = Path(__file__).resolve().parents[1] / "gold"
SENTENCE = "استقبل الرئيس المصري عبد الفتاح السيسي في القاهرة رئيس الوزراء الهندي ناريندرا مودي."


# The pool ----------------------------------------------------------------------------------------------------------


async def test_pool_runs_calls_off_the_event_loop() -> None:
    pool = WorkPool(ThreadPoolExecutor(2), 2, 0)
    try:
        assert await pool.run(threading.get_ident) != threading.get_ident()
    finally:
        pool.shutdown()


async def test_pool_refuses_beyond_threads_and_queue_and_counts_a_call_until_it_ends() -> None:
    pool = WorkPool(ThreadPoolExecutor(1), 1, 1)
    release = threading.Event()
    try:
        running = asyncio.ensure_future(pool.run(lambda: release.wait(5)))
        waiting = asyncio.ensure_future(pool.run(lambda: "second"))
        await asyncio.sleep(0.05)
        with pytest.raises(PoolFull):
            await pool.run(lambda: "third")
        # a caller that stops waiting (a client gone) frees no place while its thread is still busy
        running.cancel()
        await asyncio.sleep(0.05)
        assert pool.taken == 2
        with pytest.raises(PoolFull):
            await pool.run(lambda: "third")
        release.set()
        assert await waiting == "second"
        for _ in range(100):
            if pool.taken == 0:
                break
            await asyncio.sleep(0.01)
        assert pool.taken == 0
        assert await pool.run(lambda: "again") == "again"
    finally:
        release.set()
        pool.shutdown()


# The app, in process -------------------------------------------------------------------------------------------------


def settings(**overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": "sqlite:///:memory:",
        "secret_key": bytes(32),
        "areas": ("analysis",),
        "cache_dir": str(CACHE_DIR),
        "analysis_processes": 0,  # in this process, where the test patches the service
    }
    return Settings(**(values | overrides))


@pytest.fixture
def loading(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The language data loads only once the test sets the event (or fails when the test says so)."""
    loaded = threading.Event()
    prepare = AnalysisService.prepare

    def slow_prepare(self: AnalysisService) -> None:
        if not loaded.wait(30):
            raise RuntimeError("the test never let the data load")
        if getattr(loaded, "fail", False):
            raise RuntimeError("broken language data")
        prepare(self)

    monkeypatch.setattr(AnalysisService, "prepare", slow_prepare)
    yield loaded
    loaded.set()


@pytest.fixture
async def client(loading: threading.Event) -> AsyncIterator[TestClient]:
    app: Application = create_app(settings())
    await app.start()
    try:
        yield TestClient(app)
    finally:
        loading.set()
        await app.stop()


async def wait_status(client: TestClient, status: str) -> dict[str, Any]:
    for _ in range(600):
        health = await (await client.get("/health")).json()
        if health["analysis"]["status"] == status:
            return dict(health)
        await asyncio.sleep(0.05)
    raise AssertionError(f"the analysis never became {status}")


async def test_analysis_routes_answer_503_while_the_data_loads_then_200(
    client: TestClient, loading: threading.Event
) -> None:
    health = await (await client.get("/health")).json()
    assert health["analysis"]["status"] == "loading"
    for path in ("/ner", "/wsd", "/morph", "/re", "/dialect/corpus/glossary", "/dialect/corpus"):
        response = await client.get(path, query={"text": SENTENCE})
        assert response.status == 503, path
        assert response.headers.get_first(b"retry-after") == b"5"
        problem = await response.json()
        assert problem["type"].endswith("/problems/service-unavailable")
        assert "loading" in problem["detail"]
    # the rest of the service answers meanwhile
    assert (await client.get("/problems/not-found")).status == 200
    loading.set()
    await wait_status(client, "ready")
    answer = await client.get("/ner", query={"text": SENTENCE})
    assert answer.status == 200
    assert any(e["type"] == "PERS" for e in (await answer.json())["entities"])


async def test_data_that_fails_to_load_gives_503_and_health_says_failed(
    client: TestClient, loading: threading.Event
) -> None:
    loading.fail = True  # type: ignore[attr-defined]
    loading.set()
    await wait_status(client, "failed")
    response = await client.get("/re", query={"text": SENTENCE})
    assert response.status == 503
    assert "failed to load" in (await response.json())["detail"]


async def test_a_full_analysis_queue_answers_503_with_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    started = threading.Event()

    def slow_ner(self: AnalysisService, params: Any) -> dict[str, Any]:
        started.set()
        release.wait(10)
        return {"entities": []}

    monkeypatch.setattr(AnalysisService, "ner", slow_ner)
    app = create_app(settings(analysis_queue=1))
    await app.start()
    try:
        client = TestClient(app)
        await wait_status(client, "ready")
        first = asyncio.ensure_future(client.get("/ner", query={"text": "نص"}))
        assert await asyncio.to_thread(started.wait, 5)
        second = asyncio.ensure_future(client.get("/ner", query={"text": "نص"}))
        await asyncio.sleep(0.05)
        refused = await client.get("/ner", query={"text": "نص"})
        assert refused.status == 503
        assert refused.headers.get_first(b"retry-after") == b"1"
        assert "queue is full" in (await refused.json())["detail"]
        # the event loop still serves everything else meanwhile
        assert (await client.get("/health")).status == 200
        release.set()
        assert (await first).status == 200 and (await second).status == 200
    finally:
        release.set()
        await app.stop()


# A real server ------------------------------------------------------------------------------------------------------


def news_text(limit: int) -> str:
    lines = (GOLD / "relations_dev_news.jsonl").read_text(encoding="utf-8").splitlines()
    return " ".join(json.loads(line)["text"] for line in lines)[:limit]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with analysis_server(tmp_path_factory.mktemp("pool"), TAHQIQ_LOG_LEVEL="info") as proc:
        yield proc


def test_health_answers_within_100_ms_while_long_relation_extractions_run(server: ServerProcess) -> None:
    text = news_text(10_000)

    def extract() -> tuple[float, float, int]:
        started = time.monotonic()
        response = httpx.post(server.url + "/re", json={"text": text}, timeout=60)
        return started, time.monotonic(), response.status_code

    with httpx.Client(base_url=server.url) as probe, ThreadPoolExecutor(4) as clients:
        probe.get("/health")  # the connection is open before the load starts
        extractions = [clients.submit(extract) for _ in range(4)]
        time.sleep(0.1)
        probes: list[tuple[float, float]] = []
        while not all(e.done() for e in extractions) and len(probes) < 50:
            sent = time.monotonic()
            assert probe.get("/health").status_code == 200
            probes.append((sent, time.monotonic()))
            time.sleep(0.02)
        results = [e.result() for e in extractions]
    assert all(status == 200 for _, _, status in results)
    # the probes that ran while an extraction was under way: there are some, and each answered within 100 ms
    busy_until = max(end for _, end, _ in results)
    during = [(s, e) for s, e in probes if e < busy_until]
    assert len(during) >= 3, f"only {len(during)} probes overlapped the extractions ({results})"
    slowest = max(e - s for s, e in during)
    assert slowest < 0.1, f"/health took {slowest * 1000:.0f} ms while /re ran"


def test_the_server_logs_the_start_and_the_end_of_the_data_load(server: ServerProcess) -> None:
    log = server.log()
    assert "loading the language data" in log
    assert "the language data is loaded" in log


def analysis_workers(server: ServerProcess) -> list[int]:
    """The analysis worker processes of the server (the spawned children of its worker process)."""
    assert server.proc is not None
    listing = subprocess.run(
        ["ps", "-ww", "-o", "pid=,args=", "-g", str(server.proc.pid)], capture_output=True, text=True, check=True
    ).stdout
    return [int(line.split()[0]) for line in listing.splitlines() if "spawn_main" in line]


def test_a_worker_process_that_dies_is_replaced(server: ServerProcess) -> None:
    [worker] = analysis_workers(server)
    os.kill(worker, signal.SIGKILL)
    statuses = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        response = httpx.get(server.url + "/ner", params={"text": SENTENCE}, timeout=30)
        statuses.append(response.status_code)
        if response.status_code == 200:
            break
        assert response.status_code == 503, response.text
        assert response.headers["retry-after"] == "5"
        time.sleep(0.2)
    assert statuses[0] == 503 and statuses[-1] == 200, statuses
    assert analysis_workers(server) != [worker]
    assert "an analysis worker process stopped" in server.log()
