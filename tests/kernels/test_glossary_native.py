"""The native glossary (`tahqiq.core.GlossaryIndex`) against the first Python version, kept in
tests/support/reference_glossary.py: the clitic rules, every answer on random corpora and texts, the shipped corpus,
and the HTTP answers on the gold sentences."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tahqiq.analysis.corpus.dialect import DialectIndex
from tahqiq.analysis.corpus.importer import shipped_corpus
from tahqiq.core import GlossaryIndex, Lexicon, strip_clitics

from tests.support.reference_glossary import ENCLITICS, PROCLITIC_SLOTS, ReferenceAnswers, ReferenceGlossary
from tests.support.reference_glossary import strip_clitics as reference_strip_clitics
from tests.support.server import ServerProcess, analysis_server

GOLD = sorted((Path(__file__).parents[1] / "gold").glob("glossary_*.jsonl"))
CLITICS = sorted({c for slot in PROCLITIC_SLOTS for c in slot} | set(ENCLITICS))
# Letters that make up the clitics, others, their unnormalised spellings (ة ى أ), marks and a digit.
LETTERS = "ابتدعفكلمنهوي" + "رحشسقة" + "ىأإآ" + "\u064e\u0651ـ" + "٣"

letters = st.text(alphabet=LETTERS, max_size=7)
# Words built from clitics around a stem, so that every rule gets exercised, or plain letters.
words = st.one_of(
    letters,
    st.builds(
        lambda pre, stem, post: "".join(pre) + stem + "".join(post),
        st.lists(st.sampled_from(CLITICS), max_size=3),
        letters,
        st.lists(st.sampled_from(CLITICS), max_size=2),
    ),
)
texts = st.lists(st.one_of(words, st.sampled_from(["،", "!", "  ", "123", "x7", "؟"])), max_size=6).map(" ".join)


@given(words)
@settings(max_examples=600, deadline=None)
def test_strip_clitics_agrees_with_the_python_rules(word: str) -> None:
    assert strip_clitics(word) == list(reference_strip_clitics(word))


@given(
    st.lists(st.tuples(words, words, words), min_size=1, max_size=40),
    texts,
    st.integers(1, 6),
    st.one_of(st.sampled_from([0.0, 0.5, 0.65, 0.95, 1.0]), st.floats(0.0, 1.0)),
)
@settings(max_examples=300, deadline=None)
def test_lookup_equals_the_reference(
    forms: list[tuple[str, str, str]], text: str, top_k: int, threshold: float
) -> None:
    columns = [list(c) for c in zip(*forms, strict=True)]
    native = GlossaryIndex(*columns)
    reference = ReferenceGlossary(*columns)
    assert native.keys == reference.keys
    assert native.lookup(text, top_k, threshold) == reference.lookup(text, top_k, threshold)
    # Each text word also against its own forms: the exact and clitic stages then always have something to do.
    for word in text.split():
        assert native.lookup(word, top_k, threshold) == reference.lookup(word, top_k, threshold)


def gold_items() -> list[dict[str, str]]:
    return [json.loads(line) for path in GOLD for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def gold_texts() -> list[str]:
    return sorted({item["context"] for item in gold_items()})


@pytest.fixture(scope="module")
def shipped() -> DialectIndex:
    return DialectIndex({"tahqiq": shipped_corpus()})


@pytest.mark.parametrize(("top_k", "threshold"), [(3, 0.65), (1, 0.65), (5, 0.3), (10, 0.9), (2, 1.0), (50, 0.0)])
def test_shipped_corpus_answers_equal_the_reference(shipped: DialectIndex, top_k: int, threshold: float) -> None:
    g = shipped.glossary_index("all")
    entries = g.entries
    reference = ReferenceGlossary(
        [e.form for e in entries], [e.token.coda for e in entries], [e.token.stem for e in entries]
    )
    samples = gold_texts() + [item["token"] for item in gold_items()]
    for text in samples:
        assert g.native.lookup(text, top_k, threshold) == reference.lookup(text, top_k, threshold), text


def test_json_assembly_equals_the_dict_assembly(shipped: DialectIndex) -> None:
    for text in gold_texts()[:40]:
        for kw in ({}, {"include_offsets": True, "top_k": 5, "threshold": 0.3}):
            as_dicts = shipped.glossary(text, **kw)  # type: ignore[arg-type]
            assert orjson.dumps(shipped.glossary_json(text, **kw)) == orjson.dumps(as_dicts)  # type: ignore[arg-type]


@given(
    st.lists(
        st.tuples(
            st.integers(0, 10_000),
            st.text(max_size=6),
            st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3), st.floats(allow_nan=False, allow_infinity=False))),
        ),
        max_size=4,
    ),
    st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_native_json_is_what_orjson_writes(
    rows: list[tuple[int, str, list[tuple[int, int, float]]]], offsets: bool
) -> None:
    annotations = [{"form": f, "coda": f, "pos": "noun", "gloss": 'say "hi"\n'} for f in ("بدي", "a\x01", "ب\\ت")]
    refs = [[{"sentence_id": i, "token_index": 0, "corpus": "c"}] for i in range(3)]
    g = GlossaryIndex(
        [a["form"] for a in annotations],
        [a["coda"] for a in annotations],
        [a["form"] for a in annotations],
        heads=[orjson.dumps(a)[:-1] + b',"score":' for a in annotations],
        refs=[orjson.dumps(r) for r in refs],
    )
    words = [(start, start + len(token), token, token.upper(), found) for start, token, found in rows]
    expected = []
    for start, end, token, normalized, found in words:
        row: dict[str, Any] = {"token": token, "normalized": normalized}
        if offsets:
            row["start"], row["end"] = start, end
        row["matches"] = [
            {**annotations[i], "score": score, "match_type": GlossaryIndex.MATCH_TYPES[code], "refs": refs[i]}
            for i, code, score in found
        ]
        expected.append(row)
    assert g.render_json(words, offsets) == orjson.dumps(expected)


def test_json_needs_the_pre_serialised_parts() -> None:
    bare = GlossaryIndex(["بدي"], ["بدي"], ["بدي"])
    with pytest.raises(ValueError, match="without heads and refs"):
        bare.lookup_json("بدي")
    with pytest.raises(ValueError, match="go together"):
        GlossaryIndex(["بدي"], ["بدي"], ["بدي"], heads=[b"{"])
    g = GlossaryIndex(["بدي"], ["بدي"], ["بدي"], heads=[b'{"score":'], refs=[b"[]"])
    assert orjson.loads(g.lookup_json("بدي")) == [
        {"token": "بدي", "normalized": "بدي", "matches": [{"score": 1.0, "match_type": "exact", "refs": []}]}
    ]
    with pytest.raises(ValueError, match="names no form"):
        g.render_json([(0, 1, "x", "x", [(1, 0, 1.0)])])


def test_lexicon_shares_the_glossary_keys(shipped: DialectIndex) -> None:
    g = shipped.glossary_index("all")
    assert isinstance(g.lexicon, Lexicon) and len(g.lexicon) == len(g.native) == len(g.keys)
    word = g.keys[7]
    assert g.lexicon.search(word, top_k=1, threshold=1.0) == Lexicon(g.keys).search(word, top_k=1, threshold=1.0)


def test_bad_arguments_say_what_to_fix() -> None:
    with pytest.raises(ValueError, match="same length"):
        GlossaryIndex(["a"], [], ["a"])
    with pytest.raises(TypeError, match=r"forms\[1\] must be str"):
        GlossaryIndex(["a", 1], ["a", "b"], ["a", "b"])  # type: ignore[list-item]
    g = GlossaryIndex(["بدي"], ["بدي"], ["بدي"])
    with pytest.raises(ValueError, match="top_k"):
        g.lookup("بدي", 0)
    with pytest.raises(ValueError, match="threshold"):
        g.lookup("بدي", 3, 1.5)
    with pytest.raises(TypeError, match="form must be str"):
        strip_clitics(3)  # type: ignore[arg-type]


def test_long_texts_release_the_gil_and_answer_the_same() -> None:
    g = GlossaryIndex(["بدي", "بيت"], ["بدي", "بيت"], ["بدي", "بيت"])
    text = " ".join(["وبدي بيتك"] * 200)  # above the size at which the call hands the GIL over
    assert g.lookup(text) == ReferenceGlossary(["بدي", "بيت"], ["بدي", "بيت"], ["بدي", "بيت"]).lookup(text)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with analysis_server(tmp_path_factory.mktemp("glossary"), TAHQIQ_AREAS="analysis") as proc:
        yield proc


def test_http_answers_on_the_gold_sentences_equal_the_reference(server: ServerProcess) -> None:
    expected = ReferenceAnswers({"tahqiq": shipped_corpus()})
    cases: list[dict[str, Any]] = [{}, {"top_k": 5, "similarity_threshold": 0.4, "include_offsets": True}]
    for text in gold_texts():
        for extra in cases:
            want = expected(
                text,
                top_k=extra.get("top_k", 3),
                threshold=extra.get("similarity_threshold", 0.65),
                include_offsets=extra.get("include_offsets", False),
            )
            got = httpx.post(f"{server.url}/dialect/corpus/glossary", json={"text": text, **extra}, timeout=10)
            assert got.status_code == 200, got.text
            assert got.json() == {"tokens": want}, text
            query = {k: str(v).lower() if isinstance(v, bool) else v for k, v in {"text": text, **extra}.items()}
            got = httpx.get(f"{server.url}/dialect/corpus/glossary", params=query, timeout=10)
            assert got.json() == {"tokens": want}, text
