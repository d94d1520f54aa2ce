"""Request bodies that are JSON objects: the one parser of every route that takes one (minting, verification,
submissions, summarization and the analysis POSTs).

orjson parses the body; then the canonical-JSON kernel (`tahqiq.core`, rust/src/fingerprint.rs) reads the same
bytes and refuses what orjson lets through: an object that has a key twice (orjson keeps the last value) and
arrays and objects nested deeper than `MAX_DEPTH` (orjson allows 1024). Submissions need the kernel's pass anyway,
for their idempotency fingerprint; elsewhere it costs about as much as the parse. Only when the kernel refuses a
body does Python read the text again, to say what is wrong and where. Every refusal is a `Problem` of the slug the
route gives (`invalid-submission` on submissions, `validation-error` elsewhere), with `errors` naming the place.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from tahqiq.core import canonical_json, fingerprint
from tahqiq.problems import Problem

MAX_DEPTH = 128
"""Deepest nesting of arrays and objects in a body, the body itself being level 1: the kernel's `MAX_DEPTH`."""

ORJSON_MAX_DEPTH = 1024  # orjson refuses deeper documents itself
_MAX_DUPLICATES_NAMED = 20  # a problem document names at most this many repeated keys
# Strings (whole, so that what they hold is skipped) and brackets. Between two of these there are only numbers,
# literals, colons, commas and white space, whose commas are counted in C: an array of numbers costs no Python.
# An empty array or object is one token: it holds no key and is no deeper than its opening bracket.
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|\{\s*\}|\[\s*\]|[{}\[\]]')
_JSON_TYPE_NAMES = {dict: "object", list: "array", str: "string", int: "number", float: "number", bool: "boolean"}


def json_object(body: bytes, slug: str, *, empty_ok: bool = False, example: str = "") -> dict[str, Any]:
    """The JSON object in `body`, or a `slug` problem saying why there is none. `empty_ok`: an empty (or white
    space) body is `{}`; `example` is shown in the answer to a body that is not JSON."""
    if empty_ok and not body.strip():
        return {}
    value = _parsed(body, slug, example)
    try:
        canonical_json(body)
    except ValueError as exc:
        raise shape_problem(body, slug, str(exc)) from None
    return value


def json_object_and_fingerprint(body: bytes, context: str, slug: str) -> tuple[dict[str, Any], str]:
    """`json_object` and `tahqiq.core.fingerprint(body, context=context)`, from one pass of the kernel."""
    value = _parsed(body, slug, "")
    try:
        return value, fingerprint(body, context=context)
    except ValueError as exc:
        raise shape_problem(body, slug, str(exc)) from None


def _parsed(body: bytes, slug: str, example: str) -> dict[str, Any]:
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        if str(exc).startswith("depth limit exceeded"):  # orjson's own limit (1024 levels): say how deep
            raise shape_problem(body, slug, str(exc)) from None
        such_as = f" such as {example}" if example else ""
        message = f"is not valid JSON ({exc}); send a JSON object{such_as}"
        raise Problem(slug, f"the body {message}", errors={"body": [message]}) from None
    if not isinstance(value, dict):
        message = f"must be a JSON object, got a JSON {_JSON_TYPE_NAMES.get(type(value), 'null')}"
        raise Problem(slug, f"the body {message}", errors={"body": [message]})
    return value


class _Container:
    """An array or object open at some point of the scan; its path is made only when a problem needs it."""

    __slots__ = ("expects_key", "index", "is_object", "keys", "member", "name", "parent")
    parent: _Container | None
    name: str | int | None  # how the parent names it: a key, an index, or None for the body
    is_object: bool
    keys: set[str]
    member: str  # the key whose value comes next (objects)
    index: int  # the item that comes next (arrays)
    expects_key: bool

    def __init__(self, parent: _Container | None, is_object: bool) -> None:
        self.parent = parent
        self.name = None if parent is None else parent.member if parent.is_object else parent.index
        self.is_object = is_object
        self.keys = set()
        self.member = ""
        self.index = 0
        self.expects_key = is_object

    def chain(self) -> list[_Container]:
        """The body, its member that holds this, ..., this."""
        out = []
        node: _Container | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        return out[::-1]

    def path(self) -> str:
        """Like `results[0].note`: the form the other problems of the service use; "" for the body."""
        return "".join(node.segment() for node in self.chain()).removeprefix(".")

    def segment(self) -> str:
        return "" if self.name is None else f"[{self.name}]" if isinstance(self.name, int) else f".{self.name}"


