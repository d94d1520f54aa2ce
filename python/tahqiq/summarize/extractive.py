"""Stand-in for the in-process extractive summarizer (Lead-k over a naive sentence split).

The real one (sentence graph ranking with redundancy removal) replaces this file; only the interface below is
relied on by the rest of the summarize package.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LENGTH_SENTENCES: dict[str, int] = {"short": 3, "medium": 5, "long": 8}

_SENTENCE_END = re.compile(r"(?<=[.!?؟。])\s+|\n+")


@dataclass(frozen=True, slots=True)
class ExtractiveSummary:
    sentences: tuple[str, ...]  # chosen sentences, document order
    language: str  # "ar" | "en": the language of the text (and of the summary)


def detect_language(text: str) -> str:
    """ "ar" when Arabic letters outnumber the others, else "en"."""
    arabic = sum(1 for c in text if "\u0600" <= c <= "\u06ff" and c.isalpha())
    other = sum(1 for c in text if c.isalpha()) - arabic
    return "ar" if arabic > other else "en"


def summarize(text: str, length: str = "short") -> ExtractiveSummary:
    """The first k sentences (k from LENGTH_SENTENCES); never raises."""
    count = LENGTH_SENTENCES.get(length, LENGTH_SENTENCES["short"])
    sentences = [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]
    return ExtractiveSummary(tuple(sentences[:count]) or (text.strip(),), detect_language(text))
