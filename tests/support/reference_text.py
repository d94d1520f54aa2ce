"""Pure-Python twin of the Rust text kernels: the "obviously right" reference and the benchmark baseline.

`normalize_ref` follows rust/src/normalize.rs with `str.translate` and `re`; `scan_ref` follows the
grammar of rust/src/scan.rs with one compiled pattern whose character classes are generated from
`unicodedata.category` over all code points (built once, on first use, and cached).

Python's `unicodedata` may know an older Unicode version than the Rust crate, so the two agree
exactly only on characters whose general category did not change between the versions.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from functools import cache

# ---------------------------------------------------------------- character classes

_CLASS_OF_CATEGORY = {
    **dict.fromkeys(("Lu", "Ll", "Lt", "Lm", "Lo"), "L"),
    **dict.fromkeys(("Mn", "Mc", "Me"), "M"),
    **dict.fromkeys(("Nd", "Nl", "No"), "N"),
    **dict.fromkeys(("Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"), "P"),
    **dict.fromkeys(("Sm", "Sc", "Sk", "So", "Co", "Cn"), "S"),
    **dict.fromkeys(("Zs", "Zl", "Zp", "Cc", "Cf", "Cs"), "Z"),
}


def char_class(ch: str) -> str:
    """The coarse class of one character: L, M, N, P, S or Z (separator)."""
    return _CLASS_OF_CATEGORY[unicodedata.category(ch)]


@dataclass(frozen=True)
class Classes:
    """Regex character-class bodies (without brackets) for each coarse class."""

    L: str
    M: str
    N: str
    P: str
    S: str


def _ranges_to_class(ranges: list[tuple[int, int]]) -> str:
    return "".join(f"\\U{lo:08x}" if lo == hi else f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ranges)


@cache
def classes() -> Classes:
    """Character classes for L, M, N, P, S, computed from `unicodedata` over every code point."""
    ranges: dict[str, list[tuple[int, int]]] = {k: [] for k in "LMNPSZ"}
    current, lo = None, 0
    for cp in range(sys.maxunicode + 1):
        cls = _CLASS_OF_CATEGORY[unicodedata.category(chr(cp))]
        if cls != current:
            if current is not None:
                ranges[current].append((lo, cp - 1))
            current, lo = cls, cp
    assert current is not None
    ranges[current].append((lo, sys.maxunicode))
    return Classes(**{k: _ranges_to_class(ranges[k]) for k in "LMNPS"})


# ---------------------------------------------------------------- scan

ZWNJ_ZWJ = "\u200c\u200d"
NUMBER_SEPARATORS = ".,\u066b\u066c"
REGIONAL_INDICATOR = "\\U0001f1e6-\\U0001f1ff"
EMOJI_MODIFIER = "\\U0001f3fb-\\U0001f3ff"
TAG = "\\U000e0020-\\U000e007f"


@cache
def scan_pattern() -> re.Pattern[str]:
    """The one pattern of the scanner grammar; alternatives are tried in this order."""
    c = classes()
    L, M, N, P, S = c.L, c.M, c.N, c.P, c.S
    word = f"[{L}](?:[{L}{N}{M}]|[{ZWNJ_ZWJ}](?=[{L}{N}]))*"
    number = f"[{N}](?:[{N}{M}]|[{re.escape(NUMBER_SEPARATORS)}](?=[{N}]))*"
    punct = f"[{P}][{M}]*"
    unit = f"(?:[{REGIONAL_INDICATOR}]{{2}}|[{S}])(?:[{M}]|[{EMOJI_MODIFIER}]|[{TAG}])*"
    symbol = f"{unit}(?:\u200d{unit})*|[{M}]+"
    return re.compile(f"(?P<word>{word})|(?P<number>{number})|(?P<punct>{punct})|(?P<symbol>{symbol})")


def scan_ref(text: str) -> list[tuple[str, int, int, str]]:
    """Tokens of `text` as (text, start, end, kind) tuples, by the same grammar as `tahqiq.core.scan`."""
    return [(m.group(), m.start(), m.end(), m.lastgroup) for m in scan_pattern().finditer(text)]  # type: ignore[misc]


# ---------------------------------------------------------------- normalize

ALEF = "\u0627"
_DIACRITIC_RANGES = [
    (0x064B, 0x0652),
    (0x0656, 0x065F),
    (0x0670, 0x0670),
    (0x0610, 0x061A),
    (0x06D6, 0x06DC),
    (0x06DF, 0x06E4),
    (0x06E7, 0x06E8),
    (0x06EA, 0x06ED),
    (0x08D3, 0x08E1),
    (0x08E3, 0x08FF),
]
_ALEF_HAMZA_RUN = re.compile(f"{ALEF}[\u0653-\u0655]+")


@cache
def _translation(diacritics: bool, tatweel: bool, alef: bool, ya: bool, ta_marbuta: bool, digits: bool):  # type: ignore[no-untyped-def]
    table: dict[int, str | None] = {}
    if diacritics:
        for lo, hi in _DIACRITIC_RANGES:
            table.update(dict.fromkeys(range(lo, hi + 1)))
    if tatweel:
        table[0x0640] = None
    if alef:
        table.update(dict.fromkeys(map(ord, "\u0623\u0625\u0622\u0671\u0672\u0673"), ALEF))
    if ya:
        table.update(dict.fromkeys(map(ord, "\u0649\u06cc"), "\u064a"))
    if ta_marbuta:
        table[0x0629] = "\u0647"
    if digits:
        table.update({0x0660 + i: str(i) for i in range(10)})
        table.update({0x06F0 + i: str(i) for i in range(10)})
        table[0x066B] = "."
        table[0x066C] = ","
    return table


@cache
def _punctuation_pattern() -> re.Pattern[str]:
    return re.compile(f"[{classes().P}]+")


def normalize_ref(
    text: str,
    *,
    diacritics: bool = True,
    tatweel: bool = True,
    alef: bool = True,
    ya: bool = True,
    ta_marbuta: bool = False,
    digits: bool = False,
    punctuation: bool = False,
) -> str:
    """Same result as `tahqiq.core.normalize`: drop punctuation, translate, drop hamza/madda after alef."""
    if punctuation:
        text = _punctuation_pattern().sub("", text)
    text = text.translate(_translation(diacritics, tatweel, alef, ya, ta_marbuta, digits))
    if alef:
        text = _ALEF_HAMZA_RUN.sub(ALEF, text)
    return text
