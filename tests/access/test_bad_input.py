"""Bad input on a real server: every malformed request gets its documented status, a problem document that
says what to fix, and leaves nothing stored.

Statuses (decisions.md, README): 400 for an invalid submission payload or malformed JSON on submissions; 422 for
minting and verification parameters, malformed JSON there, idempotency keys and role paths that break the
pattern; 404 for a role that does not exist; 403 for another role; 413 for oversized bodies. A JSON body with a key
twice in one object, or nested deeper than 128 levels, is malformed JSON on every route that takes one.
"""

from __future__ import annotations

import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tahqiq.core import canonical_json

from tests.support.hardening_support import (
    FIRST_PARTY_APP_ID,
    MINT,
    VERIFY,
    Deployment,
    assert_problem,
    new_key,
    submit_path,
)
from tests.support.json_strategies import json_texts, submission_texts

MAX_BODY = 4096


@pytest.fixture(scope="module")
def dep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    env = {
        "TAHQIQ_MAX_BODY_BYTES": str(MAX_BODY),
        "TAHQIQ_AUTH_FAILURE_RATE": "1000/60s",
        # the drawn bodies below are many requests: they must meet the parser, not the rate limits
        "TAHQIQ_SUBMISSION_RATE": "100000/60s",
        "TAHQIQ_SUMMARIZE_RATE": "100000/60s",
    }
    with Deployment.sqlite(tmp_path_factory.mktemp("bad-input"), **env) as d:
        yield d


@pytest.fixture(scope="module")
def claim_id(dep: Deployment) -> int:
    """An existing claim (made by a claim_splitter submission and its processing)."""
    response = dep.submit("claim_splitter", {"work_type": "split", "results": [{"text": "الأرض مسطحة"}]})
    assert response.status_code == 202
    token = dep.token("evidence_seeker")
    for _ in range(200):
        claims = dep.get("/agents/access-core/claims/pending", headers={"X-Service-Agent-Identity": token}).json()
        if claims["data"]:
            return int(claims["data"][0]["claim_id"])
        time.sleep(0.05)
    raise AssertionError("the claim was not created")


@pytest.fixture(scope="module")
def tokens(dep: Deployment) -> dict[str, str]:
    return {role: dep.token(role) for role in dep.api_keys}


# Minting -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "field"),
    [
        (b'{"ttl": 59}', "ttl"),
        (b'{"ttl": 3601}', "ttl"),
        (b'{"ttl": "900"}', "ttl"),
        (b'{"ttl": 900.5}', "ttl"),
        (b'{"ttl": true}', "ttl"),
        (b'{"ttl": null}', "ttl"),
        (b'{"ttl": -1}', "ttl"),
        (b'{"ttl": 1e400}', None),  # not representable: malformed JSON for orjson
        (b'{"ttl": 99999999999999999999999}', "ttl"),
        (b'{"audience": "not-a-uuid"}', "audience"),
        (b'{"audience": 12}', "audience"),
        (b'{"audience": null}', "audience"),
        (b'{"audience": "6f1c2a3e0b7d4c1e9a517a61d2f0c0de"}', "audience"),  # hex without hyphens
        (b'{"audience": "{6f1c2a3e-0b7d-4c1e-9a51-7a61d2f0c0de}"}', "audience"),
        (b'{"audience": "x", "ttl": 1}', "audience"),
        (b"[]", None),
        (b'"ttl"', None),
        (b"null", None),
        (b"{", None),
        (b"{'ttl': 900}", None),
        (b"\xff\xfe{}", None),
        (b'{"ttl": 900,}', None),
    ],
)
def test_mint_bad_parameters(dep: Deployment, content: bytes, field: str | None) -> None:
    response = dep.post(MINT, content=content, headers={"Authorization": f"Bearer {dep.api_keys['judge']}"})
    doc = assert_problem(response, 422, MINT, error_code="VALIDATION_ERROR")
    if field is not None:
        assert field in doc["errors"], doc
        assert field in doc["detail"]
    else:
        assert "JSON" in doc["detail"], doc


