"""Attacks on Area A credentials: forged, tampered, expired, misdirected, revoked tokens; key guessing; leaks.

Token forgeries run against a real server (`tahqiq serve`, SQLite and PostgreSQL); time-dependent checks run
in-process on `TokenService`/`AccessService` with a fake clock.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from tahqiq.access import keys
from tahqiq.access.service import APP_CACHE_S, AccessService
from tahqiq.access.tokens import InvalidToken, Keyring, TokenService
from tahqiq.config import Settings
from tahqiq.problems import Problem
from tahqiq.store import open_store
from tahqiq.store.protocol import Store

from tests.support.hardening_support import (
    FIRST_PARTY_APP_ID,
    MINT,
    PENDING,
    READY,
    VERIFY,
    Deployment,
    assert_problem,
    new_key,
    submit_path,
)
from tests.support.rate_support import start_well_inside_a_window

# Helpers -------------------------------------------------------------------------------------------------


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def parts(token: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    header, payload, signature = token.split(".")
    return json.loads(unb64url(header)), json.loads(unb64url(payload)), signature


def assemble(header: dict[str, Any], payload: dict[str, Any], signature: str) -> str:
    enc = [b64url(json.dumps(p, separators=(",", ":")).encode()) for p in (header, payload)]
    return ".".join([*enc, signature])


def hs256(header: dict[str, Any], payload: dict[str, Any], secret: bytes) -> str:
    signing_input = ".".join(b64url(json.dumps(p, separators=(",", ":")).encode()) for p in (header, payload))
    signature = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{b64url(signature)}"


def forgeries(dep: Deployment, genuine: str) -> dict[str, str]:
    """Tokens an attacker can build from a genuine token and the public JWKS; none may be accepted."""
    header, payload, signature = parts(genuine)
    jwk = dep.get("/.well-known/jwks.json").json()["keys"][0]
    public_raw = unb64url(jwk["x"])
    elevated = {**payload, "role": "judge", "scopes": ["claims:ready_for_verdict:read", "submissions:judge"]}
    far_future = {**payload, "exp": payload["exp"] + 10 * 365 * 86400}
    return {
        "alg none": assemble({"alg": "none", "typ": "JWT", "kid": header["kid"]}, elevated, ""),
        "alg None": assemble({"alg": "None", "typ": "JWT", "kid": header["kid"]}, payload, ""),
        "hs256 with raw public key": hs256({"alg": "HS256", "typ": "JWT", "kid": header["kid"]}, elevated, public_raw),
        "hs256 with public key b64": hs256(
            {"alg": "HS256", "typ": "JWT", "kid": header["kid"]}, elevated, jwk["x"].encode()
        ),
        "hs256 with jwk json": hs256(
            {"alg": "HS256", "typ": "JWT", "kid": header["kid"]}, elevated, json.dumps(jwk).encode()
        ),
        "tampered role": assemble(header, elevated, signature),
        "tampered exp": assemble(header, far_future, signature),
        "tampered sub": assemble(header, {**payload, "sub": str(uuid.uuid4())}, signature),
        "unknown kid": assemble({**header, "kid": str(uuid.uuid4())}, payload, signature),
        "kid path traversal": assemble({**header, "kid": "../../etc/passwd"}, payload, signature),
        "kid too long": assemble({**header, "kid": "k" * 5000}, payload, signature),
        "no kid": assemble({k: v for k, v in header.items() if k != "kid"}, payload, signature),
        "signature stripped": genuine.rsplit(".", 1)[0] + ".",
        "signature of another token": assemble(header, payload, b64url(secrets.token_bytes(64))),
        "two segments": genuine.rsplit(".", 1)[0],
        "garbage": "not-a-jwt",
        "empty segments": "..",
        "jwk embedded": assemble({**header, "jwk": jwk}, elevated, signature),
    }


def assert_auth_invalid(response: httpx.Response) -> None:
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["success"] is False
    assert body["error_code"] == "AUTH_INVALID"
    assert isinstance(body["message"], str) and body["message"]
    assert set(body) == {"success", "error_code", "message"}


def assert_work_endpoints_refuse(dep: Deployment, token: str) -> None:
    """Every work endpoint answers 401 AUTH_INVALID to `token`, and nothing is stored."""
    before = dep.counts()
    h = {"X-Service-Agent-Identity": token}
    for path in (
        PENDING,
        READY,
        "/agents/access-core/claims/1/artifacts",
        f"/agents/access-core/submissions/{uuid.uuid4()}",
    ):
        assert_problem(dep.get(path, headers=h), 401, path, error_code="AUTH_INVALID")
    for role in ("claim_splitter", "judge"):
        body = {"work_type": "w", "results": [{"text": "t", "claim_id": 1, "verdict": "v"}]}
        response = dep.post(submit_path(role), json=body, headers={**h, "Idempotency-Key": new_key()})
        assert_problem(response, 401, submit_path(role), error_code="AUTH_INVALID")
    assert dep.counts() == before


# Live server: forged and misdirected tokens ----------------------------------------------------------------


@pytest.fixture(scope="module")
def dep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    with Deployment.sqlite(tmp_path_factory.mktemp("security"), TAHQIQ_AUTH_FAILURE_RATE="1000/60s") as d:
        yield d


def test_genuine_token_is_accepted_everywhere(dep: Deployment) -> None:
    """The baseline the forgeries are compared with: the same requests succeed with a real token."""
    token = dep.token("evidence_seeker")
    body = dep.verify(token).json()
    assert body["success"] is True and body["agent"]["agent_id"] == dep.agent_ids["evidence_seeker"]
    assert dep.get(PENDING, headers={"X-Service-Agent-Identity": token}).status_code == 200
    judge = dep.token("judge")
    assert dep.get(READY, headers={"X-Service-Agent-Identity": judge}).status_code == 200


@pytest.mark.parametrize(
    "name",
    [
        "alg none",
        "alg None",
        "hs256 with raw public key",
        "hs256 with public key b64",
        "hs256 with jwk json",
        "tampered role",
        "tampered exp",
        "tampered sub",
        "unknown kid",
        "kid path traversal",
        "kid too long",
        "no kid",
        "signature stripped",
        "signature of another token",
        "two segments",
        "garbage",
        "empty segments",
        "jwk embedded",
    ],
)
def test_forged_token_is_rejected(dep: Deployment, name: str) -> None:
    genuine = dep.token("evidence_seeker")
    dep.verify(genuine)  # the genuine token is in the verified-token cache: forgeries must not ride on it
    forged = forgeries(dep, genuine)[name]
    assert_auth_invalid(dep.verify(forged))
    assert_work_endpoints_refuse(dep, forged)


def test_token_for_another_audience(dep: Deployment) -> None:
    """A token minted for app B is refused by the work endpoints and by app A's verify; B accepts it."""
    token = dep.token("evidence_seeker", audience=dep.other_app_id)
    assert_work_endpoints_refuse(dep, token)
    assert_auth_invalid(dep.verify(token))  # the first-party app
    assert dep.verify(token, app_key=dep.other_app_key).json()["success"] is True
    # B asking for A's audience, and A asking for B's: both refused
    assert_auth_invalid(dep.verify(token, app_key=dep.other_app_key, audience=FIRST_PARTY_APP_ID))
    first_party = dep.token("evidence_seeker")
    assert_auth_invalid(dep.verify(first_party, app_key=dep.other_app_key))
    assert_auth_invalid(dep.verify(first_party, audience=dep.other_app_id))


