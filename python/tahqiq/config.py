"""The one settings object of tahqiq, read from `TAHQIQ_*` variables (and `AGENT_FIRST_PARTY_APP_ID`).

Only `web/app.py` and `cli/` read the environment; everything below them receives a `Settings`.
Every problem with the settings is reported at once, with the variable's name and what to write instead.
"""

from __future__ import annotations

import base64
import os
import re
import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from tahqiq.limits import RateLimit

AREAS = ("agents", "summarize", "analysis")
"""The areas this build serves; `--areas` picks a subset."""

DEFAULT_FIRST_PARTY_APP_ID = "6f1c2a3e-0b7d-4c1e-9a51-7a61d2f0c0de"
SHUTDOWN_CLOSE_S = 5
"""Seconds a stopping worker has, after `shutdown_wait_s`, to stop its processor and close its store before the
server kills it."""


class SettingsError(ValueError):
    """One or more settings are invalid; `str()` lists every one of them."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("invalid settings:\n" + "\n".join(f"  - {p}" for p in problems))


@dataclass(frozen=True)
class Setting:
    """How one field is read: its variable, its flag and the help text used by docs and `serve --help`."""

    env: str
    help: str


def _setting(env: str, help: str, **kwargs: Any) -> Any:
    return field(metadata={"setting": Setting(env, help)}, **kwargs)


_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*s\s*$")


def parse_rate(text: str) -> RateLimit:
    """`"120/60s"` -> RateLimit(120, 60)."""
    match = _RATE.match(text)
    if not match or int(match[1]) < 1 or int(match[2]) < 1:
        raise ValueError(f"expected COUNT/SECONDSs such as 120/60s, got {text!r}")
    return RateLimit(limit=int(match[1]), window_s=int(match[2]))


@dataclass(frozen=True)
class Settings:
    database_url: str = _setting(
        "TAHQIQ_DATABASE_URL",
        "sqlite:///PATH (embedded, one process) or postgresql://USER:PASS@HOST/DB (many processes)",
        default="sqlite:///./var/tahqiq.db",
    )
    host: str = _setting("TAHQIQ_HOST", "address to listen on", default="127.0.0.1")
    port: int = _setting("TAHQIQ_PORT", "port to listen on", default=8000)
    workers: int = _setting("TAHQIQ_WORKERS", "server worker processes (more than 1 needs PostgreSQL)", default=1)
    areas: tuple[str, ...] = _setting("TAHQIQ_AREAS", "comma-separated areas to serve", default=AREAS)
    first_party_app_id: str = _setting(
        "AGENT_FIRST_PARTY_APP_ID",
        "app id (UUID) that work-endpoint tokens must be minted for; the default audience of minting",
        default=DEFAULT_FIRST_PARTY_APP_ID,
    )
    issuer: str = _setting("TAHQIQ_ISSUER", "`iss` of identity tokens", default="tahqiq")
    clock_skew_s: int = _setting("TAHQIQ_CLOCK_SKEW_S", "leeway in seconds for token exp/nbf checks", default=30)
    idempotency_ttl_s: int = _setting(
        "TAHQIQ_IDEMPOTENCY_TTL_S", "how long idempotency records are kept", default=86_400
    )
    submission_rate: RateLimit = _setting(  # noqa: RUF009 - returns a dataclasses.field
        "TAHQIQ_SUBMISSION_RATE", "submissions per agent, COUNT/SECONDSs", default=RateLimit(120, 60)
    )
    auth_failure_rate: RateLimit = _setting(  # noqa: RUF009 - returns a dataclasses.field
        "TAHQIQ_AUTH_FAILURE_RATE",
        "failed credential attempts per client address before 429, COUNT/SECONDSs",
        default=RateLimit(20, 60),
    )
    max_body_bytes: int = _setting(
        "TAHQIQ_MAX_BODY_BYTES", "largest request body accepted (413 above)", default=1_048_576
    )
    body_timeout_s: float = _setting(
        "TAHQIQ_BODY_TIMEOUT_S",
        "seconds a request body has to arrive in full, counted from when the service begins reading it; "
        "later: 408 and the connection is closed",
        default=30.0,
    )
    problem_base: str = _setting(
        "TAHQIQ_PROBLEM_BASE",
        "base URI of problem types; empty means /problems on the serving host",
        default="",
    )
    secret_key: bytes = _setting(
        "TAHQIQ_SECRET_KEY",
        "base64 of 32 random bytes encrypting signing keys at rest; every instance sharing a database "
        "needs the same one. Unset: read from (or created in) TAHQIQ_SECRET_KEY_FILE",
        default=b"",
        repr=False,
    )
    secret_key_file: str = _setting(
        "TAHQIQ_SECRET_KEY_FILE",
        "file holding the secret key when TAHQIQ_SECRET_KEY is unset",
        default="./var/secret.key",
    )
    token_cache_size: int = _setting(
        "TAHQIQ_TOKEN_CACHE_SIZE", "verified tokens remembered per process", default=10_000
    )
    processor_poll_s: float = _setting(
        "TAHQIQ_PROCESSOR_POLL_S", "how often the submission processor looks for work", default=0.2
    )
    data_dir: str = _setting(
        "TAHQIQ_DATA_DIR", "folder for imported corpora and compiled language data", default="./var"
    )
    cache_dir: str = _setting(
        "TAHQIQ_CACHE_DIR",
        "folder for language data compiled from installed packages when the wheel's copy does not match them, and "
        "for the morphological analyser's answers, shared by the machine's processes; safe to share and to delete",
        default="./var/cache",
    )
    analysis_max_chars: int = _setting(
        "TAHQIQ_ANALYSIS_MAX_CHARS", "longest text the analysis operations accept (422 above)", default=10_000
    )
    analysis_processes: int = _setting(
        "TAHQIQ_ANALYSIS_PROCESSES",
        "worker processes per server worker that run the analysis (0: one thread of the server's process)",
        default=1,
    )
    analysis_queue: int = _setting(
        "TAHQIQ_ANALYSIS_QUEUE",
        "analysis requests that may wait for a worker, per server worker; more get 503 with Retry-After",
        default=32,
    )
    summarize_rate: RateLimit = _setting(  # noqa: RUF009 - returns a dataclasses.field
        "TAHQIQ_SUMMARIZE_RATE",
        "summaries per client (its app key when sent, else its address), COUNT/SECONDSs",
        default=RateLimit(30, 60),
    )
    summarize_max_chars: int = _setting(
        "TAHQIQ_SUMMARIZE_MAX_CHARS", "longest text the summarization accepts (422 above)", default=100_000
    )
    gateway_url: str = _setting(
        "TAHQIQ_GATEWAY_URL",
        "base URL of the chat-completions gateway (`{URL}/chat/completions` is called); empty: no gateway",
        default="",
    )
    gateway_model: str = _setting("TAHQIQ_GATEWAY_MODEL", "model alias asked of the gateway", default="")
    gateway_key: str = _setting(
        "TAHQIQ_GATEWAY_KEY", "bearer key for the gateway (never logged)", default="", repr=False
    )
    gateway_enabled: bool = _setting(
        "TAHQIQ_GATEWAY_ENABLED", "0: do not call the gateway even when its URL is set", default=True
    )
    provider_url: str = _setting(
        "TAHQIQ_PROVIDER_URL",
        "base URL of the chat-completions provider (vendor), used directly or after a gateway 404; empty: none",
        default="",
    )
    provider_model: str = _setting("TAHQIQ_PROVIDER_MODEL", "model asked of the provider", default="")
    provider_key: str = _setting(
        "TAHQIQ_PROVIDER_KEY", "bearer key for the provider (never logged)", default="", repr=False
    )
    upstream_timeout_s: float = _setting(
        "TAHQIQ_UPSTREAM_TIMEOUT_S", "time-out of one upstream attempt, in seconds", default=30.0
    )
    retry_max_wait_s: float = _setting(
        "TAHQIQ_RETRY_MAX_WAIT_S",
        "longest Retry-After honoured before the one retry of an upstream 429/502/503/504; longer: fail at once",
        default=5.0,
    )
    breaker_failures: int = _setting(
        "TAHQIQ_BREAKER_FAILURES", "consecutive upstream failures that open its circuit breaker", default=5
    )
    breaker_reset_s: float = _setting(
        "TAHQIQ_BREAKER_RESET_S", "seconds an open breaker waits before letting one trial call through", default=30.0
    )
    shutdown_wait_s: float = _setting(
        "TAHQIQ_SHUTDOWN_WAIT_S",
        "on SIGTERM, seconds the requests already being handled have to finish before the store and the upstream "
        f"client close; a worker still busy {SHUTDOWN_CLOSE_S} s after that is killed",
        default=30.0,
    )
    require_app_key: bool = _setting(
        "TAHQIQ_REQUIRE_APP_KEY", "1: the analysis (and summarization) routes require X-Service-App-Key", default=False
    )
    log_level: str = _setting("TAHQIQ_LOG_LEVEL", "critical|error|warning|info|debug", default="info")
    access_log: bool = _setting(
        "TAHQIQ_ACCESS_LOG", "log one line per request: method, route, status, latency, request id (1/0)", default=False
    )
    log_format: str = _setting("TAHQIQ_LOG_FORMAT", "text, or json: one JSON object per line", default="text")
    metrics: bool = _setting(
        "TAHQIQ_METRICS", "serve GET /metrics, Prometheus text format, for the internal network (1/0)", default=True
    )

    @classmethod
    def from_env(cls, environ: Mapping[str, str], **overrides: Any) -> Settings:
        """Settings from variables, then `overrides` (flags of `tahqiq serve`; None means not given)."""
        raw: dict[str, Any] = {}
        problems: list[str] = []
        for f in fields(cls):
            env = f.metadata["setting"].env
            if f.name in overrides and overrides[f.name] is not None:
                value = overrides[f.name]
            elif env in environ:
                value = environ[env]
            else:
                continue
            try:
                raw[f.name] = _convert(f.name, value)
            except ValueError as exc:
                problems.append(f"{env}: {exc}")
        settings = cls(**raw)
        problems.extend(settings.problems())
        if problems:
            raise SettingsError(problems)
        return settings

    def problems(self) -> list[str]:
        """Everything wrong with these settings taken together, as messages that say what to fix."""
        out = []
        scheme = self.database_url.split(":", 1)[0]
        if scheme not in ("sqlite", "postgresql", "postgres"):
            out.append(
                "TAHQIQ_DATABASE_URL: must start with sqlite:/// or postgresql://, "
                f"got {self.database_url.split('@')[-1]!r}"
            )
        if scheme == "sqlite" and self.workers > 1:
            out.append("TAHQIQ_WORKERS: SQLite is safe for one process only; use 1 worker or a postgresql:// database")
        if not 0 <= self.port <= 65535:
            out.append(f"TAHQIQ_PORT: must be 0..65535, got {self.port}")
        if not 1 <= self.workers <= 64:
            out.append(f"TAHQIQ_WORKERS: must be 1..64, got {self.workers}")
        unknown = [a for a in self.areas if a not in AREAS]
        if unknown or not self.areas:
            out.append(f"TAHQIQ_AREAS: choose from {', '.join(AREAS)}; got {', '.join(self.areas) or 'nothing'}")
        try:
            if str(uuid.UUID(self.first_party_app_id)) != self.first_party_app_id.lower():
                raise ValueError
        except ValueError:
            out.append(f"AGENT_FIRST_PARTY_APP_ID: must be a UUID, got {self.first_party_app_id!r}")
        for name, low, high in (
            ("clock_skew_s", 0, 600),
            ("idempotency_ttl_s", 60, 30 * 86_400),
            ("max_body_bytes", 1024, 64 * 1_048_576),
            ("token_cache_size", 0, 10_000_000),
            ("analysis_max_chars", 1, 1_000_000),
            ("analysis_processes", 0, 64),
            ("analysis_queue", 0, 100_000),
        ):
            value = getattr(self, name)
            if not low <= value <= high:
                out.append(f"{_env(name)}: must be {low}..{high}, got {value}")
        for name, low, high in (
            ("summarize_max_chars", 1, 10_000_000),
            ("breaker_failures", 1, 1000),
        ):
            value = getattr(self, name)
            if not low <= value <= high:
                out.append(f"{_env(name)}: must be {low}..{high}, got {value}")
        for name, flow, fhigh in (
            ("body_timeout_s", 0.01, 3600.0),
            ("upstream_timeout_s", 0.01, 600.0),
            ("retry_max_wait_s", 0.0, 600.0),
            ("breaker_reset_s", 0.01, 86_400.0),
            ("shutdown_wait_s", 0.0, 3600.0),
        ):
            fvalue = getattr(self, name)
            if not flow <= fvalue <= fhigh:
                out.append(f"{_env(name)}: must be {flow:g}..{fhigh:g} seconds, got {fvalue:g}")
        for prefix in ("gateway", "provider"):
            url = getattr(self, f"{prefix}_url")
            if url and not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", url):
                out.append(f"{_env(prefix + '_url')}: must be an http:// or https:// base URL, got {url!r}")
            if url and not getattr(self, f"{prefix}_model"):
                out.append(f"{_env(prefix + '_model')}: required when {_env(prefix + '_url')} is set")
        if not 0.01 <= self.processor_poll_s <= 60:
            out.append(f"TAHQIQ_PROCESSOR_POLL_S: must be 0.01..60, got {self.processor_poll_s}")
        if self.log_level not in ("critical", "error", "warning", "info", "debug"):
            out.append(f"TAHQIQ_LOG_LEVEL: choose critical, error, warning, info or debug, got {self.log_level!r}")
        if self.log_format not in ("text", "json"):
            out.append(f"TAHQIQ_LOG_FORMAT: choose text or json, got {self.log_format!r}")
        if self.secret_key and len(self.secret_key) != 32:
            out.append("TAHQIQ_SECRET_KEY: must be the base64 of exactly 32 bytes")
        return out

    def with_secret_key(self) -> Settings:
        """These settings with `secret_key` filled from its file, creating the file (mode 0600) when missing."""
        if self.secret_key:
            return self
        path = Path(self.secret_key_file)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(base64.b64encode(secrets.token_bytes(32)).decode() + "\n")
        try:
            key = _convert("secret_key", path.read_text().strip())
        except ValueError:
            key = b""
        if len(key) != 32:
            raise SettingsError([f"TAHQIQ_SECRET_KEY_FILE: {path} must hold the base64 of 32 bytes"])
        return replace(self, secret_key=key)

    def to_env(self) -> dict[str, str]:
        """These settings as variables, so that server worker processes rebuild exactly the same object."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, RateLimit):
                text = f"{value.limit}/{value.window_s}s"
            elif isinstance(value, tuple):
                text = ",".join(value)
            elif isinstance(value, bytes):
                text = base64.b64encode(value).decode()
            elif isinstance(value, bool):
                text = "1" if value else "0"
            else:
                text = str(value)
            out[f.metadata["setting"].env] = text
        return out


