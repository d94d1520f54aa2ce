"""The OpenAPI description against the live service: Area A's document itself, then schemathesis (v4) with every
check, run as a subprocess against the Area A operations of `/openapi.json` on a real server, with real credentials
so that the deep paths (201, 202, 200 with data) are reached and not only the 401s.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.hardening_support import Deployment
from tests.support.openapi_support import matches, run_schemathesis, served_routes, shape

AREA_A_PATHS = r"^/(agents/|\.well-known/)"


@pytest.fixture(scope="module")
def dep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    env = {"TAHQIQ_AUTH_FAILURE_RATE": "100000/60s", "TAHQIQ_SUBMISSION_RATE": "100000/60s"}
    with Deployment.sqlite(tmp_path_factory.mktemp("openapi"), **env) as d:
        # a claim ready for a verdict, so that the judge's reads return data
        assert d.submit("claim_splitter", {"work_type": "split", "results": [{"text": "c"}]}).status_code == 202
        seeker = {"X-Service-Agent-Identity": d.token("evidence_seeker")}
        deadline = time.monotonic() + 30  # the processor creates the claim in the background
        while not d.get("/agents/access-core/claims/pending", headers=seeker).json()["data"]:
            assert time.monotonic() < deadline, "the claim was not created"
            time.sleep(0.05)
        for role in ("evidence_seeker", "methodology_critic"):
            assert d.submit(role, {"work_type": "w", "results": [{"claim_id": 1}]}).status_code == 202
        yield d


def test_document(dep: Deployment) -> None:
    doc = dep.get("/agents/openapi.json").json()
    assert doc["openapi"] == "3.1.0"
    assert doc["info"]["version"] == "1.0.0"
    # Every described operation is served, and every served route is described (by a path of its shape, or, for
    # submissions, by one concrete path per role: OpenAPI allows one template per path shape)
    described = {(m, p) for p, ops in doc["paths"].items() for m in ops}
    served = {(m, p) for m, p in served_routes() if p.startswith("/agents") or p.startswith("/.well-known")}
    assert served, "the routes were not found"
    for method, path in described:
        assert any(m == method and matches(p, path) for m, p in served), (method, path)
    for method, template in served:
        assert any(m == method and matches(template, p) for m, p in described), (method, template)
    assert len({shape(p) for p in doc["paths"]}) == len(doc["paths"]), "two templates of one shape"
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert "summary" in op and "responses" in op, (method, path)
            names = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert names == set(re.findall(r"{(\w+)}", path)), (method, path)
    # the manifest names the same endpoints
    manifest = dep.get("/agents/manifest.json").json()
    for entry in manifest["endpoints"].values():
        method, path = entry.split(" ", 1)
        assert any(m == method.lower() and matches(path, p) for m, p in described), entry


@pytest.mark.parametrize(
    ("method", "segment", "status", "allow"),
    [
        ("GET", "judge", 405, "POST"),  # a role's path takes submissions only
        ("OPTIONS", "judge", 405, "POST"),
        ("POST", "0b7e4f3c-5a7e-4d2b-9c1f-2e3d4c5b6a70", 405, "GET"),  # a submission id is only read
        ("OPTIONS", "0b7e4f3c-5a7e-4d2b-9c1f-2e3d4c5b6a70", 405, "GET"),
        ("PUT", "auditor", 405, "GET, POST"),  # neither: both answer, with their 404 or 422
        ("GET", "auditor", 404, None),
        ("POST", "auditor", 404, None),
        ("POST", "Judge", 422, None),
    ],
)
def test_submission_paths_answer_the_methods_the_description_gives(
    dep: Deployment, method: str, segment: str, status: int, allow: str | None
) -> None:
    """The description has a path per role (POST) and the status template (GET) under submissions/; the server
    answers 405 with that `Allow` for the other method, where the segment says which path it is."""
    headers = {"X-Service-Agent-Identity": dep.token("judge"), "Idempotency-Key": str(uuid.uuid4())}
    response = dep.request(method, f"/agents/access-core/submissions/{segment}", headers=headers, json={})
    assert response.status_code == status, response.text
    assert response.headers.get("allow") == allow
    doc = dep.get("/agents/openapi.json").json()
    if segment == "judge":
        assert list(doc["paths"]["/agents/access-core/submissions/judge"]) == ["post"]
    elif allow == "GET":
        assert list(doc["paths"]["/agents/access-core/submissions/{submission_id}"]) == ["get"]


@pytest.mark.parametrize("role", ["judge", "evidence_seeker", "claim_splitter"])
def test_schemathesis(dep: Deployment, role: str) -> None:
    headers = {
        "Authorization": f"Bearer {dep.api_keys[role]}",
        "X-Service-App-Key": dep.app_key,
        "X-Service-Agent-Identity": dep.token(role, ttl=3600),
    }
    # the Area A part of the service's document (the same operations as /agents/openapi.json)
    done = run_schemathesis(
        f"{dep.server.url}/openapi.json",
        Path(__file__).with_name("schemathesis.toml"),
        headers=headers,
        include_path_regex=AREA_A_PATHS,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-20000:]
    assert "No issues found" in output or "passed" in output, output[-5000:]
    log = dep.server.log()
    assert "Traceback" not in log, log[-5000:]
