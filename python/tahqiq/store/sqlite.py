"""The embedded store: one SQLite file in WAL mode, for one serving process (plus the CLI beside it).

Writes run on one connection owned by one dedicated thread, each in a `BEGIN IMMEDIATE` transaction, so
the event loop never waits for a lock or an fsync; an asyncio.Lock keeps `process_batch` (whose transaction
spans the handlers' awaits) and every other write from interleaving on that connection. Concurrent accepts are
written together, one transaction and one WAL sync per batch (group commit), each answered once it is synced.
Another process (the CLI) may write to the same file at the same time: SQLite's file locks and `busy_timeout`
serialise us, and nothing mutable is cached in memory.

Reads go, by default, to a second connection used directly on the event-loop thread: in WAL mode a reader
never waits for a writer, and an indexed lookup takes a few microseconds, far less than a thread hop.

synchronous=FULL is the default, though NORMAL commits faster: with NORMAL a commit in WAL mode is not synced, so a
submission answered 202 could be lost by a power cut, which the service promises not to do; group commit spreads
that sync over every accept waiting instead. The figures of both choices: see docs/benchmarks.md, "SQLite store".
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar

from tahqiq.limits import RateDecision, RateLimit, counted, peeked, window
from tahqiq.store import _common as c
from tahqiq.store import migrations
from tahqiq.store.protocol import (
    Accepted,
    AcceptOutcome,
    Agent,
    AgentStatus,
    AlreadyExists,
    App,
    Artifact,
    Claim,
    ClaimStatus,
    KeyReused,
    NewSubmission,
    RateLimited,
    Replayed,
    SigningKey,
    Submission,
    SubmissionHandler,
)

T = TypeVar("T")
Row = tuple[Any, ...]
Synchronous = Literal["FULL", "NORMAL", "EXTRA"]
ReadMode = Literal["direct", "thread"]

ACCEPT_BATCH_MAX = 256
_UNIQUE_ERRORS = {"SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"}


def _rows(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> list[Row]:
    # fetchall() steps every statement to its end, so no read transaction stays open behind our back.
    return conn.execute(sql, params).fetchall()


def _one(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> Row | None:
    rows = _rows(conn, sql, params)
    return rows[0] if rows else None


def _insert(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> None:
    try:
        conn.execute(sql, params)
    except sqlite3.IntegrityError as exc:
        if getattr(exc, "sqlite_errorname", "") in _UNIQUE_ERRORS:
            raise AlreadyExists(str(exc)) from exc
        raise


def _count_rate(conn: sqlite3.Connection, bucket: str, rate: RateLimit, now: float, units: int = 1) -> RateDecision:
    start, ends_at = window(rate, now)
    row = _one(
        conn,
        "INSERT INTO rate_windows (bucket, window_start, count, ends_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + excluded.count RETURNING count",
        (bucket, start, units, ends_at),
    )
    assert row is not None
    return counted(rate, int(row[0]), ends_at, now)


AUTH_CACHE_SIZE = 50_000
_AUTH_STATE = (
    "SELECT (SELECT status FROM agents WHERE agent_id = ?), EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ?)"
)


def _accept_batch(batch: list[c.Accept], conn: sqlite3.Connection) -> list[AcceptOutcome]:
    """Each accept in turn, as if alone, in the one transaction of the batch (the batch has each key once)."""
    return [_accept_one(a, conn) for a in batch]


def _accept_one(a: c.Accept, conn: sqlite3.Connection) -> AcceptOutcome:
    new = a.new
    seen = _one(
        conn,
        "SELECT fingerprint, status, body FROM idempotency_keys WHERE agent_id = ? AND key = ?",
        (new.agent_id, a.key),
    )
    if seen is not None:
        return Replayed(int(seen[1]), bytes(seen[2])) if seen[0] == a.fingerprint else KeyReused()
    bucket = f"submit:{new.agent_id}"
    decision = _count_rate(conn, bucket, a.rate, a.now)
    if not decision.allowed:  # a 429 costs nothing: the unit goes back
        conn.execute(
            "UPDATE rate_windows SET count = count - 1 WHERE bucket = ? AND window_start = ?",
            (bucket, a.window_start),
        )
        return RateLimited(decision)
    conn.execute(
        "INSERT INTO submissions (submission_id, agent_id, role_id, work_type, payload, status, "
        "reason, created_at, processed_at) VALUES (?, ?, ?, ?, ?, 'accepted', NULL, ?, NULL)",
        (new.submission_id, new.agent_id, new.role_id, new.work_type, a.payload, a.now),
    )
    conn.execute(
        "INSERT INTO idempotency_keys (agent_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (new.agent_id, a.key, a.fingerprint, new.response_status, new.response_body, a.now),
    )
    return Accepted(decision)


class SqliteStore:
    url_scheme = "sqlite"

    def __init__(
        self,
        path: str,
        *,
        synchronous: Synchronous = "FULL",
        busy_timeout_ms: int = 10_000,
        reads: ReadMode = "direct",
    ) -> None:
        self.path = path
        self._memory = path == ":memory:" or path.startswith("file::memory:")
        self._synchronous = synchronous
        self._busy_timeout_ms = busy_timeout_ms
        self._read_mode = reads
        self._lock = asyncio.Lock()
        self._writer_pool: ThreadPoolExecutor | None = None
        self._reader_pool: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None  # owned by the writer thread
        self._reader: sqlite3.Connection | None = None
        # auth_state answers, valid while the reader's `PRAGMA data_version` stays the same: it changes whenever
        # any other connection (our writer, the CLI, another process) commits, so a revocation is seen at once.
        self._auth_cache: dict[tuple[str, str], tuple[AgentStatus | None, bool]] = {}
        self._auth_version = -1
        # The version is read at most once per event-loop iteration: requests handled in one iteration are
        # concurrent with any commit the read could miss, and the read was a fifth of a cached verification.
        self._auth_version_fresh = False
        self._accepts: c.Batcher[c.Accept, AcceptOutcome] = c.Batcher(
            self._write_accepts, lambda a: (a.new.agent_id, a.key), ACCEPT_BATCH_MAX, "tahqiq-sqlite-accepts"
        )

    # Life cycle

    async def open(self) -> None:
        if self._writer_pool is not None:
            return
        if not self._memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._writer_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tahqiq-sqlite-writer")
        try:
            await self._in_writer(self._connect_writer)
            if not self._memory:
                self._reader = self._connect(query_only=True)
                if self._read_mode == "thread":
                    self._reader_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tahqiq-sqlite-reader")
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        await self._accepts.close()
        pool, self._writer_pool = self._writer_pool, None
        if pool is not None:
            if self._conn is not None:
                await asyncio.get_running_loop().run_in_executor(pool, self._close_writer)
            pool.shutdown(wait=True)
        if self._reader_pool is not None:
            self._reader_pool.shutdown(wait=True)
            self._reader_pool = None
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def _connect(self, *, query_only: bool) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path,
            isolation_level=None,  # we issue BEGIN/COMMIT ourselves
            check_same_thread=False,  # the reader may move to a reader thread; each is used by one at a time
            timeout=self._busy_timeout_ms / 1000,
        )
        conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
        conn.execute("PRAGMA foreign_keys = ON")
        if query_only:
            conn.execute("PRAGMA query_only = ON")
        return conn

    def _connect_writer(self) -> None:
        conn = self._connect(query_only=False)
        if not self._memory:
            mode = _one(conn, "PRAGMA journal_mode = WAL")
            if mode is None or str(mode[0]).lower() != "wal":
                conn.close()
                raise RuntimeError(f"{self.path}: could not switch to WAL mode (got {mode})")
        # FULL: the WAL is synced on every commit, so an accepted submission survives a power cut.
        conn.execute(f"PRAGMA synchronous = {self._synchronous}")
        self._conn = conn

    def _close_writer(self) -> None:
        if self._conn is not None:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            self._conn.close()
            self._conn = None

    # Plumbing

    def _writer(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("SqliteStore is not open")
        return self._conn

    async def _in_writer(self, fn: Callable[[], T]) -> T:
        if self._writer_pool is None:
            raise RuntimeError("SqliteStore is not open")
        return await asyncio.get_running_loop().run_in_executor(self._writer_pool, fn)

    def _transaction(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        conn = self._writer()
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = fn(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return result

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        async with self._lock:
            return await self._in_writer(partial(self._transaction, fn))

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        reader = self._reader
        if reader is None:  # in memory: one database, reachable only through the writer's connection
            async with self._lock:
                return await self._in_writer(partial(_rows, self._writer(), sql, params))
        if self._reader_pool is not None:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._reader_pool, _rows, reader, sql, params)
        return _rows(reader, sql, params)

    async def _read_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self._read(sql, params)
        return rows[0] if rows else None

    # Migrations

    async def migrate(self) -> list[int]:
        applied: list[int] = []
        for migration in migrations.load("sqlite"):
            if await self._write(partial(self._apply, migration)):
                applied.append(migration.version)
        return applied

    @staticmethod
    def _apply(migration: migrations.Migration, conn: sqlite3.Connection) -> bool:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        if _one(conn, "SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,)):
            return False
        statement = ""
        for line in migration.sql.splitlines(keepends=True):
            statement += line
            if sqlite3.complete_statement(statement):
                conn.execute(statement)
                statement = ""
        leftover = [line for line in statement.splitlines() if line.strip() and not line.strip().startswith("--")]
        if leftover:
            raise RuntimeError(f"migration {migration.version}: incomplete statement {statement!r}")
        conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.version, migration.name, time.time()),
        )
        return True

    async def schema_version(self) -> int:
        exists = await self._read_one("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
        if exists is None:
            return 0
        row = await self._read_one("SELECT coalesce(max(version), 0) FROM schema_migrations")
        return int(row[0]) if row else 0

    # Agents and apps

    async def create_agent(
        self, agent_id: str, name: str, role_id: str, key_hash: str, key_prefix: str, now: float
    ) -> Agent:
        def run(conn: sqlite3.Connection) -> None:
            _insert(
                conn,
                "INSERT INTO agents (agent_id, name, role_id, status, key_hash, key_prefix, created_at, "
                "updated_at) VALUES (?, ?, ?, 'active', ?, ?, ?, ?)",
                (agent_id, name, role_id, key_hash, key_prefix, now, now),
            )

        await self._write(run)
        return Agent(agent_id, name, role_id, "active", key_prefix, now)

    async def get_agent(self, agent_id: str) -> Agent | None:
        row = await self._read_one(f"SELECT {c.AGENT_COLUMNS} FROM agents WHERE agent_id = ?", (agent_id,))
        return c.agent(row) if row else None

    async def list_agents(self) -> list[Agent]:
        rows = await self._read(f"SELECT {c.AGENT_COLUMNS} FROM agents ORDER BY created_at, agent_id")
        return [c.agent(row) for row in rows]

    async def agent_by_key_hash(self, key_hash: str) -> Agent | None:
        row = await self._read_one(f"SELECT {c.AGENT_COLUMNS} FROM agents WHERE key_hash = ?", (key_hash,))
        return c.agent(row) if row else None

    async def set_agent_status(self, agent_id: str, status: AgentStatus, now: float) -> Agent | None:
        def run(conn: sqlite3.Connection) -> Row | None:
            return _one(
                conn,
                f"UPDATE agents SET status = ?, updated_at = ? WHERE agent_id = ? RETURNING {c.AGENT_COLUMNS}",
                (status, now, agent_id),
            )

        row = await self._write(run)
        return c.agent(row) if row else None

    async def set_agent_key(self, agent_id: str, key_hash: str, key_prefix: str, now: float) -> Agent | None:
        def run(conn: sqlite3.Connection) -> Row | None:
            try:
                return _one(
                    conn,
                    "UPDATE agents SET key_hash = ?, key_prefix = ?, updated_at = ? WHERE agent_id = ? "
                    f"RETURNING {c.AGENT_COLUMNS}",
                    (key_hash, key_prefix, now, agent_id),
                )
            except sqlite3.IntegrityError as exc:
                if getattr(exc, "sqlite_errorname", "") in _UNIQUE_ERRORS:
                    raise AlreadyExists(str(exc)) from exc
                raise

        row = await self._write(run)
        return c.agent(row) if row else None

    async def create_app(self, app_id: str, name: str, key_hash: str, key_prefix: str, now: float) -> App:
        def run(conn: sqlite3.Connection) -> None:
            _insert(
                conn,
                "INSERT INTO apps (app_id, name, key_hash, key_prefix, created_at) VALUES (?, ?, ?, ?, ?)",
                (app_id, name, key_hash, key_prefix, now),
            )

        await self._write(run)
        return App(app_id, name, key_prefix, now)

    async def list_apps(self) -> list[App]:
        rows = await self._read(f"SELECT {c.APP_COLUMNS} FROM apps ORDER BY created_at, app_id")
        return [c.app(row) for row in rows]

    async def app_by_key_hash(self, key_hash: str) -> App | None:
        row = await self._read_one(f"SELECT {c.APP_COLUMNS} FROM apps WHERE key_hash = ?", (key_hash,))
        return c.app(row) if row else None

    async def set_app_key(self, app_id: str, key_hash: str, key_prefix: str) -> App | None:
        def run(conn: sqlite3.Connection) -> Row | None:
            try:
                return _one(
                    conn,
                    f"UPDATE apps SET key_hash = ?, key_prefix = ? WHERE app_id = ? RETURNING {c.APP_COLUMNS}",
                    (key_hash, key_prefix, app_id),
                )
            except sqlite3.IntegrityError as exc:
                if getattr(exc, "sqlite_errorname", "") in _UNIQUE_ERRORS:
                    raise AlreadyExists(str(exc)) from exc
                raise

        row = await self._write(run)
        return c.app(row) if row else None

    async def delete_app(self, app_id: str) -> bool:
        def run(conn: sqlite3.Connection) -> bool:
            return conn.execute("DELETE FROM apps WHERE app_id = ?", (app_id,)).rowcount > 0

        return await self._write(run)

    # Signing keys and revocation

    async def add_signing_key(self, kid: str, public_key: bytes, private_key_enc: bytes, now: float) -> None:
        def run(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE signing_keys SET retired_at = ? WHERE retired_at IS NULL", (now,))
            _insert(
                conn,
                "INSERT INTO signing_keys (kid, public_key, private_key_enc, created_at, retired_at) "
                "VALUES (?, ?, ?, ?, NULL)",
                (kid, public_key, private_key_enc, now),
            )

        await self._write(run)

    async def signing_keys(self) -> list[SigningKey]:
        rows = await self._read(
            f"SELECT {c.KEY_COLUMNS} FROM signing_keys "
            "ORDER BY created_at DESC, retired_at IS NULL DESC, retired_at DESC, kid"
        )
        return [c.signing_key(row) for row in rows]

    async def revoke_token(self, jti: str, expires_at: float) -> None:
        def run(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO revoked_tokens (jti, expires_at) VALUES (?, ?) "
                "ON CONFLICT (jti) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at)",
                (jti, expires_at),
            )

        await self._write(run)

    async def auth_state(self, agent_id: str, jti: str) -> tuple[AgentStatus | None, bool]:
        reader = self._reader
        if reader is not None and self._reader_pool is None:
            if not self._auth_version_fresh:
                version = reader.execute("PRAGMA data_version").fetchone()[0]
                if version != self._auth_version:
                    self._auth_cache.clear()
                    self._auth_version = version
                self._auth_version_fresh = True
                asyncio.get_running_loop().call_soon(self._auth_version_expires)
            cached = self._auth_cache.get((agent_id, jti))
            if cached is not None:
                return cached
            answer = self._auth_state_now(reader, agent_id, jti)
            if len(self._auth_cache) >= AUTH_CACHE_SIZE:
                self._auth_cache.clear()
            self._auth_cache[(agent_id, jti)] = answer
            return answer
        row = await self._read_one(_AUTH_STATE, (agent_id, jti))
        assert row is not None
        return row[0], bool(row[1])

    def _auth_version_expires(self) -> None:
        self._auth_version_fresh = False

    @staticmethod
    def _auth_state_now(conn: sqlite3.Connection, agent_id: str, jti: str) -> tuple[AgentStatus | None, bool]:
        row = conn.execute(_AUTH_STATE, (agent_id, jti)).fetchone()
        return row[0], bool(row[1])

    # Rate limits

    async def hit_rate(self, bucket: str, rate: RateLimit, now: float, units: int = 1) -> RateDecision:
        return await self._write(partial(_count_rate, bucket=bucket, rate=rate, now=now, units=units))

    async def peek_rate(self, bucket: str, rate: RateLimit, now: float) -> RateDecision:
        start, ends_at = window(rate, now)
        row = await self._read_one(
            "SELECT count FROM rate_windows WHERE bucket = ? AND window_start = ?", (bucket, start)
        )
        return peeked(rate, int(row[0]) if row else 0, ends_at, now)

    # Submissions

    async def accept_submission(
        self, new: NewSubmission, idempotency_key: str, fingerprint: str, rate: RateLimit, now: float
    ) -> AcceptOutcome:
        accept = c.Accept.of(new, idempotency_key, fingerprint, rate, now)
        # Joins the next batch: one transaction and one WAL sync for every accept waiting (group commit).
        return await self._accepts.submit(accept)

    async def _write_accepts(self, batch: list[c.Accept]) -> list[AcceptOutcome]:
        return await self._write(partial(_accept_batch, batch))

    async def get_submission(self, submission_id: str) -> Submission | None:
        row = await self._read_one(
            f"SELECT {c.SUBMISSION_COLUMNS} FROM submissions WHERE submission_id = ?", (submission_id,)
        )
        return c.submission(row) if row else None

    async def existing_claims(self, claim_ids: set[int]) -> set[int]:
        wanted = [claim_id for claim_id in claim_ids if c.fits_int64(claim_id)]
        if not wanted:
            return set()
        rows = await self._read(
            "SELECT claim_id FROM claims WHERE claim_id IN (SELECT value FROM json_each(?))",
            (json.dumps(wanted),),
        )
        return {int(row[0]) for row in rows}

    async def process_next(self, handler: SubmissionHandler, now: float) -> Submission | None:
        taken = await self.process_batch(handler, now, 1)
        return taken[0] if taken else None

    async def process_batch(self, handler: SubmissionHandler, now: float, limit: int) -> list[Submission]:
        async with self._lock:
            taken, next_ids = await self._in_writer(partial(self._take, limit))
            if not taken:
                return []
            try:

                async def load(claim_id: int) -> tuple[ClaimStatus | None, set[str]]:
                    return await self._in_writer(partial(self._load_claim, claim_id))

                async def allocate(kind: str, count: int) -> list[int]:
                    # We hold the write lock: no one else can take these ids before we commit.
                    first = next_ids[kind]
                    next_ids[kind] = first + count
                    return list(range(first, first + count))

                tx = c.BatchTx(load, allocate, len(taken))
                outcomes = [
                    (reason, now, status, sub.submission_id)
                    for sub, status, reason in await tx.apply_all(taken, handler)
                ]
                await self._in_writer(partial(self._write_batch, tx.kept, outcomes))
            except BaseException:
                # The writer thread is FIFO: this rollback runs before any later write, even when cancelled.
                await asyncio.shield(self._in_writer(self._abandon))
                raise
            return taken

    def _take(self, limit: int) -> tuple[list[Submission], dict[str, int]]:
        conn = self._writer()
        conn.execute("BEGIN IMMEDIATE")
        try:
            rows = _rows(
                conn,
                f"SELECT {c.QUEUED_COLUMNS} FROM submissions WHERE status = 'accepted' "
                "ORDER BY created_at, rowid LIMIT ?",
                (limit,),
            )
            if not rows:
                conn.execute("ROLLBACK")
                return [], {}
            next_ids = {}
            for table, column in (("claims", "claim_id"), ("artifacts", "artifact_id")):
                # AUTOINCREMENT never reuses an id: the next is above both the largest used and the largest present.
                row = _one(
                    conn,
                    f"SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), "
                    f"coalesce((SELECT max({column}) FROM {table}), 0)) + 1",
                    (table,),
                )
                assert row is not None
                next_ids[table] = int(row[0])
            return [c.queued(row) for row in rows], next_ids
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _load_claim(self, claim_id: int) -> tuple[ClaimStatus | None, set[str]]:
        conn = self._writer()
        row = _one(conn, "SELECT status FROM claims WHERE claim_id = ?", (claim_id,))
        if row is None:
            return None, set()
        roles = _rows(conn, "SELECT DISTINCT role_id FROM artifacts WHERE claim_id = ?", (claim_id,))
        return row[0], {role[0] for role in roles}

    def _write_batch(self, kept: c.BatchWrites, outcomes: Sequence[tuple[str | None, float, str, str]]) -> None:
        conn = self._writer()
        conn.executemany(
            "INSERT INTO claims (claim_id, text, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
            [(claim_id, *claim) for claim_id, claim in kept.new_claims.items()],
        )
        conn.executemany(
            f"INSERT INTO artifacts ({c.ARTIFACT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", kept.artifacts
        )
        conn.executemany(
            "UPDATE claims SET status = ?, updated_at = ? WHERE claim_id = ?",
            [(status, at, claim_id) for claim_id, (status, at) in kept.statuses.items()],
        )
        conn.executemany(
            "UPDATE submissions SET reason = ?, processed_at = ?, status = ? WHERE submission_id = ?", outcomes
        )
        conn.execute("COMMIT")

    def _abandon(self) -> None:
        conn = self._writer()
        if conn.in_transaction:
            conn.execute("ROLLBACK")

    # Queues and artifacts

    async def backlog(self) -> tuple[int, float | None]:
        row = await self._read_one("SELECT count(*), min(created_at) FROM submissions WHERE status = 'accepted'")
        assert row is not None
        return int(row[0]), row[1]

    async def pending_claims(self, role_id: str, limit: int) -> list[Claim]:
        rows = await self._read(
            f"SELECT {c.CLAIM_COLUMNS} FROM claims AS cl WHERE status = 'pending_evidence' AND NOT EXISTS "
            "(SELECT 1 FROM artifacts AS a WHERE a.claim_id = cl.claim_id AND a.role_id = ?) "
            "ORDER BY created_at, claim_id LIMIT ?",
            (role_id, limit),
        )
        return [c.claim(row) for row in rows]

    async def ready_claims(self, limit: int) -> list[Claim]:
        rows = await self._read(
            f"SELECT {c.CLAIM_COLUMNS} FROM claims WHERE status = 'ready_for_verdict' "
            "ORDER BY created_at, claim_id LIMIT ?",
            (limit,),
        )
        return [c.claim(row) for row in rows]

    async def get_claim(self, claim_id: int) -> Claim | None:
        if not c.fits_int64(claim_id):
            return None
        row = await self._read_one(f"SELECT {c.CLAIM_COLUMNS} FROM claims WHERE claim_id = ?", (claim_id,))
        return c.claim(row) if row else None

    async def artifacts(self, claim_id: int, role_id: str | None) -> list[Artifact]:
        if not c.fits_int64(claim_id):
            return []
        if role_id is None:
            rows = await self._read(
                f"SELECT {c.ARTIFACT_COLUMNS} FROM artifacts WHERE claim_id = ? ORDER BY created_at, artifact_id",
                (claim_id,),
            )
        else:
            rows = await self._read(
                f"SELECT {c.ARTIFACT_COLUMNS} FROM artifacts WHERE claim_id = ? AND role_id = ? "
                "ORDER BY created_at, artifact_id",
                (claim_id, role_id),
            )
        return [c.artifact(row) for row in rows]

    async def prune(self, now: float, idempotency_ttl_s: float) -> None:
        def run(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM idempotency_keys WHERE created_at < ?", (now - idempotency_ttl_s,))
            conn.execute("DELETE FROM revoked_tokens WHERE expires_at < ?", (now,))
            conn.execute("DELETE FROM rate_windows WHERE ends_at <= ?", (now,))

        await self._write(run)
