"""Concurrent identical reads answered by one call.

Agents poll the claim queues, and many agents of a role ask the same question at the same time: "the oldest
`limit` claims my role has not worked on"; every mint asks which signing key is the newest. `ReadCoalescer.get(key)`
lets every read of one key that is waiting share one call of `fetch(key)` (one store query, and for a queue one
rendered body) instead of making one each.

No answer is older than its request. A call that has already begun may have read the store before a request
arrived, so a request that arrives during a call never joins it: it waits for the next call, which begins once
that one is over and serves every request that arrived in the meantime. So each answer reflects every write that
completed before its request arrived, as if the request had made its own call; under load there is at most one
call per key in progress, and each one answers all the requests that queued behind the one before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


class ReadCoalescer(Generic[Key, Value]):
    """`get(key)` answers with `fetch(key)`, one call shared by the requests for `key` that wait together."""

    def __init__(self, fetch: Callable[[Key], Awaitable[Value]], name: str) -> None:
        self._fetch = fetch
        self._name = name
        # Per key, the call that has not begun yet: requests arriving now join it.
        self._next: dict[Key, asyncio.Future[Value]] = {}
        # Per key, the task making its calls one after another while requests keep arriving.
        self._callers: dict[Key, asyncio.Task[None]] = {}

    async def get(self, key: Key) -> Value:
        future = self._next.get(key)
        if future is None:
            loop = asyncio.get_running_loop()
            future = self._next[key] = loop.create_future()
            if key not in self._callers:
                self._callers[key] = loop.create_task(self._calls(key), name=self._name)
        # shield: a waiter that gives up (its client went away) must not cancel the answer the others wait for
        # (and a shield whose waiter gave up reads the call's error, so an error nobody awaits is not reported).
        return await asyncio.shield(future)

    async def _calls(self, key: Key) -> None:
        """Makes the calls for `key` until no request is waiting for one. Requests that arrive in the same
        event-loop turn as the first one all join the first call, because this task begins on the next turn."""
        try:
            while (future := self._next.pop(key, None)) is not None:
                try:
                    value = await self._fetch(key)
                except Exception as exc:  # this call's waiters get the error; a later request makes a new call
                    future.set_exception(exc)
                except BaseException:  # cancelled (the loop is shutting down): nobody will answer these waiters
                    future.cancel()
                    raise
                else:
                    future.set_result(value)
        finally:
            del self._callers[key]
            if (waiting := self._next.pop(key, None)) is not None:  # cancelled: those queued for the next call too
                waiting.cancel()
