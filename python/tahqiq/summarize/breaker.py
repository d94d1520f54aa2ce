"""A circuit breaker per upstream: stop calling an upstream that keeps failing, try it again after a while.

closed --(N consecutive failures)--> open --(reset time passed)--> half-open: one trial call goes through;
its success closes the breaker, its failure opens it again for another reset time. Only failures of the
upstream itself count (5xx, 429 after the retry, time-outs, refused connections): a client error (4xx) or an
unusable answer shows that the upstream is up, and counts as an answer.
The state is per process: each worker learns on its own that an upstream is down.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from enum import Enum


class BreakerState(Enum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


class BreakerOpen(Exception):
    """The breaker refuses the call; `retry_after_s` (whole seconds, at least 1) is when it will let one through."""

    def __init__(self, name: str, retry_after_s: int) -> None:
        super().__init__(f"{name} is failing; not called for {retry_after_s} s")
        self.retry_after_s = retry_after_s


class CircuitBreaker:
    def __init__(self, name: str, failures: int, reset_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.failures = failures
        self.reset_s = reset_s
        self._clock = clock
        self._consecutive = 0
        self._opened_at: float | None = None  # None: closed
        self._trial_running = False

    @property
    def state(self) -> BreakerState:
        if self._opened_at is None:
            return BreakerState.CLOSED
        if self._clock() - self._opened_at >= self.reset_s:
            return BreakerState.HALF_OPEN
        return BreakerState.OPEN

    def remaining_s(self) -> int:
        """Whole seconds (at least 1) until an open breaker lets a trial through."""
        if self._opened_at is None:
            return 1
        return max(1, math.ceil(self.reset_s - (self._clock() - self._opened_at)))

    def acquire(self) -> None:
        """Permission for one call, or BreakerOpen. In half-open state only one trial runs at a time."""
        state = self.state
        if state is BreakerState.CLOSED:
            return
        if state is BreakerState.HALF_OPEN and not self._trial_running:
            self._trial_running = True
            return
        raise BreakerOpen(self.name, self.remaining_s())

    def succeeded(self) -> None:
        """The upstream answered (a 2xx, or a client error): close."""
        self._consecutive = 0
        self._opened_at = None
        self._trial_running = False

    def failed(self) -> None:
        """The upstream failed: count it; open at the threshold, or again at once after a failed trial."""
        self._consecutive += 1
        if self._trial_running or self._consecutive >= self.failures:
            self._opened_at = self._clock()
        self._trial_running = False

    def abandoned(self) -> None:
        """The call ended without a verdict (cancelled): let another trial through."""
        self._trial_running = False
