"""What `tahqiq.client` adds to a submission, against raw httpx doing the same request by hand (issue 22).

A real server (`tahqiq serve`, SQLite, agents only) on loopback. One claim_splitter submits back to back on one
kept-alive connection, in alternating rounds: `AgentClient.submit` (a fresh UUID v4 key, the cached token, the retry
loop, the answer read into a `Submission`) against `httpx.Client.post` with the same token, a UUID v4 key and the
same body, its JSON read. Latency per submission, p50 and p99 of each (pooled over the rounds); the ratio is raw
p50 / client p50 (1.0: no cost). The server's own time is in both, so the difference is the client's.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
from tahqiq.client import AgentClient

from benches import harness
from benches.bench_access import cli, free_port, tahqiq_env
from benches.bench_access import process as server_process

SUBMIT = "/agents/access-core/submissions/claim_splitter"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(ctx: harness.Context) -> list[harness.Row]:
    per_round, rounds = (100, 2) if ctx.quick else (400, 6)
    client_s: list[float] = []
    raw_s: list[float] = []
    with tempfile.TemporaryDirectory(prefix="tahqiq-bench-client-") as tmp:
        work = Path(tmp)
        env = tahqiq_env(f"sqlite:///{work / 'db.sqlite'}", work)
        env.update({"TAHQIQ_AREAS": "agents", "TAHQIQ_SUBMISSION_RATE": "1000000/60s"})
        subprocess.run([sys.executable, "-m", "tahqiq", "migrate"], env=env, capture_output=True, check=True)
        cli(env, "apps", "create", "--name", "platform", "--first-party")
        api_key = cli(env, "agents", "create", "--role", "claim_splitter")["api_key"]
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        serve = [sys.executable, "-m", "tahqiq", "serve", "--port", str(port)]
        with server_process(serve, env, work, url + "/healthz"):
            with AgentClient(url, api_key) as agent, httpx.Client(base_url=url, timeout=10) as raw:
                token = agent.token()
                body = {"work_type": "split", "results": [{"text": "a claim to time"}]}

                def by_client() -> None:
                    agent.submit("split", body["results"])

                def by_hand() -> None:
                    headers = {"X-Service-Agent-Identity": token, "Idempotency-Key": str(uuid.uuid4())}
                    answer = raw.post(SUBMIT, json=body, headers=headers)
                    if answer.status_code != 202:
                        raise RuntimeError(f"raw submission answered {answer.status_code}: {answer.text}")
                    answer.json()

                for warm in (by_client, by_hand):
                    for _ in range(20):
                        warm()
                for _ in range(rounds):
                    for work_fn, sink in ((by_client, client_s), (by_hand, raw_s)):
                        for _ in range(per_round):
                            started = time.perf_counter()
                            work_fn()
                            sink.append(time.perf_counter() - started)
    p50 = {"client": statistics.median(client_s), "raw": statistics.median(raw_s)}
    p99 = {"client": percentile(client_s, 0.99), "raw": percentile(raw_s, 0.99)}
    ctx.notes.append(
        f"client: {rounds} alternating rounds of {per_round} sequential submissions each way, SQLite, one connection"
    )
    overhead_us = (p50["client"] - p50["raw"]) * 1e6
    return [
        harness.Row(
            "client",
            "submit p50: AgentClient vs raw httpx",
            p50["client"],
            p50["raw"],
            "httpx.Client.post by hand",
            unit="submission",
            notes=f"overhead {overhead_us:.0f} µs at p50",
        ),
        harness.Row(
            "client",
            "submit p99: AgentClient vs raw httpx",
            p99["client"],
            p99["raw"],
            "httpx.Client.post by hand",
            unit="submission",
            notes=f"overhead {(p99['client'] - p99['raw']) * 1e6:.0f} µs at p99",
        ),
    ]
