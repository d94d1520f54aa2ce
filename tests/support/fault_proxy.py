"""A real TCP proxy that breaks HTTP/1.1 exchanges on purpose, between a client and a real server.

Each request read from the client gets one fate, drawn with a seeded generator:
- `pass`: forwarded, and the server's answer forwarded back;
- `drop`: forwarded, the server's whole answer read, then the client's connection closed without it (the work is
  done and the client cannot know);
- `delay`: forwarded, the answer held for `delay_s` (past the client's time-out), then the connection closed;
- `refuse`: never forwarded; the proxy itself answers 503 (as a load balancer with no healthy backend does).
The proxy runs its own event loop in a thread; `counts` says how often each fate was dealt.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections import Counter
from collections.abc import Sequence

FATES = ("pass", "drop", "delay", "refuse")
_REFUSAL_BODY = b'{"title":"Service Unavailable","status":503,"detail":"no healthy backend (fault proxy)"}'
REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\n"
    + f"Content-Length: {len(_REFUSAL_BODY)}\r\n\r\n".encode()
    + _REFUSAL_BODY
)


async def read_message(reader: asyncio.StreamReader) -> bytes | None:
    """One HTTP/1.1 message (head and body, by Content-Length or chunked), or None at the end of the stream."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    fields = {}
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        fields[name.strip().lower()] = value.strip()
    if fields.get(b"transfer-encoding", b"").lower() == b"chunked":
        body = b""
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            chunk = await reader.readexactly(size + 2)
            body += size_line + chunk
            if size == 0:
                return head + body
    length = int(fields.get(b"content-length", b"0"))
    return head + (await reader.readexactly(length) if length else b"")


class FaultProxy:
    def __init__(
        self,
        upstream_port: int,
        weights: Sequence[float] = (0.7, 0.1, 0.1, 0.1),
        *,
        delay_s: float = 1.0,
        seed: int = 0,
    ) -> None:
        self.upstream_port = upstream_port
        self.weights = list(weights)
        self.delay_s = delay_s
        self.rng = random.Random(seed)
        self.counts: Counter[str] = Counter()
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self._server = server
        self._ready.set()
        self.loop.run_forever()
        server.close()
        self.loop.run_until_complete(server.wait_closed())
        self.loop.close()

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        upstream: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        try:
            while True:
                request = await read_message(client_r)
                if request is None:
                    return
                fate = self.rng.choices(FATES, self.weights)[0]
                self.counts[fate] += 1
                if fate == "refuse":
                    client_w.write(REFUSAL)
                    await client_w.drain()
                    continue
                if upstream is None:
                    upstream = await asyncio.open_connection("127.0.0.1", self.upstream_port)
                upstream[1].write(request)
                await upstream[1].drain()
                answer = await read_message(upstream[0])
                if answer is None:
                    return
                if fate == "drop":
                    return
                if fate == "delay":
                    await asyncio.sleep(self.delay_s)
                    return
                client_w.write(answer)
                await client_w.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            for writer in (client_w, *([upstream[1]] if upstream else [])):
                writer.close()

    def __enter__(self) -> FaultProxy:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *_exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._close_connections(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)

    async def _close_connections(self) -> None:
        """Ends every exchange still held (a delayed answer), on this loop, before the loop closes."""
        self._server.close()
        held = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in held:
            task.cancel()
        await asyncio.gather(*held, return_exceptions=True)
