"""The `tahqiq` command line (also `python -m tahqiq`).

    tahqiq serve [--host H] [--port P] [--workers N] [--areas a,b] [--database-url URL]
    tahqiq migrate
    tahqiq agents create --role ROLE [--name N] [--json] | list | show ID | suspend ID | activate ID | rotate-key ID
    tahqiq apps create --name N [--app-id UUID | --first-party] [--json] | list
    tahqiq keys rotate
    tahqiq tokens revoke JTI [--expires-at EPOCH]
    tahqiq report morph | glossary | summaries   (accuracy on the gold sets in tests/gold; from a checkout)
    tahqiq corpus import PATH --format curras|nabra|lisan|jsonl [--name N] | list | stats | export NAME
    tahqiq normalize | scan | fingerprint   (the text kernels, for shell use)

Settings come from `TAHQIQ_*` variables (see README.md); flags override them. Secrets are printed once, by
the command that creates them, and stored only as hashes.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import importlib
import json
import math
import os
import socket
import sys
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from tahqiq import __version__
from tahqiq.config import SHUTDOWN_CLOSE_S, Settings, SettingsError
from tahqiq.core import canonical_json, fingerprint, normalize, scan

NORMALIZE_FLAGS = ("diacritics", "tatweel", "alef", "ya", "ta_marbuta", "digits", "punctuation")
NORMALIZE_DEFAULTS = {"diacritics": True, "tatweel": True, "alef": True, "ya": True}


def _read_text(value: str | None) -> str:
    return sys.stdin.read() if value in (None, "-") else value


def _cmd_normalize(args: argparse.Namespace) -> int:
    options = {flag: getattr(args, flag) for flag in NORMALIZE_FLAGS}
    print(normalize(_read_text(args.text), **options))
    return 0


def _cmd_scan(args: argparse.Namespace) -> int:
    tokens = scan(_read_text(args.text))
    if args.json:
        rows = [{"text": t.text, "start": t.start, "end": t.end, "kind": t.kind} for t in tokens]
        print(json.dumps(rows, ensure_ascii=False))
    else:
        for t in tokens:
            print(f"{t.start}\t{t.end}\t{t.kind}\t{t.text}")
    return 0


def _cmd_fingerprint(args: argparse.Namespace) -> int:
    body = sys.stdin.buffer.read()
    try:
        print(canonical_json(body).decode() if args.canonical else fingerprint(body, context=args.context))
    except ValueError as exc:
        print(f"tahqiq fingerprint: {exc}", file=sys.stderr)
        return 2
    return 0


# Service administration -------------------------------------------------------------------------------


def _settings(args: argparse.Namespace, **overrides: Any) -> Settings:
    return Settings.from_env(os.environ, database_url=getattr(args, "database_url", None), **overrides)


def _with_store(args: argparse.Namespace, work: Callable[[Any, Settings], Awaitable[int]]) -> int:
    """Runs `work(store, settings)` against a migrated store and closes it."""
    from tahqiq.store import open_store

    settings = _settings(args)

    async def run() -> int:
        store = open_store(settings.database_url)
        await store.open()
        try:
            await store.migrate()
            return await work(store, settings)
        finally:
            await store.close()

    return asyncio.run(run())


def _print(data: Any, as_json: bool, lines: Sequence[str]) -> None:
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print("\n".join(lines))


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


def _cmd_agents(args: argparse.Namespace) -> int:
    from tahqiq.access import keys
    from tahqiq.access.roles import ROLES, scopes_of

    async def work(store: Any, _settings: Settings) -> int:
        now = time.time()
        if args.action == "create":
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
                now,
            )
            data = {
                "agent_id": agent_id,
                "api_key": api_key,
                "role_id": args.role,
                "scopes": list(scopes_of(args.role)),
            }
            _print(
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
        if args.action == "list":
            agents = [_agent_json(a) for a in await store.list_agents()]
            _print(
                agents, args.json, [f"{a['agent_id']}  {a['role_id']:<18} {a['status']:<9} {a['name']}" for a in agents]
            )
            return 0
        agent = await store.get_agent(args.agent_id)
        if agent is None:
            print(f"tahqiq agents {args.action}: no agent {args.agent_id}", file=sys.stderr)
            return 1
        if args.action in ("suspend", "activate"):
            agent = await store.set_agent_status(
                agent.agent_id, "suspended" if args.action == "suspend" else "active", now
            )
        elif args.action == "rotate-key":
            api_key = keys.new_secret(keys.AGENT_KEY_PREFIX)
            agent = await store.set_agent_key(
                agent.agent_id, keys.key_hash(api_key), keys.display_prefix(api_key, keys.AGENT_KEY_PREFIX), now
            )
            data = {"agent_id": agent.agent_id, "api_key": api_key}
            _print(
                data,
                args.json,
                [
                    f"agent_id  {agent.agent_id}",
                    f"api_key   {api_key}",
                    "(the old key no longer works; the new one is shown only now)",
                ],
            )
            return 0
        row = _agent_json(agent)
        _print(row, args.json, [f"{k:<11} {v}" for k, v in row.items()])
        return 0

    return _with_store(args, work)


def _cmd_apps(args: argparse.Namespace) -> int:
    from tahqiq.access import keys
    from tahqiq.access.service import iso

    async def work(store: Any, settings: Settings) -> int:
        if args.action == "list":
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
            _print(
                apps,
                args.json,
                [f"{a['app_id']}  {a['name']}{'  (first party)' if a['first_party'] else ''}" for a in apps],
            )
            return 0
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
        _print(data, args.json, [f"app_id   {app_id}", f"app_key  {app_key}", "(the app key is shown only now)"])
        return 0

    return _with_store(args, work)


def _cmd_keys(args: argparse.Namespace) -> int:
    from tahqiq.access.tokens import rotate

    async def work(store: Any, settings: Settings) -> int:
        kid = await rotate(store, settings.with_secret_key().secret_key, time.time())
        _print({"kid": kid}, args.json, [f"new signing key {kid}; older keys verify until their tokens expire"])
        return 0

    return _with_store(args, work)


def _cmd_tokens(args: argparse.Namespace) -> int:
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
        _print({"jti": jti, "revoked": True}, args.json, [f"revoked {jti}"])
        return 0

    return _with_store(args, work)


def _cmd_migrate(args: argparse.Namespace) -> int:
    async def work(store: Any, _settings: Settings) -> int:
        version = await store.schema_version()
        _print({"schema_version": version}, args.json, [f"schema at version {version}"])
        return 0

    return _with_store(args, work)


async def _migrated(_store: Any, _settings: Settings) -> int:
    return 0  # _with_store has applied the migrations


def _cannot_listen(host: str, port: int) -> str | None:
    """Why `serve` cannot listen on host:port (a server already listens there, ours or another program's; an
    address this machine does not have), or None when it can.

    granian listens with SO_REUSEPORT, so a second server on a port in use would start without a word and share
    the connections (and, ours, the SQLite file) with the first. A probe socket without SO_REUSEPORT cannot bind
    where any socket listens, whatever its options; SO_REUSEADDR lets it bind past the TIME_WAIT connections a
    server that has just stopped leaves behind. Another server starting in the instant between this probe and
    granian's bind is not caught."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        return f"cannot listen on {where}: {exc.strerror}"
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"{where} is already in use; stop the other server or choose another port with --port"
            return f"cannot listen on {where}: {exc.strerror}"
    return None


