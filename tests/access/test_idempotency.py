"""Idempotency of submissions over a real server, on both stores: one (agent, Idempotency-Key) is one submission.

Rows are counted in the database itself, not through the service.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest

from tests.support.e2e_support import BASE, STORES, Stack, identity, new_key, scalar, splitter_body, store_url, submit


@pytest.fixture(scope="module", params=STORES)
def stack(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    pg = request.getfixturevalue("pg_server_url") if request.param == "postgres" else None
    # A long window, so that no test straddles two windows and sees its counter reset.
    with (
        store_url(request.param, tmp_path_factory.mktemp("idem"), pg) as url,
        Stack(url, TAHQIQ_SUBMISSION_RATE="1000/3600s") as s,
    ):
        yield s


def stored(stack: Stack, agent_id: str) -> int:
    return int(scalar(stack.url, "SELECT count(*) FROM submissions WHERE agent_id = ?", agent_id))


def fresh_splitter(stack: Stack) -> tuple[str, str]:
    """A claim_splitter of its own (its own submissions and rate counter): (agent_id, token)."""
    agent = stack.create_agent("claim_splitter")
    return agent["agent_id"], str(stack.mint(agent["api_key"])["token"])


def assert_replay(r: httpx.Response, first: httpx.Response) -> None:
    assert r.status_code == 202, r.text
    assert r.headers["Idempotent-Replayed"] == "true"
    assert r.content == first.content


def test_fifty_concurrent_sends_store_one_submission(stack: Stack) -> None:
    agent_id, token = fresh_splitter(stack)
    key = new_key()
    body = orjson.dumps(splitter_body(4, "concurrent"))
    headers = {**identity(token), "Idempotency-Key": key, "Content-Type": "application/json"}

    async def burst() -> list[httpx.Response]:
        limits = httpx.Limits(max_connections=50, max_keepalive_connections=50)
        async with httpx.AsyncClient(base_url=stack.server.url, timeout=30, limits=limits) as client:
            return await asyncio.gather(
                *(client.post(f"{BASE}/submissions/claim_splitter", content=body, headers=headers) for _ in range(50))
            )

    answers = asyncio.run(burst())
    assert {r.status_code for r in answers} <= {202, 409}, [(r.status_code, r.text) for r in answers]
    accepted = [r for r in answers if r.status_code == 202]
    firsts = [r for r in accepted if "Idempotent-Replayed" not in r.headers]
    assert len(firsts) == 1, [dict(r.headers) for r in accepted]
    first = firsts[0]
    for r in accepted:
        if r is not first:
            assert_replay(r, first)
    for r in answers:
        if r.status_code == 409:
            assert r.headers["Retry-After"] == "1"
            assert r.json()["error_code"] == "IDEMPOTENCY_IN_FLIGHT"
    sid = first.json()["submission_id"]
    assert {r.json()["submission_id"] for r in accepted} == {sid}
    assert stored(stack, agent_id) == 1
    assert scalar(stack.url, "SELECT count(*) FROM idempotency_keys WHERE agent_id = ?", agent_id) == 1

    # Once settled, the key always replays the first answer.
    r = stack.client.post(f"{BASE}/submissions/claim_splitter", content=body, headers=headers)
    assert_replay(r, first)
    assert stored(stack, agent_id) == 1


def test_same_json_in_another_form_is_a_replay_and_another_body_is_422(stack: Stack) -> None:
    agent_id, token = fresh_splitter(stack)
    key = new_key()
    body: dict[str, Any] = {"work_type": "split", "results": [{"text": "قال إن الأرض مسطحة", "n": 1.0}], "metadata": {}}
    first = submit(stack.client, "claim_splitter", token, None, key=key, raw=orjson.dumps(body))
    assert first.status_code == 202, first.text
    assert "Idempotent-Replayed" not in first.headers

    reordered = b'{ "metadata" : { },\n  "results": [ {"n": 1.0, "text" : "\\u0642\\u0627\\u0644 \\u0625\\u0646 \\u0627\\u0644\\u0623\\u0631\\u0636 \\u0645\\u0633\\u0637\\u062d\\u0629"} ],\t"work_type":"split"}'  # noqa: E501
    assert orjson.loads(reordered) == body
    r = submit(stack.client, "claim_splitter", token, None, key=key, raw=reordered)
    assert_replay(r, first)

    for other in (
        {**body, "work_type": "split2"},
        {**body, "results": [{"text": "قال إن الأرض مسطحة", "n": 2}]},
        {**body, "metadata": {"x": 1}},
    ):
        r = submit(stack.client, "claim_splitter", token, other, key=key)
        assert r.status_code == 422, r.text
        problem = r.json()
        assert problem["error_code"] == "IDEMPOTENCY_KEY_REUSED"
        assert "Idempotency-Key" in problem["errors"]
        assert "Idempotent-Replayed" not in r.headers
    assert stored(stack, agent_id) == 1
    # The refused bodies did not overwrite the record: the original body still replays.
    assert_replay(submit(stack.client, "claim_splitter", token, body, key=key), first)


def test_a_corrected_retry_after_400_is_accepted_with_the_same_key(stack: Stack) -> None:
    agent_id, token = fresh_splitter(stack)
    key = new_key()
    for bad in (
        {"work_type": "split", "results": []},
        {"work_type": "split", "results": [{"text": "  "}]},
        {"results": [{"text": "x"}]},
    ):
        r = submit(stack.client, "claim_splitter", token, bad, key=key)
        assert r.status_code == 400, r.text
        assert r.json()["error_code"] == "INVALID_SUBMISSION"
    r = submit(stack.client, "claim_splitter", token, None, key=key, raw=b"{not json")
    assert r.status_code == 400, r.text
    assert stored(stack, agent_id) == 0

    r = submit(stack.client, "claim_splitter", token, splitter_body(2, "fixed"), key=key)
    assert r.status_code == 202, r.text
    assert "Idempotent-Replayed" not in r.headers
    assert stored(stack, agent_id) == 1
    # A bad Idempotency-Key is 422 and stores nothing either.
    for bad_key in ("", "not-a-uuid", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"):  # the last is a UUID v1
        headers = {**identity(token), "Idempotency-Key": bad_key}
        r = stack.client.post(f"{BASE}/submissions/claim_splitter", json=splitter_body(1), headers=headers)
        assert r.status_code == 422, r.text
        assert "Idempotency-Key" in r.json()["errors"]
    assert stored(stack, agent_id) == 1


def test_a_replay_spends_no_rate_unit(stack: Stack) -> None:
    agent_id, token = fresh_splitter(stack)
    key = new_key()
    first = submit(stack.client, "claim_splitter", token, splitter_body(1, "rate"), key=key)
    assert first.status_code == 202
    assert first.headers["X-RateLimit-Limit"] == "1000"
    remaining = int(first.headers["X-RateLimit-Remaining"])
    assert remaining == 999
    for _ in range(5):
        r = submit(stack.client, "claim_splitter", token, splitter_body(1, "rate"), key=key)
        assert_replay(r, first)
        assert r.headers["X-RateLimit-Limit"] == "1000"
        assert int(r.headers["X-RateLimit-Remaining"]) == remaining
    r = submit(stack.client, "claim_splitter", token, splitter_body(1, "rate"))
    assert r.status_code == 202 and "Idempotent-Replayed" not in r.headers
    assert int(r.headers["X-RateLimit-Remaining"]) == remaining - 1
    assert stored(stack, agent_id) == 2


def test_the_same_key_for_two_agents_is_two_submissions(stack: Stack) -> None:
    a_id, a_token = fresh_splitter(stack)
    b_id, b_token = fresh_splitter(stack)
    key = new_key()
    body = splitter_body(2, "two agents")
    ra = submit(stack.client, "claim_splitter", a_token, body, key=key)
    rb = submit(stack.client, "claim_splitter", b_token, body, key=key)
    assert ra.status_code == rb.status_code == 202
    assert "Idempotent-Replayed" not in ra.headers and "Idempotent-Replayed" not in rb.headers
    assert ra.json()["submission_id"] != rb.json()["submission_id"]
    assert stored(stack, a_id) == stored(stack, b_id) == 1
    assert_replay(submit(stack.client, "claim_splitter", a_token, body, key=key), ra)
    assert_replay(submit(stack.client, "claim_splitter", b_token, body, key=key), rb)
