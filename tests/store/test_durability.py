"""Durability: kill -9 the server while a client is submitting, restart it on the same store.

Every submission that got a 202 is stored and, after the restart, applied exactly once. Requests that got no answer
may or may not have been stored; retried with the same Idempotency-Key, each gets a 202 (a replay when it had
been stored, else a first acceptance) and nothing is duplicated.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.e2e_support import (
    STORES,
    Stack,
    check_exactly_once,
    new_key,
    query,
    scalar,
    splitter_body,
    store_url,
    submit,
    wait_until,
)
from tests.support.server import ServerProcess

SENDERS = 3


@dataclass
class Sent:
    key: str
    body: dict[str, Any]
    status: int | None = None  # None: no answer (the server died under it)
    submission_id: str | None = None


@dataclass
class Log:
    sent: list[Sent] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answered(self) -> list[Sent]:
        with self.lock:
            return [s for s in self.sent if s.status is not None]


def sender(url: str, token: str, log: Log, stop: threading.Event, tag: str) -> None:
    """Distinct keys, several result items each, until the server stops answering (or `stop`)."""
    with httpx.Client(base_url=url, timeout=10) as client:
        n = 0
        while not stop.is_set():
            sent = Sent(new_key(), splitter_body(1 + n % 4, f"{tag}-{n}"))
            with log.lock:
                log.sent.append(sent)
            n += 1
            try:
                r = submit(client, "claim_splitter", token, sent.body, key=sent.key)
            except httpx.HTTPError:
                return  # killed: this one has no answer, and neither would the next
            assert r.status_code == 202, r.text
            sent.status, sent.submission_id = r.status_code, r.json()["submission_id"]


@pytest.fixture(params=STORES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    pg = request.getfixturevalue("pg_server_url") if request.param == "postgres" else None
    with store_url(request.param, tmp_path, pg) as url:
        yield url


def test_kill_9_mid_stream_loses_no_accepted_submission_and_applies_none_twice(database: str) -> None:
    stack = Stack(database, TAHQIQ_SUBMISSION_RATE="100000/3600s").start()
    try:
        agent_id = stack.agents["claim_splitter"]["agent_id"]
        token = stack.token("claim_splitter")  # signed with a key in the store: still good after the restart
        log, stop = Log(), threading.Event()
        threads = [
            threading.Thread(target=sender, args=(stack.server.url, token, log, stop, f"t{i}")) for i in range(SENDERS)
        ]
        for t in threads:
            t.start()
        wait_until(lambda: len(log.answered()) >= 60, timeout=30, what="60 accepted submissions")
        stack.server.kill()  # SIGKILL to the process group, mid-stream
        # No stop flag here: group commit answers a batch of senders at once, so all of them can be between two
        # requests at the kill; each must go on to its next send and find the server gone.
        for t in threads:
            t.join(timeout=30)
            assert not t.is_alive()
    finally:
        stop.set()
        stack.stop()

    answered = log.answered()
    unanswered = [s for s in log.sent if s.status is None]
    assert len(unanswered) >= 1  # each sender was cut off
    # Every 202 was durable: stored before the answer, whatever the processor had done with it when killed.
    stored = {r[0] for r in query(database, "SELECT submission_id FROM submissions WHERE agent_id = ?", agent_id)}
    assert {s.submission_id for s in answered} <= stored
    assert len(stored) <= len(answered) + len(unanswered)

    restarted = ServerProcess(stack.env).start()
    try:
        with httpx.Client(base_url=restarted.url, timeout=30) as client:
            for s in unanswered:
                r = submit(client, "claim_splitter", token, s.body, key=s.key)
                assert r.status_code == 202, r.text
                s.status, s.submission_id = 202, r.json()["submission_id"]
                if r.headers.get("Idempotent-Replayed") == "true":
                    assert s.submission_id in stored  # it had been stored before the kill
                else:
                    assert s.submission_id not in stored
            # Retrying an answered one replays it: same id, nothing new.
            r = submit(client, "claim_splitter", token, answered[0].body, key=answered[0].key)
            assert r.status_code == 202 and r.headers["Idempotent-Replayed"] == "true"
            assert r.json()["submission_id"] == answered[0].submission_id

            expected = {s.submission_id: len(s.body["results"]) for s in log.sent if s.submission_id}
            assert len(expected) == len(log.sent)  # one submission per key
            check_exactly_once(database, expected)
            assert scalar(database, "SELECT count(*) FROM submissions") == len(log.sent)
            assert scalar(database, "SELECT count(*) FROM idempotency_keys") == len(log.sent)
            # And the service says the same.
            r = client.get(
                f"/agents/access-core/submissions/{answered[-1].submission_id}",
                headers={"X-Service-Agent-Identity": token},
            )
            assert r.status_code == 200 and r.json()["data"]["status"] == "processed"
    finally:
        restarted.stop()