def _cmd_serve(args: argparse.Namespace) -> int:
    from granian import Granian
    from granian.constants import Interfaces, Loops
    from granian.log import LogLevels

    settings = _settings(args, host=args.host, port=args.port, workers=args.workers, areas=args.areas)
    if problem := _cannot_listen(settings.host, settings.port):  # before the key file and the store are touched
        print(f"tahqiq serve: {problem}", file=sys.stderr)
        return 1
    settings = settings.with_secret_key()
    _with_store(argparse.Namespace(database_url=settings.database_url), _migrated)  # once, before the workers
    os.environ.update(settings.to_env())  # the workers rebuild the same settings from these
    Granian(
        "tahqiq.web.app:app_from_env",
        factory=True,
        address=settings.host,
        port=settings.port,
        interface=Interfaces.ASGI,
        workers=settings.workers,
        loop=Loops.uvloop,
        log_level=LogLevels(settings.log_level),
        log_access=settings.access_log,
        backlog=2048,
        # The server waits for open connections before the app's shutdown; this bounds the whole stop.
        workers_kill_timeout=math.ceil(settings.shutdown_wait_s) + SHUTDOWN_CLOSE_S,
    ).serve()
    return 0


# Corpora ----------------------------------------------------------------------------------------------


def _all_corpora(settings: Settings) -> dict[str, Any]:
    from pathlib import Path

    from tahqiq.analysis.importer import imported_corpora, shipped_corpus

    return {"tahqiq": shipped_corpus(), **imported_corpora(Path(settings.data_dir))}


