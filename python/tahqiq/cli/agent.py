"""`tahqiq agent ...`: an agent's calls from the shell, through `tahqiq.client` (so with its retries and one
Idempotency-Key per submission). The API key comes from TAHQIQ_AGENT_KEY, never from a flag (flags show in `ps`).

    tahqiq agent token
    tahqiq agent submit --work-type W --results FILE|- [--metadata JSON] [--idempotency-key UUID] [--wait]
    tahqiq agent status SUBMISSION_ID [--wait] [--timeout S]
    tahqiq agent pending [--limit N]
    tahqiq agent ready [--limit N]
    tahqiq agent artifacts CLAIM_ID [--role-id ROLE]

Each prints one JSON document on standard output; a failure is one line on standard error and exit status 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

from tahqiq.cli.common import Commands

DEFAULT_URL = "http://127.0.0.1:8000"


class UsageError(Exception):
    pass


def add_parser(commands: Commands) -> None:
    agent = commands.add_parser(
        "agent",
        help="an agent's calls: token, submit, status, pending (key in TAHQIQ_AGENT_KEY)",
        description="An agent's side of the interface, with retries. The agent's API key is read from "
        "TAHQIQ_AGENT_KEY; the service's address from --url or TAHQIQ_URL (default " + DEFAULT_URL + ").",
    )
    actions = agent.add_subparsers(dest="agent_command", required=True, metavar="ACTION")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--url", help=f"the service (default: TAHQIQ_URL or {DEFAULT_URL})")
    common.add_argument("--timeout", type=float, default=10.0, help="seconds for each attempt (10)")

    actions.add_parser("token", parents=[common], help="mint an identity token and print it")
    submit = actions.add_parser("submit", parents=[common], help="send work for the agent's role")
    submit.add_argument("--work-type", required=True)
    submit.add_argument("--results", required=True, help="a file holding a JSON array of result objects; - for stdin")
    submit.add_argument("--metadata", help="a JSON object")
    submit.add_argument("--idempotency-key", help="a UUID v4 (default: a new one, used for every retry)")
    submit.add_argument("--wait", action="store_true", help="wait until the submission is processed or rejected")
    status = actions.add_parser("status", parents=[common], help="a submission's status")
    status.add_argument("submission_id")
    status.add_argument("--wait", action="store_true", help="wait until it is processed or rejected")
    for name, what in (("pending", "claims waiting for evidence or critique"), ("ready", "claims ready for a verdict")):
        queue = actions.add_parser(name, parents=[common], help=what)
        queue.add_argument("--limit", type=int, default=50)
    artifacts = actions.add_parser("artifacts", parents=[common], help="a claim's artifacts (judges)")
    artifacts.add_argument("claim_id")
    artifacts.add_argument("--role-id")
    agent.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tahqiq.client import AgentClient, ClientError

    where = f"tahqiq agent {args.agent_command}"
    key = os.environ.get("TAHQIQ_AGENT_KEY", "").strip()
    if not key:
        print(f"{where}: set TAHQIQ_AGENT_KEY to the agent's API key (svc_agent_...)", file=sys.stderr)
        return 2
    url = args.url or os.environ.get("TAHQIQ_URL") or DEFAULT_URL
    try:
        with AgentClient(url, key, timeout=args.timeout) as client:
            answer = _perform(client, args)
    except (ClientError, UsageError) as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(answer, ensure_ascii=False))
    return 0


def _perform(client: Any, args: argparse.Namespace) -> Any:
    action = args.agent_command
    if action == "token":
        return {"token": client.token()}
    if action == "submit":
        results = _json_from(args.results, "--results")
        if not isinstance(results, list):
            raise UsageError("--results must hold a JSON array of result objects")
        metadata = _json_text(args.metadata, "--metadata") if args.metadata else None
        sub = client.submit(args.work_type, results, metadata=metadata, idempotency_key=args.idempotency_key)
        if args.wait:
            sub = dataclasses.replace(client.wait(sub.submission_id), replayed=sub.replayed)
        return dataclasses.asdict(sub)
    if action == "status":
        sub = client.wait(args.submission_id) if args.wait else client.submission(args.submission_id)
        return dataclasses.asdict(sub)
    if action == "pending":
        return client.pending(args.limit)
    if action == "ready":
        return client.ready_for_verdict(args.limit)
    return client.artifacts(args.claim_id, args.role_id)


def _json_from(source: str, flag: str) -> Any:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{flag}: cannot read {source}: {exc.strerror}") from None
    return _json_text(text, flag)


def _json_text(text: str, flag: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{flag}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
