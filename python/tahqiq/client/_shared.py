"""What the blocking and the asyncio clients share: the answers' types, the errors, the retry policy, the identity
token's lifetime, and each call's request and reading of its answer. The two clients differ only in how they send
and how they sleep (`sync.py`, `aio.py`), so a fix here reaches both.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

import httpx
import orjson

from tahqiq.http1 import retry_after_seconds

AGENT_PREFIX = "/agents/access-core"
# answers worth sending the same request again for: the work may succeed on a later attempt
RETRIED_STATUSES = frozenset({409, 429, 502, 503, 504})
# a 409 is retried only while the first request with the same Idempotency-Key is still running
IN_FLIGHT = "IDEMPOTENCY_IN_FLIGHT"
TOKEN_REJECTED = "AUTH_INVALID"
# a token is minted again when this share of its lifetime is left, or less
REFRESH_SHARE = 0.10
FINAL_STATUSES = frozenset({"processed", "rejected"})


@dataclass(frozen=True, slots=True)
class Submission:
    """A submission as the service last reported it. `replayed`: the answer was the replay of an earlier request
    with the same Idempotency-Key (a retry whose first attempt had already been stored)."""

    submission_id: str
    status: str
    reason: str | None = None
    replayed: bool = False


@dataclass(frozen=True, slots=True)
class Verification:
    """The service's verdict on an identity token: `valid` with the agent's details, or not, with why."""

    valid: bool
    agent_id: str | None = None
    role_id: str | None = None
    scopes: tuple[str, ...] = ()
    status: str | None = None
    token_expiry: dt.datetime | None = None
    error_code: str | None = None
    message: str | None = None


class Claim(TypedDict):
    claim_id: int
    text: str
    status: str
    created_at: str


class Artifact(TypedDict):
    artifact_id: int
    claim_id: int
    role_id: str
    agent_id: str
    submission_id: str
    work_type: str
    content: dict[str, Any]
    created_at: str


class ClientError(Exception):
    """A call that did not succeed. For an answer of the service, `status` and the problem document's members
    (`type`, `title`, `detail`, `errors`; `problem` is the whole document); for a call that never got an answer
    (connection refused, every attempt timed out), `status` is None and `detail` says what happened."""

    def __init__(self, detail: str, *, status: int | None = None, problem: dict[str, Any] | None = None) -> None:
        self.status = status
        self.problem: dict[str, Any] = problem or {}
        self.type: str | None = self.problem.get("type")
        self.title: str | None = self.problem.get("title")
        self.detail: str = self.problem.get("detail") or detail
        self.errors: dict[str, Any] | None = self.problem.get("errors")
        self.error_code: str | None = self.problem.get("error_code")
        super().__init__(f"{status} {self.title or 'error'}: {self.detail}" if status is not None else self.detail)


def error_from(response: httpx.Response) -> ClientError:
    try:
        body = orjson.loads(response.content)
    except orjson.JSONDecodeError:
        body = None
    problem = body if isinstance(body, dict) else {"detail": response.text[:500]}
    return ClientError(f"HTTP {response.status_code}", status=response.status_code, problem=problem)


def error_code(response: httpx.Response) -> str | None:
    try:
        body = orjson.loads(response.content)
    except orjson.JSONDecodeError:
        return None
    return body.get("error_code") if isinstance(body, dict) else None


def retry_after_s(response: httpx.Response, now: float) -> float | None:
    return retry_after_seconds(response.headers.get("retry-after"), now)


@dataclass(slots=True)
class Attempts:
    """The retry budget of one call: at most `max_attempts` sends, none started after `deadline` seconds. Waits are
    capped exponential backoff with full jitter (a uniform draw between 0 and min(cap, base * 2^n)), or the
    answer's `Retry-After` when it gives one."""

    max_attempts: int
    deadline: float
    base_s: float = 0.1
    cap_s: float = 5.0
    clock: Callable[[], float] = time.monotonic
    rng: random.Random = field(default_factory=random.Random)
    made: int = 0
    started: float = 0.0

    def __post_init__(self) -> None:
        self.started = self.clock()

    def begin(self) -> None:
        self.made += 1

    def remaining_s(self) -> float:
        return self.deadline - (self.clock() - self.started)

    def wait_before_next(self, retry_after: float | None = None) -> float | None:
        """Seconds to wait before the next attempt, or None when the budget does not allow one."""
        if self.made >= self.max_attempts:
            return None
        ceiling = min(self.cap_s, self.base_s * 2 ** (self.made - 1))
        wait = retry_after if retry_after is not None else self.rng.uniform(0.0, ceiling)
        if wait >= self.remaining_s():
            return None
        return wait

    def timeout_s(self, per_attempt: float) -> float:
        return max(0.001, min(per_attempt, self.remaining_s()))


