"""POST /api/ai/summarize over real sockets: a real `tahqiq serve` process, real fake upstreams.

Every row of the strategy table, the 503s, the one retry, time-outs, unusable answers, the rule of the
`x-ai-strategy` header on errors, and that keys never reach the log.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Iterator

import pytest
import trustme

from tests.support.fake_upstream import Answer, FakeUpstream
from tests.support.server import ServerProcess, free_port
from tests.support.summarize_support import (
    ARABIC,
    ENGLISH,
    GATEWAY_KEY,
    GATEWAY_MODEL,
    PROVIDER_KEY,
    PROVIDER_MODEL,
    post,
    problem,
    retry_after,
    summarize_server,
)


@pytest.fixture(scope="module")
def gateway() -> Iterator[FakeUpstream]:
    fake = FakeUpstream()
    yield fake
    fake.close()


@pytest.fixture(scope="module")
def provider() -> Iterator[FakeUpstream]:
    fake = FakeUpstream()
    yield fake
    fake.close()


@pytest.fixture(autouse=True)
def fresh(gateway: FakeUpstream, provider: FakeUpstream) -> None:
    gateway.reset()
    provider.reset()


def upstream_settings(gateway: FakeUpstream | None, provider: FakeUpstream | None) -> dict[str, str]:
    out = {}
    if gateway is not None:
        out |= {
            "TAHQIQ_GATEWAY_URL": gateway.url,
            "TAHQIQ_GATEWAY_MODEL": GATEWAY_MODEL,
            "TAHQIQ_GATEWAY_KEY": GATEWAY_KEY,
        }
    if provider is not None:
        out |= {
            "TAHQIQ_PROVIDER_URL": provider.url,
            "TAHQIQ_PROVIDER_MODEL": PROVIDER_MODEL,
            "TAHQIQ_PROVIDER_KEY": PROVIDER_KEY,
        }
    return out


@pytest.fixture(scope="module")
def both(
    tmp_path_factory: pytest.TempPathFactory, gateway: FakeUpstream, provider: FakeUpstream
) -> Iterator[ServerProcess]:
    """Gateway enabled, provider configured."""
    with summarize_server(tmp_path_factory.mktemp("both"), **upstream_settings(gateway, provider)) as server:
        yield server


@pytest.fixture(scope="module")
def gateway_only(tmp_path_factory: pytest.TempPathFactory, gateway: FakeUpstream) -> Iterator[ServerProcess]:
    with summarize_server(tmp_path_factory.mktemp("gw"), **upstream_settings(gateway, None)) as server:
        yield server


@pytest.fixture(scope="module")
def disabled(
    tmp_path_factory: pytest.TempPathFactory, gateway: FakeUpstream, provider: FakeUpstream
) -> Iterator[ServerProcess]:
    """The gateway's URL is set but TAHQIQ_GATEWAY_ENABLED=0: the provider is called directly."""
    settings = upstream_settings(gateway, provider) | {"TAHQIQ_GATEWAY_ENABLED": "0"}
    with summarize_server(tmp_path_factory.mktemp("disabled"), **settings) as server:
        yield server


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with summarize_server(tmp_path_factory.mktemp("local")) as server:
        yield server


# The strategy table ------------------------------------------------------------------------------------------


def test_gateway_route(both: ServerProcess, gateway: FakeUpstream, provider: FakeUpstream) -> None:
    r = post(both, {"text": ENGLISH, "length": "medium"})
    assert r.status_code == 200, r.text
    assert r.headers["x-ai-strategy"] == "gateway"
    assert r.headers["content-language"] == "en"
    data = r.json()["data"]
    assert data == {
        "summary": data["summary"],
        "format": "paragraph",
        "length": "medium",
        "target_lang": "en",
        "source_lang": "en",
        "strategy": "gateway",
        "model": "fake-model-1",
        "translated": False,
    }
    assert data["summary"].startswith("The council met today")
    [call] = gateway.requests
    assert call.path == "/v1/chat/completions"
    assert call.headers["Authorization"] == f"Bearer {GATEWAY_KEY}"
    assert call.json["model"] == GATEWAY_MODEL and call.json["temperature"] == 0
    system, user = call.json["messages"]
    assert system["role"] == "system" and user == {"role": "user", "content": ENGLISH}
    assert "English" in system["content"] and "5 sentences" in system["content"] and "paragraph" in system["content"]
    assert provider.requests == []


def test_upstream_connection_is_kept_alive(both: ServerProcess, gateway: FakeUpstream) -> None:
    for _ in range(3):
        assert post(both, {"text": ENGLISH}).status_code == 200
    assert len(gateway.requests) == 3
    assert gateway.connections <= 1  # one connection for all three (none when an earlier test had opened it)


