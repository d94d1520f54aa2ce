"""The wrk script of the access benchmark (benches/bench_access.lua_request) sends the request it was given, Arabic body
included, with a new UUID v4 Idempotency-Key each time: a repeated key would be answered as a replay and measure the
wrong path, and a script that wrk cannot load leaves it sending plain GETs."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from benches import bench_access
from tests.support.server import free_port

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
BODY = '{"work_type": "split", "results": [{"text": "الأرض مسطحة"}]}'


def serve_and_record(port: int, requests: list[bytes], ready: threading.Event, stop: threading.Event) -> None:
    """A keep-alive HTTP/1.1 server answering every request 200 with no body, keeping each request's bytes."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                declared = re.search(rb"(?i)content-length: (\d+)", head)
                length = int(declared[1]) if declared else 0  # none: a GET, kept for the test to refuse
                requests.append(head + await reader.readexactly(length))
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", port)
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.05)
        server.close()

    asyncio.run(main())


def test_every_request_carries_the_body_headers_and_a_new_uuid4_key() -> None:
    assert shutil.which("wrk") is not None, "the access benchmark needs wrk (apt-get install wrk)"
    port = free_port()
    requests: list[bytes] = []
    ready, stop = threading.Event(), threading.Event()
    thread = threading.Thread(target=serve_and_record, args=(port, requests, ready, stop), daemon=True)
    thread.start()
    assert ready.wait(5)
    script = bench_access.lua_request("POST", "/submit/here", {"X-Token": "t0k"}, BODY, new_key=True)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "script.lua").write_text(script)
        subprocess.run(
            ["wrk", "-t1", "-c4", "-d1s", "-s", "script.lua", f"http://127.0.0.1:{port}/"],
            cwd=tmp,
            check=True,
            capture_output=True,
        )
    stop.set()
    thread.join(5)
    assert len(requests) > 100
    keys = []
    for raw in requests:
        head, _, body = raw.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        assert lines[0] == "POST /submit/here HTTP/1.1"
        headers = dict(line.split(": ", 1) for line in lines[1:])
        assert headers["X-Token"] == "t0k" and headers["Content-Type"] == "application/json"
        assert body.decode() == BODY
        keys.append(headers["Idempotency-Key"])
    assert all(UUID4.match(key) for key in keys), [key for key in keys if not UUID4.match(key)][:3]
    assert len(set(keys)) == len(keys)
