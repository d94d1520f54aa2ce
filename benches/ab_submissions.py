"""Same-run A/B of PostgreSQL submissions: two or more versions of the package served side by side under wrk.

    python -m benches.ab_submissions --variant old=/tmp/old/python --variant new=python --rounds 8 --seconds 5

Each variant (a directory holding the `tahqiq` package) gets a fresh database migrated by its own code and one
`tahqiq serve` process (one granian worker, as in `bench_access`). `--connections` sets wrk's open connections for
both routes (64 by default, as in `bench_access`): concurrent accepts share one transaction, so a submission's
throughput and cost depend on it where the bare route's hardly do. Every round measures, for each variant in turn
(the order alternates between rounds), the bare BlackSheep GET route and then the variant's submissions with the
access benchmark's request, so a variant's ratio is taken against the bare route measured just before it: on a
machine shared with other work the absolute figures wander, the ratio and the A/B medians much less. Per
submission it also reports the server's CPU by thread (the event loop is `python`, granian's runtime
`tokio-rt-worker`), PostgreSQL's CPU (every `postgres` process on the machine), wrk's CPU and the WAL written
(`pg_stat_wal`, server-wide), and per bare request the bare server's CPU and wrk's: when other work keeps both
cores busy, the ratio follows what a request costs all of them together. The figures are medians over the rounds.
Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

from benches import bench_access as ba
from tests.support.server import free_port

PATH = "/agents/access-core/submissions/claim_splitter"
TICK = os.sysconf("SC_CLK_TCK")


def _cpu_s(stat_path: str) -> float:
    fields = Path(stat_path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def _pids(session: int) -> list[int]:
    """The processes of a server started in a session of its own (granian's parent and its worker)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getsid(int(entry)) == session:
                    found.append(int(entry))
            except (ProcessLookupError, PermissionError):
                pass
    return found


def _threads_cpu(pids: list[int]) -> dict[str, float]:
    out: dict[str, float] = {}
    for pid in pids:
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                name = Path(f"/proc/{pid}/task/{tid}/comm").read_text().strip()
                out[name] = out.get(name, 0.0) + _cpu_s(f"/proc/{pid}/task/{tid}/stat")
        except FileNotFoundError:
            pass
    return out


def _postgres_cpu() -> float:
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if Path(f"/proc/{entry}/comm").read_text().strip() == "postgres":
                    total += _cpu_s(f"/proc/{entry}/stat")
            except (FileNotFoundError, ProcessLookupError):
                pass
    return total


def _children_cpu_s() -> float:
    """CPU time of this process's finished children: wrk's, once its run is over."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _wal(server_url: str) -> dict[str, float]:
    out = subprocess.run(
        ["psql", server_url, "-Atc", "SELECT wal_records, wal_bytes, wal_sync FROM pg_stat_wal"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return dict(zip(("wal_records", "wal_bytes", "wal_syncs"), map(float, out.strip().split("|")), strict=True))


def _serve(stack: ExitStack, name: str, python_dir: str, work: Path) -> tuple[str, int, str]:
    """A migrated fresh database and a server of the variant on it: (base URL, session id, identity token)."""
    env = ba.tahqiq_env(stack.enter_context(ba.fresh_pg_database()), work)
    env["PYTHONPATH"] = os.pathsep.join([str(work), str(Path(python_dir).resolve())])
    subprocess.run([sys.executable, "-m", "tahqiq", "migrate"], env=env, check=True, capture_output=True)
    ba.cli(env, "apps", "create", "--name", "platform", "--first-party")
    key = ba.cli(env, "agents", "create", "--role", "claim_splitter")["api_key"]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = work / f"{name}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tahqiq", "serve", "--port", str(port)],
            env=env,
            cwd=work,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    stack.callback(lambda: (os.killpg(proc.pid, 15), proc.wait()))
    ba.wait_up(base + "/healthz", proc, log)
    minted = httpx.post(
        base + "/agents/access-core/me/identity-token", json={"ttl": 3600}, headers={"Authorization": f"Bearer {key}"}
    )
    return base, proc.pid, str(minted.json()["data"]["token"])


def run(
    variants: dict[str, str], rounds: int, seconds: float, connections: int = ba.CONNECTIONS
) -> dict[str, dict[str, float]]:
    server_url = ba.pg_server_url()
    body = json.dumps({"work_type": "split", "results": [{"text": "الأرض مسطحة", "source": "bench"}]})
    records: dict[str, list[dict[str, float]]] = {name: [] for name in variants}
    with tempfile.TemporaryDirectory(prefix="tahqiq-ab-") as tmp, ExitStack() as stack:
        work = Path(tmp)
        (work / "bare.py").write_text(ba.BARE_APP)
        servers = {name: _serve(stack, name, python_dir, work) for name, python_dir in variants.items()}
        bare_port = free_port()
        bare_proc = subprocess.Popen(
            ba.granian_args("bare:app", bare_port),
            cwd=work,
            env={**os.environ, "PYTHONPATH": str(work)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        stack.callback(lambda: (os.killpg(bare_proc.pid, 15), bare_proc.wait()))
        bare = f"http://127.0.0.1:{bare_port}/"
        ba.wait_up(bare, bare_proc, work / "bare.log")
        scripts = {
            name: ba.lua_request("POST", PATH, {"X-Service-Agent-Identity": token}, body, new_key=True)
            for name, (_, _, token) in servers.items()
        }
        ba.wrk(bare, 1, None, work, connections)
        for name, (base, _, _) in servers.items():
            ba.wrk(base + PATH, 2, scripts[name], work, connections)  # warm up
        names = list(variants)
        for round_ in range(rounds):
            for name in names if round_ % 2 == 0 else names[::-1]:
                base, session, _ = servers[name]
                bare_pids, wrk0 = _pids(bare_proc.pid), _children_cpu_s()
                bare0 = sum(_threads_cpu(bare_pids).values())
                anchor = ba.wrk(bare, seconds, None, work, connections)
                bare_cpu, wrk_bare = sum(_threads_cpu(bare_pids).values()) - bare0, _children_cpu_s() - wrk0
                pids = _pids(session)
                threads0, pg0, wal0 = _threads_cpu(pids), _postgres_cpu(), _wal(server_url)
                wrk0 = _children_cpu_s()
                ours = ba.wrk(base + PATH, seconds, scripts[name], work, connections)
                wrk_ours = _children_cpu_s() - wrk0
                threads1, pg1, wal1 = _threads_cpu(pids), _postgres_cpu(), _wal(server_url)
                n = ours.requests
                record = {
                    "req_s": ours.rps,
                    "bare_req_s": anchor.rps,
                    "ratio": ours.rps / anchor.rps,
                    "p50_ms": ours.p50_ms,
                    "p99_ms": ours.p99_ms,
                    "errors": float(ours.errors),
                    "postgres_us": (pg1 - pg0) / n * 1e6,
                    "wrk_us": wrk_ours / n * 1e6,
                    "bare_server_us": bare_cpu / anchor.requests * 1e6,
                    "bare_wrk_us": wrk_bare / anchor.requests * 1e6,
                    **{key: (wal1[key] - wal0[key]) / n for key in wal1},
                    **{f"{t}_us": (threads1[t] - threads0.get(t, 0.0)) / n * 1e6 for t in threads1},
                }
                records[name].append(record)
                print(name, round_, {k: round(v, 3) for k, v in record.items() if abs(v) >= 0.001}, flush=True)
                time.sleep(2)  # the processor works off what this round queued before the next round
    return {
        name: {key: statistics.median(r.get(key, 0.0) for r in recs) for key in sorted({k for r in recs for k in r})}
        for name, recs in records.items()
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", required=True, help="NAME=DIR holding the tahqiq package")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument(
        "--connections", type=int, default=ba.CONNECTIONS, help="wrk's open connections, for both routes"
    )
    args = parser.parse_args(argv)
    variants = dict(spec.split("=", 1) for spec in args.variant)
    medians: dict[str, Any] = run(variants, args.rounds, args.seconds, args.connections)
    print(f"\nmedians of {args.rounds} rounds of {args.seconds:g} s, {args.connections} connections")
    for name, figures in medians.items():
        print(name, json.dumps({k: round(v, 3) for k, v in figures.items()}))


if __name__ == "__main__":
    main()