def test_revoked_token(dep: Deployment) -> None:
    minted = dep.minted("judge")
    token = minted["token"]
    assert dep.verify(token).json()["success"] is True  # cached as verified before the revocation
    dep.server.cli("tokens", "revoke", minted["jti"])
    assert_auth_invalid(dep.verify(token))
    assert_work_endpoints_refuse(dep, token)
    assert dep.verify(dep.token("judge")).json()["success"] is True  # a new token works


def test_suspended_agent(dep: Deployment, tmp_path: Path) -> None:
    token = dep.token("methodology_critic")
    assert dep.verify(token).json()["success"] is True
    agent_id = dep.agent_ids["methodology_critic"]
    dep.server.cli("agents", "suspend", agent_id)
    try:
        assert_auth_invalid(dep.verify(token))
        assert_work_endpoints_refuse(dep, token)
        response = dep.mint("methodology_critic")
        assert_problem(response, 401, MINT, error_code="UNAUTHORIZED")
    finally:
        dep.server.cli("agents", "activate", agent_id)
    assert dep.verify(token).json()["success"] is True


# Keys: wrong, missing and malformed keys look alike -----------------------------------------------------------


def bad_api_key_headers(dep: Deployment) -> list[dict[str, str]]:
    real = dep.api_keys["claim_splitter"]
    suffix = real[len(keys.AGENT_KEY_PREFIX) :]
    return [
        {},
        {"Authorization": ""},
        {"Authorization": "Bearer"},
        {"Authorization": "bearer x"},
        {"Authorization": f"Basic {real}"},
        {"Authorization": real},
        {"Authorization": f"Bearer {keys.new_secret(keys.AGENT_KEY_PREFIX)}"},  # well-formed, unknown
        {"Authorization": f"Bearer {real[:-1]}"},  # malformed: one character short
        {"Authorization": f"Bearer {real}x"},
        {"Authorization": f"Bearer svc_app_{suffix}"},  # wrong prefix
        {"Authorization": f"Bearer {dep.app_key}"},  # an app key where an agent key belongs
        {"Authorization": f"Bearer {real.upper()}"},
        {"Authorization": "Bearer svc_agent_" + "!" * 43},
    ]