def retried_answer(response: httpx.Response) -> bool:
    if response.status_code not in RETRIED_STATUSES:
        return False
    return response.status_code != 409 or error_code(response) == IN_FLIGHT


def retryable_failure(exc: httpx.TransportError) -> bool:
    """A failure of the connection or a time-out (worth another attempt), not a mistake in the request or URL."""
    return isinstance(exc, httpx.TimeoutException | httpx.NetworkError | httpx.RemoteProtocolError)


def token_rejected(response: httpx.Response) -> bool:
    """A 401 for the identity token (expired, revoked or otherwise refused): worth one new token."""
    return response.status_code == 401 and error_code(response) == TOKEN_REJECTED


@dataclass(frozen=True, slots=True)
class Next:
    """What a client does after one attempt: return `answer`, raise `error`, mint a new token and send again at
    once (`remint`), or wait `wait` seconds and send again."""

    answer: httpx.Response | None = None
    error: ClientError | None = None
    remint: bool = False
    wait: float = 0.0


def after_attempt(
    attempts: Attempts, result: httpx.Response | httpx.TransportError, *, identified: bool, reminted: bool
) -> Next:
    """The retry policy, applied to one attempt's answer or failure."""
    if isinstance(result, httpx.TransportError):
        if not retryable_failure(result):
            return Next(error=ClientError(f"{type(result).__name__}: {result}"))
        wait = attempts.wait_before_next()
    elif result.status_code < 400:
        return Next(answer=result)
    elif identified and not reminted and token_rejected(result):
        return Next(remint=True)  # expired or revoked under us: one new token, and the same request again
    elif not retried_answer(result):
        return Next(error=error_from(result))
    else:
        wait = attempts.wait_before_next(retry_after_s(result, time.time()))
    if wait is None:
        return Next(error=gave_up(attempts, result))
    return Next(wait=wait)


def gave_up(attempts: Attempts, last: httpx.Response | Exception) -> ClientError:
    if isinstance(last, httpx.Response):
        return error_from(last)
    kind = "timed out" if isinstance(last, httpx.TimeoutException) else "failed"
    return ClientError(f"the request {kind} on each of {attempts.made} attempt(s): {type(last).__name__}: {last}")


@dataclass(frozen=True, slots=True)
class Call:
    """One request of the interface, with what the clients need to send it again."""

    method: str
    path: str
    body: dict[str, Any] | None = None
    params: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    identified: bool = True  # carries the agent's identity token (and may be retried once with a new one)


