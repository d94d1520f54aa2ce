"""The Area A description states what the server checks (issue 18): each role's submission path carries its role's
result item shape, and a body is valid for that path's schema exactly when the server's own check of a submission
(`tahqiq.access.service.parse_submission`) accepts it, for every drawn body; the status route names its parameter
submission_id. Validated with jsonschema_rs, as schemathesis validates. The document against the live service:
tests/access/test_openapi_live.py."""

from __future__ import annotations

import json
import sys
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tahqiq.access.openapi import openapi_document
from tahqiq.access.roles import ROLES
from tahqiq.access.service import parse_submission
from tahqiq.openapi import PYTHON_SPACE
from tahqiq.problems import Problem

DOC = openapi_document("1.0.0")
SUBMISSIONS = "/agents/access-core/submissions"


def body_validator(role: str) -> Any:
    """The validator of the request body of POST submissions/{role}, its references resolved in the document."""
    schema = DOC["paths"][f"{SUBMISSIONS}/{role}"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return jsonschema_rs.validator_for({**schema, "components": DOC["components"]})


def server_accepts(role: str, body: dict[str, Any]) -> bool:
    try:
        parse_submission(role, f"{SUBMISSIONS}/{role}", json.dumps(body).encode())  # orjson: 64-bit integers only
    except Problem:
        return False
    return True


MINIMAL_ITEMS = {
    "claim_splitter": {"text": "t"},
    "evidence_seeker": {"claim_id": 1},
    "methodology_critic": {"claim_id": 1},
    "judge": {"claim_id": 1, "verdict": "v"},
}


def test_the_status_route_names_a_submission_id() -> None:
    status = DOC["paths"][SUBMISSIONS + "/{submission_id}"]["get"]
    assert [p["name"] for p in status["parameters"] if p["in"] == "path"] == ["submission_id"]
    assert SUBMISSIONS + "/{role_id}" not in DOC["paths"]


@pytest.mark.parametrize("role", ROLES)
def test_each_role_path_takes_its_items_and_refuses_an_empty_one(role: str) -> None:
    validator = body_validator(role)
    operation = DOC["paths"][f"{SUBMISSIONS}/{role}"]["post"]
    name = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    for example in DOC["components"]["schemas"][name]["examples"]:
        assert validator.is_valid(example) and server_accepts(role, example), example
    minimal = {"work_type": "w", "results": [MINIMAL_ITEMS[role]]}
    assert validator.is_valid(minimal) and server_accepts(role, minimal)
    empty = {"work_type": "w", "results": [{}]}  # what schemathesis drew when any object was an item
    assert not validator.is_valid(empty) and not server_accepts(role, empty)
    for other, item in MINIMAL_ITEMS.items():
        body = {"work_type": "w", "results": [item]}
        assert validator.is_valid(body) == server_accepts(role, body), (role, other)


def test_blank_means_what_python_strip_means() -> None:
    """PYTHON_SPACE is exactly the white space of str.strip(), which the server uses to call a string blank."""
    space = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
    validator = jsonschema_rs.validator_for({"type": "string", "pattern": f"^[{PYTHON_SPACE}]+$"})
    assert validator.is_valid(space)
    for c in range(0x3100):
        if not 0xD800 <= c < 0xE000:
            assert validator.is_valid(chr(c)) == chr(c).isspace(), hex(c)


# Values around every rule the server applies to a submission (type, blank, NUL, length, range), in the places the
# rules apply, each right three times in four so that whole bodies are often valid; integral floats for claim_id are
# left out: JSON Schema cannot tell 1.0 from 1 (the description says so).
edge_strings = st.sampled_from(
    ["", " ", "\t\n", "\x1c", "\x85", "\u3000", "\ufeff", "\u200b", "a", " a ", "\x00", "a\x00", "a\n"]
)
strings = edge_strings | st.text(max_size=6)
other_values = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.lists(st.integers(), max_size=2)
)
extra = st.dictionaries(st.sampled_from(["note", "source", "score"]), st.integers() | st.text(alphabet="ab "))
CLAIM_IDS = st.integers(1, 2**63 - 1) | st.sampled_from([1, 2**63 - 1])
WRONG_CLAIM_IDS = st.sampled_from([0, -1, 2**63, 2**64, True, None, "1", 1.5, [1]]) | st.integers(max_value=0)
WORK_TYPES = st.sampled_from(["w" * 200, " " * 199 + "w", "\u200bw"]) | strings


