"""POST /api/ai/summarize without HTTP: admission (rate limit), request validation, routing, the answer.

Routing (the value of `x-ai-strategy`):
- the gateway is configured and enabled: the gateway (`gateway`); when it answers 404 for the model alias and a
  provider is configured, the provider (`gateway_fallback`);
- otherwise, a provider is configured: the provider (`provider`);
- no upstream is configured: the in-process extractive summarizer (`local`);
- an upstream refused the request (400, 401, 403, 404 or another 4xx except 429, and no further upstream to
  try): the in-process summarizer answers (`edge_fallback`);
- an upstream answered 200 with nothing usable (not a chat completion, an empty summary, another language than
  the one asked for): the next route, the provider after the gateway (`gateway_fallback`), then the in-process
  summarizer (`edge_fallback`). An answer in the other format is usable: `answer.check` reshapes it.
Anything else that goes wrong upstream (5xx, 429 after the one retry, time-out, refused connection, an open
breaker) is a 503 naming the route that failed.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Any

import orjson

from tahqiq.config import Settings
from tahqiq.json_body import json_object
from tahqiq.metrics import BREAKER_STATES, Metrics
from tahqiq.problems import Problem
from tahqiq.ratelimit import WriteBehindCounter, rate_headers
from tahqiq.reply import Reply
from tahqiq.store.protocol import Store
from tahqiq.summarize import answer, extractive
from tahqiq.summarize.breaker import BreakerOpen, CircuitBreaker
from tahqiq.summarize.upstream import (
    ChatClient,
    Upstream,
    UpstreamFailed,
    UpstreamRefused,
    UpstreamUnusable,
    ceil_seconds,
)

log = logging.getLogger("tahqiq.summarize")

TARGET_LANGS = ("en", "ar")
LENGTHS = tuple(extractive.LENGTH_SENTENCES)
FORMATS = ("paragraph", "bullets")
FIELDS = ("text", "target_lang", "length", "format")
LOCAL_MODEL = "tahqiq-extractive"
STRATEGY_HEADER = "x-ai-strategy"
_INLINE_CHARS = 10_000  # longer texts are summarized in a worker thread, so the event loop keeps answering


@dataclass(frozen=True, slots=True)
class SummaryRequest:
    text: str
    target_lang: str | None  # None: the text's own language
    length: str = "short"
    format: str = "paragraph"


def _content_type_errors(content_type: str | None) -> list[str]:
    if not content_type:
        return ["is missing: send Content-Type: application/json"]
    media, *params = (part.strip() for part in content_type.split(";"))
    if media.lower() != "application/json":
        return [f"must be application/json, got {media!r}"]
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip('"').lower() not in ("utf-8", "utf8"):
            return [f"the body must be UTF-8, got charset={value.strip()!r}"]
    return []


def parse_request(content_type: str | None, body: bytes, max_chars: int) -> SummaryRequest:
    """The request in `body`, or a 422 problem whose `errors` name every field that is wrong."""
    if problems := _content_type_errors(content_type):
        raise Problem("validation-error", f"Content-Type {problems[0]}", errors={"Content-Type": problems})
    doc = json_object(body, "validation-error", example='{"text": "..."}')
    errors: dict[str, list[str]] = {}
    for name in doc:
        if name not in FIELDS:
            errors[name] = [f"unknown field; the fields are {', '.join(FIELDS)}"]
    text = doc.get("text")
    if text is None:
        errors["text"] = ["is required: the text to summarize, as a string"]
    elif not isinstance(text, str):
        errors["text"] = ["must be a string"]
    elif not text.strip():
        errors["text"] = ["must not be empty or only white space"]
    elif len(text) > max_chars:
        errors["text"] = [f"is {len(text)} characters long; the limit is {max_chars}"]
    chosen: dict[str, str | None] = {}
    for name, allowed in (("target_lang", TARGET_LANGS), ("length", LENGTHS), ("format", FORMATS)):
        value = doc.get(name)
        if value is not None and value not in allowed:
            errors[name] = [f"must be one of {', '.join(allowed)}, got {orjson.dumps(value).decode()}"]
        chosen[name] = value
    if errors:
        detail = "; ".join(f"{name}: {messages[0]}" for name, messages in errors.items())
        raise Problem("validation-error", detail, errors=errors)
    assert isinstance(text, str)
    return SummaryRequest(
        text=text,
        target_lang=chosen["target_lang"],
        length=chosen["length"] or "short",
        format=chosen["format"] or "paragraph",
    )


def rate_bucket(app_key: str | None, client: str) -> str:
    """The client's rate-limit bucket: the SHA-256 of its app key when it sends one (never the key itself), else
    its address."""
    if app_key:
        return "summarize:key:" + hashlib.sha256(app_key.encode()).hexdigest()
    return f"summarize:addr:{client}"


class SummarizeService:
    def __init__(self, settings: Settings, store: Store, metrics: Metrics | None = None) -> None:
        self._settings = settings
        self._metrics = metrics or Metrics()
        self.gateway = (
            Upstream("gateway", settings.gateway_url, settings.gateway_model, settings.gateway_key)
            if settings.gateway_url and settings.gateway_enabled
            else None
        )
        self.provider = (
            Upstream("provider", settings.provider_url, settings.provider_model, settings.provider_key)
            if settings.provider_url
            else None
        )
        self.route = "gateway" if self.gateway else "provider" if self.provider else "local"
        """The configured route: what `x-ai-strategy` names on answers given before any upstream was tried."""
        self.client = ChatClient(settings.upstream_timeout_s, settings.retry_max_wait_s)
        self.counter = WriteBehindCounter(store, settings.summarize_rate)
        self.breakers = {
            name: CircuitBreaker(name, settings.breaker_failures, settings.breaker_reset_s)
            for name in ("gateway", "provider")
        }

    async def start(self) -> None:
        await self.client.start()

    async def stop(self) -> None:
        await self.counter.flush()
        await self.client.close()

    async def admit(self, app_key: str | None, client: str, now: float) -> dict[str, str]:
        """Counts the request against its client's limit: the rate headers, or a 429 problem carrying them."""
        rate = self._settings.summarize_rate
        decision = await self.counter.hit(rate_bucket(app_key, client), now)
        headers = rate_headers(decision, rate.window_s)
        if not decision.allowed:
            self._metrics.rate_limited.labels("summarize").inc()
            raise Problem(
                "rate-limit-exceeded",
                f"more than {rate.limit} summaries in {rate.window_s} s from this client; "
                f"retry after {headers['Retry-After']} s",
                headers=headers,
            )
        return headers

    def parse(self, content_type: str | None, body: bytes) -> SummaryRequest:
        return parse_request(content_type, body, self._settings.summarize_max_chars)

    async def summarize(self, request: SummaryRequest) -> Reply:
        source = extractive.detect_language(request.text)
        target = request.target_lang or source
        if self.gateway is not None:
            try:
                return await self._upstream(self.gateway, request, source, target, "gateway")
            except UpstreamRefused as refused:
                fallback = self.provider if refused.status == 404 else None  # 404: the alias is unknown there
            except UpstreamUnusable:
                fallback = self.provider
            if fallback is None:
                return await self._local(request, source, target, "edge_fallback")
            try:
                return await self._upstream(fallback, request, source, target, "gateway_fallback")
            except (UpstreamRefused, UpstreamUnusable):
                return await self._local(request, source, target, "edge_fallback")
        if self.provider is not None:
            try:
                return await self._upstream(self.provider, request, source, target, "provider")
            except (UpstreamRefused, UpstreamUnusable):
                return await self._local(request, source, target, "edge_fallback")
        return await self._local(request, source, target, "local")

    async def _upstream(
        self, upstream: Upstream, request: SummaryRequest, source: str, target: str, strategy: str
    ) -> Reply:
        """The upstream's checked summary; UpstreamRefused and UpstreamUnusable pass through (the caller tries the
        next route); every failure is a 503 problem. A refusal or an unusable answer leaves the breaker closed:
        the upstream is up, and this request is answered by the next route."""
        breaker = self.breakers[upstream.name]
        try:
            breaker.acquire()
        except BreakerOpen as refused:
            self._counted(strategy, "breaker_open", breaker)
            raise _unavailable(strategy, str(refused), refused.retry_after_s) from None
        outcome = "abandoned"  # the request went away (cancelled) before the upstream answered
        started = time.perf_counter()
        try:
            sentences = extractive.LENGTH_SENTENCES[request.length]
            prompt = answer.messages(request.text, target, sentences, request.format)
            completion = await self.client.complete(upstream, prompt)
            checked = answer.check(completion.content, target, request.format)
            outcome = "ok"
        except UpstreamRefused:
            outcome = "refused"
            breaker.succeeded()  # the upstream is up; it refused this request
            raise
        except (UpstreamUnusable, answer.BadAnswer) as unusable:
            outcome = "unusable"
            breaker.succeeded()
            log.warning("summarize: %s answered nothing usable (%s); trying the next route", upstream.name, unusable)
            if isinstance(unusable, answer.BadAnswer):
                raise UpstreamUnusable(upstream.name, str(unusable)) from None
            raise
        except UpstreamFailed as failure:
            outcome = "failed"
            breaker.failed()
            log.warning("summarize: %s failed: %s", upstream.name, failure)
            retry = failure.retry_after_s
            wait = breaker.remaining_s() if retry is None else ceil_seconds(retry)
            raise _unavailable(strategy, f"{upstream.name}: {failure}", wait) from None
        finally:
            if outcome == "abandoned":
                breaker.abandoned()
            else:
                if outcome == "ok":
                    breaker.succeeded()
                self._metrics.upstream_latency.labels(upstream.name).observe(time.perf_counter() - started)
                self._counted(strategy, outcome, breaker)
        data: dict[str, Any] = {"summary": checked.summary}
        if checked.bullets is not None:
            data["bullets"] = list(checked.bullets)
        data |= _common(request, target, source, strategy, completion.model, translated=source != target)
        return Reply(200, orjson.dumps({"data": data}), {STRATEGY_HEADER: strategy, "Content-Language": target})

    def _counted(self, strategy: str, outcome: str, breaker: CircuitBreaker) -> None:
        self._metrics.upstream_calls.labels(strategy, outcome).inc()
        self._metrics.breaker_state.labels(breaker.name).set(BREAKER_STATES[breaker.state.value])

    async def _local(self, request: SummaryRequest, source: str, target: str, strategy: str) -> Reply:
        """The in-process summary; it cannot translate, so it is in the text's language whatever was asked."""
        if len(request.text) > _INLINE_CHARS:
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(None, extractive.summarize, request.text, request.length, source)
        else:
            result = extractive.summarize(request.text, request.length, source)
        data: dict[str, Any]
        if request.format == "bullets":
            data = {"summary": "\n".join(f"- {s}" for s in result.sentences), "bullets": list(result.sentences)}
        else:
            data = {"summary": " ".join(result.sentences)}
        data |= _common(request, target, result.language, strategy, LOCAL_MODEL, translated=False)
        headers = {STRATEGY_HEADER: strategy, "Content-Language": result.language}
        return Reply(200, orjson.dumps({"data": data}), headers)


def _common(
    request: SummaryRequest, target: str, source: str, strategy: str, model: str, *, translated: bool
) -> dict[str, Any]:
    return {
        "format": request.format,
        "length": request.length,
        "target_lang": target,
        "source_lang": source,
        "strategy": strategy,
        "model": model,
        "translated": translated,
    }


def _unavailable(strategy: str, reason: str, retry_after_s: int) -> Problem:
    return Problem(
        "service-unavailable",
        f"the summarization backend is unavailable ({reason}); retry after {retry_after_s} s",
        headers={"Retry-After": str(retry_after_s), STRATEGY_HEADER: strategy},
    )
