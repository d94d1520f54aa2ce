"""The shared store: PostgreSQL through an asyncpg pool, for many processes on many machines.

Every method is one transaction on one pooled connection; asyncpg prepares and caches each statement per
connection. Concurrency rests on the database alone:
- idempotency: `INSERT ... ON CONFLICT DO NOTHING` on (agent_id, key) waits for a concurrent insert of the
  same key to commit or roll back, so duplicates serialise whatever process they come from;
- rate windows: one upserted row per (bucket, window), counted atomically;
- the submission queue: `FOR UPDATE SKIP LOCKED`, the handler running inside the taking transaction under a
  savepoint, so a rejected handler's writes go while the `rejected` status commits;
- migrations: each in a transaction holding `pg_advisory_xact_lock`, so concurrent `migrate()` calls queue up.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import asyncpg  # type: ignore[import-untyped]

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
    RateDecision,
    RateLimit,
    RateLimited,
    Replayed,
    SigningKey,
    Submission,
    SubmissionHandler,
)

AUTH_CHANNEL = "tahqiq_auth"
AUTH_CACHE_SIZE = 50_000

# pg_advisory_xact_lock key held while migrating: the ASCII bytes of "tahqiqmg" as a bigint.
MIGRATION_LOCK = 0x7461687169716D67

_COUNT_RATE = (
    "INSERT INTO rate_windows (bucket, window_start, count, ends_at) VALUES ($1, $2, $4, $3) "
    "ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_windows.count + $4 RETURNING count"
)


# Claims the key and stores the submission in one statement: the submission row is written only when the key
# row was (a concurrent transaction holding the key makes this wait for its end, then insert nothing).
_ACCEPT = (
    "WITH claimed AS (INSERT INTO idempotency_keys (agent_id, key, fingerprint, status, body, created_at) "
    "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (agent_id, key) DO NOTHING RETURNING agent_id) "
    "INSERT INTO submissions (submission_id, agent_id, role_id, work_type, payload, status, reason, created_at, "
    "processed_at) SELECT $7, agent_id, $8, $9, $10, 'accepted', NULL, $6, NULL FROM claimed RETURNING true"
)
ACCEPT_BATCH_MAX = 128


class _Batcher:
    """Runs `write(batch)` for items queued by concurrent callers, a batch at a time, so that many accepts share
    one transaction and one WAL flush. Every caller gets its own item's result (or the batch's exception)."""

    def __init__(self, write: Any) -> None:
        self._write = write
        self._queue: list[tuple[Any, asyncio.Future[Any]]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def write(self, item: Any) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future))
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="tahqiq-accept-batcher")
        return await future

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch, self._queue = self._queue[:ACCEPT_BATCH_MAX], self._queue[ACCEPT_BATCH_MAX:]
                try:
                    results = await self._write([item for item, _ in batch])
                except Exception as exc:  # the whole transaction rolled back: nothing of the batch is stored
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(result)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for _, future in self._queue:
            if not future.done():
                future.set_exception(RuntimeError("the store closed before this submission was written"))
        self._queue = []


_ADD_RATE = (
    "INSERT INTO rate_windows (bucket, window_start, count, ends_at) VALUES ($1, $2, GREATEST($4, 0), $3) "
    "ON CONFLICT (bucket, window_start) DO UPDATE SET count = GREATEST(rate_windows.count + $4, 0) RETURNING count"
)


async def _idempotency_record(conn: Any, agent_id: str, key: str, fingerprint: str) -> Replayed | KeyReused | None:
    seen = await conn.fetchrow(
        "SELECT fingerprint, status, body FROM idempotency_keys WHERE agent_id = $1 AND key = $2", agent_id, key
    )
    if seen is None:
        return None
    return Replayed(int(seen[1]), bytes(seen[2])) if seen[0] == fingerprint else KeyReused()


async def _count_rate_fast(conn: Any, bucket: str, rate: RateLimit, now: float, delta: int) -> RateDecision:
    """Adds `delta` to the bucket's current window in a transaction that commits without waiting for the WAL."""
    start, ends_at = c.window(rate, now)
    async with conn.transaction():
        await conn.execute("SET LOCAL synchronous_commit = off")
        count = await conn.fetchval(_ADD_RATE, bucket, start, ends_at, delta)
    return c.counted(rate, int(count), ends_at, now)