def test_mint_good_parameters(dep: Deployment) -> None:
    """The edges of the range and an empty body are accepted (the test above is not refusing everything)."""
    for content in (b'{"ttl": 60}', b'{"ttl": 3600}', b"", b"{}", b'{"ttl": 900, "extra": 1}', b'{"ttl": 900.0}'):
        response = dep.post(MINT, content=content, headers={"Authorization": f"Bearer {dep.api_keys['judge']}"})
        assert response.status_code == 201, (content, response.text)


# Verification --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "field"),
    [
        (b"", None),
        (b"{}", "token"),
        (b'{"token": ""}', "token"),
        (b'{"token": 5}', "token"),
        (b'{"token": null}', "token"),
        (b'{"token": ["a"]}', "token"),
        (b'{"token": "x", "audience": "nope"}', "audience"),
        (b'{"token": "x", "audience": 1}', "audience"),
        (b"[]", None),
        (b"not json", None),
        (b'{"token": "\\ud800"}', None),
    ],
)
def test_verify_bad_body(dep: Deployment, content: bytes, field: str | None) -> None:
    response = dep.post(VERIFY, content=content, headers={**dep.app_headers(), "Content-Type": "application/json"})
    doc = assert_problem(response, 422, VERIFY, error_code="VALIDATION_ERROR")
    if field is not None:
        assert field in doc["errors"]


# Submissions: role path, idempotency key -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path_role", "status", "code"),
    [
        ("Judge", 422, "VALIDATION_ERROR"),
        ("judge-1", 422, "VALIDATION_ERROR"),
        ("judge1", 422, "VALIDATION_ERROR"),
        ("auditor", 404, "NOT_FOUND"),
        ("claim_splitter", 403, "FORBIDDEN"),
        ("evidence_seeker", 403, "FORBIDDEN"),
    ],
)
def test_role_path(
    dep: Deployment, tokens: dict[str, str], claim_id: int, path_role: str, status: int, code: str
) -> None:
    before = dep.counts()
    body = {"work_type": "v", "results": [{"claim_id": claim_id, "verdict": "false"}]}
    response = dep.submit("judge", body, token=tokens["judge"], path_role=path_role)
    doc = assert_problem(response, status, submit_path(path_role), error_code=code)
    if status == 422:
        assert "role_id" in doc["errors"]
    assert "X-RateLimit-Remaining" in response.headers
    assert dep.counts() == before


@pytest.mark.parametrize(
    "key",
    [
        None,
        "",
        "garbage",
        # fixed values, not fresh uuids: the ids of parametrized tests must be the same in every collecting process
        "4b8fe1d6-eb51-11f1-a40b-02fc00000001",  # version 1
        str(uuid.uuid3(uuid.NAMESPACE_DNS, "x")),
        str(uuid.uuid5(uuid.NAMESPACE_DNS, "x")),
        "00000000-0000-0000-0000-000000000000",
        "d313f82614f34e9cadd7194e6294d913",  # a v4 without hyphens
        "{e34007e-a511-48b0-8f44-b7d1a8254e8}",
        "----d1e9e760606e4e7ea71978c160d2d3ea",  # 36 characters, hyphens in the wrong places
        "6a7f5451-0236-4060-b5f9-71052f66a0180",  # one character too many
    ],
)
def test_idempotency_key(dep: Deployment, tokens: dict[str, str], key: str | None) -> None:
    before = dep.counts()
    body = {"work_type": "split", "results": [{"text": "a claim"}]}
    response = dep.submit("claim_splitter", body, token=tokens["claim_splitter"], key=key)
    doc = assert_problem(response, 422, submit_path("claim_splitter"), error_code="VALIDATION_ERROR")
    assert "Idempotency-Key" in doc["errors"]
    assert "UUID v4" in doc["detail"]
    assert dep.counts() == before


