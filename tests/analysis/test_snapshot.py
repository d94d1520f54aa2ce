"""Every gold text's analysis answers equal the recorded snapshot (tools/snapshot.py): a change meant to keep
behaviour keeps it exactly. A change meant to change answers updates the snapshot (`python -m tools.snapshot
--update`) and says so in its commit."""

from __future__ import annotations

import json

from tools.snapshot import SNAPSHOT, differences, snapshot


def test_every_gold_answer_equals_the_snapshot() -> None:
    recorded = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    changed = differences(recorded, snapshot())
    assert not changed, f"{len(changed)} answers changed (python -m tools.snapshot lists them): {changed[:10]}"