def bad_app_key_headers(dep: Deployment) -> list[dict[str, str]]:
    real = dep.app_key
    return [
        {},
        {"X-Service-App-Key": ""},
        {"X-Service-App-Key": keys.new_secret(keys.APP_KEY_PREFIX)},
        {"X-Service-App-Key": real[:-1]},
        {"X-Service-App-Key": real + "x"},
        {"X-Service-App-Key": f"Bearer {real}"},
        {"X-Service-App-Key": dep.api_keys["judge"]},
        {"X-Service-App-Key": real.swapcase()},
    ]


def test_bad_api_keys_get_identical_401(dep: Deployment) -> None:
    bodies = set()
    for headers in bad_api_key_headers(dep):
        # one request id for all: the bodies are then the same bytes, or the keys told apart
        response = dep.post(MINT, json={"ttl": 900}, headers=headers | {"X-Request-ID": "same"})
        assert_problem(response, 401, MINT, error_code="UNAUTHORIZED")
        bodies.add(response.content)
    assert len(bodies) == 1, bodies


def test_bad_app_keys_get_identical_401(dep: Deployment) -> None:
    token = dep.token("judge")
    bodies = set()
    for headers in bad_app_key_headers(dep):
        response = dep.post(VERIFY, json={"token": token}, headers=headers | {"X-Request-ID": "same"})
        assert_problem(response, 401, VERIFY, error_code="UNAUTHORIZED")
        bodies.add(response.content)
    assert len(bodies) == 1, bodies


def test_bad_key_answer_does_not_depend_on_body(dep: Deployment) -> None:
    """The 401 comes before the body is looked at: a bad body does not reveal whether the key was good."""
    bodies = set()
    for content in (b"", b"{", b'{"ttl": 5}', b"[]"):
        response = dep.post(MINT, content=content, headers={"Authorization": "Bearer nope", "X-Request-ID": "same"})
        assert response.status_code == 401
        bodies.add(response.content)
    assert len(bodies) == 1


