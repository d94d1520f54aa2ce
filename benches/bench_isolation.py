"""Whether long analysis texts slow the rest of the service: the latency of /health and of verify-identity while
four clients send 10,000-character texts to /re without pause, against the same probes with no load (same run).

A real server (`tahqiq serve`, SQLite, every area) on loopback. wrk keeps four connections busy with /re (a C
program, so the load costs the machine little beyond the server's work). One probe at a time, from this process, on
one kept-alive connection, every 10 ms: the latency an agent sees. Aim: p99 under 20 ms for both probes under load.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benches import harness
from benches.bench_access import Load, cli, free_port, lua_request, tahqiq_env, wrk
from benches.bench_access import process as server_process
from benches.bench_scaling import CACHE, news_text

AIM_P99_MS = 20.0
CLIENTS = 4


def probe(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes | None, seconds: float
) -> list[float]:
    """Latencies (seconds) of back-to-back requests spaced 10 ms apart, on one connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    latencies = []
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            started = time.perf_counter()
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            latencies.append(time.perf_counter() - started)
            if response.status != 200:
                raise RuntimeError(f"{method} {path} answered {response.status}")
            time.sleep(0.01)
    finally:
        conn.close()
    return latencies


def run(ctx: harness.Context) -> list[harness.Row]:
    seconds = 1 if ctx.quick else 20
    text = news_text()[:10_000]
    rows = []
    with tempfile.TemporaryDirectory(prefix="tahqiq-bench-isolation-") as tmp:
        work = Path(tmp)
        env = tahqiq_env(f"sqlite:///{work / 'db.sqlite'}", work)
        env["TAHQIQ_AREAS"] = "agents,summarize,analysis"
        env["TAHQIQ_CACHE_DIR"] = str(CACHE)
        subprocess.run([sys.executable, "-m", "tahqiq", "migrate"], env=env, capture_output=True, check=True)
        app_key = cli(env, "apps", "create", "--name", "platform", "--first-party")["app_key"]
        api_key = cli(env, "agents", "create", "--role", "judge")["api_key"]
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        serve = [sys.executable, "-m", "tahqiq", "serve", "--port", str(port)]
        with server_process(serve, env, work, url + "/healthz"):
            wait_ready(port)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("POST", "/agents/access-core/me/identity-token", body=b'{"ttl": 3600}',
                         headers={"Authorization": f"Bearer {api_key}"})  # fmt: skip
            token = json.loads(conn.getresponse().read())["data"]["token"]
            conn.close()
            verify = (
                "POST",
                "/agents/access-core/verify-identity",
                {"X-Service-App-Key": app_key, "Content-Type": "application/json"},
                json.dumps({"token": token}).encode(),
            )
            health = ("GET", "/health", {}, None)
            probes = {"/health": health, "verify-identity": verify}
            idle = {name: probe(port, *p, seconds / 2) for name, p in probes.items()}
            script = lua_request("POST", "/re", {}, json.dumps({"text": text}, ensure_ascii=False))
            loaded: dict[str, list[float]] = {}
            loads: list[Load] = []

            def send_load() -> None:
                loads.append(wrk(url + "/re", seconds + 2, script, work, connections=CLIENTS, timeout_s=30))

            loader = threading.Thread(target=send_load)
            loader.start()
            time.sleep(1)  # the load under way
            for name, p in probes.items():
                loaded[name] = probe(port, *p, seconds / 2)
            loader.join()
        [re_load] = loads
        for name in probes:
            under, alone = loaded[name], idle[name]
            p99 = harness.percentile(under, 99) * 1000
            rows.append(
                harness.Row(
                    "isolation",
                    f"{name} p99 while {CLIENTS} clients send 10,000-character /re",
                    harness.percentile(under, 99),
                    harness.percentile(alone, 99),
                    "the same probe with no load (p99)",
                    unit="request (p99)",
                    target=f"< {AIM_P99_MS:.0f} ms p99",
                    met=p99 < AIM_P99_MS,
                    notes=f"under load p50 {harness.percentile(under, 50) * 1000:.2f} ms, p99 {p99:.2f} ms "
                    f"({len(under)} probes); alone p50 {harness.percentile(alone, 50) * 1000:.2f} ms; "
                    f"/re {re_load.rps:.1f} req/s, p50 {re_load.p50_ms:.0f} ms, {re_load.errors} errors",
                )
            )
    return rows


def wait_ready(port: int) -> None:
    """Until /health says the language data is loaded (the analysis routes answer 503 before)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/health")
        status = json.loads(conn.getresponse().read())["analysis"]["status"]
        conn.close()
        if status == "ready":
            return
        if status == "failed":
            raise RuntimeError("the server's language data failed to load")
        time.sleep(0.2)
    raise RuntimeError("the server's language data did not load within 300 s")
