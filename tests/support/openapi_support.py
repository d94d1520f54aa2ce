"""Checking the OpenAPI description against the service: the routes a server serves, whether a described path
is one of them, and schemathesis (v4) run as a subprocess against a live server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from tahqiq.config import Settings
from tahqiq.web.app import create_app

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


def served_routes() -> set[tuple[str, str]]:
    """(method, template) of every route a server of all three areas registers."""
    app = create_app(Settings(secret_key=bytes(32), database_url="sqlite:///:memory:"))
    out = set()
    for method, route in app.router.registered_routes:
        pattern = route.pattern.decode() if isinstance(route.pattern, bytes) else str(route.pattern)
        out.add((str(method).lower(), pattern))
    return out


def shape(path: str) -> str:
    return re.sub(r"{\w+}", "{}", path)


def matches(template: str, path: str) -> bool:
    """Whether a served route's `template` answers `path` (a described path; its own templates match any segment)."""
    return re.fullmatch(re.sub(r"\\{\w+\\}", "[^/]+", re.escape(template)), shape(path).replace("{}", "x")) is not None


def described_operations(doc: dict[str, object]) -> set[tuple[str, str]]:
    paths = doc["paths"]
    assert isinstance(paths, dict)
    return {(method, path) for path, operations in paths.items() for method in operations}


def run_schemathesis(
    url: str,
    config: Path,
    *,
    headers: dict[str, str] | None = None,
    include_path_regex: str | None = None,
    max_examples: int = 25,
    env: dict[str, str] | None = None,
    timeout_s: float = 300,
) -> subprocess.CompletedProcess[str]:
    """`schemathesis run` with every check the config enables, the examples, coverage and fuzzing phases, a fixed
    budget per operation and deterministic generation (the same cases on every run)."""
    args = [
        str(SCHEMATHESIS),
        "--config-file",
        str(config),
        "run",
        url,
        "--max-examples",
        str(max_examples),
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
    ]
    if include_path_regex:
        args += ["--include-path-regex", include_path_regex]
    for name, value in (headers or {}).items():
        args += ["-H", f"{name}: {value}"]
    full_env = {**os.environ, "SCHEMATHESIS_HOOKS": "", **(env or {})}
    # in a directory of its own: schemathesis keeps a cache (.schemathesis/) where it runs
    cwd = tempfile.mkdtemp(prefix="schemathesis-")
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout_s, check=False, env=full_env, cwd=cwd)
