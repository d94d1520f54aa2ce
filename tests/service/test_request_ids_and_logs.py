"""Request ids and log lines, on a real server: every answer carries `X-Request-ID` (the client's, or a new UUID),
problem documents name it, every log line of the request carries it, `TAHQIQ_LOG_FORMAT=json` writes one JSON
object per line with the access fields, and no key, token or body reaches the log after a whole agent run."""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.hardening_support import MINT, VERIFY, Deployment
from tests.support.server import ServerProcess, server_env

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


@pytest.fixture(scope="module")
def dep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    env = {"TAHQIQ_LOG_FORMAT": "json", "TAHQIQ_ACCESS_LOG": "1", "TAHQIQ_LOG_LEVEL": "debug"}
    with Deployment.sqlite(tmp_path_factory.mktemp("logs"), **env) as d:
        yield d.analysis_ready()


def json_lines(server: ServerProcess) -> list[dict[str, Any]]:
    """Every line of the server's output, each parsed as JSON (a line that is not JSON fails the test)."""
    out = []
    for line in server.log().splitlines():
        if line.strip():
            out.append(json.loads(line))
    return out


def access_lines(server: ServerProcess, rid: str) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 5
    while True:
        found = [d for d in json_lines(server) if d["logger"] == "tahqiq.access" and d.get("request_id") == rid]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/health", 200),  # a JSON answer
        ("GET", "/docs", 200),  # a page
        ("POST", "/ner", 422),  # a problem (the body is empty)
        ("POST", "/api/ai/summarize", 422),  # summarization's own problems
        ("GET", "/nowhere", 404),  # nothing serves it
        ("DELETE", "/health", 405),  # served under another method
    ],
)
def test_every_answer_carries_the_request_id(dep: Deployment, method: str, path: str, status: int) -> None:
    given = f"client-{uuid.uuid4()}"
    answer = dep.request(method, path, headers={"X-Request-ID": given})
    assert answer.status_code == status
    assert answer.headers["x-request-id"] == given
    if answer.headers["content-type"].startswith("application/problem+json"):
        assert answer.json()["request_id"] == given
    made = dep.request(method, path)
    assert UUID.match(made.headers["x-request-id"]), made.headers["x-request-id"]
    [line] = access_lines(dep.server, given)
    assert (line["method"], line["path"], line["status"]) == (method, path, status)


@pytest.mark.parametrize("bad", ["has space", "x" * 201, "tab\there", "é"])
def test_an_id_that_cannot_be_logged_safely_is_replaced(dep: Deployment, bad: str) -> None:
    answer = dep.get("/health", headers={"X-Request-ID": bad.encode("utf-8")})  # type: ignore[dict-item]
    assert UUID.match(answer.headers["x-request-id"])


def test_concurrent_requests_keep_their_own_ids(dep: Deployment) -> None:
    """Each request's id is its own, even while others wait on the same event loop (a context per task)."""
    ids = [f"c{i}-{uuid.uuid4().hex[:8]}" for i in range(40)]

    def one(rid: str) -> tuple[str, str, str]:
        answer = dep.client.post(
            dep.server.url + "/api/ai/summarize",
            content=b"{",
            headers={"X-Request-ID": rid, "Content-Type": "application/json"},
        )
        return rid, answer.headers["x-request-id"], answer.json()["request_id"]

    with ThreadPoolExecutor(8) as pool:
        for rid, echoed, in_body in pool.map(one, ids):
            assert rid == echoed == in_body


def test_a_json_access_line_names_the_route_template_and_the_agent(dep: Deployment) -> None:
    rid = f"submit-{uuid.uuid4()}"
    answer = dep.submit("claim_splitter", {"work_type": "w", "results": [{"text": "c"}]}, headers={"X-Request-ID": rid})
    assert answer.status_code == 202
    [line] = access_lines(dep.server, rid)
    assert line["route"] == "/agents/access-core/submissions/{role_id}"
    assert line["path"] == "/agents/access-core/submissions/claim_splitter"
    assert line["agent_id"] == dep.agent_ids["claim_splitter"]
    assert line["level"] == "info" and line["status"] == 202 and line["latency_ms"] >= 0
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$", line["time"])


