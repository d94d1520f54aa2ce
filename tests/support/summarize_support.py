"""Servers and helpers shared by the summarization HTTP tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.support.server import ServerProcess, server_env

PATH = "/api/ai/summarize"
GATEWAY_KEY = "gw-key-7c1d5e0f9a"
PROVIDER_KEY = "prov-key-2b8e4a6d3c"
GATEWAY_MODEL = "summaries-alias"
PROVIDER_MODEL = "vendor-model-x"

ENGLISH = (
    "The city council met on Monday to discuss the new budget. Members argued for three hours about school "
    "funding. The mayor proposed a compromise that doubles the library budget. Critics said the plan ignores "
    "public transport. A final vote is expected next week. Residents may comment online until Friday. "
    "The budget must be approved before the fiscal year begins."
)
ARABIC = (
    "اجتمع مجلس المدينة يوم الاثنين لمناقشة الميزانية الجديدة. تجادل الأعضاء ثلاث ساعات حول تمويل المدارس. "
    "اقترح رئيس البلدية حلا وسطا يضاعف ميزانية المكتبات. قال المنتقدون إن الخطة تتجاهل النقل العام. "
    "من المتوقع إجراء التصويت النهائي الأسبوع المقبل. يمكن للسكان التعليق حتى يوم الجمعة."
)


@contextmanager
def summarize_server(tmp: Path, **settings: str) -> Iterator[ServerProcess]:
    """`tahqiq serve --areas summarize` on SQLite with short time-outs; `settings` are TAHQIQ_* overrides."""
    defaults = {
        "TAHQIQ_AREAS": "summarize",
        "TAHQIQ_UPSTREAM_TIMEOUT_S": "0.3",
        "TAHQIQ_RETRY_MAX_WAIT_S": "2",
        "TAHQIQ_BREAKER_FAILURES": "1000",
        "TAHQIQ_BREAKER_RESET_S": "1",
        "TAHQIQ_SUMMARIZE_RATE": "100000/60s",
    }
    env = server_env(f"sqlite:///{tmp / 'store.db'}", **(defaults | settings))
    with ServerProcess(env) as server:
        yield server


def post(server: ServerProcess, body: Any, **headers: str) -> httpx.Response:
    if isinstance(body, bytes):
        return httpx.post(
            server.url + PATH, content=body, headers={"Content-Type": "application/json", **headers}, timeout=10
        )
    return httpx.post(server.url + PATH, json=body, headers=headers, timeout=10)


def problem(r: httpx.Response, status: int, slug: str, strategy: str) -> dict[str, Any]:
    """Checks an Area B problem document: status, type, exact members, instance, strategy header."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.headers["x-ai-strategy"] == strategy
    body: dict[str, Any] = r.json()
    expected = {"type", "title", "status", "detail", "instance", "request_id"}
    expected |= {"errors"} if slug == "validation-error" else set()
    assert set(body) == expected, body  # no error_code in Area B
    assert body["request_id"] == r.headers["x-request-id"]
    assert body["type"].endswith(f"/problems/{slug}")
    assert body["status"] == status
    assert body["instance"] == PATH
    return body


def retry_after(r: httpx.Response) -> int:
    value = int(r.headers["retry-after"])
    assert value >= 1
    return value