class BodyShape:
    """What `scan_shape` found: how deep the body nests (at least; the scan stops past orjson's limit), where it
    first goes past `MAX_DEPTH`, and the keys given more than once in one object (path of the object -> key -> how
    many times)."""

    def __init__(self) -> None:
        self.depth = 0
        self.too_deep_at: _Container | None = None
        self.repeated: dict[str, dict[str, int]] = {}


def scan_shape(body: bytes) -> BodyShape:
    """Reads the text of a JSON document (which orjson accepted, or refused only for its depth) for repeated keys
    and depth, without recursion. Keys compare after unescaping (`"a"` and `"\\u0061"` are one key), as in the
    kernel. The slow path: it runs only for a body the kernel refused. Its cost grows with the number of strings
    and non-empty containers, and stays within what such a submission's per-item checks took before this parser
    (see docs/benchmarks.md, "JSON bodies")."""
    shape = BodyShape()
    named = 0
    level = 0
    top: _Container | None = None
    end = 0
    for match in _TOKEN.finditer(body):
        start = match.start()
        if top is not None and start > end and (commas := body.count(b",", end, start)):
            if top.is_object:
                top.expects_key = True
            else:
                top.index += commas
        end = match.end()
        first = body[start]
        if first == 0x22:  # a string: a key when an object expects one, else a value
            if top is not None and top.expects_key:
                top.expects_key = False
                top.member = key = _key(body[start:end])
                if key not in top.keys:
                    top.keys.add(key)
                    continue
                counts = shape.repeated.setdefault(top.path(), {})
                if key in counts:
                    counts[key] += 1
                elif named < _MAX_DUPLICATES_NAMED:
                    counts[key] = 2
                    named += 1
        elif first == 0x7B or first == 0x5B:  # { [, or an empty {} [] (one token)
            level += 1
            shape.depth = max(shape.depth, level)
            opened = None
            if end - start == 1:  # not empty: the scan goes into it
                opened = top = _Container(top, first == 0x7B)
            else:
                level -= 1
            if shape.depth > MAX_DEPTH and shape.too_deep_at is None:
                shape.too_deep_at = opened or _Container(top, first == 0x7B)
            if shape.depth > ORJSON_MAX_DEPTH:  # deeper is no news, and a megabyte of brackets would take seconds
                break
        elif top is not None:  # } ]
            top = top.parent
            level -= 1
    return shape


def _key(token: bytes) -> str:
    if b"\\" not in token:
        return token[1:-1].decode("utf-8", "replace")
    try:
        return str(orjson.loads(token))
    except orjson.JSONDecodeError:  # only in a body orjson refused (for its depth): name the key as written
        return token[1:-1].decode("utf-8", "replace")


def _holder(container: _Container) -> str:
    """The member of the body that holds `container`, with the item's index when that member is an array:
    `metadata`, `results[0]` (a whole path could be a hundred segments long)."""
    chain = container.chain()
    if len(chain) < 2:
        return "body"
    member = chain[1]
    if not member.is_object and len(chain) > 2:
        return member.path() + chain[2].segment()
    return member.path()


def shape_problem(body: bytes, slug: str, reason: str) -> Problem:
    """The problem of a body the kernel refused (or orjson refused for its depth): where it nests too deep and
    which keys it repeats; when neither (the kernel is stricter than orjson in some other way), `reason`, the
    parser's own words."""
    shape = scan_shape(body)
    errors: dict[str, list[str]] = {}
    sentences = []
    if shape.too_deep_at is not None:
        where = _holder(shape.too_deep_at)
        levels = f"more than {ORJSON_MAX_DEPTH}" if shape.depth > ORJSON_MAX_DEPTH else str(shape.depth)
        errors[where] = [
            f"nests arrays and objects too deep: the body reaches {levels} levels (the body itself is level 1); "
            f"the limit is {MAX_DEPTH}"
        ]
        sentences.append(
            f"the body nests arrays and objects {levels} levels deep, in {where}; the limit is {MAX_DEPTH}"
        )
    for path, counts in shape.repeated.items():
        for key, times in counts.items():
            said = "twice" if times == 2 else f"{times} times"
            quoted = orjson.dumps(key).decode()
            errors.setdefault(path or "body", []).append(
                f"has the key {quoted} {said}; the keys of a JSON object must be unique"
            )
            holder = f"the object at {path}" if path else "the body"
            sentences.append(f"{holder} has the key {quoted} {said}; the keys of a JSON object must be unique")
    if not sentences:
        message = f"is not valid JSON ({reason}); send a JSON object"
        return Problem(slug, f"the body {message}", errors={"body": [message]})
    more = f" (and {len(sentences) - 1} more)" if len(sentences) > 1 else ""
    return Problem(slug, sentences[0] + more, errors=errors)