def test_idempotency_key_uppercase_v4_is_accepted(dep: Deployment, tokens: dict[str, str]) -> None:
    body = {"work_type": "split", "results": [{"text": "a claim"}]}
    response = dep.submit("claim_splitter", body, token=tokens["claim_splitter"], key=str(uuid.uuid4()).upper())
    assert response.status_code == 202, response.text


# Submissions: payloads --------------------------------------------------------------------------------------

SPLIT = "claim_splitter"


def bad_payloads(claim_id: int) -> list[tuple[str, Any, list[str]]]:
    """(role, body, fields named in `errors`): a JSON body that is well-formed but not a valid submission."""
    missing = 9_000_000
    return [
        (SPLIT, {}, ["work_type", "results"]),
        (SPLIT, {"results": [{"text": "t"}]}, ["work_type"]),
        (SPLIT, {"work_type": "w"}, ["results"]),
        (SPLIT, {"work_type": "w", "results": []}, ["results"]),
        (SPLIT, {"work_type": "w", "results": {"text": "t"}}, ["results"]),
        (SPLIT, {"work_type": "w", "results": "t"}, ["results"]),
        (SPLIT, {"work_type": 5, "results": [{"text": "t"}]}, ["work_type"]),
        (SPLIT, {"work_type": "", "results": [{"text": "t"}]}, ["work_type"]),
        (SPLIT, {"work_type": "   ", "results": [{"text": "t"}]}, ["work_type"]),
        (SPLIT, {"work_type": "w" * 201, "results": [{"text": "t"}]}, ["work_type"]),
        (SPLIT, {"work_type": None, "results": None}, ["work_type", "results"]),
        (SPLIT, {"work_type": "w", "results": [{"text": "t"}], "metadata": []}, ["metadata"]),
        (SPLIT, {"work_type": "w", "results": [{"text": "t"}], "metadata": "m"}, ["metadata"]),
        (SPLIT, {"work_type": "w", "results": [{"text": "t"}], "metadata": None}, ["metadata"]),
        (SPLIT, {"work_type": "w", "results": [{"text": "ok"}, {"text": ""}]}, ["results[1].text"]),
        (SPLIT, {"work_type": "w", "results": [{"text": "ok"}, {"txt": "x"}]}, ["results[1].text"]),
        (SPLIT, {"work_type": "w", "results": [{"text": 5}]}, ["results[0].text"]),
        (SPLIT, {"work_type": "w", "results": ["t"]}, ["results[0]"]),
        (SPLIT, {"work_type": "w", "results": [{"text": "ok"}, None, [1]]}, ["results[1]", "results[2]"]),
        ("evidence_seeker", {"work_type": "w", "results": [{"claim_id": "1"}]}, ["results[0].claim_id"]),
        ("evidence_seeker", {"work_type": "w", "results": [{"claim_id": 1.5}]}, ["results[0].claim_id"]),
        ("evidence_seeker", {"work_type": "w", "results": [{"claim_id": True}]}, ["results[0].claim_id"]),
        ("evidence_seeker", {"work_type": "w", "results": [{"claim_id": 0}]}, ["results[0].claim_id"]),
        ("evidence_seeker", {"work_type": "w", "results": [{"claim_id": -3}]}, ["results[0].claim_id"]),
        ("evidence_seeker", {"work_type": "w", "results": [{"claim_id": 2**63}]}, ["results[0].claim_id"]),
        ("evidence_seeker", {"work_type": "w", "results": [{"evidence": "x"}]}, ["results[0].claim_id"]),
        (
            "evidence_seeker",
            {"work_type": "w", "results": [{"claim_id": claim_id}, {"claim_id": missing}]},
            ["results[1].claim_id"],
        ),
        ("methodology_critic", {"work_type": "w", "results": [{"claim_id": missing}]}, ["results[0].claim_id"]),
        ("methodology_critic", {"work_type": "w", "results": [{"critique": 1}]}, ["results[0].claim_id"]),
        ("judge", {"work_type": "w", "results": [{"claim_id": claim_id}]}, ["results[0].verdict"]),
        ("judge", {"work_type": "w", "results": [{"claim_id": claim_id, "verdict": ""}]}, ["results[0].verdict"]),
        ("judge", {"work_type": "w", "results": [{"claim_id": claim_id, "verdict": 1}]}, ["results[0].verdict"]),
        ("judge", {"work_type": "w", "results": [{"verdict": "false"}]}, ["results[0].claim_id"]),
        (
            "judge",
            {
                "work_type": "w",
                "results": [{"claim_id": claim_id, "verdict": "x"}, {"claim_id": missing, "verdict": "y"}],
            },
            ["results[1].claim_id"],
        ),
    ]


