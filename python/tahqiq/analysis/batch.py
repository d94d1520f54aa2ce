"""Batch analysis: many documents through one operation, in order, on one core or many (``tahqiq analyze``).

A document is one input line: plain text, or a JSON object whose ``field`` holds the text (and whose ``id_field``
its id). Each line gives exactly one output line, in the input's order::

    {"id": ..., "line": N, "result": {...}}      the operation's answer, as its HTTP route gives it
    {"id": ..., "line": N, "error": {...}}       why this line has none: status, type, detail, errors

``N`` counts the input lines from 1 across all inputs; ``id`` is the ``id_field``'s value, or ``N`` when there is
none. Because the output has one line per input line, a run that stopped can resume by skipping as many input lines
as the output holds whole lines (`complete_lines`).

The work is done by `run_lines` (a batch of lines in, their output lines out), the same function for every engine:
in this process, in the worker processes of `LocalEngine` (started as the server's analysis workers are, by
`runner.start_worker`, and running `runner.perform` as they do), or on a Dask cluster (`tahqiq.analysis.cluster`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import orjson

from tahqiq.analysis import runner
from tahqiq.analysis.params import OPERATION_FIELDS, Params
from tahqiq.analysis.service import AnalysisService
from tahqiq.problems import Problem

# The operations a batch may run, with the parameters each takes besides `text`.
TASKS: dict[str, tuple[runner.Operation, frozenset[str]]] = {
    "ner": ("ner", OPERATION_FIELDS["ner"]),
    "re": ("re", OPERATION_FIELDS["re"]),
    "morph": ("morph", OPERATION_FIELDS["morph"]),
    "wsd": ("wsd", OPERATION_FIELDS["wsd"]),
    "glossary": ("glossary", OPERATION_FIELDS["glossary"]),
}


@dataclass(frozen=True, slots=True)
class BatchJob:
    """What every batch of a run shares: the task, its options (route parameters), where the text and id are."""

    task: str
    options: dict[str, Any] = field(default_factory=dict)
    text_field: str | None = None  # None: each line is the text itself
    id_field: str | None = None


@dataclass(frozen=True, slots=True)
class Line:
    number: int  # from 1, across every input
    raw: bytes  # without its line ending


def _error(number: int, doc_id: Any, status: int, kind: str, detail: str, errors: Any = None) -> bytes:
    error: dict[str, Any] = {"status": status, "type": kind, "detail": detail}
    if errors:
        error["errors"] = errors
    return orjson.dumps({"id": doc_id, "line": number, "error": error})


def run_line(service: AnalysisService, job: BatchJob, line: Line) -> bytes:
    """One input line's output line (no newline)."""
    number, doc_id = line.number, line.number
    if job.text_field is None:
        try:
            text: Any = line.raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return _error(number, doc_id, 400, "bad-line", f"not UTF-8 text: {exc.reason} at byte {exc.start}")
    else:
        try:
            row = orjson.loads(line.raw)
        except orjson.JSONDecodeError as exc:
            return _error(number, doc_id, 400, "bad-line", f"not a JSON object: {exc}")
        if not isinstance(row, dict):
            return _error(number, doc_id, 400, "bad-line", "not a JSON object")
        if job.id_field is not None:
            if job.id_field not in row:
                return _error(number, None, 400, "bad-line", f"no field {job.id_field!r} (--id)")
            doc_id = row[job.id_field]
        if job.text_field not in row:
            return _error(number, doc_id, 400, "bad-line", f"no field {job.text_field!r} (--field)")
        text = row[job.text_field]
    operation, allowed = TASKS[job.task]
    params = Params({**job.options, "text": text}, False, set(allowed))
    try:
        answer = runner.perform(service, runner.AnalysisCall(operation, params))
    except Problem as problem:
        detail = problem.detail
        return _error(number, doc_id, problem.status, problem.type.slug, detail, problem.errors)
    return orjson.dumps({"id": doc_id, "line": number, "result": orjson.Fragment(answer)})


def run_lines(service: AnalysisService, job: BatchJob, lines: list[Line]) -> bytes:
    """A batch's output lines, each ended by a newline."""
    return b"".join(run_line(service, job, line) + b"\n" for line in lines)


def _worker_run_lines(job: BatchJob, lines: list[Line]) -> bytes:
    assert runner.worker_service is not None
    return run_lines(runner.worker_service, job, lines)


def _worker_ready() -> bool:
    return runner.worker_service is not None


def read_lines(inputs: Iterable[BinaryIO], skip: int = 0) -> Iterator[Line]:
    """The lines of every input in turn, numbered from 1, the first ``skip`` left out (a resumed run's)."""
    number = 0
    for stream in inputs:
        for raw in stream:
            number += 1
            if number > skip:
                yield Line(number, raw.rstrip(b"\r\n"))


def batches(lines: Iterable[Line], size: int) -> Iterator[list[Line]]:
    batch: list[Line] = []
    for line in lines:
        batch.append(line)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def complete_lines(path: Path) -> int:
    """How many whole lines the output file holds; a partial last line (a run cut mid-write) is cut off."""
    if not path.exists():
        return 0
    with path.open("r+b") as out:
        data = out.read()
        whole = data.rfind(b"\n") + 1
        if whole < len(data):
            out.truncate(whole)
    return data.count(b"\n", 0, whole)


class Pending(Protocol):
    """A batch's answer to come: a `concurrent.futures.Future` or a Dask future."""

    def result(self) -> bytes: ...


def in_order(
    submit: Callable[[list[Line]], Pending], work: Iterable[list[Line]], in_flight: int
) -> Iterator[tuple[int, bytes]]:
    """Submits the batches one after another, at most ``in_flight`` unanswered, and yields each batch's size and
    output lines in the order the batches came (the engines' shared loop)."""
    pending: deque[tuple[int, Pending]] = deque()
    for batch in work:
        pending.append((len(batch), submit(batch)))
        while len(pending) >= in_flight:
            count, future = pending.popleft()
            yield count, future.result()
    while pending:
        count, future = pending.popleft()
        yield count, future.result()


class InProcessEngine:
    """Runs the batches here, one after another, on the service `service`."""

    def __init__(self, service: AnalysisService) -> None:
        self.service = service

    def run(self, job: BatchJob, work: Iterable[list[Line]]) -> Iterator[tuple[int, bytes]]:
        for batch in work:
            yield len(batch), run_lines(self.service, job, batch)

    def close(self) -> None:
        pass


class LocalEngine:
    """``jobs`` worker processes on this machine, each loading the language data once (as the server's analysis
    workers do); at most two batches a worker in flight, the output kept in the input's order."""

    def __init__(self, config: runner.AnalysisConfig, jobs: int) -> None:
        self.jobs = jobs
        self.executor = ProcessPoolExecutor(
            jobs, mp_context=get_context("spawn"), initializer=runner.start_worker, initargs=(config,)
        )
        # every worker started and loaded before the first batch (the pool starts one more process for each call
        # submitted while none is idle): the load is the start's, not the first batches'
        for ready in [self.executor.submit(_worker_ready) for _ in range(jobs)]:
            ready.result()

    def run(self, job: BatchJob, work: Iterable[list[Line]]) -> Iterator[tuple[int, bytes]]:
        return in_order(lambda batch: self.executor.submit(_worker_run_lines, job, batch), work, 2 * self.jobs)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
