"""`tahqiq migrate`: apply the pending schema migrations and print the schema version."""

from __future__ import annotations

import argparse
from typing import Any

from tahqiq.cli.common import Commands, print_result, with_store
from tahqiq.config import Settings


def run(args: argparse.Namespace) -> int:
    async def work(store: Any, _settings: Settings) -> int:
        version = await store.schema_version()  # with_store has migrated the store
        print_result({"schema_version": version}, args.json, [f"schema at version {version}"])
        return 0

    return with_store(args, work)


def add_parser(commands: Commands, admin_options: argparse.ArgumentParser) -> None:
    commands.add_parser(
        "migrate", help="apply pending schema migrations and print the schema version", parents=[admin_options]
    ).set_defaults(run=run)
