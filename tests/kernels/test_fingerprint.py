"""RFC 8785 canonical JSON and the idempotency fingerprint (`tahqiq.core.canonical_json`, `fingerprint`)."""

from __future__ import annotations

import hashlib
import json
import random
import re
import struct
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tahqiq.core import canonical_json, fingerprint

from tests.support import reference_jcs
from tests.support.json_strategies import json_values

# --- RFC 8785 examples -------------------------------------------------------------------------------------

RFC_SAMPLE_IN = rb"""{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}"""
RFC_SAMPLE_OUT = (
    '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
    '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
).encode()


def test_rfc8785_sample() -> None:
    assert canonical_json(RFC_SAMPLE_IN) == RFC_SAMPLE_OUT
    assert reference_jcs.canonical_json(RFC_SAMPLE_IN) == RFC_SAMPLE_OUT


def test_rfc8785_sorting_by_utf16_code_units() -> None:
    body = (
        rb'{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh",'
        rb'"1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control",'
        rb'"\u00f6":"Latin Small Letter O With Diaeresis"}'
    )
    keys = list(json.loads(canonical_json(body)))
    assert keys == ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001f600", "\ufb33"]
    # Code-point (or UTF-8 byte) order would put U+FB33 before U+1F600.
    assert sorted(keys) != keys


# RFC 8785 Appendix B: IEEE-754 bit pattern -> canonical text.
APPENDIX_B = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize(("bits", "expected"), APPENDIX_B)
def test_appendix_b_numbers(bits: str, expected: str) -> None:
    value = struct.unpack(">d", bytes.fromhex(bits))[0]
    assert reference_jcs.es_number(value) == expected
    assert canonical_json(repr(value).encode()) == expected.encode()
    assert canonical_json(f"[{value!r}]".encode()) == f"[{expected}]".encode()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"-0", b"0"),
        (b"-0.0", b"0"),
        (b"1e21", b"1e+21"),
        (b"1E+21", b"1e+21"),
        (b"1e20", b"100000000000000000000"),
        (b"1e-7", b"1e-7"),
        (b"0.0000001", b"1e-7"),
        (b"4.50", b"4.5"),
        (b"2e-3", b"0.002"),
        (b"1.0", b"1"),
        (b"9007199254740993", b"9007199254740992"),
        (b"1e-400", b"0"),  # underflow is accepted and becomes 0
        (b'"\\u2028\\u007f\\/"', '"\u2028\x7f/"'.encode()),
        (b'"\\u001F\\u0000\\u0008"', b'"\\u001f\\u0000\\b"'),
        (b'"\\uD83D\\uDE00"', '"\U0001f600"'.encode()),
        (b' \t\r\n{ "b" : [ 1 , 2 ] , "a" : { } }\n', b'{"a":{},"b":[1,2]}'),
    ],
)
def test_canonical_examples(body: bytes, expected: bytes) -> None:
    assert canonical_json(body) == expected


# --- Properties -------------------------------------------------------------------------------------------


def dumps_variants(value: Any, rnd: random.Random) -> list[bytes]:
    """The same JSON value spelled differently: white space, escaping, key order."""
    return [
        json.dumps(value).encode(),
        json.dumps(value, ensure_ascii=False).encode(),
        json.dumps(value, indent=2).encode(),
        json.dumps(value, indent="\t", ensure_ascii=False, separators=(" ,", " : ")).encode(),
        json.dumps(shuffle_keys(value, rnd), separators=(",", ":")).encode(),
        b"\r\n " + json.dumps(shuffle_keys(value, rnd), ensure_ascii=False).encode() + b" \n",
    ]


