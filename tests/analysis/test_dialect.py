"""Dialect lookup and glossary on a small corpus written here, so every expectation is known exactly."""

from __future__ import annotations

from typing import Any

import pytest
from tahqiq.analysis.corpus.dialect import ConflictingParameters, DialectIndex, NoMatch
from tahqiq.analysis.corpus.schema import parse_sentence
from tahqiq.core import strip_clitics


def tok(token: str, lemma: str, gloss: str, *, stem: str | None = None, pos: str = "noun", **kw: Any) -> dict[str, Any]:
    return {
        "token": token,
        "coda": kw.get("coda", token),
        "prefixes": kw.get("prefixes", []),
        "stem": stem or token,
        "suffixes": kw.get("suffixes", []),
        "pos": pos,
        "person": "",
        "gender": "",
        "number": "",
        "msa_lemma": kw.get("msa", ""),
        "dialect_lemma": lemma,
        "gloss": gloss,
    }


PROG = {"form": "ب", "ar": "أداة مضارعة", "tag": "b/PROG_PART"}
SENTENCES = [
    {
        "sentence_id": 1,
        "text": "بدي أروح عالبيت هلأ",
        "dialect": "Palestinian",
        "source": "test",
        "translation": "I want to go home now",
        "tokens": [
            tok("بدي", "بد", "want", pos="verb_pseudo", msa="أراد"),
            tok("أروح", "راح", "go", pos="verb", msa="ذهب"),
            tok("عالبيت", "بيت", "to the house", stem="بيت", prefixes=[{"form": "ع", "ar": "حرف جر", "tag": "E/PREP"}]),
            tok("هلأ", "هلأ", "now", pos="adv", msa="الآن"),
        ],
    },
    {
        "sentence_id": 2,
        "text": "إمي بتحكي مع جارتنا كل يوم",
        "dialect": "Palestinian",
        "source": "test",
        "translation": "My mother talks with our neighbour every day",
        "tokens": [
            tok("إمي", "إم", "my mother", stem="إم"),
            tok("بتحكي", "حكى", "she talks", stem="تحكي", pos="verb", prefixes=[PROG], msa="حكى"),
            tok("مع", "مع", "with", pos="prep"),
            tok("جارتنا", "جارة", "our neighbour", stem="جارة"),
            tok("كل", "كل", "every"),
            tok("يوم", "يوم", "day"),
        ],
    },
    {
        "sentence_id": 3,
        "text": "ازيك يا صاحبي عامل ايه النهارده",
        "dialect": "Egyptian",
        "source": "test",
        "translation": "How are you my friend, how are you doing today",
        "tokens": [
            tok("ازيك", "ازي", "how are you", pos="part_interrog"),
            tok("يا", "يا", "O", pos="part_voc"),
            tok("صاحبي", "صاحب", "my friend", stem="صاحب"),
            tok("عامل", "عامل", "doing", pos="adj"),
            tok("ايه", "ايه", "what", pos="pron_interrog"),
            tok("النهارده", "النهارده", "today", pos="adv"),
        ],
    },
]


@pytest.fixture(scope="module")
def index() -> DialectIndex:
    sentences = [parse_sentence(s, f"test:{i}") for i, s in enumerate(SENTENCES, 1)]
    imported = [parse_sentence({**SENTENCES[0], "source": "imported"}, "imp:1")]
    return DialectIndex({"tahqiq": sentences, "mine": imported})


def test_lookup_by_id_and_by_exact_normalised_text(index: DialectIndex) -> None:
    found = index.lookup(sentence_id=2, text=None)
    assert (found.match_type, found.match_score, found.sentence.sentence_id) == ("id", 1.0, 2)
    # Diacritics, hamza forms and tatweel do not matter.
    found = index.lookup(sentence_id=None, text="  امي بتحـكي مَع جارتنا كل يوم ")
    assert (found.match_type, found.sentence.sentence_id, found.corpus) == ("exact", 2, "tahqiq")


def test_both_parameters_must_name_one_row(index: DialectIndex) -> None:
    assert index.lookup(sentence_id=1, text="بدي اروح عالبيت هلا").match_type == "id"
    with pytest.raises(ConflictingParameters):
        index.lookup(sentence_id=1, text="إمي بتحكي مع جارتنا كل يوم")


