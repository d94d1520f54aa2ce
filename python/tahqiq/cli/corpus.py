"""`tahqiq corpus import | list | stats | export`: the dialect corpora, the shipped one and those imported."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from tahqiq.cli.common import Commands, print_result, settings_from
from tahqiq.config import Settings

FORMATS = ("curras", "nabra", "lisan", "jsonl")


def _import(args: argparse.Namespace, settings: Settings) -> int:
    from tahqiq.analysis.corpus.importer import read_corpus_file, write_corpus

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
    target = write_corpus(Path(settings.data_dir), name, sentences, replace=args.replace)
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
        print(file=sys.stderr)  # ends the progress line
    print_result(
        summary,
        args.json,
        [
            f"imported {len(sentences):,} sentences ({tokens:,} tokens) as {name!r}",
            f"dialects: {', '.join(summary['dialects'])}",
            f"stored in {target}; the service serves it as source={name!r} after a restart",
        ],
    )
    return 0


def _all_corpora(settings: Settings) -> dict[str, Any]:
    from tahqiq.analysis.corpus.importer import imported_corpora, shipped_corpus

    return {"tahqiq": shipped_corpus(), **imported_corpora(Path(settings.data_dir))}


def _list(args: argparse.Namespace, corpora: dict[str, Any]) -> int:
    sizes = [{"name": n, "sentences": len(ss)} for n, ss in corpora.items()]
    print_result(sizes, args.json, [f"{r['name']:<20} {r['sentences']:>7,} sentences" for r in sizes])
    return 0


def _counts(name: str, sentences: Any) -> dict[str, Any]:
    """The `stats` row of one corpus."""
    words = [t for s in sentences for t in s.tokens if t.pos != "punc"]
    dialects: dict[str, int] = {}
    for s in sentences:
        dialects[s.dialect] = dialects.get(s.dialect, 0) + 1
    return {
        "name": name,
        "sentences": len(sentences),
        "tokens": len(words),
        "distinct_forms": len({t.token for t in words}),
        "distinct_lemmas": len({t.dialect_lemma for t in words}),
        "with_clitics": sum(1 for t in words if t.prefixes or t.suffixes),
        "dialects": dialects,
    }


def _stats(args: argparse.Namespace, corpora: dict[str, Any]) -> int:
    rows = [_counts(name, sentences) for name, sentences in corpora.items()]
    print_result(
        rows,
        args.json,
        [
            f"{r['name']}: {r['sentences']:,} sentences, {r['tokens']:,} words, "
            f"{r['distinct_forms']:,} distinct forms, {r['distinct_lemmas']:,} dialect lemmas, "
            f"{r['with_clitics']:,} with clitics; " + ", ".join(f"{d} {n}" for d, n in sorted(r["dialects"].items()))
            for r in rows
        ],
    )
    return 0


def _export(args: argparse.Namespace, corpora: dict[str, Any]) -> int:
    import orjson

    from tahqiq.analysis.corpus.schema import sentence_dict

    if args.name not in corpora:
        print(f"tahqiq corpus export: no corpus {args.name!r}; have {', '.join(corpora)}", file=sys.stderr)
        return 1
    out = sys.stdout.buffer
    for s in corpora[args.name]:
        out.write(orjson.dumps(sentence_dict(s)) + b"\n")
    return 0


def run(args: argparse.Namespace) -> int:
    from tahqiq.analysis.corpus.schema import CorpusError

    settings = settings_from(args)
    try:
        if args.action == "import":
            return _import(args, settings)
        corpora = _all_corpora(settings)  # every corpus read and validated, whichever the action
        action = {"list": _list, "stats": _stats, "export": _export}[args.action]
        return action(args, corpora)
    except CorpusError as exc:
        print(f"tahqiq corpus {args.action}: {exc}", file=sys.stderr)
        return 1


def add_parser(commands: Commands, admin_options: argparse.ArgumentParser) -> None:
    group = commands.add_parser("corpus", help="dialect corpora: import a licensed copy, list, stats, export")
    actions = group.add_subparsers(dest="action", required=True, metavar="ACTION")
    imp = actions.add_parser(
        "import", help="validate and import a corpus file (all or nothing)", parents=[admin_options]
    )
    imp.add_argument("path", help="the corpus file you supply")
    imp.add_argument("--format", required=True, choices=FORMATS)
    imp.add_argument("--name", help="the corpus name served as `source` (default: the file name)")
    imp.add_argument("--replace", action="store_true", help="replace an imported corpus of the same name")
    actions.add_parser("list", help="corpora and their sizes", parents=[admin_options])
    actions.add_parser(
        "stats", help="validate every corpus and count sentences, forms, lemmas", parents=[admin_options]
    )
    exp = actions.add_parser("export", help="print a corpus as JSON Lines", parents=[admin_options])
    exp.add_argument("name", help="tahqiq (the shipped corpus) or an imported name")
    group.set_defaults(run=run)