async def _count_rate(conn: Any, bucket: str, rate: RateLimit, now: float) -> RateDecision:
    start, ends_at = c.window(rate, now)
    count = await conn.fetchval(_COUNT_RATE, bucket, start, ends_at, 1)
    return c.counted(rate, int(count), ends_at, now)


class PostgresStore:
    url_scheme = "postgresql"

    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.dsn = dsn
        self._min_size = min_size
        self._max_size = max_size
        self._pool: asyncpg.Pool | None = None
        # auth_state answers, dropped whenever the database announces a change (migration 0002's triggers
        # NOTIFY on agent status updates and revocations, from any process). Without a live listener, or
        # while a change may be in flight, answers are read through and not kept.
        self._listener: Any = None
        self._auth_cache: dict[tuple[str, str], tuple[AgentStatus | None, bool]] = {}
        self._auth_generation = 0
        self._accepts = _Batcher(self._write_accepts)

    async def open(self) -> None:
        if self._pool is None:
            self._pool = await asyncpg.create_pool(
                self.dsn, min_size=self._min_size, max_size=self._max_size, command_timeout=60
            )
        if self._listener is None:
            listener = await asyncpg.connect(self.dsn)
            await listener.add_listener(AUTH_CHANNEL, self._auth_changed)
            listener.add_termination_listener(self._listener_lost)
            self._listener = listener

    def _auth_changed(self, *_args: Any) -> None:
        self._auth_generation += 1
        self._auth_cache.clear()

    def _listener_lost(self, *_args: Any) -> None:
        self._listener = None  # read through from now on; the next open() listens again
        self._auth_changed()

    async def close(self) -> None:
        await self._accepts.close()
        listener, self._listener = self._listener, None
        if listener is not None:
            await listener.close()
        self._auth_changed()
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("PostgresStore is not open")
        return self._pool

    async def _fetch(self, sql: str, *args: Any) -> list[Any]:
        return list(await self.pool.fetch(sql, *args))

    async def _fetchrow(self, sql: str, *args: Any) -> Any:
        return await self.pool.fetchrow(sql, *args)

    # Migrations

    async def migrate(self) -> list[int]:
        applied: list[int] = []
        async with self.pool.acquire() as conn:
            for migration in migrations.load("postgres"):
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    await conn.execute(
                        "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, "
                        "name text NOT NULL, applied_at double precision NOT NULL)"
                    )
                    done = await conn.fetchval("SELECT 1 FROM schema_migrations WHERE version = $1", migration.version)
                    if done:
                        continue
                    await conn.execute(migration.sql)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                        migration.version,
                        migration.name,
                        time.time(),
                    )
                    applied.append(migration.version)
        return applied

    async def schema_version(self) -> int:
        row = await self._fetchrow(
            "SELECT to_regclass('schema_migrations') IS NOT NULL",
        )
        if not row[0]:
            return 0
        version = await self.pool.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations")
        return int(version)

    # Agents and apps

    async def create_agent(
        self, agent_id: str, name: str, role_id: str, key_hash: str, key_prefix: str, now: float
    ) -> Agent:
        try:
            await self.pool.execute(
                "INSERT INTO agents (agent_id, name, role_id, status, key_hash, key_prefix, created_at, "
                "updated_at) VALUES ($1, $2, $3, 'active', $4, $5, $6, $6)",
                agent_id,
                name,
                role_id,
                key_hash,
                key_prefix,
                now,
            )
        except asyncpg.UniqueViolationError as exc:
            raise AlreadyExists(str(exc)) from exc
        return Agent(agent_id, name, role_id, "active", key_prefix, now)

    async def get_agent(self, agent_id: str) -> Agent | None:
        row = await self._fetchrow(f"SELECT {c.AGENT_COLUMNS} FROM agents WHERE agent_id = $1", agent_id)
        return c.agent(row) if row else None

    async def list_agents(self) -> list[Agent]:
        rows = await self._fetch(f"SELECT {c.AGENT_COLUMNS} FROM agents ORDER BY created_at, agent_id")
        return [c.agent(row) for row in rows]

    async def agent_by_key_hash(self, key_hash: str) -> Agent | None:
        row = await self._fetchrow(f"SELECT {c.AGENT_COLUMNS} FROM agents WHERE key_hash = $1", key_hash)
        return c.agent(row) if row else None

    async def set_agent_status(self, agent_id: str, status: AgentStatus, now: float) -> Agent | None:
        row = await self._fetchrow(
            f"UPDATE agents SET status = $2, updated_at = $3 WHERE agent_id = $1 RETURNING {c.AGENT_COLUMNS}",
            agent_id,
            status,
            now,
        )
        self._auth_changed()
        return c.agent(row) if row else None

    async def set_agent_key(self, agent_id: str, key_hash: str, key_prefix: str, now: float) -> Agent | None:
        try:
            row = await self._fetchrow(
                "UPDATE agents SET key_hash = $2, key_prefix = $3, updated_at = $4 WHERE agent_id = $1 "
                f"RETURNING {c.AGENT_COLUMNS}",
                agent_id,
                key_hash,
                key_prefix,
                now,
            )
        except asyncpg.UniqueViolationError as exc:
            raise AlreadyExists(str(exc)) from exc
        return c.agent(row) if row else None

    async def create_app(self, app_id: str, name: str, key_hash: str, key_prefix: str, now: float) -> App:
        try:
            await self.pool.execute(
                "INSERT INTO apps (app_id, name, key_hash, key_prefix, created_at) VALUES ($1, $2, $3, $4, $5)",
                app_id,
                name,
                key_hash,
                key_prefix,
                now,
            )
        except asyncpg.UniqueViolationError as exc:
            raise AlreadyExists(str(exc)) from exc
        return App(app_id, name, key_prefix, now)

    async def list_apps(self) -> list[App]:
        rows = await self._fetch(f"SELECT {c.APP_COLUMNS} FROM apps ORDER BY created_at, app_id")
        return [c.app(row) for row in rows]

    async def app_by_key_hash(self, key_hash: str) -> App | None:
        row = await self._fetchrow(f"SELECT {c.APP_COLUMNS} FROM apps WHERE key_hash = $1", key_hash)
        return c.app(row) if row else None

    # Signing keys and revocation

    async def add_signing_key(self, kid: str, public_key: bytes, private_key_enc: bytes, now: float) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("UPDATE signing_keys SET retired_at = $1 WHERE retired_at IS NULL", now)
            try:
                await conn.execute(
                    "INSERT INTO signing_keys (kid, public_key, private_key_enc, created_at, retired_at) "
                    "VALUES ($1, $2, $3, $4, NULL)",
                    kid,
                    public_key,
                    private_key_enc,
                    now,
                )
            except asyncpg.UniqueViolationError as exc:
                raise AlreadyExists(str(exc)) from exc

    async def signing_keys(self) -> list[SigningKey]:
        rows = await self._fetch(
            f"SELECT {c.KEY_COLUMNS} FROM signing_keys "
            "ORDER BY created_at DESC, retired_at IS NULL DESC, retired_at DESC, kid"
        )
        return [c.signing_key(row) for row in rows]

    async def revoke_token(self, jti: str, expires_at: float) -> None:
        await self.pool.execute(
            "INSERT INTO revoked_tokens (jti, expires_at) VALUES ($1, $2) ON CONFLICT (jti) "
            "DO UPDATE SET expires_at = greatest(revoked_tokens.expires_at, excluded.expires_at)",
            jti,
            expires_at,
        )
        self._auth_changed()  # at once in this process; other processes hear the NOTIFY

    async def auth_state(self, agent_id: str, jti: str) -> tuple[AgentStatus | None, bool]:
        cached = self._auth_cache.get((agent_id, jti))
        if cached is not None:
            return cached
        generation = self._auth_generation
        row = await self._fetchrow(
            "SELECT (SELECT status FROM agents WHERE agent_id = $1), "
            "EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = $2)",
            agent_id,
            jti,
        )
        answer: tuple[AgentStatus | None, bool] = (row[0], bool(row[1]))
        # Kept only if no change was announced while we read (else the answer may predate it).
        if self._listener is not None and generation == self._auth_generation:
            if len(self._auth_cache) >= AUTH_CACHE_SIZE:
                self._auth_cache.clear()
            self._auth_cache[(agent_id, jti)] = answer
        return answer

    # Rate limits

    async def hit_rate(self, bucket: str, rate: RateLimit, now: float, units: int = 1) -> RateDecision:
        start, ends_at = c.window(rate, now)
        count = await self.pool.fetchval(_COUNT_RATE, bucket, start, ends_at, units)
        return c.counted(rate, int(count), ends_at, now)

    async def peek_rate(self, bucket: str, rate: RateLimit, now: float) -> RateDecision:
        start, ends_at = c.window(rate, now)
        count = await self.pool.fetchval(
            "SELECT count FROM rate_windows WHERE bucket = $1 AND window_start = $2", bucket, start
        )
        return c.peeked(rate, int(count or 0), ends_at, now)

    # Submissions

    async def accept_submission(
        self, new: NewSubmission, idempotency_key: str, fingerprint: str, rate: RateLimit, now: float
    ) -> AcceptOutcome:
        payload = c.dumps(new.payload)
        bucket = f"submit:{new.agent_id}"
        async with self.pool.acquire() as conn:
            seen = await _idempotency_record(conn, new.agent_id, idempotency_key, fingerprint)
            if seen is not None:
                return seen  # a replay or a reused key: no rate unit spent
            # The rate unit is counted in a transaction of its own that does not wait for the WAL flush: an
            # agent's counter row is hot, and holding its lock across a durable commit would serialise all
            # of that agent's submissions on fsync. A counter lost in a crash only lets a few more through.
            decision = await _count_rate_fast(conn, bucket, rate, now, +1)
            if not decision.allowed:
                await _count_rate_fast(conn, bucket, rate, now, -1)  # a 429 costs nothing
                return RateLimited(decision)
        while True:
            # The durable write joins a batch: one transaction and one WAL flush for every accept waiting.
            if await self._accepts.write((new, idempotency_key, fingerprint, payload, now)):
                return Accepted(decision)
            async with self.pool.acquire() as conn:
                # A concurrent request with this key won: give the unit back and answer as it was answered.
                seen = await _idempotency_record(conn, new.agent_id, idempotency_key, fingerprint)
                if seen is not None:
                    await _count_rate_fast(conn, bucket, rate, now, -1)
                    return seen
            # The record we collided with was pruned before we could read it: try again.

    async def _write_accepts(self, batch: list[tuple[NewSubmission, str, str, str, float]]) -> list[bool]:
        """Stores a batch of accepted submissions in one transaction; True where the key was ours (the submission
        is stored), False where another request holds it (nothing stored for this one). Keys are claimed in
        (agent, key) order, the same in every process, so batches of different processes cannot deadlock."""
        order = sorted(range(len(batch)), key=lambda i: (batch[i][0].agent_id, batch[i][1]))
        results = [False] * len(batch)
        async with self.pool.acquire() as conn, conn.transaction():
            for i in order:
                new, key, fingerprint, payload, now = batch[i]
                stored = await conn.fetchval(
                    _ACCEPT,
                    new.agent_id,
                    key,
                    fingerprint,
                    new.response_status,
                    new.response_body,
                    now,
                    new.submission_id,
                    new.role_id,
                    new.work_type,
                    payload,
                )
                results[i] = stored is not None
        return results

    async def get_submission(self, submission_id: str) -> Submission | None:
        row = await self._fetchrow(
            f"SELECT {c.SUBMISSION_COLUMNS} FROM submissions WHERE submission_id = $1", submission_id
        )
        return c.submission(row) if row else None

    async def existing_claims(self, claim_ids: set[int]) -> set[int]:
        wanted = [claim_id for claim_id in claim_ids if c.fits_int64(claim_id)]
        if not wanted:
            return set()
        rows = await self._fetch("SELECT claim_id FROM claims WHERE claim_id = ANY($1::bigint[])", wanted)
        return {int(row[0]) for row in rows}

    async def process_next(self, handler: SubmissionHandler, now: float) -> Submission | None:
        async with self.pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow(
                f"SELECT {c.SUBMISSION_COLUMNS} FROM submissions WHERE status = 'accepted' "
                "ORDER BY created_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED"
            )
            if row is None:
                return None
            taken = c.submission(row)
            savepoint = conn.transaction()
            await savepoint.start()
            tx = _PgTx(conn)
            try:
                applied = await handler(tx, taken)
            finally:
                tx.closed = True
            if applied.rejected_reason is None:
                await savepoint.commit()
                status = "processed"
            else:
                await savepoint.rollback()
                status = "rejected"
            await conn.execute(
                "UPDATE submissions SET status = $2, reason = $3, processed_at = $4 WHERE submission_id = $1",
                taken.submission_id,
                status,
                applied.rejected_reason,
                now,
            )
            return taken

    # Queues and artifacts

    async def pending_claims(self, role_id: str, limit: int) -> list[Claim]:
        rows = await self._fetch(
            f"SELECT {c.CLAIM_COLUMNS} FROM claims AS cl WHERE status = 'pending_evidence' AND NOT EXISTS "
            "(SELECT 1 FROM artifacts AS a WHERE a.claim_id = cl.claim_id AND a.role_id = $1) "
            "ORDER BY created_at, claim_id LIMIT $2",
            role_id,
            limit,
        )
        return [c.claim(row) for row in rows]

    async def ready_claims(self, limit: int) -> list[Claim]:
        rows = await self._fetch(
            f"SELECT {c.CLAIM_COLUMNS} FROM claims WHERE status = 'ready_for_verdict' "
            "ORDER BY created_at, claim_id LIMIT $1",
            limit,
        )
        return [c.claim(row) for row in rows]

    async def get_claim(self, claim_id: int) -> Claim | None:
        if not c.fits_int64(claim_id):
            return None
        row = await self._fetchrow(f"SELECT {c.CLAIM_COLUMNS} FROM claims WHERE claim_id = $1", claim_id)
        return c.claim(row) if row else None

    async def artifacts(self, claim_id: int, role_id: str | None) -> list[Artifact]:
        if not c.fits_int64(claim_id):
            return []
        if role_id is None:
            rows = await self._fetch(
                f"SELECT {c.ARTIFACT_COLUMNS} FROM artifacts WHERE claim_id = $1 ORDER BY created_at, artifact_id",
                claim_id,
            )
        else:
            rows = await self._fetch(
                f"SELECT {c.ARTIFACT_COLUMNS} FROM artifacts WHERE claim_id = $1 AND role_id = $2 "
                "ORDER BY created_at, artifact_id",
                claim_id,
                role_id,
            )
        return [c.artifact(row) for row in rows]

    async def prune(self, now: float, idempotency_ttl_s: float) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("DELETE FROM idempotency_keys WHERE created_at < $1", now - idempotency_ttl_s)
            await conn.execute("DELETE FROM revoked_tokens WHERE expires_at < $1", now)
            await conn.execute("DELETE FROM rate_windows WHERE ends_at <= $1", now)
        self._auth_changed()


