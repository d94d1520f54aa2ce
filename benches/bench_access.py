"""Area A under load: wrk against real `tahqiq serve` processes (one granian worker), on SQLite and PostgreSQL.

Operations: minting, verification (the same token again and again: the verified-token cache path), the
pending queue, and submissions (a new UUID v4 Idempotency-Key per request, made by a Lua script). Each is
measured next to a bare BlackSheep JSON route served by a separate granian process with the same flags, in
the same run; the ratio column is our throughput as a share of the bare route's (below 1 means slower).
Once per run, the bare route is also served by uvicorn, to justify granian.

PostgreSQL comes from TAHQIQ_TEST_PG_URL (or scripts/pg-test-setup); the bench creates a fresh database and
drops it afterwards. uvicorn is not a dependency of tahqiq, only of its `bench` extra (the server comparison row); in an
environment without it that row is left out and noted.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx

from benches import harness
from tests.support.server import free_port

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = "0b7e4f3c-5a7e-4d2b-9c1f-2e3d4c5b6a70"
CONNECTIONS = 64
WRK_THREADS = 1  # two cores: one for wrk, one for the server

BARE_APP = """
from blacksheep import Application, Content, Request, Response

app = Application()


@app.router.get("/")
async def home() -> Response:
    return Response(200, None, Content(b"application/json", b'{"ok":true}'))


@app.router.post("/")
async def echo(request: Request) -> Response:
    await request.read()
    return Response(200, None, Content(b"application/json", b'{"ok":true}'))
"""

# wrk's Lua runs on the same two cores as the server, so the script is kept cheap: the request is formatted once, split
# at a placeholder key, and each request only joins the two halves around a new key made by one string.format.
UUID_LUA = """
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
local random, format = math.random, string.format
local function uuid4()
  return format("%08x-%04x-4%03x-%04x-%04x%08x", random(0, 0xffffffff), random(0, 0xffff), random(0, 0xfff),
                random(0x8000, 0xbfff), random(0, 0xffff), random(0, 0xffffffff))
end
"""
KEY_PLACEHOLDER = "00000000-0000-4000-8000-000000000000"


@dataclass
class Load:
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int
    requests: int


def wait_up(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text(errors='replace')[-3000:]}")
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"server at {url} did not start")


@contextmanager
def process(args: list[str], env: dict[str, str], cwd: Path, probe: str) -> Iterator[None]:
    log = cwd / f"server-{len(list(cwd.glob('server-*')))}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(args, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_up(probe, proc, log)
        yield
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 15)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()


def granian_args(app: str, port: int) -> list[str]:
    """The flags `tahqiq serve` gives granian, for the bare route."""
    return [
        sys.executable,
        "-m",
        "granian",
        "--interface",
        "asgi",
        "--loop",
        "uvloop",
        "--workers",
        "1",
        "--backlog",
        "2048",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        app,
    ]


def wrk(
    url: str, seconds: float, script: str | None, work: Path, connections: int = CONNECTIONS, timeout_s: int = 2
) -> Load:
    """One wrk run; `timeout_s` (wrk's default 2 s) is how long a request may take before wrk counts it an error."""
    args = ["wrk", f"-t{WRK_THREADS}", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--latency"]
    args.append(f"--timeout={timeout_s}s")
    if script is not None:
        path = work / f"script-{uuid.uuid4().hex[:8]}.lua"
        path.write_text(script)
        args += ["-s", str(path)]
    out = subprocess.run([*args, url], capture_output=True, text=True, timeout=seconds + 60, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])  # type: ignore[index]
    requests = int(re.search(r"(\d+) requests in", out)[1])  # type: ignore[index]
    if requests == 0:
        raise RuntimeError(f"wrk completed no request to {url} in {seconds:.0f} s:\n{out}")
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    errors = int(non_2xx[1]) if non_2xx else 0
    if socket_errors:
        errors += sum(int(x) for x in socket_errors.groups())

    def pct(label: str) -> float:
        value, unit = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()  # type: ignore[union-attr]
        return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]

    return Load(rps=rps, p50_ms=pct("50"), p99_ms=pct("99"), errors=errors, requests=requests)


def lua_string(text: str) -> str:
    """`text` as a Lua string literal of its UTF-8 bytes. Not JSON's escapes: wrk's LuaJIT rejects `\\u`, and a
    script that does not load leaves wrk sending plain GETs."""
    escaped = []
    for byte in text.encode():
        if byte in b'\\"':
            escaped.append("\\" + chr(byte))
        elif 32 <= byte < 127:
            escaped.append(chr(byte))
        else:
            escaped.append(f"\\{byte:03d}")
    return '"' + "".join(escaped) + '"'