def test_failed_attempts_are_limited_per_client(tmp_path: Path) -> None:
    with Deployment.sqlite(tmp_path, TAHQIQ_AUTH_FAILURE_RATE="5/60s") as d:
        bad = {"Authorization": f"Bearer {keys.new_secret(keys.AGENT_KEY_PREFIX)}"}
        start_well_inside_a_window(60)  # all the counted attempts in one fixed window
        for _ in range(5):
            assert d.post(MINT, headers=bad).status_code == 401
        limited = d.post(MINT, headers=bad)
        assert_problem(limited, 429, MINT, error_code="RATE_LIMITED")
        assert 1 <= int(limited.headers["Retry-After"]) <= 60
        # app keys count in the same per-client budget
        assert_problem(d.post(VERIFY, json={"token": "x"}, headers={"X-Service-App-Key": "x"}), 429, VERIFY)
        # X-Forwarded-For is not trusted: it does not buy a fresh budget
        spoofed = d.post(MINT, headers={**bad, "X-Forwarded-For": "203.0.113.9"})
        assert spoofed.status_code == 429
        # another client address (127.0.0.2 also reaches the loopback listener) has its own budget
        other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=10)
        with other:
            assert other.post(d.server.url + MINT, headers=bad).status_code == 401
            good = {"Authorization": f"Bearer {d.api_keys['judge']}"}
            assert other.post(d.server.url + MINT, headers=good, json={}).status_code == 201


# Secrets stay out of logs and the database --------------------------------------------------------------


def exercise_everything(d: Deployment) -> list[str]:
    """Calls every endpoint with real credentials and with failures; returns every secret that was used."""
    secrets_used = [d.app_key, d.other_app_key, *d.api_keys.values(), d.server.env["TAHQIQ_SECRET_KEY"]]
    tokens = {role: d.token(role) for role in d.api_keys}
    secrets_used += tokens.values()
    for path in ("/agents/manifest.json", "/agents/openapi.json", "/.well-known/jwks.json", "/health", "/healthz"):
        assert d.get(path).status_code == 200
    for token in tokens.values():
        assert d.verify(token).json()["success"] is True
    splitter = d.submit("claim_splitter", {"work_type": "split", "results": [{"text": "claim one"}]})
    assert splitter.status_code == 202
    sub_id = splitter.json()["submission_id"]
    h = {"X-Service-Agent-Identity": tokens["claim_splitter"]}
    deadline = time.monotonic() + 10
    while d.get(f"/agents/access-core/submissions/{sub_id}", headers=h).json()["data"]["status"] == "accepted":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    pending = d.get(PENDING, headers={"X-Service-Agent-Identity": tokens["evidence_seeker"]}).json()["data"]
    claim_id = pending[0]["claim_id"]
    for role in ("evidence_seeker", "methodology_critic"):
        body = {"work_type": "w", "results": [{"claim_id": claim_id}]}
        assert d.submit(role, body, token=tokens[role]).status_code == 202
    judge_h = {"X-Service-Agent-Identity": tokens["judge"]}
    assert d.get(READY, headers=judge_h).status_code == 200
    assert d.get(f"/agents/access-core/claims/{claim_id}/artifacts", headers=judge_h).status_code == 200
    judged = d.submit("judge", {"work_type": "v", "results": [{"claim_id": claim_id, "verdict": "false"}]})
    assert judged.status_code == 202
    # failures: bad credentials, forged tokens, invalid bodies, wrong roles
    for headers in bad_api_key_headers(d)[:4]:
        d.post(MINT, headers=headers)
    for headers in bad_app_key_headers(d)[:4]:
        d.post(VERIFY, json={"token": tokens["judge"]}, headers=headers)
    d.verify(tokens["judge"][:-3] + "abc")
    d.get(READY, headers={"X-Service-Agent-Identity": tokens["judge"] + "x"})
    d.get(READY, headers={"X-Service-Agent-Identity": tokens["evidence_seeker"]})
    d.submit("judge", None, token=tokens["judge"], raw=b"{not json")
    d.submit("judge", {"work_type": "v", "results": [{}]}, token=tokens["judge"])
    d.post(MINT, json={"ttl": 1}, headers={"Authorization": f"Bearer {d.api_keys['judge']}"})
    d.get("/agents/nothing-here", headers={"Authorization": f"Bearer {d.api_keys['judge']}"})
    return secrets_used


