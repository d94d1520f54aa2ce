"""The group-commit batcher (store/_common.Batcher): batches gather while one is written, and with `gather_s` a
small batch that follows another waits for more items; a lone item never waits."""

from __future__ import annotations

import asyncio
import time

from tahqiq.store._common import Batcher

WRITE_S = 0.1  # how long the fake write takes: arrivals are spaced WRITE_S / 2 apart, far above scheduling noise
GATHER_S = 0.4  # long next to the machine's scheduling noise (and over WRITE_S / 2, so a late item can join)


class Recorder:
    def __init__(self) -> None:
        self.batches: list[list[int]] = []

    async def write(self, batch: list[int]) -> list[int]:
        self.batches.append(list(batch))
        await asyncio.sleep(WRITE_S)
        return [item * 10 for item in batch]


async def submit_later(batcher: Batcher[int, int], item: int, delay_s: float) -> int:
    await asyncio.sleep(delay_s)
    return await batcher.submit(item)


async def late_arrivals(gather_s: float) -> list[list[int]]:
    """Item 1 is written at once; item 2 arrives during that write; item 3 arrives just after it."""
    recorder = Recorder()
    batcher: Batcher[int, int] = Batcher(recorder.write, lambda i: i, 64, "test", gather_s=gather_s, gather_until=8)
    results = await asyncio.gather(
        batcher.submit(1), submit_later(batcher, 2, WRITE_S / 2), submit_later(batcher, 3, WRITE_S * 1.5)
    )
    await batcher.close()
    assert results == [10, 20, 30]  # every caller gets its own item's result
    return recorder.batches


async def test_without_gathering_the_late_item_gets_a_batch_of_its_own() -> None:
    assert await late_arrivals(0.0) == [[1], [2], [3]]


async def test_gathering_lets_the_late_item_join_the_next_batch() -> None:
    assert await late_arrivals(GATHER_S) == [[1], [2, 3]]


async def test_a_lone_item_is_written_at_once_even_when_gathering() -> None:
    recorder = Recorder()
    batcher: Batcher[int, int] = Batcher(recorder.write, lambda i: i, 64, "test", gather_s=GATHER_S, gather_until=8)
    started = time.monotonic()
    assert await batcher.submit(7) == 70
    assert time.monotonic() - started < GATHER_S  # written without waiting to gather
    assert await batcher.submit(8) == 80  # the batcher is idle again: no wait either
    assert time.monotonic() - started < 2 * WRITE_S + GATHER_S / 2
    await batcher.close()
    assert recorder.batches == [[7], [8]]


async def test_a_full_queue_does_not_wait() -> None:
    recorder = Recorder()
    batcher: Batcher[int, int] = Batcher(recorder.write, lambda i: i, 64, "test", gather_s=GATHER_S, gather_until=2)
    started = time.monotonic()
    first = asyncio.ensure_future(batcher.submit(1))
    await asyncio.sleep(WRITE_S / 2)  # item 1 is being written; 2 and 3 queue up, reaching gather_until
    await asyncio.gather(first, batcher.submit(2), batcher.submit(3))
    assert time.monotonic() - started < 2 * WRITE_S + GATHER_S / 2
    await batcher.close()
    assert recorder.batches == [[1], [2, 3]]
