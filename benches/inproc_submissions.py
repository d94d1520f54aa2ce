"""In-process A/B of PostgreSQL submissions: CPU per submission without HTTP, for changes too small for wrk to resolve.

    python -m benches.inproc_submissions --variant old=/tmp/old/python --variant new=python --rounds 8 --seconds 4

Each run is a child process of one variant (a directory holding the `tahqiq` package) on a fresh database migrated by
its own code: the service's parts as `tahqiq serve` builds them (`tahqiq.web.service.Service`: store, token service,
access service, submission processor), started under uvloop, and 64 concurrent tasks that each identify the
benchmark's token and submit the access benchmark's claim_splitter body with a new Idempotency-Key, again and again.
After 2 s of warm-up it measures, over `--seconds`, the submissions answered, this process's CPU (every thread: the
requests' Python, the accept batches and the processor) and the CPU of the database's PostgreSQL backends
(`/proc/PID/schedstat`; the WAL writer and other server-wide processes are not counted). Runs alternate between the
variants, and the figures are medians over the rounds: on a machine shared with other work the CPU per submission
wanders much less than the throughput. What it leaves out (granian, BlackSheep, the request's bytes) is the same for
every variant.
Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from benches import bench_access as ba

ROOT = Path(__file__).resolve().parent.parent
PATH = "/agents/access-core/submissions/claim_splitter"
BODY = json.dumps({"work_type": "split", "results": [{"text": "الأرض مسطحة", "source": "bench"}]}).encode()
TASKS = 64
WARM_S = 2.0


def _cpu_ns(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
    except (FileNotFoundError, ProcessLookupError):
        return 0  # a backend that ended in between: its CPU is lost to the measure, which only undercounts


def _backends(database: str) -> list[int]:
    """The PostgreSQL backends connected to `database` (their command line names it)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_text()
            except (FileNotFoundError, ProcessLookupError, PermissionError):
                continue
            if command.startswith("postgres:") and f" {database} " in command:
                found.append(int(entry))
    return found


def child(seconds: float) -> dict[str, float]:
    """One run of the package on sys.path against a fresh database: submissions/s and CPU per submission."""
    import uvloop
    from tahqiq.config import Settings
    from tahqiq.store import open_store
    from tahqiq.web.app import tune_collector
    from tahqiq.web.service import Service

    with tempfile.TemporaryDirectory(prefix="tahqiq-inproc-") as tmp, ba.fresh_pg_database() as url:
        env = ba.tahqiq_env(url, Path(tmp))  # its PYTHONPATH names the variant's package first, as ours does
        subprocess.run([sys.executable, "-m", "tahqiq", "migrate"], env=env, check=True, capture_output=True)
        ba.cli(env, "apps", "create", "--name", "platform", "--first-party")
        api_key = ba.cli(env, "agents", "create", "--role", "claim_splitter")["api_key"]
        settings = Settings.from_env({k: v for k, v in env.items() if k.startswith(("TAHQIQ_", "AGENT_"))})
        settings = settings.with_secret_key()
        database = url.rsplit("/", 1)[1]

        async def run() -> dict[str, float]:
            service = Service(settings, open_store(settings.database_url))
            await service.start()
            minted = await service.access.mint(f"Bearer {api_key}", b'{"ttl": 3600}', "bench", time.time())
            token = json.loads(minted.body)["data"]["token"]
            answered = 0
            stopping = False

            async def submitter() -> None:
                nonlocal answered
                while not stopping:
                    now = time.time()
                    claims = await service.access.identify(token, now)
                    reply = await service.access.submit(claims, "claim_splitter", PATH, str(uuid.uuid4()), BODY, now)
                    if reply.status != 202:
                        raise RuntimeError(f"submission answered {reply.status}: {reply.body!r}")
                    answered += 1

            tasks = [asyncio.create_task(submitter()) for _ in range(TASKS)]
            await asyncio.sleep(WARM_S)
            backends = _backends(database)
            cpu0, wall0, pg0, n0 = time.process_time(), time.perf_counter(), sum(map(_cpu_ns, backends)), answered
            await asyncio.sleep(seconds)
            cpu1, wall1, pg1, n1 = time.process_time(), time.perf_counter(), sum(map(_cpu_ns, backends)), answered
            stopping = True
            await asyncio.gather(*tasks)
            await service.stop()
            n = n1 - n0
            return {
                "sub_s": n / (wall1 - wall0),
                "process_us": (cpu1 - cpu0) / n * 1e6,
                "postgres_us": (pg1 - pg0) / n / 1e3,
            }

        tune_collector()  # as a server worker does
        return uvloop.run(run())


def run(variants: dict[str, str], rounds: int, seconds: float) -> dict[str, dict[str, float]]:
    records: dict[str, list[dict[str, float]]] = {name: [] for name in variants}
    names = list(variants)
    for round_ in range(rounds):
        for name in names if round_ % 2 == 0 else names[::-1]:
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(variants[name]).resolve()), str(ROOT)])}
            out = subprocess.run(
                [sys.executable, "-m", "benches.inproc_submissions", "--child", "--seconds", str(seconds)],
                env=env,
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            record = json.loads(out.stdout.strip().splitlines()[-1])
            records[name].append(record)
            print(name, round_, {k: round(v, 1) for k, v in record.items()}, flush=True)
    return {name: {k: statistics.median(r[k] for r in recs) for k in sorted(recs[0])} for name, recs in records.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", default=[], help="NAME=DIR holding the tahqiq package")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.seconds)))
        return
    if not args.variant:
        parser.error("give at least one --variant NAME=DIR")
    variants = dict(spec.split("=", 1) for spec in args.variant)
    medians: dict[str, Any] = run(variants, args.rounds, args.seconds)
    print(f"\nmedians of {args.rounds} rounds of {args.seconds:g} s")
    for name, figures in medians.items():
        print(name, json.dumps({k: round(v, 1) for k, v in figures.items()}))


if __name__ == "__main__":
    main()
