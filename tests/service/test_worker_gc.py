"""A server worker's collector: `app_from_env` (what granian's workers call) freezes the objects alive once the app
is built and raises the collection thresholds. Checked in a fresh interpreter, as a worker would start."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tahqiq.web.app import WORKER_GC_THRESHOLDS

from tests.support.server import server_env

PROBE = """
import gc, json
before = {"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count()}
from tahqiq.web.entry import app_from_env
app_from_env()
print(json.dumps({"before": before, "after": {"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count()}}))
"""


def test_app_from_env_freezes_startup_objects_and_raises_thresholds(tmp_path: Path) -> None:
    env = server_env(f"sqlite:///{tmp_path / 'tahqiq.db'}", TAHQIQ_AREAS="agents")
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["before"] == {"threshold": [700, 10, 10], "frozen": 0}  # the interpreter's defaults
    assert seen["after"]["threshold"] == list(WORKER_GC_THRESHOLDS)
    assert seen["after"]["frozen"] > 10_000  # the modules, the app and its routes
