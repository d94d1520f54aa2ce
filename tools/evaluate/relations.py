"""Relation extraction: precision, recall and F1 per predicate and micro-averaged.

    python -m tools.evaluate.relations [--gold PATH] [--ids A-B] [--ner] [--json]

Reads tests/gold/relations.jsonl when present (the project's gold), else tests/gold/relations_dev.jsonl (20
sentences with hand-given entities). The extractor is given gold entities: the line's ``entities`` when it has
them; else the NER gold's entities for the same sentence (tests/gold/ner_msa.jsonl, so that entities outside any
relation compete too) together with the spans the gold relations name. A relation counts as found when
predicate, subject span and object span match exactly. ``--ids A-B`` scores a range of gold ids only;
``--ner`` gives the extractor the system's own entities (``Recognizer().recognize``, as the ``/re`` endpoint
does) instead of the gold ones.

Repository tooling, never in the wheel: it reads tests/gold. ``prf`` is :func:`tools.metrics.prf`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tahqiq.analysis.relations import RelationExtractor

from tools.metrics import prf

ROOT = Path()  # the gold sets live in the repository: run the reports from its root (CI does)
GOLD_DIR = ROOT / "tests" / "gold"


def default_gold() -> Path:
    main = GOLD_DIR / "relations.jsonl"
    return main if main.exists() else GOLD_DIR / "relations_dev.jsonl"


def read_gold(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def relation_key(r: dict[str, Any]) -> tuple[Any, ...]:
    """What identifies a relation in the scoring: predicate, subject span and object span."""
    s, o = r["subject"], r["object"]
    return (r["predicate"], s["start"], s["end"], o["start"], o["end"])


def ner_entities(path: Path | None = None) -> dict[str, list[dict[str, Any]]]:
    """Sentence text → its entities in the NER gold (empty when that file is absent)."""
    path = path or GOLD_DIR / "ner_msa.jsonl"
    if not path.exists():
        return {}
    return {item["text"]: item["entities"] for item in read_gold(path)}


def gold_entities(item: dict[str, Any], ner: dict[str, list[dict[str, Any]]] | None = None) -> list[dict[str, Any]]:
    if "entities" in item:
        return list(item["entities"])
    seen: dict[tuple[int, int, str], dict[str, Any]] = {}
    for e in (ner or {}).get(item["text"], ()):
        seen.setdefault((e["start"], e["end"], e["type"]), e)
    for r in item["relations"]:
        for side in ("subject", "object"):
            e = r[side]
            seen.setdefault((e["start"], e["end"], e["type"]), e)
    return list(seen.values())


def relations_report(
    extractor: RelationExtractor,
    gold: list[dict[str, Any]],
    ner: dict[str, list[dict[str, Any]]] | None = None,
    *,
    recognize: Callable[[str], Iterable[Any]] | None = None,
) -> dict[str, Any]:
    """``{n, micro: {precision, recall, f1, tp, fp, fn}, per_predicate: {name: {...}}, errors: [...]}``.

    With ``recognize`` (e.g. ``Recognizer().recognize``) the entities come from it rather than from the gold."""
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    errors: list[dict[str, Any]] = []
    for item in gold:
        want = {relation_key(r): r for r in item["relations"]}
        ents = recognize(item["text"]) if recognize is not None else gold_entities(item, ner)
        got = {relation_key(r): r for r in extractor.extract(item["text"], ents)}
        for k in want.keys() & got.keys():
            tp[k[0]] += 1
        for k in got.keys() - want.keys():
            fp[k[0]] += 1
            errors.append({"id": item["id"], "kind": "fp", "relation": got[k]})
        for k in want.keys() - got.keys():
            fn[k[0]] += 1
            errors.append({"id": item["id"], "kind": "fn", "relation": want[k]})
    names = sorted(set(tp) | set(fp) | set(fn))
    return {
        "n": len(gold),
        "micro": prf(sum(tp.values()), sum(fp.values()), sum(fn.values())),
        "per_predicate": {n: prf(tp[n], fp[n], fn[n]) for n in names},
        "errors": errors,
    }


def format_report(report: dict[str, Any]) -> str:
    lines = [f"{'predicate':<16} {'P':>6} {'R':>6} {'F1':>6} {'tp':>4} {'fp':>4} {'fn':>4}"]
    rows = [*report["per_predicate"].items(), ("micro", report["micro"])]
    for name, r in rows:
        lines.append(
            f"{name:<16} {r['precision']:>6.2f} {r['recall']:>6.2f} {r['f1']:>6.2f} "
            f"{r['tp']:>4} {r['fp']:>4} {r['fn']:>4}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.evaluate.relations", description=__doc__)
    parser.add_argument("--gold", type=Path, default=None)
    parser.add_argument("--ner-gold", type=Path, default=None, help="NER gold giving the sentences' entities")
    parser.add_argument("--ids", default=None, help="only the gold ids A-B")
    parser.add_argument("--ner", action="store_true", help="entities from the system's recognizer, not the gold")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    path = args.gold or default_gold()
    gold = read_gold(path)
    if args.ids:
        low, _, high = args.ids.partition("-")
        gold = [g for g in gold if int(low) <= int(g["id"]) <= int(high or low)]
    recognize = None
    if args.ner:
        from tahqiq.analysis.ner import Recognizer

        recognize = Recognizer().recognize
    report = relations_report(RelationExtractor(), gold, ner_entities(args.ner_gold), recognize=recognize)
    report["gold"] = str(path)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(f"gold: {path} ({report['n']} sentences)")
        print(format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