def test_bad_payloads(dep: Deployment, tokens: dict[str, str], claim_id: int) -> None:
    before = dep.counts()
    for role, body, fields in bad_payloads(claim_id):
        response = dep.submit(role, body, token=tokens[role])
        doc = assert_problem(response, 400, submit_path(role), error_code="INVALID_SUBMISSION", errors=fields)
        first = fields[0]
        assert first in doc["detail"] or first.split("[")[0] in doc["detail"], (body, doc)
        assert "X-RateLimit-Limit" in response.headers
    assert dep.counts() == before


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"   ",
        b"{",
        b"not json",
        b"[]",
        b'[{"work_type": "w", "results": [{"text": "t"}]}]',
        b'"a string"',
        b"42",
        b"null",
        b'{"work_type": "w", "results": [{"text": "t"}],}',
        b'{"work_type": "w", "results": [{"text": "\\ud800"}]}',  # a lone surrogate
        b'{"work_type": "w", "results": [{"text": "\\udc00\\ud800"}]}',
        b'{"work_type": "w", "results": [{"text": "a\xff\xfeb"}]}',  # invalid UTF-8
        b'{"work_type": "w", "results": [{"text": "\xc0\xaf"}]}',  # overlong encoding
        b'{"work_type": "w", "results": [{"text": "a\x00b"}]}',  # raw NUL in a string
        b'{"work_type": "w", "results": [{"text": "t"}]} trailing',
        b'{"work_type": "w", "results": [{"text": NaN}]}',
    ],
)
def test_malformed_submission_json(dep: Deployment, tokens: dict[str, str], content: bytes) -> None:
    before = dep.counts()
    response = dep.submit(SPLIT, None, token=tokens[SPLIT], raw=content)
    doc = assert_problem(response, 400, submit_path(SPLIT), error_code="INVALID_SUBMISSION")
    assert "JSON" in doc["detail"], doc
    assert dep.counts() == before


@pytest.mark.parametrize(
    "text",
    [
        "a\u0000b",  # NUL, escaped in JSON: PostgreSQL cannot store it in text or jsonb
        "\u0000",
    ],
)
def test_nul_is_refused_everywhere(dep: Deployment, tokens: dict[str, str], text: str) -> None:
    """NUL is refused the same way by both stores (PostgreSQL cannot store it), with the field named."""
    check_nul(dep, tokens[SPLIT], text)


def check_nul(dep: Deployment, token: str, text: str) -> None:
    before = dep.counts()
    cases: list[tuple[dict[str, Any], str]] = [
        ({"work_type": "w", "results": [{"text": text}]}, "results[0].text"),
        ({"work_type": text, "results": [{"text": "t"}]}, "work_type"),
        ({"work_type": "w", "results": [{"text": "t", "note": {"deep": [text]}}]}, "results[0].note.deep[0]"),
        ({"work_type": "w", "results": [{"text": "t"}], "metadata": {text: 1}}, "metadata"),
    ]
    for body, field in cases:
        response = dep.submit(SPLIT, body, token=token)
        doc = assert_problem(response, 400, submit_path(SPLIT), error_code="INVALID_SUBMISSION", errors=[field])
        assert "NUL" in doc["detail"], doc
    assert dep.counts() == before


