"""`tahqiq keys rotate`: a new signing key for identity tokens."""

from __future__ import annotations

import argparse
import time
from typing import Any

from tahqiq.cli.common import Commands, print_result, with_store
from tahqiq.config import Settings


def run(args: argparse.Namespace) -> int:
    from tahqiq.access.tokens import rotate

    async def work(store: Any, settings: Settings) -> int:
        kid = await rotate(store, settings.with_secret_key().secret_key, time.time())
        print_result({"kid": kid}, args.json, [f"new signing key {kid}; older keys verify until their tokens expire"])
        return 0

    return with_store(args, work)


def add_parser(commands: Commands, admin_options: argparse.ArgumentParser) -> None:
    group = commands.add_parser("keys", help="signing keys")
    group.add_subparsers(dest="action", required=True, metavar="ACTION").add_parser(
        "rotate", help="add a new signing key; old ones verify until their tokens expire", parents=[admin_options]
    )
    group.set_defaults(run=run)
