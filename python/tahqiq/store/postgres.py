"""The shared store: PostgreSQL through an asyncpg pool, for many processes on many machines.

Every method is one transaction on one pooled connection; asyncpg prepares and caches each statement per
connection, and the pool does not reset sessions between uses (nothing here leaves session state). The
submission path is built for few round trips:
- accepts are batched (group commit): concurrent `accept_submission` calls are written by one call of
  migration 3's `tahqiq_accept`, one round trip and one commit (one WAL flush) for the batch, and each caller
  is answered once that commit is done;
- the processor takes a batch (`process_batch`): its handlers' writes are kept in memory (`_common.BatchTx`) and
  written by one statement before the commit, with ids taken from the identity sequences beforehand.
Concurrency rests on the database alone:
- idempotency: `INSERT ... ON CONFLICT DO NOTHING` on (agent_id, key) waits for a concurrent insert of the
  same key to commit or roll back, so duplicates serialise whatever process they come from; batches claim keys
  in (agent_id, key) order, so two processes' batches cannot deadlock;
- rate windows: one upserted row per (bucket, window), counted atomically;
- the submission queue: `FOR UPDATE SKIP LOCKED`, so each submission is taken by one process;
- the claim life cycle: a batch locks the claims it names (`FOR UPDATE`, in claim_id order) before reading
  their status and artifacts, so batches of different processes touching one claim apply one after the other
  (otherwise an evidence batch and a critique batch each saw the other's artifact as absent and the claim
  stayed pending_evidence);
- migrations: each in a transaction holding `pg_advisory_xact_lock`, so concurrent `migrate()` calls queue up.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from typing import Any

import asyncpg  # type: ignore[import-untyped]

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
    KeyReused,
    NewSubmission,
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


# One call of migration 3's function stores a whole batch of accepts: one round trip and one commit.
_ACCEPT_BATCH = (
    "SELECT outcome, counted, status, body FROM tahqiq_accept($1::text[], $2::text[], $3::text[], $4::integer[], "
    "$5::bytea[], $6::text[], $7::text[], $8::text[], $9::text[], $10::float8[], $11::text[], $12::bigint[], "
    "$13::float8[], $14::integer[])"
)
ACCEPT_BATCH_MAX = 256
# Under load, a batch that would start small waits 1 ms for more accepts: fewer, larger batches, less CPU per
# submission in the worker and in PostgreSQL (see docs/benchmarks.md, "PostgreSQL store").
ACCEPT_GATHER_S = 0.001
ACCEPT_GATHER_UNTIL = 32


async def _keep_session(_conn: Any) -> None:
    """The pool's reset between uses: nothing to undo. asyncpg's default sends `RESET ALL; UNLISTEN *; CLOSE ALL;
    SELECT pg_advisory_unlock_all()` on every release, a round trip per use, for session state this store never
    creates (it uses transaction-scoped settings and locks only, and listens on a connection of its own). Open
    transactions are still rolled back by asyncpg before this runs."""


# A batch locks the stored claims it may move on before it reads them, in claim_id order (ORDER BY comes before
# the row locks are taken, so every process locks in the same order and two batches cannot deadlock). A batch
# that wants a claim another is applying waits here for that one's commit. The read must be a statement of its
# own: under READ COMMITTED it then takes its snapshot after the wait and sees the artifacts the other batch
# added (a locking SELECT that also read the artifacts would read them as of before the wait).
_LOCK_CLAIMS = "SELECT claim_id FROM claims WHERE claim_id = ANY($1::bigint[]) ORDER BY claim_id FOR UPDATE"
# The state of stored claims that applying submissions reads: status and the roles of their artifacts.
_LOAD_CLAIMS = (
    "SELECT claim_id, status, ARRAY(SELECT DISTINCT role_id FROM artifacts AS a WHERE a.claim_id = cl.claim_id) "
    "FROM claims AS cl WHERE claim_id = ANY($1::bigint[])"
)
# Ids for the rows a batch inserts, from the identity sequences the columns would use themselves. The sequence is
# looked up once per call (a materialised CTE): called per id, pg_get_serial_sequence's catalog lookups cost
# PostgreSQL several times what nextval does (see docs/benchmarks.md, "PostgreSQL store").
_ALLOCATE_IDS = {
    kind: f"WITH s AS MATERIALIZED (SELECT pg_get_serial_sequence('{kind}', '{column}')::regclass AS seq) "
    "SELECT array_agg(nextval(s.seq)) FROM s, generate_series(1, $1)"
    for kind, column in (("claims", "claim_id"), ("artifacts", "artifact_id"))
}
# Ids are taken from the sequences this many at a time and kept for the next batches: two round trips fewer
# per batch under load. Ids a process holds when it stops are never used (identity columns have gaps anyway).
ID_RESERVE = 1024
# Everything a processed batch writes, in one statement: new claims, their artifacts, claims moved on, and the
# submissions' outcomes. Processed submissions are named by one id array (their status and reason are known); only
# rejected ones carry a reason: two arrays of a batch's size fewer to encode and decode.
_WRITE_BATCH = """
WITH new_claims AS (
    INSERT INTO claims (claim_id, text, status, created_at, updated_at) OVERRIDING SYSTEM VALUE
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::float8[], $5::float8[])
), new_artifacts AS (
    INSERT INTO artifacts (artifact_id, claim_id, role_id, agent_id, submission_id, work_type, content, created_at)
    OVERRIDING SYSTEM VALUE
    SELECT * FROM unnest($6::bigint[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],
                         $13::float8[])
), moved AS (
    UPDATE claims AS cl SET status = u.status, updated_at = u.at
    FROM unnest($14::bigint[], $15::text[], $16::float8[]) AS u(claim_id, status, at)
    WHERE cl.claim_id = u.claim_id
), rejected AS (
    UPDATE submissions AS s SET status = 'rejected', reason = u.reason, processed_at = $19
    FROM unnest($17::text[], $18::text[]) AS u(submission_id, reason)
    WHERE s.submission_id = u.submission_id AND s.submission_id = ANY($17::text[])
)
UPDATE submissions SET status = 'processed', processed_at = $19 WHERE submission_id = ANY($20::text[])
"""


def _columns(rows: Collection[Sequence[Any]], width: int) -> list[list[Any]]:
    """The `width` columns of `rows` (array parameters of one statement), by transposing them: zip runs in C,
    where one comprehension per column would walk the rows `width` times."""
    if not rows:
        return [[] for _ in range(width)]
    return [list(column) for column in zip(*rows, strict=True)]


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
        self._ids: dict[str, list[int]] = {kind: [] for kind in _ALLOCATE_IDS}  # ascending, from the sequences
        self._accepts: c.Batcher[c.Accept, Any] = c.Batcher(
            self._write_accepts,
            lambda a: (a.new.agent_id, a.key),
            ACCEPT_BATCH_MAX,
            "tahqiq-accept-batcher",
            gather_s=ACCEPT_GATHER_S,
            gather_until=ACCEPT_GATHER_UNTIL,
        )

    async def open(self) -> None:
        if self._pool is None:
            self._pool = await asyncpg.create_pool(
                self.dsn, min_size=self._min_size, max_size=self._max_size, command_timeout=60, reset=_keep_session
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

    async def set_app_key(self, app_id: str, key_hash: str, key_prefix: str) -> App | None:
        try:
            row = await self._fetchrow(
                f"UPDATE apps SET key_hash = $2, key_prefix = $3 WHERE app_id = $1 RETURNING {c.APP_COLUMNS}",
                app_id,
                key_hash,
                key_prefix,
            )
        except asyncpg.UniqueViolationError as exc:
            raise AlreadyExists(str(exc)) from exc
        return c.app(row) if row else None

    async def delete_app(self, app_id: str) -> bool:
        status: str = await self.pool.execute("DELETE FROM apps WHERE app_id = $1", app_id)
        return status != "DELETE 0"

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
        start, ends_at = window(rate, now)
        count = await self.pool.fetchval(_COUNT_RATE, bucket, start, ends_at, units)
        return counted(rate, int(count), ends_at, now)

    async def peek_rate(self, bucket: str, rate: RateLimit, now: float) -> RateDecision:
        start, ends_at = window(rate, now)
        count = await self.pool.fetchval(
            "SELECT count FROM rate_windows WHERE bucket = $1 AND window_start = $2", bucket, start
        )
        return peeked(rate, int(count or 0), ends_at, now)

    # Submissions

    async def accept_submission(
        self, new: NewSubmission, idempotency_key: str, fingerprint: str, rate: RateLimit, now: float
    ) -> AcceptOutcome:
        accept = c.Accept.of(new, idempotency_key, fingerprint, rate, now)
        while True:
            # Joins the next batch: one transaction and one WAL flush for every accept waiting (group commit).
            outcome, number, status, body = await self._accepts.submit(accept)
            if outcome == "accepted":
                return Accepted(counted(rate, number, accept.ends_at, now))
            if outcome == "limited":
                return RateLimited(counted(rate, number, accept.ends_at, now))
            if outcome == "replayed":
                return Replayed(status, bytes(body))
            if outcome == "reused":
                return KeyReused()
            # "retry": the record our key collided with was pruned before we could read it.

    async def _write_accepts(self, batch: list[c.Accept]) -> list[Any]:
        """Stores a batch of accepts in one statement (migration 3's tahqiq_accept) and one transaction. Keys go
        in (agent, key) order, the same in every process, so batches of different processes cannot deadlock."""
        order = sorted(range(len(batch)), key=lambda i: (batch[i].new.agent_id, batch[i].key))
        items = [batch[i] for i in order]
        rows = await self.pool.fetch(
            _ACCEPT_BATCH,
            [a.new.agent_id for a in items],
            [a.key for a in items],
            [a.fingerprint for a in items],
            [a.new.response_status for a in items],
            [a.new.response_body for a in items],
            [a.new.submission_id for a in items],
            [a.new.role_id for a in items],
            [a.new.work_type for a in items],
            [a.payload for a in items],
            [a.now for a in items],
            [f"submit:{a.new.agent_id}" for a in items],
            [a.window_start for a in items],
            [a.ends_at for a in items],
            [a.rate.limit for a in items],
        )
        results: list[Any] = [None] * len(batch)
        for i, row in zip(order, rows, strict=True):
            results[i] = (row[0], row[1], row[2], row[3])
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
        taken = await self.process_batch(handler, now, 1)
        return taken[0] if taken else None

    async def process_batch(self, handler: SubmissionHandler, now: float, limit: int) -> list[Submission]:
        async with self.pool.acquire() as conn, conn.transaction():
            rows = await conn.fetch(
                f"SELECT {c.QUEUED_COLUMNS} FROM submissions WHERE status = 'accepted' "
                "ORDER BY created_at, seq LIMIT $1 FOR UPDATE SKIP LOCKED",
                limit,
            )
            if not rows:
                return []
            taken = [c.queued(row) for row in rows]

            async def lock_and_load(claim_ids: list[int]) -> dict[int, c.ClaimState]:
                await conn.execute(_LOCK_CLAIMS, claim_ids)
                states: dict[int, c.ClaimState] = {claim_id: (None, set()) for claim_id in claim_ids}
                for row in await conn.fetch(_LOAD_CLAIMS, claim_ids):
                    states[row[0]] = (row[1], set(row[2]))
                return states

            async def load(claim_id: int) -> c.ClaimState:
                # A claim no result item names (a handler of the tests' own): locked when first read.
                return (await lock_and_load([claim_id]))[claim_id]

            async def allocate(kind: str, count: int) -> list[int]:
                return await self._allocate_ids(conn, kind, count)

            named = c.named_claims(taken)
            tx = c.BatchTx(load, allocate, len(taken), await lock_and_load(named) if named else None)
            outcomes = await tx.apply_all(taken, handler)
            kept = tx.kept
            await conn.execute(
                _WRITE_BATCH,
                list(kept.new_claims),
                *_columns(kept.new_claims.values(), 4),
                *_columns(kept.artifacts, 8),
                list(kept.statuses),
                *_columns(kept.statuses.values(), 2),
                [sub.submission_id for sub, status, _ in outcomes if status == "rejected"],
                [reason for _, status, reason in outcomes if status == "rejected"],
                now,
                [sub.submission_id for sub, status, _ in outcomes if status == "processed"],
            )
            return taken

    async def _allocate_ids(self, conn: Any, kind: str, count: int) -> list[int]:
        """`count` new ids for `kind` rows, ascending: from the reserve, topped up from the sequence when short."""
        reserve = self._ids[kind]
        if len(reserve) < count:
            fetched = await conn.fetchval(_ALLOCATE_IDS[kind], max(count - len(reserve), ID_RESERVE))
            reserve = self._ids[kind] = sorted(self._ids[kind] + fetched)  # re-read: another batch may have taken some
        taken, self._ids[kind] = reserve[:count], reserve[count:]
        return taken

    # Queues and artifacts

    async def backlog(self) -> tuple[int, float | None]:
        row = await self._fetchrow("SELECT count(*), min(created_at) FROM submissions WHERE status = 'accepted'")
        assert row is not None
        return int(row[0]), row[1]

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
