"""`tahqiq tokens revoke`: revoke one identity token by its jti."""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from typing import Any

from tahqiq.cli.common import Commands, print_result, with_store
from tahqiq.config import Settings


def run(args: argparse.Namespace) -> int:
    from tahqiq.access.tokens import MAX_TTL_S

    try:
        jti = str(uuid.UUID(args.jti))
    except ValueError:
        print(f"tahqiq tokens revoke: JTI must be a UUID, got {args.jti!r}", file=sys.stderr)
        return 2

    async def work(store: Any, settings: Settings) -> int:
        # Kept until the token would have expired; without --expires-at, the longest a token can live.
        expires_at = args.expires_at or time.time() + MAX_TTL_S + settings.clock_skew_s
        await store.revoke_token(jti, expires_at)
        print_result({"jti": jti, "revoked": True}, args.json, [f"revoked {jti}"])
        return 0

    return with_store(args, work)


def add_parser(commands: Commands, admin_options: argparse.ArgumentParser) -> None:
    group = commands.add_parser("tokens", help="identity tokens")
    revoke = group.add_subparsers(dest="action", required=True, metavar="ACTION").add_parser(
        "revoke", help="revoke one token by its jti", parents=[admin_options]
    )
    revoke.add_argument("jti")
    revoke.add_argument(
        "--expires-at", type=float, help="epoch seconds when the token expires (keeps the record that long)"
    )
    group.set_defaults(run=run)