def test_substring_then_fuzzy_fallbacks(index: DialectIndex) -> None:
    found = index.lookup(sentence_id=None, text="بتحكي مع جارتنا كل يوم", threshold=0.5)
    assert found.match_type == "substring" and found.sentence.sentence_id == 2
    assert found.match_score == pytest.approx(len("بتحكي مع جارتنا كل يوم") / len("امي بتحكي مع جارتنا كل يوم"))
    found = index.lookup(sentence_id=None, text="ازيك يا صاحبي عامل ايه النهارده يا عم")
    assert found.match_type == "fuzzy" and found.sentence.sentence_id == 3 and 0.65 <= found.match_score < 1


def test_post_style_lookup_has_no_fallbacks(index: DialectIndex) -> None:
    with pytest.raises(NoMatch) as caught:
        index.lookup(sentence_id=None, text="بتحكي مع جارتنا كل يوم", fallbacks=False)
    assert caught.value.suggestion is not None and caught.value.suggestion.sentence.sentence_id == 2


def test_no_match_carries_the_closest_suggestion(index: DialectIndex) -> None:
    with pytest.raises(NoMatch) as caught:
        index.lookup(sentence_id=None, text="الطقس حلو كتير اليوم", threshold=0.9)
    assert caught.value.suggestion is not None and 0 < caught.value.suggestion.score < 0.9
    with pytest.raises(NoMatch) as caught:
        index.lookup(sentence_id=99, text=None)
    assert caught.value.suggestion is None


def test_source_selects_the_corpus(index: DialectIndex) -> None:
    assert index.lookup(sentence_id=1, text=None, source="mine").corpus == "mine"
    assert index.lookup(sentence_id=1, text=None).corpus == "tahqiq"  # the shipped corpus answers first
    with pytest.raises(NoMatch):
        index.lookup(sentence_id=2, text=None, source="mine")
    with pytest.raises(KeyError):
        index.lookup(sentence_id=1, text=None, source="nope")


def first_match(index: DialectIndex, text: str, **kw: Any) -> dict[str, Any]:
    [row] = index.glossary(text, **kw)
    assert row["matches"], f"no match for {text}"
    return dict(row["matches"][0])


@pytest.mark.parametrize(
    ("word", "form", "match_type"),
    [
        ("بدي", "بدي", "exact"),
        ("بدى", "بدي", "normalized"),  # ى / ي
        ("هلا", "هلأ", "normalized"),  # typed هلا, corpus هلأ: hamza forms fold together
        ("وبدي", "بدي", "clitic"),
        ("بيتك", "عالبيت", "clitic"),  # the corpus stem بيت
        ("بحكي", "بتحكي", "fuzzy"),
    ],
)
def test_glossary_match_types(index: DialectIndex, word: str, form: str, match_type: str) -> None:
    match = first_match(index, word)
    assert (match["form"], match["match_type"]) == (form, match_type)
    assert match["refs"] and {"sentence_id", "token_index", "corpus"} <= set(match["refs"][0])
    expected_score = {"exact": 1.0, "normalized": 1.0, "clitic": 0.95}.get(match_type)
    if expected_score is not None:
        assert match["score"] == expected_score
    else:
        assert 0.65 <= match["score"] < 0.95


def test_glossary_covers_every_word_with_offsets_top_k_and_threshold(index: DialectIndex) -> None:
    text = "«بدي» أروح، عالبيت!"
    rows = index.glossary(text, include_offsets=True, top_k=1)
    assert [r["token"] for r in rows] == ["بدي", "أروح", "عالبيت"]
    for r in rows:
        assert text[r["start"] : r["end"]] == r["token"]
        assert len(r["matches"]) <= 1
    assert "start" not in index.glossary("بدي")[0]
    assert index.glossary("قطار", threshold=0.99)[0]["matches"] == []
    refs = index.glossary("بدي", top_k=5)[0]["matches"][0]["refs"]
    assert {r["corpus"] for r in refs} == {"tahqiq", "mine"}


def test_strip_clitics_keeps_two_letters_and_orders_by_length() -> None:
    assert strip_clitics("وبحكيلك")[:2] == ["بحكيلك", "وبحكيل"]
    assert "بحكي" in strip_clitics("وبحكيلك")
    assert all(len(s) >= 2 for s in strip_clitics("وبه"))
