"""The BlackSheep application: `create_app(settings)` composes the service (`service.Service`) and each area's
routes. Server workers start from `tahqiq.web.entry.app_from_env`, which starts the analysis workers first."""

from __future__ import annotations

import gc

from blacksheep import Application
from blacksheep.server.routing import Router

from tahqiq.analysis.runner import AnalysisRunner
from tahqiq.config import Settings
from tahqiq.metrics import Metrics
from tahqiq.store import open_store
from tahqiq.store.protocol import Store
from tahqiq.web import routes_access, routes_analysis, routes_docs, routes_summarize
from tahqiq.web.analysis_workers import analysis_runner
from tahqiq.web.service import Service


def create_app(
    settings: Settings,
    store: Store | None = None,
    analysis: AnalysisRunner | None = None,
    metrics: Metrics | None = None,
) -> Application:
    """The application for `settings` (secret key already resolved); `store` defaults to the settings' URL,
    `analysis` to a new runner when the settings serve the analysis area, `metrics` to this process's own."""
    store = store or open_store(settings.database_url)
    service = Service(settings, store, analysis or analysis_runner(settings), metrics)
    app = Application(router=Router())  # its own: a second app in one process (tests) shares no routes
    service.router = app.router
    app.on_start += service.start
    app.on_stop += service.stop
    route = app.router
    if "agents" in settings.areas:
        routes_access.register(service, route)
    if "summarize" in settings.areas:
        routes_summarize.register(service, route)
    if "analysis" in settings.areas:
        routes_analysis.register(service, route)
    for path in ("/health", "/healthz"):
        route.add_get(path, service.guarded(service.health, path))
    route.add_get("/problems/{slug}", service.raw(service.problem_doc, "/problems/{slug}"))
    if settings.metrics:
        route.add_get("/metrics", service.raw(service.metrics_page, "/metrics"))
    routes_docs.register(service, route)
    route.fallback = service.raw(service.not_found, "*")
    return app


# The cyclic collector's thresholds in a server worker (Python's defaults: 700, 10, 10). A request allocates
# hundreds of short-lived containers, nearly all freed by reference counting, so the default ran a collection
# every few requests, each walking the young objects; with these a collection runs about once per hundred.
WORKER_GC_THRESHOLDS = (20_000, 20, 100)


def tune_collector() -> None:
    """Moves every object alive now (modules, the app and its routes) out of the collector's reach (`gc.freeze`),
    so full collections no longer walk them, and raises the thresholds: markedly less worker CPU per request (see
    docs/benchmarks.md, "The cyclic collector in server workers")."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*WORKER_GC_THRESHOLDS)
