"""Where the analysis runs: in worker processes beside the server, never on its event loop.

Analysis is CPU-bound Python. Run on the event loop, one long text stopped every other request; run on threads of
the server's process, it still held the interpreter lock against the event loop, and `/health` slowed many times
over (see docs/operations.md, "Why worker processes, not threads"). Worker processes have their own interpreter, so
the event loop only waits for the operating system to give it a core. Each worker loads the language data once, at
its start.

`AnalysisRunner(config, processes, queue)`: ``processes`` worker processes (0: one thread of this process instead,
for embedding and for tests that patch the service), at most ``queue`` calls waiting for them. `load()` loads (the
first time on a machine: builds) the language data and reports `status` (``loading``, ``ready``, ``failed``) and
the data's `sizes`. `perform(call)` answers a call's JSON, or raises the `Problem` the operation raised, or 503
while the data is loading, after it failed to load, or when the queue is full.

One pool design for the server and the batch command: `tahqiq analyze`'s worker processes start with the same
`start_worker` and answer with the same `perform` (tahqiq.analysis.batch), and `Analyzer` calls `perform` in
process, so a fix or a speed-up here reaches all three.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import orjson

from tahqiq.analysis.compiled import SHIPPED_DIR, shipped_files
from tahqiq.analysis.params import Params
from tahqiq.problems import Problem
from tahqiq.workpool import PoolFull, WorkPool

if TYPE_CHECKING:  # the models are imported where they run (workers), not by the server's process at its start
    from tahqiq.analysis.service import AnalysisService

log = logging.getLogger("tahqiq.analysis")

Operation = Literal["lookup", "glossary", "morph", "ner", "wsd", "re", "lemma", "sense"]
Status = Literal["loading", "ready", "failed"]
LOADING_RETRY_AFTER_S = 5  # the shipped language data loads in a second or two; building it takes about a minute
BUSY_RETRY_AFTER_S = 1


@dataclass(frozen=True, slots=True)
class AnalysisConfig:
    """What a worker needs to build the analysis service."""

    data_dir: str  # imported dialect corpora ("": none, only the shipped corpus)
    cache_dir: str  # compiled language data
    max_chars: int

    def build(self, *, shipped_dir: Path | None = SHIPPED_DIR, build_processes: int = 1) -> AnalysisService:
        """The service; ``shipped_dir=None`` ignores the wheel's compiled data (to compile it), `build_processes`
        analyse the morphology table's forms if it is built."""
        from tahqiq.analysis.corpus.dialect import DialectIndex
        from tahqiq.analysis.corpus.importer import imported_corpora, shipped_corpus
        from tahqiq.analysis.service import AnalysisService

        imported = imported_corpora(Path(self.data_dir)) if self.data_dir else {}
        corpora = {"tahqiq": shipped_corpus(), **imported}
        return AnalysisService(
            DialectIndex(corpora),
            self.cache_dir,
            self.max_chars,
            shipped_dir=shipped_dir,
            build_processes=build_processes,
        )


def cpu_count() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def compile_into(folder: Path) -> list[Path]:
    """Builds every compiled data file (tahqiq.analysis.compiled) into ``folder`` and returns the files there. The
    build backend runs this on the wheel's contents."""
    config = AnalysisConfig(data_dir="", cache_dir=str(folder), max_chars=10_000)
    service = config.build(shipped_dir=None, build_processes=cpu_count())
    service.morphology.shared = False  # the analyser's shared answers are a running service's cache: not shipped
    service.prepare()
    return shipped_files(folder)


@dataclass(frozen=True, slots=True)
class AnalysisCall:
    """One request to an analysis operation, as a worker process receives it."""

    operation: Operation
    params: Params
    base_url: str = ""  # for the lemma and sense links in answers
    key: str = ""  # the lemma or sense id
    fallbacks: bool = False  # lookup: GET falls back to substring and fuzzy matches


def perform(service: AnalysisService, call: AnalysisCall) -> bytes:
    """The operation's answer as JSON; raises its `Problem`."""
    params, base = call.params, call.base_url
    answer: dict[str, Any]
    match call.operation:
        case "lookup":
            answer = service.lookup(params, fallbacks=call.fallbacks)
        case "glossary":
            answer = service.glossary(params)
        case "morph":
            answer = service.morph(params, lambda lemma_id: f"{base}/lexicon/lemmas/{lemma_id}")
        case "ner":
            answer = service.ner(params)
        case "wsd":
            answer = service.wsd(params, lambda sense_id: f"{base}/lexicon/senses/{sense_id}")
        case "re":
            answer = service.re(params)
        case "lemma":
            answer = service.lemma(call.key)
        case "sense":
            answer = service.sense(call.key)
    return orjson.dumps(answer)


