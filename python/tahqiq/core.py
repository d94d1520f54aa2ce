"""The typed Python face of tahqiq's Rust kernels (`tahqiq._native`).

Every Arabic operation of the service goes through these functions:

- :func:`normalize` is the one normaliser (diacritics, tatweel, alef and ya forms, digits, punctuation).
- :func:`scan` splits text into :class:`Token` objects whose code-point offsets index the caller's string.
- :class:`Lexicon` is an index for fuzzy search scored exactly like ``rapidfuzz.fuzz.ratio(q, e) / 100``.
- :class:`GlossaryIndex` is the dialect glossary's index of corpus forms: ``lookup(text, top_k, threshold)``
  scans, normalises and matches every word of a text (exact, normalised, clitics stripped by
  :func:`strip_clitics`, fuzzy) in one call and answers :data:`GlossaryWord` rows.
- :class:`PosScorer` scores the POS tagger that chooses a word's analysis in context (features, sums, greedy
  decoding) for :mod:`tahqiq.analysis.pos_tagger`.
- :class:`NerScorer` scores the learned NER layer's taggers (features, weight sums, Viterbi) for
  :mod:`tahqiq.analysis.ner.tagger`.
- :func:`canonical_json` is RFC 8785 (JCS); :func:`fingerprint` hashes it for idempotency checks.

The docstrings of the functions themselves come from the Rust sources (``help(tahqiq.core.scan)``);
the types are in ``_native.pyi``.
"""

from typing import Literal

from tahqiq._native import (
    GlossaryIndex,
    Lexicon,
    NerScorer,
    PosScorer,
    Token,
    canonical_json,
    fingerprint,
    normalize,
    scan,
    strip_clitics,
)

TokenKind = Literal["word", "number", "punct", "symbol"]
"""The kinds of :class:`Token`: letters (with marks and digits), numbers, punctuation, symbols and emoji."""

GlossaryWord = tuple[int, int, str, str, list[tuple[int, int, float]]]
"""One word of :meth:`GlossaryIndex.lookup`: ``(start, end, token, normalized, matches)``, offsets as :func:`scan`
gives them, ``matches`` as ``(form index, match type code, score)`` best first; the codes index
``GlossaryIndex.MATCH_TYPES`` (exact, normalized, clitic, fuzzy)."""

__all__ = [
    "GlossaryIndex",
    "GlossaryWord",
    "Lexicon",
    "NerScorer",
    "PosScorer",
    "Token",
    "TokenKind",
    "canonical_json",
    "fingerprint",
    "normalize",
    "scan",
    "strip_clitics",
]
