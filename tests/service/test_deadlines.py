"""The one-timer deadlines of body reads (tahqiq.web.deadlines): each read that runs over is cancelled and raises
TimeoutError, at its own deadline; the others are left alone; a caller's own cancellation stays a cancellation."""

from __future__ import annotations

import asyncio
import time

import pytest
from tahqiq.web.deadlines import Deadlines


async def read(deadlines: Deadlines, takes_s: float) -> float:
    """A read taking `takes_s`; when it ended, or raised TimeoutError, measured from its start."""
    started = time.monotonic()
    with deadlines:
        await asyncio.sleep(takes_s)
    return time.monotonic() - started


async def test_only_the_reads_that_run_over_expire_each_at_its_deadline() -> None:
    deadlines = Deadlines(0.3)

    async def later(delay_s: float, takes_s: float) -> tuple[bool, float]:
        """Whether the read started after `delay_s` timed out, and after how long."""
        await asyncio.sleep(delay_s)
        started = time.monotonic()
        try:
            await read(deadlines, takes_s)
        except TimeoutError:
            return True, time.monotonic() - started
        return False, time.monotonic() - started

    # Started at 0, 0.1 and 0.2 s: the first and the third run over (at 0.3 and 0.5 s), the second ends in time.
    (first, first_s), (second, second_s), (third, third_s) = await asyncio.gather(
        later(0, 5), later(0.1, 0.1), later(0.2, 5)
    )
    assert first and third and not second
    assert 0.3 <= first_s < 0.5 and 0.3 <= third_s < 0.5 and second_s < 0.3
    with pytest.raises(TimeoutError):  # once every read is over, the timer is armed again for a new one
        await read(deadlines, 5)


async def test_an_expired_read_leaves_its_task_usable() -> None:
    deadlines = Deadlines(0.05)
    with pytest.raises(TimeoutError):
        await read(deadlines, 5)
    task = asyncio.current_task()
    assert task is not None and task.cancelling() == 0  # the cancellation was taken back
    await asyncio.sleep(0.1)  # no cancellation left pending for the task's next await


async def test_a_callers_cancellation_stays_a_cancellation() -> None:
    deadlines = Deadlines(5)
    task = asyncio.create_task(read(deadlines, 5))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