def _cmd_corpus(args: argparse.Namespace) -> int:
    from pathlib import Path

    from tahqiq.analysis.corpus import CorpusError, sentence_dict
    from tahqiq.analysis.importer import read_corpus_file, write_corpus

    settings = _settings(args)
    try:
        if args.action == "import":
            path = Path(args.path)
            if not path.is_file():
                print(f"tahqiq corpus import: {path} is not a file", file=sys.stderr)
                return 2
            name = args.name or path.stem.lower().replace(" ", "_")
            started = time.monotonic()

            def progress(count: int) -> None:
                if not args.json and sys.stderr.isatty() and count % 200 == 0:
                    print(f"\r  read {count:,} sentences …", end="", file=sys.stderr, flush=True)

            sentences = read_corpus_file(path, args.format, progress)
            target = write_corpus(Path(settings.data_dir), name, sentences)
            tokens = sum(len(s.tokens) for s in sentences)
            summary = {
                "name": name,
                "format": args.format,
                "sentences": len(sentences),
                "tokens": tokens,
                "dialects": sorted({s.dialect for s in sentences}),
                "path": str(target),
                "seconds": round(time.monotonic() - started, 3),
            }
            if sys.stderr.isatty() and not args.json:
                print(file=sys.stderr)
            _print(
                summary,
                args.json,
                [
                    f"imported {len(sentences):,} sentences ({tokens:,} tokens) as {name!r}",
                    f"dialects: {', '.join(summary['dialects'])}",
                    f"stored in {target}; the service serves it as source={name!r} after a restart",
                ],
            )
            return 0
        corpora = _all_corpora(settings)
        if args.action == "list":
            sizes = [{"name": n, "sentences": len(ss)} for n, ss in corpora.items()]
            _print(sizes, args.json, [f"{r['name']:<20} {r['sentences']:>7,} sentences" for r in sizes])
            return 0
        if args.action == "stats":
            rows: list[dict[str, Any]] = []
            for name, ss in corpora.items():
                words = [t for s in ss for t in s.tokens if t.pos != "punc"]
                dialects: dict[str, int] = {}
                for s in ss:
                    dialects[s.dialect] = dialects.get(s.dialect, 0) + 1
                rows.append(
                    {
                        "name": name,
                        "sentences": len(ss),
                        "tokens": len(words),
                        "distinct_forms": len({t.token for t in words}),
                        "distinct_lemmas": len({t.dialect_lemma for t in words}),
                        "with_clitics": sum(1 for t in words if t.prefixes or t.suffixes),
                        "dialects": dialects,
                    }
                )
            _print(
                rows,
                args.json,
                [
                    f"{r['name']}: {r['sentences']:,} sentences, {r['tokens']:,} words, "
                    f"{r['distinct_forms']:,} distinct forms, {r['distinct_lemmas']:,} dialect lemmas, "
                    f"{r['with_clitics']:,} with clitics; "
                    + ", ".join(f"{d} {n}" for d, n in sorted(r["dialects"].items()))
                    for r in rows
                ],
            )
            return 0
        # export
        if args.name not in corpora:
            print(f"tahqiq corpus export: no corpus {args.name!r}; have {', '.join(corpora)}", file=sys.stderr)
            return 1
        out = sys.stdout.buffer
        import orjson

        for s in corpora[args.name]:
            out.write(orjson.dumps(sentence_dict(s)) + b"\n")
        return 0
    except CorpusError as exc:
        print(f"tahqiq corpus {args.action}: {exc}", file=sys.stderr)
        return 1


