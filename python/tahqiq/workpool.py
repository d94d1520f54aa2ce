"""A bound on the calls waiting for an executor, so that a burst of slow work is refused rather than queued forever.

The analysis runs in worker processes (or threads) behind one of these: it holds at most ``running`` calls under
way and ``queue`` more waiting, and refuses a call beyond that at once (`PoolFull`), so that a burst of long texts
turns into quick 503 answers rather than an unbounded queue of requests that time out.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

T = TypeVar("T")


class PoolFull(Exception):
    """Every worker is busy and the queue is full."""


class WorkPool:
    """`await pool.run(fn, *args)` runs `fn(*args)` on the executor, or raises `PoolFull` when the pool is full."""

    def __init__(self, executor: Executor, running: int, queue: int) -> None:
        self.executor = executor
        self.limit = running + queue
        self._taken = 0  # calls running or waiting, counted until each one ends (not until its caller stops waiting)
        self._lock = threading.Lock()  # released from the executor's threads

    @property
    def taken(self) -> int:
        return self._taken

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        with self._lock:
            if self._taken >= self.limit:
                raise PoolFull()
            self._taken += 1
        try:
            future = self.executor.submit(fn, *args)
        except BaseException:
            self._release(None)
            raise
        # Released when the call ends, even when its caller has gone (a client that left): a worker still busy
        # with a cancelled request's text counts against the bound until it is done.
        future.add_done_callback(self._release)
        return await asyncio.wrap_future(future)

    def _release(self, _future: Future[Any] | None) -> None:
        with self._lock:
            self._taken -= 1

    def shutdown(self) -> None:
        """Drops the calls still waiting; the running ones finish."""
        self.executor.shutdown(wait=False, cancel_futures=True)