class _PgTx:
    """The handler's view of the open `process_next` transaction (valid only while the handler runs)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.closed = False

    def _c(self) -> Any:
        if self.closed:
            raise RuntimeError("the processing transaction is over")
        return self._conn

    async def claim_status(self, claim_id: int) -> ClaimStatus | None:
        if not c.fits_int64(claim_id):
            return None
        status = await self._c().fetchval("SELECT status FROM claims WHERE claim_id = $1", claim_id)
        return status  # type: ignore[no-any-return]

    async def insert_claim(self, text: str, now: float) -> int:
        claim_id = await self._c().fetchval(
            "INSERT INTO claims (text, status, created_at, updated_at) "
            "VALUES ($1, 'pending_evidence', $2, $2) RETURNING claim_id",
            text,
            now,
        )
        return int(claim_id)

    async def set_claim_status(self, claim_id: int, status: ClaimStatus, now: float) -> None:
        await self._c().execute(
            "UPDATE claims SET status = $2, updated_at = $3 WHERE claim_id = $1", claim_id, status, now
        )

    async def insert_artifact(self, claim_id: int, submission: Submission, content: dict[str, Any], now: float) -> int:
        artifact_id = await self._c().fetchval(
            "INSERT INTO artifacts (claim_id, role_id, agent_id, submission_id, work_type, content, "
            "created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING artifact_id",
            claim_id,
            submission.role_id,
            submission.agent_id,
            submission.submission_id,
            submission.work_type,
            c.dumps(content),
            now,
        )
        return int(artifact_id)

    async def artifact_roles(self, claim_id: int) -> set[str]:
        if not c.fits_int64(claim_id):
            return set()
        rows = await self._c().fetch("SELECT DISTINCT role_id FROM artifacts WHERE claim_id = $1", claim_id)
        return {row[0] for row in rows}
