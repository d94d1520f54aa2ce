"""The NER and relation gold sets (tests/gold/ner_msa.jsonl, relations.jsonl, relation_inventory.json) are
well formed: offsets match the text and fall on scanner token boundaries, types are the 21 Wojood types,
nesting never crosses or repeats a type, and every relation is in the 40-predicate inventory with
type-consistent arguments (see scripts/ner_gold.py and python/tahqiq/analysis/NER.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ner_and_relation_gold_sets_are_well_formed() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "ner_gold.py"), "check"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().endswith("0 problems")