ODD_TEXT = [
    "\u200fالأرض\u200e مسطحة\u202e",  # RTL/LTR marks and an override
    "claim 🧪🏳️‍🌈 with 4-byte emoji 𝔘𝔫𝔦",
    "e\u0301 combining, \ufeff BOM, \u2028 line separator",
    "\U0010fffd private use plane 16",
]


def test_odd_unicode_is_kept_exactly(dep: Deployment, tokens: dict[str, str]) -> None:
    check_odd_unicode(dep, tokens)


def check_odd_unicode(dep: Deployment, tokens: dict[str, str]) -> None:
    for text in ODD_TEXT:
        body = {"work_type": "split 🧪\u200f", "results": [{"text": text, "extra": text}], "metadata": {text: text}}
        response = dep.submit(SPLIT, body, token=tokens[SPLIT])
        assert response.status_code == 202, response.text
        sub_id = response.json()["submission_id"]
        h = {"X-Service-Agent-Identity": tokens[SPLIT]}
        for _ in range(200):
            status = dep.get(f"/agents/access-core/submissions/{sub_id}", headers=h).json()["data"]
            if status["status"] != "accepted":
                break
            time.sleep(0.05)
        assert status["status"] == "processed", status
        assert status["work_type"] == "split 🧪\u200f"
    pending = dep.get(
        "/agents/access-core/claims/pending?limit=500", headers={"X-Service-Agent-Identity": tokens["evidence_seeker"]}
    ).json()["data"]
    texts = {c["text"] for c in pending}
    for text in ODD_TEXT:
        assert text in texts


def test_bad_unicode_in_headers(dep: Deployment, tokens: dict[str, str]) -> None:
    """Non-ASCII bytes in credentials and keys: the same 401/422 as any wrong value, never a 500."""
    body = b'{"work_type": "w", "results": [{"text": "t"}]}'
    bad = [
        ("x-service-agent-identity", "é".encode("latin-1") * 10, 401),
        ("idempotency-key", "é".encode("latin-1") * 36, 422),
        ("idempotency-key", "٠" * 8 + "-0000-4000-8000-" + "٠" * 12, 422),
    ]
    for name, value, status in bad:
        headers = {"content-type": b"application/json", "x-service-agent-identity": tokens[SPLIT].encode()}
        headers["idempotency-key"] = new_key().encode()
        headers[name] = value if isinstance(value, bytes) else value.encode()
        response = dep.post(submit_path(SPLIT), content=body, headers=headers)
        assert response.status_code == status, (name, response.text)
    response = dep.post(MINT, headers={"authorization": b"Bearer \xe9\xe9"})
    assert_problem(response, 401, MINT)


# Oversized bodies -------------------------------------------------------------------------------------------


def big_body() -> bytes:
    return b'{"work_type": "w", "results": [{"text": "' + b"x" * (MAX_BODY + 10) + b'"}]}'


def test_oversized_with_content_length(dep: Deployment, tokens: dict[str, str]) -> None:
    before = dep.counts()
    for path, headers in (
        (submit_path(SPLIT), {"X-Service-Agent-Identity": tokens[SPLIT], "Idempotency-Key": new_key()}),
        (MINT, {"Authorization": f"Bearer {dep.api_keys['judge']}"}),
        (VERIFY, dep.app_headers()),
    ):
        response = dep.post(path, content=big_body(), headers={**headers, "Content-Type": "application/json"})
        doc = assert_problem(response, 413, path, error_code="PAYLOAD_TOO_LARGE")
        assert str(MAX_BODY) in doc["detail"]
    assert dep.counts() == before