def as_doubles(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, dict):
        return {k: as_doubles(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_doubles(v) for v in value]
    return value


def shuffle_keys(value: Any, rnd: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return {k: shuffle_keys(v, rnd) for k, v in items}
    if isinstance(value, list):
        return [shuffle_keys(v, rnd) for v in value]
    return value


@settings(max_examples=300)
@given(json_values, st.randoms(use_true_random=False))
def test_canonical_properties(value: Any, rnd: random.Random) -> None:
    variants = dumps_variants(value, rnd)
    canonical = canonical_json(variants[0])
    # Equals the independent pure-Python twin.
    assert canonical == reference_jcs.canonical_text(value).encode()
    # Parses back to an equal value (as I-JSON numbers, i.e. doubles).
    assert json.loads(canonical, parse_int=float) == as_doubles(value)
    # Is itself canonical.
    assert canonical_json(canonical) == canonical
    # Spelling, white space and key order do not matter.
    for body in variants:
        assert canonical_json(body) == canonical, body


@settings(max_examples=200)
@given(json_values, st.text(max_size=40), st.randoms(use_true_random=False))
def test_fingerprint_is_sha256_of_context_nul_canonical(value: Any, context: str, rnd: random.Random) -> None:
    body = json.dumps(value).encode()
    expected = hashlib.sha256(context.encode() + b"\0" + canonical_json(body)).hexdigest()
    assert fingerprint(body, context=context) == expected
    for variant in dumps_variants(value, rnd):
        assert fingerprint(variant, context=context) == expected
    if not context:
        assert fingerprint(body) == expected


@settings(max_examples=200)
@given(json_values, json_values)
def test_fingerprint_differs_when_a_value_changes(a: Any, b: Any) -> None:
    body_a = json.dumps({"k": [1, a]}).encode()
    body_b = json.dumps({"k": [1, b]}).encode()
    same = reference_jcs.canonical_text(a) == reference_jcs.canonical_text(b)
    assert (fingerprint(body_a) == fingerprint(body_b)) == same


def test_fingerprint_separates_contexts() -> None:
    body = b'{"claim": "\xd8\xa7\xd9\x84\xd8\xae\xd8\xa8\xd8\xb1", "score": 0.5}'
    post = fingerprint(body, context="POST /agents/access-core/submissions/judge")
    assert post != fingerprint(body, context="POST /agents/access-core/submissions/other")
    assert post != fingerprint(body)
    # The zero byte keeps the context from running into the body.
    assert fingerprint(b"1", context="a") != fingerprint(b"1", context="a1")
    assert re.fullmatch("[0-9a-f]{64}", post)


def test_accepts_byte_buffers_and_rejects_str() -> None:
    body = b'{"b": 1, "a": [true]}'
    expected = b'{"a":[true],"b":1}'
    assert canonical_json(bytearray(body)) == expected
    assert canonical_json(memoryview(body)) == expected
    assert canonical_json(memoryview(b"xx" + body)[2:]) == expected
    assert fingerprint(bytearray(body)) == fingerprint(body)
    with pytest.raises(TypeError):
        canonical_json(body.decode())  # type: ignore[arg-type]


def test_large_input_released_gil_path_and_threads() -> None:
    items = [{"id": i, "text": "\u0627\u0644\u062e\u0628\u0631 " * 3, "score": i / 7} for i in range(3000)]
    body = json.dumps({"z": items, "a": "x"}).encode()
    assert len(body) > 64 * 1024
    expected = reference_jcs.canonical_text(json.loads(body)).encode()
    assert canonical_json(body) == expected
    results: list[bytes] = []
    threads = [threading.Thread(target=lambda: results.append(canonical_json(body))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


def test_depth_limit() -> None:
    ok = b"[" * 128 + b"]" * 128
    assert canonical_json(ok) == ok
    ok_obj = b'{"a":' * 128 + b"1" + b"}" * 128
    assert canonical_json(ok_obj) == ok_obj
    with pytest.raises(ValueError, match=r"at byte 128: .*deeper than 128"):
        canonical_json(b"[" * 129 + b"]" * 129)
    with pytest.raises(ValueError, match=r"at byte 640: .*deeper than 128"):
        canonical_json(b'{"a":' * 129 + b"1" + b"}" * 129)


# --- Errors ------------------------------------------------------------------------------------------------

ERRORS = [
    # (body, byte position, fragment of the message)
    (b"", 0, "unexpected end of input"),
    (b'{"a":1,}', 7, "expected a string key"),
    (b"[1,2,]", 5, "expected a JSON value"),
    (b'{"a":1 "b":2}', 7, "expected ',' or '}'"),
    (b'{"a" 1}', 5, "expected ':'"),
    (b"[1 2]", 3, "expected ',' or ']'"),
    (b"[01]", 2, "leading zeros"),
    (b"-00", 2, "leading zeros"),
    (b"1.", 2, "digit after '.'"),
    (b"1e+", 3, "digit in the exponent"),
    (b"NaN", 0, "expected a JSON value"),
    (b"[Infinity]", 1, "expected a JSON value"),
    (b"[-Infinity]", 2, "expected a digit"),
    (b"[1] // comment", 4, "unexpected data after the JSON value"),
    (b"/* c */ 1", 0, "expected a JSON value"),
    (b"{} {}", 3, "unexpected data after the JSON value"),
    (b"\xa01", 0, "expected a JSON value"),  # no-break space is not JSON white space
    (b"\x0b[]", 0, "expected a JSON value"),  # nor is vertical tab
    (b"\xef\xbb\xbf{}", 0, "byte order mark"),
    (b'["ok", "\xff"]', 8, "invalid UTF-8"),
    (b'"\xe2\x82"', 1, "invalid UTF-8"),
    (b'"\xed\xa0\x80"', 1, "invalid UTF-8"),  # UTF-8-encoded surrogate
    (b'"tab\there"', 4, "unescaped control character"),
    (b'"\\a"', 1, "invalid escape"),
    (b'"\\u00zz"', 5, "four hex digits"),
    (b'"x\\ud800"', 2, "lone surrogate"),
    (b'"\\udc00\\ud800"', 1, "lone surrogate"),
    (b'"\\ud83d\\u0041"', 1, "lone surrogate"),
    (b'"never closed', 13, "close the string"),
    (b"[1e400]", 1, "IEEE-754 double range"),
    (b"-1e309", 0, "IEEE-754 double range"),
    (b'{"a":1,"b":2,"a":3}', 13, "duplicate object key"),
    (b'{"a":1,"\\u0061":2}', 7, "duplicate object key"),
    (b'{"\\n":1,"\\u000a":2}', 8, "duplicate object key"),
    (b'[{"x":{"k":1,"k":2}}]', 13, "duplicate object key"),
    (b"tru", 3, "expected 'true'"),
]


@pytest.mark.parametrize(("body", "pos", "fragment"), ERRORS)
def test_errors_name_the_byte(body: bytes, pos: int, fragment: str) -> None:
    with pytest.raises(ValueError) as excinfo:
        canonical_json(body)
    message = str(excinfo.value)
    assert f"at byte {pos}:" in message
    assert fragment in message
    with pytest.raises(ValueError, match=f"at byte {pos}:"):
        fingerprint(body, context="ctx")


def test_duplicate_key_reports_second_occurrence_after_sorting() -> None:
    # Unsorted object whose duplicate is found only by the sort: earliest second occurrence wins.
    with pytest.raises(ValueError, match=r"at byte 13: duplicate object key \"b\""):
        canonical_json(b'{"b":1,"a":2,"b":3,"a":4}')
