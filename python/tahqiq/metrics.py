"""The service's Prometheus metrics (`GET /metrics`, prometheus_client).

One `Metrics` per running service, handed to the parts that count (the web layer, access, the processor,
summarization). With one server worker the numbers live in this process's registry. With several
(`TAHQIQ_WORKERS` > 1) `tahqiq serve` gives every worker the same fresh folder (`PROMETHEUS_MULTIPROC_DIR`), each
process writes its numbers there, and a scrape, whichever worker answers it, adds up every process's
(prometheus_client's multiprocess mode: counters and histograms are summed, the gauges below take the maximum).
The submission backlog is read from the store at each scrape, so it is the same whichever process answers.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.core import GaugeMetricFamily

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
BREAKER_STATES = {"closed": 0, "open": 1, "half_open": 2}


class Metrics:
    """Every metric the service exports. `multiprocess_dir`: the folder shared by the server's processes (None:
    this process alone)."""

    def __init__(self, multiprocess_dir: str | None = None) -> None:
        self.multiprocess_dir = multiprocess_dir
        # no `*_created` series: a timestamp per label set doubles the output and is rarely used
        disable_created_metrics()  # type: ignore[no-untyped-call]
        if multiprocess_dir is not None:
            if os.environ.get(MULTIPROCESS_ENV) != multiprocess_dir:
                raise ValueError(f"{MULTIPROCESS_ENV} must be {multiprocess_dir!r} in this process's environment")
            # prometheus_client chose how to keep values when it was first imported, maybe before the variable
            # was set (a server worker is forked from the process that read the settings): choose again.
            values.ValueClass = values.get_value_class()  # type: ignore[no-untyped-call]
            self.registry: CollectorRegistry | None = None  # each process writes files; a scrape reads them all
        else:
            self.registry = CollectorRegistry()
        registry = self.registry
        self.http_requests = Counter(
            "tahqiq_http_requests", "HTTP requests answered", ["route", "method", "status"], registry=registry
        )
        self.http_latency = Histogram(
            "tahqiq_http_request_duration_seconds",
            "Time to answer an HTTP request, from its handler's start to the answer",
            ["route"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.submissions = Counter(
            "tahqiq_submissions",
            "Submissions by outcome: accepted (202, stored), replayed (the same key and body again), then "
            "processed or rejected by the processor",
            ["outcome"],
            registry=registry,
        )
        self.rate_limited = Counter(
            "tahqiq_rate_limited", "Requests refused with 429, by limit", ["limit"], registry=registry
        )
        self.token_mints = Counter(
            "tahqiq_token_mints", "Identity token mints by outcome (minted, refused)", ["outcome"], registry=registry
        )
        self.token_verifications = Counter(
            "tahqiq_token_verifications",
            "Token verifications by outcome (valid, invalid: the token; refused: the app key)",
            ["outcome"],
            registry=registry,
        )
        self.upstream_calls = Counter(
            "tahqiq_upstream_calls",
            "Summarization upstream calls by strategy and outcome (ok, refused, unusable, failed, breaker_open)",
            ["strategy", "outcome"],
            registry=registry,
        )
        self.upstream_latency = Histogram(
            "tahqiq_upstream_duration_seconds",
            "Time an upstream took to answer (calls that reached it)",
            ["upstream"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.breaker_state = Gauge(
            "tahqiq_upstream_breaker_state",
            "Circuit breaker of each upstream: 0 closed, 1 open, 2 half open (the highest over the processes)",
            ["upstream"],
            registry=registry,
            multiprocess_mode="max",
        )
        self.analysis_load_seconds = Gauge(
            "tahqiq_analysis_data_load_seconds",
            "Seconds the analysis language data took to load (or build) at start",
            registry=registry,
            multiprocess_mode="max",
        )
        self.analysis_data = Gauge(
            "tahqiq_analysis_data_entries",
            "Entries of the loaded analysis data, by part",
            ["part"],
            registry=registry,
            multiprocess_mode="max",
        )
        # Requests answered since the last flush: (route, method, status) -> count, and per route the count in
        # each latency bucket (the last one +Inf) followed by the sum of the latencies.
        self._requests: dict[tuple[str, str, int], int] = {}
        self._latencies: dict[str, list[float]] = {}

    def observe_request(self, route: str, method: str, status: int, seconds: float) -> None:
        """One answered request, tallied here and moved into the exported metrics by `flush`: prometheus_client's
        own counter and histogram take a lock per update, about 3 µs a request, a tenth of a small request."""
        key = (route, method, status)
        requests = self._requests
        requests[key] = requests.get(key, 0) + 1
        tally = self._latencies.get(route)
        if tally is None:
            tally = self._latencies[route] = [0.0] * (len(LATENCY_BUCKETS) + 2)
        tally[bisect_left(LATENCY_BUCKETS, seconds)] += 1
        tally[-1] += seconds

    def flush(self) -> None:
        """Adds the requests tallied since the last flush to the exported counter and histogram: at each scrape,
        and every second in each worker of several (whose numbers another worker's scrape reads)."""
        requests, self._requests = self._requests, {}
        for (route, method, status), count in requests.items():
            self.http_requests.labels(route, method, str(status)).inc(count)
        latencies, self._latencies = self._latencies, {}
        for route, tally in latencies.items():
            child = self.http_latency.labels(route)
            # prometheus_client keeps a histogram as one value per bucket (not cumulative) and the sum; it has no
            # public call that adds many observations at once
            for bucket, observed in zip(child._buckets, tally[:-1], strict=True):
                if observed:
                    bucket.inc(observed)
            child._sum.inc(tally[-1])

    def analysis_loaded(self, seconds: float, sizes: dict[str, Any]) -> None:
        self.analysis_load_seconds.set(seconds)
        for part, value in _entries(sizes):
            self.analysis_data.labels(part).set(value)

    def render(self, backlog: int, oldest_age_s: float) -> bytes:
        """The exposition text: every process's numbers, and the store's backlog as read now."""
        self.flush()
        if self.multiprocess_dir is not None:
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry, path=self.multiprocess_dir)  # type: ignore[no-untyped-call]
        else:
            assert self.registry is not None
            registry = self.registry
        queue = CollectorRegistry()
        queue.register(_Backlog(backlog, oldest_age_s))
        return generate_latest(registry) + generate_latest(queue)


class _Backlog:
    """The submissions waiting for the processor, as the store says at the scrape."""

    def __init__(self, backlog: int, oldest_age_s: float) -> None:
        self.backlog = backlog
        self.oldest_age_s = oldest_age_s

    def collect(self) -> list[GaugeMetricFamily]:
        return [
            GaugeMetricFamily("tahqiq_submission_backlog", "Accepted submissions not yet processed", self.backlog),
            GaugeMetricFamily(
                "tahqiq_submission_oldest_age_seconds",
                "Age of the oldest accepted submission not yet processed (0: none)",
                self.oldest_age_s,
            ),
        ]


def _entries(sizes: dict[str, Any]) -> list[tuple[str, float]]:
    """The numeric leaves of the analysis data's sizes, named by their path (morphology_forms, ner_triggers, ...)."""
    out: list[tuple[str, float]] = []
    for name, value in sizes.items():
        if isinstance(value, dict):
            out += [(inner if inner.startswith(f"{name}_") else f"{name}_{inner}", v) for inner, v in _entries(value)]
        elif isinstance(value, int | float) and not isinstance(value, bool):
            out.append((name, float(value)))
    return out
