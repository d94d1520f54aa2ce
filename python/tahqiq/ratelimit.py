"""Rate-limit answer headers, shared by every area that limits requests (submissions, summarization).

The counting itself lives in the store (`Store.hit_rate`), so that limits hold across processes;
`WriteBehindCounter` spares a request the wait for the store's commit while its bucket is far from the limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from dataclasses import dataclass, field

from tahqiq.limits import RateDecision, RateLimit, counted, window
from tahqiq.store.protocol import Store

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


GATHER_S = 0.02
"""How long the counts of one bucket are gathered into one store write: a commit per request added latency to the
summarize route even though written behind (see docs/benchmarks.md, "Rate-limit counts")."""


@dataclass(slots=True)
class _View:
    window_start: float
    seen: int  # the highest count of the window the store has answered with
    pending: int = 0  # requests allowed here whose count the store has not confirmed yet
    unsent: int = 0  # of those, the ones not handed to the store yet
    last_now: float = 0.0  # when the latest of them came (in this window)
    writer: asyncio.Task[None] | None = None  # writes the unsent counts, one store call per gathering
    hurry: asyncio.Event = field(default_factory=asyncio.Event)  # set: write now, stop gathering


class WriteBehindCounter:
    """Counts every request in the store, and waits for the store only when the answer could be "no".

    While the count this process last saw, plus the requests it has allowed since, leaves more than `headroom`
    units of the limit, a request is allowed at once and its count is written behind (the store's write is a
    commit: a sync to disk on SQLite, a round trip on PostgreSQL); the counts of one bucket are gathered
    for `gather_s` into one write. Near the limit, and for a bucket this process has not seen in the current
    window, every request waits for the store's count (after the gathered ones), so a single process is exact,
    and processes sharing a store can together go over a limit only when the others used more than `headroom`
    units since this one last looked (then by at most the requests this one has in flight or gathered).
    """

    def __init__(
        self,
        store: Store,
        rate: RateLimit,
        headroom: int | None = None,
        max_views: int = 100_000,
        gather_s: float = GATHER_S,
    ) -> None:
        self._store = store
        self.rate = rate
        self.headroom = max(2, rate.limit // 10) if headroom is None else headroom
        self.gather_s = gather_s
        self._views: dict[str, _View] = {}
        self._max_views = max_views
        self._writers: dict[asyncio.Task[None], _View] = {}

    async def hit(self, bucket: str, now: float) -> RateDecision:
        start, ends_at = window(self.rate, now)  # the store's own window arithmetic
        view = self._views.get(bucket)
        if (
            view is not None
            and view.window_start == start
            and view.seen + view.pending + 1 <= self.rate.limit - self.headroom
        ):
            view.pending += 1
            view.unsent += 1
            view.last_now = now
            if view.writer is None:
                view.writer = task = asyncio.get_running_loop().create_task(self._write_behind(bucket, view))
                self._writers[task] = view
                task.add_done_callback(self._written)
            return counted(self.rate, view.seen + view.pending, ends_at, now)
        if view is not None and view.writer is not None:
            # The store's answer must count this process's earlier requests before this one: write them now.
            view.hurry.set()
            await asyncio.gather(view.writer, return_exceptions=True)
        decision = await self._store.hit_rate(bucket, self.rate, now)
        self._see(bucket, start, decision)
        return decision

    def _written(self, task: asyncio.Task[None]) -> None:
        del self._writers[task]

    async def _write_behind(self, bucket: str, view: _View) -> None:
        try:
            while view.unsent:
                if self.gather_s > 0 and not view.hurry.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(view.hurry.wait(), self.gather_s)
                units, view.unsent = view.unsent, 0
                try:
                    decision = await self._store.hit_rate(bucket, self.rate, view.last_now, units)
                except Exception:
                    log.exception("rate count of %d request(s) could not be written", units)
                    view.pending -= units
                    continue
                view.pending -= units
                self._see(bucket, view.window_start, decision)
        finally:
            view.writer = None
            view.hurry.clear()

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
        """Writes the gathered counts and waits for the counts still being written (before the store closes)."""
        while self._writers:
            for view in self._writers.values():
                view.hurry.set()
            await asyncio.gather(*list(self._writers), return_exceptions=True)