def test_oversized_chunked(dep: Deployment, tokens: dict[str, str]) -> None:
    before = dep.counts()
    payload = big_body()

    def chunks() -> Iterator[bytes]:
        for i in range(0, len(payload), 1000):
            yield payload[i : i + 1000]

    headers = {"X-Service-Agent-Identity": tokens[SPLIT], "Idempotency-Key": new_key()}
    response = dep.post(submit_path(SPLIT), content=chunks(), headers={**headers, "Content-Type": "application/json"})
    assert "content-length" not in response.request.headers
    assert response.request.headers["transfer-encoding"] == "chunked"
    assert_problem(response, 413, submit_path(SPLIT), error_code="PAYLOAD_TOO_LARGE")
    assert dep.counts() == before


def test_content_length_lies(dep: Deployment, tokens: dict[str, str]) -> None:
    """A declared length far over the limit is refused before the body arrives (raw socket, no body sent)."""
    host, port = "127.0.0.1", dep.server.port
    request = (
        f"POST {submit_path(SPLIT)} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"X-Service-Agent-Identity: {tokens[SPLIT]}\r\nIdempotency-Key: {new_key()}\r\n"
        f"Content-Length: {10 * 1024 * 1024 * 1024}\r\n\r\n"
    ).encode()
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(request)
        answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


# Queues and artifacts -------------------------------------------------------------------------------------


@pytest.mark.parametrize("limit", ["0", "501", "-1", "abc", "1.5", "99999", "1e2", "٣", "+5", " 5"])
def test_queue_limit(dep: Deployment, tokens: dict[str, str], limit: str) -> None:
    path = "/agents/access-core/claims/pending"
    response = dep.get(path, params={"limit": limit}, headers={"X-Service-Agent-Identity": tokens["evidence_seeker"]})
    assert_problem(response, 422, path, error_code="VALIDATION_ERROR", errors=["limit"])


def test_artifacts_bad_parameters(dep: Deployment, tokens: dict[str, str], claim_id: int) -> None:
    h = {"X-Service-Agent-Identity": tokens["judge"]}
    for claim, status in (("abc", 422), ("-1", 422), ("9" * 19, 422), ("0", 422), ("1" * 19, 404), ("9000000", 404)):
        path = f"/agents/access-core/claims/{claim}/artifacts"
        assert_problem(dep.get(path, headers=h), status, path)
    path = f"/agents/access-core/claims/{claim_id}/artifacts"
    assert_problem(dep.get(path, params={"role_id": "auditor"}, headers=h), 422, path, errors=["role_id"])
    assert_problem(dep.get(path, headers={"X-Service-Agent-Identity": tokens[SPLIT]}), 403, path)
    assert dep.get(path, headers=h).status_code == 200


def test_unknown_paths_and_methods(dep: Deployment) -> None:
    for method, path in (("GET", "/agents/nothing"), ("DELETE", MINT), ("GET", MINT), ("PUT", VERIFY)):
        response = dep.request(method, path)
        assert response.status_code in (404, 405), (method, path, response.status_code)
        assert response.headers["content-type"].startswith("application/problem+json")


# Repeated keys and deep nesting: JSON that orjson reads and the canonical-JSON kernel refuses ---------------------
# (issue 18) These gave 500 on submissions (the fingerprint's ValueError), and elsewhere the last value of a repeated
# key was silently taken. Every JSON body route now refuses both shapes, naming the place, before the store.

LIMIT = 128  # the kernel's MAX_DEPTH (rust/src/fingerprint.rs): levels of arrays and objects, the body being 1
ANALYSIS_POSTS = ("/ner", "/wsd", "/morph", "/re", "/dialect/corpus", "/dialect/corpus/glossary")
SUMMARIZE = "/api/ai/summarize"


def nested(levels: int) -> str:
    """A value that is `levels` objects deep."""
    return '{"a":' * levels + "1" + "}" * levels


