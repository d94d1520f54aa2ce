"""Helpers of the hardening tests: a live server with credentials for every role, requests, problem checks.

    with Deployment.sqlite(tmp_path, TAHQIQ_AUTH_FAILURE_RATE="5/60s") as dep:
        token = dep.token("judge")
        dep.post("/agents/access-core/verify-identity", json={"token": token}, headers=dep.app_headers())

Every deployment has a first-party app (id FIRST_PARTY_APP_ID), a second app, and one agent per role.
"""

from __future__ import annotations

import sqlite3
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import run_sync
from tests.support.server import FIRST_PARTY_APP_ID, ServerProcess, server_env

ROLES = ("claim_splitter", "evidence_seeker", "methodology_critic", "judge")
MINT = "/agents/access-core/me/identity-token"
VERIFY = "/agents/access-core/verify-identity"
PENDING = "/agents/access-core/claims/pending"
READY = "/agents/access-core/claims/ready_for_verdict"
COUNTED_TABLES = ("submissions", "idempotency_keys", "claims", "artifacts")


def submit_path(role: str) -> str:
    return f"/agents/access-core/submissions/{role}"


def new_key() -> str:
    return str(uuid.uuid4())


@dataclass
class Deployment:
    server: ServerProcess
    database_url: str
    sqlite_path: Path | None = None
    api_keys: dict[str, str] = field(default_factory=dict)
    agent_ids: dict[str, str] = field(default_factory=dict)
    app_key: str = ""
    other_app_id: str = ""
    other_app_key: str = ""
    client: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=30))

    @classmethod
    def sqlite(cls, tmp_path: Path, **env: str) -> Deployment:
        path = tmp_path / "tahqiq.db"
        return cls(ServerProcess(server_env(f"sqlite:///{path}", **env)), f"sqlite:///{path}", sqlite_path=path)

    @classmethod
    def postgres(cls, url: str, **env: str) -> Deployment:
        return cls(ServerProcess(server_env(url, **env)), url)

    def __enter__(self) -> Deployment:
        self.server.start()
        first = self.server.cli("apps", "create", "--name", "platform", "--first-party", "--json")
        self.app_key = first["app_key"]
        other = self.server.cli("apps", "create", "--name", "other", "--json")
        self.other_app_id, self.other_app_key = other["app_id"], other["app_key"]
        for role in ROLES:
            agent = self.server.cli("agents", "create", "--role", role, "--json")
            self.api_keys[role] = agent["api_key"]
            self.agent_ids[role] = agent["agent_id"]
        return self

    def analysis_ready(self, timeout_s: float = 60) -> Deployment:
        """Waits until the analysis data is loaded: the analysis routes answer 503 until then."""
        deadline = time.monotonic() + timeout_s
        while self.get("/health").json()["analysis"]["status"] != "ready":
            assert time.monotonic() < deadline, "the analysis data did not load"
            time.sleep(0.1)
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()
        self.server.stop()

    # Requests -----------------------------------------------------------------------------------------

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        return self.client.request(method, self.server.url + path, **kwargs)

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, **kwargs)

    def mint(self, role: str, **body: Any) -> httpx.Response:
        return self.post(MINT, json=body, headers={"Authorization": f"Bearer {self.api_keys[role]}"})

    def minted(self, role: str, **body: Any) -> dict[str, Any]:
        response = self.mint(role, **body)
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()["data"]
        return data

    def token(self, role: str, **body: Any) -> str:
        return str(self.minted(role, **body)["token"])

    def app_headers(self, key: str | None = None) -> dict[str, str]:
        return {"X-Service-App-Key": key or self.app_key}

    def verify(self, token: str, app_key: str | None = None, **extra: Any) -> httpx.Response:
        return self.post(VERIFY, json={"token": token, **extra}, headers=self.app_headers(app_key))

    def submit(
        self,
        role: str,
        body: Any,
        *,
        token: str | None = None,
        key: str | None = "new",
        path_role: str | None = None,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        sent = {"X-Service-Agent-Identity": token or self.token(role)}
        if key is not None:
            sent["Idempotency-Key"] = new_key() if key == "new" else key
        sent.update(headers or {})
        path = submit_path(path_role or role)
        if raw is not None:
            return self.post(path, content=raw, headers={"Content-Type": "application/json", **sent})
        return self.post(path, json=body, headers=sent)

    # Store ------------------------------------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        """Rows of the tables that work requests write to, once the processor has applied every accepted
        submission (applying one writes claims and artifacts, which would otherwise race the snapshot)."""
        deadline = time.monotonic() + 20
        while True:
            if self.sqlite_path is not None:
                conn = sqlite3.connect(f"file:{self.sqlite_path}?mode=ro", uri=True)
                try:
                    queued = conn.execute("SELECT count(*) FROM submissions WHERE status = 'accepted'").fetchone()[0]
                    rows = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in COUNTED_TABLES}
                finally:
                    conn.close()
            else:
                queued, rows = run_sync(_pg_counts(self.database_url))
            if queued == 0 or time.monotonic() > deadline:
                return rows
            time.sleep(0.05)


async def _pg_counts(url: str) -> tuple[int, dict[str, int]]:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url, timeout=10)
    try:
        queued = int(await conn.fetchval("SELECT count(*) FROM submissions WHERE status = 'accepted'"))
        return queued, {t: int(await conn.fetchval(f"SELECT count(*) FROM {t}")) for t in COUNTED_TABLES}
    finally:
        await conn.close()


def assert_problem(
    response: httpx.Response,
    status: int,
    path: str,
    *,
    error_code: str | None = None,
    errors: list[str] | None = None,
    detail_has: str | None = None,
) -> dict[str, Any]:
    """`response` is an RFC 9457 problem of this status about `path`; returns the document."""
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"].startswith("application/problem+json"), response.headers
    doc: dict[str, Any] = response.json()
    for member in ("type", "title", "status", "detail", "instance", "error_code"):
        assert member in doc, (member, doc)
    assert doc["status"] == status
    assert doc["instance"] == path
    assert isinstance(doc["detail"], str) and len(doc["detail"]) > 10
    assert doc["type"].rsplit("/", 1)[0].endswith("/problems"), doc["type"]
    if error_code is not None:
        assert doc["error_code"] == error_code, doc
    if errors is not None:
        assert isinstance(doc.get("errors"), dict), doc
        for name in errors:
            assert name in doc["errors"], (name, doc["errors"])
            assert all(isinstance(m, str) and m for m in doc["errors"][name])
    if detail_has is not None:
        assert detail_has.lower() in doc["detail"].lower(), doc["detail"]
    return doc


__all__ = ["FIRST_PARTY_APP_ID", "Deployment", "assert_problem"]
