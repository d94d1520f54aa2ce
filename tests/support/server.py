"""Real server processes for the end-to-end tests: `tahqiq serve` in a subprocess, on a free port.

    with ServerProcess(database_url) as server:
        server.cli("agents", "create", "--role", "judge", "--json")  # the CLI against the same store
        httpx.get(server.url + "/health")

Each server gets its own environment (database, secret key, rate limits); its output goes to a log file that
tests can read (to check that no secret is ever logged).
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

FIRST_PARTY_APP_ID = "0b7e4f3c-5a7e-4d2b-9c1f-2e3d4c5b6a70"
# Compiled language data (the morphology table) is shared by every test server and the benchmarks (the default
# TAHQIQ_CACHE_DIR of a service run from the repository): conftest builds it once per machine.
CACHE_DIR = Path(__file__).resolve().parents[2] / "var" / "cache"


class PortTaken(Exception):
    """The server could not bind its port: another process took it after `free_port` chose it."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    """Environment for a server and the CLI sharing one store; the same secret key for all of them."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAHQIQ_")}
    env.update(
        {
            "TAHQIQ_DATABASE_URL": database_url,
            "TAHQIQ_SECRET_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
            "AGENT_FIRST_PARTY_APP_ID": FIRST_PARTY_APP_ID,
            "TAHQIQ_PROCESSOR_POLL_S": "0.05",
            "TAHQIQ_LOG_LEVEL": "debug",
            "TAHQIQ_ACCESS_LOG": "1",
            "TAHQIQ_CACHE_DIR": str(CACHE_DIR),
        }
    )
    env.update(extra)
    return env


class ServerProcess:
    def __init__(
        self, env: dict[str, str], workers: int = 1, port: int | None = None, *, wait_for_analysis: bool = False
    ) -> None:
        self.env = env
        # the analysis routes answer 503 until the language data is loaded: tests that use them wait for it
        self.wait_for_analysis = wait_for_analysis
        self.workers = workers
        # a port picked here may be taken by another test process before the server binds it: start picks again
        self.port_given = port is not None
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(tempfile.mkstemp(prefix="tahqiq-server-", suffix=".log")[1])
        self.proc: subprocess.Popen[bytes] | None = None

    def cli(self, *args: str) -> Any:
        """Runs `tahqiq ARGS` with this server's environment; parses stdout as JSON when --json is given."""
        out = subprocess.run(
            [sys.executable, "-m", "tahqiq", *args], env=self.env, capture_output=True, timeout=60, check=False
        )
        if out.returncode != 0:
            raise RuntimeError(f"tahqiq {' '.join(args)} failed ({out.returncode}): {out.stderr.decode()}")
        return json.loads(out.stdout) if "--json" in args else out.stdout.decode()

    def start(self) -> ServerProcess:
        for _attempt in range(3):
            try:
                return self._start_once()
            except PortTaken:
                self.port = free_port()
                self.url = f"http://127.0.0.1:{self.port}"
        return self._start_once()

    def _start_once(self) -> ServerProcess:
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tahqiq", "serve", "--port", str(self.port), "--workers", str(self.workers)],
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if not self.port_given and "already in use" in self.log():
                    raise PortTaken(self.port)
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                health = httpx.get(self.url + "/healthz", timeout=1)
                analysis = health.json().get("analysis", {}) if health.status_code == 200 else {}
                if analysis.get("status") == "failed":
                    raise RuntimeError(f"the server's language data failed to load:\n{self.log()}")
                ready = not self.wait_for_analysis or analysis.get("status", "ready") == "ready"
                if health.status_code == 200 and ready:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not answer /healthz (its language data loaded) within 60 s:\n{self.log()}")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kills the whole process group (the server and its workers)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def analysis_server(folder: Path, **extra: str) -> ServerProcess:
    """A server on SQLite in `folder` whose analysis routes the test waits for (`with analysis_server(tmp) as s:`)."""
    env = server_env(f"sqlite:///{folder / 'db.sqlite'}", TAHQIQ_DATA_DIR=str(folder / "data"), **extra)
    return ServerProcess(env, wait_for_analysis=True)


# Everyday sentences whose words are partly outside the compiled morphology table: the first answers after a start
# (tests/analysis/test_cold_start.py, benches/bench_cold_start.py) also start the morphological analyser.
FIRST_REQUESTS = {
    "/ner": {"text": "وضع الطالب القلم على الطاولة ثم ذهب إلى مدينة نابلس"},
    "/morph": {"text": "شرب الطفل الحليب واستمتعوا بمشاهدته"},
    "/wsd": {"text": "شرب الرجل من عين الماء"},
}


def first_answers(base_url: str, started: float, *, limit_s: float = 60) -> dict[str, float]:
    """Posts each of FIRST_REQUESTS until it answers 200 (503 while the language data loads); seconds from
    ``started`` (a `time.monotonic()` reading) to each route's first 200."""
    answered: dict[str, float] = {}
    with httpx.Client(base_url=base_url, timeout=60) as client:
        while len(answered) < len(FIRST_REQUESTS) and time.monotonic() - started < limit_s:
            for path, body in FIRST_REQUESTS.items():
                if path not in answered:
                    r = client.post(path, json=body)
                    assert r.status_code in (200, 503), r.text
                    if r.status_code == 200:
                        answered[path] = time.monotonic() - started
            time.sleep(0.02)
    return answered
