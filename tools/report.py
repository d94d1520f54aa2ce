"""Accuracy reports of the analysis components against the project's gold sets.

    tahqiq report morph [--gold PATH] [--cache-dir DIR] [--package farahidi|qalsadi] [--verbose]
    tahqiq report glossary [--gold PATH ...] [--top-k 3] [--verbose]
    tahqiq report summaries [--gold PATH ...] [--length short|...|all] [--verbose] [--cv]   (tools.evaluate.summaries)
    (also python -m tools.report ...; run from the repository root: the gold sets live in tests/gold)

Repository tooling, never in the wheel. ``tahqiq report`` imports this module from the checkout it runs in and
says how to run it from one when it cannot (an installed wheel).

Scoring conventions of the morphology gold set (tests/gold/morph_msa.jsonl, one token per line with its sentence):

- lemma: compared after :func:`tahqiq.core.normalize` (diacritics, tatweel, alef and ya forms folded), so the
  vocalised lemma of a package matches the bare gold lemma; ``|`` in a gold value separates accepted alternatives.
- root: spaced letters, hamza written ``ء``; compared with spaces and normalisation applied; ``""`` = no root.
- pos: the exact coarse label (noun, adj, verb, ...); ``pos_class`` folds it into the three Arabic word classes
  (اسم: noun, adj, noun_prop, num, pron, adv; فعل: verb; حرف: prep, conj, part), the "coarse POS" of the aims.
- Each token is analysed in its sentence (the sentence is the request text), as the service would.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from pathlib import Path
from typing import Any

from tahqiq.core import normalize

DEFAULT_GOLD = Path("tests/gold/morph_msa.jsonl")
GLOSSARY_GOLD = sorted(Path("tests/gold").glob("glossary_*.jsonl"))

WORD_CLASS = {
    "noun": "ism",
    "adj": "ism",
    "noun_prop": "ism",
    "num": "ism",
    "pron": "ism",
    "adv": "ism",
    "verb": "fil",
    "prep": "harf",
    "conj": "harf",
    "part": "harf",
}
FIELDS = ("lemma", "root", "pos", "pos_class")
# a running-text gold set (morph_running, morph_train) counts every word of Arabic letters and no digits or Latin
# words; its rows carry their ``index`` among those words
ARABIC_WORD = re.compile(r"[\u0621-\u064A\u0671\u064B-\u0652\u0640]+")


def _lemma_key(s: str) -> str:
    return normalize(s).replace(" ", "")


def _root_key(s: str) -> str:
    return normalize(s.replace(" ", ""), alef=False)


def _match(field: str, gold: str, got: str) -> bool:
    alternatives = gold.split("|")
    if field == "lemma":
        return _lemma_key(got) in {_lemma_key(a) for a in alternatives}
    if field == "root":
        return _root_key(got) in {_root_key(a) for a in alternatives}
    if field == "pos_class":
        return WORD_CLASS.get(got, got) in {WORD_CLASS.get(a, a) for a in alternatives}
    return got in alternatives


def load_gold(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def morph_report(gold_path: Path, morphology: Any) -> dict[str, Any]:
    """Accuracy per field of ``morphology.analyze`` on the gold set: ``{tokens, accuracy: {field: float},
    correct: {field: int}, errors: [{token, sentence, field, gold, got}], seconds}``."""
    gold = load_gold(Path(gold_path))
    by_sentence: dict[tuple[str, str], list[dict[str, str]]] = {}
    for row in gold:  # a running-text set may hold the same sentence twice: its id tells them apart
        by_sentence.setdefault((str(row.get("sentence_id", "")), row["sentence"]), []).append(row)
    correct = dict.fromkeys(FIELDS, 0)
    errors: list[dict[str, str]] = []
    started = time.perf_counter()
    for (_sid, sentence), rows in by_sentence.items():
        got_tokens = morphology.analyze(sentence, task="full", flag="1")
        if "index" in rows[0]:  # running text: only the words of Arabic letters are scored
            got_tokens = [t for t in got_tokens if ARABIC_WORD.fullmatch(t["token"])]
        if [t["token"] for t in got_tokens] != [r["token"] for r in rows]:
            raise ValueError(f"gold tokens do not match the scanner's words in {sentence!r}")
        for row, got in zip(rows, got_tokens, strict=True):
            gold_values = {**row, "pos_class": row["pos"]}
            got_values = {**got, "pos_class": got["pos"]}
            for field in FIELDS:
                if _match(field, gold_values[field], got_values[field]):
                    correct[field] += 1
                else:
                    errors.append(
                        {
                            "token": row["token"],
                            "sentence": sentence,
                            "field": field,
                            "gold": gold_values[field],
                            "got": got_values[field],
                        }
                    )
    n = len(gold)
    return {
        "tokens": n,
        "correct": correct,
        "accuracy": {f: (correct[f] / n if n else 0.0) for f in FIELDS},
        "errors": errors,
        "seconds": time.perf_counter() - started,
    }


def glossary_report(gold_paths: list[Path], index: Any, top_k: int = 3) -> dict[str, Any]:
    """Top-k recall of the glossary on dialect words typed in another spelling or with other clitics: `form`
    counts a hit when the expected corpus form is among the matches, `entry` when its dialect lemma is."""
    rows = [row for path in gold_paths for row in load_gold(Path(path))]
    kinds: dict[str, dict[str, int]] = {}
    misses: list[dict[str, Any]] = []
    for row in rows:
        [answer] = index.glossary(row["token"], top_k=top_k)
        forms = [m["form"] for m in answer["matches"]]
        lemmas = [m["dialect_lemma"] for m in answer["matches"]]
        tally = kinds.setdefault(row["kind"], {"items": 0, "form": 0, "entry": 0})
        tally["items"] += 1
        tally["form"] += row["expected_form"] in forms
        tally["entry"] += row["expected_dialect_lemma"] in lemmas
        if row["expected_form"] not in forms:
            misses.append({"token": row["token"], "expected": row["expected_form"], "got": forms})
    total = {k: sum(t[k] for t in kinds.values()) for k in ("items", "form", "entry")}
    n = total["items"] or 1
    return {
        "items": total["items"],
        "recall": {"form": total["form"] / n, "entry": total["entry"] / n},
        "by_kind": {
            k: {"items": t["items"], "form": t["form"] / t["items"], "entry": t["entry"] / t["items"]}
            for k, t in sorted(kinds.items())
        },
        "misses": misses,
    }


def _glossary_main(args: argparse.Namespace) -> int:
    from tahqiq.analysis.corpus.dialect import DialectIndex
    from tahqiq.analysis.corpus.importer import shipped_corpus

    gold = args.gold or GLOSSARY_GOLD
    if not gold:
        print("no gold files: run from the repository (tests/gold/glossary_*.jsonl) or pass --gold", file=sys.stderr)
        return 2
    result = glossary_report(gold, DialectIndex({"tahqiq": shipped_corpus()}), args.top_k)
    print(f"glossary top-{args.top_k} recall on {result['items']} gold words ({len(gold)} files)")
    print(f"  {'all':<10} form {result['recall']['form']:7.2%}   entry {result['recall']['entry']:7.2%}")
    for kind, r in result["by_kind"].items():
        print(f"  {kind:<10} form {r['form']:7.2%}   entry {r['entry']:7.2%}   ({r['items']} words)")
    if args.verbose:
        for miss in result["misses"]:
            print(f"  missed {miss['token']}: expected {miss['expected']}, got {', '.join(miss['got']) or 'nothing'}")
    return 0


def _settings(value: str) -> list[tuple[float, float]]:
    """``--sweep``'s value: comma-separated ``L2:MARGIN`` pairs of finite numbers, L2 above 0, margins 0 or more."""
    try:
        pairs = [tuple(float(x) for x in part.split(":")) for part in value.split(",")]
    except ValueError:
        pairs = []
    if not pairs or any(len(p) != 2 or not (0 < p[0] < math.inf and 0 <= p[1] < math.inf) for p in pairs):
        raise argparse.ArgumentTypeError(f"expected L2:MARGIN pairs (L2 > 0, margin >= 0), comma-separated: {value!r}")
    return [(p[0], p[1]) for p in pairs]


