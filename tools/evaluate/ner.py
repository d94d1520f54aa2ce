"""Entity-level scores of the recognizer on the NER gold files (exact span and type).

`ner_report(gold_paths, recognizer)` returns precision, recall and F1 per type and micro-averaged, with the
counts behind them and the misses; `python -m tools.evaluate.ner [files…]` prints it (by default
the development sets, every ``tests/gold/ner_*.jsonl`` under the current directory but the blind ``ner_test*``
and ``ner_everyday`` sets, which are scored only when named: each look at them is counted).

Repository tooling, never in the wheel: it reads tests/gold (layout: tools/evaluate/ holds one module per task scored
on the gold sets, tools/train/ what fits shipped weights, tools/metrics.py the scores they share).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tahqiq.analysis.ner import Recognizer, default_recognizer
from tahqiq.core import scan

from tools.metrics import prf


def _prf(tp: int, fp: int, fn: int) -> dict[str, float | int]:
    """Precision, recall and F1 (the relations report's `prf`), rounded to 4 places for the NER report."""
    scores = prf(tp, fp, fn)
    return {**scores, **{k: round(scores[k], 4) for k in ("precision", "recall", "f1")}}


def read_gold(paths: Iterable[Path | str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return rows


def ner_report(gold_paths: Iterable[Path | str], recognizer: Recognizer | None = None) -> dict[str, Any]:
    """Scores over every sentence of `gold_paths`: `{"sentences", "words", "fp_per_1000_words",
    "unfounded", "unfounded_per_1000_words", "micro": {...}, "per_type": {type: {...}}, "errors": [{id, text,
    missing, spurious}]}`. A spurious entity is any that the gold lacks (a wrong boundary or type too); an
    unfounded one overlaps no gold entity at all: an entity where the reader sees none."""
    rec = recognizer or default_recognizer()
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    errors: list[dict[str, Any]] = []
    rows = read_gold(gold_paths)
    words = unfounded = 0
    for row in rows:
        text = row["text"]
        words += sum(1 for t in scan(text) if t.kind == "word")
        gold = {(e["type"], e["start"], e["end"]) for e in row["entities"]}
        pred = {(e.type, e.start, e.end) for e in rec.recognize(text)}
        for t, _, _ in gold & pred:
            tp[t] += 1
        for t, a, b in pred - gold:
            fp[t] += 1
            unfounded += not any(a < gb and ga < b for _, ga, gb in gold)
        for t, _, _ in gold - pred:
            fn[t] += 1
        if gold != pred:
            errors.append(
                {
                    "id": row.get("id"),
                    "text": text,
                    "missing": [f"{t} {text[a:b]}" for t, a, b in sorted(gold - pred, key=lambda x: x[1])],
                    "spurious": [f"{t} {text[a:b]}" for t, a, b in sorted(pred - gold, key=lambda x: x[1])],
                }
            )
    types = sorted(set(tp) | set(fp) | set(fn))
    return {
        "sentences": len(rows),
        "words": words,
        # what a reader of everyday text meets: spurious entities per thousand words
        "fp_per_1000_words": round(1000 * sum(fp.values()) / words, 2) if words else 0.0,
        "unfounded": unfounded,
        "unfounded_per_1000_words": round(1000 * unfounded / words, 2) if words else 0.0,
        "micro": _prf(sum(tp.values()), sum(fp.values()), sum(fn.values())),
        "per_type": {t: _prf(tp[t], fp[t], fn[t]) for t in types},
        "errors": errors,
    }


BLIND_PREFIX = "ner_test"  # the blind sets: scored only when named, each look counted
BLIND_NAMES = frozenset({"ner_everyday"})  # (ner_everyday_dev is its development twin, read freely)


def is_blind(path: Path) -> bool:
    return path.stem.startswith(BLIND_PREFIX) or path.stem in BLIND_NAMES


def development_gold_paths(gold_dir: Path) -> list[Path]:
    """The NER gold files of `gold_dir` a run may score without counting a look: all but the blind ones
    (``ner_test*``, ``ner_everyday``; ``ner_everyday_dev`` is a development set)."""
    return [path for path in sorted(gold_dir.glob("ner_*.jsonl")) if not is_blind(path)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.evaluate.ner",
        description="Entity precision, recall and F1 per type (exact span and type) on NER gold files. "
        "Without files: the development sets under tests/gold/ (the blind ner_test* sets only when named).",
    )
    parser.add_argument("files", nargs="*", type=Path, help="NER gold files (JSON lines)")
    parser.add_argument("--errors", action="store_true", help="print each sentence's missing and spurious entities")
    parser.add_argument(
        "--in-context",
        action="store_true",
        help="as the service runs it: no entity starts on a clause-opening verb read by morphology in context "
        "(Morphology.words_in_context, table in var/cache)",
    )
    args = parser.parse_args(argv)
    show_errors = args.errors
    paths = args.files or development_gold_paths(Path("tests/gold"))
    if not paths:
        print("no gold files: run from the repository root or name the files", file=sys.stderr)
        return 1
    absent = [str(p) for p in paths if not p.is_file()]
    if absent:
        print(f"no such gold file: {', '.join(absent)}", file=sys.stderr)
        return 1
    recognizer = None
    if args.in_context:
        from tahqiq.analysis.morphology import Morphology

        recognizer = Recognizer(context=Morphology(Path("var/cache")).words_in_context)
    report = ner_report(paths, recognizer)
    m = report["micro"]
    print(f"{report['sentences']} sentences from {', '.join(str(p) for p in paths)}")
    print(f"{'type':<10} {'P':>6} {'R':>6} {'F1':>6} {'gold':>5}")
    for t, s in report["per_type"].items():
        print(f"{t:<10} {s['precision']:6.3f} {s['recall']:6.3f} {s['f1']:6.3f} {s['tp'] + s['fn']:5d}")
    print(f"{'micro':<10} {m['precision']:6.3f} {m['recall']:6.3f} {m['f1']:6.3f} {m['tp'] + m['fn']:5d}")
    print(f"{report['words']} words; {m['fp']} spurious entities, {report['fp_per_1000_words']} per 1,000 words")
    print(
        f"{report['unfounded']} of them overlap no gold entity (an entity where the gold has none), "
        f"{report['unfounded_per_1000_words']} per 1,000 words"
    )
    if show_errors:
        for e in report["errors"]:
            print(f"\n#{e['id']} {e['text']}\n  missing:  {e['missing']}\n  spurious: {e['spurious']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