def _env(name: str) -> str:
    for f in fields(Settings):
        if f.name == name:
            return str(f.metadata["setting"].env)
    raise KeyError(name)


def _convert(name: str, value: Any) -> Any:
    """Turns a variable's text (or a flag's value) into the field's type, or raises ValueError saying why."""
    if not isinstance(value, str):
        return tuple(value) if name == "areas" else value
    text = value.strip()
    if name in (
        "port",
        "workers",
        "clock_skew_s",
        "idempotency_ttl_s",
        "max_body_bytes",
        "token_cache_size",
        "analysis_max_chars",
        "analysis_processes",
        "analysis_queue",
        "summarize_max_chars",
        "breaker_failures",
    ):
        if not re.fullmatch(r"[+-]?\d+", text):
            raise ValueError(f"expected a whole number, got {value!r}")
        return int(text)
    if name in (
        "body_timeout_s",
        "processor_poll_s",
        "upstream_timeout_s",
        "retry_max_wait_s",
        "breaker_reset_s",
        "shutdown_wait_s",
    ):
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"expected a number of seconds, got {value!r}") from None
    if name in ("submission_rate", "auth_failure_rate", "summarize_rate"):
        return parse_rate(text)
    if name == "areas":
        return tuple(a.strip() for a in text.split(",") if a.strip())
    if name in ("access_log", "require_app_key", "gateway_enabled", "metrics"):
        if text.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
            raise ValueError(f"expected 1 or 0, got {value!r}")
        return text.lower() in ("1", "true", "yes", "on")
    if name == "secret_key":
        try:
            return base64.b64decode(text, validate=True)
        except ValueError:
            raise ValueError("expected base64 (of 32 random bytes)") from None
    if name in ("log_level", "log_format"):
        return text.lower()
    return text


def describe() -> list[tuple[str, str, str]]:
    """(variable, default, help) for every setting: the source of the settings table in docs/operations.md."""
    out = []
    for f in fields(Settings):
        meta: Setting = f.metadata["setting"]
        default = Settings().to_env()[meta.env] if f.name != "secret_key" else "(from the key file)"
        out.append((meta.env, default, meta.help))
    return out
