"""Tests of `normalize` (rust/src/normalize.rs) against examples and its Python twin."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tahqiq.core import normalize

from tests.support.reference_text import normalize_ref

OPTION_NAMES = ("diacritics", "tatweel", "alef", "ya", "ta_marbuta", "digits", "punctuation")
ALL_ON = dict.fromkeys(OPTION_NAMES, True)
ALL_OFF = dict.fromkeys(OPTION_NAMES, False)

# Letters, every stripped mark range's ends, hamza/madda, alef/ya variants, digits, separators,
# punctuation, Latin, whitespace, joiners, emoji.
CURATED = (
    "ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأإؤئىةٱٲٳیـ"
    "\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652\u0653\u0654\u0655\u0656\u065f\u0670"
    "\u0610\u061a\u06d6\u06dc\u06dd\u06de\u06df\u06e4\u06e5\u06e7\u06e8\u06e9\u06ea\u06ed"
    "\u08d3\u08e1\u08e2\u08e3\u08ff"
    "٠١٢٣٤٥٦٧٨٩۰۱۴۹0123456789٫٬.,،؛؟٪۔%!?:;\"'()«»-_$+=<>"
    "abcXYZ \t\n\u00a0\u200c\u200d\ufe0f👍\U0001f3fd🇵🇸"
)
curated_text = st.text(alphabet=st.sampled_from(CURATED), max_size=60)
# Arbitrary text restricted to characters Python's unicodedata knows: the Rust crate has a newer
# Unicode, and characters unassigned in the older one may be punctuation in the newer.
assigned_text = st.text(alphabet=st.characters(exclude_categories=("Cn", "Cs")), max_size=60)
options = st.fixed_dictionaries({name: st.booleans() for name in OPTION_NAMES})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("قالَ الرئيسُ", "قال الرئيس"),
        ("مُحَمَّدٌ", "محمد"),
        ("شُكْرًا", "شكرا"),
        ("بِسْمِ ٱللَّهِ ٱلرَّحْمَـٰنِ ٱلرَّحِيمِ", "بسم الله الرحمن الرحيم"),
        ("ذَٰلِكَ ٱلْكِتَٰبُ لَا رَيْبَۛ فِيهِۛ", "ذلك الكتب لا ريب فيه"),
        ("ب\u0610\u061a\u06d6\u06dc\u06df\u06e4\u06e7\u06e8\u06ea\u06ed\u08d3\u08e1\u08e3\u08ff", "ب"),
        ("العـــربية", "العربية"),
        ("أحمد إلى آمن ٱلله ٲ ٳ", "احمد الي امن الله ا ا"),
        ("ا\u0654حمد ا\u0655لى ا\u0653من", "احمد الي امن"),
        ("ا\u064e\u0654", "ا"),
        ("على مصطفی", "علي مصطفي"),
        ("مدرسة ٣٫٥٪", "مدرسة ٣٫٥٪"),
    ],
)
def test_defaults(text: str, expected: str) -> None:
    assert normalize(text) == expected
    assert normalize_ref(text) == expected


def test_kept_characters() -> None:
    # U+06DD (Cf), U+06DE (So), U+06E5/6 (Lm), U+06E9 (So), U+08E2 (Cf), hamza above not after alef.
    text = "ب\u06dd\u06de\u06e5\u06e6\u06e9\u08e2 ي\u0654 و\u0654"
    assert normalize(text) == text


@pytest.mark.parametrize(
    ("text", "opts", "expected"),
    [
        ("قالَ", {"diacritics": False}, "قالَ"),
        ("العـربية", {"tatweel": False}, "العـربية"),
        ("أ ا\u0654", {"alef": False}, "أ ا\u0654"),
        ("على", {"ya": False}, "على"),
        ("مدرسة جميلة", {"ta_marbuta": True}, "مدرسه جميله"),
        ("٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹", {"digits": True}, "0123456789 0123456789"),
        ("٣٫٥٪ من ١٬٠٠٠", {"digits": True}, "3.5٪ من 1,000"),
        ("قال: «نعم»، لماذا؟ ٣٫٥٪ ۔ (1.5) $+", {"punctuation": True}, "قال نعم لماذا ٣٥  15 $+"),
        ("٣٫٥٪", ALL_ON, "35"),
        ("قالَ الرئيسُ: نسبة ٣٫٥٪ من 1,000 شخص 👍🏽", ALL_ON, "قال الرئيس نسبه 35 من 1000 شخص 👍🏽"),
    ],
)
def test_options(text: str, opts: dict[str, bool], expected: str) -> None:
    assert normalize(text, **opts) == expected
    assert normalize_ref(text, **opts) == expected


def test_unchanged_returns_same_object() -> None:
    text = "كتب الطالب الدرس 123 hello " * 3
    assert normalize(text) is text
    assert normalize("قالَ", **ALL_OFF) == "قالَ"
    changed = "قالَ"
    assert normalize(changed) is not changed


def test_leading_bom_and_astral_chars_survive() -> None:
    assert normalize("\ufeffأ") == "\ufeffا"
    assert normalize("😀أ👍🏽\U00010000") == "😀ا👍🏽\U00010000"
    long_text = "أَ" * 1000 + "👍"
    assert normalize(long_text) == "ا" * 1000 + "👍"


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        normalize("x", True)  # type: ignore[misc]


def test_lone_surrogate_raises() -> None:
    with pytest.raises(UnicodeEncodeError):
        normalize("ab\ud800")


def test_every_p_char_is_removed_with_punctuation() -> None:
    # All punctuation Python's unicodedata knows (in Arabic and Latin blocks) disappears.
    punct = "".join(chr(c) for c in range(0x800) if unicodedata.category(chr(c)).startswith("P"))
    assert normalize(punct + "x", punctuation=True) == "x"


@given(curated_text, options)
def test_matches_reference_on_curated(text: str, opts: dict[str, bool]) -> None:
    assert normalize(text, **opts) == normalize_ref(text, **opts)


@settings(max_examples=300)
@given(assigned_text, options)
def test_matches_reference_on_assigned(text: str, opts: dict[str, bool]) -> None:
    assert normalize(text, **opts) == normalize_ref(text, **opts)


@given(st.one_of(curated_text, st.text()), options)
def test_idempotent(text: str, opts: dict[str, bool]) -> None:
    once = normalize(text, **opts)
    assert normalize(once, **opts) == once


@given(curated_text)
def test_defaults_strip_all_harakat(text: str) -> None:
    out = normalize(text)
    assert not any("\u064b" <= c <= "\u0652" or c in "\u0640\u0670" for c in out)
    assert not any(c in "أإآٱىی" for c in out)
