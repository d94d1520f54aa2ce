"""The one parser of JSON object bodies (`tahqiq.json_body`): what orjson reads but the canonical-JSON kernel refuses
(a key twice in one object, nesting deeper than the kernel's 128 levels) is a problem that says what and where,
never an exception; the Python scan that says where agrees with the kernel on every drawn text.
The same bodies over HTTP, route by route: tests/access/test_bad_input.py."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from tahqiq.core import canonical_json, fingerprint
from tahqiq.json_body import MAX_DEPTH, json_object, json_object_and_fingerprint, scan_shape
from tahqiq.problems import Problem

from tests.support.json_strategies import json_texts, submission_texts


def nested(levels: int, inner: bytes = b"1") -> bytes:
    """`inner` inside `levels` objects."""
    return b'{"a":' * levels + inner + b"}" * levels


def kernel_refuses(body: bytes) -> str | None:
    try:
        canonical_json(body)
    except ValueError as exc:
        return str(exc)
    return None


def refusal(body: bytes, slug: str = "invalid-submission") -> Problem:
    with pytest.raises(Problem) as raised:
        json_object(body, slug)
    assert raised.value.type.slug == slug
    return raised.value


def test_the_limit_is_the_kernels() -> None:
    """128 levels, counting the body, pass both; 129 fail both, for arrays and objects alike."""
    assert MAX_DEPTH == 128
    for levels, inner in ((MAX_DEPTH, b"1"), (MAX_DEPTH - 1, b"[]"), (MAX_DEPTH - 1, b"{}")):
        body = nested(levels, inner)
        assert kernel_refuses(body) is None
        json_object(body, "validation-error")
    for body in (nested(MAX_DEPTH + 1), nested(MAX_DEPTH, b"[]"), b"[" * 129 + b"]" * 129):
        assert kernel_refuses(body) is not None and "deeper than 128" in str(kernel_refuses(body))
        with pytest.raises(Problem):
            json_object(b'{"x":' + body + b"}", "validation-error")


@pytest.mark.parametrize(
    ("body", "where", "says"),
    [
        (
            b'{"work_type":"w","work_type":"v","results":[{"text":"t"}]}',
            "body",
            'the body has the key "work_type" twice',
        ),
        (
            b'{"work_type":"w","results":[{"text":"t","text":"u"}]}',
            "results[0]",
            'the object at results[0] has the key "text" twice',
        ),
        (  # the same key spelt with an escape
            b'{"work_type":"w","results":[{"text":"t"},{"claim_id":1,"\\u0063laim_id":2}]}',
            "results[1]",
            'the object at results[1] has the key "claim_id" twice',
        ),
        (
            b'{"work_type":"w","results":[{"text":"t"}],"metadata":{"a":{"k":1,"k":2,"k":3}}}',
            "metadata.a",
            'the object at metadata.a has the key "k" 3 times',
        ),
        (
            b'{"work_type":"w","results":[{"text":"t"}],"metadata":' + nested(MAX_DEPTH) + b"}",
            "metadata",
            "nests arrays and objects 129 levels deep, in metadata; the limit is 128",
        ),
        (
            b'{"work_type":"w","results":[{"text":"t","note":' + nested(200) + b"}]}",
            "results[0]",
            "nests arrays and objects 203 levels deep, in results[0]; the limit is 128",
        ),
        (  # beyond orjson's own limit (1024): the same problem, not "not valid JSON"
            b'{"work_type":"w","results":[{"text":"t"}],"metadata":' + nested(3000) + b"}",
            "metadata",
            "nests arrays and objects more than 1024 levels deep, in metadata",
        ),
    ],
)
def test_problems_say_what_and_where(body: bytes, where: str, says: str) -> None:
    assert kernel_refuses(body) is not None
    problem = refusal(body)
    assert problem.status == 400
    assert says in problem.detail, problem.detail
    assert problem.errors is not None and list(problem.errors) == [where], problem.errors
    with pytest.raises(Problem) as raised:
        json_object_and_fingerprint(body, "POST /x", "invalid-submission")
    assert raised.value.detail == problem.detail


def test_both_shapes_at_once_are_both_named() -> None:
    body = b'{"a":1,"a":2,"deep":' + nested(130) + b"}"
    problem = refusal(body, "validation-error")
    assert problem.status == 422 and "(and 1 more)" in problem.detail
    assert problem.errors is not None and set(problem.errors) == {"deep", "body"}


def test_other_refusals_keep_their_words() -> None:
    for body, says in ((b"[1]", "got a JSON array"), (b"null", "got a JSON null"), (b"{", "not valid JSON")):
        problem = refusal(body, "validation-error")
        assert problem.errors is not None and says in problem.errors["body"][0]
    assert json_object(b" ", "validation-error", empty_ok=True) == {}


def test_a_good_body_parses_as_orjson_does_and_fingerprints_as_the_kernel_does() -> None:
    body = b'{"work_type": "w", "results": [{"text": "t"}], "metadata": {"b": 1, "a": [2]}}'
    value, fp = json_object_and_fingerprint(body, "POST /p", "invalid-submission")
    assert value == orjson.loads(body) == json_object(body, "invalid-submission")
    assert fp == fingerprint(body, context="POST /p")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_texts | submission_texts())
def test_the_scan_and_the_kernel_agree(text: str) -> None:
    """The scan finds a repeated key or nesting beyond MAX_DEPTH exactly when the kernel refuses the text (every
    drawn text is JSON but for those two shapes), and the parser answers every text with a value or a Problem."""
    body = text.encode()
    refused = kernel_refuses(body)
    shape = scan_shape(body)
    assert (shape.too_deep_at is not None or bool(shape.repeated)) == (refused is not None), (refused, text[:300])
    if refused is not None and "deeper than" in refused:
        assert shape.too_deep_at is not None and shape.depth > MAX_DEPTH
    if refused is not None and "duplicate object key" in refused:
        assert shape.repeated
    try:
        value = json_object(body, "validation-error")
    except Problem as problem:
        assert problem.status == 422 and problem.errors
        if refused is not None and text.startswith("{"):  # an object: the answer names the shape
            assert any(word in problem.detail for word in ("twice", "times", "levels deep")), problem.detail
    else:
        assert refused is None and value == orjson.loads(body)
