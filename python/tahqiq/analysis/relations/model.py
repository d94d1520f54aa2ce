"""What relation extraction works with, shared by the trigger patterns (``extractor``) and the learned layer
(``classifier``): the predicates and their triggers as read from ``data/relations.json``, the entity
mentions of a sentence with their word positions, and how a trigger word matches a word of the text (clitics and
the future prefix aside).

Both modules import these from here rather than one from the other: the extractor loads the classifier, so the
classifier importing the extractor's names made an import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from tahqiq.arabic.clitics import PROCLITICS

__all__ = ["ANY_WORD", "Mention", "Predicate", "Trigger", "word_matches"]

# a trigger word matching any one word (يعمل * في: يعمل أستاذا في, تعمل استشارية في)
ANY_WORD: Final = "*"


@dataclass(frozen=True, slots=True)
class Trigger:
    words: tuple[str, ...]
    site: str  # between | before
    order: str  # so | os
    max_gap: int | None
    object_types: frozenset[str] | None = None  # narrower than the predicate's range (None: the whole range)
    precision: float | None = None  # the pattern's measured precision (the predicate's prior when None)
    subject_types: frozenset[str] | None = None  # narrower than the predicate's domain (None: the whole domain)
    subject_heads: frozenset[str] | None = None  # the subject's first word must be one of these (clitics aside)
    not_subject_heads: frozenset[str] = frozenset()  # … and must not be one of these
    object_heads: frozenset[str] | None = None  # the object's first word must be one of these (clitics aside)
    not_object_heads: frozenset[str] = frozenset()  # … and must not be one of these
    topic: bool = False  # a possessive pronoun (موقعها): the first entity of its type, at any distance
    # the subject holds no nisba: an organisation named with its country's (أرامكو السعودية في عمان) acts in the
    # city after في rather than sitting there
    plain_subject: bool = False
    # a ``before`` trigger relating two conjuncts to each other (الحدود بين الأردن والعراق; ابنتيه ليلى وسلمى);
    # other triggers before two conjuncts say something of each of them, nothing of one to the other
    conjuncts: bool = False


@dataclass(frozen=True, slots=True)
class Predicate:
    name: str
    domain: frozenset[str]
    range: frozenset[str]
    description: str
    functional: bool
    precision: float
    triggers: tuple[Trigger, ...]

    def allows(self, subject_type: str, object_type: str) -> bool:
        return subject_type in self.domain and object_type in self.range


@dataclass(frozen=True, slots=True)
class Mention:
    """An entity of the sentence as the extractor reads it: its span and the word tokens it covers."""

    type: str
    text: str
    start: int
    end: int
    confidence: float
    first: int  # index of its first word token
    last: int  # index one past its last word token
    alias: bool = False  # a word naming an organisation again (النادي): no entity the text was given

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "type": self.type, "start": self.start, "end": self.end}


def _stem_matches(token: str, want: str) -> bool:
    if token == want or (len(want) >= 3 and token.startswith(want)):
        return True
    # the future prefix: سيزور / ستقام match يزور / تقام
    return len(token) >= 4 and token[0] == "س" and token[1] in "يتنا" and _stem_matches(token[1:], want)


def word_matches(token: str, want: str) -> bool:
    if want == ANY_WORD:
        return True
    if _stem_matches(token, want):
        return True
    for c in PROCLITICS:
        if token.startswith(c) and len(token) - len(c) >= 2 and _stem_matches(token[len(c) :], want):
            return True
    return False
