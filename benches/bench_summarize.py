"""Area B under load: wrk against a real `tahqiq serve --areas summarize` (granian, one worker).

- The in-process extractive summarizer through the whole HTTP stack (the `local` route), 1 KB, 10 KB and 100 KB
  news-like texts in Arabic (sentences of the project's NER gold set) and English (generated here); the anchor
  is a bare BlackSheep route under granian given the same request (it only reads the body), same run.
- The overhead the service adds over an upstream's own latency: a fake chat-completions upstream (a standalone
  aiohttp process answering a fixed completion after 2 ms) loaded directly, then through the service (gateway
  route), with the same wrk settings, in rounds (direct, service, floor, floor with aiohttp, one after the other, so
  that a burst of load elsewhere on the machine hits one round and not one side); overhead = p50(service) -
  p50(direct) within a round, and the row gives the median over the rounds. Aim: under 1 ms. The floor under it:
  a bare granian + BlackSheep route forwarding the chat-completions request with tahqiq's HTTP client
  (`tahqiq.http1`, the service's pool settings; no other tahqiq code), loaded the same way; and the same bare
  route forwarding with aiohttp (the client the service used before), for the difference the client makes.
- The HTTP client choice: sequential calls of tahqiq's client, aiohttp and httpx to that same upstream, and to
  one answering at once (where the clients' own cost is most of a call), in one process, interleaved in rounds.
"""

from __future__ import annotations

import base64
import json
import os
import random
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benches import harness
from benches.bench_access import BARE_APP, Load, granian_args, lua_request, process, wrk
from tests.support.server import free_port

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM_DELAY_S = 0.002
OVERHEAD_CONNECTIONS = (1, 8)
OVERHEAD_ROUNDS = 5  # per connection count; each round loads every target for OVERHEAD_ROUND_S
OVERHEAD_ROUND_S = 3.0

FAKE_UPSTREAM = """
import asyncio, sys
import uvloop
from aiohttp import web

BODY = (b'{"id":"c1","object":"chat.completion","model":"bench-model","choices":[{"index":0,'
        b'"message":{"role":"assistant","content":"The council approved the budget after a long debate. '
        b'Critics said transport was ignored. A final vote follows next week."},"finish_reason":"stop"}]}')

async def complete(request):
    await request.read()
    await asyncio.sleep(float(sys.argv[2]))
    return web.Response(body=BODY, content_type="application/json")

app = web.Application()
app.router.add_post("/v1/chat/completions", complete)
app.router.add_get("/", lambda request: web.Response(text="ok"))
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None, loop=uvloop.new_event_loop())
"""

# The floor under the gateway route: the same server and framework and the same HTTP client (tahqiq's, with the
# service's pool settings), forwarding the chat-completions request as it came, with no other tahqiq code in between.
# BENCH_CLIENT=aiohttp forwards with aiohttp instead (the service's former session settings).
BARE_PROXY = """
import os
from blacksheep import Application, Content, Request, Response

app = Application()
UPSTREAM = os.environ["BENCH_UPSTREAM"]
CLIENT = os.environ["BENCH_CLIENT"]
state = {}


async def start(_app):
    if CLIENT == "aiohttp":
        import aiohttp

        state["s"] = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=30),
            connector=aiohttp.TCPConnector(limit=256, keepalive_timeout=30),
            skip_auto_headers=("User-Agent",),
        )
    else:
        from tahqiq.http1 import Http1Client

        state["c"] = Http1Client(30, max_connections=256, idle_s=30)
        state["targets"] = {}


async def stop(_app):
    if CLIENT == "aiohttp":
        await state["s"].close()
    else:
        await state["c"].close()


app.on_start += start
app.on_stop += stop


@app.router.get("/")
async def home() -> Response:
    return Response(200, None, Content(b"text/plain", b"ok"))


@app.router.post("/v1/chat/completions")
async def forward(request: Request) -> Response:
    body = await request.read()
    authorization = request.get_first_header(b"authorization").decode()
    if CLIENT == "aiohttp":
        headers = {"Content-Type": "application/json", "Authorization": authorization}
        async with state["s"].post(UPSTREAM, data=body, headers=headers) as answer:
            return Response(answer.status, None, Content(b"application/json", await answer.read()))
    target = state["targets"].get(authorization)
    if target is None:
        headers = {"Content-Type": "application/json", "Accept": "application/json", "Authorization": authorization}
        target = state["targets"][authorization] = state["c"].prepare_post(UPSTREAM, headers)
    answer = await state["c"].post(target, body)
    return Response(answer.status, None, Content(b"application/json", answer.body))
"""

