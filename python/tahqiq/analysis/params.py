"""The parameters of an Area C operation: one definition (`OPERATIONS`), read one way from a JSON object (POST)
or a query string (GET), and described from the same definition in the OpenAPI document
(`tahqiq.analysis.openapi`), so that the validation and the description cannot drift apart.

Every operation takes the same parameters both ways. JSON values must have the right JSON type; query values are
text (booleans `true`/`false`/`1`/`0`). Unknown parameters are refused (422), so that a misspelt option is never
silently ignored, and every error is collected before one 422 names them all.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from tahqiq.json_body import json_object
from tahqiq.problems import Problem

TASKS: Final = ("full", "lemmatization", "pos", "root")
FLAGS: Final = ("1", "*")
ALL_CORPORA: Final = "all"
MAX_TOP_K: Final = 50
MAX_SENTENCE_ID: Final = 2**31 - 1

Kind = Literal["text", "integer", "number", "boolean", "choice"]


@dataclass(frozen=True, slots=True)
class Field:
    """One parameter. `text` is limited to the service's `max_chars`; a `choice` may also be written as one of
    `aliases` in JSON (morph's `flag` as the number 1); `open_choices` means the service adds choices of its own
    (the corpora a `source` may name)."""

    name: str
    kind: Kind
    description: str
    required: bool = False
    default: Any = None
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    aliases: Mapping[Any, str] = field(default_factory=dict)
    open_choices: bool = False


def _text(description: str, *, required: bool = True) -> Field:
    return Field("text", "text", description, required=required)


_THRESHOLD = Field(
    "similarity_threshold", "number", "the least fuzzy-match similarity that counts", default=0.65, low=0.0, high=1.0
)
_SOURCE = Field(
    "source",
    "choice",
    f"`{ALL_CORPORA}`, or one corpus by name (the shipped `tahqiq`, or one imported)",
    default=ALL_CORPORA,
    choices=(ALL_CORPORA,),
    open_choices=True,
)

OPERATIONS: dict[str, tuple[Field, ...]] = {
    "lookup": (
        Field("sentence_id", "integer", "the row's id in its corpus", low=1, high=MAX_SENTENCE_ID),
        _text("the sentence; with sentence_id, both must name the same row", required=False),
        _SOURCE,
        _THRESHOLD,
    ),
    "glossary": (
        _text("the text to map to dialect glosses"),
        Field("top_k", "integer", "the most matches per word", default=3, low=1, high=MAX_TOP_K),
        _THRESHOLD,
        Field("include_offsets", "boolean", "add each word's character span", default=False),
        _SOURCE,
    ),
    "morph": (
        _text("the text to analyse"),
        Field("task", "choice", "which fields each token carries", default="full", choices=TASKS),
        Field(
            "flag",
            "choice",
            "`1`: the analysis chosen in context; `*`: all analyses, the chosen one first, each with its score",
            default="1",
            choices=FLAGS,
            aliases={1: "1"},
        ),
        Field("language", "choice", "only MSA is supported", default="MSA", choices=("MSA",)),
        Field("include_lemma", "boolean", "add lemma_url and lemma_forms", default=False),
    ),
    "ner": (
        _text("the text to tag"),
        Field("mode", "choice", "nested entities, or the outermost only", default="nested", choices=("nested", "flat")),
        Field("include_offsets", "boolean", "add each token's character span", default=False),
    ),
    "wsd": (
        _text("the text whose words get senses"),
        Field("include_gloss", "boolean", "add each sense's gloss", default=False),
    ),
    "re": (_text("the text to extract relations from"),),
}
"""Each operation's parameters; any other parameter is refused (422)."""

ONE_OF_REQUIRED: dict[str, tuple[str, ...]] = {"lookup": ("sentence_id", "text")}
"""Operations that need at least one of these parameters (both may be given)."""

OPERATION_FIELDS: dict[str, frozenset[str]] = {
    op: frozenset(f.name for f in fields) for op, fields in OPERATIONS.items()
}
"""The names of each operation's parameters."""

_INT = re.compile(r"^[+-]?\d{1,18}$")
_TRUE, _FALSE = ("true", "1"), ("false", "0")


class Params:
    """Typed access to one request's parameters; collects every error before raising one 422."""

    def __init__(self, raw: Mapping[str, Any], is_query: bool, allowed: set[str] | frozenset[str]) -> None:
        self.raw = raw
        self.is_query = is_query
        self.errors: dict[str, list[str]] = {}
        for name in sorted(set(raw) - allowed):
            self.error(name, f"unknown parameter; this operation takes {', '.join(sorted(allowed))}")

    @classmethod
    def from_json(cls, body: bytes, allowed: set[str] | frozenset[str]) -> Params:
        return cls(json_object(body, "validation-error", empty_ok=True), False, allowed)

    @classmethod
    def from_query(cls, query: Mapping[str, list[str]], allowed: set[str] | frozenset[str]) -> Params:
        params = cls({k: v[-1] for k, v in query.items()}, True, allowed)
        for name, values in query.items():
            if len(values) > 1:
                params.error(name, "given more than once")
        return params

    def read(self, operation: str, *, max_chars: int, more_choices: tuple[str, ...] = ()) -> dict[str, Any]:
        """Every parameter of `operation` (its default when absent), errors collected; `more_choices` are added
        to the choices of an `open_choices` field. Call `done()` after any checks of your own."""
        values: dict[str, Any] = {}
        one_of = ONE_OF_REQUIRED.get(operation)
        if one_of and not any(self.has(name) for name in one_of):
            self.error(one_of[0], f"give {' or '.join(one_of)} (or both, naming the same thing)")
        for f in OPERATIONS[operation]:
            if f.kind == "text":
                values[f.name] = self.text(f.name, required=f.required, max_chars=max_chars)
            elif f.kind == "integer":
                values[f.name] = self.integer(f.name, f.default, int(f.low or 0), int(f.high or 0))
            elif f.kind == "number":
                values[f.name] = self.number(f.name, f.default, f.low or 0.0, f.high or 0.0)
            elif f.kind == "boolean":
                values[f.name] = self.boolean(f.name, f.default)
            else:
                choices = f.choices + more_choices if f.open_choices else f.choices
                values[f.name] = self.choice(f.name, f.default, choices, f.aliases)
        return values

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
        elif isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
            value = int(value)  # 12.0 is the integer 12, as JSON Schema reads it
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

    def choice(
        self, name: str, default: str, allowed: tuple[str, ...], aliases: Mapping[Any, str] | None = None
    ) -> str:
        if not self.has(name):
            return default
        value = self.raw[name]
        if aliases and not self.is_query and isinstance(value, int | float) and not isinstance(value, bool):
            if value in aliases:  # 1 and 1.0 alike, as JSON Schema reads them
                return aliases[value]
        if not isinstance(value, str) or value not in allowed:
            self.error(name, f"must be one of {', '.join(allowed)}")
            return default
        return value

    def done(self) -> None:
        """Raises the 422 listing every problem found, if there is any."""
        if self.errors:
            detail = "; ".join(f"{k}: {v[0]}" for k, v in self.errors.items())
            raise Problem("validation-error", detail, errors=self.errors)
