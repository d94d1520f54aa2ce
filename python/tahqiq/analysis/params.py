"""The parameters of an Area C operation, read one way from a JSON object (POST) or a query string (GET).

Every operation takes the same parameters both ways. JSON values must have the right JSON type; query values are
text (booleans `true`/`false`/`1`/`0`). Unknown parameters are refused (422), so that a misspelt option is never
silently ignored, and every error is collected before one 422 names them all.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from tahqiq.json_body import json_object
from tahqiq.problems import Problem

# The request fields each operation accepts: any other field is refused (422).
OPERATION_FIELDS: dict[str, frozenset[str]] = {
    "lookup": frozenset({"sentence_id", "text", "source", "similarity_threshold"}),
    "glossary": frozenset({"text", "top_k", "similarity_threshold", "include_offsets", "source"}),
    "morph": frozenset({"text", "task", "flag", "language", "include_lemma"}),
    "ner": frozenset({"text", "mode", "include_offsets"}),
    "wsd": frozenset({"text", "include_gloss"}),
    "re": frozenset({"text"}),
}


_INT = re.compile(r"^[+-]?\d{1,18}$")
_TRUE, _FALSE = ("true", "1"), ("false", "0")


class Params:
    """Typed access to one request's parameters; collects every error before raising one 422."""

    def __init__(self, raw: Mapping[str, Any], is_query: bool, allowed: set[str]) -> None:
        self.raw = raw
        self.is_query = is_query
        self.errors: dict[str, list[str]] = {}
        for name in sorted(set(raw) - allowed):
            self.error(name, f"unknown parameter; this operation takes {', '.join(sorted(allowed))}")

    @classmethod
    def from_json(cls, body: bytes, allowed: set[str]) -> Params:
        return cls(json_object(body, "validation-error", empty_ok=True), False, allowed)

    @classmethod
    def from_query(cls, query: Mapping[str, list[str]], allowed: set[str]) -> Params:
        params = cls({k: v[-1] for k, v in query.items()}, True, allowed)
        for name, values in query.items():
            if len(values) > 1:
                params.error(name, "given more than once")
        return params

    def error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    def has(self, name: str) -> bool:
        return name in self.raw and self.raw[name] is not None

    def text(self, name: str, *, required: bool, max_chars: int) -> str | None:
        if not self.has(name):
            if required:
                self.error(name, "is required")
            return None
        value = self.raw[name]
        if not isinstance(value, str):
            self.error(name, "must be a string")
            return None
        if not value.strip():
            self.error(name, "must not be empty")
            return None
        if len(value) > max_chars:
            self.error(name, f"is {len(value)} characters; the limit is {max_chars}")
            return None
        return value

    def integer(self, name: str, default: int | None, low: int, high: int) -> int | None:
        if not self.has(name):
            return default
        value = self.raw[name]
        if self.is_query and isinstance(value, str) and _INT.match(value.strip()):
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            self.error(name, "must be an integer")
            return default
        if not low <= value <= high:
            self.error(name, f"must be between {low} and {high}")
            return default
        return value

    def number(self, name: str, default: float, low: float, high: float) -> float:
        if not self.has(name):
            return default
        value = self.raw[name]
        if self.is_query and isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                pass
        if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
            self.error(name, "must be a number")
            return default
        if not low <= value <= high:
            self.error(name, f"must be between {low} and {high}")
            return default
        return float(value)

    def boolean(self, name: str, default: bool = False) -> bool:
        if not self.has(name):
            return default
        value = self.raw[name]
        if self.is_query and isinstance(value, str):
            lowered = value.strip().lower()
            if lowered in _TRUE + _FALSE:
                return lowered in _TRUE
        if isinstance(value, bool):
            return value
        self.error(name, "must be true or false" + (" (or 1 / 0)" if self.is_query else ""))
        return default

    def choice(self, name: str, default: str, allowed: tuple[str, ...]) -> str:
        if not self.has(name):
            return default
        value = self.raw[name]
        if not isinstance(value, str) or value not in allowed:
            self.error(name, f"must be one of {', '.join(allowed)}")
            return default
        return value

    def done(self) -> None:
        """Raises the 422 listing every problem found, if there is any."""
        if self.errors:
            detail = "; ".join(f"{k}: {v[0]}" for k, v in self.errors.items())
            raise Problem("validation-error", detail, errors=self.errors)
