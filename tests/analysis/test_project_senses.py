"""The senses the project writes (data/senses.txt) and their examples: the formats, and /wsd's use of them (a verb
gets a verb sense, عين الماء the spring)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tahqiq.analysis.morphology import Morphology
from tahqiq.analysis.project_senses import parse_marked, parse_senses, read_marked, read_senses
from tahqiq.analysis.wsd import PROJECT_SOURCE, Disambiguator, SenseInventory, project_examples

from tests.support.script_support import load_script
from tests.support.server import CACHE_DIR


def test_a_sense_line_reads_as_its_four_fields() -> None:
    [sense] = parse_senses("# comment\n\nضَرَبَ\tverb\t3\tحسب حاصل العددين — multiply\n")
    assert (sense.headword, sense.pos, sense.number, sense.gloss, sense.line) == (
        "ضَرَبَ",
        "verb",
        3,
        "حسب حاصل العددين — multiply",
        3,
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ضَرَبَ\tverb\t1", "line 1: expected 'headword<TAB>pos<TAB>number<TAB>gloss'"),
        ("ضَرَبَ\tadj\t1\tأصاب", "line 1: pos must be one of verb, noun, not 'adj'"),
        ("ضَرَبَ\tverb\t0\tأصاب", "line 1: the sense number must be 1, 2, 3 …, not '0'"),
        ("ضَرَبَ\tverb\t1\tأصاب\nضَرَبَ\tverb\t1\tسار", "line 2: ضَرَبَ sense 1 is written twice"),
    ],
)
def test_a_bad_sense_line_names_its_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_senses(text)


def test_an_example_line_marks_its_target() -> None:
    [m] = parse_marked("// comment\nضَرَبَ#3 | إذا [ضربنا] خمسة في أربعة كان الناتج عشرين\n")
    assert (m.headword, m.number) == ("ضَرَبَ", 3)
    assert m.text[m.start : m.end] == "ضربنا"


@pytest.mark.parametrize(
    "line", ["ضَرَبَ | [ضربنا] خمسة", "ضَرَبَ#3 | ضربنا خمسة", "ضَرَبَ#3 | [ضربنا] [خمسة]", "ضَرَبَ#x | [ضربنا]"]
)
def test_a_bad_example_line_names_its_line(line: str) -> None:
    with pytest.raises(ValueError, match="line 1: "):
        parse_marked(line)


def test_the_shipped_files_read_and_every_example_names_a_written_sense() -> None:
    senses = read_senses()
    assert {s.pos for s in senses} == {"verb", "noun"}
    written = {(s.headword, s.number) for s in senses}
    marked = read_marked()
    assert {(m.headword, m.number) for m in marked} <= written
    assert len(project_examples()) == len(marked)


@pytest.fixture(scope="module")
def wsd(tmp_path_factory: pytest.TempPathFactory) -> Disambiguator:
    inventory = SenseInventory(tmp_path_factory.mktemp("senses"))
    inventory.load()
    return Disambiguator(inventory, Morphology(CACHE_DIR))


def _chosen(wsd: Disambiguator, text: str, token: str) -> dict[str, object]:
    item = next(i for i in wsd.disambiguate(text, include_gloss=True) if i["token"] == token)
    sense = wsd.sense(str(item["sense_id"])) if item["sense_id"] else None
    return {**item, "entry": sense}


def test_a_verb_gets_a_verb_sense_of_the_project(wsd: Disambiguator) -> None:
    item = _chosen(wsd, "ضرب المعلم مثلا من الحياة اليومية", "ضرب")
    entry = item["entry"]
    assert isinstance(entry, dict)
    assert entry["source"] == PROJECT_SOURCE and entry["pos"] == "verb"


def test_the_spring_of_water_is_a_spring_not_an_eye(wsd: Disambiguator) -> None:
    spring = [s for s in wsd.inventory.senses_for("عين", "noun") if s.source == PROJECT_SOURCE]
    assert spring, "senses.txt adds the spring sense of عين"
    for text in ("شربت القافلة من عين الماء في الواحة", "نبعت عين الجبل ماء صافيا"):  # issue 20: both phrases
        item = _chosen(wsd, text, "عين")
        assert item["sense_id"] in {s.sense_id for s in spring}, text


def test_the_checker_passes_the_shipped_files_and_fails_a_broken_one(tmp_path: Path) -> None:
    script = load_script("senses_check")
    assert script.main(["check"]) == 0
    broken = tmp_path / "senses.txt"
    broken.write_text("ضَرَبَ\tverb\t2\tأصاب — hit\n", encoding="utf-8")
    assert script.main(["check", "--senses", str(broken)]) == 1