# In a worker process: the service it loaded at its start.
worker_service: AnalysisService | None = None


def start_worker(config: AnalysisConfig) -> None:
    """A worker process's start: the server's analysis workers and `tahqiq analyze`'s (tahqiq.analysis.batch)."""
    global worker_service
    # The server stops its workers; the analysis workers finish the call at hand and end with the pool (or when
    # the server's process is gone), so a stop signal sent to the whole process group must not cut a call short.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # Loading makes a few million objects that live as long as the process: with the collector off meanwhile and
    # those objects frozen after (never scanned again), the start is faster and later collections stay short.
    gc.disable()
    try:
        service = config.build()
        service.prepare()
    finally:
        gc.freeze()
        gc.enable()
    worker_service = service


def _worker_sizes() -> dict[str, Any]:
    assert worker_service is not None
    return worker_service.sizes()


def _worker_perform(call: AnalysisCall) -> bytes:
    assert worker_service is not None
    return perform(worker_service, call)


class AnalysisRunner:
    """Runs analysis calls in worker processes (or one thread), bounded; see the module docstring."""

    def __init__(self, config: AnalysisConfig, processes: int, queue: int) -> None:
        self.config = config
        self.processes = processes
        self.queue = queue
        self.status: Status = "loading"
        self.sizes: dict[str, Any] = {}
        self._service: AnalysisService | None = None  # with no worker processes: the service, in this process
        self._reload: asyncio.Future[None] | None = None
        self._loading: Future[dict[str, Any]] | None = None  # begun by begin_load, awaited by load
        self._load_started = 0.0
        self._pool = self._new_pool()

    def _new_pool(self) -> WorkPool:
        executor: Executor
        if self.processes:
            # spawn: the server's worker runs threads (the event loop's, granian's), which fork would copy mid-use
            context = multiprocessing.get_context("spawn")
            executor = ProcessPoolExecutor(
                self.processes, mp_context=context, initializer=start_worker, initargs=(self.config,)
            )
        else:
            executor = ThreadPoolExecutor(1, thread_name_prefix="tahqiq-analysis")
        return WorkPool(executor, max(1, self.processes), self.queue)

    def begin_load(self) -> None:
        """Starts loading the language data now (in the first worker process, or on this runner's thread), with no
        event loop needed: a server worker calls this before it imports the web application. `load` waits for it."""
        if self._loading is None:
            self._load_started = time.perf_counter()
            self._loading = self._pool.executor.submit(_worker_sizes if self.processes else self._load_here)

    async def load(self) -> None:
        """Loads the language data (begun by `begin_load`, or now), logging its start and its end."""
        log.info("loading the language data")
        self.begin_load()
        assert self._loading is not None
        loading, self._loading = self._loading, None
        try:
            self.sizes = await asyncio.wrap_future(loading)
        except Exception:
            self.status = "failed"
            log.exception("the language data failed to load; the analysis routes answer 503")
            return
        self.status = "ready"
        log.info("the language data is loaded (%.1f s)", time.perf_counter() - self._load_started)

    def _load_here(self) -> dict[str, Any]:
        service = self.config.build()
        service.prepare()
        self._service = service
        return service.sizes()

    async def perform(self, call: AnalysisCall) -> bytes:
        if self.status != "ready":
            detail = (
                "the language data is loading (a second or two; about a minute where it must be built); retry after "
                "Retry-After seconds"
                if self.status == "loading"
                else "the language data failed to load; the server log says why"
            )
            raise Problem("service-unavailable", detail, headers={"Retry-After": str(LOADING_RETRY_AFTER_S)})
        run: Callable[[AnalysisCall], bytes] = _worker_perform if self.processes else self._perform_here
        try:
            return await self._pool.run(run, call)
        except PoolFull:
            raise Problem(
                "service-unavailable",
                f"the analysis queue is full ({self._pool.limit} requests running or waiting); retry after "
                "Retry-After seconds",
                headers={"Retry-After": str(BUSY_RETRY_AFTER_S)},
            ) from None
        except BrokenProcessPool:
            self._restart()
            raise Problem(
                "service-unavailable",
                "an analysis worker process stopped; the workers are restarting",
                headers={"Retry-After": str(LOADING_RETRY_AFTER_S)},
            ) from None

    def _perform_here(self, call: AnalysisCall) -> bytes:
        assert self._service is not None
        return perform(self._service, call)

    def _restart(self) -> None:
        """A worker process died (killed, out of memory): a process pool is then broken for good; start anew."""
        if self.status != "ready":
            return  # already restarting
        log.error("an analysis worker process stopped; starting new workers")
        self.status = "loading"
        self._pool.shutdown()
        self._pool = self._new_pool()
        self._reload = asyncio.ensure_future(self.load())

    def shutdown(self) -> None:
        self._pool.shutdown()