def item_members(role: str, claim_id: int) -> str:
    """The members of a result item this role accepts, as JSON text."""
    return {
        "claim_splitter": '"text":"a claim"',
        "evidence_seeker": f'"claim_id":{claim_id}',
        "methodology_critic": f'"claim_id":{claim_id}',
        "judge": f'"claim_id":{claim_id},"verdict":"false"',
    }[role]


def refused_submissions(role: str, claim_id: int) -> list[tuple[str, str]]:
    """(body, the place `errors` names): each shape in each place a submission keeps JSON."""
    item = item_members(role, claim_id)
    first = item.split(",")[0]
    return [
        ('{"work_type":"w","work_type":"v","results":[{' + item + "}]}", "body"),
        ('{"work_type":"w","results":[{' + item + "," + first + "}]}", "results[0]"),
        ('{"work_type":"w","results":[{' + item + '}],"metadata":{"m":1,"\\u006d":2}}', "metadata"),
        ('{"work_type":"w","results":[{' + item + '}],"metadata":' + nested(LIMIT) + "}", "metadata"),
        ('{"work_type":"w","results":[{' + item + "},{" + item + ',"note":' + nested(LIMIT - 2) + "}]}", "results[1]"),
    ]


def assert_says_what(doc: dict[str, Any]) -> None:
    assert (
        "twice" in doc["detail"]
        or f"levels deep, in {next(iter(doc['errors']))}; the limit is {LIMIT}" in (doc["detail"])
    ), doc


@pytest.mark.parametrize("role", ["claim_splitter", "evidence_seeker", "methodology_critic", "judge"])
def test_submission_repeating_a_key_or_nesting_too_deep_is_400_and_stores_nothing(
    dep: Deployment, tokens: dict[str, str], claim_id: int, role: str
) -> None:
    check_repeated_and_deep(dep, tokens[role], role, claim_id)


def check_repeated_and_deep(dep: Deployment, token: str, role: str, claim_id: int) -> None:
    """Each refused body: 400 naming the place, nothing stored; then a good body with the same key is accepted
    (its metadata nested exactly to the limit)."""
    good = '{"work_type":"w","results":[{' + item_members(role, claim_id) + '}],"metadata":' + nested(LIMIT - 1) + "}"
    for body, where in refused_submissions(role, claim_id):
        key = new_key()
        before = dep.counts()
        response = dep.submit(role, None, token=token, key=key, raw=body.encode())
        doc = assert_problem(response, 400, submit_path(role), error_code="INVALID_SUBMISSION", errors=[where])
        assert_says_what(doc)
        assert "X-RateLimit-Limit" in response.headers
        assert dep.counts() == before, body
        retry = dep.submit(role, None, token=token, key=key, raw=good.encode())
        assert retry.status_code == 202, retry.text
        assert "Idempotent-Replayed" not in retry.headers


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ('{"ttl":900,"ttl":60}', "body"),
        ('{"audience":"' + FIRST_PARTY_APP_ID + '","ttl":900,"note":' + nested(LIMIT) + "}", "note"),
    ],
)
def test_mint_repeating_a_key_or_nesting_too_deep_is_422(dep: Deployment, body: str, where: str) -> None:
    response = dep.post(MINT, content=body.encode(), headers={"Authorization": f"Bearer {dep.api_keys['judge']}"})
    assert_says_what(assert_problem(response, 422, MINT, error_code="VALIDATION_ERROR", errors=[where]))