_SUBJECTS = [
    "The city council",
    "The finance ministry",
    "A regional court",
    "The health authority",
    "Local farmers",
    "The central bank",
    "Union leaders",
    "The port operator",
    "Independent observers",
    "The university",
]
_VERBS = ["announced", "rejected", "approved", "questioned", "postponed", "published", "reviewed", "defended"]
_OBJECTS = [
    "a new budget for public transport",
    "the report on water prices",
    "plans for three new schools",
    "the agreement with neighbouring towns",
    "a study of hospital waiting times",
    "the tax reform",
    "emergency funds for the harvest",
    "the results of the audit",
]
_TAILS = ["on Monday", "after weeks of debate", "despite strong criticism", "in a statement to the press",
          "before the end of the fiscal year", "following a public hearing", "with a narrow majority"]  # fmt: skip


def english_text(size: int, seed: int = 6) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    while sum(len(s) + 1 for s in out) < size:
        out.append(f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} {rng.choice(_TAILS)}.")
    return " ".join(out)[:size].rsplit(" ", 1)[0] + "."


def arabic_text(size: int) -> str:
    sentences = [json.loads(line)["text"] for line in (ROOT / "tests/gold/ner_msa.jsonl").read_text().splitlines()]
    out: list[str] = []
    i = 0
    while sum(len(s.encode()) + 1 for s in out) < size:
        out.append(sentences[i % len(sentences)])
        i += 1
    text = " ".join(out)
    while len(text.encode()) > size:  # trim to the byte budget at a word boundary
        text = text.rsplit(" ", 1)[0]
    return text


