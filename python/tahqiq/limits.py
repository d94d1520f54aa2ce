"""Rate limits: a count per fixed window, and the arithmetic of the windows that the stores and the service share.

A limit is `limit` requests per window of `window_s` seconds; windows are aligned on multiples of `window_s` since the
epoch, so every process sharing a store counts the same windows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RateLimit:
    """`limit` requests per fixed window of `window_s` seconds."""

    limit: int
    window_s: int


@dataclass(frozen=True, slots=True)
class RateDecision:
    allowed: bool
    limit: int
    remaining: int  # after this request, never below 0
    reset_s: float  # seconds until the current window ends


def window(rate: RateLimit, now: float) -> tuple[int, float]:
    """The fixed window `now` falls in: (window_start, window end)."""
    if rate.window_s <= 0 or rate.limit < 0:
        raise ValueError(f"invalid rate limit {rate}")
    start = math.floor(now / rate.window_s) * rate.window_s
    return start, float(start + rate.window_s)


def counted(rate: RateLimit, count: int, ends_at: float, now: float) -> RateDecision:
    """The decision after counting this request as number `count` of the window."""
    return RateDecision(count <= rate.limit, rate.limit, max(0, rate.limit - count), ends_at - now)


def peeked(rate: RateLimit, count: int, ends_at: float, now: float) -> RateDecision:
    """The window's state with `count` requests in it, nothing counted."""
    return RateDecision(count < rate.limit, rate.limit, max(0, rate.limit - count), ends_at - now)
