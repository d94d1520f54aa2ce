"""The service's whole OpenAPI description (`GET /openapi.json`) against a live server: it describes every route
of every area, its Area A part is `/agents/openapi.json`, schemathesis finds no server error and no answer the
document does not describe in Areas B and C (Area A's run: tests/access/test_openapi_live.py), and the `/docs` page
works in a real headless Chromium with no network but the server's."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.openapi_support import described_operations, matches, run_schemathesis, served_routes
from tests.support.server import ServerProcess, analysis_server

AREA_A = ("/agents/", "/.well-known/")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("openapi-service")
    with analysis_server(folder, TAHQIQ_SUMMARIZE_RATE="100000/60s") as s:
        yield s


@pytest.fixture(scope="module")
def doc(server: ServerProcess) -> dict[str, Any]:
    response = httpx.get(server.url + "/openapi.json", timeout=10)
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


def test_every_route_is_described_and_every_description_served(doc: dict[str, Any]) -> None:
    assert doc["openapi"] == "3.1.0"
    described = described_operations(doc)
    served = served_routes()
    for method, path in described:
        assert any(m == method and matches(p, path) for m, p in served), (method, path)
    for method, template in served:
        assert any(m == method and matches(template, p) for m, p in described), (method, template)
    for path in ("/ner", "/wsd", "/morph", "/re", "/dialect/corpus", "/dialect/corpus/glossary"):
        assert set(doc["paths"][path]) == {"get", "post"}


def test_the_agents_document_is_the_area_a_part(server: ServerProcess, doc: dict[str, Any]) -> None:
    agents = httpx.get(server.url + "/agents/openapi.json", timeout=10).json()
    assert {p for p in doc["paths"] if p.startswith(AREA_A)} == set(agents["paths"])
    for path, operations in agents["paths"].items():
        assert doc["paths"][path] == operations, path
    for name, schema in agents["components"]["schemas"].items():
        assert doc["components"]["schemas"][name] == schema, name


def test_the_headers_are_described(doc: dict[str, Any]) -> None:
    paths = doc["paths"]
    summarize = paths["/api/ai/summarize"]["post"]["responses"]
    for status in ("200", "422", "429", "503"):
        assert summarize[status]["headers"]["x-ai-strategy"]["required"] is True, status
    assert {"X-RateLimit-Limit", "X-RateLimit-Remaining", "RateLimit", "RateLimit-Policy"} <= set(
        summarize["200"]["headers"]
    )
    assert "Retry-After" in summarize["429"]["headers"] and "Retry-After" in summarize["503"]["headers"]
    submit = paths["/agents/access-core/submissions/judge"]["post"]["responses"]
    assert "Idempotent-Replayed" in submit["202"]["headers"]
    assert "Retry-After" in submit["429"]["headers"]
    assert "Retry-After" in paths["/ner"]["get"]["responses"]["503"]["headers"]


def test_schemathesis_areas_b_and_c(server: ServerProcess, doc: dict[str, Any]) -> None:
    """Every operation outside Area A, 10 examples each plus the coverage phase's, every check (responses
    conform to their schemas, with their headers; valid requests accepted, invalid ones refused; no 5xx)."""
    with httpx.Client(base_url=server.url, timeout=30) as client:
        morph = client.get("/morph", params={"text": "كتب الطالب الدرس"}).json()
        wsd = client.get("/wsd", params={"text": "شرب الرجل من عين الماء"}).json()
    lemma_id = morph["tokens"][0]["lemma_id"]
    sense_id = next(t["sense_id"] for t in wsd["tokens"] if t["sense_id"] and ":" not in t["sense_id"])
    done = run_schemathesis(
        f"{server.url}/openapi.json",
        Path(__file__).with_name("schemathesis.toml"),
        include_path_regex=r"^/(?!agents/|\.well-known/)",
        env={"TAHQIQ_TEST_LEMMA_ID": lemma_id, "TAHQIQ_TEST_SENSE_ID": sense_id},
        max_examples=10,  # and the coverage phase's cases (every boundary of every parameter): about 1,000 in all
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-20000:]
    assert "No issues found" in output, output[-5000:]
    # every operation of Areas B and C and the service's own
    operations = sum(1 for _method, path in described_operations(doc) if not path.startswith(AREA_A))
    assert f"Tested: {operations}" in output, output[-3000:]
    log = server.log()
    assert "Traceback" not in log, log[-5000:]


# ------------------------------------------------------------------------------------------------- /docs
CHROMIUM = shutil.which("chromium")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_the_docs_page_works_offline(server: ServerProcess, doc: dict[str, Any]) -> None:
    from playwright.sync_api import sync_playwright

    # The page is opened under a public-looking name, as users reach a deployed server: Swagger UI would call
    # validator.swagger.io for such a host (it skips localhost) unless the page turns that off.
    port = urlsplit(server.url).port
    origin = f"docs.tahqiq.test:{port}"
    hosts: list[str] = []
    with sync_playwright() as playwright:
        assert CHROMIUM is not None
        # --no-sandbox: CI runs as root; the page is our own. Every other name fails to resolve, as offline.
        rules = "MAP docs.tahqiq.test 127.0.0.1, MAP * ~NOTFOUND"
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", f"--host-resolver-rules={rules}"]
        )
        try:
            page = browser.new_page()
            page.on("request", lambda request: hosts.append(urlsplit(request.url).netloc or request.url[:30]))
            page.goto(f"http://{origin}/docs")
            page.wait_for_selector(".opblock", timeout=30_000)
            # every operation of the document is listed
            listed = set()
            for block in page.query_selector_all(".opblock"):
                method = block.query_selector(".opblock-summary-method")
                path = block.query_selector(".opblock-summary-path")
                assert method is not None and path is not None
                listed.add((method.inner_text().strip().lower(), path.get_attribute("data-path")))
            assert listed == described_operations(doc)
            # "try it out" on GET /ner
            ner = page.locator(".opblock-get:has(.opblock-summary-path[data-path='/ner'])")
            ner.locator(".opblock-summary").click()
            ner.locator(".try-out__btn").click()
            ner.locator("tr[data-param-name='text'] input").fill("ذهب محمد إلى القاهرة")
            with page.expect_response(lambda r: urlsplit(r.url).path == "/ner") as answered:
                ner.locator(".execute").click()
            assert answered.value.status == 200
            assert answered.value.json()["entities"][0]["type"] == "PERS"
            # and the page shows the answer
            shown = ner.locator(".live-responses-table tbody .response-col_status").first
            shown.wait_for()
            assert shown.inner_text().strip().startswith("200")
        finally:
            browser.close()
    assert hosts and set(hosts) == {origin}, sorted(set(hosts))
