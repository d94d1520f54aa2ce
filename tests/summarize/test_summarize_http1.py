"""The upstreams' HTTP/1.1 client (tahqiq/http1.py) against real local servers over real sockets, on asyncio's
own loop and on uvloop (the service's): the request it sends, keep-alive reuse and its bound, reconnecting after
the server closed an idle connection, the one resend (and when there is none), chunked and close-framed bodies,
`Connection: close`, malformed and cut answers, time-outs, refused connections and TLS. A property test feeds the
parser every framing of random bodies, split at random points.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import pytest
import trustme
import uvloop
from hypothesis import given, settings
from hypothesis import strategies as st
from tahqiq.http1 import (
    ClientClosed,
    ConnectFailed,
    ConnectionLost,
    Http1Client,
    MalformedResponse,
    Response,
    _Connection,
)
from tahqiq.summarize.upstream import ChatClient, Upstream, UpstreamFailed

from tests.support.server import free_port

Runner = Callable[[Coroutine[Any, Any, Any]], Any]
BODY = b'{"choices":[{"message":{"role":"assistant","content":"A short summary."}}],"model":"m"}'


def ok(body: bytes = BODY, *headers: str) -> bytes:
    extra = "".join(f"{h}\r\n" for h in headers).encode()
    return b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n%bContent-Length: %d\r\n\r\n%b" % (
        extra,
        len(body),
        body,
    )


def chunked(body: bytes, sizes: list[int], trailer: bytes = b"") -> bytes:
    out = [b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"]
    rest = body
    for size in sizes:
        piece, rest = rest[:size], rest[size:]
        if piece:
            out.append(b"%x\r\n%b\r\n" % (len(piece), piece))
    if rest:
        out.append(b"%x;ext=1\r\n%b\r\n" % (len(rest), rest))
    out.append(b"0\r\n" + trailer + b"\r\n")
    return b"".join(out)


@dataclass
class Answer:
    """What the server does with one request: write `raw` (after `delay_s`), then close if `close`; `raw` None:
    close without answering."""

    raw: bytes | None = None
    delay_s: float = 0.0
    close: bool = False


class Server:
    """A local HTTP/1.1 server answering each request as scripted (then `default`); it counts the connections
    and keeps every request it read, raw."""

    def __init__(self, *script: Answer, default: Answer | None = None, tls: ssl.SSLContext | None = None) -> None:
        self.script = list(script)
        self.default = default or Answer(ok())
        self.tls = tls
        self.connections = 0
        self.requests: list[bytes] = []
        self.in_flight = 0
        self.most_in_flight = 0
        self._writers: list[asyncio.StreamWriter] = []

    async def __aenter__(self) -> Server:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.tls)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"{'https' if self.tls else 'http'}://127.0.0.1:{port}/v1/chat/completions"
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self._server.close()
        for writer in self._writers:
            writer.close()
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self._writers.append(writer)
        try:
            while (request := await read_request(reader)) is not None:
                self.requests.append(request)
                answer = self.script.pop(0) if self.script else self.default
                self.in_flight += 1
                self.most_in_flight = max(self.most_in_flight, self.in_flight)
                try:
                    await asyncio.sleep(answer.delay_s)
                finally:
                    self.in_flight -= 1
                if answer.raw is None:
                    break
                writer.write(answer.raw)
                await writer.drain()
                if answer.close:
                    break
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()


async def read_request(reader: asyncio.StreamReader) -> bytes | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return head + await reader.readexactly(length)


@pytest.fixture(params=["asyncio", "uvloop"])
def run(request: pytest.FixtureRequest) -> Runner:
    runner: Runner = uvloop.run if request.param == "uvloop" else asyncio.run
    return runner


async def post(client: Http1Client, url: str, body: bytes = b'{"model":"m"}', **headers: str) -> Response:
    return await client.post(client.prepare_post(url, headers), body)


# The request ----------------------------------------------------------------------------------------------------


def test_request_is_sent_as_built(run: Runner) -> None:
    async def scenario() -> None:
        async with Server() as server:
            client = Http1Client(2)
            payload = '{"model":"m","messages":[{"content":"نص"}]}'.encode()
            r = await post(client, server.url, payload, **{"Content-Type": "application/json", "Authorization": "B k"})
            await client.close()
        assert (r.status, r.body, r.header("content-type"), r.header("X-Missing")) == (
            200,
            BODY,
            "application/json",
            None,
        )
        port = server.url.split(":")[2].split("/")[0]
        assert server.requests == [
            b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:%b\r\nConnection: keep-alive\r\n"
            b"Content-Type: application/json\r\nAuthorization: B k\r\nContent-Length: %d\r\n\r\n%b"
            % (port.encode(), len(payload), payload)
        ]

    run(scenario())


@pytest.mark.parametrize(
    ("name", "value"), [("X-Key", "a\r\nInjected: 1"), ("X-Key", "a\nb"), ("Bad:Name", "v"), ("X-Key", "كلمة")]
)
def test_headers_that_cannot_be_sent_are_refused(name: str, value: str) -> None:
    with pytest.raises(ValueError):
        Http1Client(1).prepare_post("http://127.0.0.1:1/v1", {name: value})


@pytest.mark.parametrize("url", ["ftp://host/v1", "http:///v1", "/v1/chat"])
def test_only_http_urls_are_accepted(url: str) -> None:
    with pytest.raises(ValueError):
        Http1Client(1).prepare_post(url, {})


# Keep-alive -----------------------------------------------------------------------------------------------------


def test_keep_alive_reuses_one_connection(run: Runner) -> None:
    async def scenario() -> None:
        async with Server() as server:
            client = Http1Client(2)
            target = client.prepare_post(server.url, {})
            bodies = [(await client.post(target, b"{}")).body for _ in range(5)]
            assert client.connections_made(target) == 1
            await client.close()
        assert bodies == [BODY] * 5 and len(server.requests) == 5 and server.connections == 1

    run(scenario())


def test_connections_are_bounded_per_upstream(run: Runner) -> None:
    async def scenario() -> None:
        async with Server(default=Answer(ok(), delay_s=0.05)) as server:
            client = Http1Client(5, max_connections=2)
            target = client.prepare_post(server.url, {})
            answers = await asyncio.gather(*(client.post(target, b"{}") for _ in range(6)))
            await client.close()
        assert [a.status for a in answers] == [200] * 6
        assert server.connections == 2 and server.most_in_flight == 2 and len(server.requests) == 6

    run(scenario())


def test_server_closing_an_idle_connection_means_a_new_one(run: Runner) -> None:
    async def scenario() -> None:
        # The server closes after answering without saying so (an idle time-out): the client must not reuse it.
        async with Server(default=Answer(ok(), close=True)) as server:
            client = Http1Client(2)
            target = client.prepare_post(server.url, {})
            for _ in range(3):
                assert (await client.post(target, b"{}")).body == BODY
                await asyncio.sleep(0.05)  # the close reaches the client while the connection is idle
            await client.close()
        assert server.connections == 3 and len(server.requests) == 3

    run(scenario())


def test_connection_idle_too_long_is_not_reused(run: Runner) -> None:
    async def scenario() -> None:
        async with Server() as server:
            # idle_s is not tight: on a loaded machine the second request may come tens of milliseconds later.
            client = Http1Client(2, idle_s=0.3)
            target = client.prepare_post(server.url, {})
            await client.post(target, b"{}")
            await client.post(target, b"{}")  # at once: reused
            await asyncio.sleep(0.4)
            await client.post(target, b"{}")  # idle past idle_s: a new connection
            await client.close()
        assert server.connections == 2 and len(server.requests) == 3

    run(scenario())


def test_stale_pooled_connection_is_resent_once_when_nothing_came_back(run: Runner) -> None:
    async def scenario() -> None:
        # The second request finds its pooled connection closed by the server without an answer (the race of an
        # idle time-out): it is sent again on a new connection.
        async with Server(Answer(ok()), Answer(None)) as server:
            client = Http1Client(2)
            target = client.prepare_post(server.url, {})
            await client.post(target, b'{"n":1}')
            r = await client.post(target, b'{"n":2}')
            await client.close()
        assert r.body == BODY and server.connections == 2
        assert [req.rsplit(b"\r\n\r\n", 1)[1] for req in server.requests] == [b'{"n":1}', b'{"n":2}', b'{"n":2}']

    run(scenario())


def test_a_new_connection_closed_without_an_answer_is_not_resent(run: Runner) -> None:
    async def scenario() -> None:
        async with Server(default=Answer(None)) as server:
            client = Http1Client(2)
            with pytest.raises(ConnectionLost):
                await post(client, server.url)
            await client.close()
        assert len(server.requests) == 1

    run(scenario())


def test_a_partly_answered_request_is_never_resent(run: Runner) -> None:
    async def scenario() -> None:
        async with Server(Answer(ok()), Answer(b"HTTP/1.1 200 OK\r\nContent-Le", close=True)) as server:
            client = Http1Client(2)
            target = client.prepare_post(server.url, {})
            await client.post(target, b"{}")
            with pytest.raises(MalformedResponse):
                await client.post(target, b"{}")
            await client.close()
        assert len(server.requests) == 2

    run(scenario())


# Framing --------------------------------------------------------------------------------------------------------


def test_chunked_answer_is_joined_and_the_connection_kept(run: Runner) -> None:
    async def scenario() -> None:
        answer = chunked(BODY, [1, 7, 30], trailer=b"X-Trailer: yes\r\n")
        async with Server(Answer(answer), Answer(answer)) as server:
            client = Http1Client(2)
            target = client.prepare_post(server.url, {})
            bodies = [(await client.post(target, b"{}")).body for _ in range(2)]
            await client.close()
        assert bodies == [BODY, BODY] and server.connections == 1

    run(scenario())


def test_connection_close_is_honoured(run: Runner) -> None:
    async def scenario() -> None:
        # The server says `Connection: close` but keeps the socket open: the client must close it and not reuse it.
        async with Server(Answer(ok(BODY, "Connection: close"))) as server:
            client = Http1Client(2)
            target = client.prepare_post(server.url, {})
            first = await client.post(target, b"{}")
            second = await client.post(target, b"{}")
            await client.close()
        assert first.body == second.body == BODY and server.connections == 2

    run(scenario())


def test_http10_answer_is_not_kept_alive(run: Runner) -> None:
    async def scenario() -> None:
        http10 = b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n%b" % (len(BODY), BODY)
        async with Server(default=Answer(http10)) as server:
            client = Http1Client(2)
            target = client.prepare_post(server.url, {})
            for _ in range(2):
                assert (await client.post(target, b"{}")).body == BODY
            await client.close()
        assert server.connections == 2

    run(scenario())


@pytest.mark.parametrize("header", [b"Connection: close", b"Transfer-Encoding: identity-ish"])
def test_body_framed_by_the_close(run: Runner, header: bytes) -> None:
    """No length and no chunking (a transfer coding that is not chunked does not frame the body either)."""

    async def scenario() -> None:
        raw = b"HTTP/1.1 200 OK\r\n%b\r\n\r\n%b" % (header, BODY)
        async with Server(Answer(raw, close=True)) as server:
            client = Http1Client(2)
            r = await post(client, server.url)
            await client.close()
        assert (r.status, r.body) == (200, BODY)

    run(scenario())


def test_interim_answer_is_skipped_and_headers_are_read(run: Runner) -> None:
    async def scenario() -> None:
        raw = b"HTTP/1.1 100 Continue\r\n\r\n" + ok(b"{}", "Retry-After: 7").replace(b"200 OK", b"503 Busy")
        async with Server(Answer(raw)) as server:
            client = Http1Client(2)
            r = await post(client, server.url)
            await client.close()
        assert (r.status, r.body, r.header("retry-after")) == (503, b"{}", "7")

    run(scenario())


@pytest.mark.parametrize(
    "raw",
    [
        b"HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n",
        b"<html>not http</html>\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nbody\r\n0\r\n\r\n",
    ],
    ids=["status-line", "not-http", "content-length", "chunk-size"],
)
def test_malformed_answer_is_an_error_and_the_connection_dropped(run: Runner, raw: bytes) -> None:
    async def scenario() -> None:
        async with Server(Answer(raw)) as server:
            client = Http1Client(2)
            target = client.prepare_post(server.url, {})
            with pytest.raises(MalformedResponse, match="malformed answer"):
                await client.post(target, b"{}")
            assert (await client.post(target, b"{}")).body == BODY  # on a new connection
            await client.close()
        assert server.connections == 2

    run(scenario())


def test_body_cut_short_is_an_error(run: Runner) -> None:
    async def scenario() -> None:
        async with Server(Answer(b'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"cut', close=True)) as server:
            client = Http1Client(2)
            with pytest.raises(MalformedResponse, match="middle of the answer"):
                await post(client, server.url)
            await client.close()

    run(scenario())


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_an_answer_past_the_size_bound_is_an_error_and_the_connection_dropped(run: Runner, framing: str) -> None:
    big = b'{"x":"' + b"a" * 1_000 + b'"}'

    def answer(body: bytes) -> bytes:
        return ok(body) if framing == "content-length" else chunked(body, [300, 300])

    async def scenario() -> None:
        at_bound = b"b" * (len(big) - 1)
        async with Server(Answer(answer(big)), Answer(answer(at_bound))) as server:
            client = Http1Client(2, max_answer_bytes=len(big) - 1)
            target = client.prepare_post(server.url, {})
            with pytest.raises(MalformedResponse, match=f"larger than {len(big) - 1} bytes"):
                await client.post(target, b"{}")
            assert (await client.post(target, b"{}")).body == at_bound  # at the bound: whole, on a new connection
            await client.close()
        assert server.connections == 2

    run(scenario())


# Time-outs, refusals, TLS ---------------------------------------------------------------------------------------


def test_slow_answer_times_out_and_its_connection_is_dropped(run: Runner) -> None:
    async def scenario() -> None:
        # The time-out is not tight (0.5 s) because the request after it opens a new connection under the same
        # bound, and a loaded CI machine once took longer than 0.2 s for that.
        async with Server(Answer(ok(), delay_s=5.0)) as server:
            client = Http1Client(0.5)
            target = client.prepare_post(server.url, {})
            started = time.monotonic()
            with pytest.raises(TimeoutError):
                await client.post(target, b"{}")
            assert 0.45 < time.monotonic() - started < 2.0
            assert (await client.post(target, b"{}")).body == BODY
            await client.close()
        assert server.connections == 2

    run(scenario())


def test_refused_connection(run: Runner) -> None:
    async def scenario() -> None:
        client = Http1Client(2)
        with pytest.raises(ConnectFailed, match=r"could not connect to 127\.0\.0\.1"):
            await post(client, f"http://127.0.0.1:{free_port()}/v1/chat/completions")
        await client.close()

    run(scenario())


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


def tls_server_context(ca: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    return context


def test_https_upstream(run: Runner, ca: trustme.CA) -> None:
    async def scenario() -> None:
        trusting = ssl.create_default_context()
        ca.configure_trust(trusting)
        async with Server(tls=tls_server_context(ca)) as server:
            client = Http1Client(2, ssl_context=trusting)
            target = client.prepare_post(server.url, {})
            bodies = [(await client.post(target, b"{}")).body for _ in range(3)]
            await client.close()
        assert bodies == [BODY] * 3 and server.connections == 1

    run(scenario())


def test_https_upstream_with_an_untrusted_certificate_is_refused(run: Runner, ca: trustme.CA) -> None:
    async def scenario() -> None:
        async with Server(tls=tls_server_context(ca)) as server:
            client = Http1Client(2)  # the system's CAs: the test's own CA is not one of them
            with pytest.raises(ConnectFailed, match="SSLCertVerificationError"):
                await post(client, server.url)
            await client.close()
        assert server.requests == []

    run(scenario())


def test_time_out_covers_the_tls_handshake(run: Runner) -> None:
    async def scenario() -> None:
        async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.read()  # accepts, never speaks: the handshake cannot finish
            writer.close()

        server = await asyncio.start_server(silent, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        client = Http1Client(0.2)
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            await post(client, f"https://127.0.0.1:{port}/v1/chat/completions")
        assert time.monotonic() - started < 0.6
        await client.close()
        server.close()

    run(scenario())


# The parser, fed any framing split anywhere -----------------------------------------------------------------------


class _Transport:
    """Enough of a transport for `_Connection`: it keeps what was written."""

    def __init__(self) -> None:
        self.written = b""
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True


def feed(raw: bytes, cuts: list[int], close_at_end: bool) -> Coroutine[Any, Any, Response]:
    async def scenario() -> Response:
        conn = _Connection()
        conn.connection_made(_Transport())  # type: ignore[arg-type]
        answer = conn.send(b"POST / HTTP/1.1\r\n\r\n")
        start = 0
        for cut in [*sorted(c % (len(raw) + 1) for c in cuts), len(raw)]:
            if cut > start:
                conn.data_received(raw[start:cut])
                start = cut
        if close_at_end:
            conn.connection_lost(None)
        return await answer

    return scenario()


@settings(max_examples=150, deadline=None)
@given(
    body=st.binary(max_size=600),
    framing=st.sampled_from(["length", "chunked", "close"]),
    sizes=st.lists(st.integers(1, 200), max_size=6),
    cuts=st.lists(st.integers(0, 2000), max_size=8),
)
def test_any_framing_split_anywhere_gives_the_body(
    body: bytes, framing: str, sizes: list[int], cuts: list[int]
) -> None:
    if framing == "length":
        raw = ok(body, "X-Padding: " + "p" * len(sizes))
    elif framing == "chunked":
        raw = chunked(body, sizes)
    else:
        raw = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + body
    response = asyncio.run(feed(raw, cuts, close_at_end=framing == "close"))
    assert (response.status, response.body) == (200, body)


# The chat client over it ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (Answer(b"HTTP/1.1 2x0 OK\r\n\r\n"), "malformed answer"),
        (Answer(b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{", close=True), "middle of the answer"),
        (Answer(None), "closed before the answer"),
        (Answer(ok(), delay_s=1.0), "no answer within 0.2 s"),
    ],
    ids=["malformed", "cut", "hung-up", "slow"],
)
def test_chat_client_turns_client_failures_into_upstream_failures(run: Runner, answer: Answer, reason: str) -> None:
    async def scenario() -> None:
        async with Server(answer) as server:
            client = ChatClient(0.2, 0)
            await client.start()
            upstream = Upstream("gateway", server.url.removesuffix("/chat/completions"), "m", "k")
            with pytest.raises(UpstreamFailed, match=reason):
                await client.complete(upstream, [{"role": "user", "content": "x"}])
            await client.close()

    run(scenario())


def test_chat_client_refuses_a_key_it_cannot_send(run: Runner) -> None:
    async def scenario() -> None:
        async with Server() as server:
            client = ChatClient(1, 0)
            await client.start()
            upstream = Upstream("provider", server.url.removesuffix("/chat/completions"), "m", "key\r\nX-Injected: 1")
            with pytest.raises(UpstreamFailed, match="cannot be called"):
                await client.complete(upstream, [{"role": "user", "content": "x"}])
            await client.close()
        assert server.connections == 0

    run(scenario())


def test_closing_the_client_ends_the_requests_it_runs(run: Runner) -> None:
    async def scenario() -> None:
        async with Server(Answer(ok()), default=Answer(ok(), delay_s=5)) as server:
            client = Http1Client(10)
            target = client.prepare_post(server.url, {})
            await client.post(target, b"{}")  # one idle connection, then two busy ones
            running = [asyncio.ensure_future(client.post(target, b"{}")) for _ in range(2)]
            while len(server.requests) < 3:
                await asyncio.sleep(0.01)
            started = time.monotonic()
            await client.close()
            for request in running:
                with pytest.raises(ClientClosed):
                    await request
            assert time.monotonic() - started < 1
            with pytest.raises(ClientClosed):
                await client.post(target, b"{}")

    run(scenario())