REPORT_NEEDS_CHECKOUT = (
    "tahqiq report needs the repository's tools/ and tests/gold: run it from a checkout of tahqiq (its root directory)"
)


def _checkout_roots(report_args: Sequence[str]) -> list[Path]:
    """Directories that may be the repository's root: the current one and those above it, then those above each
    path named in the arguments (a ``--gold`` file)."""
    starts = [Path.cwd()]
    for arg in report_args:
        value = arg.split("=", 1)[1] if arg.startswith("--") and "=" in arg else arg
        if value.endswith(".jsonl"):
            starts.append(Path(value).resolve().parent)
    roots: list[Path] = []
    for start in starts:
        for directory in (start, *start.parents):
            if directory not in roots:
                roots.append(directory)
    return roots


def _report_main(report_args: Sequence[str]) -> Callable[[list[str]], int] | None:
    """``tools.report.main`` of the repository (the evaluation is repository tooling, not in the wheel): imported
    as it is when ``tools`` is importable (run from the root), else from the first checkout found above the
    current directory or a gold file named; None when there is none (an installed wheel outside a checkout)."""
    for root in [None, *_checkout_roots(report_args)]:
        if root is not None:
            if not ((root / "tools" / "report.py").is_file() and (root / "tests" / "gold").is_dir()):
                continue
            sys.path.insert(0, str(root))
        try:
            module = importlib.import_module("tools.report")
        except ImportError:
            if root is not None:
                sys.path.remove(str(root))
            continue
        main: Callable[[list[str]], int] = module.main
        return main
    return None