def assert_no_secrets(d: Deployment, secrets_used: list[str]) -> None:
    log = d.server.log()
    assert "GET /health" in log or "/healthz" in log, "the access log is on: requests must show up"
    for secret in secrets_used:
        assert secret not in log
        # the random part alone, and the raw secret key bytes in any common encoding
        tail = secret.split("_", 2)[-1] if secret.startswith("svc_") else secret[-40:]
        assert tail not in log, "a secret leaked into the server log"
    raw_secret = base64.b64decode(d.server.env["TAHQIQ_SECRET_KEY"])
    assert raw_secret.hex() not in log


def test_secrets_never_logged_sqlite(tmp_path: Path) -> None:
    with Deployment.sqlite(tmp_path, TAHQIQ_LOG_LEVEL="debug", TAHQIQ_ACCESS_LOG="1") as d:
        used = exercise_everything(d)
        d.server.stop()
        assert_no_secrets(d, used)
        assert d.sqlite_path is not None
        data = b"".join(p.read_bytes() for p in tmp_path.glob("tahqiq.db*"))
        raw_secret = base64.b64decode(d.server.env["TAHQIQ_SECRET_KEY"])
        assert raw_secret not in data
        for key in [d.app_key, d.other_app_key, *d.api_keys.values()]:
            suffix = key.split("_", 2)[-1]
            assert suffix.encode() not in data, "a plain key is stored"
            assert keys.key_hash(key).encode() in data, "keys are stored as their SHA-256 digest"


def test_secrets_never_logged_postgres(pg_url: str) -> None:
    with Deployment.postgres(pg_url, TAHQIQ_LOG_LEVEL="debug", TAHQIQ_ACCESS_LOG="1") as d:
        used = exercise_everything(d)
        d.server.stop()
        assert_no_secrets(d, used)


# In-process, with a fake clock -----------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1_750_000_000.0


@pytest.fixture
async def world() -> AsyncIterator[tuple[AccessService, TokenService, Store, dict[str, str]]]:
    store = open_store("sqlite:///:memory:")
    await store.open()
    await store.migrate()
    settings = Settings(secret_key=secrets.token_bytes(32), clock_skew_s=30, first_party_app_id=FIRST_PARTY_APP_ID)
    now = Clock().now
    keyring = Keyring(store, settings.secret_key, settings.clock_skew_s)
    await keyring.load(now)
    tokens = TokenService(keyring, settings.issuer, settings.clock_skew_s, 100)
    access = AccessService(settings, store, tokens)
    api_key = keys.new_secret(keys.AGENT_KEY_PREFIX)
    app_key = keys.new_secret(keys.APP_KEY_PREFIX)
    agent_id = str(uuid.uuid4())
    await store.create_agent(agent_id, "a", "judge", keys.key_hash(api_key), "p", now)
    await store.create_app(FIRST_PARTY_APP_ID, "platform", keys.key_hash(app_key), "p", now)
    try:
        yield access, tokens, store, {"api_key": api_key, "app_key": app_key, "agent_id": agent_id}
    finally:
        await store.close()


async def _mint(access: AccessService, api_key: str, now: float, ttl: int = 60) -> dict[str, Any]:
    reply = await access.mint(f"Bearer {api_key}", json.dumps({"ttl": ttl}).encode(), "c", now)
    assert reply.status == 201
    data: dict[str, Any] = json.loads(reply.body)["data"]
    return data


async def _verify(access: AccessService, app_key: str, token: str, now: float) -> dict[str, Any]:
    reply = await access.verify(app_key, json.dumps({"token": token}).encode(), "c", now)
    assert reply.status == 200
    result: dict[str, Any] = json.loads(reply.body)
    return result