def lua_request(method: str, path: str, headers: dict[str, str], body: str | None, new_key: bool = False) -> str:
    lines = [UUID_LUA if new_key else ""]
    lines.append(f"wrk.method = {lua_string(method)}")
    if body is not None:
        lines.append(f"wrk.body = {lua_string(body)}")
        lines.append('wrk.headers["Content-Type"] = "application/json"')
    for name, value in headers.items():
        lines.append(f"wrk.headers[{lua_string(name)}] = {lua_string(value)}")
    if new_key:
        placeholder = KEY_PLACEHOLDER.replace("-", "%-")  # as a Lua pattern
        lines.append(
            f'wrk.headers["Idempotency-Key"] = "{KEY_PLACEHOLDER}"\n'
            "local head, tail\n"
            "request = function()\n"
            "  if not head then  -- formatted at the first request, once wrk has set the Host header's value\n"
            f'    head, tail = wrk.format(nil, {lua_string(path)}):match("^(.-){placeholder}(.*)$")\n'
            "  end\n"
            "  return head .. uuid4() .. tail\n"
            "end"
        )
    return "\n".join(lines) + "\n"


# Stores -------------------------------------------------------------------------------------------------


def pg_server_url() -> str:
    url = os.environ.get("TAHQIQ_TEST_PG_URL")
    if url:
        return url
    done = subprocess.run([str(ROOT / "scripts" / "pg-test-setup")], capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


async def _admin(url: str, statement: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url, timeout=10)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


@contextmanager
def fresh_pg_database() -> Iterator[str]:
    server = pg_server_url()
    name = f"tahqiq_bench_{uuid.uuid4().hex[:10]}"
    asyncio.run(_admin(server, f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'"))
    parts = urlsplit(server)
    try:
        yield urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))
    finally:
        asyncio.run(_admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


# The run ----------------------------------------------------------------------------------------------


def tahqiq_env(database_url: str, work: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAHQIQ_")}
    env.update(
        {
            "TAHQIQ_DATABASE_URL": database_url,
            "TAHQIQ_SECRET_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
            "AGENT_FIRST_PARTY_APP_ID": FIRST_PARTY,
            "TAHQIQ_SUBMISSION_RATE": "100000000/60s",
            "TAHQIQ_LOG_LEVEL": "warning",
            "TAHQIQ_ACCESS_LOG": "0",
            "TAHQIQ_AREAS": "agents",  # Area A alone: no language data loading beside the load
            # The bare app's directory first, then the caller's path: the server runs the package this
            # benchmark imports (a worktree's, when PYTHONPATH names one).
            "PYTHONPATH": os.pathsep.join(p for p in (str(work), os.environ.get("PYTHONPATH", "")) if p),
        }
    )
    return env


def cli(env: dict[str, str], *args: str) -> dict[str, str]:
    out = subprocess.run(
        [sys.executable, "-m", "tahqiq", *args, "--json"], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, str] = json.loads(out.stdout)
    return result


def measure_store(label: str, database_url: str, seconds: float, work: Path) -> list[harness.Row]:
    env = tahqiq_env(database_url, work)
    subprocess.run([sys.executable, "-m", "tahqiq", "migrate"], env=env, capture_output=True, check=True)
    app_key = cli(env, "apps", "create", "--name", "platform", "--first-party")["app_key"]
    keys = {r: cli(env, "agents", "create", "--role", r)["api_key"] for r in ("claim_splitter", "evidence_seeker")}
    port, bare_port = free_port(), free_port()
    url, bare = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{bare_port}/"
    serve = [sys.executable, "-m", "tahqiq", "serve", "--port", str(port)]
    rows = []
    with process(serve, env, work, url + "/healthz"), process(granian_args("bare:app", bare_port), env, work, bare):
        mint = f"{url}/agents/access-core/me/identity-token"

        def token(role: str) -> str:
            r = httpx.post(mint, json={"ttl": 3600}, headers={"Authorization": f"Bearer {keys[role]}"})
            return str(r.json()["data"]["token"])

        splitter, seeker = token("claim_splitter"), token("evidence_seeker")
        # a few claims so that the pending queue has something to list
        for i in range(20):
            httpx.post(
                f"{url}/agents/access-core/submissions/claim_splitter",
                json={"work_type": "split", "results": [{"text": f"claim {i}"}]},
                headers={"X-Service-Agent-Identity": splitter, "Idempotency-Key": str(uuid.uuid4())},
            )
        time.sleep(1)
        submission = json.dumps({"work_type": "split", "results": [{"text": "الأرض مسطحة", "source": "bench"}]})
        cases = {
            "mint": lua_request(
                "POST", "/agents/access-core/me/identity-token", {"Authorization": f"Bearer {keys['claim_splitter']}"},
                '{"ttl": 900}',
            ),
            "verify": lua_request(
                "POST", "/agents/access-core/verify-identity", {"X-Service-App-Key": app_key},
                json.dumps({"token": seeker}),
            ),
            "pending queue": lua_request(
                "GET", "/agents/access-core/claims/pending", {"X-Service-Agent-Identity": seeker}, None
            ),
            "submission": lua_request(
                "POST", "/agents/access-core/submissions/claim_splitter",
                {"X-Service-Agent-Identity": splitter}, submission, new_key=True,
            ),
        }  # fmt: skip
        paths = {
            "mint": "/agents/access-core/me/identity-token",
            "verify": "/agents/access-core/verify-identity",
            "pending queue": "/agents/access-core/claims/pending",
            "submission": "/agents/access-core/submissions/claim_splitter",
        }
        wrk(bare, 1, None, work)  # warm both
        wrk(url + "/healthz", 1, None, work)
        targets = {"verify": 0.5, "submission": 0.2 if label == "PostgreSQL" else None}
        for case, script in cases.items():
            base = wrk(bare, seconds, None, work)
            # The same request (method, headers, body) to a bare route that only reads its body: what BlackSheep
            # and granian cost for a POST before any of our work.
            same = script.replace(lua_string(paths[case]), lua_string("/"))  # scripts that build requests name a path
            bare_same = wrk(bare, seconds, same, work) if case != "pending queue" else base
            ours = wrk(url + paths[case], seconds, script, work)
            assert ours.errors <= ours.requests * 0.01, f"{case} on {label}: {ours.errors} errors of {ours.requests}"
            share = ours.rps / base.rps
            target = targets.get(case)
            rows.append(
                harness.Row(
                    group=f"access ({label})",
                    case=case,
                    ours_s=1 / ours.rps,
                    anchor_s=1 / base.rps,
                    anchor="bare BlackSheep JSON route, granian, same run",
                    unit="request",
                    target=f">= {target:.0%} of bare" if target else "",
                    met=(share >= target) if target else None,
                    notes=f"{ours.rps:,.0f} req/s, p50 {ours.p50_ms:.2f} ms, p99 {ours.p99_ms:.2f} ms; "
                    f"bare {base.rps:,.0f} req/s, p50 {base.p50_ms:.2f} ms, p99 {base.p99_ms:.2f} ms; "
                    f"bare route given the same request {bare_same.rps:,.0f} req/s "
                    f"(our share {ours.rps / bare_same.rps:.2f})",
                )
            )
    return rows


def measure_servers(seconds: float, work: Path, ctx: harness.Context) -> list[harness.Row]:
    try:
        import uvicorn  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        ctx.notes.append("uvicorn is not installed: the granian/uvicorn row is left out (pip install uvicorn)")
        return []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(work), os.environ.get("PYTHONPATH", "")) if p)}
    g_port, u_port = free_port(), free_port()
    uv = [sys.executable, "-m", "uvicorn", "--loop", "uvloop", "--http", "httptools", "--workers", "1"]
    uv += ["--backlog", "2048", "--no-access-log", "--log-level", "warning", "--port", str(u_port), "bare:app"]
    with (
        process(granian_args("bare:app", g_port), env, work, f"http://127.0.0.1:{g_port}/"),
        process(uv, env, work, f"http://127.0.0.1:{u_port}/"),
    ):
        wrk(f"http://127.0.0.1:{g_port}/", 1, None, work)
        wrk(f"http://127.0.0.1:{u_port}/", 1, None, work)
        g = wrk(f"http://127.0.0.1:{g_port}/", seconds, None, work)
        u = wrk(f"http://127.0.0.1:{u_port}/", seconds, None, work)
    return [
        harness.Row(
            group="http server",
            case="bare BlackSheep route under uvicorn (httptools, uvloop)",
            ours_s=1 / u.rps,
            anchor_s=1 / g.rps,
            anchor="the same route under granian (tahqiq's server)",
            unit="request",
            notes=f"uvicorn {u.rps:,.0f} req/s, p50 {u.p50_ms:.2f} ms, p99 {u.p99_ms:.2f} ms; "
            f"granian {g.rps:,.0f} req/s, p50 {g.p50_ms:.2f} ms, p99 {g.p99_ms:.2f} ms",
        )
    ]


def run(ctx: harness.Context) -> list[harness.Row]:
    if shutil.which("wrk") is None:
        raise RuntimeError("the access benchmark needs wrk (apt-get install wrk)")
    seconds = 1.0 if ctx.quick else 10.0  # wrk's shortest run
    ctx.notes.append(
        f"access: wrk -t{WRK_THREADS} -c{CONNECTIONS}, {seconds:.0f} s per case, client and server on one machine; "
        "ratio = our req/s / bare req/s"
    )
    rows: list[harness.Row] = []
    with tempfile.TemporaryDirectory(prefix="tahqiq-bench-") as tmp:
        work = Path(tmp)
        (work / "bare.py").write_text(BARE_APP)
        if not ctx.quick:  # quick: one store and one server are enough to see that the benchmark runs
            rows += measure_servers(seconds, work, ctx)
        rows += measure_store("SQLite", f"sqlite:///{work / 'bench.db'}", seconds, work)
        if not ctx.quick:
            with fresh_pg_database() as url:
                rows += measure_store("PostgreSQL", url, seconds, work)
    return rows
