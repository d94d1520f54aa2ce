"""The client of OpenAI-compatible chat-completions upstreams (the gateway and the provider).

One aiohttp session for the whole process (connection pooling, keep-alive), a time-out per attempt, and ONE
bounded retry on 429/502/503/504 that honours `Retry-After` up to `retry_max_wait_s`: when the upstream asks
for longer, waiting would only hold the caller, so the call fails at once. aiohttp was chosen by measurement
(README, "Summarization"): about three times less client overhead per call than httpx on this machine.
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson

RETRYABLE = frozenset({429, 502, 503, 504})
_DEFAULT_RETRY_WAIT_S = 0.1  # when a retryable answer names no Retry-After


@dataclass(frozen=True, slots=True)
class Upstream:
    """One chat-completions endpoint: `url` is the base (`{url}/chat/completions` is called)."""

    name: str  # "gateway" | "provider": names its breaker and its log lines
    url: str
    model: str
    key: str = field(default="", repr=False)

    @property
    def endpoint(self) -> str:
        return self.url.rstrip("/") + "/chat/completions"


@dataclass(frozen=True, slots=True)
class Completion:
    content: str
    model: str


class UpstreamRefused(Exception):
    """The upstream answered with a client error (4xx other than 429): it works, but will not do this request."""

    def __init__(self, name: str, status: int) -> None:
        super().__init__(f"{name} answered {status}")
        self.status = status


class UpstreamFailed(Exception):
    """The upstream could not give an answer: 5xx, 429 after the retry, time-out, refused connection, unusable
    body. `retry_after_s` is the upstream's own Retry-After when it sent one."""

    def __init__(self, name: str, reason: str, retry_after_s: float | None = None) -> None:
        super().__init__(f"{name}: {reason}")
        self.reason = reason
        self.retry_after_s = retry_after_s


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Seconds from a Retry-After value (delta-seconds or an HTTP date); None when absent or unreadable."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def parse_completion(body: bytes, fallback_model: str) -> Completion | None:
    """`choices[0].message.content` and `model` of a chat-completions answer; None when the body has no such shape."""
    try:
        doc: Any = orjson.loads(body)
        content = doc["choices"][0]["message"]["content"]
    except (orjson.JSONDecodeError, KeyError, IndexError, TypeError):
        return None
    if not isinstance(content, str):
        return None
    model = doc.get("model")
    return Completion(content, model if isinstance(model, str) and model else fallback_model)


class ChatClient:
    """Calls upstreams; opened in the service's start, closed in its stop."""

    def __init__(self, timeout_s: float, retry_max_wait_s: float) -> None:
        self.timeout_s = timeout_s
        self.retry_max_wait_s = retry_max_wait_s
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        self._session = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=self.timeout_s),
            connector=aiohttp.TCPConnector(limit=256, keepalive_timeout=30),
            json_serialize=lambda obj: orjson.dumps(obj).decode(),
            skip_auto_headers=("User-Agent",),
        )

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def complete(self, upstream: Upstream, messages: list[dict[str, str]]) -> Completion:
        """The upstream's completion, or UpstreamRefused / UpstreamFailed."""
        payload = orjson.dumps({"model": upstream.model, "messages": messages, "temperature": 0})
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if upstream.key:
            headers["Authorization"] = f"Bearer {upstream.key}"
        status, body, retry_after = await self._post(upstream, payload, headers)
        if status in RETRYABLE:
            wait = _DEFAULT_RETRY_WAIT_S if retry_after is None else retry_after
            if wait > self.retry_max_wait_s:
                raise UpstreamFailed(upstream.name, f"answered {status}, retry after {wait:g} s", retry_after)
            await asyncio.sleep(min(wait, self.retry_max_wait_s))
            status, body, retry_after = await self._post(upstream, payload, headers)
        if status == 200:
            completion = parse_completion(body, upstream.model)
            if completion is None:
                raise UpstreamFailed(upstream.name, "answered a body that is not a chat completion")
            return completion
        if 400 <= status < 500 and status != 429:
            raise UpstreamRefused(upstream.name, status)
        raise UpstreamFailed(upstream.name, f"answered {status}", retry_after)

    async def _post(
        self, upstream: Upstream, payload: bytes, headers: dict[str, str]
    ) -> tuple[int, bytes, float | None]:
        if self._session is None:
            raise RuntimeError("ChatClient.start() was not awaited")
        try:
            async with self._session.post(upstream.endpoint, data=payload, headers=headers) as response:
                body = await response.read()
                return response.status, body, retry_after_seconds(response.headers.get("Retry-After"))
        except TimeoutError:
            raise UpstreamFailed(upstream.name, f"no answer within {self.timeout_s:g} s") from None
        except aiohttp.ClientError as exc:
            raise UpstreamFailed(upstream.name, f"connection failed ({type(exc).__name__})") from None


def ceil_seconds(value: float) -> int:
    return max(1, math.ceil(value))
