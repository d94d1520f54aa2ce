"""The running service's parts: the one place where settings, store and areas meet.

`Service` holds the store, token keyring, submission processor, the areas' services and the analysis workers, starts
and stops them, and renders replies and problems for the routes (`routes_access`, `routes_summarize`,
`routes_analysis`), which `app.create_app` registers on it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

import orjson
from blacksheep import Application, Content, Request, Response
from blacksheep.exceptions import MessageAborted
from blacksheep.server.routing import Router

from tahqiq import __version__
from tahqiq.access.processor import Processor
from tahqiq.access.service import AccessService, submission_path_methods
from tahqiq.access.tokens import Keyring, TokenService
from tahqiq.analysis.runner import AnalysisRunner
from tahqiq.config import Settings
from tahqiq.logs import REQUEST_ID
from tahqiq.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from tahqiq.metrics import Metrics
from tahqiq.problems import Problem, problem_page
from tahqiq.reply import Reply
from tahqiq.store.protocol import Store
from tahqiq.summarize.service import SummarizeService
from tahqiq.web.body import client_gone, header, read_body, route_value
from tahqiq.web.deadlines import Deadlines
from tahqiq.web.inflight import InFlight
from tahqiq.web.tracing import Tracer

log = logging.getLogger("tahqiq")

JSON = b"application/json"
PROBLEM_JSON = b"application/problem+json"
INTERFACE_VERSION = "1.0.0"
SUBMISSIONS = "/agents/access-core/submissions/"
METRICS_FLUSH_S = 1.0
"""With several workers, how often each adds its tallied requests to the shared metrics (a scrape lags by this)."""
Handler = Callable[[Request], Awaitable[Response]]


def routed(run: Handler) -> Handler:
    """`run` with the Response class itself as its return annotation. BlackSheep calls a handler unwrapped only
    when that annotation is the class, and this module's annotations are strings (PEP 563): without this, every
    request went through two more coroutines, each calling `ensure_response`."""
    run.__annotations__["return"] = Response
    return run


class Service:
    """Holds the parts of the running service; renders replies and problems for the routes."""

    interface_version = INTERFACE_VERSION

    def __init__(
        self,
        settings: Settings,
        store: Store,
        analysis: AnalysisRunner | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.metrics = metrics or Metrics()
        self._metrics_flusher: asyncio.Future[None] | None = None
        self.tracer = Tracer(self.metrics, settings.access_log)  # made in the worker: its ids are drawn after the fork
        self.keyring = Keyring(store, settings.secret_key, settings.clock_skew_s)
        self.tokens = TokenService(self.keyring, settings.issuer, settings.clock_skew_s, settings.token_cache_size)
        self.processor = Processor(store, settings.processor_poll_s, settings.idempotency_ttl_s, metrics=self.metrics)
        self.access = AccessService(settings, store, self.tokens, on_accept=self.processor.wake, metrics=self.metrics)
        self.started = time.time()
        self.analysis = analysis  # None: the analysis area is off
        self.analysis_loaded: asyncio.Future[None] | None = None
        self.summarizer = SummarizeService(settings, store, self.metrics) if "summarize" in settings.areas else None
        self.in_flight = InFlight()
        self.body_deadlines = Deadlines(settings.body_timeout_s)
        self.router = Router()  # replaced by the app's router in create_app: the fallback asks it for 405s

    async def start(self, _app: Application | None = None) -> None:
        if self.analysis is not None:
            # The language data loads (the first time on a machine: builds) in the background: the rest of the
            # service answers meanwhile, and the analysis routes answer 503 until it is ready.
            self.analysis_loaded = asyncio.ensure_future(self.analysis.load())
            self.analysis_loaded.add_done_callback(self._analysis_ready(time.perf_counter()))
        if self.summarizer is not None:
            await self.summarizer.start()
        await self.store.open()
        await self.store.migrate()
        await self.keyring.load(time.time())
        self.processor.start()
        if self.metrics.multiprocess_dir is not None:  # another worker may answer the scrape
            self._metrics_flusher = asyncio.ensure_future(self._flush_metrics())

    async def _flush_metrics(self) -> None:
        while True:
            await asyncio.sleep(METRICS_FLUSH_S)
            self.metrics.flush()

    def _analysis_ready(self, started: float) -> Callable[[asyncio.Future[None]], None]:
        def ready(_done: asyncio.Future[None]) -> None:
            if self.analysis is not None and self.analysis.status == "ready":
                self.metrics.analysis_loaded(time.perf_counter() - started, self.analysis.sizes)

        return ready

    async def stop(self, _app: Application | None = None) -> None:
        """Lets the requests being handled finish (up to `shutdown_wait_s`), then stops the processor between two
        submissions and closes the upstream client and the store."""
        wait_s = self.settings.shutdown_wait_s
        if busy := await self.in_flight.idle(wait_s):
            log.warning("stopping with %d request(s) still being handled after waiting %g s", busy, wait_s)
        await self.processor.stop()
        if self._metrics_flusher is not None:
            self._metrics_flusher.cancel()
        self.metrics.flush()
        if self.analysis is not None:
            self.analysis.shutdown()
        if self.summarizer is not None:
            await self.summarizer.stop()
        await self.store.close()

    def base_url(self, request: Request) -> str:
        """Scheme and host this request reached the service at, for links in answers."""
        host = header(request, b"host") or f"{self.settings.host}:{self.settings.port}"
        return f"{request.scheme}://{host}"

    def problem_base(self, request: Request) -> str:
        if self.settings.problem_base:
            return self.settings.problem_base.rstrip("/")
        return f"{self.base_url(request)}/problems"

    def problem(self, request: Request, problem: Problem, *, error_code: bool = True) -> Response:
        headers = [(k.encode(), v.encode()) for k, v in problem.headers.items()]
        body = problem.body(
            request.path, self.problem_base(request), error_code=error_code, request_id=REQUEST_ID.get()
        )
        return Response(problem.status, headers, Content(PROBLEM_JSON, body))

    @staticmethod
    def render(reply: Reply) -> Response:
        headers = [(k.encode(), v.encode()) for k, v in reply.headers.items()] if reply.headers else None
        return Response(reply.status, headers, Content(JSON, reply.body))

    def guarded(self, handler: Callable[[Request], Awaitable[Reply]], route: str) -> Handler:
        """Turns a handler that returns a Reply or raises a Problem into the BlackSheep handler of `route`."""

        tracer = self.tracer

        async def run(request: Request) -> Response:
            started = time.perf_counter()
            rid = tracer.begin(request)
            try:
                with self.in_flight:
                    response = self.render(await handler(request))
            except Problem as problem:
                response = self.problem(request, problem)
            except MessageAborted:
                response = client_gone(request)
            except Exception:
                # Logs the failure and the path only: headers and bodies may carry secrets.
                log.exception("unhandled error on %s %s", request.method, request.path)
                response = self.problem(request, Problem("internal-error", "the service failed; retry later"))
            return tracer.end(request, response, route, rid, started)

        return routed(run)

    def raw(self, handler: Handler, route: str) -> Handler:
        """The BlackSheep handler of `route` for a handler that makes its own Response (a new function around a
        bound method: BlackSheep marks the handlers it routes)."""
        return routed(self.tracer.around(handler, route))

    def body(self, request: Request) -> Awaitable[bytes]:
        # The coroutine itself: one frame less per request.
        return read_body(request, self.settings.max_body_bytes, self.body_deadlines)

    async def health(self, _request: Request) -> Reply:
        data = {
            "status": "ok",
            "service": "tahqiq",
            "version": __version__,
            "interface_version": INTERFACE_VERSION,
            "uptime_s": round(time.time() - self.started, 3),
            "store": {"kind": self.store.url_scheme, "schema_version": await self.store.schema_version()},
            "areas": list(self.settings.areas),
        }
        if self.analysis is not None:
            data["analysis"] = {"status": self.analysis.status, **self.analysis.sizes}
        return Reply(200, orjson.dumps(data))

    async def metrics_page(self, _request: Request) -> Response:
        """GET /metrics: the Prometheus text format (every worker's numbers, and the store's backlog now)."""
        count, oldest = await self.store.backlog()
        age = max(0.0, time.time() - oldest) if oldest is not None else 0.0
        body = self.metrics.render(count, age)
        return Response(200, None, Content(METRICS_CONTENT_TYPE.encode(), body))

    async def problem_doc(self, request: Request) -> Response:
        page = problem_page(route_value(request, "slug"))
        if page is None:
            return self.problem(request, Problem("not-found", "there is no such problem type"))
        return Response(200, None, Content(b"text/html; charset=utf-8", page.encode()))

    def allowed_methods(self, path: str) -> list[str]:
        """The methods that some route answers at `path` (under submissions/, those its segment's kind takes)."""
        methods = [
            method
            for method in ("GET", "POST")
            if (match := self.router.get_match_by_method_and_path(method, path)) is not None and match.pattern != b"*"
        ]
        segment = path.removeprefix(SUBMISSIONS)
        if segment != path and "/" not in segment:
            methods = [method for method in methods if method in submission_path_methods(segment)]
        return methods

    def method_not_allowed(self, request: Request) -> Problem:
        allowed = [method for method in self.allowed_methods(request.path) if method != request.method]
        return Problem(
            "method-not-allowed",
            f"{request.path} does not answer {request.method}; use {' or '.join(allowed)}",
            headers={"Allow": ", ".join(allowed)},
        )

    async def not_found(self, request: Request) -> Response:
        """404 for a path nothing serves; 405 with `Allow` for a path served under other methods."""
        if any(method != request.method for method in self.allowed_methods(request.path)):
            return self.problem(request, self.method_not_allowed(request))
        return self.problem(request, Problem("not-found", f"nothing answers {request.method} {request.path}"))
