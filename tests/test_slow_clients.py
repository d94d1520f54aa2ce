"""Clients that leave in the middle of a request body, against a real `tahqiq serve` over real sockets.

A client that goes away is normal: one debug line, no traceback, no 500.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server import ServerProcess, server_env

VERIFY = "/agents/access-core/verify-identity"
SUMMARIZE = "/api/ai/summarize"
ACCESS_LINE = re.compile(r'"POST (\S+) HTTP/1\.1" (\d{3}) ')


def start_server(tmp_path: Path) -> ServerProcess:
    env = server_env(
        f"sqlite:///{tmp_path / 'store.db'}",
        TAHQIQ_AREAS="agents,summarize",
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
