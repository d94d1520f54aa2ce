"""The prompt sent to an upstream, and the check of what comes back before it is returned to the client."""

from __future__ import annotations

import re
from dataclasses import dataclass

LANGUAGE_NAMES = {"ar": "Arabic", "en": "English"}

_NOT_LETTER = re.compile(r"[\W\d_]+")
# Arabic, Arabic Supplement, Arabic Extended-A, Presentation Forms-A and -B.
_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]+")
# Basic Latin to Latin Extended-B, Latin Extended Additional.
_LATIN = re.compile("[\u0000-\u024f\u1e00-\u1eff]+")
_ASCII_LETTER = re.compile("[A-Za-z]")
_BULLET = re.compile(r"^\s*(?:[-*•‣▪–]|\d{1,3}[.)])(?:\s+(.*\S))?\s*$")  # a marker, then white space


class BadAnswer(ValueError):
    """The upstream's text is not the summary that was asked for (empty, wrong format, wrong language)."""


@dataclass(frozen=True, slots=True)
class CheckedSummary:
    summary: str
    bullets: tuple[str, ...] | None  # the bullets format only


def messages(text: str, target_lang: str, sentences: int, fmt: str) -> list[dict[str, str]]:
    """The chat messages asking for a summary of `text` in `target_lang`, `sentences` long, as `fmt`."""
    language = LANGUAGE_NAMES[target_lang]
    if fmt == "bullets":
        shape = (
            f'as a list of {sentences} bullet points, one per line, each line starting with "- " '
            "and holding one sentence"
        )
    else:
        shape = f"as one paragraph of {sentences} sentences, with no list markers and no line breaks"
    system = (
        f"You summarize texts. Write the summary in {language} (translate if the text is in another "
        f"language), {shape}. Keep only the most important facts of the text; add nothing that is not in it. "
        "Answer with the summary only, no preface."
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": text}]


def _letters(text: str) -> tuple[int, int]:
    """(Arabic-script letters, Latin letters) in `text`; regular expressions keep the loop in C."""
    letters = _NOT_LETTER.sub("", text)
    return len(letters) - len(_ARABIC.sub("", letters)), len(letters) - len(_LATIN.sub("", letters))


def in_language(text: str, lang: str) -> bool:
    """Arabic letters dominate for "ar", Latin letters for "en".

    Not :func:`tahqiq.summarize.extractive.detect_language`, on purpose: this checks an upstream's answer, so it
    must be able to say no (an answer with no letters, or with more of the other script); that one picks the
    summarizer's pipeline and label, so it must name a language for any text, English by default. Either in terms
    of the other would change answers: ``detect_language(answer) == "en"`` would pass a Russian or a letterless
    answer as English; detection by this rule would call a mostly Cyrillic text with a few Arabic words Arabic."""
    if text.isascii():  # no Arabic letter: Latin dominates when there is one (the usual English answer, in C)
        return lang == "en" and _ASCII_LETTER.search(text) is not None
    arabic, latin = _letters(text)
    return arabic > latin if lang == "ar" else latin > arabic


def check(content: str, target_lang: str, fmt: str) -> CheckedSummary:
    """The summary in `content`, or BadAnswer saying what is wrong with it."""
    lines = [line.strip() for line in content.strip().splitlines() if line.strip()]
    if not lines:
        raise BadAnswer("the answer is empty")
    marked = [m for m in (_BULLET.match(line) for line in lines) if m is not None]
    if fmt == "bullets":
        bullets = tuple(m[1].strip() for m in marked if m[1])
        if not bullets:
            raise BadAnswer("bullets were asked for and the answer has no bullet line")
        summary = "\n".join(f"- {b}" for b in bullets)
        result = CheckedSummary(summary, bullets)
    else:
        if len(marked) >= 2 or len(marked) == len(lines):
            raise BadAnswer("a paragraph was asked for and the answer is a list")
        result = CheckedSummary(" ".join(lines), None)
    if not in_language(result.summary, target_lang):
        raise BadAnswer(f"the answer is not in {LANGUAGE_NAMES[target_lang]}")
    return result
