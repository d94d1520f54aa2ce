"""How the extractor compares the loosely normalised words of a sentence: a trigger's words in a stretch of
text, a head word against a list (clitics aside), a nisba against the name it derives from, a clitic preposition
standing for a trigger's last word.
"""

from __future__ import annotations

from typing import Final

from tahqiq.analysis.relations.model import word_matches
from tahqiq.arabic.clitics import PROCLITICS
from tahqiq.arabic.keys import loose_unpunctuated

__all__ = [
    "PREPOSITIONS",
    "SPLIT_AT",
    "clitic_ends_trigger",
    "contains",
    "head_in",
    "match_forms",
    "nisba_names",
    "object_preposition",
    "occurs",
]

# head nouns of place, institution and event names that a clitic ب or ل may be attached to (بمدينة الكويت,
# لجامعة …, بجائزة …)
_PLACE_HEADS: Final = frozenset(
    loose_unpunctuated(w)
    for w in (
        "مدينة محافظة منطقة قرية بلدة ولاية إمارة مخيم دار قصر ملعب مطار ميناء مستشفى جامعة مركز مجموعة شركة "
        "حلبة ساحة قاعة فندق متحف مسجد كنيسة جزيرة عاصمة جائزة بطولة مهرجان مؤتمر معرض دورة كأس لقب منتخب نادي"
    ).split()
)
# the prepositions a trigger may end with that an object's first word may carry as a clitic (… في الرباط / بالرباط)
PREPOSITIONS: Final = frozenset({"في", "ل", "ب"})
# a verb-first trigger splits only before its preposition: ولد [الشاعر محمود درويش] في …
SPLIT_AT: Final = frozenset(loose_unpunctuated(w) for w in ("في", "ب", "ل", "من", "إلى", "على", "مع", "عن", "لدى"))


def head_in(word: str, heads: frozenset[str]) -> bool:
    """Whether ``word`` (loosely normalised) is one of ``heads``, a leading clitic or article aside."""
    return word in heads or any(word.startswith(c) and word[len(c) :] in heads for c in PROCLITICS)


def _stems(words: list[str]) -> set[str]:
    """The bare forms of a one-word name or nisba: article (and a leading و/ب/ل) off, then the adjective or
    name ending (ي ية يا ا ة) off — الأردني, الأردن → اردن; السعودية, السعودي → سعود; ألمانيا, الألماني → المان."""
    if len(words) != 1:
        return set()
    forms = {words[0]}
    for c in PROCLITICS:
        if words[0].startswith(c) and len(words[0]) - len(c) >= 2:
            forms.add(words[0][len(c) :])
    out = set(forms)
    for f in forms:
        for end in ("ية", "يا", "ي", "ا", "ة"):
            if f.endswith(end) and len(f) - len(end) >= 2:
                out.add(f[: -len(end)])
    return out


def nisba_names(nisba: list[str], name: list[str]) -> bool:
    """Whether the nisba (الأردني، القطرية) is derived from the one-word name (الأردن، قطر)."""
    if len(nisba) != 1 or not nisba[0].endswith(("ي", "ية")):
        return False
    return bool(_stems(nisba) & _stems(name))


def match_forms(words: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The forms a trigger word may match in ``words`` (as ``word_matches`` reads them): each word, without a
    clitic, without the future prefix; and their prefixes of three letters or more."""
    forms: set[str] = set()
    for word in words:
        todo = [word] + [word[len(c) :] for c in PROCLITICS if word.startswith(c) and len(word) - len(c) >= 2]
        while todo:
            f = todo.pop()
            if f in forms:
                continue
            forms.add(f)
            if len(f) >= 4 and f[0] == "س" and f[1] in "يتنا":
                todo.append(f[1:])
    return frozenset(forms), frozenset(f[:k] for f in forms for k in range(3, len(f) + 1))


def occurs(want: str, forms: tuple[frozenset[str], frozenset[str]]) -> bool:
    """Whether ``word_matches(w, want)`` holds for some word of the sentence whose ``match_forms`` are given."""
    return want in forms[0] or (len(want) >= 3 and want in forms[1])


def object_preposition(word: str) -> str | None:
    """The preposition a (loosely normalised) first word of an entity carries as a clitic, spelt as a separate
    trigger word would be: ``بالرباط`` / ``بمدينة`` → ``في``, ``لمجموعة`` / ``للكتاب`` → ``ل`` (None when the
    leading letter is more likely part of the name: ``بيروت``, ``لبنان``)."""
    if word.startswith(("بال", "بب")) or (word[:1] == "ب" and word[1:] in _PLACE_HEADS):
        return "في"
    if word.startswith(("لل", "لمجموعة", "لشركة")) or (word[:1] == "ل" and word[1:] in _PLACE_HEADS):
        return "ل"
    return None


def clitic_ends_trigger(words: tuple[str, ...], object_word: str, *, own_only: bool) -> bool:
    """Whether the trigger ``words`` end with a preposition that the object's first word carries as a clitic, so
    that the trigger stands whole before the object (يقع في الرباط / … بالرباط). With ``own_only`` the clitic must
    stand for the trigger's own preposition (``في`` also for a trigger ending in ``ب``); without it, any clitic
    preposition will do. The site check reads it strictly and the far-trigger and past-fillers checks loosely: one
    reading for all three would change their output and needs recalibrating (docs/design/relations.md)."""
    if not words or words[-1] not in PREPOSITIONS:
        return False
    clitic = object_preposition(object_word)
    if clitic is None:
        return False
    return not own_only or clitic == words[-1] or (clitic == "في" and words[-1] == "ب")


def contains(tokens: list[str], words: tuple[str, ...]) -> bool:
    """Whether the trigger ``words`` match consecutive ``tokens`` (``word_matches``); no words: no tokens."""
    n = len(words)
    if n == 0:
        return not tokens
    return any(all(word_matches(tokens[i + k], words[k]) for k in range(n)) for i in range(len(tokens) - n + 1))
