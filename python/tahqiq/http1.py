"""A small HTTP/1.1 client on asyncio for the chat-completions upstreams: POSTs over kept-alive connections.

Why not aiohttp: its client was most of a gateway request's own CPU. This one does only what the upstream calls
need: the request head is built once per upstream as bytes, each call adds Content-Length and the body and writes
them in one `transport.write`, and the answer is parsed as it arrives by an `asyncio.Protocol` (asyncio streams
would add a buffer and a task wake-up per read), so it costs little more than a bare exchange.

The parser is `httptools` (llhttp in C, MIT; already installed as BlackSheep's own dependency) over h11 (pure
Python): much faster, where h11 would have doubled the client's cost. The figures of both choices: see
docs/benchmarks.md, "HTTP client".

- One pool per origin (scheme, host, port): at most `max_connections` requests in flight, each on its own
  connection; idle connections are reused last-in first-out; one the server closed is dropped; one idle for more
  than `idle_s` is closed rather than reused.
- A request whose pooled connection turns out dead before any byte of the answer arrived (the server closed it
  while it was idle, so it never saw the request) is sent once more, on a new connection. Once a byte of the
  answer has arrived, the request is never sent again: a POST must not be done twice.
- One deadline per request covers connecting, the TLS handshake, sending and receiving (and the one resend):
  past it, TimeoutError, and the connection is closed (its state is unknown).
- Bodies framed by Content-Length, chunked, or by the server closing the connection; `Connection: close` and
  HTTP/1.0 answers are honoured (the connection is not reused); 1xx interim answers are skipped.
- An answer's body is bounded (`max_answer_bytes`, by default `MAX_ANSWER_BYTES`, 8 MiB; a summary is a few
  KB): past it the exchange fails with MalformedResponse and the connection is dropped, so an upstream that sends
  without end cannot grow the service's memory until the deadline.
- `close()` closes every connection, busy ones too: requests still running end at once with ClientClosed (the
  service's stop waits for its requests first, for a bounded time).
- Failures are HTTPClientError subclasses (ConnectFailed, ConnectionLost, MalformedResponse, ClientClosed) or
  TimeoutError; their messages never hold header values (the Authorization header is one).
"""

from __future__ import annotations

import asyncio
import email.utils
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

import httptools

__all__ = [
    "ClientClosed",
    "ConnectFailed",
    "ConnectionLost",
    "HTTPClientError",
    "Http1Client",
    "MalformedResponse",
    "PreparedPost",
    "Response",
]


MAX_ANSWER_BYTES = 8 * 1024 * 1024  # an answer's body; a chat completion holding a summary is a few KB


class HTTPClientError(Exception):
    """The exchange failed before a whole answer arrived."""


class ConnectFailed(HTTPClientError):
    """No connection could be made: refused, unreachable, unknown host, or the TLS handshake failed."""


class ConnectionLost(HTTPClientError):
    """The connection closed before any byte of the answer arrived."""


class MalformedResponse(HTTPClientError):
    """The answer is not valid HTTP/1.1, or it stopped in the middle."""


class ClientClosed(HTTPClientError):
    """The client was closed (the service is stopping) before the answer came."""


@dataclass(frozen=True, slots=True)
class Response:
    status: int
    headers: tuple[tuple[bytes, bytes], ...]  # in the order received, names lower-cased
    body: bytes

    def header(self, name: str) -> str | None:
        """The first value of header `name` (any case), or None."""
        wanted = name.lower().encode("latin-1")
        for key, value in self.headers:
            if key == wanted:
                return value.decode("latin-1")
        return None