def test_https_upstream(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The service trusts the system's CAs; the test's own CA is made one of them for the server (SSL_CERT_FILE)."""
    ca = trustme.CA()
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(tls)
    tmp = tmp_path_factory.mktemp("tls")
    ca.cert_pem.write_to_path(str(tmp / "ca.pem"))
    fake = FakeUpstream(tls)
    try:
        settings = {"TAHQIQ_PROVIDER_URL": fake.url, "TAHQIQ_PROVIDER_MODEL": PROVIDER_MODEL}
        with summarize_server(tmp, SSL_CERT_FILE=str(tmp / "ca.pem"), **settings) as server:
            r = post(server, {"text": ENGLISH})
        assert r.status_code == 200, r.text
        assert r.headers["x-ai-strategy"] == "provider" and len(fake.requests) == 1
        with summarize_server(tmp_path_factory.mktemp("untrusted"), **settings) as server:
            problem(post(server, {"text": ENGLISH}), 503, "service-unavailable", "provider")
        assert len(fake.requests) == 1  # the certificate was refused before any request was sent
    finally:
        fake.close()


def test_gateway_translates_into_bullets(both: ServerProcess, gateway: FakeUpstream) -> None:
    r = post(both, {"text": ENGLISH, "target_lang": "ar", "format": "bullets", "length": "long"})
    assert r.status_code == 200, r.text
    assert r.headers["content-language"] == "ar"
    data = r.json()["data"]
    assert data["translated"] is True and data["source_lang"] == "en" and data["target_lang"] == "ar"
    assert len(data["bullets"]) == 3 and data["summary"] == "\n".join(f"- {b}" for b in data["bullets"])
    system = gateway.requests[0].json["messages"][0]["content"]
    assert "Arabic" in system and "8 bullet points" in system and '"- "' in system


def test_gateway_404_falls_back_to_the_provider(
    both: ServerProcess, gateway: FakeUpstream, provider: FakeUpstream
) -> None:
    gateway.script(Answer(404))
    r = post(both, {"text": ARABIC})
    assert r.status_code == 200, r.text
    assert r.headers["x-ai-strategy"] == "gateway_fallback"
    data = r.json()["data"]
    assert data["strategy"] == "gateway_fallback" and data["target_lang"] == "ar" and data["translated"] is False
    assert len(gateway.requests) == 1
    [call] = provider.requests
    assert call.headers["Authorization"] == f"Bearer {PROVIDER_KEY}" and call.json["model"] == PROVIDER_MODEL


@pytest.mark.parametrize("status", [400, 401, 403])
def test_gateway_client_error_is_an_edge_fallback(
    both: ServerProcess, gateway: FakeUpstream, provider: FakeUpstream, status: int
) -> None:
    gateway.script(Answer(status))
    r = post(both, {"text": ARABIC, "target_lang": "en", "format": "bullets"})
    assert r.status_code == 200, r.text
    assert r.headers["x-ai-strategy"] == "edge_fallback"
    assert r.headers["content-language"] == "ar"  # the local summarizer cannot translate
    data = r.json()["data"]
    assert data["model"] == "tahqiq-extractive" and data["translated"] is False and data["strategy"] == "edge_fallback"
    assert data["target_lang"] == "en" and data["source_lang"] == "ar"
    assert data["bullets"] and all(b in ARABIC for b in data["bullets"])
    assert len(gateway.requests) == 1 and provider.requests == []


@pytest.mark.parametrize("status", [400, 401, 403, 404])
def test_provider_client_error_after_gateway_404_is_an_edge_fallback(
    both: ServerProcess, gateway: FakeUpstream, provider: FakeUpstream, status: int
) -> None:
    gateway.script(Answer(404))
    provider.script(Answer(status))
    r = post(both, {"text": ENGLISH})
    assert r.status_code == 200, r.text
    assert r.headers["x-ai-strategy"] == "edge_fallback"
    assert len(gateway.requests) == 1 and len(provider.requests) == 1


def test_gateway_404_without_a_provider_is_an_edge_fallback(gateway_only: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(404))
    r = post(gateway_only, {"text": ENGLISH})
    assert r.status_code == 200, r.text
    assert r.headers["x-ai-strategy"] == "edge_fallback"
    assert r.json()["data"]["model"] == "tahqiq-extractive"


def test_gateway_disabled_calls_the_provider(
    disabled: ServerProcess, gateway: FakeUpstream, provider: FakeUpstream
) -> None:
    r = post(disabled, {"text": ENGLISH})
    assert r.status_code == 200, r.text
    assert r.headers["x-ai-strategy"] == "provider"
    assert r.json()["data"]["strategy"] == "provider"
    assert gateway.requests == [] and len(provider.requests) == 1
    provider.script(Answer(401))
    r = post(disabled, {"text": ENGLISH})
    assert r.headers["x-ai-strategy"] == "edge_fallback" and r.status_code == 200


def test_no_upstream_is_local(local: ServerProcess) -> None:
    r = post(local, {"text": ARABIC, "target_lang": "en"})
    assert r.status_code == 200, r.text
    assert r.headers["x-ai-strategy"] == "local"
    assert r.headers["content-language"] == "ar"
    data = r.json()["data"]
    assert data["strategy"] == "local" and data["model"] == "tahqiq-extractive" and data["translated"] is False
    assert data["source_lang"] == "ar" and data["target_lang"] == "en" and "bullets" not in data
    assert data["summary"] and data["summary"].split()[0] in ARABIC


def test_defaults_follow_the_text(local: ServerProcess) -> None:
    data = post(local, {"text": ENGLISH}).json()["data"]
    assert (data["target_lang"], data["length"], data["format"]) == ("en", "short", "paragraph")
    data = post(local, {"text": ARABIC, "target_lang": None}).json()["data"]
    assert data["target_lang"] == "ar"


# 503s, the retry, time-outs, unusable answers ----------------------------------------------------------------


def test_server_error_is_503_without_retry(both: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(500))
    r = post(both, {"text": ENGLISH})
    problem(r, 503, "service-unavailable", "gateway")
    assert retry_after(r) == 1
    assert len(gateway.requests) == 1


@pytest.mark.parametrize("status", [502, 503, 504, 429])
def test_retryable_status_is_retried_once(both: ServerProcess, gateway: FakeUpstream, status: int) -> None:
    gateway.script(Answer(status), Answer(status), Answer(status))
    r = post(both, {"text": ENGLISH})
    problem(r, 503, "service-unavailable", "gateway")
    retry_after(r)
    assert len(gateway.requests) == 2  # the call and exactly one retry


def test_retry_honours_retry_after(both: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(429, headers={"Retry-After": "1"}))
    r = post(both, {"text": ENGLISH})
    assert r.status_code == 200, r.text
    assert r.headers["x-ai-strategy"] == "gateway"
    first, second = gateway.requests
    assert second.at - first.at >= 0.95


def test_retry_after_over_the_cap_fails_at_once(both: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(503, headers={"Retry-After": "30"}))
    started = time.monotonic()
    r = post(both, {"text": ENGLISH})
    assert time.monotonic() - started < 1.5
    problem(r, 503, "service-unavailable", "gateway")
    assert retry_after(r) == 30  # the upstream's own wait
    assert len(gateway.requests) == 1


def test_time_out_is_503(both: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(delay_s=1.0))
    started = time.monotonic()
    r = post(both, {"text": ENGLISH})
    assert time.monotonic() - started < 0.9  # TAHQIQ_UPSTREAM_TIMEOUT_S is 0.3
    body = problem(r, 503, "service-unavailable", "gateway")
    assert "0.3 s" in body["detail"]


def test_refused_connection_is_503(tmp_path_factory: pytest.TempPathFactory) -> None:
    settings = {"TAHQIQ_PROVIDER_URL": f"http://127.0.0.1:{free_port()}/v1", "TAHQIQ_PROVIDER_MODEL": "m"}
    with summarize_server(tmp_path_factory.mktemp("dead"), **settings) as server:
        r = post(server, {"text": ENGLISH})
        problem(r, 503, "service-unavailable", "provider")
        retry_after(r)


UNUSABLE = {
    "html": (Answer(body=b"<html>not json</html>"), {}),
    "no-choices": (Answer(body=b'{"choices": []}'), {}),
    "null-content": (Answer(body=b'{"choices": [{"message": {"content": null}}]}'), {}),
    "empty": (Answer(content="   "), {}),
    "only-markers": (Answer(content="-\n-"), {"format": "bullets"}),
    "not-arabic": (Answer(content="The council met today."), {"target_lang": "ar"}),
    "not-english": (Answer(content="اجتمع المجلس اليوم."), {"target_lang": "en"}),
}


@pytest.mark.parametrize("case", list(UNUSABLE))
def test_an_unusable_answer_goes_to_the_next_route(
    both: ServerProcess, gateway: FakeUpstream, provider: FakeUpstream, case: str
) -> None:
    """Gateway, then the provider (gateway_fallback), then the in-process summarizer (edge_fallback): no 503."""
    answer, request_body = UNUSABLE[case]
    gateway.script(answer)
    r = post(both, {"text": ENGLISH, **request_body})
    assert r.status_code == 200, r.text
    assert r.headers["x-ai-strategy"] == "gateway_fallback"
    assert r.json()["data"]["model"] == "fake-model-1"  # the provider's answer
    assert len(gateway.requests) == 1 and len(provider.requests) == 1

    gateway.script(answer)
    provider.script(answer)
    r = post(both, {"text": ENGLISH, **request_body})
    assert r.status_code == 200, r.text
    assert r.headers["x-ai-strategy"] == "edge_fallback"
    assert r.json()["data"]["model"] == "tahqiq-extractive"


def test_an_unusable_gateway_answer_without_a_provider_is_answered_here(
    gateway_only: ServerProcess, gateway: FakeUpstream
) -> None:
    gateway.script(Answer(content="   "))
    r = post(gateway_only, {"text": ENGLISH})
    assert r.status_code == 200, r.text
    assert r.headers["x-ai-strategy"] == "edge_fallback"
    assert "answered nothing usable" in gateway_only.log()


def test_unusable_answers_do_not_open_the_breaker(
    tmp_path_factory: pytest.TempPathFactory, gateway: FakeUpstream
) -> None:
    """The upstream is up: after more unusable answers than TAHQIQ_BREAKER_FAILURES, it is still asked (where
    as many 500s open the breaker: the next request is a 503 that does not reach the upstream)."""
    settings = upstream_settings(gateway, None) | {"TAHQIQ_BREAKER_FAILURES": "3", "TAHQIQ_BREAKER_RESET_S": "60"}
    with summarize_server(tmp_path_factory.mktemp("breaker"), **settings) as server:
        gateway.script(*[Answer(content="   ")] * 4)  # (the script forgets the requests it has seen)
        for _ in range(4):
            assert post(server, {"text": ENGLISH}).headers["x-ai-strategy"] == "edge_fallback"
        r = post(server, {"text": ENGLISH})
        assert r.status_code == 200 and r.headers["x-ai-strategy"] == "gateway"
        assert len(gateway.requests) == 5
        gateway.script(*[Answer(500)] * 3)
        for _ in range(4):
            problem(post(server, {"text": ENGLISH}), 503, "service-unavailable", "gateway")
        assert len(gateway.requests) == 3  # the fourth did not reach it


def test_a_paragraph_asked_for_as_bullets_is_split_into_sentences(both: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(content="The council met today. It voted to cut taxes!  Schools reopen in May."))
    r = post(both, {"text": ENGLISH, "format": "bullets"})
    assert r.status_code == 200 and r.headers["x-ai-strategy"] == "gateway"
    data = r.json()["data"]
    assert data["bullets"] == ["The council met today.", "It voted to cut taxes!", "Schools reopen in May."]
    assert data["summary"] == "- The council met today.\n- It voted to cut taxes!\n- Schools reopen in May."


def test_a_list_asked_for_as_a_paragraph_is_joined(both: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(content="Summary:\n- The council met today\n- It voted to cut taxes."))
    r = post(both, {"text": ENGLISH, "format": "paragraph"})
    assert r.status_code == 200 and r.headers["x-ai-strategy"] == "gateway"
    data = r.json()["data"]
    assert data["summary"] == "The council met today. It voted to cut taxes." and "bullets" not in data


def test_a_list_in_arabic_asked_for_as_a_paragraph(both: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(content="- اجتمع المجلس اليوم\n- وقرر خفض الضرائب؟"))
    r = post(both, {"text": ARABIC, "format": "paragraph", "target_lang": "ar"})
    assert r.status_code == 200 and r.headers["x-ai-strategy"] == "gateway"
    assert r.json()["data"]["summary"] == "اجتمع المجلس اليوم. وقرر خفض الضرائب؟"


def test_bullet_markers_are_accepted_and_stripped(both: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(content="Summary:\n* first point\n• second point\n3. third point\n4) fourth point"))
    data = post(both, {"text": ENGLISH, "format": "bullets"}).json()["data"]
    assert data["bullets"] == ["first point", "second point", "third point", "fourth point"]
    assert data["summary"] == "- first point\n- second point\n- third point\n- fourth point"


def test_provider_failure_after_gateway_404_names_gateway_fallback(
    both: ServerProcess, gateway: FakeUpstream, provider: FakeUpstream
) -> None:
    gateway.script(Answer(404))
    provider.script(Answer(500))
    r = post(both, {"text": ENGLISH})
    problem(r, 503, "service-unavailable", "gateway_fallback")


def test_keys_never_reach_the_log(both: ServerProcess, gateway: FakeUpstream) -> None:
    gateway.script(Answer(500))
    answer = post(both, {"text": ENGLISH})
    log = both.log()
    failures = [line for line in log.splitlines() if "summarize: gateway failed" in line]  # the failure is logged
    rid = answer.headers["x-request-id"]
    assert any(line.endswith(f"request_id={rid}") for line in failures), failures  # ... with its request's id ...
    assert GATEWAY_KEY not in log and PROVIDER_KEY not in log  # ... without the keys
