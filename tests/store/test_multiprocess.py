"""Several server processes on one PostgreSQL: rate limits, idempotency, tokens and the submission processor hold
across them. Also `tahqiq serve --workers 2` (PostgreSQL: works; SQLite: refused at start).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import pytest

from tests.support.e2e_support import (
    BASE,
    Stack,
    check_exactly_once,
    fresh_pg_database,
    identity,
    new_key,
    query,
    scalar,
    splitter_body,
    submit,
    wait_processed,
    wait_until,
)
from tests.support.server import ServerProcess, free_port, server_env

# A long window: no test straddles two windows (its counter would start again from zero).
RATE = "6/3600s"
APPLIED = re.compile(r"applied submission ([0-9a-f-]{36})")


@dataclass
class Pair:
    stack: Stack  # server A, its CLI, the app and agents
    b: ServerProcess  # server B: same environment (database, secret key), another port
    client_b: httpx.Client

    @property
    def clients(self) -> tuple[httpx.Client, httpx.Client]:
        return self.stack.client, self.client_b

    def splitter(self) -> tuple[str, str]:
        agent = self.stack.create_agent("claim_splitter")
        return agent["agent_id"], str(self.stack.mint(agent["api_key"])["token"])


@pytest.fixture(scope="module")
def pair(pg_server_url: str) -> Iterator[Pair]:
    with fresh_pg_database(pg_server_url) as url, Stack(url, TAHQIQ_SUBMISSION_RATE=RATE) as stack:
        b = ServerProcess(stack.env).start()  # after A: A created the signing key, B loads it
        try:
            with httpx.Client(base_url=b.url, timeout=30) as client_b:
                yield Pair(stack, b, client_b)
        finally:
            b.stop()


def test_rate_limit_counts_across_both_processes(pair: Pair) -> None:
    agent_id, token = pair.splitter()
    remaining = []
    for i in range(6):
        r = submit(pair.clients[i % 2], "claim_splitter", token, splitter_body(1, f"rate {i}"))
        assert r.status_code == 202, r.text
        assert r.headers["X-RateLimit-Limit"] == "6"
        remaining.append(int(r.headers["X-RateLimit-Remaining"]))
    assert remaining == [5, 4, 3, 2, 1, 0]
    for client in pair.clients:
        r = submit(client, "claim_splitter", token, splitter_body(1, "over"))
        assert r.status_code == 429, r.text
        assert r.json()["error_code"] == "RATE_LIMITED"
        assert r.headers["X-RateLimit-Limit"] == "6"
        assert r.headers["X-RateLimit-Remaining"] == "0"
        assert int(r.headers["Retry-After"]) >= 1
    assert scalar(pair.stack.url, "SELECT count(*) FROM submissions WHERE agent_id = ?", agent_id) == 6
    # Another agent has its own counter.
    _, other = pair.splitter()
    r = submit(pair.client_b, "claim_splitter", other, splitter_body(1, "other"))
    assert r.status_code == 202 and r.headers["X-RateLimit-Remaining"] == "5"


def test_idempotency_holds_across_both_processes(pair: Pair) -> None:
    agent_id, token = pair.splitter()
    key = new_key()
    body = orjson.dumps(splitter_body(3, "idem across"))
    headers = {**identity(token), "Idempotency-Key": key, "Content-Type": "application/json"}
    urls = [pair.stack.server.url, pair.b.url]

    async def burst() -> list[httpx.Response]:
        async with httpx.AsyncClient(timeout=30) as client:
            return await asyncio.gather(
                *(
                    client.post(f"{urls[i % 2]}{BASE}/submissions/claim_splitter", content=body, headers=headers)
                    for i in range(20)
                )
            )

    answers = asyncio.run(burst())
    assert {r.status_code for r in answers} <= {202, 409}, [(r.status_code, r.text) for r in answers]
    accepted = [r for r in answers if r.status_code == 202]
    assert len([r for r in accepted if "Idempotent-Replayed" not in r.headers]) == 1
    assert len({r.content for r in accepted}) == 1
    assert all(r.headers["Retry-After"] == "1" for r in answers if r.status_code == 409)
    assert scalar(pair.stack.url, "SELECT count(*) FROM submissions WHERE agent_id = ?", agent_id) == 1
    sid = accepted[0].json()["submission_id"]
    for client in pair.clients:  # settled: both replay the same answer
        r = client.post(f"{BASE}/submissions/claim_splitter", content=body, headers=headers)
        assert r.status_code == 202 and r.headers["Idempotent-Replayed"] == "true"
        assert r.json()["submission_id"] == sid


def test_a_token_minted_by_one_verifies_on_the_other(pair: Pair) -> None:
    stack = pair.stack
    for minter, checker in (pair.clients, pair.clients[::-1]):
        minted = stack.mint(stack.agents["judge"]["api_key"], client=minter)
        ok = stack.verify(minted["token"], client=checker)
        assert ok["success"] is True and ok["agent"]["agent_id"] == stack.agents["judge"]["agent_id"]
        r = checker.get(f"{BASE}/claims/ready_for_verdict", headers=identity(minted["token"]))
        assert r.status_code == 200, r.text
        # A revocation through the shared store reaches both processes.
        stack.cli("tokens", "revoke", minted["jti"])
        for client in pair.clients:
            r = client.get(f"{BASE}/claims/ready_for_verdict", headers=identity(minted["token"]))
            assert r.status_code == 401, r.text
            assert stack.verify(minted["token"], client=client)["error_code"] == "AUTH_INVALID"


def applied_ids(*servers: ServerProcess) -> list[str]:
    return [m for s in servers for m in APPLIED.findall(s.log())]


def logged_applied_ids(expected: dict[str, int], *servers: ServerProcess) -> list[str]:
    """The servers' "applied" log lines, once every expected one is there: a processor logs just after its commit,
    so the store can show a submission processed a moment before the line reaches the log."""
    wait_until(lambda: set(expected) <= set(applied_ids(*servers)), timeout=10, what="every applied line logged")
    return applied_ids(*servers)


def send_many(clients: list[httpx.Client], tokens: list[str], per_agent: int) -> dict[str, int]:
    """`per_agent` submissions from each token, alternating servers, in parallel; submission_id -> items."""
    jobs = [(t, i) for t in tokens for i in range(per_agent)]

    def one(job: tuple[int, tuple[str, int]]) -> tuple[str, int]:
        n, (token, _) = job
        items = 1 + (n % 5)
        r = submit(clients[n % len(clients)], "claim_splitter", token, splitter_body(items, f"many {n}"))
        assert r.status_code == 202, r.text
        return r.json()["submission_id"], items

    with ThreadPoolExecutor(max_workers=8) as pool:
        return dict(pool.map(one, enumerate(jobs)))


def test_the_processors_apply_each_submission_exactly_once(pair: Pair) -> None:
    tokens = [pair.splitter()[1] for _ in range(4)]
    expected = send_many(list(pair.clients), tokens, 6)
    assert len(expected) == 24
    check_exactly_once(pair.stack.url, expected)
    taken = logged_applied_ids(expected, pair.stack.server, pair.b)
    assert len(taken) == len(set(taken)), "a submission was applied twice"
    assert set(expected) <= set(taken)
    # Each server wakes its own processor on accept: both took a share of the queue.
    assert applied_ids(pair.stack.server) and applied_ids(pair.b)


def test_a_restart_under_load_loses_no_accepted_submission(pair: Pair) -> None:
    """SIGTERM to server A while agents submit to both servers: A finishes the requests it holds and stops, B
    takes the agents' next requests (a request that failed on A is sent again to B with the same Idempotency-Key),
    and A starts again. Every submission answered 202 is stored and applied exactly once, by one of the two."""
    tokens = [pair.splitter()[1] for _ in range(8)]  # 6 submissions each (RATE): 48 at most
    accepted: dict[str, int] = {}
    lock = threading.Lock()
    stopping = threading.Event()

    def agent(n: int, token: str) -> None:
        for i in range(6):
            if stopping.is_set():
                return
            items, key = 1 + (n + i) % 3, new_key()
            body = splitter_body(items, f"restart {n} {i}")
            for attempt in range(20):
                client = pair.clients[(n + i + attempt) % 2]  # the other server after a failure
                try:
                    r = submit(client, "claim_splitter", token, body, key=key)
                except httpx.TransportError:  # A stopped before or while answering
                    continue
                if r.status_code == 202:
                    with lock:
                        accepted[r.json()["submission_id"]] = items
                        answered.append((client is pair.clients[0], time.monotonic()))
                    break
                assert r.status_code in (409, 503), r.text  # a request still in flight on the other server
            time.sleep(0.2)  # the agents' work spans the restart

    answered: list[tuple[bool, float]] = []  # (answered by A, when)
    threads = [threading.Thread(target=agent, args=(n, t)) for n, t in enumerate(tokens)]
    for thread in threads:
        thread.start()
    time.sleep(0.4)
    a = pair.stack.server
    assert a.proc is not None
    terminated = time.monotonic()
    os.killpg(a.proc.pid, signal.SIGTERM)
    assert a.proc.wait(timeout=40) == 0, a.log()[-3000:]  # drained and stopped cleanly
    stopped = time.monotonic()
    time.sleep(0.3)  # B alone
    a.start()
    for thread in threads:
        thread.join(timeout=60)
    stopping.set()
    assert len(accepted) == 48, len(accepted)
    assert any(by_a and at < terminated for by_a, at in answered), "A took no submission before its stop"
    assert any(not by_a and terminated < at < stopped + 0.3 for by_a, at in answered), "B took none meanwhile"
    check_exactly_once(pair.stack.url, accepted)
    taken = logged_applied_ids(accepted, a, pair.b)
    assert len(taken) == len(set(taken)), "a submission was applied twice"
    assert "Traceback" not in a.log() + pair.b.log()


def test_serve_with_two_workers_on_postgresql(pg_server_url: str) -> None:
    with fresh_pg_database(pg_server_url) as url:
        stack = Stack(url, TAHQIQ_SUBMISSION_RATE=RATE)
        stack.server = ServerProcess(stack.env, workers=2)
        stack.client = httpx.Client(base_url=stack.server.url, timeout=30)
        with stack:
            assert stack.server.proc is not None
            workers = worker_pids(stack.server.proc.pid)
            assert len(workers) == 2, workers
            tokens = [str(stack.mint(stack.create_agent("claim_splitter")["api_key"])["token"]) for _ in range(3)]
            expected = send_many([stack.client], tokens, 6)
            check_exactly_once(url, expected)
            taken = logged_applied_ids(expected, stack.server)
            assert len(taken) == len(set(taken)), "a submission was applied twice"
            assert set(expected) <= set(taken)
            # Each worker opened its own store (its pool is connected to PostgreSQL): the processor starts with it.
            port = str(urlsplit(url).port or 5432)
            for pid in workers:
                assert pid in pids_connected_to(port), (pid, workers)


def worker_pids(main_pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(main_pid)], capture_output=True, text=True, check=False).stdout
    return [int(p) for p in out.split()]


def pids_connected_to(port: str) -> set[int]:
    out = subprocess.run(
        ["ss", "-tnpH", "state", "established", "dst", f"127.0.0.1:{port}"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return {int(p) for p in re.findall(r"pid=(\d+)", out)}


def test_serve_with_two_workers_on_sqlite_is_refused(tmp_path: Any) -> None:
    env = server_env(f"sqlite:///{tmp_path / 'tahqiq.db'}")
    done = subprocess.run(
        [sys.executable, "-m", "tahqiq", "serve", "--port", str(free_port()), "--workers", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "TAHQIQ_WORKERS" in done.stderr and "postgresql://" in done.stderr, done.stderr
    assert not (tmp_path / "tahqiq.db").exists()


RACE_ROUNDS = 20
RACE_CLAIMS = 10  # per round


def test_evidence_and_critique_at_both_processes_make_every_claim_ready(pair: Pair) -> None:
    """In each round a seeker's submission reaches server A and a critic's server B at the same moment, naming the
    same fresh claims, so both processors apply them at about the same time: each batch locks its claims before
    reading them, so whichever commits second sees the other's artifacts and every claim ends ready_for_verdict
    (the store-level race, made deterministic, is in test_store.py)."""
    stack = pair.stack
    _, splitter = pair.splitter()
    r = submit(pair.clients[0], "claim_splitter", splitter, splitter_body(RACE_ROUNDS * RACE_CLAIMS, "race"))
    assert r.status_code == 202, r.text
    (split,) = wait_processed(pair.clients[0], splitter, [r.json()["submission_id"]]).values()
    assert split["status"] == "processed", split
    sql = "SELECT claim_id FROM artifacts WHERE submission_id = ? ORDER BY claim_id"
    claim_ids = [int(c) for (c,) in query(stack.url, sql, split["submission_id"])]
    tokens = {
        role: [str(stack.mint(stack.create_agent(role)["api_key"])["token"]) for _ in range(RACE_ROUNDS)]
        for role in ("evidence_seeker", "methodology_critic")
    }
    barrier = threading.Barrier(2)

    def send(client: httpx.Client, role: str, token: str, claims: list[int]) -> str:
        barrier.wait()
        answer = submit(client, role, token, {"work_type": role, "results": [{"claim_id": c} for c in claims]})
        assert answer.status_code == 202, answer.text
        wait_processed(client, token, [answer.json()["submission_id"]])
        return str(answer.json()["submission_id"])

    with ThreadPoolExecutor(max_workers=2) as pool:
        for n in range(RACE_ROUNDS):
            claims = claim_ids[n * RACE_CLAIMS : (n + 1) * RACE_CLAIMS]
            seeker = pool.submit(send, pair.clients[0], "evidence_seeker", tokens["evidence_seeker"][n], claims)
            critic = pool.submit(send, pair.clients[1], "methodology_critic", tokens["methodology_critic"][n], claims)
            seeker.result(), critic.result()
    statuses = query(stack.url, "SELECT claim_id, status FROM claims WHERE claim_id = ANY(?)", claim_ids)
    stuck = sorted(c for c, status in statuses if status != "ready_for_verdict")
    assert not stuck, f"{len(stuck)} of {len(claim_ids)} claims stayed pending_evidence: {stuck}"
