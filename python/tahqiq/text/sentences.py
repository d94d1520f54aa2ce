"""Sentence splitting for Arabic and English news text, with offsets into the caller's string.

A sentence ends at ``. ! ? ؟ ۔ …`` (a run of them, with any closing quotes or brackets after it) when whitespace, the
end of the text or an opening quote follows, and at every line break, except where that would cut a sentence short:

- decimals and dotted names (``3.5``, ``www.example.org``, ``U.S.-led``): a period followed by no space never ends one;
- English abbreviations: titles and the like (``Mr. Dr. Prof. Gen. e.g. i.e. vs. No. Jan.`` …) never end a sentence;
  those that often close one (``U.S. U.K. a.m. p.m. etc. Inc. Ltd. Jr.``) and single initials (``J.``) end it only when
  the next word is a capitalised function word (``the U.S. The talks …``, but ``U.S. President …`` runs on);
- Arabic single-letter abbreviations (``د.`` doctor, ``أ.`` professor, ``م.`` engineer, ``ص.`` page …) never end a
  sentence, except the year markers ``م`` and ``هـ`` right after a number (``عام 2020م.``), which do;
- a number at the start of a line (``1.`` of a list) and anything inside a «…» or “…” quotation;
- a single line break that only wraps text is not a boundary: before a lowercase Latin letter, or between Arabic
  letters (or after a comma) when the line before is at least 50 characters long (a heading is shorter); a blank
  line always is.

Commas and semicolons (``، ؛ , ;``) are clause marks, not sentence ends: they are used only to cut a sentence longer
than :data:`MAX_SENTENCE_CHARS` (text with no sentence punctuation at all), and where a clause is still too long it is
cut between words, so that no piece exceeds the bound.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache
from importlib import resources

MAX_SENTENCE_CHARS = 500
"""Longer sentences are cut at clause marks, then between words, into pieces of at most this many characters."""

_WRAP_MIN_CHARS = 50  # an Arabic line this long that runs into the next one is wrapped text, not a heading
_QUOTE_SPAN_CHARS = 400  # a «…» or “…” longer than this is taken as unclosed: boundaries inside it count

_TERMINATOR_RUN = re.compile(r"[.!?؟۔…]+[»”’\"')\]]*")
_LINE_BREAK = re.compile(r"\n(?:[ \t\r\f\v]*\n)*")
_QUOTE = re.compile(rf"«[^«»]{{0,{_QUOTE_SPAN_CHARS}}}»|“[^“”]{{0,{_QUOTE_SPAN_CHARS}}}”")
_CONTENT = re.compile(r"[^\W_]")
_NEXT_WORD = re.compile(r"[\s«“\"'(\[]*([^\W\d_]+)")
_CLAUSE_MARK = re.compile(r"[،؛;,:]\s+")
_OPENERS = "«“\"'(["

# Titles and the like: the period is the abbreviation's, the sentence goes on.
_ABBREV_RUN_ON = frozenset(
    "mr mrs ms dr prof gen sen rep gov col lt sgt capt cmdr adm maj rev hon pres supt fr st mt ft "
    "e.g i.e vs cf viz approx no nos fig figs vol dept est ca al "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
# Abbreviations that often close a sentence too: they end one only before a capitalised function word.
_ABBREV_MAY_END = frozenset("u.s u.k u.n e.u u.s.a a.m p.m etc inc ltd co corp jr sr bros plc llc".split())
_YEAR_MARKERS = frozenset({"م", "هـ", "ه"})


@lru_cache(maxsize=1)
def _sentence_starters() -> frozenset[str]:
    """English function words (the project's stop list): a capitalised one after ``U.S.`` starts a new sentence."""
    return frozenset(load_word_list("stopwords_en.txt"))


def load_word_list(name: str) -> list[str]:
    """The entries of ``text/data/NAME``: one a line, ``#`` starts a comment, blank lines skipped."""
    text = resources.files("tahqiq.text").joinpath("data", name).read_text(encoding="utf-8")
    words = []
    for line in text.splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            words.append(entry)
    return words


def _is_arabic_letter(ch: str) -> bool:
    return "\u0620" <= ch <= "\u064a" or "\u066e" <= ch <= "\u06d3" or "\u06fa" <= ch <= "\u06ff"


def _period_ends_sentence(text: str, start: int, end: int) -> bool:
    """Whether the single period at ``text[start]`` (its run ending at ``end``) closes a sentence."""
    word_start = start
    while word_start > max(0, start - 40) and (
        text[word_start - 1].isalpha()
        or (text[word_start - 1] == "." and text[word_start - 2 : word_start - 1].isalpha())
    ):
        word_start -= 1
    if word_start == start:
        digits_start = start
        while digits_start > 0 and text[digits_start - 1].isdigit():
            digits_start -= 1
        if digits_start < start:
            indent = digits_start
            while indent > 0 and text[indent - 1] in " \t":
                indent -= 1
            if indent == 0 or text[indent - 1] == "\n":
                return False  # "1." opening a list item
        return True
    word = text[word_start:start]
    bare = word.replace("ـ", "")
    if (len(bare) == 1 and _is_arabic_letter(bare)) or word == "هـ":
        before = text[max(0, word_start - 20) : word_start].rstrip()
        return word in _YEAR_MARKERS and bool(before) and before[-1].isdigit()
    lower = word.lower()
    if lower in _ABBREV_RUN_ON:
        return False
    if lower in _ABBREV_MAY_END or (len(word) == 1 and word.isascii()) or "." in word:
        following = _NEXT_WORD.match(text, end)
        if following is None:
            return True
        next_word = following.group(1)
        return next_word[0].isupper() and next_word.lower() in _sentence_starters()
    return True


def _boundary_after(text: str, match: re.Match[str], quote_starts: list[int], quote_ends: list[int]) -> bool:
    start, end = match.span()
    if end < len(text) and not text[end].isspace() and text[end] not in _OPENERS:
        run = match.group()
        # "?!؟۔" may be followed straight by the next Arabic sentence; a period may not (dotted names, decimals).
        if "." in run.rstrip("»”’\"')]") or not _is_arabic_letter(text[end]):
            return False
    if "…" in match.group() or ".." in match.group():
        following = _NEXT_WORD.match(text, end)
        if following is not None and "a" <= following.group(1)[0] <= "z":
            return False  # an ellipsis inside a sentence: "he paused... and went on"
    inner = bisect_left(quote_starts, start) - 1  # the last quotation opened before this run (they do not overlap)
    if inner >= 0 and end < quote_ends[inner]:  # inside it, not closing it
        return False
    if match.group() == ".":
        return _period_ends_sentence(text, start, end)
    return True


def _wrapped_line(text: str, newline: int, following: int) -> bool:
    """Whether the single line break at ``text[newline]`` only wraps a sentence: the next line starts with a lowercase
    Latin letter, or an Arabic line of at least :data:`_WRAP_MIN_CHARS` characters ends in a letter or a comma and
    the next line starts with an Arabic letter (a heading is shorter, a finished sentence ends in a full stop)."""
    if following >= len(text):
        return False
    first = text[following]
    if "a" <= first <= "z":
        return True
    if not _is_arabic_letter(first):
        return False
    line_start = text.rfind("\n", 0, newline) + 1
    line = text[line_start:newline].rstrip()
    return len(line) >= _WRAP_MIN_CHARS and (_is_arabic_letter(line[-1]) or line[-1] in "،,")


def _cut_long(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    """Append ``text[start:end]`` to ``out`` in pieces of at most :data:`MAX_SENTENCE_CHARS`: at clause marks where
    it has them, else between words, else (one very long word) at the bound."""
    if end - start <= MAX_SENTENCE_CHARS:
        out.append((start, end))
        return
    cuts = [m.end() for m in _CLAUSE_MARK.finditer(text, start, end)]
    piece_start = start
    last_cut = None
    for cut in [*cuts, end]:
        if cut - piece_start > MAX_SENTENCE_CHARS and last_cut is not None:
            _emit(text, piece_start, last_cut, out)
            piece_start = last_cut
        last_cut = cut
    _emit(text, piece_start, end, out)


def _emit(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    """Trim and append one clause, cutting it between words when it is still too long."""
    start, end = _trim(text, start, end)
    while end - start > MAX_SENTENCE_CHARS:
        space = text.rfind(" ", start, start + MAX_SENTENCE_CHARS)
        cut = space if space > start else start + MAX_SENTENCE_CHARS
        piece = _trim(text, start, cut)
        if piece[1] > piece[0]:
            out.append(piece)
        start, end = _trim(text, cut, end)
    if end > start:
        out.append((start, end))


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _has_content(text: str, start: int, end: int) -> bool:
    return _CONTENT.search(text, start, end) is not None


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` code-point offsets of the sentences of ``text``, trimmed, in order; pieces with no letter or
    digit (a lone "…", a rule of dashes) are left out. ``text[start:end]`` is the sentence."""
    quoted = [m.span() for m in _QUOTE.finditer(text)]
    quote_starts, quote_ends = [q[0] for q in quoted], [q[1] for q in quoted]
    cuts = {m.end() for m in _TERMINATOR_RUN.finditer(text) if _boundary_after(text, m, quote_starts, quote_ends)}
    for m in _LINE_BREAK.finditer(text):
        if m.group().count("\n") > 1 or not _wrapped_line(text, m.start(), m.end()):
            cuts.add(m.start())
    spans: list[tuple[int, int]] = []
    start = 0
    for cut in sorted(cuts | {len(text)}):
        s, e = _trim(text, start, cut)
        if e > s and _has_content(text, s, e):
            _cut_long(text, s, e, spans)
        start = cut
    return [span for span in spans if _has_content(text, *span)]


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` (see :func:`sentence_spans`), each a trimmed slice of it."""
    return [text[s:e] for s, e in sentence_spans(text)]
