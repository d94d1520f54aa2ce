"""Shape of the blind everyday NER test set (tests/gold/ner_everyday.jsonl).

Checks the file only and never runs the recognizer: size, slices, types, genres and how rare the entities are.
The set measures; it must never be used to tune (scripts/ner_everyday_gold.py, docs/quality.md).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "tests" / "gold" / "ner_everyday.jsonl"
SRC = ROOT / "tests" / "gold" / "src" / "ner_everyday.txt"

TYPES = {
    "PERS",
    "NORP",
    "OCC",
    "ORG",
    "GPE",
    "LOC",
    "FAC",
    "EVENT",
    "DATE",
    "TIME",
    "CARDINAL",
    "ORDINAL",
    "PERCENT",
    "LANGUAGE",
    "QUANTITY",
    "WEBSITE",
    "UNIT",
    "LAW",
    "MONEY",
    "PRODUCT",
    "CURR",
}
GENRES = {"story", "howto", "classroom", "opinion"}
ARABIC_RUN = re.compile(r"[\u0621-\u063A\u0641-\u064A\u0671-\u06D3]+")


def _rows() -> list[dict]:
    return [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line.strip()]


def _tokens(rows: list[dict]) -> int:
    return sum(len(ARABIC_RUN.findall(r["text"])) for r in rows)


def test_ids_and_keys():
    rows = _rows()
    assert [r["id"] for r in rows] == list(range(1, len(rows) + 1))
    for r in rows:
        assert set(r) == {"id", "text", "topic", "entities"}
        assert r["text"].strip() == r["text"] and r["text"]
        for e in r["entities"]:
            assert set(e) == {"type", "start", "end", "text"}


def test_at_least_3000_tokens():
    assert _tokens(_rows()) >= 3000


def test_entity_text_is_the_slice_and_type_known():
    for r in _rows():
        seen = set()
        for e in r["entities"]:
            assert e["type"] in TYPES, (r["id"], e)
            assert 0 <= e["start"] < e["end"] <= len(r["text"]), (r["id"], e)
            assert r["text"][e["start"] : e["end"]] == e["text"], (r["id"], e)
            key = (e["type"], e["start"], e["end"])
            assert key not in seen, (r["id"], e)
            seen.add(key)


def test_every_genre_present():
    counts = Counter(r["topic"] for r in _rows())
    assert set(counts) == GENRES
    assert all(n >= 20 for n in counts.values()), counts


def test_entities_are_rare():
    rows = _rows()
    per100 = 100 * sum(len(r["entities"]) for r in rows) / _tokens(rows)
    assert 0.5 <= per100 <= 6, per100
    # most sentences hold no entity at all: everyday prose, not news
    assert sum(1 for r in rows if not r["entities"]) >= len(rows) // 3


def test_jsonl_is_built_from_the_source():
    path = ROOT / "scripts" / "ner_everyday_gold.py"
    spec = importlib.util.spec_from_file_location("_ner_everyday_gold", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    assert module.parse(SRC) == _rows()
