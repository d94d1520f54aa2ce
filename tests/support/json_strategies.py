"""Hypothesis strategies for JSON: parsed values (`json_values`), and raw texts (`json_texts`) that may repeat a key
in an object (spelt the same or with escapes) or nest arrays and objects around the kernel's depth limit (128) and
orjson's (1024), the two shapes orjson reads and the canonical-JSON kernel refuses. `submission_texts` puts such
texts where a submission keeps them: in a result item and in `metadata`.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

text = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=12)
# Keys drawn to stress the UTF-16 ordering: BMP above the surrogates, supplementary, Arabic, controls.
key_text = st.one_of(
    text,
    st.text(
        alphabet=st.sampled_from(["a", "b", "\x00", "\n", '"', "\\", "\u0627", "\ue000", "\ufb33", "\uffff"])
        | st.characters(min_codepoint=0x10000, max_codepoint=0x10FFFF, exclude_categories=("Cs",)),
        max_size=4,
    ),
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text
)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(key_text, children, max_size=5),
    max_leaves=25,
)


def escaped(key: str) -> str:
    """`key` as a JSON string with every character written as a \\u escape (pairs beyond the BMP)."""
    units = key.encode("utf-16-be")
    return '"' + "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2)) + '"'


def spellings(key: str) -> st.SearchStrategy[str]:
    return st.sampled_from([json.dumps(key), json.dumps(key, ensure_ascii=False), escaped(key)])


@st.composite
def object_text(
    draw: st.DrawFn, children: st.SearchStrategy[str], base: tuple[tuple[str, str], ...] = (), drawn: int = 4
) -> str:
    """An object of `base` members and up to `drawn` drawn ones; half the time one key comes again, maybe spelt
    otherwise, with the same value or another."""
    members = [*base, *draw(st.lists(st.tuples(key_text, children), max_size=drawn))]
    if members and draw(st.booleans()):
        key, value = draw(st.sampled_from(members))
        members.insert(draw(st.integers(0, len(members))), (key, draw(st.just(value) | children)))
    return "{" + ",".join(f"{draw(spellings(key))}:{value}" for key, value in members) + "}"


# Around the kernel's limit, around orjson's, and anywhere up to a few hundred levels.
LEVELS = st.sampled_from([126, 127, 128, 129, 130, 1023, 1024, 1025, 1100]) | st.integers(1, 300)


@st.composite
def deep_text(draw: st.DrawFn, children: st.SearchStrategy[str]) -> str:
    """`children` inside `levels` arrays and objects (a short drawn cycle of them, so that long runs stay cheap)."""
    levels = draw(LEVELS)
    cycle = draw(st.lists(st.sampled_from(["[", '{"k":']), min_size=1, max_size=3))
    openers = [cycle[i % len(cycle)] for i in range(levels)]
    closers = ["]" if opener == "[" else "}" for opener in reversed(openers)]
    return "".join(openers) + draw(children) + "".join(closers)


def _json_dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


json_texts = st.recursive(
    scalars.map(_json_dumps),
    lambda children: (
        st.lists(children, max_size=4).map(lambda items: "[" + ",".join(items) + "]")
        | object_text(children)
        | deep_text(children)
    ),
    max_leaves=12,
)

# What every role needs in an item (claim 1 exists in the tests that use this); extra members and repeats are drawn.
ITEM_BASE = (("text", '"a claim"'), ("claim_id", "1"), ("verdict", '"false"'))


@st.composite
def submission_texts(draw: st.DrawFn) -> str:
    """A submission whose items and metadata are drawn texts: most are objects, some repeat a key or nest deep."""
    items = draw(st.lists(object_text(json_texts, ITEM_BASE) | json_texts, min_size=1, max_size=3))
    members = [("work_type", '"w"'), ("results", "[" + ",".join(items) + "]")]
    if draw(st.booleans()):
        members.append(("metadata", draw(object_text(json_texts) | deep_text(json_texts))))
    return draw(object_text(json_texts, tuple(members), drawn=0))
