"""Shutdown drains: on SIGTERM the requests being handled finish before the store and the upstream client close,
the wait is bounded by TAHQIQ_SHUTDOWN_WAIT_S, and the submission processor stops between two submissions.

The server (granian) itself waits for open connections before the app's shutdown; what the app must wait for is a
request whose client has gone away, which keeps running with nobody connected. Its outcome is read from the
access log.
"""

from __future__ import annotations

import asyncio
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tahqiq.access.processor import Processor
from tahqiq.store import Accepted, NewSubmission, ProcessingTx, RateLimit, Store, Submission
from tahqiq.store.protocol import Applied, SubmissionHandler
from tahqiq.store.sqlite import SqliteStore
from tahqiq.web.inflight import InFlight

from tests.support.fake_upstream import Answer, FakeUpstream
from tests.support.server import ServerProcess
from tests.support.summarize_support import ENGLISH, GATEWAY_MODEL, PATH, post, summarize_server

ACCESS_LINE = f'"POST {PATH} HTTP/1.1"'


@pytest.fixture
def gateway() -> Iterator[FakeUpstream]:
    fake = FakeUpstream()
    yield fake
    fake.close()


def gateway_settings(gateway: FakeUpstream, **extra: str) -> dict[str, str]:
    return {
        "TAHQIQ_GATEWAY_URL": gateway.url,
        "TAHQIQ_GATEWAY_MODEL": GATEWAY_MODEL,
        "TAHQIQ_UPSTREAM_TIMEOUT_S": "120",
        **extra,
    }


