"""POST /api/ai/summarize over real sockets: the circuit breaker, the rate limit, and request validation."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.support.fake_upstream import Answer, FakeUpstream
from tests.support.rate_support import start_well_inside_a_window
from tests.support.server import ServerProcess
from tests.support.summarize_support import ENGLISH, PATH, post, problem, retry_after, summarize_server


@pytest.fixture(scope="module")
def gateway() -> Iterator[FakeUpstream]:
    fake = FakeUpstream()
    yield fake
    fake.close()


@pytest.fixture(scope="module")
def breaking(tmp_path_factory: pytest.TempPathFactory, gateway: FakeUpstream) -> Iterator[ServerProcess]:
    """A gateway whose breaker opens after 3 consecutive failures and lets a trial through after 1 s."""
    settings = {
        "TAHQIQ_GATEWAY_URL": gateway.url,
        "TAHQIQ_GATEWAY_MODEL": "alias",
        "TAHQIQ_BREAKER_FAILURES": "3",
        "TAHQIQ_BREAKER_RESET_S": "1",
    }
    with summarize_server(tmp_path_factory.mktemp("breaker"), **settings) as server:
        yield server


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with summarize_server(tmp_path_factory.mktemp("local"), TAHQIQ_SUMMARIZE_MAX_CHARS="2000") as server:
        yield server


def open_the_breaker(server: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(500), Answer(500), Answer(500))
    for _ in range(3):
        problem(post(server, {"text": ENGLISH}), 503, "service-unavailable", "gateway")
    assert len(gateway.requests) == 3


def test_breaker_opens_then_closes_after_the_reset(breaking: ServerProcess, gateway: FakeUpstream) -> None:
    open_the_breaker(breaking, gateway)
    gateway.script()
    r = post(breaking, {"text": ENGLISH})
    body = problem(r, 503, "service-unavailable", "gateway")
    assert retry_after(r) == 1  # the breaker's remaining open time, rounded up
    assert "gateway is failing" in body["detail"]
    assert gateway.requests == []  # open: the upstream is not called at all
    time.sleep(1.1)
    r = post(breaking, {"text": ENGLISH})  # half-open: one trial goes through and succeeds
    assert r.status_code == 200 and r.headers["x-ai-strategy"] == "gateway", r.text
    assert post(breaking, {"text": ENGLISH}).status_code == 200  # closed again
    assert len(gateway.requests) == 2


def test_failed_trial_opens_the_breaker_again(breaking: ServerProcess, gateway: FakeUpstream) -> None:
    open_the_breaker(breaking, gateway)
    time.sleep(1.1)
    gateway.script(Answer(502), Answer(502))
    problem(post(breaking, {"text": ENGLISH}), 503, "service-unavailable", "gateway")
    assert len(gateway.requests) == 2  # the trial (and its one retry)
    problem(post(breaking, {"text": ENGLISH}), 503, "service-unavailable", "gateway")
    assert len(gateway.requests) == 2  # open again: no call
    time.sleep(1.1)
    assert post(breaking, {"text": ENGLISH}).status_code == 200


def test_client_errors_do_not_trip_the_breaker(breaking: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(*[Answer(status) for status in (401, 403, 400, 401, 403)])
    for _ in range(5):
        r = post(breaking, {"text": ENGLISH})
        assert r.status_code == 200 and r.headers["x-ai-strategy"] == "edge_fallback", r.text
    r = post(breaking, {"text": ENGLISH})
    assert r.status_code == 200 and r.headers["x-ai-strategy"] == "gateway", r.text
    assert len(gateway.requests) == 6


def test_success_resets_the_failure_count(breaking: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(500), Answer(500), Answer(), Answer(500), Answer(500))
    statuses = [post(breaking, {"text": ENGLISH}).status_code for _ in range(6)]
    assert statuses == [503, 503, 200, 503, 503, 200]  # never three failures in a row: never open
    assert len(gateway.requests) == 6


# Rate limit -------------------------------------------------------------------------------------------------


def test_rate_limit_per_client(tmp_path_factory: pytest.TempPathFactory) -> None:
    with summarize_server(tmp_path_factory.mktemp("rate"), TAHQIQ_SUMMARIZE_RATE="30/60s") as server:
        key_a = {"X-Service-App-Key": "svc_app_client_a"}
        start_well_inside_a_window(60)  # all the counted requests in one fixed window
        for i in range(30):
            r = post(server, {"text": ENGLISH}, **key_a)
            assert r.status_code == 200, r.text
            assert r.headers["x-ratelimit-limit"] == "30"
            assert r.headers["x-ratelimit-remaining"] == str(29 - i)
        r = post(server, {"text": ENGLISH}, **key_a)
        body = problem(r, 429, "rate-limit-exceeded", "local")
        assert 1 <= retry_after(r) <= 60
        assert r.headers["x-ratelimit-limit"] == "30" and r.headers["x-ratelimit-remaining"] == "0"
        assert "30" in body["detail"]
        # Another key, and a client without a key, have buckets of their own.
        r = post(server, {"text": ENGLISH}, **{"X-Service-App-Key": "svc_app_client_b"})
        assert r.status_code == 200 and r.headers["x-ratelimit-remaining"] == "29"
        r = post(server, {"text": ENGLISH})
        assert r.status_code == 200 and r.headers["x-ratelimit-remaining"] == "29"
        # Invalid requests count too, and carry the headers.
        r = post(server, {"text": ""})
        problem(r, 422, "validation-error", "local")
        assert r.headers["x-ratelimit-remaining"] == "28"
        assert "svc_app_client_a" not in server.log()


# Validation -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "text"),
        ({"text": None}, "text"),
        ({"text": 42}, "text"),
        ({"text": ""}, "text"),
        ({"text": " \n\t "}, "text"),
        ({"text": "x" * 2001}, "text"),
        ({"text": ENGLISH, "target_lang": "fr"}, "target_lang"),
        ({"text": ENGLISH, "target_lang": "EN"}, "target_lang"),
        ({"text": ENGLISH, "target_lang": 1}, "target_lang"),
        ({"text": ENGLISH, "length": "tiny"}, "length"),
        ({"text": ENGLISH, "length": 3}, "length"),
        ({"text": ENGLISH, "format": "table"}, "format"),
        ({"text": ENGLISH, "format": ["bullets"]}, "format"),
        ({"text": ENGLISH, "style": "formal"}, "style"),
    ],
)
def test_invalid_field_is_422_naming_it(local: ServerProcess, body: dict[str, object], field: str) -> None:
    r = post(local, body)
    doc = problem(r, 422, "validation-error", "local")
    assert list(doc["errors"]) == [field]
    assert all(isinstance(m, str) and m for m in doc["errors"][field])
    assert field in doc["detail"]
    assert "x-ratelimit-limit" in r.headers


def test_every_wrong_field_is_named_at_once(local: ServerProcess) -> None:
    doc = problem(post(local, {"length": "tiny", "format": "table", "extra": 1}), 422, "validation-error", "local")
    assert set(doc["errors"]) == {"text", "length", "format", "extra"}


def test_longest_text_is_accepted(local: ServerProcess) -> None:
    assert post(local, {"text": "word " * 400}).status_code == 200  # exactly 2000 characters


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin-1", None]
)
def test_wrong_content_type_is_422(local: ServerProcess, content_type: str | None) -> None:
    headers = {} if content_type is None else {"Content-Type": content_type}
    r = httpx.post(local.url + PATH, content=b'{"text": "Hello there."}', headers=headers, timeout=10)
    doc = problem(r, 422, "validation-error", "local")
    assert list(doc["errors"]) == ["Content-Type"]


def test_json_with_charset_is_accepted(local: ServerProcess) -> None:
    headers = {"Content-Type": "Application/JSON; charset=UTF-8"}
    r = httpx.post(local.url + PATH, content=b'{"text": "Hello there."}', headers=headers, timeout=10)
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    ("raw", "says"),
    [(b"{not json", "not valid JSON"), (b"", "not valid JSON"), (b'["text"]', "JSON object"), (b"null", "JSON object")],
)
def test_body_that_is_not_a_json_object_is_422(local: ServerProcess, raw: bytes, says: str) -> None:
    doc = problem(post(local, raw), 422, "validation-error", "local")
    assert list(doc["errors"]) == ["body"] and says in doc["errors"]["body"][0]


def test_oversized_body_is_413(local: ServerProcess) -> None:
    r = post(local, {"text": "x" * (1_048_576 + 10)})
    problem(r, 413, "payload-too-large", "local")


def test_app_key_can_be_required(tmp_path_factory: pytest.TempPathFactory) -> None:
    with summarize_server(tmp_path_factory.mktemp("keyed"), TAHQIQ_REQUIRE_APP_KEY="1") as server:
        app_key = server.cli("apps", "create", "--name", "summaries", "--json")["app_key"]
        problem(post(server, {"text": ENGLISH}), 401, "unauthorized", "local")
        problem(post(server, {"text": ENGLISH}, **{"X-Service-App-Key": "svc_app_wrong"}), 401, "unauthorized", "local")
        r = post(server, {"text": ENGLISH}, **{"X-Service-App-Key": app_key})
        assert r.status_code == 200 and r.headers["x-ratelimit-remaining"] == "99999", r.text
        assert app_key not in server.log()