def _cmd_report(args: argparse.Namespace) -> int:
    report_main = _report_main(args.report_args)
    if report_main is None:
        print(REPORT_NEEDS_CHECKOUT, file=sys.stderr)
        return 2
    return report_main(args.report_args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tahqiq", description="tahqiq: verification service and its kernels")
    parser.add_argument("--version", action="version", version=f"tahqiq {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    norm = commands.add_parser("normalize", help="normalise Arabic text (argument or stdin)")
    norm.add_argument("text", nargs="?", help="text to normalise; '-' or nothing reads stdin")
    for flag in NORMALIZE_FLAGS:
        default = NORMALIZE_DEFAULTS.get(flag, False)
        norm.add_argument(
            f"--{flag.replace('_', '-')}",
            dest=flag,
            action=argparse.BooleanOptionalAction,
            default=default,
            help=f"(default: {'on' if default else 'off'})",
        )
    norm.set_defaults(run=_cmd_normalize)

    scanner = commands.add_parser("scan", help="print the tokens of a text: start, end, kind, text")
    scanner.add_argument("text", nargs="?", help="text to scan; '-' or nothing reads stdin")
    scanner.add_argument("--json", action="store_true", help="print a JSON array instead of lines")
    scanner.set_defaults(run=_cmd_scan)

    fp = commands.add_parser("fingerprint", help="SHA-256 fingerprint of the JSON document on stdin")
    fp.add_argument("--context", default="", help="context hashed before the body, e.g. 'POST /path'")
    fp.add_argument("--canonical", action="store_true", help="print the RFC 8785 canonical form instead")
    fp.set_defaults(run=_cmd_fingerprint)

    # Options every administration command takes, after its last word (`tahqiq apps create --json`).
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--database-url", help="overrides TAHQIQ_DATABASE_URL")
    common.add_argument("--json", action="store_true", help="print JSON for scripts")

    def admin(name: str, help: str, leaf: bool = True) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=help, parents=[common] if leaf else [])

    serve = admin("serve", "run the HTTP service (applies migrations, starts the submission processor)")
    serve.add_argument("--host", help="overrides TAHQIQ_HOST (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="overrides TAHQIQ_PORT (default 8000)")
    serve.add_argument("--workers", type=int, help="overrides TAHQIQ_WORKERS (default 1; >1 needs PostgreSQL)")
    serve.add_argument("--areas", help="overrides TAHQIQ_AREAS: comma-separated subset of the areas")
    serve.set_defaults(run=_cmd_serve)

    admin("migrate", "apply pending schema migrations and print the schema version").set_defaults(run=_cmd_migrate)

    agents = admin("agents", "create and manage agents", leaf=False)
    agents_actions = agents.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = agents_actions.add_parser("create", help="create an agent and print its API key once", parents=[common])
    create.add_argument("--role", required=True, help="claim_splitter | evidence_seeker | methodology_critic | judge")
    create.add_argument("--name", help="a name for people (default: role and id)")
    agents_actions.add_parser("list", help="list agents", parents=[common])
    for action, text in (
        ("show", "show one agent"),
        ("suspend", "suspend an agent: its key stops minting and its tokens stop verifying"),
        ("activate", "re-activate a suspended agent"),
        ("rotate-key", "replace an agent's API key and print the new one once"),
    ):
        agents_actions.add_parser(action, help=text, parents=[common]).add_argument("agent_id")
    agents.set_defaults(run=_cmd_agents)

    apps = admin("apps", "create and list applications that verify tokens", leaf=False)
    apps_actions = apps.add_subparsers(dest="action", required=True, metavar="ACTION")
    app_create = apps_actions.add_parser("create", help="create an app and print its key once", parents=[common])
    app_create.add_argument("--name", required=True)
    app_create.add_argument("--app-id", help="the app's UUID (default: a new one)")
    app_create.add_argument("--first-party", action="store_true", help="use AGENT_FIRST_PARTY_APP_ID as the id")
    apps_actions.add_parser("list", help="list apps", parents=[common])
    apps.set_defaults(run=_cmd_apps)

    keys_cmd = admin("keys", "signing keys", leaf=False)
    keys_cmd.add_subparsers(dest="action", required=True, metavar="ACTION").add_parser(
        "rotate", help="add a new signing key; old ones verify until their tokens expire", parents=[common]
    )
    keys_cmd.set_defaults(run=_cmd_keys)

    corpus = admin("corpus", "dialect corpora: import a licensed copy, list, stats, export", leaf=False)
    corpus_actions = corpus.add_subparsers(dest="action", required=True, metavar="ACTION")
    imp = corpus_actions.add_parser(
        "import", help="validate and import a corpus file (all or nothing)", parents=[common]
    )
    imp.add_argument("path", help="the corpus file you supply")
    imp.add_argument("--format", required=True, choices=("curras", "nabra", "lisan", "jsonl"))
    imp.add_argument("--name", help="the corpus name served as `source` (default: the file name)")
    corpus_actions.add_parser("list", help="corpora and their sizes", parents=[common])
    corpus_actions.add_parser(
        "stats", help="validate every corpus and count sentences, forms, lemmas", parents=[common]
    )
    exp = corpus_actions.add_parser("export", help="print a corpus as JSON Lines", parents=[common])
    exp.add_argument("name", help="tahqiq (the shipped corpus) or an imported name")
    corpus.set_defaults(run=_cmd_corpus)

    report = commands.add_parser(
        "report",
        help="accuracy on the project's gold sets: report morph | glossary | summaries (see --help)",
        add_help=False,
    )
    report.add_argument("report_args", nargs=argparse.REMAINDER)
    report.set_defaults(run=_cmd_report)

    tokens = admin("tokens", "identity tokens", leaf=False)
    revoke = tokens.add_subparsers(dest="action", required=True, metavar="ACTION").add_parser(
        "revoke", help="revoke one token by its jti", parents=[common]
    )
    revoke.add_argument("jti")
    revoke.add_argument(
        "--expires-at", type=float, help="epoch seconds when the token expires (keeps the record that long)"
    )
    tokens.set_defaults(run=_cmd_tokens)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown and args.command == "report":
        # `report --help` and `report --x …`: options before the report's name belong to the report's own parser.
        args.report_args = unknown + args.report_args
    elif unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        return int(args.run(args))
    except SettingsError as exc:
        print(f"tahqiq {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
