"""Settings: every invalid variable is named in the error; `tahqiq serve` refuses them with exit 2; to_env
round-trips."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tahqiq.config import Settings, SettingsError, describe
from tahqiq.limits import RateLimit

INVALID = [
    ("TAHQIQ_DATABASE_URL", "mysql://x/y"),
    ("TAHQIQ_PORT", "eighty"),
    ("TAHQIQ_PORT", "70000"),
    ("TAHQIQ_PORT", "-1"),
    ("TAHQIQ_WORKERS", "0"),
    ("TAHQIQ_WORKERS", "1.5"),
    ("TAHQIQ_AREAS", "agents,nonsense"),
    ("TAHQIQ_AREAS", " , "),
    ("AGENT_FIRST_PARTY_APP_ID", "not-a-uuid"),
    ("AGENT_FIRST_PARTY_APP_ID", "6f1c2a3e0b7d4c1e9a517a61d2f0c0de"),
    ("TAHQIQ_CLOCK_SKEW_S", "-5"),
    ("TAHQIQ_CLOCK_SKEW_S", "601"),
    ("TAHQIQ_IDEMPOTENCY_TTL_S", "10"),
    ("TAHQIQ_SUBMISSION_RATE", "120 per minute"),
    ("TAHQIQ_SUBMISSION_RATE", "0/60s"),
    ("TAHQIQ_SUBMISSION_RATE", "5/0s"),
    ("TAHQIQ_AUTH_FAILURE_RATE", "5/60"),
    ("TAHQIQ_MAX_BODY_BYTES", "10"),
    ("TAHQIQ_MAX_BODY_BYTES", "1MB"),
    ("TAHQIQ_BODY_TIMEOUT_S", "soon"),
    ("TAHQIQ_BODY_TIMEOUT_S", "0"),
    ("TAHQIQ_BODY_TIMEOUT_S", "3601"),
    ("TAHQIQ_SECRET_KEY", "not base64!"),
    ("TAHQIQ_SECRET_KEY", base64.b64encode(b"short").decode()),
    ("TAHQIQ_TOKEN_CACHE_SIZE", "-1"),
    ("TAHQIQ_PROCESSOR_POLL_S", "fast"),
    ("TAHQIQ_PROCESSOR_POLL_S", "0"),
    ("TAHQIQ_SHUTDOWN_WAIT_S", "soon"),
    ("TAHQIQ_SHUTDOWN_WAIT_S", "-1"),
    ("TAHQIQ_LOG_LEVEL", "verbose"),
    ("TAHQIQ_ACCESS_LOG", "maybe"),
]


@pytest.mark.parametrize(("name", "value"), INVALID)
def test_invalid_variable_is_named(name: str, value: str) -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_env({name: value})
    assert any(p.startswith(f"{name}:") for p in info.value.problems), info.value.problems
    assert name in str(info.value)


def test_every_problem_is_reported_at_once() -> None:
    env = {"TAHQIQ_PORT": "x", "TAHQIQ_LOG_LEVEL": "loud", "AGENT_FIRST_PARTY_APP_ID": "nope"}
    with pytest.raises(SettingsError) as info:
        Settings.from_env(env)
    text = str(info.value)
    for name in env:
        assert name in text


def test_sqlite_refuses_several_workers() -> None:
    with pytest.raises(SettingsError, match="TAHQIQ_WORKERS"):
        Settings.from_env({"TAHQIQ_DATABASE_URL": "sqlite:///x.db", "TAHQIQ_WORKERS": "2"})
    assert Settings.from_env({"TAHQIQ_DATABASE_URL": "postgresql://u:p@h/db", "TAHQIQ_WORKERS": "2"}).workers == 2


def test_password_is_not_echoed() -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_env({"TAHQIQ_DATABASE_URL": "mysql://user:hunter2@db/x"})
    assert "hunter2" not in str(info.value)


def test_valid_values_parse() -> None:
    s = Settings.from_env(
        {
            "TAHQIQ_PORT": " 8080 ",
            "TAHQIQ_SUBMISSION_RATE": "10 / 5 s",
            "TAHQIQ_ACCESS_LOG": "true",
            "TAHQIQ_LOG_LEVEL": "DEBUG",
            "TAHQIQ_AREAS": "agents",
            "TAHQIQ_SECRET_KEY": base64.b64encode(bytes(32)).decode(),
        }
    )
    assert s.port == 8080 and s.submission_rate == RateLimit(10, 5) and s.access_log is True
    assert s.log_level == "debug" and s.areas == ("agents",) and s.secret_key == bytes(32)


def test_overrides_win_over_variables() -> None:
    s = Settings.from_env({"TAHQIQ_PORT": "1"}, port=2, host=None)
    assert s.port == 2 and s.host == "127.0.0.1"
    with pytest.raises(SettingsError, match="TAHQIQ_PORT"):
        Settings.from_env({}, port=99999)


def test_to_env_round_trips() -> None:
    original = Settings.from_env(
        {
            "TAHQIQ_DATABASE_URL": "postgresql://u:p@h:5/db",
            "TAHQIQ_PORT": "9001",
            "TAHQIQ_WORKERS": "3",
            "TAHQIQ_SUBMISSION_RATE": "7/9s",
            "TAHQIQ_AUTH_FAILURE_RATE": "3/30s",
            "TAHQIQ_SECRET_KEY": base64.b64encode(os.urandom(32)).decode(),
            "TAHQIQ_PROCESSOR_POLL_S": "0.05",
            "TAHQIQ_ACCESS_LOG": "1",
            "TAHQIQ_PROBLEM_BASE": "https://example.org/problems",
            "TAHQIQ_CLOCK_SKEW_S": "0",
            "TAHQIQ_BODY_TIMEOUT_S": "2.5",
        }
    )
    assert Settings.from_env(original.to_env()) == original
    default = Settings()
    env = default.to_env()
    env.pop("TAHQIQ_SECRET_KEY")  # empty: "use the key file"
    assert Settings.from_env(env) == default
    assert {row[0] for row in describe()} == set(default.to_env())


def test_secret_key_file(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "secret.key"
    s = Settings.from_env({"TAHQIQ_SECRET_KEY_FILE": str(path)}).with_secret_key()
    assert len(s.secret_key) == 32 and path.stat().st_mode & 0o777 == 0o600
    assert Settings.from_env({"TAHQIQ_SECRET_KEY_FILE": str(path)}).with_secret_key().secret_key == s.secret_key
    path.write_text("garbage!\n")
    with pytest.raises(SettingsError, match="TAHQIQ_SECRET_KEY"):
        Settings.from_env({"TAHQIQ_SECRET_KEY_FILE": str(path)}).with_secret_key()


@pytest.mark.parametrize(
    ("env", "args", "name"),
    [
        ({"TAHQIQ_CLOCK_SKEW_S": "soon"}, [], "TAHQIQ_CLOCK_SKEW_S"),
        ({"AGENT_FIRST_PARTY_APP_ID": "x"}, [], "AGENT_FIRST_PARTY_APP_ID"),
        ({}, ["--workers", "4"], "TAHQIQ_WORKERS"),
        ({}, ["--areas", "everything"], "TAHQIQ_AREAS"),
        ({"TAHQIQ_SECRET_KEY": "%%%"}, [], "TAHQIQ_SECRET_KEY"),
    ],
)
def test_serve_refuses_invalid_settings(tmp_path: Path, env: dict[str, str], args: list[str], name: str) -> None:
    base = {k: v for k, v in os.environ.items() if not k.startswith("TAHQIQ_") and k != "AGENT_FIRST_PARTY_APP_ID"}
    base["TAHQIQ_DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite'}"
    base["TAHQIQ_SECRET_KEY_FILE"] = str(tmp_path / "secret.key")
    done = subprocess.run(
        [sys.executable, "-m", "tahqiq", "serve", "--port", "0", *args],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert name in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "db.sqlite").exists(), "nothing is created when the settings are wrong"


def test_serve_refuses_a_corrupt_key_file(tmp_path: Path) -> None:
    (tmp_path / "secret.key").write_text("not base64 at all\n")
    base = {k: v for k, v in os.environ.items() if not k.startswith("TAHQIQ_") and k != "AGENT_FIRST_PARTY_APP_ID"}
    base["TAHQIQ_DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite'}"
    base["TAHQIQ_SECRET_KEY_FILE"] = str(tmp_path / "secret.key")
    done = subprocess.run(
        [sys.executable, "-m", "tahqiq", "serve", "--port", "0"],
        env=base,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "TAHQIQ_SECRET_KEY_FILE" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
