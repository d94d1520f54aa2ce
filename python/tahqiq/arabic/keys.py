"""The comparison forms of Arabic words and texts: each a fixed set of options of :func:`tahqiq.core.normalize`.

All of them drop the diacritics (harakat, tanwin, shadda, sukun, superscript alef, Quranic marks) and tatweel, and
all are idempotent (``f(f(t)) == f(t)``). They differ in what else they fold:

- ``bare``: nothing else (alef and ya forms, ta marbuta, digits and punctuation as written);
- ``loose``: alef and ya forms;
- ``loose_unpunctuated``: alef and ya forms, punctuation dropped;
- ``loose_unpunctuated_ta_folded``: alef and ya forms, ta marbuta, punctuation dropped;
- ``key``: alef and ya forms, ta marbuta, digits.

"alef, ya": أ إ آ ٱ ٲ ٳ → ا and ى ی → ي. "digits": Arabic-Indic and Persian digits → ASCII, ٫ → ``.``, ٬ → ``,``.
"punctuation": every character of Unicode category P*.
"""

from __future__ import annotations

from tahqiq.core import normalize

__all__ = ["bare", "key", "loose", "loose_unpunctuated", "loose_unpunctuated_ta_folded"]


def bare(text: str) -> str:
    """Diacritics and tatweel removed, letters kept as written (morphology's exact key)."""
    return normalize(text, alef=False, ya=False)


def loose(text: str) -> str:
    """Diacritics and tatweel removed, alef and ya forms folded; ta marbuta, digits and punctuation kept (the
    default normalisation: morphology's loose key)."""
    return normalize(text)


def loose_unpunctuated(word: str) -> str:
    """``loose`` with punctuation dropped; ta marbuta kept, since it tells words apart (والدة, mother of, is not
    والده, his father; ابنة not ابنه). The relation patterns' form of a word."""
    return normalize(word, punctuation=True)


def loose_unpunctuated_ta_folded(word: str) -> str:
    """``loose`` with punctuation dropped and ta marbuta folded to ه; digits kept (WSD's form of a word)."""
    return normalize(word, ta_marbuta=True, punctuation=True)


def key(text: str) -> str:
    """``loose`` with ta marbuta folded to ه and digits to ASCII; punctuation kept. The one comparison form of
    NER (tokens and names), the dialect corpus and glossary, and the extractive summaries' terms."""
    return normalize(text, ta_marbuta=True, digits=True)
