"""Shape of the running-text morphology gold set (tests/gold/morph_running.jsonl).

Checks the file only; the analyser is never run here (the set is blind: never used to tune,
every look at the analyser's score on it is counted).
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "morph_gold.py"
GOLD = REPO / "tests" / "gold" / "morph_running.jsonl"

POS_LABELS = {"noun", "adj", "verb", "adv", "pron", "prep", "conj", "part", "noun_prop", "num"}
GENRES = ("news", "story", "instructions", "notice")
KEYS = ["id", "sentence_id", "genre", "sentence", "index", "token", "lemma", "root", "pos"]


def _script():
    spec = importlib.util.spec_from_file_location("morph_gold", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    with GOLD.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_size(rows):
    assert len(rows) >= 2000


def test_keys_and_numbering(rows):
    for number, row in enumerate(rows, start=1):
        assert list(row) == KEYS
        assert row["id"] == number
    sentence_ids = [row["sentence_id"] for row in rows]
    assert sentence_ids[0] == 1
    assert all(b - a in (0, 1) for a, b in itertools.pairwise(sentence_ids))


def test_pos_labels(rows):
    assert {row["pos"] for row in rows} <= POS_LABELS


def test_genres(rows):
    counts = Counter(row["genre"] for row in rows)
    assert set(counts) == set(GENRES)
    for genre in GENRES:
        assert counts[genre] >= 300, (genre, counts[genre])


def test_roots(rows):
    for row in rows:
        root = row["root"]
        if root == "":
            continue
        letters = root.split(" ")
        assert 3 <= len(letters) <= 4, row
        assert all(len(letter) == 1 for letter in letters), row


def test_tokens_are_the_sentence_runs(rows):
    tokenize = _script().tokenize
    by_sentence: dict[int, list[dict]] = {}
    for row in rows:
        by_sentence.setdefault(row["sentence_id"], []).append(row)
    for sentence_rows in by_sentence.values():
        runs = tokenize(sentence_rows[0]["sentence"])
        assert [row["index"] for row in sentence_rows] == list(range(len(runs)))
        assert [row["token"] for row in sentence_rows] == runs


def test_mismatched_source_fails():
    module = _script()
    bad = "# genre: news\nS\tذهب الولد.\nذهب\tذهب\tذ ه ب\tverb\n"
    _, problems = module.read(module.SETS["morph_running"], bad)
    assert problems


def test_check_passes():
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "check", "morph_running"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert result.returncode == 0, result.stderr
