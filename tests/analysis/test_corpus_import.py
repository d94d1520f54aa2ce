"""`tahqiq corpus import` on small files written here, in each supported format; the CLI as users run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tahqiq.analysis.corpus.dialect import DialectIndex
from tahqiq.analysis.corpus.importer import imported_corpora, read_corpus_file, shipped_corpus, write_corpus
from tahqiq.analysis.corpus.schema import CorpusError, sentence_dict

HEADER = "sentence_id\tsentence\ttoken\tCODA\tPrefix\tstem\tSuffix\tPOS\tPers\tGen\tNum\tGloss\tMSALemma\tDALemma"
ROWS = [
    "7\tبحكيلك شو صار\tبحكيلك\tبحكيلك\tب/أداة مضارعة|b/PROG_PART\tحكي\tلك/حرف جر وضمير|lk/PREP_PRON_2MS"
    "\tverb\t1\t\ts\tI tell you\tحكى\tحكى",
    "7\tبحكيلك شو صار\tشو\tشو\t-\tشو\t-\tpron_interrog\t\t\t\twhat\tماذا\tشو",
    "7\tبحكيلك شو صار\tصار\tصار\t-\tصار\t-\tverb\t3\tm\ts\thappened\tصار\tصار",
    "8\tهلأ جاي\tهلأ\tهلأ\t-\tهلأ\t-\tadv\t\t\t\tnow\tالآن\tهلأ",
    "8\tهلأ جاي\tجاي\tجاي\t-\tجاي\t-\tadj\t1\tm\ts\tcoming\tجاء\tجاي",
]


def write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_curras_table_is_read_into_the_schema(tmp_path: Path) -> None:
    sentences = read_corpus_file(write(tmp_path, "c.tsv", [HEADER, *ROWS]), "curras")
    assert [s.sentence_id for s in sentences] == [7, 8]
    first = sentences[0]
    assert first.dialect == "Palestinian" and first.text == "بحكيلك شو صار"
    token = first.tokens[0]
    assert (token.stem, token.pos, token.person, token.number, token.gloss) == ("حكي", "verb", "1", "s", "I tell you")
    assert [(a.form, a.ar, a.tag) for a in token.prefixes] == [("ب", "أداة مضارعة", "b/PROG_PART")]
    assert [(a.form, a.tag) for a in token.suffixes] == [("لك", "lk/PREP_PRON_2MS")]


def test_nabra_csv_defaults_to_syrian_and_lisan_needs_a_dialect(tmp_path: Path) -> None:
    csv_lines = [HEADER.replace("\t", ","), *(r.replace("\t", ",") for r in ROWS[3:])]
    [sentence] = read_corpus_file(write(tmp_path, "n.csv", csv_lines), "nabra")
    assert sentence.dialect == "Syrian"
    with pytest.raises(CorpusError, match="needs a Dialect column"):
        read_corpus_file(write(tmp_path, "l.tsv", [HEADER, *ROWS]), "lisan")
    lisan = [HEADER + "\tDialect", *(r + "\tIraqi" for r in ROWS)]
    assert {s.dialect for s in read_corpus_file(write(tmp_path, "l2.tsv", lisan), "lisan")} == {"Iraqi"}


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([HEADER.replace("\tPOS", "\tTAG"), *ROWS], r"c\.tsv:1: the header has no pos column"),
        ([HEADER, ROWS[0].replace("\tverb\t", "\tverbish\t"), *ROWS[1:]], r"c\.tsv:2\.pos"),
        ([HEADER, *ROWS[:3], ROWS[3].replace("8\t", "x\t", 1)], r"c\.tsv:5\.sentence_id"),
        ([HEADER, ROWS[0].replace("ب/أداة مضارعة|", "ب|"), *ROWS[1:]], r"c\.tsv:2\.Prefix"),
        (
            [HEADER, *ROWS[:3], ROWS[3].replace("هلأ جاي\tهلأ", "هلأ جاي\tبكرة")],
            r"c\.tsv:5 \(sentence 8\)\.tokens\[0\]\.token: 'بكرة' does not",
        ),
        ([HEADER, *ROWS[3:], *ROWS[:3], ROWS[3]], r"sentence_id 8 appears twice"),
    ],
)
def test_errors_name_the_line_and_the_field(tmp_path: Path, lines: list[str], message: str) -> None:
    with pytest.raises(CorpusError, match=message):
        read_corpus_file(write(tmp_path, "c.tsv", lines), "curras")


def test_jsonl_round_trip_and_atomic_write(tmp_path: Path) -> None:
    sentences = read_corpus_file(write(tmp_path, "c.tsv", [HEADER, *ROWS]), "curras")
    jsonl = write(tmp_path, "c.jsonl", [json.dumps(sentence_dict(s), ensure_ascii=False) for s in sentences])
    assert read_corpus_file(jsonl, "jsonl") == sentences
    data = tmp_path / "data"
    write_corpus(data, "mine", sentences)
    assert imported_corpora(data) == {"mine": sentences}
    with pytest.raises(CorpusError, match="corpus name"):
        write_corpus(data, "tahqiq", sentences)
    assert [p.name for p in (data / "corpora").iterdir()] == ["mine.jsonl"]  # no temporary file left behind


def tahqiq(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"TAHQIQ_DATA_DIR": str(tmp_path / "data"), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-m", "tahqiq", "corpus", *args], env=env, capture_output=True, text=True, timeout=60
    )


def test_cli_imports_all_or_nothing_and_the_index_serves_it(tmp_path: Path) -> None:
    good = write(tmp_path, "good.tsv", [HEADER, *ROWS])
    out = tahqiq(tmp_path, "import", str(good), "--format", "curras", "--name", "curras-sample", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert (summary["sentences"], summary["tokens"], summary["dialects"]) == (2, 5, ["Palestinian"])
    stored = (tmp_path / "data" / "corpora" / "curras-sample.jsonl").read_bytes()

    bad = write(tmp_path, "bad.tsv", [HEADER, *ROWS[:4], ROWS[4].replace("\tadj\t", "\t???\t")])
    out = tahqiq(tmp_path, "import", str(bad), "--format", "curras", "--name", "curras-sample")
    assert out.returncode == 1 and "bad.tsv:6" in out.stderr and ".pos" in out.stderr
    assert (tmp_path / "data" / "corpora" / "curras-sample.jsonl").read_bytes() == stored  # untouched

    listed = json.loads(tahqiq(tmp_path, "list", "--json").stdout)
    assert {"name": "curras-sample", "sentences": 2} in listed
    exported = tahqiq(tmp_path, "export", "curras-sample").stdout.splitlines()
    assert [json.loads(line)["sentence_id"] for line in exported] == [7, 8]

    corpora = {"tahqiq": shipped_corpus(), **imported_corpora(tmp_path / "data")}
    found = DialectIndex(corpora).lookup(sentence_id=None, text="هلا جاي", source="curras-sample")
    assert (found.corpus, found.sentence.sentence_id, found.match_type) == ("curras-sample", 8, "exact")
