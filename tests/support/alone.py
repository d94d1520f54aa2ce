"""Tests marked ``alone`` run while no other test runs in another test process of the same run.

A bound on wall-clock time ("answers within 3 s of starting") is a claim about a machine that is otherwise idle:
with `pytest -n auto` on two cores, the other test process may be starting servers of its own meanwhile, and CI
once measured 3.1 s for a start that takes 1.5 s alone. So every test holds a shared lock on a file of its run
while it runs (its fixtures' setup and teardown included), and an ``alone`` test holds it exclusively.

A second file is the turnstile that keeps an ``alone`` test from waiting for ever: a test passes through it (holds
it shared, briefly) before it takes its shared lock, and an ``alone`` test holds it exclusively from the moment it
starts waiting, so the other process starts no new test while it waits for the current one to finish.
The two files are empty and named by the run (pytest-xdist's run id), in the temporary folder.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path


@contextmanager
def _locked(path: Path, operation: int) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, operation)
        yield
    finally:
        os.close(fd)  # closing releases the lock


@contextmanager
def machine_share(folder: Path, run: str, *, alone: bool) -> Iterator[None]:
    """Held while one test runs: shared, or exclusive when ``alone``, among the test processes of ``run``."""
    turnstile, running = folder / f"tahqiq-tests-{run}.turnstile", folder / f"tahqiq-tests-{run}.running"
    if alone:
        with _locked(turnstile, fcntl.LOCK_EX), _locked(running, fcntl.LOCK_EX):
            yield
        return
    with ExitStack() as held:
        with _locked(turnstile, fcntl.LOCK_SH):  # through the turnstile, then let go of it
            held.enter_context(_locked(running, fcntl.LOCK_SH))
        yield
