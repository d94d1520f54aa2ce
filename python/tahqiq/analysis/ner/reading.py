"""One text being read: its tokens and their keys, and the spans the layers have found so far."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
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


@dataclass(frozen=True, slots=True)
class WordInContext:
    """How morphology in context reads one word (``Morphology.words_in_context``): the POS it chose (the /morph
    labels), the chosen lemma's key, the word's corpus frequency (its most frequent analysis) and the chosen lemma's,
    P(proper noun | context), whether the word opens a sentence (text start, or after . ! ? : ؛ or a new line), and
    whether the chosen reading has a root (a word of the analyser's dictionary, not a guess at an unknown word)."""

    pos: str
    lemma: str
    frequency: int
    lemma_frequency: int
    proper: float
    opens_sentence: bool
    rooted: bool = False

    @property
    def common(self) -> bool:
        """A word the lexicon knows, read in context as no proper noun: a common noun, an adjective, a verb or a
        function word (an unknown word, frequency 0, may be a name)."""
        return self.pos != "noun_prop" and self.proper < 0.5 and self.frequency > 0


# the start offset of each word token -> how morphology reads it in context
ContextReader = Callable[[str], Mapping[int, WordInContext]]

# readings that no name of one word takes (an unknown word is read as a noun, so nouns are not here)
NOT_NAME_POS = frozenset({"adj", "verb", "adv", "prep", "conj", "part", "pron"})
FUNCTION_POS = frozenset({"adv", "prep", "conj", "part", "pron"})  # function words: no post, no title


class Reading:
    """The state the layers share while reading one text (``layers.LAYERS`` run over it in order).

    - ``keys``: each token's key; على, أمام and the like keep their spelling behind a zero-width mark, so they never
      read as names (علي, إمام).
    - ``context``: how morphology reads each token in its sentence (``WordInContext``; None for a token it does
      not read, or for every token when the recognizer runs without morphology).
    - ``spans``: every span found so far, in the order found; ``base_at``: the spans other rules build on, by first
      token (listed names, nisbas, heads); ``claimed``: tokens inside a numeric entity or a website.
    """

    def __init__(
        self,
        text: str,
        toks: list[Token],
        heads: Callable[[str], frozenset[str]],
        context: Mapping[int, WordInContext] | None = None,
    ) -> None:
        self.text = text
        self.toks = toks
        self.context: list[WordInContext | None] = [context.get(t.start) if context else None for t in toks]
        self.keys = [key(t.text) for t in toks]
        for x, t in enumerate(toks):
            if self.keys[x] in NOT_NAMES and normalize(t.text, alef=False, ya=False) in KEEP_SPELLING:
                self.keys[x] = "\u200b" + self.keys[x]
        self.n = len(toks)
        self.spans: list[Span] = []
        self.claimed = [False] * self.n
        self.base_at: dict[int, list[Span]] = {}
        self.unevidenced: set[tuple[int, int]] = set()  # one-word PERS spans the recognizer drops if still alone
        self.anchors: frozenset[int] = frozenset()  # tokens where a name may start after a title or kinship noun
        self._heads = heads

    def add(self, typ: str, i: int, j: int, rank: int) -> Span:
        span = Span(typ, i, j, rank)
        self.spans.append(span)
        return span

    def plain_key(self, i: int) -> str:
        """Token i's key without the mark that keeps على, إلى, أمام … apart from names (see ``keys``)."""
        return self.keys[i].lstrip("\u200b")

    def read_common(self, i: int) -> bool:
        """Morphology in context reads token i as a common word (`WordInContext.common`)."""
        word = self.context[i]
        return word is not None and word.common

    def read_as(self, i: int, pos: frozenset[str]) -> bool:
        """Morphology in context reads token i as a common word with one of the POS ``pos``."""
        word = self.context[i]
        return word is not None and word.common and word.pos in pos

    @functools.cached_property
    def heads_of(self) -> list[frozenset[str]]:
        """Each token's stems with its clitics stripped (the lexicon memoises them)."""
        return [self._heads(k) for k in self.keys]
