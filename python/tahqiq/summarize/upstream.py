"""The client of OpenAI-compatible chat-completions upstreams (the gateway and the provider).

One HTTP/1.1 client for the whole process (`tahqiq.http1`: a keep-alive pool per upstream), a time-out per attempt,
and ONE bounded retry on 429/502/503/504 that honours `Retry-After` up to `retry_max_wait_s`: when the upstream asks
for longer, waiting would only hold the caller, so the call fails at once. The client was written for this by
measurement (docs/design/summaries.md, "The HTTP client"): aiohttp's was most of a gateway request's own CPU.
"""

from __future__ import annotations

import asyncio
import math
import ssl
from dataclasses import dataclass, field
from typing import Any

import orjson

from tahqiq.http1 import ConnectFailed, Http1Client, HTTPClientError, PreparedPost, retry_after_seconds

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
    """The upstream could not give an answer: 5xx, 429 after the retry, time-out, refused connection.
    `retry_after_s` is the upstream's own Retry-After when it sent one."""

    def __init__(self, name: str, reason: str, retry_after_s: float | None = None) -> None:
        super().__init__(f"{name}: {reason}")
        self.reason = reason
        self.retry_after_s = retry_after_s


class UpstreamUnusable(Exception):
    """The upstream answered 200 with nothing usable: a body that is not a chat completion, an empty summary, or
    one in another language than the one asked for. The upstream works; this request goes to the next route."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.reason = reason


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
    """Calls upstreams; opened in the service's start, closed in its stop. `ssl_context` None: the system's CAs."""

    def __init__(self, timeout_s: float, retry_max_wait_s: float, ssl_context: ssl.SSLContext | None = None) -> None:
        self.timeout_s = timeout_s
        self.retry_max_wait_s = retry_max_wait_s
        self._ssl_context = ssl_context
        self._http: Http1Client | None = None
        self._targets: dict[Upstream, PreparedPost] = {}

    async def start(self) -> None:
        self._http = Http1Client(self.timeout_s, max_connections=256, idle_s=30.0, ssl_context=self._ssl_context)

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None
            self._targets.clear()

    async def complete(self, upstream: Upstream, messages: list[dict[str, str]]) -> Completion:
        """The upstream's completion, or UpstreamRefused / UpstreamUnusable / UpstreamFailed."""
        payload = orjson.dumps({"model": upstream.model, "messages": messages, "temperature": 0})
        status, body, retry_after = await self._post(upstream, payload)
        if status in RETRYABLE:
            wait = _DEFAULT_RETRY_WAIT_S if retry_after is None else retry_after
            if wait > self.retry_max_wait_s:
                raise UpstreamFailed(upstream.name, f"answered {status}, retry after {wait:g} s", retry_after)
            await asyncio.sleep(min(wait, self.retry_max_wait_s))
            status, body, retry_after = await self._post(upstream, payload)
        if status == 200:
            completion = parse_completion(body, upstream.model)
            if completion is None:
                raise UpstreamUnusable(upstream.name, "answered 200 with a body that is not a chat completion")
            return completion
        if 400 <= status < 500 and status != 429:
            raise UpstreamRefused(upstream.name, status)
        raise UpstreamFailed(upstream.name, f"answered {status}", retry_after)

    def _target(self, http: Http1Client, upstream: Upstream) -> PreparedPost:
        """The upstream's request head, built on its first call and kept."""
        target = self._targets.get(upstream)
        if target is None:
            headers = {"Content-Type": "application/json", "Accept": "application/json"}
            if upstream.key:
                headers["Authorization"] = f"Bearer {upstream.key}"
            target = self._targets[upstream] = http.prepare_post(upstream.endpoint, headers)
        return target

    async def _post(self, upstream: Upstream, payload: bytes) -> tuple[int, bytes, float | None]:
        if self._http is None:
            raise RuntimeError("ChatClient.start() was not awaited")
        try:
            target = self._target(self._http, upstream)
        except ValueError as exc:  # a key with a line break, say: a setting that cannot be sent
            raise UpstreamFailed(upstream.name, f"cannot be called: {exc}") from None
        try:
            response = await self._http.post(target, payload)
        except TimeoutError:
            raise UpstreamFailed(upstream.name, f"no answer within {self.timeout_s:g} s") from None
        except ConnectFailed as exc:
            raise UpstreamFailed(upstream.name, f"connection failed: {exc}") from None
        except HTTPClientError as exc:
            raise UpstreamFailed(upstream.name, str(exc)) from None
        return response.status, response.body, retry_after_seconds(response.header("Retry-After"))


def ceil_seconds(value: float) -> int:
    return max(1, math.ceil(value))