class _Connection(asyncio.Protocol):
    """One connection: one exchange at a time, its answer parsed as the bytes arrive."""

    def __init__(self, max_answer_bytes: int = MAX_ANSWER_BYTES) -> None:
        self.transport: asyncio.Transport | None = None
        self._max_answer_bytes = max_answer_bytes
        self._body_bytes = 0
        self.closed = False
        self.reusable = False  # set when an answer completed on a connection the server keeps open
        self.idle_since = 0.0
        self._waiter: asyncio.Future[Response] | None = None
        self._parser = httptools.HttpResponseParser(self)
        self._received = False
        self._status = 0
        self._headers: list[tuple[bytes, bytes]] = []
        self._body: list[bytes] = []
        self._framed = False  # Content-Length or Transfer-Encoding: the body's end is known without a close
        self._headers_done = False
        self._unsolicited = False

    # The exchange ------------------------------------------------------------------------------------------------

    def send(self, request: bytes) -> asyncio.Future[Response]:
        transport = self.transport
        if self.closed or transport is None or transport.is_closing():
            raise ConnectionLost("the connection was closed")
        self.reusable = False
        self._received = False
        self._headers = []
        self._body = []
        self._body_bytes = 0
        self._framed = False
        self._headers_done = False
        self._waiter = waiter = asyncio.get_running_loop().create_future()
        transport.write(request)
        return waiter

    def close(self) -> None:
        self.closed = True
        self.reusable = False
        if self.transport is not None:
            self.transport.close()

    def abort(self, error: Exception) -> None:
        """Ends the exchange running on this connection with `error`, and the connection."""
        self._fail(error)
        self.close()

    def _fail(self, error: Exception) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_exception(error)

    # asyncio.Protocol ---------------------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's TCPTransport is not a subclass, only alike

    def data_received(self, data: bytes) -> None:
        waiter = self._waiter
        if waiter is None or waiter.done():
            self.close()  # bytes nobody asked for: what follows on this connection can't be trusted
            return
        self._received = True
        try:
            self._parser.feed_data(data)
        except (httptools.HttpParserError, httptools.HttpParserUpgrade) as exc:
            self._fail(MalformedResponse(f"malformed answer ({type(exc).__name__}: {exc})"))
            self.close()
            return
        if self._unsolicited:
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.reusable = False
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        if exc is None and self._headers_done and not self._framed:
            self._complete(keep_alive=False)  # the body was framed by the close, which is how it ends
        elif self._received:
            waiter.set_exception(MalformedResponse("the connection closed in the middle of the answer"))
        else:
            waiter.set_exception(ConnectionLost("the connection closed before the answer"))

    # httptools callbacks ------------------------------------------------------------------------------------------

    def on_message_begin(self) -> None:
        waiter = self._waiter
        if waiter is None or waiter.done():
            self._unsolicited = True

    def on_header(self, name: bytes, value: bytes) -> None:
        key = name.lower()
        if key == b"content-length" or (key == b"transfer-encoding" and value.rstrip().lower().endswith(b"chunked")):
            self._framed = True
        self._headers.append((key, value))

    def on_headers_complete(self) -> None:
        self._status = self._parser.get_status_code()
        self._headers_done = True

    def on_body(self, body: bytes) -> None:
        self._body_bytes += len(body)
        if self._body_bytes > self._max_answer_bytes:
            self._unsolicited = True  # nothing more of this answer is kept; data_received closes the connection
            self._fail(MalformedResponse(f"the answer is larger than {self._max_answer_bytes} bytes"))
            return
        self._body.append(body)

    def on_message_complete(self) -> None:
        if self._unsolicited:
            return
        if self._status < 200:  # an interim answer (100 Continue, 103 Early Hints): the real one follows
            self._headers = []
            self._body = []
            self._body_bytes = 0
            self._framed = False
            self._headers_done = False
            return
        self._complete(keep_alive=self._parser.should_keep_alive())

    def _complete(self, *, keep_alive: bool) -> None:
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        body = self._body[0] if len(self._body) == 1 else b"".join(self._body)
        self.reusable = keep_alive and not self.closed
        waiter.set_result(Response(self._status, tuple(self._headers), body))


