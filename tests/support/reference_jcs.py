"""A slow, obviously-correct pure-Python RFC 8785 (JCS) twin of ``tahqiq.core.canonical_json``.

It canonicalises already-parsed Python values (from ``json.loads``), so it shares no code or
strategy with the Rust single-pass parser: keys are sorted by ``str.encode("utf-16-be")``, numbers
are formatted from ``repr()``'s shortest round-trip digits by the ECMAScript ``Number::toString``
rules, strings are escaped by a table.
"""

from __future__ import annotations

import json
import math
from typing import Any

_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def es_number(x: float) -> str:
    """ECMAScript ``Number.prototype.toString(x)`` for a finite double (ECMA-262 Number::toString)."""
    if not math.isfinite(x):
        raise ValueError(f"not a finite number: {x!r}")
    if x == 0:
        return "0"
    if x < 0:
        return "-" + es_number(-x)
    mantissa, _, exp_text = repr(x).partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    exponent = int(exp_text) if exp_text else 0
    # repr gives the shortest round-trip digits; normalise to digits d1..dk and n with x = 0.d1..dk * 10^n.
    all_digits = int_part + frac_part
    stripped = all_digits.lstrip("0")
    n = len(int_part) + exponent - (len(all_digits) - len(stripped))
    digits = stripped.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{head}e{sign}{abs(e)}"


def es_string(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[ch])
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def canonical_text(value: Any) -> str:
    """The JCS text of a JSON-compatible Python value."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        # Integers are IEEE-754 doubles in I-JSON; exact below 2^53, rounded beyond.
        return str(value) if abs(value) <= 2**53 else es_number(float(value))
    if isinstance(value, float):
        return es_number(value)
    if isinstance(value, str):
        return es_string(value)
    if isinstance(value, list):
        return "[" + ",".join(canonical_text(v) for v in value) + "]"
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: kv[0].encode("utf-16-be"))
        return "{" + ",".join(es_string(k) + ":" + canonical_text(v) for k, v in items) + "}"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def canonical_json(body: bytes) -> bytes:
    """JCS of a JSON text that Python's ``json`` module parses (no validation beyond that)."""
    return canonical_text(json.loads(body)).encode("utf-8")
