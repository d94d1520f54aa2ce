"""The package as users meet it: the re-exported API, its docstrings, metadata and the command line."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
import tahqiq
import tahqiq._native as native
import tahqiq.core as core
from tahqiq.cli.reports import REPORT_NEEDS_CHECKOUT

ROOT = Path(__file__).resolve().parents[2]


def test_core_reexports_every_native_name_with_a_docstring() -> None:
    public_native = {name for name in dir(native) if not name.startswith("_")}
    assert public_native <= set(core.__all__)
    for name in public_native:
        obj = getattr(core, name)
        assert obj is getattr(native, name)
        assert obj.__doc__ and len(obj.__doc__.strip()) > 40, f"{name} needs a real docstring"


def test_stub_declares_every_native_name() -> None:
    stub = (ROOT / "python" / "tahqiq" / "_native.pyi").read_text(encoding="utf-8")
    for name in (n for n in dir(native) if not n.startswith("_")):
        assert f"def {name}(" in stub or f"class {name}" in stub, f"{name} missing from _native.pyi"


def test_version_and_licence_come_from_the_project_files() -> None:
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    assert tahqiq.__version__ == cargo["package"]["version"] == metadata.version("tahqiq")
    assert cargo["package"]["license"] == "GPL-3.0-or-later"
    meta = metadata.metadata("tahqiq")
    assert "GPL-3.0-or-later" in (meta.get("License-Expression") or meta.get("License") or "")


def _cli(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "tahqiq", *args], input=data, capture_output=True, check=False, timeout=60
    )


def test_cli_normalize_with_flags() -> None:
    out = _cli("normalize", "أَهْلاً ٣٫٥", "--digits")
    assert out.returncode == 0, out.stderr
    assert out.stdout.decode().strip() == "اهلا 3.5"
    out = _cli("normalize", "--no-alef", "-", stdin="أَهْلاً")
    assert out.stdout.decode().strip() == "أهلا"


def test_cli_scan_json_offsets_round_trip() -> None:
    text = "قالَ الرئيسُ: نسبة ٣٫٥٪ من 1,000 شخص 👍🏽"
    out = _cli("scan", "--json", text)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [r["text"] for r in rows] == [text[r["start"] : r["end"]] for r in rows]
    assert [r["kind"] for r in rows] == [
        "word", "word", "punct", "word", "number", "punct", "word", "number", "word", "symbol",
    ]  # fmt: skip


def test_cli_fingerprint_and_its_errors() -> None:
    out = _cli("fingerprint", "--canonical", stdin='{"b": 1, "a": [1.50, "x"]}')
    assert out.stdout.decode().strip() == '{"a":[1.5,"x"],"b":1}'
    same = _cli("fingerprint", "--context", "POST /x", stdin='{"a":[1.5,"x"],"b":1}').stdout
    other = _cli("fingerprint", "--context", "POST /x", stdin=' { "b" : 1 , "a" : [ 1.5 , "x" ] } ').stdout
    assert same == other and len(same.strip()) == 64
    bad = _cli("fingerprint", stdin="{]")
    assert bad.returncode == 2
    assert b"byte" in bad.stderr


@pytest.mark.parametrize("args", [[], ["bogus"]])
def test_cli_usage_errors_exit_2(args: list[str]) -> None:
    assert _cli(*args).returncode == 2


def _report_cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m tahqiq report …` run in `cwd` with only the installed package importable (not the checkout's
    root, so `tools` is found only by the command's own search)."""
    env = {**os.environ, "PYTHONPATH": str(Path(tahqiq.__file__).resolve().parent.parent)}
    return subprocess.run(
        [sys.executable, "-m", "tahqiq", "report", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


@pytest.mark.parametrize("where", [".", "tests"])
def test_cli_report_runs_the_repository_tools_from_a_checkout(where: str) -> None:
    # from the root and from below it: the checkout is found above the current directory
    out = _report_cli(ROOT / where, "morph", "--help")
    assert out.returncode == 0, out.stderr
    assert "usage: tahqiq report morph" in out.stdout


def test_cli_report_outside_a_checkout_says_how_to_run_it(tmp_path: Path) -> None:
    out = _report_cli(tmp_path, "morph")
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.strip().splitlines() == [REPORT_NEEDS_CHECKOUT]
    assert "Traceback" not in out.stderr


def test_the_package_never_imports_the_repository_tools() -> None:
    # evaluation and training live in tools/ (not in the wheel); the command line reaches them by name only
    for path in (ROOT / "python" / "tahqiq").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not [n for n in names if n.split(".")[0] == "tools"], f"{path} imports tools"
