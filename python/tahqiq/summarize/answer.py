"""The prompt sent to an upstream, and the check of what comes back before it is returned to the client."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tahqiq.text.sentences import split_sentences

LANGUAGE_NAMES = {"ar": "Arabic", "en": "English"}

_NOT_LETTER = re.compile(r"[\W\d_]+")
# Arabic, Arabic Supplement, Arabic Extended-A, Presentation Forms-A and -B.
_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]+")
# Basic Latin to Latin Extended-B, Latin Extended Additional.
_LATIN = re.compile("[\u0000-\u024f\u1e00-\u1eff]+")
_ASCII_LETTER = re.compile("[A-Za-z]")
_SENTENCE_END = ".!?…؟。"
_BULLET = re.compile(r"^\s*(?:[-*•‣▪–]|\d{1,3}[.)])(?:\s+(.*\S))?\s*$")  # a marker, then white space


class BadAnswer(ValueError):
    """The upstream's text has no usable summary: it is empty, or not in the language asked for."""


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


def _full_stop(sentence: str) -> str:
    return sentence if sentence[-1] in _SENTENCE_END else sentence + "."


def check(content: str, target_lang: str, fmt: str) -> CheckedSummary:
    """The summary in `content` in the format asked for, or BadAnswer saying why there is none.

    An answer in the other format is reshaped, not refused: a list asked for as a paragraph becomes one paragraph
    of its items (each ended with a full stop), and a paragraph asked for as bullets becomes one bullet per
    sentence (`tahqiq.text.sentences`). The lines around a list's items ("Summary:") are dropped."""
    lines = [line.strip() for line in content.strip().splitlines() if line.strip()]
    marked = [m for m in (_BULLET.match(line) for line in lines) if m is not None]
    # one marked line in a paragraph may be a sentence that starts with a dash; in an answer asked for as bullets
    # it is the list
    is_list = len(marked) >= 2 or (bool(marked) and (len(marked) == len(lines) or fmt == "bullets"))
    if is_list:  # the items; the lines around them ("Summary:") are not part of the summary
        items = [m[1].strip() for m in marked if m[1]]
    else:
        items = split_sentences(" ".join(lines)) if fmt == "bullets" else lines
    if not items:
        raise BadAnswer("the answer is empty")
    if fmt == "bullets":
        result = CheckedSummary("\n".join(f"- {item}" for item in items), tuple(items))
    else:
        result = CheckedSummary(" ".join(_full_stop(item) for item in items) if is_list else " ".join(items), None)
    if not in_language(result.summary, target_lang):
        raise BadAnswer(f"the answer is not in {LANGUAGE_NAMES[target_lang]}")
    return result
