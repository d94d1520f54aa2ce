"""GET /metrics on a real server: after known traffic every counter has exactly the value it should, the output
parses with prometheus_client's own parser, TAHQIQ_METRICS=0 turns the endpoint off, and with two server
workers on one PostgreSQL a scrape, whichever worker answers it, counts both workers' requests."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from prometheus_client import CollectorRegistry, Histogram
from prometheus_client.parser import text_string_to_metric_families
from tahqiq.metrics import LATENCY_BUCKETS, Metrics

from tests.support.fake_upstream import Answer, FakeUpstream
from tests.support.hardening_support import MINT, VERIFY, Deployment
from tests.support.server import ServerProcess, server_env
from tests.support.summarize_support import ENGLISH, GATEWAY_MODEL

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(url: str) -> Samples:
    answer = httpx.get(url + "/metrics", timeout=10)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    out: Samples = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            out[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return out


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture(scope="module")
def upstream() -> Iterator[FakeUpstream]:
    fake = FakeUpstream()
    yield fake
    fake.close()


@pytest.fixture(scope="module")
def dep(tmp_path_factory: pytest.TempPathFactory, upstream: FakeUpstream) -> Iterator[Deployment]:
    env = {
        "TAHQIQ_SUMMARIZE_RATE": "2/60s",
        "TAHQIQ_GATEWAY_URL": upstream.url,
        "TAHQIQ_GATEWAY_MODEL": GATEWAY_MODEL,
        "TAHQIQ_UPSTREAM_TIMEOUT_S": "2",
    }
    with Deployment.sqlite(tmp_path_factory.mktemp("metrics"), **env) as d:
        yield d.analysis_ready()


def test_counters_after_known_traffic(dep: Deployment, upstream: FakeUpstream) -> None:
    before = scrape(dep.server.url)
    for _ in range(3):
        assert dep.get("/health").status_code == 200
    token = dep.token("claim_splitter")
    judge = dep.token("judge")
    assert dep.post(MINT, json={}, headers={"Authorization": "Bearer svc_agent_nope"}).status_code == 401
    assert dep.verify(token).json()["valid"] is True
    assert dep.verify("not-a-token").json()["success"] is False
    assert dep.post(VERIFY, json={"token": token}, headers={"X-Service-App-Key": "svc_app_nope"}).status_code == 401
    key = str(uuid.uuid4())
    body = {"work_type": "w", "results": [{"text": "claim"}]}
    assert dep.submit("claim_splitter", body, token=token, key=key).status_code == 202
    assert dep.submit("claim_splitter", body, token=token, key=key).headers["Idempotent-Replayed"] == "true"
    assert dep.submit("claim_splitter", body, token=token).status_code == 202
    # a verdict on a claim still waiting for evidence: accepted, then rejected by the processor
    deadline = time.monotonic() + 20
    seeker = {"X-Service-Agent-Identity": dep.token("evidence_seeker")}
    while not (pending := dep.get("/agents/access-core/claims/pending", headers=seeker).json()["data"]):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    verdict = {"work_type": "w", "results": [{"claim_id": pending[0]["claim_id"], "verdict": "true"}]}
    assert dep.submit("judge", verdict, token=judge).status_code == 202
    upstream.script(Answer(content="The council met today."), Answer(500))
    assert dep.post("/api/ai/summarize", json={"text": ENGLISH}).status_code == 200
    assert dep.post("/api/ai/summarize", json={"text": ENGLISH}).status_code == 503
    assert dep.post("/api/ai/summarize", json={"text": ENGLISH}).status_code == 429
    after = scrape(dep.server.url)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("tahqiq_http_requests_total", route="/health", method="GET", status="200") == 3
    submit_route = "/agents/access-core/submissions/{role_id}"
    assert grew("tahqiq_http_requests_total", route=submit_route, method="POST", status="202") == 4
    assert grew("tahqiq_http_request_duration_seconds_count", route="/health") == 3
    assert grew("tahqiq_token_mints_total", outcome="minted") == 3
    assert grew("tahqiq_token_mints_total", outcome="unauthorized") == 1
    assert grew("tahqiq_token_verifications_total", outcome="valid") == 1
    assert grew("tahqiq_token_verifications_total", outcome="invalid") == 1
    assert grew("tahqiq_token_verifications_total", outcome="unauthorized") == 1
    assert grew("tahqiq_submissions_total", outcome="accepted") == 3
    assert grew("tahqiq_submissions_total", outcome="replayed") == 1
    assert grew("tahqiq_rate_limited_total", limit="summarize") == 1
    assert grew("tahqiq_upstream_calls_total", strategy="gateway", outcome="ok") == 1
    assert grew("tahqiq_upstream_calls_total", strategy="gateway", outcome="failed") == 1
    assert grew("tahqiq_upstream_duration_seconds_count", upstream="gateway") == 2
    assert value(after, "tahqiq_upstream_breaker_state", upstream="gateway") == 0
    assert value(after, "tahqiq_analysis_data_load_seconds") > 0
    assert value(after, "tahqiq_analysis_data_entries", part="morphology_forms") > 10_000


def test_the_processor_and_the_backlog(dep: Deployment) -> None:
    before = scrape(dep.server.url)
    token, judge = dep.token("claim_splitter"), dep.token("judge")
    assert dep.submit("claim_splitter", {"work_type": "w", "results": [{"text": "c"}]}, token=token).status_code == 202
    seeker = {"X-Service-Agent-Identity": dep.token("evidence_seeker")}
    deadline = time.monotonic() + 20
    while not (pending := dep.get("/agents/access-core/claims/pending", headers=seeker).json()["data"]):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    verdict = {"work_type": "w", "results": [{"claim_id": pending[-1]["claim_id"], "verdict": "true"}]}
    answer = dep.submit("judge", verdict, token=judge)
    status = f"/agents/access-core/submissions/{answer.json()['submission_id']}"
    while dep.get(status, headers={"X-Service-Agent-Identity": judge}).json()["data"]["status"] == "accepted":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    after = scrape(dep.server.url)
    processed = value(after, "tahqiq_submissions_total", outcome="processed") - value(
        before, "tahqiq_submissions_total", outcome="processed"
    )
    rejected = value(after, "tahqiq_submissions_total", outcome="rejected") - value(
        before, "tahqiq_submissions_total", outcome="rejected"
    )
    assert (processed, rejected) == (1, 1)
    assert value(after, "tahqiq_submission_backlog") == 0
    assert value(after, "tahqiq_submission_oldest_age_seconds") == 0


def test_metrics_can_be_turned_off(tmp_path: Path) -> None:
    env = server_env(f"sqlite:///{tmp_path / 'db.sqlite'}", TAHQIQ_METRICS="0", TAHQIQ_AREAS="agents")
    with ServerProcess(env) as server:
        assert httpx.get(server.url + "/metrics").status_code == 404
        assert "/metrics" not in httpx.get(server.url + "/openapi.json").json()["paths"]


def test_two_workers_on_postgres_are_counted_together(pg_url: str) -> None:
    env = server_env(pg_url, TAHQIQ_AREAS="agents", TAHQIQ_LOG_FORMAT="json", TAHQIQ_ACCESS_LOG="1")
    with ServerProcess(env, workers=2) as server:
        pids: set[int] = set()
        sent = 0
        deadline = time.monotonic() + 30
        while len(pids) < 2 or sent < 40:  # until both workers have answered some (new connections each)
            assert time.monotonic() < deadline, "one worker answered every request"
            assert httpx.get(server.url + "/health", headers={"Connection": "close"}).status_code == 200
            sent += 1
            pids = {
                line["pid"]
                for line in (json.loads(x) for x in server.log().splitlines() if x.startswith("{"))
                if line.get("logger") == "tahqiq.access" and line.get("route") == "/health"
            }

        def counted() -> float:
            return value(scrape(server.url), "tahqiq_http_requests_total", route="/health", method="GET", status="200")

        # each worker adds its tallies to the shared folder every METRICS_FLUSH_S; then any scrape has them all
        deadline = time.monotonic() + 10
        while counted() != sent:
            assert time.monotonic() < deadline, (counted(), sent)
            time.sleep(0.2)
        for _ in range(4):  # whichever worker answers the scrape
            assert counted() == sent


@given(
    st.lists(
        st.tuples(st.sampled_from(["/a", "/b"]), st.floats(0, 60) | st.sampled_from([0.001, 0.01, 30.0])), max_size=200
    ),
    st.integers(1, 50),
)
def test_tallied_requests_flush_to_what_the_histogram_would_hold(observed: list[tuple[str, float]], every: int) -> None:
    """Requests are tallied per request and added to prometheus_client's counter and histogram at each flush
    (tahqiq.metrics.Metrics.flush, which writes the histogram's own values): the same buckets, counts and sum as
    observing each request directly."""
    metrics = Metrics()
    reference_registry = CollectorRegistry()
    reference = Histogram("reference", "", ["route"], buckets=LATENCY_BUCKETS, registry=reference_registry)
    for n, (route, seconds) in enumerate(observed):
        metrics.observe_request(route, "GET", 200, seconds)
        reference.labels(route).observe(seconds)
        if n % every == 0:
            metrics.flush()
    metrics.flush()
    assert metrics.registry is not None
    ours = {
        (s.name.removeprefix("tahqiq_http_request_duration_seconds"), tuple(sorted(s.labels.items()))): s.value
        for family in metrics.registry.collect()
        if family.name == "tahqiq_http_request_duration_seconds"
        for s in family.samples
    }
    theirs = {
        (s.name.removeprefix("reference"), tuple(sorted(s.labels.items()))): s.value
        for family in reference_registry.collect()
        for s in family.samples
    }
    assert ours.keys() == theirs.keys()
    for key, value in theirs.items():
        assert ours[key] == pytest.approx(value, rel=1e-9, abs=1e-9), key
    counted = {
        s.labels["route"]: s.value
        for f in metrics.registry.collect()
        if f.name == "tahqiq_http_requests"
        for s in f.samples
    }
    assert counted == {route: float(sum(1 for r, _ in observed if r == route)) for route in {r for r, _ in observed}}
