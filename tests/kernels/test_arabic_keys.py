"""tahqiq.arabic: the comparison forms (keys) and the clitic strippers, by the properties their docstrings state
and by examples."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tahqiq.arabic.clitics import (
    LIGHT10_PREFIXES,
    LIGHT10_SUFFIXES,
    LIGHT_STEM_PREFIXES,
    LIGHT_STEM_SUFFIXES,
    NAME_PROCLITICS,
    PROCLITICS,
    light10_stem,
    light_stem,
    proclitic_stems,
    strip_article,
    strip_proclitic,
    strip_proclitic_and_article,
)
from tahqiq.arabic.keys import bare, key, loose, loose_unpunctuated, loose_unpunctuated_ta_folded

TATWEEL = "\u0640"
DIACRITICS = "".join(map(chr, range(0x064B, 0x0653))) + "\u0670" + "".join(map(chr, range(0x0656, 0x0660)))
HAMZA_MARKS = "\u0653\u0654\u0655"  # letter-forming marks: kept, except after ا when alef forms are folded
ALEF_FORMS = "أإآٱٲٳ"
YA_FORMS = "ىی"
ARABIC_INDIC = "٠١٢٣٤٥٦٧٨٩"
PERSIAN = "۰۱۲۳۴۵۶۷۸۹"
PUNCTUATION = "،؛؟.,!«»()-٫٬"
LETTERS = "".join(map(chr, range(0x0621, 0x063B))) + "".join(map(chr, range(0x0641, 0x064B)))
ALPHABET = LETTERS + DIACRITICS + HAMZA_MARKS + TATWEEL + ALEF_FORMS + YA_FORMS + ARABIC_INDIC + PERSIAN
ALPHABET += PUNCTUATION + " abcXYZ0123456789"
KEYS: tuple[Callable[[str], str], ...] = (bare, loose, loose_unpunctuated, loose_unpunctuated_ta_folded, key)

texts = st.text(alphabet=ALPHABET, max_size=30)
# words built from the tables' own pieces, so that every branch of the strippers is reached
stems = st.text(alphabet="كتبسلمعردوفيهةانلج", min_size=0, max_size=6)
pieces = st.sampled_from(sorted({*PROCLITICS, *NAME_PROCLITICS, *LIGHT_STEM_PREFIXES, *LIGHT10_PREFIXES, "", "و"}))
endings = st.sampled_from(sorted({*LIGHT_STEM_SUFFIXES, *LIGHT10_SUFFIXES, ""}))
words = st.builds(lambda p, s, e: p + s + e, pieces, stems, endings) | st.text(alphabet=LETTERS, max_size=8)


def _no_punctuation(text: str) -> str:
    return "".join(c for c in text if not unicodedata.category(c).startswith("P"))


_DIGITS = str.maketrans(
    {**{d: str(i) for i, d in enumerate(ARABIC_INDIC)}, **{d: str(i) for i, d in enumerate(PERSIAN)}}
)
_DIGITS.update({ord("٫"): ".", ord("٬"): ","})


def _suffix_run(tail: str) -> bool:
    """Whether ``tail`` is a run of light10 suffixes."""
    return not tail or any(tail.startswith(s) and _suffix_run(tail[len(s) :]) for s in LIGHT10_SUFFIXES)


# ---------------------------------------------------------------------------------------------------------- keys
@settings(max_examples=200, deadline=None)
@given(texts)
def test_every_key_is_idempotent_and_drops_diacritics_and_tatweel(text: str) -> None:
    for f in KEYS:
        once = f(text)
        assert f(once) == once, f.__name__
        assert not set(once) & set(DIACRITICS + TATWEEL), f.__name__


@settings(max_examples=200, deadline=None)
@given(texts)
def test_bare_only_drops_diacritics_and_tatweel(text: str) -> None:
    assert bare(text) == "".join(c for c in text if c not in DIACRITICS and c != TATWEEL)


@settings(max_examples=200, deadline=None)
@given(texts)
def test_loose_folds_alef_and_ya_and_keeps_the_rest(text: str) -> None:
    out = loose(text)
    assert not set(out) & set(ALEF_FORMS + YA_FORMS)
    assert loose(bare(text)) == out
    for kept in ("ة", *ARABIC_INDIC, *PERSIAN, *PUNCTUATION):
        assert out.count(kept) == text.count(kept)


@settings(max_examples=200, deadline=None)
@given(texts)
def test_the_unpunctuated_keys_are_loose_without_punctuation(text: str) -> None:
    assert loose_unpunctuated(text) == loose(_no_punctuation(text))
    assert "ة" not in loose_unpunctuated_ta_folded(text)
    assert loose_unpunctuated_ta_folded(text) == loose_unpunctuated(text).replace("ة", "ه")


@settings(max_examples=200, deadline=None)
@given(texts)
def test_key_is_loose_with_ta_marbuta_and_digits_folded(text: str) -> None:
    assert key(text) == loose(text).replace("ة", "ه").translate(_DIGITS)
    assert not set(key(text)) & set("ة" + ARABIC_INDIC + PERSIAN + "٫٬")


def test_key_examples() -> None:
    assert bare("أَعْلَنَـتْ") == "أعلنت"
    assert loose("أَعْلَنَـتْ") == "اعلنت"
    assert loose("إلى مدرسة؟") == "الي مدرسة؟"
    assert loose_unpunctuated("والدة، إلى") == "والدة الي"  # ta marbuta kept: والدة is not والده
    assert loose_unpunctuated_ta_folded("والدة، إلى") == "والده الي"
    assert key("المدرسة ٢٠٢٤، ى") == "المدرسه 2024، ي"
    assert key("آلاء") == key("ألاء") == "الاء"


# ------------------------------------------------------------------------------------------------------ clitics
@settings(max_examples=200, deadline=None)
@given(words)
def test_strip_proclitic_takes_the_longest_proclitic_that_leaves_three_letters(word: str) -> None:
    out = strip_proclitic(word)
    assert word.endswith(out)
    fits = [c for c in PROCLITICS if word.startswith(c) and len(word) - len(c) >= 3]
    if fits:
        assert word == max(fits, key=len) + out
    else:
        assert out == word


def test_strip_proclitic_examples() -> None:
    assert strip_proclitic("والرئيس") == "رئيس"
    assert strip_proclitic("بالرباط") == "رباط"
    assert strip_proclitic("للطلاب") == "طلاب"
    assert strip_proclitic("ولد") == "ولد"  # two letters would be left
    assert strip_proclitic("كتاب") == "كتاب"  # ك alone is no proclitic here


@settings(max_examples=200, deadline=None)
@given(words)
def test_strip_article_removes_al_only_when_three_letters_remain(word: str) -> None:
    out = strip_article(word)
    if word.startswith("ال") and len(word) > 4:
        assert "ال" + out == word
    else:
        assert out == word


def test_strip_article_examples() -> None:
    assert strip_article("الأردن") == "أردن"
    assert strip_article("الهم") == "الهم"
    assert strip_article("والكتاب") == "والكتاب"


@settings(max_examples=200, deadline=None)
@given(words)
def test_proclitic_stems_are_the_key_less_a_listed_proclitic(word: str) -> None:
    readings = proclitic_stems(word)
    assert [n for _, n in readings] == sorted(n for _, n in readings)  # least stripping first
    assert (readings[:1] == ((word, 0),)) == (len(word) >= 2)
    for stem, n in readings:
        assert word[:n] in NAME_PROCLITICS
        rest = word[n:]
        assert stem == rest or (stem == "ا" + rest and word[:n].endswith("ل") and rest.startswith("ل"))
        if n:
            assert len(rest) >= 3


def test_proclitic_stems_examples() -> None:
    assert proclitic_stems("للرئيس") == (("للرئيس", 0), ("لرئيس", 1), ("الرئيس", 1))
    assert proclitic_stems("وبمصر") == (("وبمصر", 0), ("بمصر", 1), ("مصر", 2))
    assert proclitic_stems("ولد") == (("ولد", 0),)  # لد: two letters are no stem
    assert proclitic_stems("وبغداد") == (("وبغداد", 0), ("بغداد", 1), ("غداد", 2))
    assert proclitic_stems("م") == ()


@settings(max_examples=200, deadline=None)
@given(words)
def test_strip_proclitic_and_article_removes_one_proclitic_and_the_article(word: str) -> None:
    out = strip_proclitic_and_article(word)
    assert word.endswith(out)
    removed = word[: len(word) - len(out)]
    assert removed in {"", "ال", "لل"} | {c + a for c in "وفبلك" for a in ("", "ال", "لل")}
    if len(word) <= 4:
        assert out == word


def test_strip_proclitic_and_article_examples() -> None:
    assert strip_proclitic_and_article("والرئيس") == "رئيس"
    assert strip_proclitic_and_article("للرئيس") == "رئيس"
    assert strip_proclitic_and_article("وبالرئيس") == "وبالرئيس"  # two proclitics: it stays
    assert strip_proclitic_and_article("والبر") == "البر"  # the article would leave two letters
    assert strip_proclitic_and_article("البر") == "البر"


@settings(max_examples=200, deadline=None)
@given(words | texts)
def test_light_stem_is_the_folded_word_less_one_prefix_and_one_suffix(word: str) -> None:
    folded = loose_unpunctuated_ta_folded(word)
    out = light_stem(word)
    prefixes = {"", *LIGHT_STEM_PREFIXES}
    suffixes = {"", *(loose_unpunctuated_ta_folded(s) for s in LIGHT_STEM_SUFFIXES)}
    assert any(folded == p + out + s for p in prefixes for s in suffixes)
    assert out == folded or len(out) >= 3
    assert not set(out) & set(DIACRITICS + TATWEEL + "ة")


def test_light_stem_examples() -> None:
    assert light_stem("والأموال") == light_stem("أموال") == light_stem("الأموال") == "اموال"
    assert light_stem("بالعين") == "عين"
    assert light_stem("مدرستها") == "مدرست"  # one suffix only: ها
    assert light_stem("مدرسة") == "مدرس"  # ة folds to ه, then goes
    assert light_stem("سيارة") == "يار"  # س is read as the future prefix
    assert light_stem("بيت") == "بيت"


@settings(max_examples=200, deadline=None)
@given(words)
def test_light10_stem_removes_waw_one_article_and_suffixes(word: str) -> None:
    out = light10_stem(word)
    assert len(out) >= min(len(word), 2)
    heads = {"", "و"} | {w + p for w in ("", "و") for p in LIGHT10_PREFIXES}
    assert any(
        word.startswith(h) and word[len(h) :].startswith(out) and _suffix_run(word[len(h) + len(out) :]) for h in heads
    ), (word, out)


def test_light10_stem_examples() -> None:
    assert light10_stem("والكتاب") == "كتاب"
    assert light10_stem("للطلاب") == "طلاب"
    assert light10_stem("مكتباتها") == "مكتب"  # ها, then ات
    assert light10_stem("وزير") == light10_stem("الوزير") == "وزير"
    assert light10_stem("في") == "في"


@pytest.mark.parametrize(
    "table", [PROCLITICS, LIGHT_STEM_PREFIXES, LIGHT_STEM_SUFFIXES], ids=["proclitics", "prefixes", "suffixes"]
)
def test_the_tables_tried_first_match_are_longest_first(table: tuple[str, ...]) -> None:
    assert [len(c) for c in table] == sorted((len(c) for c in table), reverse=True)
