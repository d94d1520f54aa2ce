"""Same-run A/B of the NER recognizer: two or more versions of the package timed in alternating rounds.

    python -m benches.ab_ner --variant before=/tmp/old/python --variant after=python --rounds 10

Each variant (a directory holding the `tahqiq` package, with its compiled extension) runs in a process of its own
that builds one `Recognizer`, warms its memo on the sentences of ``benches/bench_ner.py`` (30-word windows of the
development gold sets), then times one pass over all of them per round (nested mode, with offsets, as /ner answers).
Rounds alternate the variants' order, so drift on a noisy machine falls on both. The report is each variant's
median pass time and its ratio to the first variant's, round by round (the median of the per-round ratios).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# The worker: builds the recognizer, warms it, then answers one timed pass per line it reads.
_WORKER = """
import json, sys, time
from benches.bench_ner import sentences
from tahqiq.analysis.ner import Recognizer
limit = int(sys.argv[1])
sents = sentences()[:limit] if limit else sentences()
rec = Recognizer()
for s in sents:
    rec.tag(s, include_offsets=True)
print(json.dumps({"sentences": len(sents)}), flush=True)
for _line in sys.stdin:
    t0 = time.perf_counter()
    for s in sents:
        rec.tag(s, include_offsets=True)
    print(json.dumps({"seconds": time.perf_counter() - t0}), flush=True)
"""


def _start(python_dir: str, limit: int) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([python_dir, str(ROOT)]))
    return subprocess.Popen(
        [sys.executable, "-c", _WORKER, str(limit)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


def _read(proc: subprocess.Popen[str]) -> dict[str, Any]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        raise RuntimeError(f"the NER worker stopped (exit {proc.wait()})")
    answer: dict[str, Any] = json.loads(line)
    return answer


def run(variants: dict[str, str], rounds: int, limit: int = 0) -> dict[str, dict[str, float]]:
    """Median pass time (s) of each variant and its median ratio to the first variant's, over `rounds` rounds
    (`limit`: only the first so many sentences, for a quick check)."""
    names = list(variants)
    procs = {name: _start(path, limit) for name, path in variants.items()}
    try:
        counts = {name: _read(proc)["sentences"] for name, proc in procs.items()}
        if len(set(counts.values())) != 1:
            raise RuntimeError(f"the variants read different sentences: {counts}")
        times: dict[str, list[float]] = {name: [] for name in names}
        for r in range(rounds):
            for name in names if r % 2 == 0 else reversed(names):
                proc = procs[name]
                assert proc.stdin is not None
                proc.stdin.write("pass\n")
                proc.stdin.flush()
                times[name].append(float(_read(proc)["seconds"]))
    finally:
        for proc in procs.values():
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=30)
    base = times[names[0]]
    return {
        name: {
            "sentences": float(counts[name]),
            "median_s": statistics.median(times[name]),
            "ratio": statistics.median(t / b for t, b in zip(times[name], base, strict=True)),
        }
        for name in names
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", required=True, help="NAME=DIR holding the tahqiq package")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args(argv)
    variants = dict(spec.split("=", 1) for spec in args.variant)
    medians = run(variants, args.rounds)
    print(f"medians of {args.rounds} rounds (ratio: to {next(iter(variants))}, round by round)")
    for name, figures in medians.items():
        print(name, json.dumps({k: round(v, 4) for k, v in figures.items()}))


if __name__ == "__main__":
    main()