def wait_for(condition: Any, what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def abandon(server: ServerProcess) -> None:
    """Sends a summary request and gives up on it at once: the server keeps handling it with nobody connected."""
    with pytest.raises(httpx.TimeoutException):
        httpx.post(server.url + PATH, json={"text": ENGLISH}, timeout=0.3)


def terminate(server: ServerProcess) -> float:
    """SIGTERM to the server; the seconds it took to exit (it must exit with 0)."""
    assert server.proc is not None
    started = time.monotonic()
    server.kill(signal.SIGTERM)
    assert server.proc.returncode == 0, server.log()
    return time.monotonic() - started


def statuses(server: ServerProcess) -> list[int]:
    """The statuses of the summary requests in the access log, in the order they ended."""
    return [int(line.split(ACCESS_LINE)[1].split()[0]) for line in server.log().splitlines() if ACCESS_LINE in line]


def test_sigterm_lets_requests_in_flight_finish(tmp_path: Path, gateway: FakeUpstream) -> None:
    # The abandoned request is the slower one: it is still running when the connected one has been answered
    # and the server has moved on to the app's shutdown.
    gateway.script(Answer(delay_s=2.0), Answer(delay_s=0.5))
    with summarize_server(tmp_path, **gateway_settings(gateway)) as server:
        abandon(server)
        answers: list[httpx.Response] = []
        connected = threading.Thread(target=lambda: answers.append(post(server, {"text": ENGLISH})))
        connected.start()
        wait_for(lambda: len(gateway.requests) == 2, "both requests to reach the upstream")
        took = terminate(server)
        connected.join(timeout=10)
        log = server.log()
    assert [r.status_code for r in answers] == [200], [r.text for r in answers]
    assert answers[0].headers["x-ai-strategy"] == "gateway"
    # Without the drain, the abandoned request found the upstream client closed under it: 503.
    assert statuses(server) == [200, 200], log
    assert "failed" not in log and "still being handled" not in log
    assert took >= 1.0  # it waited for the abandoned request (2 s, begun before the SIGTERM)


def test_the_wait_for_an_abandoned_request_is_bounded(tmp_path: Path, gateway: FakeUpstream) -> None:
    gateway.script(Answer(delay_s=60))  # hangs far longer than the wait
    with summarize_server(tmp_path, **gateway_settings(gateway, TAHQIQ_SHUTDOWN_WAIT_S="1")) as server:
        abandon(server)
        wait_for(lambda: len(gateway.requests) == 1, "the request to reach the upstream")
        took = terminate(server)
        log = server.log()
    assert 1.0 <= took < 5.0, log
    assert "stopping with 1 request(s) still being handled after waiting 1 s" in log
    assert statuses(server) == [503], log  # it ended when the upstream client closed, before the process did


def test_the_wait_for_a_connected_request_is_bounded(tmp_path: Path, gateway: FakeUpstream) -> None:
    """The server waits for open connections before the app's own wait: the worker is killed once the wait
    and the time to close (5 s) are over."""
    gateway.script(Answer(delay_s=60))
    with summarize_server(tmp_path, **gateway_settings(gateway, TAHQIQ_SHUTDOWN_WAIT_S="1")) as server:
        failures: list[Exception] = []

        def connected() -> None:
            try:
                post(server, {"text": ENGLISH})
            except httpx.HTTPError as exc:
                failures.append(exc)

        thread = threading.Thread(target=connected)
        thread.start()
        wait_for(lambda: len(gateway.requests) == 1, "the request to reach the upstream")
        took = terminate(server)
        thread.join(timeout=10)
        log = server.log()
    assert 6.0 <= took < 12.0, log
    assert "Killing worker-1" in log
    assert len(failures) == 1 and not isinstance(failures[0], httpx.TimeoutException), failures


async def test_in_flight_counts_and_waits_up_to_the_bound() -> None:
    in_flight = InFlight()
    assert await in_flight.idle(0) == 0
    released = asyncio.Event()

    async def request() -> None:
        with in_flight:
            await released.wait()

    tasks = [asyncio.create_task(request()) for _ in range(3)]
    await asyncio.sleep(0)
    assert in_flight.count == 3
    started = time.monotonic()
    assert await in_flight.idle(0.2) == 3
    assert time.monotonic() - started >= 0.2
    asyncio.get_running_loop().call_later(0.05, released.set)
    assert await in_flight.idle(5) == 0
    await asyncio.gather(*tasks)

    failing = asyncio.create_task(_fails_inside(in_flight))
    with pytest.raises(RuntimeError):
        await failing
    assert in_flight.count == 0  # an exception ends the request too


async def _fails_inside(in_flight: InFlight) -> None:
    with in_flight:
        await asyncio.sleep(0)
        raise RuntimeError("boom")


# The submission processor ----------------------------------------------------------------------------------


class GatedStore:
    """The real store, except that applying a submission waits at `gate` (a slow submission)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.gate = asyncio.Event()
        self.applying = asyncio.Event()

    async def process_batch(self, handler: SubmissionHandler, now: float, limit: int) -> list[Submission]:
        async def slow(tx: ProcessingTx, submission: Submission) -> Applied:
            self.applying.set()
            await self.gate.wait()
            return await handler(tx, submission)

        return await self.store.process_batch(slow, now, limit)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


async def queued_store(tmp_path: Path) -> tuple[SqliteStore, str]:
    """A store holding one accepted claim_splitter submission; its id."""
    store = SqliteStore(str(tmp_path / "tahqiq.db"))
    await store.open()
    await store.migrate()
    now = time.time()
    agent_id = str(uuid.uuid4())
    await store.create_agent(agent_id, "agent", "claim_splitter", uuid.uuid4().hex * 2, "svc_agent_ab", now)
    submission_id = str(uuid.uuid4())
    payload = {"work_type": "split", "results": [{"text": "the earth goes round the sun"}]}
    new = NewSubmission(submission_id, agent_id, "claim_splitter", "split", payload, 202, b"{}")
    assert isinstance(await store.accept_submission(new, str(uuid.uuid4()), "fp", RateLimit(10, 60), now), Accepted)
    return store, submission_id


async def status_of(store: Store, submission_id: str) -> str:
    submission = await store.get_submission(submission_id)
    assert submission is not None
    return submission.status


async def test_processor_stops_after_the_submission_it_is_applying(tmp_path: Path) -> None:
    store, submission_id = await queued_store(tmp_path)
    gated = GatedStore(store)
    processor = Processor(gated, 0.05, 86_400)  # type: ignore[arg-type]
    processor.start()
    await asyncio.wait_for(gated.applying.wait(), 5)
    asyncio.get_running_loop().call_later(0.2, gated.gate.set)
    await processor.stop(wait_s=5)
    # Cancelled, it would have rolled back and left the submission queued.
    assert await status_of(store, submission_id) == "processed"
    await store.close()


async def test_processor_stop_is_bounded(tmp_path: Path) -> None:
    store, submission_id = await queued_store(tmp_path)
    gated = GatedStore(store)
    processor = Processor(gated, 0.05, 86_400)  # type: ignore[arg-type]
    processor.start()
    await asyncio.wait_for(gated.applying.wait(), 5)
    started = time.monotonic()
    await processor.stop(wait_s=0.3)  # the gate never opens
    assert 0.3 <= time.monotonic() - started < 2
    assert await status_of(store, submission_id) == "accepted"  # rolled back: still queued for the next start
    await store.close()

    reopened = SqliteStore(str(tmp_path / "tahqiq.db"))
    await reopened.open()
    assert await Processor(reopened, 0.05, 86_400).drain() == 1
    assert await status_of(reopened, submission_id) == "processed"
    await reopened.close()