class _Pool:
    """The connections to one origin."""

    def __init__(
        self,
        host: str,
        port: int,
        ssl_context: ssl.SSLContext | None,
        max_connections: int,
        idle_s: float,
        max_answer_bytes: int,
    ) -> None:
        self.host = host
        self._max_answer_bytes = max_answer_bytes
        self.port = port
        self._ssl = ssl_context
        self._idle_s = idle_s
        self._idle: list[_Connection] = []
        self._busy: set[_Connection] = set()  # exchanging now: closing the client ends their requests
        self._closed = False
        self._slots = asyncio.Semaphore(max_connections)
        self.connections_made = 0  # for tests and diagnostics: how often a new connection was needed

    async def exchange(self, request: bytes) -> Response:
        async with self._slots:
            if self._closed:
                raise ClientClosed("the client was closed")
            conn = self._take_idle()
            reused = conn is not None
            if conn is None:
                conn = await self._connect()
            try:
                self._busy.add(conn)
                try:
                    response = await conn.send(request)
                except ConnectionLost:
                    if not reused:
                        raise
                    conn.close()  # the server had closed it while idle: it never saw this request
                    self._busy.discard(conn)
                    conn = await self._connect()
                    self._busy.add(conn)
                    response = await conn.send(request)
            except BaseException:
                conn.close()  # failed, timed out or cancelled: what the connection holds now is unknown
                raise
            finally:
                self._busy.discard(conn)
            if conn.reusable and not self._closed:
                conn.idle_since = asyncio.get_running_loop().time()
                self._idle.append(conn)
            else:
                conn.close()
            return response

    def _take_idle(self) -> _Connection | None:
        now = asyncio.get_running_loop().time()
        while self._idle:
            conn = self._idle.pop()
            if conn.closed:
                continue
            if now - conn.idle_since > self._idle_s:
                conn.close()
                continue
            return conn
        return None

    async def _connect(self) -> _Connection:
        loop = asyncio.get_running_loop()
        try:
            _, conn = await loop.create_connection(
                lambda: _Connection(self._max_answer_bytes),
                self.host,
                self.port,
                ssl=self._ssl,
                server_hostname=self.host if self._ssl else None,
            )
        except OSError as exc:  # refused, unreachable, unknown host (gaierror), TLS failures (SSLError)
            raise ConnectFailed(f"could not connect to {self.host}:{self.port} ({type(exc).__name__})") from None
        if self._closed:  # closed while connecting
            conn.close()
            raise ClientClosed("the client was closed")
        self.connections_made += 1
        return conn

    def close(self) -> None:
        """Closes every connection; requests running on them end with ClientClosed."""
        self._closed = True
        for conn in [*self._idle, *self._busy]:
            conn.abort(ClientClosed("the client was closed before the answer came"))
        self._idle.clear()
        self._busy.clear()


@dataclass(frozen=True, slots=True)
class PreparedPost:
    """A POST to one URL with fixed headers: the request head up to Content-Length's value, built once."""

    pool: _Pool
    head: bytes


class Http1Client:
    """Pooled HTTP/1.1 POSTs; `close()` closes every connection."""

    def __init__(
        self,
        timeout_s: float,
        *,
        max_connections: int = 256,
        idle_s: float = 30.0,
        ssl_context: ssl.SSLContext | None = None,
        max_answer_bytes: int = MAX_ANSWER_BYTES,
    ) -> None:
        self.timeout_s = timeout_s
        self._max_answer_bytes = max_answer_bytes
        self._max_connections = max_connections
        self._idle_s = idle_s
        self._ssl_context = ssl_context  # None: the system's trusted CAs, made when the first https URL is prepared
        self._pools: dict[tuple[str, str, int], _Pool] = {}

    def prepare_post(self, url: str, headers: Mapping[str, str]) -> PreparedPost:
        """A POST to `url` (http or https) with `headers` (Host, Content-Length and Connection are added)."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http:// or https:// URL: {url!r}")
        https = parts.scheme == "https"
        default_port = 443 if https else 80
        port = parts.port or default_port
        host = parts.hostname
        origin = (parts.scheme, host, port)
        pool = self._pools.get(origin)
        if pool is None:
            context = None
            if https:
                if self._ssl_context is None:
                    self._ssl_context = ssl.create_default_context()
                context = self._ssl_context
            pool = self._pools[origin] = _Pool(
                host, port, context, self._max_connections, self._idle_s, self._max_answer_bytes
            )
        host_header = f"[{host}]" if ":" in host else host
        if port != default_port:
            host_header += f":{port}"
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        lines = [f"POST {target} HTTP/1.1", f"Host: {host_header}", "Connection: keep-alive"]
        for name, value in headers.items():
            if any(c in name or c in value for c in "\r\n\0") or ":" in name or not name:
                raise ValueError(f"header {name!r} has a name or value that cannot be sent")
            lines.append(f"{name}: {value}")
        try:
            head = ("\r\n".join(lines) + "\r\nContent-Length: ").encode("latin-1")
        except UnicodeEncodeError:
            raise ValueError("a header value has characters HTTP/1.1 cannot carry (not Latin-1)") from None
        return PreparedPost(pool, head)

    async def post(self, target: PreparedPost, body: bytes) -> Response:
        """The answer to POSTing `body`; HTTPClientError or TimeoutError when there is none."""
        request = b"%b%d\r\n\r\n%b" % (target.head, len(body), body)
        async with asyncio.timeout(self.timeout_s):
            return await target.pool.exchange(request)

    def connections_made(self, target: PreparedPost) -> int:
        return target.pool.connections_made

    async def close(self) -> None:
        for pool in self._pools.values():
            pool.close()
        self._pools.clear()


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
