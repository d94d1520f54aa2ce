"""Area A end to end, over a real `tahqiq serve` process and the real CLI, on both stores.

The whole role flow (split -> evidence and critique -> ready -> verdict), the role matrix (every wrong-role read and
write is 403 and stores nothing), and the credential life cycle (suspend/activate, rotate-key, token revocation
after caching, signing-key rotation while a token is live).
"""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.e2e_support import (
    BASE,
    ROLES,
    STORES,
    Stack,
    get_claim,
    identity,
    new_key,
    row,
    scalar,
    splitter_body,
    store_url,
    submit,
    wait_processed,
)
from tests.support.server import FIRST_PARTY_APP_ID


@pytest.fixture(scope="module", params=STORES)
def stack(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    pg = request.getfixturevalue("pg_server_url") if request.param == "postgres" else None
    with store_url(request.param, tmp_path_factory.mktemp("access"), pg) as url, Stack(url) as s:
        yield s


def kid_of(token: str) -> str:
    head = token.split(".")[0]
    return str(json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))["kid"])


def assert_problem(r: httpx.Response, status: int, error_code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = r.json()
    assert body["status"] == status
    assert body["error_code"] == error_code
    assert body["instance"] == r.request.url.path
    return body


def claims_of(client: httpx.Client, path: str, token: str, tag: str) -> list[dict[str, Any]]:
    r = client.get(f"{BASE}/claims/{path}", headers=identity(token), params={"limit": 500})
    assert r.status_code == 200, r.text
    return [c for c in r.json()["data"] if tag in c["text"]]


def split(stack: Stack, token: str, n: int, tag: str) -> list[dict[str, Any]]:
    """Submits `n` claims as the claim_splitter, waits for them to be applied, returns them (oldest first)."""
    r = submit(stack.client, "claim_splitter", token, splitter_body(n, tag))
    assert r.status_code == 202, r.text
    sid = r.json()["submission_id"]
    assert wait_processed(stack.client, token, [sid])[sid]["status"] == "processed"
    claims = claims_of(stack.client, "pending", stack.token("evidence_seeker"), tag)
    assert [c["text"] for c in claims] == [item["text"] for item in splitter_body(n, tag)["results"]]
    return claims


def test_a_pending_read_amid_constant_polling_lists_every_claim_applied_before_it(stack: Stack) -> None:
    """Concurrent queue reads share store queries (tahqiq.access.coalesce). While other agents poll the pending queue
    without pause, a read sent after a claim was applied must list it: sharing never serves an answer older than the
    request (a short cache of recent answers fails here). The finer rule, that a read never joins a query already
    under way, is checked step by step in test_shared_reads."""
    seeker, splitter = stack.token("evidence_seeker"), stack.token("claim_splitter")
    stop, polls, failures = threading.Event(), [0], []

    def poll() -> None:
        with httpx.Client(base_url=stack.server.url, timeout=30) as client:
            while not stop.is_set():
                r = client.get(f"{BASE}/claims/pending", headers=identity(seeker), params={"limit": 500})
                if r.status_code != 200:
                    failures.append(r.text)
                polls[0] += 1

    pollers = [threading.Thread(target=poll) for _ in range(6)]
    for thread in pollers:
        thread.start()
    splits = 0
    try:
        # At least 10 claims, and on until the pollers have sent 60 reads, however slow this machine is today; the
        # cap ends the loop if the pollers stop.
        while splits < 10 or (polls[0] < 60 and splits < 200):
            split(stack, splitter, 1, new_key())  # submits, waits until applied, then reads and checks the claim
            splits += 1
    finally:
        stop.set()
        for thread in pollers:
            thread.join()
    assert failures == [] and polls[0] >= 60


def test_whole_role_flow(stack: Stack) -> None:
    c = stack.client
    tokens = {role: stack.token(role) for role in ROLES}
    tag = new_key()

    # claim_splitter: one submission, three result items -> three claims, pending_evidence, oldest first.
    r = submit(c, "claim_splitter", tokens["claim_splitter"], splitter_body(3, tag))
    assert r.status_code == 202, r.text
    ack = r.json()
    assert set(ack) == {"submission_id", "status", "message"}
    assert ack["status"] == "accepted"
    assert r.headers["X-RateLimit-Limit"] == "120"
    sid = ack["submission_id"]
    done = wait_processed(c, tokens["claim_splitter"], [sid])[sid]
    assert done["status"] == "processed" and done["reason"] is None and done["results"] == 3
    assert done["role_id"] == "claim_splitter" and done["work_type"] == "split"
    assert done["processed_at"] is not None

    for reader in ("evidence_seeker", "methodology_critic"):
        pending = claims_of(c, "pending", tokens[reader], tag)
        assert len(pending) == 3
        assert [p["claim_id"] for p in pending] == sorted(p["claim_id"] for p in pending)
        assert all(p["status"] == "pending_evidence" for p in pending)
        assert all(set(p) == {"claim_id", "text", "status", "created_at"} for p in pending)
    c0, c1, c2 = (p["claim_id"] for p in claims_of(c, "pending", tokens["evidence_seeker"], tag))
    assert claims_of(c, "ready_for_verdict", tokens["judge"], tag) == []

    # evidence_seeker works on c0 and c1: they leave its pending queue, not the critic's.
    evidence = {
        "work_type": "evidence",
        "results": [{"claim_id": c0, "url": "https://example.org/a"}, {"claim_id": c1, "url": "https://b"}],
    }
    r = submit(c, "evidence_seeker", tokens["evidence_seeker"], evidence)
    assert r.status_code == 202, r.text
    es_sid = r.json()["submission_id"]
    assert wait_processed(c, tokens["evidence_seeker"], [es_sid])[es_sid]["status"] == "processed"
    assert [p["claim_id"] for p in claims_of(c, "pending", tokens["evidence_seeker"], tag)] == [c2]
    assert [p["claim_id"] for p in claims_of(c, "pending", tokens["methodology_critic"], tag)] == [c0, c1, c2]
    assert claims_of(c, "ready_for_verdict", tokens["judge"], tag) == []

    # methodology_critic works on c0: c0 has both, so it is ready for a verdict and leaves both pending queues.
    critique = {"work_type": "critique", "results": [{"claim_id": c0, "note": "sound"}], "metadata": {"m": 1}}
    r = submit(c, "methodology_critic", tokens["methodology_critic"], critique)
    assert r.status_code == 202, r.text
    mc_sid = r.json()["submission_id"]
    assert wait_processed(c, tokens["methodology_critic"], [mc_sid])[mc_sid]["status"] == "processed"
    assert [p["claim_id"] for p in claims_of(c, "pending", tokens["methodology_critic"], tag)] == [c1, c2]
    assert [p["claim_id"] for p in claims_of(c, "pending", tokens["evidence_seeker"], tag)] == [c2]
    ready = claims_of(c, "ready_for_verdict", tokens["judge"], tag)
    assert [(p["claim_id"], p["status"]) for p in ready] == [(c0, "ready_for_verdict")]
    assert get_claim(stack.url, c0).status == "ready_for_verdict"
    assert get_claim(stack.url, c1).status == "pending_evidence"

    # The judge reads the artifacts: all roles, then one role at a time.
    r = c.get(f"{BASE}/claims/{c0}/artifacts", headers=identity(tokens["judge"]))
    assert r.status_code == 200, r.text
    arts = r.json()["data"]
    assert sorted(a["role_id"] for a in arts) == ["claim_splitter", "evidence_seeker", "methodology_critic"]
    for a in arts:
        assert set(a) == {
            "artifact_id",
            "claim_id",
            "role_id",
            "agent_id",
            "submission_id",
            "work_type",
            "content",
            "created_at",
        }
        assert a["claim_id"] == c0
        assert a["agent_id"] == stack.agents[a["role_id"]]["agent_id"]
    by_role = {a["role_id"]: a for a in arts}
    assert by_role["claim_splitter"]["submission_id"] == sid
    assert by_role["claim_splitter"]["content"] == splitter_body(3, tag)["results"][0]
    assert by_role["evidence_seeker"]["submission_id"] == es_sid
    assert by_role["evidence_seeker"]["content"] == {"claim_id": c0, "url": "https://example.org/a"}
    assert by_role["methodology_critic"]["work_type"] == "critique"
    for role in ROLES:
        r = c.get(f"{BASE}/claims/{c0}/artifacts", params={"role_id": role}, headers=identity(tokens["judge"]))
        assert r.status_code == 200, r.text
        assert [a["role_id"] for a in r.json()["data"]] == ([] if role == "judge" else [role])
    r = c.get(f"{BASE}/claims/{c0}/artifacts", params={"role_id": "nobody"}, headers=identity(tokens["judge"]))
    assert_problem(r, 422, "VALIDATION_ERROR")
    r = c.get(f"{BASE}/claims/999999999/artifacts", headers=identity(tokens["judge"]))
    assert_problem(r, 404, "NOT_FOUND")

    # A verdict on a claim that is not ready is accepted, then rejected with a reason, leaving nothing.
    r = submit(c, "judge", tokens["judge"], {"work_type": "verdict", "results": [{"claim_id": c1, "verdict": "false"}]})
    assert r.status_code == 202, r.text
    bad = r.json()["submission_id"]
    rejected = wait_processed(c, tokens["judge"], [bad])[bad]
    assert rejected["status"] == "rejected"
    assert rejected["reason"] == f"results[0].claim_id: claim {c1} is pending_evidence, not ready_for_verdict"
    assert scalar(stack.url, "SELECT count(*) FROM artifacts WHERE submission_id = ?", bad) == 0
    assert get_claim(stack.url, c1).status == "pending_evidence"

    # The verdict on the ready claim: verdict_issued, in the store and in the queues.
    verdict = {"work_type": "verdict", "results": [{"claim_id": c0, "verdict": "false", "confidence": 0.9}]}
    r = submit(c, "judge", tokens["judge"], verdict)
    assert r.status_code == 202, r.text
    j_sid = r.json()["submission_id"]
    assert wait_processed(c, tokens["judge"], [j_sid])[j_sid]["status"] == "processed"
    claim = get_claim(stack.url, c0)
    assert claim is not None and claim.status == "verdict_issued" and claim.claim_id == c0
    assert claims_of(c, "ready_for_verdict", tokens["judge"], tag) == []
    r = c.get(f"{BASE}/claims/{c0}/artifacts", params={"role_id": "judge"}, headers=identity(tokens["judge"]))
    assert [(a["submission_id"], a["content"]) for a in r.json()["data"]] == [(j_sid, verdict["results"][0])]

    # A second verdict on the same claim is rejected too: it is no longer ready.
    r = submit(c, "judge", tokens["judge"], verdict)
    again = r.json()["submission_id"]
    assert wait_processed(c, tokens["judge"], [again])[again]["status"] == "rejected"

    # A submission is readable by its own agent only.
    r = c.get(f"{BASE}/submissions/{j_sid}", headers=identity(tokens["evidence_seeker"]))
    assert_problem(r, 404, "NOT_FOUND")


READS = {
    "pending": ("evidence_seeker", "methodology_critic"),
    "ready_for_verdict": ("judge",),
    "artifacts": ("judge",),
}


def test_role_matrix_every_wrong_role_is_403_and_stores_nothing(stack: Stack) -> None:
    c = stack.client
    tokens = {role: stack.token(role) for role in ROLES}
    claim_id = split(stack, tokens["claim_splitter"], 1, new_key())[0]["claim_id"]
    bodies = {
        "claim_splitter": splitter_body(1, "matrix"),
        "evidence_seeker": {"work_type": "evidence", "results": [{"claim_id": claim_id}]},
        "methodology_critic": {"work_type": "critique", "results": [{"claim_id": claim_id}]},
        "judge": {"work_type": "verdict", "results": [{"claim_id": claim_id, "verdict": "true"}]},
    }
    counts = "SELECT (SELECT count(*) FROM submissions), (SELECT count(*) FROM idempotency_keys)"
    before = row(stack.url, counts)

    checked = 0
    for role in ROLES:
        for read, allowed in READS.items():
            path = f"{BASE}/claims/{claim_id}/artifacts" if read == "artifacts" else f"{BASE}/claims/{read}"
            r = c.get(path, headers=identity(tokens[role]))
            if role in allowed:
                assert r.status_code == 200, (role, read, r.text)
                assert isinstance(r.json()["data"], list)
            else:
                body = assert_problem(r, 403, "FORBIDDEN")
                assert role in body["detail"]
                checked += 1
        for target in ROLES:
            if target == role:
                continue
            key = new_key()
            r = submit(c, target, tokens[role], bodies[target], key=key)
            body = assert_problem(r, 403, "FORBIDDEN")
            assert f"submissions/{role}" in body["detail"]
            assert "Idempotent-Replayed" not in r.headers
            checked += 1
            # Nothing stored, not even the key: the same agent may use the key for its own path at once.
            assert row(stack.url, counts) == before
    assert checked == 4 * 3 + 2 + 3 + 3  # 12 wrong submission paths, 8 wrong reads
    assert row(stack.url, counts) == before

    # The keys refused with 403 were not remembered: reusing one on the agent's own path is a first acceptance.
    key = new_key()
    r = submit(c, "judge", tokens["evidence_seeker"], bodies["judge"], key=key)
    assert r.status_code == 403
    r = submit(c, "evidence_seeker", tokens["evidence_seeker"], bodies["evidence_seeker"], key=key)
    assert r.status_code == 202, r.text
    assert "Idempotent-Replayed" not in r.headers

    # Unknown role names are 404, malformed ones 422; no token is 401.
    r = submit(c, "oracle", tokens["judge"], bodies["judge"])
    assert_problem(r, 404, "NOT_FOUND")
    r = submit(c, "Judge", tokens["judge"], bodies["judge"])
    assert_problem(r, 422, "VALIDATION_ERROR")
    r = c.get(f"{BASE}/claims/pending")
    assert_problem(r, 401, "AUTH_INVALID")


def test_suspended_agent_cannot_mint_and_its_token_stops_at_once(stack: Stack) -> None:
    c = stack.client
    agent = stack.create_agent("evidence_seeker")
    token = stack.mint(agent["api_key"])["token"]
    assert c.get(f"{BASE}/claims/pending", headers=identity(token)).status_code == 200  # verified and cached
    ok = stack.verify(token)
    assert ok["success"] is True and ok["valid"] is True
    assert ok["agent"]["agent_id"] == agent["agent_id"]
    assert ok["agent"]["role_id"] == "evidence_seeker"
    assert ok["agent"]["status"] == "active" and ok["agent"]["contract_version"] == "v1"
    assert ok["agent"]["scopes"] == ["claims:pending:read", "submissions:evidence_seeker"]

    stack.cli("agents", "suspend", agent["agent_id"])
    assert stack.cli("agents", "show", agent["agent_id"], "--json")["status"] == "suspended"
    assert_problem(stack.mint_response(agent["api_key"]), 401, "UNAUTHORIZED")
    assert_problem(c.get(f"{BASE}/claims/pending", headers=identity(token)), 401, "AUTH_INVALID")
    r = submit(c, "evidence_seeker", token, {"work_type": "e", "results": [{"claim_id": 1}]})
    assert_problem(r, 401, "AUTH_INVALID")
    failed = stack.verify(token)
    assert failed["success"] is False and failed["error_code"] == "AUTH_INVALID"
    assert set(failed) == {"success", "error_code", "message"}

    stack.cli("agents", "activate", agent["agent_id"])
    assert c.get(f"{BASE}/claims/pending", headers=identity(token)).status_code == 200
    assert stack.verify(token)["success"] is True
    fresh = stack.mint(agent["api_key"])
    assert fresh["agent_id"] == agent["agent_id"]
    assert c.get(f"{BASE}/claims/pending", headers=identity(fresh["token"])).status_code == 200


def test_rotate_key_invalidates_the_old_key(stack: Stack) -> None:
    agent = stack.create_agent("methodology_critic")
    assert stack.mint_response(agent["api_key"]).status_code == 201
    rotated = stack.cli("agents", "rotate-key", agent["agent_id"], "--json")
    assert rotated["agent_id"] == agent["agent_id"]
    assert rotated["api_key"] != agent["api_key"] and rotated["api_key"].startswith("svc_agent_")
    assert_problem(stack.mint_response(agent["api_key"]), 401, "UNAUTHORIZED")
    minted = stack.mint(rotated["api_key"])
    assert minted["agent_id"] == agent["agent_id"]
    assert stack.client.get(f"{BASE}/claims/pending", headers=identity(minted["token"])).status_code == 200


def test_revoked_token_fails_on_the_next_request_although_cached(stack: Stack) -> None:
    c = stack.client
    minted = stack.mint(stack.agents["judge"]["api_key"])
    token = minted["token"]
    for _ in range(3):  # verified once, then served from the per-process cache
        assert c.get(f"{BASE}/claims/ready_for_verdict", headers=identity(token)).status_code == 200
        assert stack.verify(token)["success"] is True
    assert stack.cli("tokens", "revoke", minted["jti"], "--json") == {"jti": minted["jti"], "revoked": True}
    assert_problem(c.get(f"{BASE}/claims/ready_for_verdict", headers=identity(token)), 401, "AUTH_INVALID")
    r = submit(c, "judge", token, {"work_type": "v", "results": [{"claim_id": 1, "verdict": "x"}]})
    assert_problem(r, 401, "AUTH_INVALID")
    failed = stack.verify(token)
    assert failed["success"] is False and failed["error_code"] == "AUTH_INVALID"
    # Only that token: the agent mints a new one and carries on.
    other = stack.token("judge")
    assert c.get(f"{BASE}/claims/ready_for_verdict", headers=identity(other)).status_code == 200


def test_signing_key_rotation_while_a_token_is_live(stack: Stack) -> None:
    c = stack.client
    old = stack.token("evidence_seeker")
    old_kid = kid_of(old)
    r = c.get("/.well-known/jwks.json")
    assert r.status_code == 200
    assert old_kid in [k["kid"] for k in r.json()["keys"]]

    new_kid = stack.cli("keys", "rotate", "--json")["kid"]
    assert new_kid != old_kid
    fresh = stack.token("evidence_seeker")
    assert kid_of(fresh) == new_kid
    for token in (old, fresh):
        assert stack.verify(token)["success"] is True
        assert c.get(f"{BASE}/claims/pending", headers=identity(token)).status_code == 200
    keys = httpx.get(stack.server.url + "/.well-known/jwks.json").json()["keys"]
    assert {old_kid, new_kid} <= {k["kid"] for k in keys}
    assert all(k["kty"] == "OKP" and k["crv"] == "Ed25519" and k["alg"] == "EdDSA" for k in keys)


def test_verification_is_bound_to_the_app_audience(stack: Stack) -> None:
    c = stack.client
    token = stack.token("claim_splitter")
    key = {"X-Service-App-Key": stack.app["app_key"]}
    r = c.post(f"{BASE}/verify-identity", json={"token": token, "audience": FIRST_PARTY_APP_ID}, headers=key)
    assert r.status_code == 200 and r.json()["success"] is True
    r = c.post(f"{BASE}/verify-identity", json={"token": token, "audience": new_key()}, headers=key)
    assert r.status_code == 200 and r.json()["error_code"] == "AUTH_INVALID"
    r = c.post(f"{BASE}/verify-identity", json={"token": token}, headers={"X-Service-App-Key": "svc_app_nope"})
    assert_problem(r, 401, "UNAUTHORIZED")
