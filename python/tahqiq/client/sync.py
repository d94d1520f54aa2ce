"""The blocking clients: `AgentClient` (an agent's token, submissions and queues) and `AppClient` (verification).
Safe to share between threads."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx

from tahqiq import __version__
from tahqiq.client._shared import (
    FINAL_STATUSES,
    Artifact,
    Attempts,
    Call,
    Claim,
    ClientError,
    Submission,
    Token,
    Verification,
    after_attempt,
    artifacts_call,
    mint_call,
    poll_waits,
    queue_call,
    read_list,
    read_submission,
    read_verification,
    submission_call,
    submit_call,
    verify_call,
)

USER_AGENT = f"tahqiq-client/{__version__}"


class _Sender:
    """Sends a `Call`, and again as the retry policy says (`_shared.after_attempt`); with an `identity`, with its
    token."""

    def __init__(self, base_url: str, timeout: float, max_attempts: int, deadline: float) -> None:
        self.http = httpx.Client(base_url=base_url.rstrip("/"), headers={"User-Agent": USER_AGENT})
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.deadline = deadline

    def send(self, call: Call, identity: _Identity | None = None) -> httpx.Response:
        attempts = Attempts(self.max_attempts, self.deadline)
        reminted = False
        while True:
            headers = dict(call.headers)
            if identity is not None:
                headers["X-Service-Agent-Identity"] = identity.token()
            attempts.begin()
            result: httpx.Response | httpx.TransportError
            try:
                result = self.http.request(
                    call.method,
                    call.path,
                    json=call.body,
                    params=call.params,
                    headers=headers,
                    timeout=attempts.timeout_s(self.timeout),
                )
            except httpx.TransportError as exc:
                result = exc
            step = after_attempt(attempts, result, identified=identity is not None, reminted=reminted)
            if step.answer is not None:
                return step.answer
            if step.error is not None:
                raise step.error from (result if isinstance(result, Exception) else None)
            if step.remint and identity is not None:
                reminted = True
                identity.rejected(headers["X-Service-Agent-Identity"])
                continue
            time.sleep(step.wait)


class _Identity:
    """The agent's current identity token, minted on first use and again before it runs out."""

    def __init__(self, sender: _Sender, api_key: str, audience: str | None) -> None:
        self._sender = sender
        self._mint = mint_call(api_key, audience)
        self._lock = threading.Lock()
        self._token: Token | None = None

    def token(self) -> str:
        return self.current().value

    def current(self) -> Token:
        with self._lock:
            if self._token is None or not self._token.fresh(time.monotonic()):
                sent = time.monotonic()
                self._token = Token.from_answer(self._sender.send(self._mint), sent)
            return self._token

    def rejected(self, value: str) -> None:
        with self._lock:
            if self._token is not None and self._token.value == value:
                self._token = None


class AgentClient:
    """An agent's side of the interface. Every call retries on connection errors, time-outs, 409 (the same
    Idempotency-Key still in flight), 429, 502, 503 and 504, honouring `Retry-After`, up to `max_attempts` sends
    and `deadline` seconds; `timeout` bounds each send. Other errors raise `ClientError` at once."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        audience: str | None = None,
        timeout: float = 10.0,
        max_attempts: int = 5,
        deadline: float = 60.0,
    ) -> None:
        self._sender = _Sender(base_url, timeout, max_attempts, deadline)
        self._identity = _Identity(self._sender, api_key, audience)

    def token(self) -> str:
        """A valid identity token: minted on first use, and again once 10 % of its lifetime or less is left."""
        return self._identity.token()

    def submit(
        self,
        work_type: str,
        results: list[dict[str, Any]],
        *,
        metadata: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Submission:
        """Sends work for the token's role. One Idempotency-Key (a new UUID v4 unless given) for every retry."""
        call = submit_call(self._identity.current().role_id(), work_type, results, metadata, idempotency_key)
        return read_submission(self._sender.send(call, self._identity))

    def submission(self, submission_id: str) -> Submission:
        return read_submission(self._sender.send(submission_call(submission_id), self._identity))

    def wait(self, submission_id: str, *, timeout: float = 30.0) -> Submission:
        """Polls (50 ms, doubling to 1 s) until the submission is `processed` or `rejected`."""
        give_up_at = time.monotonic() + timeout
        for pause in poll_waits():
            found = self.submission(submission_id)
            if found.status in FINAL_STATUSES:
                return found
            if time.monotonic() + pause > give_up_at:
                raise ClientError(f"submission {submission_id} is still {found.status!r} after {timeout:g} s")
            time.sleep(pause)
        raise AssertionError("unreachable")  # pragma: no cover

    def pending(self, limit: int = 50) -> list[Claim]:
        return read_list(self._sender.send(queue_call("pending", limit), self._identity))

    def ready_for_verdict(self, limit: int = 50) -> list[Claim]:
        return read_list(self._sender.send(queue_call("ready_for_verdict", limit), self._identity))

    def artifacts(self, claim_id: int | str, role_id: str | None = None) -> list[Artifact]:
        return read_list(self._sender.send(artifacts_call(claim_id, role_id), self._identity))

    def close(self) -> None:
        self._sender.http.close()

    def __enter__(self) -> AgentClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class AppClient:
    """An application's side: verifies agents' identity tokens with its app key (retried as `AgentClient`'s calls)."""

    def __init__(
        self, base_url: str, app_key: str, *, timeout: float = 10.0, max_attempts: int = 5, deadline: float = 60.0
    ) -> None:
        self._sender = _Sender(base_url, timeout, max_attempts, deadline)
        self._app_key = app_key

    def verify(self, token: str, audience: str | None = None) -> Verification:
        return read_verification(self._sender.send(verify_call(self._app_key, token, audience)))

    def close(self) -> None:
        self._sender.http.close()

    def __enter__(self) -> AppClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
