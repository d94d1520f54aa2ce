"""The typed Python face of tahqiq's Rust kernels (`tahqiq._native`).

Every Arabic operation of the service goes through these functions:

- :func:`normalize` is the one normaliser (diacritics, tatweel, alef and ya forms, digits, punctuation).
- :func:`scan` splits text into :class:`Token` objects whose code-point offsets index the caller's string.
- :class:`Lexicon` is an index for fuzzy search scored exactly like ``rapidfuzz.fuzz.ratio(q, e) / 100``.
- :func:`canonical_json` is RFC 8785 (JCS); :func:`fingerprint` hashes it for idempotency checks.

The docstrings of the functions themselves come from the Rust sources (``help(tahqiq.core.scan)``);
the types are in ``_native.pyi``.
"""

from typing import Literal

from tahqiq._native import (
    Lexicon,
    Token,
    canonical_json,
    fingerprint,
    normalize,
    scan,
)

TokenKind = Literal["word", "number", "punct", "symbol"]
"""The kinds of :class:`Token`: letters (with marks and digits), numbers, punctuation, symbols and emoji."""

__all__ = [
    "Lexicon",
    "Token",
    "TokenKind",
    "canonical_json",
    "fingerprint",
    "normalize",
    "scan",
]
