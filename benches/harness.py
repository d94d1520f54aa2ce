"""Shared timing helpers for the benchmarks: medians over repeats, ratios to an anchor timed in the same run.

Machines here are noisy, so nothing reports a single absolute time: each case is timed `repeats` times,
interleaved with its anchor, and the table shows medians and the anchor/ours ratio.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Row:
    """One line of benches/RESULTS.md."""

    group: str
    case: str
    ours_s: float  # median seconds per unit of work (query, call, document ...)
    anchor_s: float | None  # same work by the anchor, same run; None when there is no anchor
    anchor: str  # what the anchor is
    unit: str = "call"
    target: str = ""  # the aim, in words, e.g. ">= 100x"
    met: bool | None = None  # whether the aim holds in this run
    notes: str = ""

    @property
    def ratio(self) -> float | None:
        """How many times faster we are than the anchor (anchor time / our time)."""
        if self.anchor_s is None or self.ours_s <= 0:
            return None
        return self.anchor_s / self.ours_s


@dataclass
class Context:
    """What every benchmark module receives: sizes chosen by the runner, and a place for machine notes."""

    quick: bool = False
    notes: list[str] = field(default_factory=list)


def median_time(fn: Callable[[], object], *, repeats: int = 7, number: int = 1) -> float:
    """Median wall time of `number` calls of `fn`, over `repeats` rounds, divided by `number`."""
    times = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            for _ in range(number):
                fn()
            times.append((time.perf_counter() - start) / number)
    finally:
        if gc_was_enabled:
            gc.enable()
    return statistics.median(times)


def paired_medians(
    ours: Callable[[], object], anchor: Callable[[], object], *, repeats: int = 7, number: int = 1
) -> tuple[float, float]:
    """Median times of `ours` and `anchor`, interleaved round by round so drift hits both alike."""
    ours_t: list[float] = []
    anchor_t: list[float] = []
    for _ in range(repeats):
        ours_t.append(median_time(ours, repeats=1, number=number))
        anchor_t.append(median_time(anchor, repeats=1, number=number))
    return statistics.median(ours_t), statistics.median(anchor_t)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by nearest rank; used for p50/p99 of latency samples."""
    if not values:
        raise ValueError("no samples")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[rank]
