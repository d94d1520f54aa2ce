"""`tahqiq apps create | list`: the applications that verify identity tokens, and their keys."""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from typing import Any

from tahqiq.cli.common import Commands, print_result, with_store
from tahqiq.config import Settings


async def _list(store: Any, args: argparse.Namespace, settings: Settings) -> int:
    from tahqiq.access.service import iso

    apps = [
        {
            "app_id": a.app_id,
            "name": a.name,
            "key_prefix": a.key_prefix,
            "created_at": iso(a.created_at),
            "first_party": a.app_id == settings.first_party_app_id,
        }
        for a in await store.list_apps()
    ]
    print_result(
        apps,
        args.json,
        [f"{a['app_id']}  {a['name']}{'  (first party)' if a['first_party'] else ''}" for a in apps],
    )
    return 0


async def _create(store: Any, args: argparse.Namespace, settings: Settings) -> int:
    from tahqiq.access import keys

    if args.first_party and args.app_id:
        print("tahqiq apps create: give --app-id or --first-party, not both", file=sys.stderr)
        return 2
    app_id = settings.first_party_app_id if args.first_party else (args.app_id or str(uuid.uuid4()))
    try:
        app_id = str(uuid.UUID(app_id))
    except ValueError:
        print(f"tahqiq apps create: --app-id must be a UUID, got {app_id!r}", file=sys.stderr)
        return 2
    app_key = keys.new_secret(keys.APP_KEY_PREFIX)
    await store.create_app(
        app_id, args.name, keys.key_hash(app_key), keys.display_prefix(app_key, keys.APP_KEY_PREFIX), time.time()
    )
    data = {"app_id": app_id, "app_key": app_key, "name": args.name}
    print_result(data, args.json, [f"app_id   {app_id}", f"app_key  {app_key}", "(the app key is shown only now)"])
    return 0


def run(args: argparse.Namespace) -> int:
    async def work(store: Any, settings: Settings) -> int:
        if args.action == "list":
            return await _list(store, args, settings)
        return await _create(store, args, settings)

    return with_store(args, work)


def add_parser(commands: Commands, admin_options: argparse.ArgumentParser) -> None:
    group = commands.add_parser("apps", help="create and list applications that verify tokens")
    actions = group.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = actions.add_parser("create", help="create an app and print its key once", parents=[admin_options])
    create.add_argument("--name", required=True)
    create.add_argument("--app-id", help="the app's UUID (default: a new one)")
    create.add_argument("--first-party", action="store_true", help="use AGENT_FIRST_PARTY_APP_ID as the id")
    actions.add_parser("list", help="list apps", parents=[admin_options])
    group.set_defaults(run=run)
