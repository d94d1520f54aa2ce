"""The blind word-sense test sets tests/gold/wsd_test.jsonl and wsd_test2.jsonl are well formed (tests/gold/WSD.md,
scripts/wsd_gold.py).

Shape only: this file reads the sense inventory and never runs the disambiguator, so the sets stay unseen until they
are scored on purpose."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from tahqiq.analysis.wsd import SenseInventory

from tests.support.reference_text import scan_ref
from tests.support.script_support import load_script

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "tests" / "gold"
# set name -> (fewest items, most items, fewest lemmas), as each set's notes in WSD.md state them
SETS = {"wsd_test": (70, 100, 25), "wsd_test2": (100, 120, 35)}
FIELDS = ["id", "text", "token", "start", "end", "lemma", "expected_sense_id", "expected_gloss"]


@pytest.fixture(scope="module")
def inventory() -> SenseInventory:
    inv = SenseInventory(ROOT / "var" / "cache")
    inv.load()
    return inv


@pytest.fixture(scope="module", params=sorted(SETS))
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def items(name: str) -> list[dict[str, Any]]:
    path = GOLD / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_size_and_fields(name: str, items: list[dict[str, Any]]) -> None:
    fewest, most, _ = SETS[name]
    assert fewest <= len(items) <= most
    for item in items:
        assert list(item) == FIELDS, item.get("id")
    ids = [item["id"] for item in items]
    assert len(set(ids)) == len(ids)


def test_offsets_give_the_token_on_word_boundaries(items: list[dict[str, Any]]) -> None:
    for item in items:
        text, start, end = item["text"], item["start"], item["end"]
        assert text[start:end] == item["token"], item["id"]
        words = {(t, s, e) for t, s, e, kind in scan_ref(text) if kind == "word"}
        assert (item["token"], start, end) in words, item["id"]  # the whole word, clitics included
        assert 8 <= len(text.split()) <= 25, item["id"]


def test_senses_exist_belong_to_the_lemma_and_carry_their_gloss(
    items: list[dict[str, Any]], inventory: SenseInventory
) -> None:
    for item in items:
        sense = inventory.get(item["expected_sense_id"])
        assert sense is not None, item["id"]
        assert sense.gloss == item["expected_gloss"], item["id"]
        assert sense in inventory.senses_for(item["lemma"]), item["id"]


def test_every_lemma_is_tested_in_two_senses_at_least(name: str, items: list[dict[str, Any]]) -> None:
    senses: dict[str, set[str]] = defaultdict(set)
    for item in items:
        senses[item["lemma"]].add(item["expected_sense_id"])
    assert len(senses) >= SETS[name][2]
    assert {lemma: ids for lemma, ids in senses.items() if len(ids) < 2} == {}


def test_the_jsonl_is_built_from_its_source(name: str, items: list[dict[str, Any]], inventory: SenseInventory) -> None:
    module = load_script("wsd_gold")
    assert name in module.SETS
    # `python scripts/wsd_gold.py build <set>` was run after the last source edit
    assert module.rows(inventory, GOLD / "src" / f"{name}.txt") == items
    assert module.problems(items, inventory) == []


def test_the_checker_catches_a_bad_item(items: list[dict[str, Any]], inventory: SenseInventory) -> None:
    module = load_script("wsd_gold")
    first = items[0]
    shifted = {**first, "start": first["start"] + 1}
    wrong_gloss = {**first, "expected_gloss": first["expected_gloss"] + "."}
    errs = module.problems([shifted, wrong_gloss], inventory)
    assert any("is not one word token" in e for e in errs)
    assert any("expected_gloss differs" in e for e in errs)
    assert any("duplicate id" in e for e in errs)
    assert any("only one sense" in e for e in errs)


def test_the_blind_sets_share_no_sentence() -> None:
    # a sentence in both would be scored twice and tie the second set's count to the first's
    texts = {
        name: {json.loads(line)["text"] for line in (GOLD / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()}
        for name in SETS
    }
    assert set.intersection(*texts.values()) == set()