def mostly(right: st.SearchStrategy[Any], wrong: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.integers(0, 3).flatmap(lambda n: wrong if n == 0 else right)


@st.composite
def items(draw: st.DrawFn, role: str) -> Any:
    """An item of `role`'s shape, mostly; sometimes another role's, or not an object."""
    if draw(st.integers(0, 9)) == 0:
        return draw(strings | other_values)
    item: dict[str, Any] = draw(extra)
    needs = draw(mostly(st.just(role), st.sampled_from(ROLES)))
    fields = {"claim_splitter": ["text"], "judge": ["claim_id", "verdict"]}.get(needs, ["claim_id"])
    for name in fields:
        if draw(st.integers(0, 9)):
            right = CLAIM_IDS if name == "claim_id" else strings
            item[name] = draw(mostly(right, WRONG_CLAIM_IDS if name == "claim_id" else other_values))
    return item


@st.composite
def bodies(draw: st.DrawFn, role: str) -> Any:
    body: dict[str, Any] = draw(extra)
    if draw(st.integers(0, 9)):
        body["work_type"] = draw(mostly(WORK_TYPES, other_values | st.just("w" * 201)))
    if draw(st.integers(0, 9)):
        body["results"] = draw(mostly(st.lists(items(role), min_size=1, max_size=3), other_values | st.just([])))
    if draw(st.booleans()):
        metadata = st.dictionaries(st.text(alphabet="ab", max_size=2), st.integers())
        body["metadata"] = draw(mostly(metadata, strings | other_values))
    return body


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), role=st.sampled_from(ROLES))
def test_the_schema_of_each_role_path_is_the_servers_check(data: st.DataObject, role: str) -> None:
    """Valid for the path's schema exactly when the server accepts it (claims are not looked up here: claim 1 is
    as good as any; whether a claim exists is the one rule the description leaves to words)."""
    body = data.draw(bodies(role))
    assert body_validator(role).is_valid(body) == server_accepts(role, body), (role, body)


def test_a_nul_in_an_items_other_field_is_refused_by_both() -> None:
    """Found by the property above in CI: a judge's verdict holding NUL, sent in an evidence seeker's item, which the
    server refuses (NUL anywhere) and the schema once let through."""
    for role in ROLES:
        body = {"work_type": "w", "results": [{**MINIMAL_ITEMS[role], "note": "a\x00"}]}
        assert not body_validator(role).is_valid(body) and not server_accepts(role, body)
        fine = {"work_type": "w", "results": [{**MINIMAL_ITEMS[role], "note": "a", "score": 3}]}
        assert body_validator(role).is_valid(fine) and server_accepts(role, fine)


def test_a_body_of_many_wrong_items_gets_a_short_answer() -> None:
    """The 400 describes the first MAX_ITEM_ERRORS wrong items and counts the rest (a megabyte of `{}` items gave a
    32 MB problem document)."""
    from tahqiq.access.service import MAX_ITEM_ERRORS

    body = json.dumps({"work_type": "split", "results": [{}] * 50_000}).encode()
    with pytest.raises(Problem) as refused:
        parse_submission("claim_splitter", f"{SUBMISSIONS}/claim_splitter", body)
    errors = refused.value.errors
    assert errors is not None
    described = [k for k in errors if k.startswith("results[")]
    assert len(described) == MAX_ITEM_ERRORS
    assert errors["results"] == [f"50000 items are wrong; the first {MAX_ITEM_ERRORS} are described"]
    assert len(json.dumps(errors)) < 10_000
