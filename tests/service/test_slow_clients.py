"""Clients that leave or stall in the middle of a request body, against a real `tahqiq serve` over real sockets.

A client that goes away is normal: one debug line, no traceback, no 500. A body not complete within
TAHQIQ_BODY_TIMEOUT_S of the handler starting to read it gets a 408 problem and the server closes the connection;
so such a body no longer holds a stopping server either. A body that is slow but complete in time is read.
"""

from __future__ import annotations

import re
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest

from tests.support.server import ServerProcess, server_env
from tests.support.summarize_support import ENGLISH

BODY_TIMEOUT_S = 1.5
VERIFY = "/agents/access-core/verify-identity"
SUMMARIZE = "/api/ai/summarize"
ACCESS_LINE = re.compile(r'"POST (\S+) HTTP/1\.1" (\d{3}) ')


def start_server(tmp_path: Path) -> ServerProcess:
    env = server_env(
        f"sqlite:///{tmp_path / 'store.db'}",
        TAHQIQ_AREAS="agents,summarize",
        TAHQIQ_BODY_TIMEOUT_S=str(BODY_TIMEOUT_S),
        TAHQIQ_SUMMARIZE_RATE="100000/60s",
    )
    return ServerProcess(env).start()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    started = start_server(tmp_path_factory.mktemp("slow-clients"))
    yield started
    started.stop()


def head(server: ServerProcess, path: str, length: int) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body of one answer on `sock`."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed before an answer: {data!r}"
        data += chunk
    top, body = data.split(b"\r\n\r\n", 1)
    status_line, *lines = top.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in lines)}
    while len(body) < int(headers["content-length"]):
        chunk = sock.recv(65536)
        assert chunk, "the connection closed in the middle of the answer"
        body += chunk
    return int(status_line.split()[1]), headers, body


def wait_for_log(server: ServerProcess, since: int, count: int) -> list[tuple[str, int]]:
    """(path, status) of the first `count` POST lines of the access log after offset `since`."""
    deadline = time.monotonic() + 10
    while True:
        posts = [(path, int(status)) for path, status in ACCESS_LINE.findall(server.log()[since:])]
        if len(posts) >= count or time.monotonic() > deadline:
            return posts
        time.sleep(0.05)


def test_a_client_that_leaves_mid_body_is_one_debug_line(server: ServerProcess) -> None:
    since = len(server.log())
    for path in (VERIFY, SUMMARIZE):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(head(server, path, 100) + b'{"token": ')
            time.sleep(0.3)  # the handler is waiting for the rest of the body when the client leaves
    assert wait_for_log(server, since, 2) == [(VERIFY, 499), (SUMMARIZE, 499)], server.log()[since:]
    log = server.log()[since:]
    assert "Traceback" not in log and "unhandled error" not in log and "ERROR" not in log, log
    went_away = [line for line in log.splitlines() if "client went away" in line]
    assert len(went_away) == 2 and all(" DEBUG tahqiq: " in line for line in went_away), log
    assert httpx.get(server.url + "/healthz", timeout=10).status_code == 200


@pytest.mark.parametrize(
    ("path", "sent"),
    [(VERIFY, b'{"token": '), (SUMMARIZE, b""), (SUMMARIZE, b'{"text": ')],
    ids=["verify-part-of-the-body", "summarize-no-body-yet", "summarize-part-of-the-body"],
)
def test_an_unfinished_body_gets_408_and_the_connection_is_closed(
    server: ServerProcess, path: str, sent: bytes
) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=BODY_TIMEOUT_S + 5) as sock:
        started = time.monotonic()
        sock.sendall(head(server, path, 100) + sent)
        status, headers, body = read_answer(sock)
        answered = time.monotonic()
        assert sock.recv(65536) == b""  # the server closed the connection (a time-out here raises)
        closed = time.monotonic()
    assert status == 408, body
    assert headers["connection"] == "close" and headers["content-type"] == "application/problem+json"
    problem = orjson.loads(body)
    assert problem["type"].endswith("/problems/request-timeout") and problem["status"] == 408, problem
    assert problem["instance"] == path and f"{len(sent)} bytes came" in problem["detail"], problem
    assert BODY_TIMEOUT_S <= answered - started < BODY_TIMEOUT_S + 2
    assert closed - answered < 1
    assert httpx.get(server.url + "/healthz", timeout=10).status_code == 200


def test_a_slow_steady_body_complete_in_time_is_read(server: ServerProcess) -> None:
    body = orjson.dumps({"text": ENGLISH})
    pieces = [body[i : i + len(body) // 6 + 1] for i in range(0, len(body), len(body) // 6 + 1)]
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head(server, SUMMARIZE, len(body)))
        started = time.monotonic()
        for piece in pieces:
            time.sleep(BODY_TIMEOUT_S / 2 / len(pieces))
            sock.sendall(piece)
        sending_took = time.monotonic() - started
        status, headers, answer = read_answer(sock)
    assert sending_took >= BODY_TIMEOUT_S / 2
    assert status == 200, answer
    assert headers["x-ai-strategy"] == "local" and orjson.loads(answer)["data"]["summary"]
    assert "connection" not in headers  # kept open for the next request


def test_sigterm_does_not_wait_for_an_unfinished_body(tmp_path: Path) -> None:
    """Before the time-out, the server waited for such a connection until it killed its worker
    (TAHQIQ_SHUTDOWN_WAIT_S + 5 s: 35 s)."""
    stopping = start_server(tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", stopping.port), timeout=BODY_TIMEOUT_S + 10) as sock:
            sock.sendall(head(stopping, VERIFY, 100) + b'{"token": ')
            time.sleep(0.3)
            assert stopping.proc is not None
            started = time.monotonic()
            stopping.kill(signal.SIGTERM)
            took = time.monotonic() - started
            status, _headers, _body = read_answer(sock)
        assert status == 408
        assert took < BODY_TIMEOUT_S + 5, stopping.log()
        assert stopping.proc.returncode == 0, stopping.log()
    finally:
        stopping.kill()
