"""Mistakes a new user makes with the command line, each answered in one line on standard error with a non-zero
status, never a traceback (`--debug` shows it); and what the commands do about them (`apps rotate-key`, `apps
delete`, `corpus import --replace`, `corpus export | head`). `serve` on a port in use: test_serve_port.py; `report`
outside a checkout: test_package.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.support.server import FIRST_PARTY_APP_ID, ServerProcess, free_port, server_env


def tahqiq(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tahqiq", *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def one_line_error(out: subprocess.CompletedProcess[str], status: int, *says: str) -> str:
    assert out.returncode == status, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    for words in says:
        assert words in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return server_env(f"sqlite:///{tmp_path / 'cli.db'}", TAHQIQ_DATA_DIR=str(tmp_path / "data"))


def test_the_first_party_app_created_twice(env: dict[str, str]) -> None:
    assert tahqiq(env, "apps", "create", "--name", "platform", "--first-party").returncode == 0
    again = tahqiq(env, "apps", "create", "--name", "platform", "--first-party")
    one_line_error(again, 1, "tahqiq apps create: ", FIRST_PARTY_APP_ID, "exists already", "apps rotate-key")
    debug = tahqiq(env, "apps", "create", "--name", "platform", "--first-party", "--debug")
    assert debug.returncode == 1 and "Traceback" in debug.stderr and "CliError" in debug.stderr


def test_migrate_with_an_unreachable_database_hides_the_password(env: dict[str, str]) -> None:
    url = f"postgresql://tahqiq:hunter2@127.0.0.1:{free_port()}/tahqiq"
    out = tahqiq(env, "migrate", "--database-url", url)
    line = one_line_error(out, 1, "tahqiq migrate: cannot open the database", "TAHQIQ_DATABASE_URL", ":***@")
    assert "hunter2" not in out.stderr + out.stdout and "hunter2" not in line


def test_migrate_with_a_database_url_of_no_known_kind(env: dict[str, str]) -> None:
    out = tahqiq(env, "migrate", "--database-url", "mysql://x/y")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "must start with sqlite:/// or postgresql://" in out.stderr


def test_a_mistyped_app_id(env: dict[str, str]) -> None:
    one_line_error(tahqiq(env, "apps", "rotate-key", "not-an-id"), 2, "APP_ID must be a UUID")
    one_line_error(tahqiq(env, "apps", "delete", "0b7e4f3c-5a7e-4d2b-9c1f-2e3d4c5b6a70"), 1, "no app has id")


def test_an_unexpected_failure_is_one_line(env: dict[str, str], tmp_path: Path) -> None:
    """A data folder that is a file: the command fails where nobody planned for it, and still says so in one line."""
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("\n".join(shipped_sentences(env, 1)) + "\n", encoding="utf-8")
    env = env | {"TAHQIQ_DATA_DIR": str(not_a_folder)}
    out = tahqiq(env, "corpus", "import", str(corpus), "--format", "jsonl", "--name", "mine")
    one_line_error(out, 1, "tahqiq corpus import: failed:", "--debug shows the traceback")


def test_an_app_key_rotated_and_an_app_deleted_on_a_running_server(env: dict[str, str]) -> None:
    with ServerProcess(env) as server:
        created = json.loads(tahqiq(env, "apps", "create", "--name", "platform", "--first-party", "--json").stdout)
        rotated = json.loads(tahqiq(env, "apps", "rotate-key", created["app_id"], "--json").stdout)
        assert set(rotated) == {"app_id", "app_key", "name"} and rotated["app_key"] != created["app_key"]
        verify = f"{server.url}/agents/access-core/verify-identity"
        answer = httpx.post(verify, json={"token": "x"}, headers={"X-Service-App-Key": rotated["app_key"]})
        assert answer.status_code == 200 and answer.json()["success"] is False  # the app is known, the token not
        answer = httpx.post(verify, json={"token": "x"}, headers={"X-Service-App-Key": created["app_key"]})
        assert answer.status_code == 401  # never looked up by this server: refused at once
        listed = json.loads(tahqiq(env, "apps", "list", "--json").stdout)
        assert len(listed) == 1 and rotated["app_key"].startswith(listed[0]["key_prefix"].rstrip("…"))
        deleted = tahqiq(env, "apps", "delete", created["app_id"], "--json")
        assert json.loads(deleted.stdout) == {"app_id": created["app_id"], "deleted": True}
        assert json.loads(tahqiq(env, "apps", "list", "--json").stdout) == []


def shipped_sentences(env: dict[str, str], count: int) -> list[str]:
    """The first `count` sentences of the shipped corpus as JSON lines: a valid corpus to import."""
    return tahqiq(env, "corpus", "export", "tahqiq").stdout.splitlines()[:count]


def test_a_corpus_is_replaced_only_when_asked(env: dict[str, str], tmp_path: Path) -> None:
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text("\n".join(shipped_sentences(env, 1)) + "\n", encoding="utf-8")
    second.write_text("\n".join(shipped_sentences(env, 2)) + "\n", encoding="utf-8")
    assert tahqiq(env, "corpus", "import", str(first), "--format", "jsonl", "--name", "mine").returncode == 0
    again = tahqiq(env, "corpus", "import", str(second), "--format", "jsonl", "--name", "mine")
    one_line_error(again, 1, "tahqiq corpus import: ", "'mine' exists already", "--replace")
    assert '"sentences": 1' in tahqiq(env, "corpus", "stats", "--json").stdout.split('"name": "mine"')[1]
    replaced = tahqiq(env, "corpus", "import", str(second), "--format", "jsonl", "--name", "mine", "--replace")
    assert replaced.returncode == 0, replaced.stderr
    assert '"sentences": 2' in tahqiq(env, "corpus", "stats", "--json").stdout.split('"name": "mine"')[1]


def test_corpus_export_into_a_reader_that_stops(env: dict[str, str]) -> None:
    """`tahqiq corpus export tahqiq | head -1`: the first line, and nothing on standard error."""
    with subprocess.Popen(
        [sys.executable, "-m", "tahqiq", "corpus", "export", "tahqiq"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as export:
        assert export.stdout is not None and export.stderr is not None
        first = export.stdout.readline()
        export.stdout.close()  # the reader goes away
        status = export.wait(timeout=60)
        stderr = export.stderr.read().decode()
    assert json.loads(first)["sentence_id"] > 0
    assert status == 0 and stderr == "", stderr
