"""The asyncio clients: `AsyncAgentClient` and `AsyncAppClient`, the methods of `AgentClient` and `AppClient` as
coroutines, with the same retries (the requests and their reading are shared: `_shared.py`)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

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
from tahqiq.client.sync import USER_AGENT


class _Sender:
    def __init__(self, base_url: str, timeout: float, max_attempts: int, deadline: float) -> None:
        self.http = httpx.AsyncClient(base_url=base_url.rstrip("/"), headers={"User-Agent": USER_AGENT})
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.deadline = deadline

    async def send(self, call: Call, identity: _Identity | None = None) -> httpx.Response:
        attempts = Attempts(self.max_attempts, self.deadline)
        reminted = False
        while True:
            headers = dict(call.headers)
            if identity is not None:
                headers["X-Service-Agent-Identity"] = await identity.token()
            attempts.begin()
            result: httpx.Response | httpx.TransportError
            try:
                result = await self.http.request(
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
            await asyncio.sleep(step.wait)


class _Identity:
    def __init__(self, sender: _Sender, api_key: str, audience: str | None) -> None:
        self._sender = sender
        self._mint = mint_call(api_key, audience)
        self._lock = asyncio.Lock()
        self._token: Token | None = None

    async def token(self) -> str:
        return (await self.current()).value

    async def current(self) -> Token:
        async with self._lock:
            if self._token is None or not self._token.fresh(time.monotonic()):
                sent = time.monotonic()
                self._token = Token.from_answer(await self._sender.send(self._mint), sent)
            return self._token

    def rejected(self, value: str) -> None:
        if self._token is not None and self._token.value == value:
            self._token = None


class AsyncAgentClient:
    """`AgentClient`'s methods as coroutines (see there for the retries)."""

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

    async def token(self) -> str:
        return await self._identity.token()

    async def submit(
        self,
        work_type: str,
        results: list[dict[str, Any]],
        *,
        metadata: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Submission:
        call = submit_call((await self._identity.current()).role_id(), work_type, results, metadata, idempotency_key)
        return read_submission(await self._sender.send(call, self._identity))

    async def submission(self, submission_id: str) -> Submission:
        return read_submission(await self._sender.send(submission_call(submission_id), self._identity))

    async def wait(self, submission_id: str, *, timeout: float = 30.0) -> Submission:
        give_up_at = time.monotonic() + timeout
        for pause in poll_waits():
            found = await self.submission(submission_id)
            if found.status in FINAL_STATUSES:
                return found
            if time.monotonic() + pause > give_up_at:
                raise ClientError(f"submission {submission_id} is still {found.status!r} after {timeout:g} s")
            await asyncio.sleep(pause)
        raise AssertionError("unreachable")  # pragma: no cover

    async def pending(self, limit: int = 50) -> list[Claim]:
        return read_list(await self._sender.send(queue_call("pending", limit), self._identity))

    async def ready_for_verdict(self, limit: int = 50) -> list[Claim]:
        return read_list(await self._sender.send(queue_call("ready_for_verdict", limit), self._identity))

    async def artifacts(self, claim_id: int | str, role_id: str | None = None) -> list[Artifact]:
        return read_list(await self._sender.send(artifacts_call(claim_id, role_id), self._identity))

    async def aclose(self) -> None:
        await self._sender.http.aclose()

    async def __aenter__(self) -> AsyncAgentClient:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()


class AsyncAppClient:
    """`AppClient.verify` as a coroutine."""

    def __init__(
        self, base_url: str, app_key: str, *, timeout: float = 10.0, max_attempts: int = 5, deadline: float = 60.0
    ) -> None:
        self._sender = _Sender(base_url, timeout, max_attempts, deadline)
        self._app_key = app_key

    async def verify(self, token: str, audience: str | None = None) -> Verification:
        return read_verification(await self._sender.send(verify_call(self._app_key, token, audience)))

    async def aclose(self) -> None:
        await self._sender.http.aclose()

    async def __aenter__(self) -> AsyncAppClient:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()
