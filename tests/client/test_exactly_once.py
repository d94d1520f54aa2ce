"""Exactly-once through faults: 500 submissions by the client library through a real TCP proxy that drops answers
after the server has given them, holds answers past the client's time-out, and answers 503 itself, in front of a
real `tahqiq serve` process, on SQLite and on PostgreSQL. Every submission is stored once: none lost, none doubled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from tahqiq.client import AgentClient, AsyncAgentClient, Submission

from tests.support.e2e_support import STORES, Stack, check_exactly_once, scalar, store_url
from tests.support.fault_proxy import FaultProxy

SUBMISSIONS = 500
CONCURRENCY = 16
# the client's patience: each send 0.5 s (the proxy holds answers 1 s), up to 12 sends within 60 s
CLIENT = {"timeout": 0.5, "max_attempts": 12, "deadline": 60.0}


@pytest.fixture(params=STORES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    pg = request.getfixturevalue("pg_server_url") if request.param == "postgres" else None
    with store_url(request.param, tmp_path, pg) as url:
        yield url


def send_in_loop(url: str, key: str) -> list[Submission]:
    async def go() -> list[Submission]:
        gate = asyncio.Semaphore(CONCURRENCY)
        async with AsyncAgentClient(url, key, **CLIENT) as client:

            async def one(n: int) -> Submission:
                async with gate:
                    return await client.submit("split", [{"text": f"claim {n}"}], metadata={"n": n})

            return await asyncio.gather(*(one(n) for n in range(SUBMISSIONS)))

    return asyncio.run(go())


def send_from_threads(url: str, key: str) -> list[Submission]:
    with AgentClient(url, key, **CLIENT) as client, ThreadPoolExecutor(CONCURRENCY) as pool:
        work = [
            pool.submit(client.submit, "split", [{"text": f"claim {n}"}], metadata={"n": n}) for n in range(SUBMISSIONS)
        ]
        return [w.result() for w in work]


@pytest.mark.parametrize("send", [send_in_loop, send_from_threads], ids=["asyncio", "threads"])
def test_500_submissions_through_faults_are_stored_exactly_once(database: str, send: object) -> None:
    assert callable(send)
    with Stack(database, TAHQIQ_SUBMISSION_RATE="100000/60s") as stack:
        port = int(stack.server.url.rsplit(":", 1)[1])
        with FaultProxy(port, weights=(0.7, 0.1, 0.1, 0.1), delay_s=1.0, seed=SUBMISSIONS) as proxy:
            results: list[Submission] = send(proxy.url, stack.agents["claim_splitter"]["api_key"])
        agent_id = stack.agents["claim_splitter"]["agent_id"]
        ids = {r.submission_id for r in results}
        assert len(results) == SUBMISSIONS and len(ids) == SUBMISSIONS  # each call answered, each its own id
        assert scalar(database, "SELECT count(*) FROM submissions WHERE agent_id = ?", agent_id) == SUBMISSIONS
        assert scalar(database, "SELECT count(*) FROM idempotency_keys") == SUBMISSIONS
        check_exactly_once(database, dict.fromkeys(ids, 1))  # processed once each: one claim, one artifact
        # the faults were dealt, and the client met their consequences
        assert min(proxy.counts[fate] for fate in ("drop", "delay", "refuse")) >= 20, proxy.counts
        assert sum(r.replayed for r in results) >= 20  # a retry after a lost answer is a replay, not new work
    print(
        f"\nexactly once: {SUBMISSIONS} stored of {SUBMISSIONS}; faults {dict(proxy.counts)}; "
        f"replayed answers {sum(r.replayed for r in results)}"
    )
