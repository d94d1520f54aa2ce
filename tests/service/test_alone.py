"""The test run's ``alone`` marker (tests/support/alone.py): an ``alone`` test waits for the tests running in other
test processes, and no test starts while it waits or runs. Threads stand in for the test processes: flock locks
taken through different open files exclude each other within one process too."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from tests.support.alone import machine_share

WAIT_S = 0.3  # how long a thread is given to take a lock it should not get


def test_an_alone_test_waits_for_running_tests_and_no_test_starts_meanwhile(tmp_path: Path) -> None:
    events: list[str] = []
    first_may_end, alone_waits = threading.Event(), threading.Event()

    def test(name: str, *, alone: bool, hold: threading.Event | None = None) -> None:
        with machine_share(tmp_path, "run", alone=alone):
            events.append(f"{name} starts")
            if hold is not None:
                hold.wait(10)
            events.append(f"{name} ends")

    running = threading.Thread(target=test, args=("first",), kwargs={"alone": False, "hold": first_may_end})
    running.start()
    while "first starts" not in events:
        time.sleep(0.01)
    alone = threading.Thread(target=test, args=("alone",), kwargs={"alone": True, "hold": alone_waits})
    alone.start()
    time.sleep(WAIT_S)
    assert "alone starts" not in events  # the first test still runs
    later = threading.Thread(target=test, args=("later",), kwargs={"alone": False})
    later.start()
    time.sleep(WAIT_S)
    assert "later starts" not in events  # the turnstile is shut while the alone test waits
    first_may_end.set()
    running.join(10)
    while "alone starts" not in events:
        time.sleep(0.01)
    time.sleep(WAIT_S)
    assert "later starts" not in events  # nor while it runs
    alone_waits.set()
    alone.join(10)
    later.join(10)
    assert events == ["first starts", "first ends", "alone starts", "alone ends", "later starts", "later ends"]


def test_tests_that_are_not_alone_run_together(tmp_path: Path) -> None:
    both_in = threading.Barrier(2, timeout=10)

    def test() -> None:
        with machine_share(tmp_path, "run", alone=False):
            both_in.wait()  # raises BrokenBarrierError if the other cannot start meanwhile

    threads = [threading.Thread(target=test) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(15)
    assert not both_in.broken
