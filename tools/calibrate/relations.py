"""Measure the precision of every relation pattern and write it into the inventory (data/relations.json).

    python -m tools.calibrate.relations [--check] [--verbose]

The calibration half is tests/gold/relations_dev.jsonl, tests/gold/relations_dev_more.jsonl,
relations_dev_news.jsonl and relations_dev_news2.jsonl but its held-back ids 466-485 (development sentences
written for the calibration, with their entities; sources in tests/gold/src/) plus
the gold sentences ids 1-40 of
tests/gold/relations.jsonl (given gold entities, as evaluate_relations does); ids 41-80 are held out and never
read here. The extractor runs with ``explain=True`` so that every relation it outputs names the pattern that
produced it (``predicate/i``: the predicate's i-th trigger; ``nested/i``: the i-th nesting rule). A pattern's
output is a true positive when predicate and both spans match the gold, else a false positive. Its precision
is then measured with add-one smoothing, ``(tp + 1) / (tp + fp + 2)``, when it fired at least 3 times, and is
left at its prior (the trigger's ``prior``, else the predicate's ``precision``; for a nesting rule its own
``prior``) when it fired fewer times. The trigger (or rule) gets ``precision``, ``prior``, ``tp`` and ``fp``.

Which candidate wins a pair of entities depends on the precisions, so the measurement is repeated with the
newly measured values until the counts no longer change (at most 5 rounds). ``--check`` exits 1 when the file
is not up to date instead of writing it.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tahqiq.analysis.relations import MEASURE_CONFIDENCE, RelationExtractor, load_inventory, load_nested_rules

from tools.evaluate.relations import gold_entities, ner_entities, read_gold, relation_key

# Runs against the installed tahqiq (editable or not); reads and writes the repository's data and gold files.
ROOT = Path(__file__).resolve().parents[2]

DATA = ROOT / "python" / "tahqiq" / "analysis" / "relations" / "data" / "relations.json"
GOLD = ROOT / "tests" / "gold"
CALIBRATION_IDS = range(1, 41)
MIN_FIRED = 3
NEWS2_HELD_BACK = range(466, 486)  # relations_dev_news2 ids kept untouched until measured once at the end


def calibration_set() -> list[dict[str, Any]]:
    dev = read_gold(GOLD / "relations_dev.jsonl") + read_gold(GOLD / "relations_dev_more.jsonl")
    dev += read_gold(GOLD / "relations_dev_news.jsonl")
    dev += [g for g in read_gold(GOLD / "relations_dev_news2.jsonl") if int(g["id"]) not in NEWS2_HELD_BACK]
    main = [g for g in read_gold(GOLD / "relations.jsonl") if int(g["id"]) in CALIBRATION_IDS]
    return dev + main


def count(data: dict[str, Any], gold: list[dict[str, Any]]) -> tuple[Counter[str], Counter[str]]:
    """Per pattern: true and false positives of the extractor built from ``data`` on ``gold``."""
    extractor = RelationExtractor(
        load_inventory(data), load_nested_rules(data), min_confidence=MEASURE_CONFIDENCE, classifier=None
    )
    ner = ner_entities()
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    for item in gold:
        want = {relation_key(r) for r in item["relations"]}
        for r in extractor.extract(item["text"], gold_entities(item, ner), explain=True):
            (tp if relation_key(r) in want else fp)[r["pattern"]] += 1
    return tp, fp


def _prior(pattern: dict[str, Any], default: float) -> float:
    return float(pattern.get("prior", default))


def apply(data: dict[str, Any], tp: Counter[str], fp: Counter[str]) -> dict[str, Any]:
    """A copy of ``data`` with every pattern's measured precision (or its prior) and counts."""
    out = copy.deepcopy(data)

    def set_one(pattern: dict[str, Any], name: str, default: float) -> None:
        prior = _prior(pattern, default)
        t, f = tp[name], fp[name]
        for k in ("prior", "tp", "fp", "precision"):
            pattern.pop(k, None)
        pattern["prior"] = prior
        pattern["tp"], pattern["fp"] = t, f
        pattern["precision"] = round((t + 1) / (t + f + 2), 3) if t + f >= MIN_FIRED else prior

    for p in out["predicates"]:
        for i, t in enumerate(p["triggers"]):
            set_one(t, f"{p['predicate']}/{i}", float(p.get("precision", 0.7)))
    # the nesting rules the extractor keeps are numbered as in the file (all name known predicates)
    prior_of = {p["predicate"]: float(p.get("precision", 0.7)) for p in out["predicates"]}
    for i, r in enumerate(out.get("nested", ())):
        set_one(r, f"nested/{i}", float(r.get("precision", prior_of[r["predicate"]])))
    return out


def reset(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with the measured values replaced by the priors (the calibration's starting point)."""
    out = copy.deepcopy(data)
    for p in out["predicates"]:
        for t in p["triggers"]:
            prior = t.pop("prior", None)
            for k in ("precision", "tp", "fp"):
                t.pop(k, None)
            if prior is not None and prior != p.get("precision", 0.7):
                t["prior"] = prior
    for r in out.get("nested", ()):
        prior = r.pop("prior", None)
        for k in ("tp", "fp"):
            r.pop(k, None)
        if prior is not None:
            r["precision"] = prior
    return out


def calibrate(data: dict[str, Any], gold: list[dict[str, Any]]) -> dict[str, Any]:
    base = reset(data)
    current = base
    seen: tuple[Counter[str], Counter[str]] | None = None
    for _ in range(5):
        tp, fp = count(current, gold)
        if seen == (tp, fp):
            break
        seen = (tp, fp)
        current = apply(base, tp, fp)
    return current


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 when data/relations.json is not up to date")
    parser.add_argument("--verbose", action="store_true", help="print every pattern that fired")
    args = parser.parse_args(argv)
    text = DATA.read_text(encoding="utf-8")
    data = json.loads(text)
    new = calibrate(data, calibration_set())
    new_text = json.dumps(new, ensure_ascii=False, indent=1) + "\n"
    if args.verbose:
        for p in new["predicates"]:
            for i, t in enumerate(p["triggers"]):
                if t["tp"] + t["fp"]:
                    print(f"{p['predicate']}/{i} {t['text']!r}: tp {t['tp']} fp {t['fp']} -> {t['precision']}")
        for i, r in enumerate(new.get("nested", ())):
            print(f"nested/{i} {r['predicate']}: tp {r['tp']} fp {r['fp']} -> {r['precision']}")
    if args.check:
        return 0 if new_text == text else 1
    DATA.write_text(new_text, encoding="utf-8")
    fired = [t for p in new["predicates"] for t in p["triggers"] if t["tp"] + t["fp"] >= MIN_FIRED] + [
        r for r in new.get("nested", ()) if r["tp"] + r["fp"] >= MIN_FIRED
    ]
    print(f"wrote {DATA.relative_to(ROOT)}: {len(fired)} patterns measured (fired {MIN_FIRED}+ times)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
