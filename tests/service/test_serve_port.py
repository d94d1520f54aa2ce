"""`tahqiq serve` refuses a port already in use, by another `tahqiq serve` or by any other program.

granian listens with SO_REUSEPORT: without the check a second server started beside the first, the two shared the
connections (and one SQLite file), and nothing said so.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tahqiq.cli.serve import cannot_listen

from tests.support.server import ServerProcess, free_port, server_env


def in_use(host: str, port: int) -> str:
    return f"tahqiq serve: {host}:{port} is already in use; stop the other server or choose another port with --port"


def serve(env: dict[str, str], port: int) -> subprocess.CompletedProcess[str]:
    """`tahqiq serve --port PORT`, which must end by itself within 30 s; a server that starts instead is stopped
    (with its workers) and fails the test."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tahqiq", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
        pytest.fail(f"the second server started instead of refusing the port:\n{stdout}{stderr}")
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


@pytest.fixture
def first(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(server_env(f"sqlite:///{tmp_path / 'store.db'}", TAHQIQ_AREAS="agents")) as server:
        yield server


def test_a_second_serve_on_the_same_port_is_refused(first: ServerProcess) -> None:
    done = serve(first.env, first.port)  # the same store too: the case that shared one SQLite file
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert done.stderr == in_use("127.0.0.1", first.port) + "\n"
    assert done.stdout == ""
    for _ in range(10):  # granian spreads connections over the listeners: a second one would take some of them
        assert httpx.get(first.url + "/healthz", timeout=10).status_code == 200
    assert first.proc is not None and first.proc.poll() is None


@pytest.mark.parametrize("listening_on", ["127.0.0.1", "0.0.0.0"])
def test_a_port_held_by_another_program_is_refused(tmp_path: Path, listening_on: str) -> None:
    with socket.socket() as other:  # another program: no SO_REUSEPORT, nor SO_REUSEADDR
        other.bind((listening_on, 0))
        other.listen()
        port = other.getsockname()[1]
        env = server_env(f"sqlite:///{tmp_path / 'store.db'}", TAHQIQ_SECRET_KEY_FILE=str(tmp_path / "secret.key"))
        env.pop("TAHQIQ_SECRET_KEY")
        done = serve(env, port)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert done.stderr == in_use("127.0.0.1", port) + "\n"
    assert not (tmp_path / "store.db").exists() and not (tmp_path / "secret.key").exists()  # nothing touched


def test_a_port_free_but_for_closed_connections_is_accepted() -> None:
    """A server that has just stopped leaves its closed connections in TIME_WAIT on its port; a restart must not
    be refused for them (granian binds past them too)."""
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as granian's: its closed ones inherit it
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            accepted, _ = listener.accept()
            accepted.close()  # the server's side closes first: its end goes to TIME_WAIT
            assert client.recv(1) == b""
    assert cannot_listen("127.0.0.1", port) is None


def test_port_zero_and_other_addresses() -> None:
    assert cannot_listen("127.0.0.1", 0) is None  # `--port 0`: any free port, as before
    port = free_port()
    assert cannot_listen("127.0.0.1", port) is None
    with socket.socket() as other:
        other.bind(("127.0.0.1", port))
        other.listen()
        assert cannot_listen("127.0.0.1", port) == in_use("127.0.0.1", port).removeprefix("tahqiq serve: ")
    assert (cannot_listen("192.0.2.1", port) or "").startswith(f"cannot listen on 192.0.2.1:{port}: ")