def summaries_main(argv: list[str] | None = None) -> int:
    """``tahqiq report summaries``: ROUGE on the summary gold sets, or the cross-validated figures (``--cv``)."""
    from tahqiq.summarize.extractive import LENGTH_SENTENCES

    from tools.evaluate import summaries as evaluation
    from tools.evaluate.summaries import GOLD_SETS, load_gold, print_detail, summaries_table

    parser = argparse.ArgumentParser(
        prog="tahqiq report summaries",
        description=evaluation.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--gold", type=Path, action="append", help="a gold file, may be repeated (default: both sets in tests/gold)"
    )
    parser.add_argument("--length", default="short", choices=[*LENGTH_SENTENCES, "all"])
    parser.add_argument(
        "--verbose", action="store_true", help="per-document F1 and the sentences chosen (not with --length all)"
    )
    parser.add_argument("--cv", action="store_true", help="cross-validated figures (weights refitted per fold)")
    parser.add_argument(
        "--sweep",
        type=_settings,
        metavar="L2:MARGIN,...",
        help="with --cv: the short summary cross-validated with each of these ridge penalties and lead margins "
        "(pooled, worst fold, departures from Lead-3 in four schemes), instead",
    )
    args = parser.parse_args(argv)
    if args.sweep and not args.cv:
        parser.error("--sweep needs --cv")
    if not args.gold:
        gold_sets = GOLD_SETS
    elif len(args.gold) == 1:
        gold_sets = {"gold set": args.gold[0]}
    else:
        gold_sets = {str(path): path for path in args.gold}
    for gold in gold_sets.values():
        if not gold.is_file():
            print(f"no gold file {gold}: run from the repository or pass --gold", file=sys.stderr)
            return 2
    if args.cv:
        from tools.train.summaries import cross_validation_table, short_sweep_table

        sets = {label: load_gold(gold) for label, gold in gold_sets.items()}
        print("\n".join(short_sweep_table(sets, args.sweep) if args.sweep else cross_validation_table(sets)))
        return 0
    if args.length == "all":
        print("ROUGE F1 x100 of the extractive summarizer and of Lead-k (k = the sentences of that length)")
        print("\n".join(summaries_table(gold_sets)))
        return 0
    for label, gold in gold_sets.items():
        print_detail(label, gold, args.length, args.verbose)
    return 0


