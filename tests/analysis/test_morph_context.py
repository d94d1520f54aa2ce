"""Morphology in context (issue 20): the POS tagger that chooses each word's analysis, its native scorer, the
function words, and the sentences the issue lists."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tahqiq.analysis.function_words import function_words
from tahqiq.analysis.morphology import Morphology
from tahqiq.analysis.pos_tagger import POS_TAGS, PosTagger, Word, features, probabilities
from tahqiq.arabic.keys import loose

from tests.support.server import CACHE_DIR
from tools.report import load_gold

ROOT = Path(__file__).resolve().parents[2]
TRAIN = ROOT / "tests" / "gold" / "morph_train.jsonl"


@pytest.fixture(scope="module")
def morph() -> Morphology:
    m = Morphology(CACHE_DIR)
    m.load()
    return m


# the sentences: the first word is the verb, though the lexicon ranks a noun first out of context
@pytest.mark.parametrize(
    ("sentence", "lemma"),
    [
        ("كتب الطلاب الواجب", "كتب"),
        ("علم الطلاب بالخبر", "علم"),
        ("حكم القاضي", "حكم"),
        ("شرب الطفل الحليب", "شرب"),
        ("عمل المهندس طويلا", "عمل"),
    ],
)
def test_a_clause_initial_verb_is_read_as_the_verb(morph: Morphology, sentence: str, lemma: str) -> None:
    first = morph.analyze(sentence)[0]
    assert first["pos"] == "verb"
    assert loose(first["lemma"]) == lemma
    out_of_context = morph.analyses(sentence.split()[0])[0]
    assert out_of_context.pos == "noun"  # what the lexicon alone says: the test would fail without the tagger


@pytest.mark.parametrize(
    ("sentence", "index", "pos"),
    [
        ("قرأت الكتب في المكتبة", 1, "noun"),  # the same form after a verb is the noun "books"
        ("ذهب الولد إلى المدرسة", 0, "verb"),
        ("اشترت الأسرة الذهب", 2, "noun"),
        ("طالب نواب البرلمان بالتحقيق", 0, "verb"),
        ("وضع الطالب القلم على الطاولة", 0, "verb"),
        ("جاء الطالب المجتهد", 2, "adj"),
        (
            "شرب الطفل الحليب",
            2,
            "noun",
        ),  # the object, though a definite word after a definite noun is often its adjective
        ("كتب الطلاب الواجب", 2, "noun"),
        ("شرب الطفل الحليب الطازج", 3, "adj"),
    ],
)
def test_the_same_form_takes_its_reading_from_the_sentence(
    morph: Morphology, sentence: str, index: int, pos: str
) -> None:
    assert morph.analyze(sentence)[index]["pos"] == pos


def test_every_analysis_has_its_score_and_the_chosen_one_comes_first(morph: Morphology) -> None:
    for sentence in ("كتب الطلاب الواجب", "قرأت الكتب"):
        chosen = morph.analyze(sentence)
        every = morph.analyze(sentence, flag="*")
        for one, many in zip(chosen, every, strict=True):
            first = dict(many["analyses"][0])
            score = first.pop("score")
            assert first == {k: v for k, v in one.items() if k != "token"}
            assert score == max(a["score"] for a in many["analyses"])
    verb_first = morph.analyze("كتب الطلاب الواجب", flag="*")[0]["analyses"]
    assert verb_first[0]["pos"] == "verb" and any(a["pos"] == "noun" for a in verb_first[1:])


def test_function_words_follow_the_conventions(morph: Morphology) -> None:
    out = morph.analyze("هذه هي المدرسة التي درس فيها، وذهبت معه إليها")
    got = {t["token"]: (loose(t["lemma"]), t["pos"]) for t in out}
    assert got["هذه"] == (loose("هذه"), "pron")
    assert got["التي"] == (loose("التي"), "pron")
    assert got["فيها"] == (loose("في"), "prep")
    assert got["معه"] == (loose("مع"), "prep")
    assert got["إليها"] == (loose("إلى"), "prep")


def test_function_word_forms_take_clitics_only_where_the_data_allows() -> None:
    forms = function_words()
    assert ("على", "", "prep") in forms["عليه"]
    assert ("على", "", "prep") not in forms.get("علي", [])  # the stem علي alone is the name, not على
    assert ("هذا", "", "pron") in forms["بهذا"]
    assert ("ل", "", "prep") in forms["لهم"]


def test_a_bad_function_word_line_names_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "words.txt"
    bad.write_text("# header\nفي\tفي\t-\tprep\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"words.txt:2: expected form, lemma, root, pos"):
        function_words(bad)


def test_the_native_scorer_is_its_python_specification(morph: Morphology) -> None:
    assert morph.tagger is not None
    sentences = list(dict.fromkeys(row["sentence"] for row in load_gold(TRAIN)))
    for sentence in sentences[::7]:
        _tokens, _views, words = morph.tagger_input(sentence)
        assert morph.tagger.tag(words) == morph.tagger.tag_reference(words)


reading = st.sampled_from(POS_TAGS)
word = st.builds(
    Word.of,
    st.text(alphabet="الكتبيهوم", min_size=1, max_size=6),
    st.lists(reading, min_size=1, max_size=3, unique=True).map(tuple),
    st.text(alphabet="كتبع", min_size=1, max_size=4),
    st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(words=st.lists(word, min_size=1, max_size=8), seed=st.integers(0, 2**16))
def test_native_and_python_scores_agree_on_any_words(words: list[Word], seed: int) -> None:
    # weights on the features of these very words, so that the sums are not all zero
    weights: dict[str, tuple[float, ...]] = {}
    for i in range(len(words)):
        for k, name in enumerate(features(words, i, POS_TAGS[seed % 10], "^")):
            weights[name] = tuple(((seed * (k + 1) + t * 7) % 13 - 6) / 4 for t in range(len(POS_TAGS)))
    tagger = PosTagger(weights)
    assert tagger.tag(words) == tagger.tag_reference(words)


@given(st.lists(st.floats(-50, 50), min_size=len(POS_TAGS), max_size=len(POS_TAGS)))
def test_probabilities_are_a_distribution_that_keeps_the_order(scores: list[float]) -> None:
    p = probabilities(scores)
    assert abs(sum(p) - 1.0) < 1e-9
    assert p[max(range(len(scores)), key=scores.__getitem__)] == max(p)


def test_shipped_weights_are_a_rebuild() -> None:
    check = [sys.executable, "-m", "tools.train.morph", "--check"]
    assert subprocess.run(check, cwd=ROOT, check=False).returncode == 0
