"""What each server worker runs first: granian's factory, `app_from_env`.

The analysis workers are started before the web application is imported. Their start is the longest part of a
server's start (a fresh interpreter, its imports, then the language data: about 1.5 s on a 2-core machine), and
the application's own import (BlackSheep, the routes, the areas: about 0.4 s) then runs beside it instead of before
it. This module imports only the settings and the analysis runner, which import no model.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

from tahqiq import logs
from tahqiq.config import Settings
from tahqiq.web.analysis_workers import analysis_runner

if TYPE_CHECKING:
    from blacksheep import Application


def app_from_env() -> Application:
    """Factory for server workers: settings from the environment that `tahqiq serve` prepared."""
    settings = Settings.from_env(os.environ).with_secret_key()
    logs.configure(settings.log_level, settings.log_format)
    if settings.access_log:  # its lines are INFO whatever the level of the rest
        logging.getLogger(logs.ACCESS_LOGGER).setLevel(logging.INFO)
    analysis = analysis_runner(settings)
    if analysis is not None:
        analysis.begin_load()
    from tahqiq.metrics import MULTIPROCESS_ENV, Metrics
    from tahqiq.web.app import create_app, tune_collector

    # `tahqiq serve` names a folder shared by its workers when there are several (tahqiq.metrics)
    shared = os.environ.get(MULTIPROCESS_ENV) if settings.workers > 1 else None
    app = create_app(settings, analysis=analysis, metrics=Metrics(shared or None))
    tune_collector()
    return app