def main(argv: list[str] | None = None) -> int:
    from tahqiq.analysis.morphology import Morphology

    args_list = sys.argv[1:] if argv is None else argv
    if args_list[:1] == ["summaries"]:
        return summaries_main(args_list[1:])

    parser = argparse.ArgumentParser(
        prog="tahqiq report", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    morph = sub.add_parser("morph", help="morphology accuracy per field on the gold set")
    morph.add_argument("--gold", type=Path, default=DEFAULT_GOLD)
    morph.add_argument("--cache-dir", type=Path, default=Path("var/cache"), help="where the compiled table lives")
    morph.add_argument("--package", default="farahidi", choices=["farahidi", "qalsadi"])
    morph.add_argument("--verbose", action="store_true", help="list every error")
    glossary = sub.add_parser("glossary", help="glossary top-k recall on the dialect gold sets")
    glossary.add_argument("--gold", type=Path, nargs="*", help="gold files (default tests/gold/glossary_*.jsonl)")
    glossary.add_argument("--top-k", type=int, default=3)
    glossary.add_argument("--verbose", action="store_true", help="list every miss")
    sub.add_parser("summaries", help="ROUGE of the extractive summarizer next to Lead-k (see report summaries -h)")
    args = parser.parse_args(args_list)
    if args.command == "glossary":
        return _glossary_main(args)
    m = Morphology(args.cache_dir, package=args.package)
    t0 = time.perf_counter()
    m.load()
    load_s = time.perf_counter() - t0
    result = morph_report(args.gold, m)
    print(f"morphology {m.package} {m.package_version()} on {args.gold} ({result['tokens']} tokens)")
    print(f"table {'built' if m.table_built else 'loaded'} in {load_s:.2f} s; analysed in {result['seconds']:.2f} s")
    for field in FIELDS:
        print(f"  {field:<10} {result['accuracy'][field]:7.2%}  ({result['correct'][field]}/{result['tokens']})")
    if args.verbose:
        for e in result["errors"]:
            print(f"  {e['field']:<10} {e['token']}: gold {e['gold']!r} got {e['got']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
