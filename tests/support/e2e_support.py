"""Helpers of the end-to-end suites: stores to run a server on, agents, tokens, submissions, direct database reads.

    url = stack_database("sqlite", tmp_path_factory, pg_server_url)   # or "postgres": a fresh database of its own
    with Stack(url) as stack:                                          # a real `tahqiq serve` and its CLI
        token = stack.token("judge")
        stack.submit("judge", token, {...})

Everything here goes through real HTTP (httpx) and the real CLI; the database is read directly (sqlite3, asyncpg)
only to check what was stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from tests.support.server import FIRST_PARTY_APP_ID, ServerProcess, server_env

ROLES = ("claim_splitter", "evidence_seeker", "methodology_critic", "judge")
BASE = "/agents/access-core"
STORES = ("sqlite", "postgres")


# Databases ------------------------------------------------------------------------------------------------


async def _admin(url: str, statement: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url, timeout=10)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


@contextlib.contextmanager
def fresh_pg_database(pg_server_url: str) -> Iterator[str]:
    """An empty PostgreSQL database of its own (the server migrates it at start-up), dropped afterwards."""
    name = f"tahqiq_e2e_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(pg_server_url, f'CREATE DATABASE "{name}" TEMPLATE template0'))
    try:
        yield _with_database(pg_server_url, name)
    finally:
        asyncio.run(_admin(pg_server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@contextlib.contextmanager
def store_url(kind: str, directory: Path, pg_server_url: str | None) -> Iterator[str]:
    """A database URL for `kind` ("sqlite": a file in `directory`; "postgres": a fresh database)."""
    if kind == "sqlite":
        yield f"sqlite:///{directory / 'tahqiq.db'}"
    else:
        assert pg_server_url is not None
        with fresh_pg_database(pg_server_url) as url:
            yield url


def query(url: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Rows of `sql` (placeholders `?`) read directly from the database behind `url`."""
    if url.startswith("sqlite:///"):
        conn = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=30)
        try:
            return [tuple(r) for r in conn.execute(sql, params).fetchall()]
        finally:
            conn.close()
    parts = sql.split("?")
    pg_sql = parts[0] + "".join(f"${i}{p}" for i, p in enumerate(parts[1:], start=1))

    async def run() -> list[tuple[Any, ...]]:
        import asyncpg

        conn = await asyncpg.connect(url, timeout=10)
        try:
            return [tuple(r) for r in await conn.fetch(pg_sql, *params)]
        finally:
            await conn.close()

    return asyncio.run(run())


def scalar(url: str, sql: str, *params: Any) -> Any:
    rows = query(url, sql, *params)
    assert len(rows) == 1, rows
    return rows[0][0]


def row(url: str, sql: str, *params: Any) -> tuple[Any, ...]:
    rows = query(url, sql, *params)
    assert len(rows) == 1, rows
    return rows[0]


def get_claim(url: str, claim_id: int) -> Any:
    """The claim as the store itself reads it (`tahqiq.store.open_store(url).get_claim`)."""
    from tahqiq.store import open_store

    async def run() -> Any:
        store = open_store(url)
        await store.open()
        try:
            return await store.get_claim(claim_id)
        finally:
            await store.close()

    return asyncio.run(run())


# Requests -------------------------------------------------------------------------------------------------


def new_key() -> str:
    return str(uuid.uuid4())


def identity(token: str) -> dict[str, str]:
    return {"X-Service-Agent-Identity": token}


def splitter_body(n: int, tag: str = "") -> dict[str, Any]:
    return {
        "work_type": "split",
        "results": [{"text": f"claim {tag} {i}: the earth is flat", "index": i} for i in range(n)],
        "metadata": {"source": "e2e", "tag": tag},
    }


def submit(
    client: httpx.Client,
    role: str,
    token: str,
    body: Any,
    key: str | None = None,
    raw: bytes | None = None,
) -> httpx.Response:
    headers = {**identity(token), "Idempotency-Key": key or new_key(), "Content-Type": "application/json"}
    if raw is not None:
        return client.post(f"{BASE}/submissions/{role}", content=raw, headers=headers)
    return client.post(f"{BASE}/submissions/{role}", json=body, headers=headers)