def test_every_line_is_json(dep: Deployment) -> None:
    lines = json_lines(dep.server)  # granian's own lines too
    assert {"_granian", "tahqiq.access"} <= {
        d["logger"].split(".")[0] if d["logger"].startswith("_granian") else d["logger"] for d in lines
    }
    for d in lines:
        assert {"time", "level", "logger", "message"} <= set(d), d


def test_no_secret_reaches_the_log_after_a_whole_agent_run(dep: Deployment) -> None:
    marker = f"secret-body-{uuid.uuid4().hex}"
    tokens = {role: dep.token(role) for role in dep.api_keys}
    assert dep.verify(tokens["judge"]).json()["valid"] is True
    assert dep.post(MINT, json={}, headers={"Authorization": "Bearer svc_agent_wrong"}).status_code == 401
    assert (
        dep.post(VERIFY, json={"token": tokens["judge"]}, headers={"X-Service-App-Key": "svc_app_x"}).status_code == 401
    )
    split = dep.submit(
        "claim_splitter", {"work_type": "w", "results": [{"text": marker}]}, token=tokens["claim_splitter"]
    )
    assert split.status_code == 202
    seeker = {"X-Service-Agent-Identity": tokens["evidence_seeker"]}
    deadline = time.monotonic() + 20
    while not (pending := dep.get("/agents/access-core/claims/pending", headers=seeker).json()["data"]):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    claim_id = pending[0]["claim_id"]
    for role in ("evidence_seeker", "methodology_critic"):
        body = {"work_type": "w", "results": [{"claim_id": claim_id, "note": marker}]}
        assert dep.submit(role, body, token=tokens[role]).status_code == 202
    judge = {"X-Service-Agent-Identity": tokens["judge"]}
    while not dep.get("/agents/access-core/claims/ready_for_verdict", headers=judge).json()["data"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    artifacts = dep.get(f"/agents/access-core/claims/{claim_id}/artifacts", headers=judge)
    assert marker in artifacts.text
    verdict = {"work_type": "w", "results": [{"claim_id": claim_id, "verdict": marker}]}
    assert dep.submit("judge", verdict, token=tokens["judge"]).status_code == 202
    log = dep.server.log()
    secrets = [*dep.api_keys.values(), dep.app_key, dep.other_app_key, *tokens.values(), marker]
    secrets.append(dep.server.env["TAHQIQ_SECRET_KEY"])
    for secret in secrets:
        assert secret not in log, secret[:12]
    for part in (t.split(".")[2] for t in tokens.values()):  # not even a token's signature alone
        assert part not in log


def test_text_lines_carry_the_request_id(tmp_path: Path) -> None:
    env = server_env(f"sqlite:///{tmp_path / 'db.sqlite'}", TAHQIQ_AREAS="agents")
    with ServerProcess(env) as server:
        httpx.get(server.url + "/health", headers={"X-Request-ID": "text-1"})
        deadline = time.monotonic() + 5
        while "request_id=text-1" not in server.log():
            assert time.monotonic() < deadline, server.log()
            time.sleep(0.05)
        [line] = [line for line in server.log().splitlines() if "request_id=text-1" in line]
        assert '"GET /health HTTP/1.1" 200 ' in line and "route=/health" in line


def test_made_ids_are_uuid4_and_each_generator_its_own() -> None:
    """Each server worker makes its own generator after the fork: two never repeat each other's ids."""
    from tahqiq.web.tracing import RequestIds

    one, two = RequestIds(), RequestIds()
    made = [one.new() for _ in range(2000)] + [two.new() for _ in range(2000)]
    assert len(set(made)) == len(made)
    for rid in made[:50] + made[-50:]:
        parsed = uuid.UUID(rid)
        assert (parsed.version, parsed.variant, str(parsed)) == (4, uuid.RFC_4122, rid)