@pytest.mark.parametrize("cached", [False, True])
async def test_expiry_with_leeway(world: Any, cached: bool) -> None:
    access, _tokens, _store, creds = world
    t0 = Clock().now
    token = (await _mint(access, creds["api_key"], t0, ttl=60))["token"]
    if cached:
        assert (await _verify(access, creds["app_key"], token, t0))["success"] is True
    # within exp + leeway (30 s): still valid
    assert (await _verify(access, creds["app_key"], token, t0 + 60 + 29))["success"] is True
    assert (await access.identify(token, t0 + 89)).agent_id == creds["agent_id"]
    # beyond the leeway: invalid, on verify and on work endpoints
    late = await _verify(access, creds["app_key"], token, t0 + 60 + 31)
    assert late["success"] is False and late["error_code"] == "AUTH_INVALID"
    assert "expired" in late["message"]
    with pytest.raises(Problem) as info:
        await access.identify(token, t0 + 60 + 31)
    assert info.value.status == 401 and info.value.type.error_code == "AUTH_INVALID"


async def test_not_yet_valid_beyond_leeway(world: Any) -> None:
    """A token used long before its nbf (a clock far behind) is refused; within the leeway it is fine."""
    access, _tokens, _store, creds = world
    t0 = Clock().now
    token = (await _mint(access, creds["api_key"], t0, ttl=600))["token"]
    assert (await _verify(access, creds["app_key"], token, t0 - 20))["success"] is True
    fresh = (await _mint(access, creds["api_key"], t0 + 1000, ttl=600))["token"]
    early = await _verify(access, creds["app_key"], fresh, t0 + 1000 - 31)
    assert early["success"] is False and early["error_code"] == "AUTH_INVALID"


async def test_token_verify_direct(world: Any) -> None:
    """TokenService alone: signature checked once, expiry checked on every use, cache bounded."""
    _access, tokens, store, creds = world
    t0 = Clock().now
    agent = await store.agent_by_key_hash(keys.key_hash(creds["api_key"]))
    minted = tokens.mint(agent, FIRST_PARTY_APP_ID, 60, t0)
    claims = await tokens.verify(minted.token, t0)
    assert claims.agent_id == creds["agent_id"] and claims.audience == FIRST_PARTY_APP_ID
    with pytest.raises(InvalidToken):
        await tokens.verify(minted.token, t0 + 91)
    with pytest.raises(InvalidToken):  # and again, once it has left the cache
        await tokens.verify(minted.token, t0 + 91)
    for i in range(150):
        await tokens.verify(tokens.mint(agent, FIRST_PARTY_APP_ID, 60, t0 + i).token, t0 + i)
    assert len(tokens._cache) <= 100
    # a token signed by a key that is not ours, with our kid: refused
    header, payload, _ = parts(minted.token)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    foreign = jwt.encode(payload, Ed25519PrivateKey.generate(), algorithm="EdDSA", headers={"kid": header["kid"]})
    with pytest.raises(InvalidToken, match="signature"):
        await tokens.verify(foreign, t0)


async def test_a_rotated_or_deleted_app_key_stops_working_within_the_cache_time(
    world: tuple[AccessService, TokenService, Store, dict[str, str]],
) -> None:
    """`tahqiq apps rotate-key` and `apps delete` change the store; a running process trusts a key it has looked up
    for APP_CACHE_S seconds, then asks the store again."""
    access, _tokens, store, creds = world
    now = Clock().now
    assert (await access.app_for_key(creds["app_key"], "c", now)).app_id == FIRST_PARTY_APP_ID
    new_key = keys.new_secret(keys.APP_KEY_PREFIX)
    assert await store.set_app_key(FIRST_PARTY_APP_ID, keys.key_hash(new_key), "p") is not None
    assert (await access.app_for_key(creds["app_key"], "c", now + APP_CACHE_S - 1)).app_id == FIRST_PARTY_APP_ID
    with pytest.raises(Problem) as refused:
        await access.app_for_key(creds["app_key"], "c", now + APP_CACHE_S + 1)
    assert refused.value.status == 401
    assert (await access.app_for_key(new_key, "c", now + APP_CACHE_S + 1)).app_id == FIRST_PARTY_APP_ID
    assert await store.delete_app(FIRST_PARTY_APP_ID)
    with pytest.raises(Problem):
        await access.app_for_key(new_key, "c", now + 3 * APP_CACHE_S)
