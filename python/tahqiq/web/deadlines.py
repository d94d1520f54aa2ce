"""A deadline for every request body being read in a worker, kept with one timer for all of them.

A body that stops coming must not hold its connection, and a stopping server, for ever. One timer for all reads
rather than `asyncio.timeout` or a `call_later` timer per read: several times cheaper a read (see
docs/benchmarks.md, "Reading request bodies"). It works because every read gets the same time-out and is entered in
the order it starts: the oldest read is always the first to expire, so one timer, armed for the oldest, serves them
all.
"""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import Any


class Deadlines:
    """`with deadlines:` around a read; a read still running `timeout_s` after it began is cancelled and the block
    raises TimeoutError. Not for nesting: one block per task at a time."""

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._running: dict[asyncio.Task[Any], float] = {}  # task -> deadline, oldest first
        self._expired: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None

    def __enter__(self) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a first use, or a new loop (tests): a timer of an old loop never fires
            self._loop, self._timer = loop, None
            self._running.clear()
            self._expired.clear()
        task = asyncio.current_task()
        assert task is not None
        deadline = loop.time() + self.timeout_s
        self._running[task] = deadline
        if self._timer is None:
            self._timer = loop.call_at(deadline, self._expire)

    def __exit__(
        self, kind: type[BaseException] | None, _value: BaseException | None, _tb: TracebackType | None
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        if self._running.pop(task, None) is None and task in self._expired:
            self._expired.discard(task)
            if kind is asyncio.CancelledError:  # the cancellation is ours, not a caller's: it ends here
                task.uncancel()
                raise TimeoutError(f"not done within {self.timeout_s:g} s") from None

    def _expire(self) -> None:
        """Cancels the reads past their deadline and arms the timer for the oldest one left."""
        assert self._loop is not None
        self._timer = None
        now = self._loop.time()
        due = []
        for task, deadline in self._running.items():
            if deadline > now:
                self._timer = self._loop.call_at(deadline, self._expire)
                break
            due.append(task)
        for task in due:
            del self._running[task]
            self._expired.add(task)
            task.cancel()