def env_for(work: Path, database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAHQIQ_")}
    env.update(
        {
            "TAHQIQ_DATABASE_URL": database_url,
            "TAHQIQ_SECRET_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
            "TAHQIQ_SUMMARIZE_RATE": "100000000/60s",
            "TAHQIQ_LOG_LEVEL": "warning",
            "TAHQIQ_ACCESS_LOG": "0",
            "TAHQIQ_AREAS": "summarize",
            "PYTHONPATH": os.pathsep.join(p for p in (str(work), os.environ.get("PYTHONPATH", "")) if p),
            **extra,
        }
    )
    return env


def serve_args(port: int) -> list[str]:
    return [sys.executable, "-m", "tahqiq", "serve", "--port", str(port)]


def summarize_script(body: dict[str, str], path: str = "/") -> str:
    """A wrk script POSTing `body` as raw UTF-8 JSON (wrk requests the URL's path; `path` only names it)."""
    return lua_request("POST", path, {}, json.dumps(body, ensure_ascii=False))


def measure_local(seconds: float, work: Path) -> list[harness.Row]:
    port, bare_port = free_port(), free_port()
    url, bare = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{bare_port}/"
    env = env_for(work, f"sqlite:///{work / 'local.db'}")
    rows = []
    with (
        process(serve_args(port), env, work, url + "/healthz"),
        process(granian_args("bare:app", bare_port), env, work, bare),
    ):
        wrk(url + "/healthz", 1, None, work)
        wrk(bare, 1, None, work)
        for size in (1_000, 10_000, 100_000) if seconds >= 5 else (1_000,):  # quick: one size
            for lang, text in (("ar", arabic_text(size)), ("en", english_text(size))):
                body = {"text": text, "length": "medium"}
                # A 100 KB summary is tens of milliseconds of CPU: more connections only queue behind the two cores,
                # and on a loaded machine a queue of 8 can outlast wrk's time-out; a longer run gives enough samples.
                connections = 2 if size >= 100_000 else 32
                duration = max(seconds, 4.0) if size >= 100_000 else seconds
                anchor = wrk(bare, duration, summarize_script(body, "/"), work, connections)
                ours = wrk(
                    url + "/api/ai/summarize",
                    duration,
                    summarize_script(body, "/api/ai/summarize"),
                    work,
                    connections,
                    timeout_s=10,
                )
                assert ours.errors <= ours.requests * 0.01, f"local {size} {lang}: {ours.errors} errors"
                rows.append(
                    harness.Row(
                        group="summarize (local route, HTTP)",
                        case=f"{size // 1000} KB {lang}",
                        ours_s=1 / ours.rps,
                        anchor_s=1 / anchor.rps,
                        anchor="bare BlackSheep route given the same request, granian, same run",
                        unit="document",
                        notes=f"{ours.rps:,.0f} docs/s, p50 {ours.p50_ms:.2f} ms, p99 {ours.p99_ms:.2f} ms "
                        f"(wrk -c{connections}); bare {anchor.rps:,.0f} req/s, p50 {anchor.p50_ms:.2f} ms",
                    )
                )
    return rows


Rounds = list[tuple[Load, Load, Load, Load]]  # per round: direct, service, floor, floor with aiohttp


def _median(rounds: Rounds, target: int, field: str) -> float:
    """The median over the rounds of one target's `field` (p50_ms, p99_ms, rps)."""
    return statistics.median(getattr(r[target], field) for r in rounds)


def _over(rounds: Rounds, target: int) -> list[float]:
    """Per round: the target's p50 minus the direct load's (ms)."""
    return [r[target].p50_ms - r[0].p50_ms for r in rounds]


def measure_overhead(seconds: float, work: Path) -> list[harness.Row]:
    up_port, port, bare_port, aio_port = free_port(), free_port(), free_port(), free_port()
    upstream = f"http://127.0.0.1:{up_port}"
    bare = f"http://127.0.0.1:{bare_port}/v1/chat/completions"
    bare_aiohttp = f"http://127.0.0.1:{aio_port}/v1/chat/completions"
    env = env_for(
        work,
        f"sqlite:///{work / 'overhead.db'}",
        TAHQIQ_GATEWAY_URL=upstream + "/v1",
        TAHQIQ_GATEWAY_MODEL="bench-alias",
        TAHQIQ_GATEWAY_KEY="bench-key",
        BENCH_UPSTREAM=upstream + "/v1/chat/completions",
    )
    text = english_text(1_000)
    messages = [{"role": "system", "content": "x" * 300}, {"role": "user", "content": text}]  # the prompt's size
    direct_body = json.dumps({"model": "bench-alias", "messages": messages, "temperature": 0})
    direct = lua_request("POST", "/v1/chat/completions", {"Authorization": "Bearer bench-key"}, direct_body)
    through = summarize_script({"text": text}, "/api/ai/summarize")
    fake = [sys.executable, str(work / "fake_upstream.py"), str(up_port), str(UPSTREAM_DELAY_S)]
    rows = []
    with (
        process(fake, env, work, upstream + "/"),
        process(serve_args(port), env, work, f"http://127.0.0.1:{port}/healthz"),
        process(
            granian_args("bare_proxy:app", bare_port),
            env | {"BENCH_CLIENT": "tahqiq"},
            work,
            f"http://127.0.0.1:{bare_port}/",
        ),
        process(
            granian_args("bare_proxy:app", aio_port),
            env | {"BENCH_CLIENT": "aiohttp"},
            work,
            f"http://127.0.0.1:{aio_port}/",
        ),
    ):
        wrk(upstream + "/v1/chat/completions", 1, direct, work)
        wrk(f"http://127.0.0.1:{port}/api/ai/summarize", 1, through, work)
        wrk(bare, 1, direct, work)
        wrk(bare_aiohttp, 1, direct, work)
        for connections in OVERHEAD_CONNECTIONS if seconds >= 5 else OVERHEAD_CONNECTIONS[:1]:
            # Each round loads the four targets back to back; the overheads are medians of per-round differences.
            rounds: Rounds = []
            round_s = OVERHEAD_ROUND_S if seconds >= 5 else seconds
            for _ in range(OVERHEAD_ROUNDS if seconds >= 5 else 1):
                d = wrk(upstream + "/v1/chat/completions", round_s, direct, work, connections)
                s = wrk(f"http://127.0.0.1:{port}/api/ai/summarize", round_s, through, work, connections)
                f = wrk(bare, round_s, direct, work, connections)
                a = wrk(bare_aiohttp, round_s, direct, work, connections)
                assert s.errors <= s.requests * 0.01, f"overhead c{connections}: {s.errors} errors of {s.requests}"
                assert f.errors <= f.requests * 0.01, f"floor c{connections}: {f.errors} errors of {f.requests}"
                rounds.append((d, s, f, a))
            d_p50 = _median(rounds, 0, "p50_ms")
            overhead = statistics.median(_over(rounds, 1))
            per_round = ", ".join(f"{x:.2f}" for x in _over(rounds, 1))
            rows.append(
                harness.Row(
                    group="summarize (gateway route overhead)",
                    case=f"1 KB en, wrk -c{connections}",
                    ours_s=_median(rounds, 1, "p50_ms") / 1e3,
                    anchor_s=d_p50 / 1e3,
                    anchor=f"the fake upstream loaded directly ({UPSTREAM_DELAY_S * 1e3:g} ms answer), same rounds",
                    unit="request (p50)",
                    target="overhead < 1 ms p50",
                    met=overhead < 1.0,
                    notes=f"overhead {overhead:.2f} ms p50, median of {len(rounds)} rounds ({per_round}); "
                    f"service {_median(rounds, 1, 'rps'):,.0f} req/s, p50 {_median(rounds, 1, 'p50_ms'):.2f} ms, "
                    f"p99 {_median(rounds, 1, 'p99_ms'):.2f} ms; direct {_median(rounds, 0, 'rps'):,.0f} req/s, "
                    f"p50 {d_p50:.2f} ms (medians over the rounds)",
                )
            )
            floors = [
                (
                    2,
                    "floor",
                    "granian + BlackSheep + tahqiq's HTTP client (the service's pool settings) forwarding "
                    "the request, no other tahqiq code",
                ),
                (
                    3,
                    "floor with aiohttp",
                    "the floor's route forwarding with aiohttp (the service's former session settings) instead",
                ),
            ]
            for target, label, what in floors:
                rows.append(
                    harness.Row(
                        group="summarize (gateway route overhead)",
                        case=f"{label}: bare forwarding route, wrk -c{connections}",
                        ours_s=_median(rounds, target, "p50_ms") / 1e3,
                        anchor_s=d_p50 / 1e3,
                        anchor="the fake upstream loaded directly, same rounds",
                        unit="request (p50)",
                        notes=f"overhead {statistics.median(_over(rounds, target)):.2f} ms p50 (median of the "
                        f"rounds): {what}; {_median(rounds, target, 'rps'):,.0f} req/s",
                    )
                )
        calls = 300 if seconds < 5 else 2000
        rows.extend(measure_clients(upstream + "/v1/chat/completions", direct_body.encode(), calls, UPSTREAM_DELAY_S))
    # The same calls to an upstream answering at once: the clients' own cost is most of each call there.
    at_once_port = free_port()
    at_once = [sys.executable, str(work / "fake_upstream.py"), str(at_once_port), "0"]
    with process(at_once, env, work, f"http://127.0.0.1:{at_once_port}/"):
        url = f"http://127.0.0.1:{at_once_port}/v1/chat/completions"
        rows.extend(measure_clients(url, direct_body.encode(), calls, 0.0))
    return rows


def measure_clients(url: str, payload: bytes, calls: int, upstream_delay_s: float) -> list[harness.Row]:
    """p50 of one sequential call with tahqiq's client, aiohttp and httpx, interleaved in rounds."""
    import aiohttp
    import httpx
    import uvloop
    from tahqiq.http1 import Http1Client

    async def run() -> dict[str, float]:
        headers = {"Content-Type": "application/json", "Authorization": "Bearer bench-key"}
        times: dict[str, list[float]] = {"tahqiq": [], "aiohttp": [], "httpx": []}
        ours = Http1Client(30)
        target = ours.prepare_post(url, headers)
        async with aiohttp.ClientSession() as a, httpx.AsyncClient() as h:

            async def with_tahqiq() -> None:
                json.loads((await ours.post(target, payload)).body)

            async def with_aiohttp() -> None:
                async with a.post(url, data=payload, headers=headers) as r:
                    json.loads(await r.read())

            async def with_httpx() -> None:
                json.loads((await h.post(url, content=payload, headers=headers)).content)

            clients = (("tahqiq", with_tahqiq), ("aiohttp", with_aiohttp), ("httpx", with_httpx))
            for _, warm in clients:
                for _ in range(50):
                    await warm()
            for _ in range(5):
                for name, call in clients:
                    for _ in range(calls // 5):
                        start = time.perf_counter()
                        await call()
                        times[name].append(time.perf_counter() - start)
        await ours.close()
        return {name: statistics.median(values) for name, values in times.items()}

    p50 = uvloop.run(run())  # the service's loop
    notes = (
        f"tahqiq p50 {p50['tahqiq'] * 1e3:.2f} ms, aiohttp {p50['aiohttp'] * 1e3:.2f} ms, httpx "
        f"{p50['httpx'] * 1e3:.2f} ms, all including the upstream's {upstream_delay_s * 1e3:g} ms wait and its own "
        "work (an aiohttp server); uvloop"
    )
    upstream = (
        f"upstream answering after {upstream_delay_s * 1e3:g} ms" if upstream_delay_s else "upstream answering at once"
    )
    return [
        harness.Row(
            group="summarize (HTTP client)",
            case=f"one chat-completions call, sequential, {upstream}, vs {other}",
            ours_s=p50["tahqiq"],
            anchor_s=p50[other],
            anchor=f"{other}, same upstream, same run",
            unit="call (p50)",
            notes=notes,
        )
        for other in ("aiohttp", "httpx")
    ]


def run(ctx: harness.Context) -> list[harness.Row]:
    if shutil.which("wrk") is None:
        raise RuntimeError("the summarize benchmark needs wrk (apt-get install wrk)")
    seconds = 1.0 if ctx.quick else 8.0  # wrk's shortest run
    ctx.notes.append(
        f"summarize: wrk -t1, {seconds:.0f} s per local-route case, client, service and fake upstream on one machine "
        "(2 cores); local-route ratio = our docs/s / bare req/s; overhead rows: "
        + (
            f"{OVERHEAD_ROUNDS} rounds of {OVERHEAD_ROUND_S:g} s per target"
            if seconds >= 5
            else f"one round of {seconds:g} s"
        )
        + ", ratio = direct p50 / service p50 (medians over the rounds)"
    )
    with tempfile.TemporaryDirectory(prefix="tahqiq-bench-") as tmp:
        work = Path(tmp)
        (work / "bare.py").write_text(BARE_APP)
        (work / "fake_upstream.py").write_text(FAKE_UPSTREAM)
        (work / "bare_proxy.py").write_text(BARE_PROXY)
        return measure_overhead(seconds, work) + measure_local(seconds, work)
