"""`tahqiq analyze --engine dask` (issue 21) on a real Dask cluster on this machine: a scheduler and two worker
processes, started as an operator would with the `dask` command; the output must be the local engine's, byte for
byte."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.analysis.test_batch import ROWS, analyze
from tests.support.server import free_port

DASK = str(Path(sys.executable).with_name("dask"))


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from distributed import Client

    logs = tmp_path_factory.mktemp("dask")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ)
    procs = [
        subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=(logs / "scheduler.log").open("wb"),
            stderr=subprocess.STDOUT,
            env=env,
        )
    ]
    for i in range(2):
        procs.append(
            subprocess.Popen(
                [DASK, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                stdout=(logs / f"worker{i}.log").open("wb"),
                stderr=subprocess.STDOUT,
                env=env,
            )
        )
    try:
        deadline = time.monotonic() + 60
        with Client(address, timeout=30) as client:
            while len(client.nthreads()) < 2:
                assert time.monotonic() < deadline, (logs / "worker0.log").read_text()
                time.sleep(0.2)
        yield address
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_the_cluster_writes_the_local_engines_file(scheduler: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs.jsonl"
    lines = [json.dumps({"doc": row["id"], "body": row["text"]}, ensure_ascii=False) for row in ROWS[:100]]
    lines.insert(40, "{bad json")
    docs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    local, cluster = tmp_path / "local.jsonl", tmp_path / "cluster.jsonl"
    for task in ("ner", "wsd"):
        args = [task, "--field", "body", "--id", "doc", str(docs)]
        assert analyze(*args, "--out", str(local)).returncode == 0
        run = analyze(*args, "--out", str(cluster), "--engine", "dask", "--scheduler", scheduler)
        assert run.returncode == 0, run.stderr
        assert cluster.read_bytes() == local.read_bytes()
        assert cluster.read_bytes().count(b"\n") == 101
        local.unlink()
        cluster.unlink()


def test_an_unreachable_scheduler_gets_one_line() -> None:
    run = analyze("ner", "--engine", "dask", "--scheduler", f"tcp://127.0.0.1:{free_port()}", stdin=b"text\n")
    assert run.returncode == 2
    assert run.stderr.decode().startswith("tahqiq analyze: cannot reach the Dask scheduler at tcp://127.0.0.1:")
    assert run.stderr.decode().count("\n") == 1


def test_the_dask_engine_needs_a_scheduler() -> None:
    run = analyze("ner", "--engine", "dask", stdin=b"text\n")
    assert run.returncode == 2 and b"--scheduler" in run.stderr
