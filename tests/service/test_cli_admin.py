"""The administration commands, run as a user would: `python -m tahqiq ...` against a SQLite file and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from tahqiq.access.keys import key_hash
from tahqiq.store import migrations, open_store

from tests.support.server import FIRST_PARTY_APP_ID, server_env


@pytest.fixture(params=["sqlite", "postgres"])
def env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    url = f"sqlite:///{tmp_path / 'cli.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    return server_env(url)


def tahqiq(env: dict[str, str], *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(
        [sys.executable, "-m", "tahqiq", *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    if ok:
        assert out.returncode == 0, out.stderr
    return out


def as_json(out: subprocess.CompletedProcess[str]) -> object:
    return json.loads(out.stdout)


def agent_of_key(url: str, api_key: str) -> str | None:
    """The agent the store finds for an API key (by its hash), as minting would."""

    async def read() -> str | None:
        store = open_store(url)
        await store.open()
        try:
            agent = await store.agent_by_key_hash(key_hash(api_key))
            return agent.agent_id if agent else None
        finally:
            await store.close()

    return asyncio.run(read())


def test_agent_life_cycle(env: dict[str, str]) -> None:
    created = as_json(tahqiq(env, "agents", "create", "--role", "judge", "--name", "قاضي ١", "--json"))
    assert isinstance(created, dict)
    assert set(created) == {"agent_id", "api_key", "role_id", "scopes"}
    assert created["role_id"] == "judge"
    assert created["scopes"] == ["claims:ready_for_verdict:read", "claims:artifacts:read", "submissions:judge"]
    assert created["api_key"].startswith("svc_agent_") and len(created["api_key"]) == len("svc_agent_") + 43
    agent_id = created["agent_id"]
    assert str(uuid.UUID(agent_id)) == agent_id

    listed = as_json(tahqiq(env, "agents", "list", "--json"))
    assert isinstance(listed, list)
    [row] = [a for a in listed if a["agent_id"] == agent_id]
    assert row["name"] == "قاضي ١" and row["status"] == "active"
    assert created["api_key"] not in tahqiq(env, "agents", "list").stdout  # never shown again
    assert row["key_prefix"] == created["api_key"][: len("svc_agent_") + 6] + "…"

    shown = as_json(tahqiq(env, "agents", "suspend", agent_id, "--json"))
    assert isinstance(shown, dict) and shown["status"] == "suspended"
    shown = as_json(tahqiq(env, "agents", "activate", agent_id, "--json"))
    assert isinstance(shown, dict) and shown["status"] == "active"

    rotated = as_json(tahqiq(env, "agents", "rotate-key", agent_id, "--json"))
    assert isinstance(rotated, dict) and rotated["api_key"] != created["api_key"]
    assert agent_of_key(env["TAHQIQ_DATABASE_URL"], rotated["api_key"]) == agent_id
    assert agent_of_key(env["TAHQIQ_DATABASE_URL"], created["api_key"]) is None


def test_unknown_role_and_agent_are_refused(env: dict[str, str]) -> None:
    out = tahqiq(env, "agents", "create", "--role", "auditor", ok=False)
    assert out.returncode == 2 and "claim_splitter" in out.stderr
    out = tahqiq(env, "agents", "show", str(uuid.uuid4()), ok=False)
    assert out.returncode == 1 and "no agent" in out.stderr


def test_apps_and_first_party(env: dict[str, str]) -> None:
    first = as_json(tahqiq(env, "apps", "create", "--name", "platform", "--first-party", "--json"))
    assert isinstance(first, dict)
    assert first["app_id"] == FIRST_PARTY_APP_ID and first["app_key"].startswith("svc_app_")
    other_id = str(uuid.uuid4())
    other = as_json(tahqiq(env, "apps", "create", "--name", "partner", "--app-id", other_id, "--json"))
    assert isinstance(other, dict) and other["app_id"] == other_id
    apps = as_json(tahqiq(env, "apps", "list", "--json"))
    assert isinstance(apps, list)
    assert {(a["app_id"], a["first_party"]) for a in apps} == {(FIRST_PARTY_APP_ID, True), (other_id, False)}
    assert tahqiq(env, "apps", "create", "--name", "x", "--app-id", "not-a-uuid", ok=False).returncode == 2


def test_keys_tokens_and_migrate(env: dict[str, str]) -> None:
    latest = migrations.load("sqlite")[-1].version  # both dialects ship the same versions (test_store.py)
    assert as_json(tahqiq(env, "migrate", "--json")) == {"schema_version": latest}
    kid = as_json(tahqiq(env, "keys", "rotate", "--json"))
    assert isinstance(kid, dict) and uuid.UUID(kid["kid"])
    jti = str(uuid.uuid4())
    assert as_json(tahqiq(env, "tokens", "revoke", jti, "--json")) == {"jti": jti, "revoked": True}
    assert tahqiq(env, "tokens", "revoke", "nope", ok=False).returncode == 2


def test_invalid_settings_name_the_variable(tmp_path: Path) -> None:
    env = server_env(f"sqlite:///{tmp_path / 'x.db'}", TAHQIQ_SUBMISSION_RATE="lots", TAHQIQ_CLOCK_SKEW_S="-5")
    out = tahqiq(env, "agents", "list", ok=False)
    assert out.returncode == 2
    assert "TAHQIQ_SUBMISSION_RATE" in out.stderr and "TAHQIQ_CLOCK_SKEW_S" in out.stderr


def test_report_help_and_unknown_options() -> None:
    """`report --help` reaches the report's own parser; other commands still refuse options they do not know."""
    from tahqiq.cli import main

    with pytest.raises(SystemExit) as help_exit:
        main(["report", "--help"])
    assert help_exit.value.code == 0
    with pytest.raises(SystemExit) as bad_exit:
        main(["migrate", "--no-such-option"])
    assert bad_exit.value.code == 2
