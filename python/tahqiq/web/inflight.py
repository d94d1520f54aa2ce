"""Counts the requests a worker is handling, so that its shutdown waits for them before closing what they use.

The server stops a worker once its connections are done, but a request whose client went away keeps running in the
worker: without this count, it would find the store and the upstream client closed under it.
"""

from __future__ import annotations

import asyncio
from types import TracebackType


class InFlight:
    """`with in_flight:` around the handling of one request; `await in_flight.idle(timeout_s)` at shutdown."""

    def __init__(self) -> None:
        self.count = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def __enter__(self) -> None:
        self.count += 1
        self._idle.clear()

    def __exit__(
        self, _type: type[BaseException] | None, _value: BaseException | None, _tb: TracebackType | None
    ) -> None:
        self.count -= 1
        if self.count == 0:
            self._idle.set()

    async def idle(self, timeout_s: float) -> int:
        """Waits up to `timeout_s` for every request to end; how many are still running (0: all ended)."""
        if self.count:
            try:
                await asyncio.wait_for(self._idle.wait(), timeout_s)
            except TimeoutError:
                pass
        return self.count
