"""`tahqiq agents create | list | show | suspend | activate | rotate-key`: the agents and their API keys."""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from typing import Any

from tahqiq.cli.common import Commands, print_result, with_store
from tahqiq.config import Settings

# The actions that name one agent, with their help.
ONE_AGENT_ACTIONS = (
    ("show", "show one agent"),
    ("suspend", "suspend an agent: its key stops minting and its tokens stop verifying"),
    ("activate", "re-activate a suspended agent"),
    ("rotate-key", "replace an agent's API key and print the new one once"),
)


def _agent_json(agent: Any) -> dict[str, Any]:
    from tahqiq.access.roles import scopes_of
    from tahqiq.access.service import iso

    return {
        "agent_id": agent.agent_id,
        "name": agent.name,
        "role_id": agent.role_id,
        "scopes": list(scopes_of(agent.role_id)),
        "status": agent.status,
        "key_prefix": agent.key_prefix,
        "created_at": iso(agent.created_at),
    }


async def _create(store: Any, args: argparse.Namespace) -> int:
    from tahqiq.access import keys
    from tahqiq.access.roles import ROLES, scopes_of

    if args.role not in ROLES:
        print(f"tahqiq agents create: --role must be one of {', '.join(ROLES)}", file=sys.stderr)
        return 2
    api_key = keys.new_secret(keys.AGENT_KEY_PREFIX)
    agent_id = str(uuid.uuid4())
    name = args.name or f"{args.role}-{agent_id[:8]}"
    await store.create_agent(
        agent_id,
        name,
        args.role,
        keys.key_hash(api_key),
        keys.display_prefix(api_key, keys.AGENT_KEY_PREFIX),
        time.time(),
    )
    data = {"agent_id": agent_id, "api_key": api_key, "role_id": args.role, "scopes": list(scopes_of(args.role))}
    print_result(
        data,
        args.json,
        [
            f"agent_id  {agent_id}",
            f"role_id   {args.role}",
            f"api_key   {api_key}",
            "(the API key is shown only now; store it safely)",
        ],
    )
    return 0


async def _list(store: Any, args: argparse.Namespace) -> int:
    agents = [_agent_json(a) for a in await store.list_agents()]
    print_result(
        agents, args.json, [f"{a['agent_id']}  {a['role_id']:<18} {a['status']:<9} {a['name']}" for a in agents]
    )
    return 0


async def _rotate_key(store: Any, args: argparse.Namespace, agent: Any) -> int:
    from tahqiq.access import keys

    api_key = keys.new_secret(keys.AGENT_KEY_PREFIX)
    agent = await store.set_agent_key(
        agent.agent_id, keys.key_hash(api_key), keys.display_prefix(api_key, keys.AGENT_KEY_PREFIX), time.time()
    )
    print_result(
        {"agent_id": agent.agent_id, "api_key": api_key},
        args.json,
        [
            f"agent_id  {agent.agent_id}",
            f"api_key   {api_key}",
            "(the old key no longer works; the new one is shown only now)",
        ],
    )
    return 0


async def _one_agent(store: Any, args: argparse.Namespace) -> int:
    """show, suspend, activate (each prints the agent as it is then) and rotate-key."""
    agent = await store.get_agent(args.agent_id)
    if agent is None:
        print(f"tahqiq agents {args.action}: no agent {args.agent_id}", file=sys.stderr)
        return 1
    if args.action == "rotate-key":
        return await _rotate_key(store, args, agent)
    if args.action in ("suspend", "activate"):
        status = "suspended" if args.action == "suspend" else "active"
        agent = await store.set_agent_status(agent.agent_id, status, time.time())
    row = _agent_json(agent)
    print_result(row, args.json, [f"{k:<11} {v}" for k, v in row.items()])
    return 0


def run(args: argparse.Namespace) -> int:
    async def work(store: Any, _settings: Settings) -> int:
        if args.action == "create":
            return await _create(store, args)
        if args.action == "list":
            return await _list(store, args)
        return await _one_agent(store, args)

    return with_store(args, work)


def add_parser(commands: Commands, admin_options: argparse.ArgumentParser) -> None:
    group = commands.add_parser("agents", help="create and manage agents")
    actions = group.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = actions.add_parser("create", help="create an agent and print its API key once", parents=[admin_options])
    create.add_argument("--role", required=True, help="claim_splitter | evidence_seeker | methodology_critic | judge")
    create.add_argument("--name", help="a name for people (default: role and id)")
    actions.add_parser("list", help="list agents", parents=[admin_options])
    for action, text in ONE_AGENT_ACTIONS:
        actions.add_parser(action, help=text, parents=[admin_options]).add_argument("agent_id")
    group.set_defaults(run=run)
