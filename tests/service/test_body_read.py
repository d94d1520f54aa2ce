"""How the app reads request bodies and calls its handlers, in process through the ASGI interface with fake
`receive` callables that say what the server sends (granian: a small body with `more_body` true, then an
empty last message; uvicorn: one message). Real servers are exercised by test_bad_input, test_access_e2e and
test_slow_clients."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import orjson
import pytest
from blacksheep import Application
from tahqiq.access import keys
from tahqiq.config import Settings
from tahqiq.store import open_store
from tahqiq.web.app import create_app

FIRST_PARTY = "0b7e4f3c-5a7e-4d2b-9c1f-2e3d4c5b6a70"
VERIFY = "/agents/access-core/verify-identity"
LIMIT = 1024
BODY_TIMEOUT_S = 0.2
Receive = Callable[[], Awaitable[dict[str, Any]]]


@pytest.fixture
async def served() -> AsyncIterator[tuple[Application, str]]:
    store = open_store("sqlite:///:memory:")
    await store.open()
    await store.migrate()
    app_key = keys.new_secret(keys.APP_KEY_PREFIX)
    await store.create_app(FIRST_PARTY, "platform", keys.key_hash(app_key), "p", time.time())
    settings = Settings(
        database_url="sqlite:///:memory:",
        secret_key=bytes(32),
        first_party_app_id=FIRST_PARTY,
        areas=("agents",),
        max_body_bytes=LIMIT,
        body_timeout_s=BODY_TIMEOUT_S,
    )
    app = create_app(settings, store)
    await app.start()
    try:
        yield app, app_key
    finally:
        await app.stop()


class Messages:
    """A `receive` that hands out the given messages and fails the request if asked for more."""

    def __init__(self, *messages: dict[str, Any]) -> None:
        self.messages = list(messages)
        self.calls = 0

    async def __call__(self) -> dict[str, Any]:
        self.calls += 1
        if not self.messages:
            raise AssertionError("receive() called after the last message the test provides")
        return self.messages.pop(0)


def chunk(body: bytes, more: bool) -> dict[str, Any]:
    return {"type": "http.request", "body": body, "more_body": more}


class Stalls(Messages):
    """A `receive` that hands out the given messages and then waits forever: a client that stops sending."""

    async def __call__(self) -> dict[str, Any]:
        if self.messages:
            return await super().__call__()
        self.calls += 1
        return await asyncio.get_running_loop().create_future()  # never done


async def sent(
    app: Application, app_key: str, receive: Receive, length: int | None
) -> tuple[int, dict[bytes, bytes], bytes]:
    """Status, headers and body of what the app sends for a POST to the verification route."""
    headers = [(b"host", b"testserver"), (b"content-type", b"application/json")]
    headers.append((b"x-service-app-key", app_key.encode()))
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": VERIFY,
        "raw_path": VERIFY.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }
    messages: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    await app(scope, receive, send)
    headers = {name.lower(): value for name, value in messages[0]["headers"]}
    return messages[0]["status"], headers, b"".join(m.get("body", b"") for m in messages[1:])


async def post(app: Application, app_key: str, receive: Receive, length: int | None) -> tuple[int, dict[str, Any]]:
    status, _headers, body = await sent(app, app_key, receive, length)
    return status, orjson.loads(body)


BODY = b'{"token": "not-a-jwt"}'


async def test_declared_length_arrived_is_the_whole_body(served: tuple[Application, str]) -> None:
    """granian's first message carries the body and `more_body`; the empty last one is not waited for."""
    app, app_key = served
    receive = Messages(chunk(BODY, True))
    status, answer = await post(app, app_key, receive, len(BODY))
    assert status == 200, answer
    assert answer["success"] is False and answer["error_code"] == "AUTH_INVALID"  # the token was read and judged
    assert receive.calls == 1


async def test_declared_length_in_several_messages(served: tuple[Application, str]) -> None:
    app, app_key = served
    receive = Messages(chunk(BODY[:5], True), chunk(BODY[5:12], True), chunk(BODY[12:], True))
    status, answer = await post(app, app_key, receive, len(BODY))
    assert status == 200 and answer["error_code"] == "AUTH_INVALID", answer
    assert receive.calls == 3


