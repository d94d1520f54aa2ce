"""One text being read: its tokens and their keys, and the spans the layers have found so far."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from tahqiq.analysis.ner.cues import KEEP_SPELLING, NOT_NAMES
from tahqiq.arabic.keys import key
from tahqiq.core import Token, normalize


@dataclass(slots=True)
class Span:
    """A candidate entity over tokens ``i`` to ``j - 1``; in a crossing, the lower ``rank`` wins (``resolve``)."""

    type: str
    i: int  # first token
    j: int  # one past the last token
    rank: int


class Reading:
    """The state the layers share while reading one text (``layers.LAYERS`` run over it in order).

    - ``keys``: each token's key; على, أمام and the like keep their spelling behind a zero-width mark, so they never
      read as names (علي, إمام).
    - ``spans``: every span found so far, in the order found; ``base_at``: the spans other rules build on, by first
      token (listed names, nisbas, heads); ``claimed``: tokens inside a numeric entity or a website.
    """

    def __init__(self, text: str, toks: list[Token], heads: Callable[[str], frozenset[str]]) -> None:
        self.text = text
        self.toks = toks
        self.keys = [key(t.text) for t in toks]
        for x, t in enumerate(toks):
            if self.keys[x] in NOT_NAMES and normalize(t.text, alef=False, ya=False) in KEEP_SPELLING:
                self.keys[x] = "\u200b" + self.keys[x]
        self.n = len(toks)
        self.spans: list[Span] = []
        self.claimed = [False] * self.n
        self.base_at: dict[int, list[Span]] = {}
        self.unevidenced: set[tuple[int, int]] = set()  # one-word PERS spans the recognizer drops if still alone
        self._heads = heads

    def add(self, typ: str, i: int, j: int, rank: int) -> Span:
        span = Span(typ, i, j, rank)
        self.spans.append(span)
        return span

    @functools.cached_property
    def heads_of(self) -> list[frozenset[str]]:
        """Each token's stems with its clitics stripped (the lexicon memoises them)."""
        return [self._heads(k) for k in self.keys]
