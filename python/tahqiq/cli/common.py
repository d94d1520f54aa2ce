"""What the administration commands share: their common options, the settings, a migrated store, the output."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeAlias

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


def settings_from(args: argparse.Namespace, **overrides: Any) -> Settings:
    return Settings.from_env(os.environ, database_url=getattr(args, "database_url", None), **overrides)


def with_store(args: argparse.Namespace, work: Callable[[Any, Settings], Awaitable[int]]) -> int:
    """Runs `work(store, settings)` against a migrated store and closes it."""
    from tahqiq.store import open_store

    settings = settings_from(args)

    async def run() -> int:
        store = open_store(settings.database_url)
        await store.open()
        try:
            await store.migrate()
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