@pytest.mark.parametrize("last_empty", [True, False])
async def test_without_length_reads_to_the_last_message(served: tuple[Application, str], last_empty: bool) -> None:
    app, app_key = served
    messages = [chunk(BODY[:7], True), chunk(BODY[7:], last_empty)]
    if last_empty:
        messages.append(chunk(b"", False))
    receive = Messages(*messages)
    status, answer = await post(app, app_key, receive, None)
    assert status == 200 and answer["error_code"] == "AUTH_INVALID", answer
    assert receive.calls == len(messages)


async def test_one_message_without_more_body(served: tuple[Application, str]) -> None:
    """uvicorn's way: the whole body in one message marked as the last."""
    app, app_key = served
    receive = Messages(chunk(BODY, False))
    status, answer = await post(app, app_key, receive, len(BODY))
    assert status == 200 and answer["error_code"] == "AUTH_INVALID", answer


async def test_zero_length_reads_nothing(served: tuple[Application, str]) -> None:
    app, app_key = served
    receive = Messages()
    status, answer = await post(app, app_key, receive, 0)
    assert status == 422 and answer["error_code"] == "VALIDATION_ERROR", answer
    assert receive.calls == 0


async def test_oversized_stream_stops_at_the_limit(served: tuple[Application, str]) -> None:
    app, app_key = served
    piece = b"x" * (LIMIT // 2 + 1)
    receive = Messages(chunk(piece, True), chunk(piece, True), chunk(piece, False))
    status, answer = await post(app, app_key, receive, None)
    assert status == 413 and answer["error_code"] == "PAYLOAD_TOO_LARGE", answer
    assert receive.calls == 2  # refused as soon as the limit is passed, the rest never read


async def test_oversized_declared_length_reads_nothing(served: tuple[Application, str]) -> None:
    app, app_key = served
    receive = Messages()
    status, answer = await post(app, app_key, receive, LIMIT + 1)
    assert status == 413 and str(LIMIT) in answer["detail"], answer
    assert receive.calls == 0


@pytest.mark.parametrize("first", [[], [chunk(BODY[:5], True)]], ids=["no-body-yet", "part-of-the-body"])
async def test_a_body_that_stops_coming_gets_408_and_closes(
    served: tuple[Application, str], first: list[dict[str, Any]]
) -> None:
    app, app_key = served
    started = time.monotonic()
    status, headers, body = await sent(app, app_key, Stalls(*first), len(BODY))
    took = time.monotonic() - started
    answer = orjson.loads(body)
    assert status == 408 and answer["error_code"] == "REQUEST_TIMEOUT", answer
    assert answer["type"].endswith("/problems/request-timeout") and answer["status"] == 408
    assert f"{BODY_TIMEOUT_S:g} s" in answer["detail"], answer
    assert headers[b"connection"] == b"close"  # the rest of the body may still come: the connection is done
    assert BODY_TIMEOUT_S <= took < BODY_TIMEOUT_S + 1


async def test_a_client_that_leaves_is_one_debug_line(
    served: tuple[Application, str], caplog: pytest.LogCaptureFixture
) -> None:
    app, app_key = served
    receive = Messages(chunk(BODY[:5], True), {"type": "http.disconnect"})
    with caplog.at_level(logging.DEBUG, logger="tahqiq"):
        status, _headers, body = await sent(app, app_key, receive, len(BODY))
    assert status == 499 and body == b""  # nobody receives it; the access log shows the client's doing
    assert [(r.levelno, r.exc_info) for r in caplog.records] == [(logging.DEBUG, None)], caplog.text
    assert VERIFY in caplog.records[0].getMessage()


async def test_handlers_are_called_unwrapped(served: tuple[Application, str]) -> None:
    """BlackSheep wraps a handler whose return annotation is not the Response class (two coroutines more per
    request); every route of the app is called as it is."""
    app, _ = served
    handlers = [route.handler for routes in app.router.routes.values() for route in routes]
    assert len(handlers) >= 10
    for handler in handlers:
        assert not hasattr(handler, "__wrapped__"), handler
        assert handler.__qualname__.endswith(".run"), handler.__qualname__
