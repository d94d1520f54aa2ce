"""Storage for tahqiq: `open_store(url)` picks the implementation of `Store` that the URL names."""

from __future__ import annotations

from tahqiq.limits import RateDecision, RateLimit
from tahqiq.store.protocol import (
    Accepted,
    AcceptOutcome,
    Agent,
    AgentStatus,
    AlreadyExists,
    App,
    Applied,
    Artifact,
    Claim,
    ClaimStatus,
    KeyReused,
    NewSubmission,
    ProcessingTx,
    RateLimited,
    Replayed,
    SigningKey,
    Store,
    Submission,
    SubmissionHandler,
    SubmissionStatus,
)

__all__ = [
    "AcceptOutcome",
    "Accepted",
    "Agent",
    "AgentStatus",
    "AlreadyExists",
    "App",
    "Applied",
    "Artifact",
    "Claim",
    "ClaimStatus",
    "KeyReused",
    "NewSubmission",
    "ProcessingTx",
    "RateDecision",
    "RateLimit",
    "RateLimited",
    "Replayed",
    "SigningKey",
    "Store",
    "Submission",
    "SubmissionHandler",
    "SubmissionStatus",
    "open_store",
    "sqlite_path",
]

_SQLITE = "sqlite:///"


def sqlite_path(database_url: str) -> str:
    """The file of a `sqlite:///PATH` URL: `sqlite:///var/t.db` is relative, `sqlite:////srv/t.db` absolute,
    `sqlite:///:memory:` an in-memory database (tests only: it lives and dies with the store)."""
    if not database_url.startswith(_SQLITE):
        raise ValueError(f"not a SQLite URL (expected sqlite:///PATH): {database_url!r}")
    path = database_url[len(_SQLITE) :]
    if not path or "?" in path or "#" in path:
        raise ValueError(
            f"bad SQLite URL {database_url!r}: expected sqlite:///relative/path.db, "
            "sqlite:////absolute/path.db or sqlite:///:memory:, without query parameters"
        )
    return path


def open_store(database_url: str) -> Store:
    """The store for `database_url`, not opened yet: `await store.open()`, then `await store.migrate()`.

    `sqlite:///PATH` gives the embedded SQLite store (one serving process); `postgresql://…` or `postgres://…`
    the PostgreSQL store (any number of processes and machines).
    """
    scheme = database_url.partition(":")[0].lower()
    if scheme == "sqlite":
        from tahqiq.store.sqlite import SqliteStore

        return SqliteStore(sqlite_path(database_url))
    if scheme in ("postgresql", "postgres"):
        from tahqiq.store.postgres import PostgresStore

        return PostgresStore(database_url)
    shown = database_url.split("@")[-1] if "@" in database_url else database_url  # never echo a password
    raise ValueError(
        f"unsupported database URL {shown!r}: use sqlite:///PATH (embedded, one process) "
        "or postgresql://USER:PASSWORD@HOST:PORT/DB (shared)"
    )
