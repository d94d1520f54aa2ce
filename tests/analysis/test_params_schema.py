"""The parameters of Area C and their description cannot drift: for any JSON value in any parameter of any
operation, the POST body's schema in the OpenAPI document (`tahqiq.analysis.openapi`) accepts the body exactly when
the service's reader (`tahqiq.analysis.params.Params.read`) does. (The GET forms are checked against the live
service by schemathesis, tests/service/test_openapi_service.py.)"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tahqiq.analysis import openapi
from tahqiq.analysis.params import OPERATION_FIELDS, OPERATIONS, Params

MAX_CHARS = 12
CORPORA = ("tahqiq", "curras")
VALIDATORS = {
    operation: jsonschema_rs.validator_for(openapi._body(operation, MAX_CHARS, CORPORA)) for operation in OPERATIONS
}
# values on and around every boundary and choice the definition has
NUMBERS = [0, 1, 1.0, 2, 3, 12.0, -1, 50, 51, 0.65, 1.5, 2**31 - 1, 2**31, 1e300]
STRINGS = ["", " ", "\u3000", "a", "نص", "\x00", "x" * MAX_CHARS, "x" * (MAX_CHARS + 1), "true"]
CHOICES = ["1", "*", "MSA", "msa", "nested", "flat", "full", "root", "all", "tahqiq", "curras", "other"]
EDGES = st.sampled_from([None, True, False, [], {}, *NUMBERS, *STRINGS, *CHOICES])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=15),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
FIELDS = [(operation, f.name) for operation, fields in OPERATIONS.items() for f in fields]


def reader_accepts(operation: str, body: dict[str, Any]) -> bool:
    params = Params(body, False, OPERATION_FIELDS[operation])
    params.read(operation, max_chars=MAX_CHARS, more_choices=CORPORA)
    return not params.errors


@given(st.sampled_from(FIELDS), EDGES | JSON_VALUES)
def test_a_body_is_valid_exactly_when_the_service_accepts_it(field: tuple[str, str], value: Any) -> None:
    operation, name = field
    body = {"text": "نص"} if name != "text" else {}
    body[name] = value
    assert VALIDATORS[operation].is_valid(body) == reader_accepts(operation, body), body


@given(st.sampled_from(list(OPERATIONS)), st.dictionaries(st.text(max_size=12), EDGES, max_size=4))
def test_any_set_of_parameters(operation: str, body: dict[str, Any]) -> None:
    """Unknown parameters, missing required ones, several at once."""
    assert VALIDATORS[operation].is_valid(body) == reader_accepts(operation, body), body


@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_get_and_post_describe_the_same_parameters(operation: str) -> None:
    ops = openapi.part(MAX_CHARS, CORPORA).paths
    path = next(path for path, (op, _summary, _answer) in openapi.ROUTES.items() if op == operation)
    described = {p["name"] for p in ops[path]["get"]["parameters"]}
    body = ops[path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert described == set(body["properties"]) == OPERATION_FIELDS[operation]
    required = {p["name"] for p in ops[path]["get"]["parameters"] if p["required"]}
    assert required == set(body["required"]) == {f.name for f in OPERATIONS[operation] if f.required}
