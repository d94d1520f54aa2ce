"""Rate-limit answer headers, shared by every area that limits requests (submissions, summarization).

The counting itself lives in the store (`Store.hit_rate`), so that limits hold across processes;
`WriteBehindCounter` spares a request the wait for the store's commit while its bucket is far from the limit.
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass, field

from tahqiq.store._common import counted, window
from tahqiq.store.protocol import RateDecision, RateLimit, Store

log = logging.getLogger("tahqiq.ratelimit")


def rate_headers(decision: RateDecision, window_s: int) -> dict[str, str]:
    """`X-RateLimit-*` and the IETF `RateLimit-Policy`/`RateLimit` fields; `Retry-After` when refused."""
    reset = max(1, math.ceil(decision.reset_s))
    headers = {
        "X-RateLimit-Limit": str(decision.limit),
        "X-RateLimit-Remaining": str(decision.remaining),
        "RateLimit-Policy": f'"default";q={decision.limit};w={window_s}',
        "RateLimit": f'"default";r={decision.remaining};t={reset}',
    }
    if not decision.allowed:
        headers["Retry-After"] = str(reset)
    return headers


@dataclass(slots=True)
class _View:
    window_start: float
    seen: int  # the highest count of the window the store has answered with
    pending: int = 0  # requests allowed here whose count the store has not confirmed yet
    writes: set[asyncio.Task[None]] = field(default_factory=set)


class WriteBehindCounter:
    """Counts every request in the store, and waits for the store only when the answer could be "no".

    While the count this process last saw, plus the requests it has allowed since, leaves more than `headroom`
    units of the limit, a request is allowed at once and its count is written behind (the store's write is a
    commit: about half a millisecond on SQLite, a round trip on PostgreSQL). Near the limit, and for a bucket this
    process has not seen in the current window, every request waits for the store's count, so a single process
    is exact, and processes sharing a store can together go over a limit only when the others used more than
    `headroom` units since this one last looked (then by at most the requests this one has in flight).
    """

    def __init__(self, store: Store, rate: RateLimit, headroom: int | None = None, max_views: int = 100_000) -> None:
        self._store = store
        self.rate = rate
        self.headroom = max(2, rate.limit // 10) if headroom is None else headroom
        self._views: dict[str, _View] = {}
        self._max_views = max_views
        self._writes: set[asyncio.Task[None]] = set()

    async def hit(self, bucket: str, now: float) -> RateDecision:
        start, ends_at = window(self.rate, now)  # the store's own window arithmetic
        view = self._views.get(bucket)
        if (
            view is not None
            and view.window_start == start
            and view.seen + view.pending + 1 <= self.rate.limit - self.headroom
        ):
            view.pending += 1
            task = asyncio.get_running_loop().create_task(self._write_behind(bucket, now, view))
            for tasks in (self._writes, view.writes):
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            return counted(self.rate, view.seen + view.pending, ends_at, now)
        if view is not None and view.writes:
            # The store's answer must count this process's earlier requests before this one: wait for them.
            await asyncio.gather(*list(view.writes), return_exceptions=True)
        decision = await self._store.hit_rate(bucket, self.rate, now)
        self._see(bucket, start, decision)
        return decision

    async def _write_behind(self, bucket: str, now: float, view: _View) -> None:
        try:
            decision = await self._store.hit_rate(bucket, self.rate, now)
        except Exception:
            log.exception("rate count of a request could not be written")
            view.pending -= 1
            return
        view.pending -= 1
        self._see(bucket, view.window_start, decision)

    def _see(self, bucket: str, window_start: float, decision: RateDecision) -> None:
        seen = decision.limit - decision.remaining if decision.allowed else decision.limit + 1
        view = self._views.get(bucket)
        if view is None or view.window_start != window_start:
            if len(self._views) >= self._max_views:
                self._views = {k: v for k, v in self._views.items() if v.window_start >= window_start}
            self._views[bucket] = _View(window_start, seen)
        else:
            view.seen = max(view.seen, seen)

    async def flush(self) -> None:
        """Waits for the counts still being written (before the store closes)."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)
