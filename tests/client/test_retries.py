"""The client library's retry policy, against a real local HTTP server that answers from a script: what is retried,
what is not, the one Idempotency-Key of a submission, Retry-After, the budget (attempts and deadline), and the one
new token after a 401. Both clients (blocking and asyncio) run every case."""

from __future__ import annotations

import asyncio
import base64
import json
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from tahqiq.client import AgentClient, AppClient, AsyncAgentClient, AsyncAppClient, ClientError, Submission, _shared

from tests.support.scripted_http import Answer, ScriptedServer

SUBMIT = "/agents/access-core/submissions/claim_splitter"


def fake_token(role: str = "claim_splitter", lifetime: int = 900, tag: str = "a") -> str:
    """A token shaped as the service's (the client reads `role`, `iat` and `exp`; it never checks the signature)."""

    def part(data: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    now = int(time.time())
    return f"{part({'alg': 'EdDSA'})}.{part({'role': role, 'iat': now, 'exp': now + lifetime, 'tag': tag})}.sig"


def minted(token: str | None = None) -> Answer:
    token = token or fake_token()
    return Answer(
        201,
        {
            "data": {
                "token": token,
                "expires_at": "2030-01-01T00:00:00Z",
                "jti": str(uuid.uuid4()),
                "agent_id": str(uuid.uuid4()),
            }
        },
    )


def accepted(submission_id: str = "5f0c3c44-8a55-4f3c-9f0e-1d1f3b9a7c11", replayed: bool = False) -> Answer:
    headers = {"Idempotent-Replayed": "true"} if replayed else {}
    return Answer(202, {"submission_id": submission_id, "status": "accepted", "message": "ok"}, headers)


def problem(status: int, code: str, **extra: Any) -> Answer:
    headers = extra.pop("headers", {})
    return Answer(
        status,
        {
            "type": f"/problems/{code.lower()}",
            "title": code.title(),
            "status": status,
            "detail": f"detail of {code}",
            "error_code": code,
            **extra,
        },
        headers,
    )


@pytest.fixture(params=["blocking", "asyncio"])
def submit(request: pytest.FixtureRequest) -> Callable[..., Submission]:
    """`submit(url, **client_options)`: one submission through the client of this run."""

    def blocking(url: str, **options: Any) -> Submission:
        with AgentClient(url, "svc_agent_x", **options) as client:
            return client.submit("split", [{"text": "a claim"}])

    def in_loop(url: str, **options: Any) -> Submission:
        async def go() -> Submission:
            async with AsyncAgentClient(url, "svc_agent_x", **options) as client:
                return await client.submit("split", [{"text": "a claim"}])

        return asyncio.run(go())

    return blocking if request.param == "blocking" else in_loop


@pytest.fixture
def no_sleep(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The client's pauses, recorded instead of slept (both clients sleep through these two functions)."""
    waits: list[float] = []

    async def async_sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr("tahqiq.client.sync.time.sleep", waits.append)
    monkeypatch.setattr("tahqiq.client.aio.asyncio.sleep", async_sleep)
    return waits


def submissions(server: ScriptedServer) -> list[Any]:
    return [s for s in server.seen if s.path == SUBMIT]


@pytest.mark.parametrize(
    "failure",
    [
        problem(409, "IDEMPOTENCY_IN_FLIGHT", headers={"Retry-After": "1"}),
        problem(429, "RATE_LIMITED", headers={"Retry-After": "2"}),
        problem(502, "BAD_GATEWAY"),
        problem(503, "SERVICE_UNAVAILABLE"),
        problem(504, "GATEWAY_TIMEOUT"),
    ],
    ids=lambda a: str(a.status),
)
def test_retried_answers_are_sent_again_with_the_same_key(
    submit: Callable[..., Submission], no_sleep: list[float], failure: Answer
) -> None:
    with ScriptedServer([minted(), failure, failure, accepted()]) as server:
        result = submit(server.url)
    assert result.status == "accepted" and not result.replayed
    sent = submissions(server)
    assert len(sent) == 3
    keys = {s.headers["idempotency-key"] for s in sent}
    assert len(keys) == 1 and uuid.UUID(keys.pop()).version == 4
    assert {json.dumps(s.body, sort_keys=True) for s in sent} == {json.dumps(sent[0].body, sort_keys=True)}
    retry_after = failure.headers.get("Retry-After")
    if retry_after:
        assert no_sleep == [float(retry_after)] * 2
    else:
        assert len(no_sleep) == 2 and all(0 <= w <= 5.0 for w in no_sleep)


@pytest.mark.parametrize(
    "failure",
    [
        problem(400, "INVALID_SUBMISSION"),
        problem(403, "FORBIDDEN"),
        problem(404, "NOT_FOUND"),
        problem(409, "SOMETHING_ELSE"),
        problem(422, "VALIDATION_ERROR", errors={"Idempotency-Key": ["must be a UUID v4"]}),
    ],
    ids=lambda a: f"{a.status}-{a.body['error_code']}",
)
def test_answers_that_cannot_succeed_are_not_retried(
    submit: Callable[..., Submission], no_sleep: list[float], failure: Answer
) -> None:
    with ScriptedServer([minted(), failure], default=accepted()) as server:
        with pytest.raises(ClientError) as caught:
            submit(server.url)
    assert len(submissions(server)) == 1 and no_sleep == []
    error = caught.value
    assert error.status == failure.status
    assert error.error_code == failure.body["error_code"] and error.detail == failure.body["detail"]
    assert error.type == failure.body["type"] and error.title == failure.body["title"]
    assert error.errors == failure.body.get("errors")


def test_a_401_for_the_token_mints_once_more_and_retries_once(
    submit: Callable[..., Submission], no_sleep: list[float]
) -> None:
    first, second = fake_token(tag="first"), fake_token(tag="second")
    rejected = problem(401, "AUTH_INVALID")
    with ScriptedServer([minted(first), rejected, minted(second), accepted()]) as server:
        assert submit(server.url).status == "accepted"
    sent = submissions(server)
    assert [s.headers["x-service-agent-identity"] for s in sent] == [first, second]
    assert sent[0].headers["idempotency-key"] == sent[1].headers["idempotency-key"]
    # a second 401 is the answer: the key itself may be wrong, and minting again would not help
    with ScriptedServer([minted(first), rejected, minted(second), rejected], default=accepted()) as server:
        with pytest.raises(ClientError) as caught:
            submit(server.url)
    assert caught.value.status == 401 and len(submissions(server)) == 2


def test_a_wrong_api_key_is_one_401(submit: Callable[..., Submission], no_sleep: list[float]) -> None:
    with ScriptedServer([problem(401, "UNAUTHORIZED")], default=minted()) as server:
        with pytest.raises(ClientError) as caught:
            submit(server.url)
    assert caught.value.status == 401 and len(server.seen) == 1


def test_attempts_stop_at_max_attempts(submit: Callable[..., Submission], no_sleep: list[float]) -> None:
    with ScriptedServer([minted()], default=problem(503, "SERVICE_UNAVAILABLE")) as server:
        with pytest.raises(ClientError) as caught:
            submit(server.url, max_attempts=3)
    assert caught.value.status == 503 and len(submissions(server)) == 3 and len(no_sleep) == 2


def test_attempts_stop_at_the_deadline(submit: Callable[..., Submission], no_sleep: list[float]) -> None:
    # a Retry-After past the deadline: the client gives up at once instead of waiting beyond it
    late = problem(429, "RATE_LIMITED", headers={"Retry-After": "30"})
    with ScriptedServer([minted(), late], default=accepted()) as server:
        with pytest.raises(ClientError) as caught:
            submit(server.url, deadline=5.0, max_attempts=10)
    assert caught.value.status == 429 and len(submissions(server)) == 1 and no_sleep == []


def test_a_refused_connection_is_retried_then_reported(
    submit: Callable[..., Submission], no_sleep: list[float]
) -> None:
    from tests.support.server import free_port

    with pytest.raises(ClientError) as caught:
        submit(f"http://127.0.0.1:{free_port()}", max_attempts=3)
    assert caught.value.status is None and "3 attempt(s)" in str(caught.value) and len(no_sleep) == 2


def test_a_replay_is_reported() -> None:
    with ScriptedServer([minted(), accepted(replayed=True)]) as server:
        with AgentClient(server.url, "svc_agent_x") as client:
            assert client.submit("split", [{"text": "x"}], idempotency_key="given-key").replayed
    assert submissions(server)[0].headers["idempotency-key"] == "given-key"


def test_backoff_is_capped_exponential_with_full_jitter() -> None:
    clock = [0.0]
    attempts = _shared.Attempts(max_attempts=20, deadline=1e9, clock=lambda: clock[0])
    ceilings = []
    for _ in range(12):
        attempts.begin()
        draws = [attempts.wait_before_next() for _ in range(200)]
        assert all(d is not None for d in draws)
        ceilings.append(max(d for d in draws if d is not None))
        assert min(d for d in draws if d is not None) < 0.25 * ceilings[-1]  # full jitter: down to zero
    assert ceilings[0] <= 0.1 and 0.15 < ceilings[1] <= 0.2 and all(c <= 5.0 for c in ceilings)
    assert ceilings[-1] > 4.0  # reached the cap


def test_retry_after_as_an_http_date() -> None:
    import email.utils

    import httpx

    now = time.time()
    response = httpx.Response(503, headers={"Retry-After": email.utils.formatdate(now + 7, usegmt=True)})
    assert 5.5 <= (_shared.retry_after_s(response, now) or 0) <= 7.0
    assert _shared.retry_after_s(httpx.Response(503, headers={"Retry-After": "soon"}), now) is None


def test_the_token_is_minted_again_when_a_tenth_of_its_life_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr("tahqiq.client.sync.time.monotonic", lambda: clock[0])
    first, second = fake_token(lifetime=600, tag="1"), fake_token(lifetime=600, tag="2")
    with ScriptedServer([minted(first), minted(second)]) as server, AgentClient(server.url, "k") as client:
        assert client.token() == first
        clock[0] += 0.89 * 600
        assert client.token() == first and len(server.seen) == 1
        clock[0] += 0.02 * 600
        assert client.token() == second and len(server.seen) == 2


def test_app_client_verifies() -> None:
    valid = Answer(
        200,
        {
            "success": True,
            "valid": True,
            "agent": {
                "agent_id": "a1",
                "role_id": "judge",
                "scopes": ["judge:submit"],
                "status": "active",
                "contract_version": "v1",
                "token_expiry": "2030-01-01T00:00:00Z",
            },
        },
    )
    invalid = Answer(200, {"success": False, "error_code": "AUTH_INVALID", "message": "expired"})
    with ScriptedServer([problem(503, "SERVICE_UNAVAILABLE", headers={"Retry-After": "0"}), valid, invalid]) as server:
        with AppClient(server.url, "svc_app_x") as app:
            good = app.verify("t1", audience="aud")
            bad = app.verify("t2")
    assert good.valid and good.role_id == "judge" and good.scopes == ("judge:submit",)
    assert good.token_expiry is not None and good.token_expiry.year == 2030
    assert not bad.valid and bad.error_code == "AUTH_INVALID" and bad.message == "expired"
    assert server.seen[1].headers["x-service-app-key"] == "svc_app_x"
    assert server.seen[1].body == {"token": "t1", "audience": "aud"}

    async def in_loop() -> bool:
        with ScriptedServer([valid]) as again:
            async with AsyncAppClient(again.url, "svc_app_x") as app:
                return (await app.verify("t1")).valid

    assert asyncio.run(in_loop())
