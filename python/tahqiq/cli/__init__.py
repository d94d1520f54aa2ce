"""The `tahqiq` command line (also `python -m tahqiq`).

    tahqiq serve [--host H] [--port P] [--workers N] [--areas a,b] [--database-url URL]
    tahqiq migrate
    tahqiq agents create --role ROLE [--name N] [--json] | list | show ID | suspend ID | activate ID | rotate-key ID
    tahqiq apps create --name N [--app-id UUID | --first-party] [--json] | list | rotate-key ID | delete ID
    tahqiq keys rotate
    tahqiq tokens revoke JTI [--expires-at EPOCH]
    tahqiq report morph | glossary | summaries   (accuracy on the gold sets in tests/gold; from a checkout)
    tahqiq corpus import PATH --format curras|nabra|lisan|jsonl [--name N] [--replace] | list | stats | export NAME
    tahqiq analyze ner|re|morph|wsd|glossary [FILE ...] [--field F --id F] [--out F --resume] [--jobs N]
    tahqiq agent token | submit --work-type W --results FILE|- | status ID [--wait] | pending | ready | artifacts ID
    tahqiq normalize | scan | fingerprint   (the text kernels, for shell use)

Settings come from `TAHQIQ_*` variables (docs/operations.md lists them); flags override them. Every error is
one line on standard error and a non-zero exit status; `--debug` anywhere on the line shows the traceback.
Secrets are printed once, by the command that creates them, and stored only as hashes.

One module per command or group of commands (kernels, serve, migrate, agents, apps, keys, corpus, analyze,
agent, reports, tokens), each adding its parsers; common.py holds what the administration commands share. This
module only assembles the parser and runs the command.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from tahqiq import __version__
from tahqiq.cli import agent, agents, analyze, apps, common, corpus, kernels, keys, migrate, reports, serve, tokens
from tahqiq.config import SettingsError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tahqiq", description="tahqiq: verification service and its kernels")
    parser.add_argument("--version", action="version", version=f"tahqiq {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    admin_options = common.admin_options()
    # In this order in `tahqiq --help`.
    kernels.add_parsers(commands)
    serve.add_parser(commands, admin_options)
    migrate.add_parser(commands, admin_options)
    agents.add_parser(commands, admin_options)
    apps.add_parser(commands, admin_options)
    keys.add_parser(commands, admin_options)
    corpus.add_parser(commands, admin_options)
    analyze.add_parser(commands)
    agent.add_parser(commands)
    reports.add_parser(commands)
    tokens.add_parser(commands, admin_options)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one command. Every error is one line on standard error with a non-zero status; `--debug`, anywhere
    on the command line, shows the traceback instead."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in arguments
    arguments = [a for a in arguments if a != "--debug"]
    parser = build_parser()
    args, unknown = parser.parse_known_args(arguments)
    if unknown and args.command == "report":
        # `report --help` and `report --x …`: options before the report's name belong to the report's own parser.
        args.report_args = unknown + args.report_args
    elif unknown and args.command == "analyze" and not [u for u in unknown if u.startswith("-") and u != "-"]:
        args.files += unknown  # files after options (`analyze ner --mode flat a.txt`): argparse leaves them over
    elif unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    action = getattr(args, "action", None)
    name = f"tahqiq {args.command} {action}" if isinstance(action, str) else f"tahqiq {args.command}"
    try:
        return int(args.run(args))
    except BrokenPipeError:
        # The reader went away (`| head -1`): not an error. Standard output goes nowhere from here, so that the
        # interpreter's last flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print(f"\n{name}: interrupted", file=sys.stderr)
        return 130
    except (SettingsError, common.CliError) as exc:
        if debug:
            raise
        print(f"{name}: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, SettingsError) else exc.status
    except Exception as exc:
        if debug:
            raise
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(
            f"{name}: failed: {reason} ({type(exc).__name__}; --debug shows the traceback)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