def wait_processed(
    client: httpx.Client, token: str, submission_ids: list[str], timeout: float = 20.0
) -> dict[str, dict[str, Any]]:
    """Polls `GET /submissions/{id}` until none is `accepted` any more; returns the final `data` of each."""
    deadline = time.monotonic() + timeout
    done: dict[str, dict[str, Any]] = {}
    while True:
        for sid in submission_ids:
            if sid in done:
                continue
            r = client.get(f"{BASE}/submissions/{sid}", headers=identity(token))
            assert r.status_code == 200, r.text
            data = r.json()["data"]
            assert data["submission_id"] == sid
            if data["status"] != "accepted":
                done[sid] = data
        if len(done) == len(submission_ids):
            return done
        if time.monotonic() > deadline:
            raise AssertionError(f"not processed within {timeout} s: {sorted(set(submission_ids) - set(done))}")
        time.sleep(0.05)


def wait_until(predicate: Any, timeout: float = 20.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached within {timeout} s")
        time.sleep(0.05)


def check_exactly_once(url: str, expected: dict[str, int]) -> None:
    """Waits for an empty queue; then every expected submission (all claim_splitter work) is processed with one
    artifact per result item on as many distinct claims, and the store holds one claim and one artifact per result
    item of all its submissions: nothing applied twice, nothing half applied."""
    wait_until(
        lambda: scalar(url, "SELECT count(*) FROM submissions WHERE status = 'accepted'") == 0,
        timeout=30,
        what="an empty submission queue",
    )
    rows = query(
        url,
        "SELECT s.submission_id, s.status, s.payload, "
        "(SELECT count(*) FROM artifacts a WHERE a.submission_id = s.submission_id), "
        "(SELECT count(DISTINCT a.claim_id) FROM artifacts a WHERE a.submission_id = s.submission_id) "
        "FROM submissions s",
    )
    by_id = {r[0]: r for r in rows}
    assert set(expected) <= set(by_id)
    for sid, items in expected.items():
        _, status, payload, artifacts, claims = by_id[sid]
        assert status == "processed", by_id[sid]
        assert len(json.loads(payload)["results"]) == items
        assert artifacts == items and claims == items, (sid, items, artifacts, claims)
    total_items = sum(len(json.loads(r[2])["results"]) for r in rows)
    assert scalar(url, "SELECT count(*) FROM claims") == total_items
    assert scalar(url, "SELECT count(*) FROM artifacts") == total_items


# A server with its agents ---------------------------------------------------------------------------------


class Stack:
    """A `tahqiq serve` process on `url`, the first-party app and one agent of every role."""

    def __init__(self, url: str, **env: str) -> None:
        self.url = url
        env.setdefault("TAHQIQ_AUTH_FAILURE_RATE", "1000/60s")
        self.env = server_env(url, **env)
        self.server = ServerProcess(self.env)
        self.app: dict[str, Any] = {}
        self.agents: dict[str, dict[str, Any]] = {}
        self.client = httpx.Client(base_url=self.server.url, timeout=30)

    def start(self) -> Stack:
        # The CLI migrates the store on its own, so the app and agents exist before the server starts.
        self.app = self.server.cli("apps", "create", "--name", "platform", "--first-party", "--json")
        assert self.app["app_id"] == FIRST_PARTY_APP_ID
        for role in ROLES:
            self.agents[role] = self.create_agent(role)
        self.server.start()
        return self

    def stop(self) -> None:
        self.client.close()
        self.server.stop()

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def cli(self, *args: str) -> Any:
        return self.server.cli(*args)

    def create_agent(self, role: str) -> dict[str, Any]:
        agent = self.cli("agents", "create", "--role", role, "--json")
        assert agent["role_id"] == role
        assert agent["api_key"].startswith("svc_agent_")
        return dict(agent)

    def mint_response(self, api_key: str, ttl: int = 900, client: httpx.Client | None = None) -> httpx.Response:
        return (client or self.client).post(
            f"{BASE}/me/identity-token",
            json={"audience": FIRST_PARTY_APP_ID, "ttl": ttl},
            headers={"Authorization": f"Bearer {api_key}"},
        )

    def mint(self, api_key: str, client: httpx.Client | None = None) -> dict[str, Any]:
        r = self.mint_response(api_key, client=client)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()["data"]
        return data

    def token(self, role: str, client: httpx.Client | None = None) -> str:
        return str(self.mint(self.agents[role]["api_key"], client)["token"])

    def verify(self, token: str, client: httpx.Client | None = None) -> dict[str, Any]:
        r = (client or self.client).post(
            f"{BASE}/verify-identity", json={"token": token}, headers={"X-Service-App-Key": self.app["app_key"]}
        )
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        return body
