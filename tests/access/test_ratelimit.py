"""The write-behind rate counter: exact in one process, never waits for the store far from the limit."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st
from tahqiq.limits import RateDecision, RateLimit
from tahqiq.ratelimit import WriteBehindCounter


class SlowStore:
    """`hit_rate` of a real store's semantics, answering only when `gate` is set (a commit in progress)."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, float], int] = {}
        self.gate = asyncio.Event()
        self.gate.set()
        self.calls = 0

    async def hit_rate(self, bucket: str, rate: RateLimit, now: float, units: int = 1) -> RateDecision:
        self.calls += 1
        start = now // rate.window_s * rate.window_s
        key = (bucket, start)
        self.counts[key] = count = self.counts.get(key, 0) + units  # counted on arrival, like a queued write
        await self.gate.wait()
        return RateDecision(count <= rate.limit, rate.limit, max(0, rate.limit - count), start + rate.window_s - now)


def test_far_from_the_limit_no_request_waits_for_the_store() -> None:
    async def run() -> None:
        store = SlowStore()
        counter = WriteBehindCounter(store, RateLimit(100, 60))  # type: ignore[arg-type]
        first = await counter.hit("a", 10.0)  # an unknown bucket waits
        assert first.remaining == 99
        store.gate.clear()  # from now on the store does not answer
        decisions = [await asyncio.wait_for(counter.hit("a", 10.0), 0.5) for _ in range(20)]
        assert [d.remaining for d in decisions] == list(range(98, 78, -1)) and all(d.allowed for d in decisions)
        store.gate.set()
        await counter.flush()
        assert store.counts[("a", 0.0)] == 21  # every request counted in the store

    asyncio.run(run())


def test_counts_written_behind_are_gathered_into_one_write() -> None:
    async def run() -> None:
        store = SlowStore()
        counter = WriteBehindCounter(store, RateLimit(100, 60), gather_s=10)  # type: ignore[arg-type]
        await counter.hit("a", 10.0)
        assert store.calls == 1
        for _ in range(20):
            await counter.hit("a", 10.0)
        await asyncio.sleep(0.05)
        assert store.calls == 1  # still gathering
        started = asyncio.get_running_loop().time()
        await counter.flush()  # writes what was gathered without waiting out the 10 s
        assert asyncio.get_running_loop().time() - started < 1
        assert store.calls == 2 and store.counts[("a", 0.0)] == 21
        assert (await counter.hit("a", 11.0)).remaining == 78  # the store's count is the one seen

    asyncio.run(run())


def test_a_request_near_the_limit_does_not_wait_for_the_gathering() -> None:
    async def run() -> None:
        store = SlowStore()
        counter = WriteBehindCounter(store, RateLimit(10, 60), headroom=3, gather_s=10)  # type: ignore[arg-type]
        for _ in range(7):
            await counter.hit("a", 1.0)  # the first waits, six are gathered
        decision = await asyncio.wait_for(counter.hit("a", 1.0), 1)  # the 8th: the gathered six are written first
        assert decision.remaining == 2 and store.counts[("a", 0.0)] == 8
        await counter.flush()

    asyncio.run(run())


def test_near_the_limit_every_request_waits() -> None:
    async def run() -> None:
        store = SlowStore()
        counter = WriteBehindCounter(store, RateLimit(10, 60), headroom=3)  # type: ignore[arg-type]
        for _ in range(7):
            await counter.hit("a", 1.0)
        store.gate.clear()
        waiting = asyncio.ensure_future(counter.hit("a", 1.0))  # the 8th: within the headroom
        await asyncio.sleep(0.05)
        assert not waiting.done()
        store.gate.set()
        assert (await waiting).remaining == 2

    asyncio.run(run())


def test_a_new_window_starts_from_the_store() -> None:
    async def run() -> None:
        store = SlowStore()
        counter = WriteBehindCounter(store, RateLimit(5, 60), headroom=0)  # type: ignore[arg-type]
        assert [(await counter.hit("a", 59.0)).allowed for _ in range(6)] == [True] * 5 + [False]
        assert (await counter.hit("a", 60.0)).remaining == 4
        await counter.flush()

    asyncio.run(run())


def test_waiting_request_counts_after_the_written_behind_ones() -> None:
    """The store must count this process's earlier requests before the one that waits for its answer."""

    async def run() -> None:
        store = SlowStore()
        counter = WriteBehindCounter(store, RateLimit(2, 60), headroom=0)  # type: ignore[arg-type]
        assert [(await counter.hit("a", 1.0)).allowed for _ in range(3)] == [True, True, False]
        await counter.flush()

    asyncio.run(run())


@settings(max_examples=200, deadline=None)
@given(
    limit=st.integers(1, 40),
    headroom=st.integers(0, 5),
    steps=st.lists(st.tuples(st.sampled_from("abc"), st.floats(0, 30), st.booleans()), max_size=80),
    gather_s=st.sampled_from([0.0, 0.001]),
)
def test_one_process_is_exact(limit: int, headroom: int, steps: list[tuple[str, float, bool]], gather_s: float) -> None:
    """Whatever the interleaving of store answers, one process allows exactly `limit` requests per bucket and
    window, and the store counts every request."""

    async def run() -> None:
        store = SlowStore()
        counter = WriteBehindCounter(store, RateLimit(limit, 60), headroom, gather_s=gather_s)  # type: ignore[arg-type]
        now = 0.0
        allowed: dict[tuple[str, float], int] = {}
        for bucket, advance, settle in steps:
            now += advance
            decision = await counter.hit(bucket, now)
            key = (bucket, now // 60 * 60)
            allowed[key] = allowed.get(key, 0) + decision.allowed
            if settle:
                await asyncio.sleep(gather_s)  # lets some written-behind counts come back
        await counter.flush()
        for key, count in store.counts.items():
            assert allowed.get(key, 0) == min(count, limit)
        assert sum(store.counts.values()) == len(steps)

    asyncio.run(run())
