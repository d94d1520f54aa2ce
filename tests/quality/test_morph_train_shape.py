"""The morphology development (training) corpus tests/gold/morph_train.jsonl is well formed (its source's header,
scripts/morph_gold.py, docs/quality.md).

Shape only: size, fields, labels, tokens and the build. The analyser is never run here; the set is for development
and training, so measuring it is allowed elsewhere, but this file only checks that it is what its source says."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.support.reference_text import scan_ref
from tests.support.script_support import load_script

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "tests" / "gold" / "morph_train.jsonl"
SRC = ROOT / "tests" / "gold" / "src" / "morph_train.txt"
FIELDS = ["id", "sentence_id", "genre", "sentence", "index", "token", "lemma", "root", "pos"]
POS = {"noun", "adj", "verb", "adv", "pron", "prep", "conj", "part", "noun_prop", "num"}


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_size_fields_and_labels(rows: list[dict[str, Any]]) -> None:
    assert len(rows) >= 5000
    for row in rows:
        assert list(row) == FIELDS, row["id"]
        assert row["pos"] in POS, row
        assert row["lemma"].strip() == row["lemma"] != "", row
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    genres = Counter(row["genre"] for row in rows)
    assert set(genres) == {"news", "story", "instructions", "notice", "letter", "textbook", "opinion"}
    assert set(Counter(row["pos"] for row in rows)) == POS  # every label is used


def test_tokens_are_the_scanners_words_in_order(rows: list[dict[str, Any]]) -> None:
    # the report (tools/report.py morph_report) analyses each sentence and pairs the scanner's words with the rows
    by_sentence: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_sentence.setdefault(row["sentence_id"], []).append(row)
    assert list(by_sentence) == list(range(1, len(by_sentence) + 1))
    texts = [r[0]["sentence"] for r in by_sentence.values()]
    assert len(set(texts)) == len(texts)  # the report groups rows by sentence text
    for sentence_rows in by_sentence.values():
        text = sentence_rows[0]["sentence"]
        assert [r["index"] for r in sentence_rows] == list(range(len(sentence_rows)))
        assert {r["sentence"] for r in sentence_rows} == {text}
        words = [t for t, _, _, kind in scan_ref(text) if kind == "word"]
        assert [r["token"] for r in sentence_rows] == words, text


def test_the_jsonl_is_built_from_its_source(rows: list[dict[str, Any]]) -> None:
    module = load_script("morph_gold")
    rules = module.SETS["morph_train"]
    sentences, errors = module.parse(SRC.read_text(encoding="utf-8"), rules)
    assert errors == []
    assert module.problems(sentences, rules) == []
    assert module.rows(sentences) == rows
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "morph_gold.py"), "check", "morph_train"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_checker_catches_bad_annotations(tmp_path: Path) -> None:
    module = load_script("morph_gold")
    rules = module.SETS["morph_train"]
    bad = tmp_path / "bad.txt"
    bad.write_text(
        "# a bad source\n# genre: news\n"
        "S\tكتب الطالب، الدرس.\nكتب\tكتب\tك ت ب\tverb\nالطالب\tطالب\tط ل ب\tnoun_common\n\n"
        "S\tكتب الطالب الدرس.\nكتب\tكتب\tكتب\tverb\nالطالب\tطالب\tط ل ب\tnoun\nالدرس\tدرس\tد ر س\tnoun\n",
        encoding="utf-8",
    )
    sentences, errors = module.parse(bad.read_text(encoding="utf-8"), rules)
    assert errors == []
    problems = module.problems(sentences, rules)
    assert any("Arabic-letter runs" in p for p in problems)  # الدرس missing from the first sentence
    assert any("noun_common" in p for p in problems)
    assert any("root 'كتب'" in p for p in problems)
