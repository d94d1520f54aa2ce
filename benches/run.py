"""Runs every benchmark in one process and writes benches/RESULTS.md.

    python -m benches.run            # full sizes (a few minutes)
    python -m benches.run --quick    # small sizes, a smoke test of the benchmarks themselves
    python -m benches.run --only lexicon,text --out /tmp/results.md

Each row compares tahqiq with the anchor named in the issue, measured in the same run; the ratio is
anchor time / our time, so above 1 means we are faster.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import os
import platform
import sys
from importlib import metadata
from pathlib import Path

from benches import harness

SUITES = [
    "lexicon",
    "text",
    "fingerprint",
    "access",
    "client",
    "morph",
    "analysis",
    "ner",
    "batch",
    "cold_start",
    "summarize",
    "scaling",
    "isolation",
]


def machine_facts() -> list[str]:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = []
    for dist in ("tahqiq", "rapidfuzz", "orjson", "numpy"):
        try:
            versions.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            pass
    return [
        f"CPU: {cpu}, {os.cpu_count()} logical cores",
        f"Python {platform.python_version()} on {platform.platform()}",
        ", ".join(versions),
    ]


def fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


HEADER = """# Benchmark results

One section per suite, each written by the run named in it (`python -m benches.run --only SUITE` rewrites that
section and keeps the others). Times are medians per unit; ratio = anchor time / tahqiq time, both measured in the
same run, so above 1 means tahqiq is faster.
"""


def render_section(suite: str, rows: list[harness.Row], ctx: harness.Context) -> str:
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"## {suite}",
        "",
        f"Written by `python -m benches.run{' --quick' if ctx.quick else ''}` on {when}.",
        "",
        *[f"- {fact}" for fact in machine_facts()],
        *[f"- {note}" for note in ctx.notes],
        "",
        "| group | case | unit | tahqiq | anchor | ratio | aim | met | anchor is | notes |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ratio = (
            f"{r.ratio:.2f}x"
            if r.ratio is not None and r.ratio < 10
            else (f"{r.ratio:.1f}x" if r.ratio is not None else "-")
        )
        anchor = fmt_time(r.anchor_s) if r.anchor_s is not None else "-"
        met = {True: "yes", False: "**no**", None: "-"}[r.met]
        lines.append(
            f"| {r.group} | {r.case} | {r.unit} | {fmt_time(r.ours_s)} | {anchor} | {ratio} | {r.target} "
            f"| {met} | {r.anchor} | {r.notes} |"
        )
    return "\n".join(lines) + "\n"


def merge_sections(previous: str, fresh: dict[str, str]) -> str:
    """The report with `fresh` sections replacing (or joining) those of the previous report, in SUITES order."""
    sections: dict[str, str] = {}
    for chunk in previous.split("\n## ")[1:]:
        name = chunk.split("\n", 1)[0].strip()
        if name in SUITES:
            sections[name] = "## " + chunk.rstrip("\n") + "\n"
    sections.update(fresh)
    return HEADER + "".join("\n" + sections[name] for name in SUITES if name in sections)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes: checks the benchmarks run")
    parser.add_argument("--only", default=",".join(SUITES), help=f"comma-separated suites of {SUITES}")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS.md"))
    args = parser.parse_args(argv)
    suites = [s for s in args.only.split(",") if s]
    unknown = set(suites) - set(SUITES)
    if unknown:
        parser.error(f"unknown suites {sorted(unknown)}; choose from {SUITES}")
    fresh: dict[str, str] = {}
    for suite in suites:
        ctx = harness.Context(quick=args.quick)
        module = importlib.import_module(f"benches.bench_{suite}")
        print(f"running {suite} ...", file=sys.stderr, flush=True)
        fresh[suite] = render_section(suite, module.run(ctx), ctx)
    previous = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
    report = merge_sections(previous, fresh)
    args.out.write_text(report, encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
