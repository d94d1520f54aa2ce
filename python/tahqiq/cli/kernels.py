"""`tahqiq normalize | scan | fingerprint`: the text kernels, for shell use."""

from __future__ import annotations

import argparse
import json
import sys

from tahqiq.cli.common import Commands
from tahqiq.core import canonical_json, fingerprint, normalize, scan

NORMALIZE_FLAGS = ("diacritics", "tatweel", "alef", "ya", "ta_marbuta", "digits", "punctuation")
NORMALIZE_DEFAULTS = {"diacritics": True, "tatweel": True, "alef": True, "ya": True}


def _read_text(value: str | None) -> str:
    return sys.stdin.read() if value in (None, "-") else value


def run_normalize(args: argparse.Namespace) -> int:
    options = {flag: getattr(args, flag) for flag in NORMALIZE_FLAGS}
    print(normalize(_read_text(args.text), **options))
    return 0


def run_scan(args: argparse.Namespace) -> int:
    tokens = scan(_read_text(args.text))
    if args.json:
        rows = [{"text": t.text, "start": t.start, "end": t.end, "kind": t.kind} for t in tokens]
        print(json.dumps(rows, ensure_ascii=False))
    else:
        for t in tokens:
            print(f"{t.start}\t{t.end}\t{t.kind}\t{t.text}")
    return 0


def run_fingerprint(args: argparse.Namespace) -> int:
    body = sys.stdin.buffer.read()
    try:
        print(canonical_json(body).decode() if args.canonical else fingerprint(body, context=args.context))
    except ValueError as exc:
        print(f"tahqiq fingerprint: {exc}", file=sys.stderr)
        return 2
    return 0


def add_parsers(commands: Commands) -> None:
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
    norm.set_defaults(run=run_normalize)

    scanner = commands.add_parser("scan", help="print the tokens of a text: start, end, kind, text")
    scanner.add_argument("text", nargs="?", help="text to scan; '-' or nothing reads stdin")
    scanner.add_argument("--json", action="store_true", help="print a JSON array instead of lines")
    scanner.set_defaults(run=run_scan)

    fp = commands.add_parser("fingerprint", help="SHA-256 fingerprint of the JSON document on stdin")
    fp.add_argument("--context", default="", help="context hashed before the body, e.g. 'POST /path'")
    fp.add_argument("--canonical", action="store_true", help="print the RFC 8785 canonical form instead")
    fp.set_defaults(run=run_fingerprint)
