"""The OpenAPI description against the live service: the document itself, then schemathesis (v4) with every
check, run as a subprocess against `/agents/openapi.json` of a real server, with real credentials so that the
deep paths (201, 202, 200 with data) are reached and not only the 401s.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tahqiq.app import create_app
from tahqiq.config import Settings

from tests.hardening_support import Deployment

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


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


def served_routes() -> set[tuple[str, str]]:
    app = create_app(Settings(secret_key=bytes(32), database_url="sqlite:///:memory:"))
    out = set()
    for method, route in app.router.registered_routes:
        pattern = route.pattern.decode() if isinstance(route.pattern, bytes) else str(route.pattern)
        out.add((str(method).lower(), pattern))
    return out


def shape(path: str) -> str:
    return re.sub(r"{\w+}", "{}", path)


def test_document(dep: Deployment) -> None:
    doc = dep.get("/agents/openapi.json").json()
    assert doc["openapi"] == "3.1.0"
    assert doc["info"]["version"] == "1.0.0"
    # OpenAPI allows one template name per path shape: compare the shapes
    described = {(m, shape(p)) for p, ops in doc["paths"].items() for m in ops}
    served = {(m, shape(p)) for m, p in served_routes() if p.startswith("/agents") or p.startswith("/.well-known")}
    assert served, "the routes were not found"
    assert served <= described, served - described
    assert described <= served, described - served
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert "summary" in op and "responses" in op, (method, path)
            names = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert names == set(re.findall(r"{(\w+)}", path)), (method, path)
    # the manifest names the same endpoints
    manifest = dep.get("/agents/manifest.json").json()
    for entry in manifest["endpoints"].values():
        method, path = entry.split(" ", 1)
        assert (method.lower(), shape(path)) in described, entry


def schemathesis(dep: Deployment, headers: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    args = [
        str(SCHEMATHESIS),
        "--config-file",
        str(Path(__file__).with_name("schemathesis.toml")),
        "run",
        f"{dep.server.url}/agents/openapi.json",
        "--max-examples",
        "25",
        "--seed",
        "1",
        "--workers",
        "1",
        "--no-color",
        "--phases",
        "examples,coverage,fuzzing",
        "--request-timeout",
        "10",
        "--generation-deterministic",
        *extra,
    ]
    for name, value in headers.items():
        args += ["-H", f"{name}: {value}"]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": ""}
    # in a directory of its own: schemathesis keeps a cache (.schemathesis/) where it runs
    cwd = tempfile.mkdtemp(prefix="schemathesis-")
    return subprocess.run(args, capture_output=True, text=True, timeout=120, check=False, env=env, cwd=cwd)


@pytest.mark.parametrize("role", ["judge", "evidence_seeker", "claim_splitter"])
def test_schemathesis(dep: Deployment, role: str) -> None:
    headers = {
        "Authorization": f"Bearer {dep.api_keys[role]}",
        "X-Service-App-Key": dep.app_key,
        "X-Service-Agent-Identity": dep.token(role, ttl=3600),
    }
    done = schemathesis(dep, headers)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-20000:]
    assert "No issues found" in output or "passed" in output, output[-5000:]
    log = dep.server.log()
    assert "Traceback" not in log, log[-5000:]
