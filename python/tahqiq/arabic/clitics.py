"""Arabic clitic and affix tables, once per distinct table, and the functions that strip them.

The tables differ on purpose (each was chosen and measured for its own task), so each keeps its own name:

- ``PROCLITICS``: the relation layer's leading clitics and articles, the longer first (no ك alone, no س).
- ``NAME_PROCLITICS``: the proclitic sequences NER reads off a token before a gazetteer look-up, the empty one
  first (no article: NER's lists hold names with their article).
- ``LIGHT_STEM_PREFIXES`` / ``LIGHT_STEM_SUFFIXES``: WSD's light stemmer (written before folding; ``light_stem``
  folds each suffix as it goes), the longer first.
- ``LIGHT10_PREFIXES`` / ``LIGHT10_SUFFIXES``: light10 (Larkey, Ballesteros and Connell 2002) for the extractive
  summaries, written after ``keys.key``: ة is ه, ى is ي, أ إ آ are ا.

Every function takes a word already in the form its caller compares in (``keys``), except ``light_stem``, which
folds first. The ``strip_*`` functions return a suffix of their argument, the light stemmers a substring (of the
folded form, for ``light_stem``); ``proclitic_stems`` returns suffixes, and ا + a suffix for لل read as ل + ال.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from tahqiq.arabic.keys import loose_unpunctuated_ta_folded

__all__ = [
    "ARTICLE_PREFIXES",
    "LIGHT10_PREFIXES",
    "LIGHT10_SUFFIXES",
    "LIGHT_STEM_PREFIXES",
    "LIGHT_STEM_SUFFIXES",
    "NAME_PROCLITICS",
    "PROCLITICS",
    "light10_stem",
    "light_stem",
    "proclitic_stems",
    "strip_article",
    "strip_proclitic",
    "strip_proclitic_and_article",
]

# the article with the one proclitic it may carry before it (the longer first)
ARTICLE_PREFIXES: Final = ("وال", "فال", "بال", "كال", "لل", "ال")
# the leading clitics and articles a word may carry (the longer first)
PROCLITICS: Final = (*ARTICLE_PREFIXES, "و", "ف", "ب", "ل")
NAME_PROCLITICS: Final = ("", "و", "ف", "ب", "ل", "ك", "وب", "ول", "فب", "فل", "وك", "فك")
LIGHT_STEM_PREFIXES: Final = tuple(
    sorted(
        ("وال", "فال", "بال", "كال", "لل", "ال", "و", "ف", "ب", "ل", "ك", "س"),
        key=len,
        reverse=True,
    )
)
LIGHT_STEM_SUFFIXES: Final = tuple(
    sorted(
        ("ات", "ون", "ين", "ان", "ها", "هم", "هما", "هن", "كم", "نا", "ية", "ه", "ة", "ي", "ك", "ا"),
        key=len,
        reverse=True,
    )
)
LIGHT10_PREFIXES: Final = ("وال", "بال", "كال", "فال", "لل", "ال")
LIGHT10_SUFFIXES: Final = ("ها", "ان", "ات", "ون", "ين", "يه", "ه", "ي")


def strip_proclitic(word: str) -> str:
    """``word`` without the first of ``PROCLITICS`` it starts with, when at least three letters remain
    (والرئيس → رئيس, بالرباط → رباط; ولد and بين stay). One strip at most; the relation classifier's features."""
    for c in PROCLITICS:
        if word.startswith(c) and len(word) - len(c) >= 3:
            return word[len(c) :]
    return word


def strip_article(k: str) -> str:
    """A key without a leading ال when more than two letters remain (the key is longer than four): الأردن →
    اردن; الهم stays. NER's nisba bases and head look-ups."""
    return k[2:] if k.startswith("ال") and len(k) > 4 else k


def proclitic_stems(k: str) -> tuple[tuple[str, int], ...]:
    """The readings of a token key with ``NAME_PROCLITICS`` stripped, as (stem, proclitic length), least stripping
    first: the key itself when it has two letters or more, then each proclitic that leaves three letters or more;
    after a proclitic ending in ل a stem starting with ل and longer than three is also read as ال + the rest (لل =
    ل + ال): للرئيس reads as ``("للرئيس", 0)``, ``("لرئيس", 1)`` and ``("الرئيس", 1)``."""
    out: list[tuple[str, int]] = []
    for p in NAME_PROCLITICS:
        if k.startswith(p) and (len(k) - len(p) >= 3 or (not p and len(k) >= 2)):
            out.append((k[len(p) :], len(p)))
            rest = k[len(p) :]
            if p.endswith("ل") and rest.startswith("ل") and len(rest) > 3:  # لل = ل + ال
                out.append(("ا" + rest, len(p)))
    return tuple(out)


def strip_proclitic_and_article(k: str) -> str:
    """A key without one proclitic (و ف ب ل ك) before an article, then without the article ال or لل, each only when
    the key is longer than four letters (والرئيس → رئيس; وبالرئيس, two proclitics, stays). The NER tagger's stem
    feature."""
    s = k
    if len(s) > 4 and s[0] in "وفبلك" and s[1:3] in ("ال", "لل"):
        s = s[1:]
    if s.startswith("لل") and len(s) > 4:
        s = s[2:]
    elif s.startswith("ال") and len(s) > 4:
        s = s[2:]
    return s


def light_stem(word: str) -> str:
    """WSD's light stem: ``keys.loose_unpunctuated_ta_folded(word)`` without the first (longest) of
    ``LIGHT_STEM_PREFIXES`` it starts with and then the first (longest) of ``LIGHT_STEM_SUFFIXES`` (folded the
    same way) it ends with, each only when at least three letters remain: the key that lets ``والأموال`` meet
    ``الأموال`` and ``أموال``."""
    w = loose_unpunctuated_ta_folded(word)
    for p in LIGHT_STEM_PREFIXES:
        if w.startswith(p) and len(w) - len(p) >= 3:
            w = w[len(p) :]
            break
    for s in LIGHT_STEM_SUFFIXES:
        s = loose_unpunctuated_ta_folded(s)
        if w.endswith(s) and len(w) - len(s) >= 3:
            w = w[: -len(s)]
            break
    return w


@lru_cache(maxsize=1 << 16)
def light10_stem(word: str) -> str:
    """Light stem of a word in ``keys.key`` form (light10): the conjunction و, one article form of
    ``LIGHT10_PREFIXES`` when two letters remain, then each of ``LIGHT10_SUFFIXES`` in turn when two remain.
    Unlike light10, و goes only before the article or when four letters remain (light10: three), so that وزير and
    الوزير meet at one stem. The extractive summaries' Arabic terms."""
    if word[:1] == "و" and (len(word) >= 5 or word[1:3] == "ال"):
        word = word[1:]
    for prefix in LIGHT10_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 2:
            word = word[len(prefix) :]
            break
    for suffix in LIGHT10_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            word = word[: -len(suffix)]
    return word
