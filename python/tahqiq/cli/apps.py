"""`tahqiq apps create | list | rotate-key | delete`: the applications that verify identity tokens, and their keys.

An app key is shown once, by the command that makes it, and stored only as a hash: a lost key is replaced with
`rotate-key`. Running servers trust a key they have looked up for `tahqiq.access.service.APP_CACHE_S` seconds, so a
rotated key or a deleted app stops working within that time."""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from typing import Any

from tahqiq.cli.common import CliError, Commands, print_result, with_store
from tahqiq.config import Settings
from tahqiq.store.protocol import AlreadyExists


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
    try:
        await store.create_app(
            app_id, args.name, keys.key_hash(app_key), keys.display_prefix(app_key, keys.APP_KEY_PREFIX), time.time()
        )
    except AlreadyExists:
        which = "the first-party app" if app_id == settings.first_party_app_id else "an app"
        raise CliError(
            f"{which} {app_id} exists already (see `tahqiq apps list`); for a new key of it run "
            f"`tahqiq apps rotate-key {app_id}`"
        ) from None
    data = {"app_id": app_id, "app_key": app_key, "name": args.name}
    print_result(data, args.json, [f"app_id   {app_id}", f"app_key  {app_key}", "(the app key is shown only now)"])
    return 0


def _app_id(value: str) -> str:
    try:
        return str(uuid.UUID(value))
    except ValueError:
        raise CliError(f"APP_ID must be a UUID (see `tahqiq apps list`), got {value!r}", 2) from None


async def _rotate_key(store: Any, args: argparse.Namespace) -> int:
    from tahqiq.access import keys

    app_id = _app_id(args.app_id)
    app_key = keys.new_secret(keys.APP_KEY_PREFIX)
    app = await store.set_app_key(app_id, keys.key_hash(app_key), keys.display_prefix(app_key, keys.APP_KEY_PREFIX))
    if app is None:
        raise CliError(f"no app has id {app_id} (see `tahqiq apps list`)")
    data = {"app_id": app_id, "app_key": app_key, "name": app.name}
    lines = [f"app_id   {app_id}", f"app_key  {app_key}", "(shown only now; the old key stops working within 30 s)"]
    print_result(data, args.json, lines)
    return 0


async def _delete(store: Any, args: argparse.Namespace) -> int:
    app_id = _app_id(args.app_id)
    if not await store.delete_app(app_id):
        raise CliError(f"no app has id {app_id} (see `tahqiq apps list`)")
    print_result({"app_id": app_id, "deleted": True}, args.json, [f"deleted app {app_id}"])
    return 0


def run(args: argparse.Namespace) -> int:
    async def work(store: Any, settings: Settings) -> int:
        if args.action == "list":
            return await _list(store, args, settings)
        if args.action == "rotate-key":
            return await _rotate_key(store, args)
        if args.action == "delete":
            return await _delete(store, args)
        return await _create(store, args, settings)

    return with_store(args, work)


def add_parser(commands: Commands, admin_options: argparse.ArgumentParser) -> None:
    group = commands.add_parser("apps", help="applications that verify tokens: create, list, rotate-key, delete")
    actions = group.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = actions.add_parser("create", help="create an app and print its key once", parents=[admin_options])
    create.add_argument("--name", required=True)
    create.add_argument("--app-id", help="the app's UUID (default: a new one)")
    create.add_argument("--first-party", action="store_true", help="use AGENT_FIRST_PARTY_APP_ID as the id")
    actions.add_parser("list", help="list apps", parents=[admin_options])
    rotate = actions.add_parser(
        "rotate-key", help="replace an app's key and print the new one once", parents=[admin_options]
    )
    rotate.add_argument("app_id", metavar="APP_ID")
    delete = actions.add_parser("delete", help="delete an app (its key stops working)", parents=[admin_options])
    delete.add_argument("app_id", metavar="APP_ID")
    group.set_defaults(run=run)
