"""`tahqiq serve`: the HTTP service under granian, after the port check and the migrations."""

from __future__ import annotations

import argparse
import errno
import math
import os
import shutil
import socket
import sys
import tempfile
from typing import Any

from tahqiq import logs
from tahqiq.cli.common import Commands, settings_from, with_store
from tahqiq.config import SHUTDOWN_CLOSE_S, Settings
from tahqiq.metrics import MULTIPROCESS_ENV


def cannot_listen(host: str, port: int) -> str | None:
    """Why `serve` cannot listen on host:port (a server already listens there, ours or another program's; an
    address this machine does not have), or None when it can.

    granian listens with SO_REUSEPORT, so a second server on a port in use would start without a word and share
    the connections (and, ours, the SQLite file) with the first. A probe socket without SO_REUSEPORT cannot bind
    where any socket listens, whatever its options; SO_REUSEADDR lets it bind past the TIME_WAIT connections a
    server that has just stopped leaves behind. Another server starting in the instant between this probe and
    granian's bind is not caught."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        return f"cannot listen on {where}: {exc.strerror}"
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"{where} is already in use; stop the other server or choose another port with --port"
            return f"cannot listen on {where}: {exc.strerror}"
    return None


async def _migrated(_store: Any, _settings: Settings) -> int:
    return 0  # with_store has applied the migrations


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args, host=args.host, port=args.port, workers=args.workers, areas=args.areas)
    if problem := cannot_listen(settings.host, settings.port):  # before the key file and the store are touched
        print(f"tahqiq serve: {problem}", file=sys.stderr)
        return 1
    settings = settings.with_secret_key()
    with_store(argparse.Namespace(database_url=settings.database_url), _migrated)  # once, before the workers
    os.environ.update(settings.to_env())  # the workers rebuild the same settings from these
    shared_metrics = None
    if settings.metrics and settings.workers > 1:
        # every worker writes its numbers here and a scrape adds them up (tahqiq.metrics): a fresh folder per start
        shared_metrics = tempfile.mkdtemp(prefix="tahqiq-metrics-")
        os.environ[MULTIPROCESS_ENV] = shared_metrics
    try:
        _serve(settings)
    finally:
        if shared_metrics is not None:
            shutil.rmtree(shared_metrics, ignore_errors=True)
    return 0


def _serve(settings: Settings) -> None:
    from granian import Granian
    from granian.constants import Interfaces, Loops
    from granian.log import LogLevels

    Granian(
        "tahqiq.web.entry:app_from_env",
        factory=True,
        address=settings.host,
        port=settings.port,
        interface=Interfaces.ASGI,
        workers=settings.workers,
        loop=Loops.uvloop,
        log_level=LogLevels(settings.log_level),
        log_dictconfig=logs.granian_config(settings.log_format),
        log_access=False,  # the app logs each request itself (tahqiq.web.tracing), with its route and request id
        backlog=2048,
        # The server waits for open connections before the app's shutdown; this bounds the whole stop.
        workers_kill_timeout=math.ceil(settings.shutdown_wait_s) + SHUTDOWN_CLOSE_S,
    ).serve()


def add_parser(commands: Commands, admin_options: argparse.ArgumentParser) -> None:
    serve = commands.add_parser(
        "serve",
        help="run the HTTP service (applies migrations, starts the submission processor)",
        parents=[admin_options],
    )
    serve.add_argument("--host", help="overrides TAHQIQ_HOST (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="overrides TAHQIQ_PORT (default 8000)")
    serve.add_argument("--workers", type=int, help="overrides TAHQIQ_WORKERS (default 1; >1 needs PostgreSQL)")
    serve.add_argument("--areas", help="overrides TAHQIQ_AREAS: comma-separated subset of the areas")
    serve.set_defaults(run=run)
