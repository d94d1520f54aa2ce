"""`tahqiq analyze --engine dask`: the batches of a run on an existing Dask distributed cluster.

The cluster's workers need only ``pip install tahqiq[cluster]``. Each worker process loads the language data once
(`tahqiq.analysis.api.loaded`, as an `Analyzer` does) and runs the same `batch.run_lines` as the local engine, so
the output is the same file. Dask schedules; tahqiq only submits the batches in order, keeps a bounded number in
flight and writes the answers in the input's order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from tahqiq.analysis.batch import BatchJob, Line, in_order, run_lines
from tahqiq.analysis.runner import AnalysisConfig


class ClusterUnavailable(Exception):
    """The scheduler cannot be reached, or the package for it is not installed."""


def run_on_worker(config: AnalysisConfig, job: BatchJob, lines: list[Line]) -> bytes:
    """On a Dask worker: one batch's output lines, with the data this worker process loaded once."""
    from tahqiq.analysis.api import loaded

    service, lock = loaded(config)
    with lock:
        return run_lines(service, job, lines)


class DaskEngine:
    """Runs the batches on the cluster whose scheduler is at ``scheduler`` (``tcp://HOST:PORT``), at most two a
    worker thread in flight."""

    def __init__(self, config: AnalysisConfig, scheduler: str, timeout_s: float = 10.0) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise ClusterUnavailable("the Dask engine needs dask.distributed: pip install 'tahqiq[cluster]'") from None
        self.config = config
        try:
            client = Client(scheduler, timeout=timeout_s, set_as_default=False)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        self.client: Any = client  # distributed is untyped
        threads: dict[str, int] = client.nthreads()  # type: ignore[no-untyped-call]
        self.slots = max(1, sum(threads.values()))

    def run(self, job: BatchJob, work: Iterable[list[Line]]) -> Iterator[tuple[int, bytes]]:
        def submit(batch: list[Line]) -> Any:
            return self.client.submit(run_on_worker, self.config, job, batch, pure=False)

        return in_order(submit, work, 2 * self.slots)

    def close(self) -> None:
        self.client.close()
