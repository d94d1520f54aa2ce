"""Rate-limit windows are fixed and aligned to multiples of their length (tahqiq.limits.window), so a test
that counts requests against one limit must not straddle a window's end, or the count restarts mid-test."""

from __future__ import annotations

import time


def start_well_inside_a_window(window_s: float, margin_s: float = 20.0) -> None:
    """Returns once at least `margin_s` seconds of the current `window_s`-second window are left (sleeping past the
    window's end when fewer are)."""
    left = window_s - time.time() % window_s
    if left < margin_s:
        time.sleep(left + 0.05)