@dataclass(frozen=True, slots=True)
class Token:
    value: str
    expires_at: dt.datetime
    refresh_at: float  # on this process's monotonic clock
    role: str | None  # the `role` claim the service wrote into it (read once, at the mint)

    @staticmethod
    def from_answer(response: httpx.Response, minted_at: float) -> Token:
        """`minted_at` is the monotonic time the mint was sent, so a clock difference with the server cannot
        stretch the token's life here: its lifetime is taken from the token itself (exp - iat)."""
        data = orjson.loads(response.content)["data"]
        expires_at = parse_time(data["expires_at"])
        claims = _claims(data["token"])
        try:
            lifetime = float(claims["exp"]) - float(claims["iat"])
        except (KeyError, TypeError, ValueError):
            lifetime = max(0.0, expires_at.timestamp() - time.time())
        role = claims.get("role")
        refresh_at = minted_at + (1.0 - REFRESH_SHARE) * lifetime
        return Token(data["token"], expires_at, refresh_at, str(role) if role is not None else None)

    def fresh(self, now: float) -> bool:
        return now < self.refresh_at

    def role_id(self) -> str:
        """The role a submission goes to; the token is not verified here (the service does that)."""
        if self.role is None:
            raise ClientError("the identity token carries no role claim: is base_url a tahqiq service?")
        return self.role


def _claims(token: str) -> dict[str, Any]:
    """The JWT's payload, unverified; empty when it cannot be read."""
    try:
        payload = token.split(".")[1]
        claims = orjson.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (IndexError, ValueError, binascii.Error, orjson.JSONDecodeError):
        return {}
    return claims if isinstance(claims, dict) else {}


def parse_time(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def mint_call(api_key: str, audience: str | None) -> Call:
    body = {"audience": audience} if audience is not None else {}
    headers = {"Authorization": f"Bearer {api_key}"}
    return Call("POST", f"{AGENT_PREFIX}/me/identity-token", body, headers=headers, identified=False)


def submit_call(
    role_id: str, work_type: str, results: list[dict[str, Any]], metadata: dict[str, Any] | None, key: str | None
) -> Call:
    body: dict[str, Any] = {"work_type": work_type, "results": results}
    if metadata is not None:
        body["metadata"] = metadata
    # one key per call, sent again on every retry of it: the service stores the work once
    headers = {"Idempotency-Key": key or str(uuid.uuid4())}
    return Call("POST", f"{AGENT_PREFIX}/submissions/{role_id}", body, headers=headers)


def submission_call(submission_id: str) -> Call:
    return Call("GET", f"{AGENT_PREFIX}/submissions/{submission_id}")


def queue_call(queue: str, limit: int) -> Call:
    return Call("GET", f"{AGENT_PREFIX}/claims/{queue}", params={"limit": limit})


def artifacts_call(claim_id: int | str, role_id: str | None) -> Call:
    params = {"role_id": role_id} if role_id is not None else None
    return Call("GET", f"{AGENT_PREFIX}/claims/{claim_id}/artifacts", params=params)


def verify_call(app_key: str, token: str, audience: str | None) -> Call:
    body: dict[str, Any] = {"token": token}
    if audience is not None:
        body["audience"] = audience
    return Call(
        "POST", f"{AGENT_PREFIX}/verify-identity", body, headers={"X-Service-App-Key": app_key}, identified=False
    )


def read_submission(response: httpx.Response) -> Submission:
    body = orjson.loads(response.content)
    data = body.get("data", body)  # the 202 acknowledgement is bare; the status route's answer is in `data`
    replayed = response.headers.get("idempotent-replayed", "").lower() == "true"
    return Submission(data["submission_id"], data["status"], data.get("reason"), replayed)


def read_list(response: httpx.Response) -> list[Any]:
    data: list[Any] = orjson.loads(response.content)["data"]
    return data


def read_verification(response: httpx.Response) -> Verification:
    body = orjson.loads(response.content)
    if not body.get("valid"):
        return Verification(False, error_code=body.get("error_code"), message=body.get("message"))
    agent = body["agent"]
    return Verification(
        True,
        agent_id=agent["agent_id"],
        role_id=agent["role_id"],
        scopes=tuple(agent.get("scopes", ())),
        status=agent.get("status"),
        token_expiry=parse_time(agent["token_expiry"]) if agent.get("token_expiry") else None,
    )


def poll_waits(first_s: float = 0.05, cap_s: float = 1.0) -> Any:
    """The pauses between polls of `wait`: doubling from 50 ms to 1 s."""
    wait = first_s
    while True:
        yield wait
        wait = min(cap_s, wait * 2)
