"""WSD accuracy on tests/gold/wsd.jsonl beside the most-frequent-sense baseline.

    python -m tools.evaluate.wsd [--gold PATH] [--cache-dir DIR] [--json]

Each gold line names a sentence, the ambiguous token's span and the expected sense id of the project's inventory.
The system's choice (context overlap) and the baseline's (first sense of the most frequent headword) are both
scored by exact sense id; the report also breaks accuracy down per headword (the gold's ``lemma``).

Repository tooling, never in the wheel: it reads tests/gold.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from tahqiq.analysis.wsd import Disambiguator

ROOT = Path()  # the gold sets live in the repository: run the reports from its root (CI does)
GOLD = ROOT / "tests" / "gold" / "wsd.jsonl"


def read_gold(path: Path = GOLD) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def wsd_report(disambiguator: Disambiguator, gold: list[dict[str, Any]]) -> dict[str, Any]:
    """``{n, accuracy, baseline_accuracy, per_lemma: {lemma: {n, accuracy, baseline_accuracy}}, errors: [...]}``."""
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    right = base = 0
    errors: list[dict[str, Any]] = []
    for item in gold:
        expected = item["expected_sense_id"]
        got = disambiguator.disambiguate_span(item["text"], item["start"], item["end"])
        mfs = disambiguator.disambiguate_span(item["text"], item["start"], item["end"], baseline=True)
        counts = per[item["lemma"]]
        counts[0] += 1
        if got == expected:
            right += 1
            counts[1] += 1
        else:
            errors.append({"id": item["id"], "token": item["token"], "expected": expected, "got": got})
        if mfs == expected:
            base += 1
            counts[2] += 1
    n = len(gold)
    return {
        "n": n,
        "accuracy": right / n if n else 0.0,
        "baseline_accuracy": base / n if n else 0.0,
        "per_lemma": {
            k: {"n": v[0], "accuracy": v[1] / v[0], "baseline_accuracy": v[2] / v[0]} for k, v in sorted(per.items())
        },
        "errors": errors,
    }


def format_report(report: dict[str, Any]) -> str:
    lines = [f"{'lemma':<10} {'n':>3} {'system':>7} {'MFS':>7}"]
    for lemma, r in report["per_lemma"].items():
        lines.append(f"{lemma:<10} {r['n']:>3} {r['accuracy']:>7.2f} {r['baseline_accuracy']:>7.2f}")
    lines.append(
        f"{'all':<10} {report['n']:>3} {report['accuracy']:>7.3f} {report['baseline_accuracy']:>7.3f}"
        "   (accuracy: system vs most-frequent-sense baseline)"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from tahqiq.analysis.morphology import Morphology
    from tahqiq.analysis.wsd import SenseInventory

    parser = argparse.ArgumentParser(prog="python -m tools.evaluate.wsd", description=__doc__)
    parser.add_argument("--gold", type=Path, default=GOLD)
    parser.add_argument("--cache-dir", type=Path, default=Path("var/cache"))
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    disambiguator = Disambiguator(SenseInventory(args.cache_dir), Morphology(args.cache_dir))
    report = wsd_report(disambiguator, read_gold(args.gold))
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