@pytest.mark.parametrize(
    ("body", "where"), [('{"token":"x","token":"y"}', "body"), ('{"token":"x","note":' + nested(LIMIT) + "}", "note")]
)
def test_verify_repeating_a_key_or_nesting_too_deep_is_422(dep: Deployment, body: str, where: str) -> None:
    response = dep.post(
        VERIFY, content=body.encode(), headers={**dep.app_headers(), "Content-Type": "application/json"}
    )
    assert_says_what(assert_problem(response, 422, VERIFY, error_code="VALIDATION_ERROR", errors=[where]))


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ('{"text":"Hello there.","text":"Hi."}', "body"),
        ('{"text":"Hello there.","length":' + nested(LIMIT) + "}", "length"),
    ],
)
def test_summarize_repeating_a_key_or_nesting_too_deep_is_422(dep: Deployment, body: str, where: str) -> None:
    response = dep.post(SUMMARIZE, content=body.encode(), headers={"Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    doc = response.json()
    assert doc["type"].endswith("/problems/validation-error") and "error_code" not in doc  # Area B's documents
    assert list(doc["errors"]) == [where]
    assert_says_what(doc)


@pytest.mark.parametrize("path", ANALYSIS_POSTS)
def test_analysis_repeating_a_key_or_nesting_too_deep_is_422(dep: Deployment, path: str) -> None:
    for body, where in (
        ('{"text":"ذهب الولد","text":"ذهب"}', "body"),
        ('{"text":' + nested(LIMIT) + "}", "text"),
    ):
        response = dep.post(path, content=body.encode(), headers={"Content-Type": "application/json"})
        assert_says_what(assert_problem(response, 422, path, error_code="VALIDATION_ERROR", errors=[where]))


def drawn_request(dep: Deployment, tokens: dict[str, str], route: str, role: str, body: bytes) -> httpx.Response:
    json_type = {"Content-Type": "application/json"}
    if route == "submit":
        return dep.submit(role, None, token=tokens[role], raw=body)
    headers = {
        MINT: {"Authorization": f"Bearer {dep.api_keys[role]}"},
        VERIFY: dep.app_headers(),
    }.get(route, {})
    return dep.post(route, content=body, headers={**json_type, **headers})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    route=st.sampled_from(["submit", MINT, VERIFY, SUMMARIZE, "/dialect/corpus/glossary"]),
    role=st.sampled_from(["claim_splitter", "evidence_seeker", "methodology_critic", "judge"]),
    text=json_texts | submission_texts(),
)
def test_drawn_bodies_never_get_a_5xx(
    dep: Deployment, tokens: dict[str, str], route: str, role: str, text: str
) -> None:
    """Drawn JSON texts, many repeating keys or nesting around the limits (128, orjson's 1024): never a 5xx; a
    JSON object the kernel refuses is the route's 400 or 422 problem naming the shape."""
    body = text.encode()
    response = drawn_request(dep, tokens, route, role, body)
    assert response.status_code < 500, (route, text[:300], response.text)
    try:
        canonical_json(body)
    except ValueError:
        if text.startswith("{") and response.status_code != 413:
            assert response.status_code == (400 if route == "submit" else 422), (route, text[:300], response.text)
            assert response.headers["content-type"].startswith("application/problem+json")
            assert any(word in response.json()["detail"] for word in ("twice", "times", "levels deep")), response.text


# PostgreSQL: the same answers for the inputs that differ between the stores ---------------------------------


def test_postgres_unicode_and_nul(pg_url: str, tmp_path: Path) -> None:
    with Deployment.postgres(pg_url, TAHQIQ_MAX_BODY_BYTES=str(MAX_BODY)) as d:
        toks = {role: d.token(role) for role in d.api_keys}
        for text in ("a\u0000b", "\u0000"):
            check_nul(d, toks[SPLIT], text)
        check_odd_unicode(d, toks)
        check_repeated_and_deep(d, toks[SPLIT], SPLIT, 0)
        before = d.counts()
        response = d.submit(SPLIT, None, token=toks[SPLIT], raw=b'{"work_type": "w", "results": [{"text": "\\ud800"}]}')
        assert_problem(response, 400, submit_path(SPLIT), error_code="INVALID_SUBMISSION")
        assert d.counts() == before
        d.server.stop()
        assert "Traceback" not in d.server.log()


def test_no_tracebacks_in_sqlite_server(dep: Deployment) -> None:
    """Whatever ran above (in this module's order) never made the server fail."""
    assert "Traceback" not in dep.server.log()
    assert " 500 " not in dep.server.log()
