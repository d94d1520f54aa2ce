"""What the administration commands share: their common options, the settings, a migrated store, the output."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeAlias
from urllib.parse import urlsplit, urlunsplit

from tahqiq.config import Settings

# What `add_subparsers` returns: each command module adds its commands to it. (A string: argparse's class is
# generic only for the type checker.)
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def admin_options() -> argparse.ArgumentParser:
    """Options every administration command takes, after its last word (`tahqiq apps create --json`): the
    parent parser of each command that runs (not of a group such as `agents`, whose actions take them)."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--database-url", help="overrides TAHQIQ_DATABASE_URL")
    options.add_argument("--json", action="store_true", help="print JSON for scripts")
    return options


class CliError(Exception):
    """A mistake or a failure that the command explains in one line on standard error (`tahqiq COMMAND: ...`),
    with exit status `status`; `--debug` shows its traceback."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def without_password(url: str) -> str:
    """`url` as it may be shown: a password in it becomes `***`."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    netloc = f"{user}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def settings_from(args: argparse.Namespace, **overrides: Any) -> Settings:
    return Settings.from_env(os.environ, database_url=getattr(args, "database_url", None), **overrides)


def with_store(args: argparse.Namespace, work: Callable[[Any, Settings], Awaitable[int]]) -> int:
    """Runs `work(store, settings)` against a migrated store and closes it."""
    from tahqiq.store import open_store

    settings = settings_from(args)

    async def run() -> int:
        store = open_store(settings.database_url)
        try:
            await store.open()
            await store.migrate()
        except Exception as exc:
            await store.close()
            reason = str(exc) or type(exc).__name__
            raise CliError(
                f"cannot open the database {without_password(settings.database_url)}: {reason}. Check "
                "TAHQIQ_DATABASE_URL (or --database-url) and that the database server is running"
            ) from exc
        try:
            return await work(store, settings)
        finally:
            await store.close()

    return asyncio.run(run())


def print_result(data: Any, as_json: bool, lines: Sequence[str]) -> None:
    """`data` as one line of JSON with --json, else `lines` for people."""
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print("\n".join(lines))
