"""Every query the PostgreSQL store runs for the interface is served by an index: with sequential scans priced
out (`enable_seqscan = off`) the planner still picks one only when no index can answer, so a `Seq Scan` in a plan
here means a migration dropped an index something needs (migration 4 dropped artifacts' submission_id index and
its foreign keys: nothing reads artifacts by submission)."""

from __future__ import annotations

import asyncpg
import pytest
from tahqiq.store import _common as c
from tahqiq.store.postgres import _ALLOCATE_IDS, _LOAD_CLAIMS, _LOCK_CLAIMS

QUERIES = {
    "pending queue": (
        f"SELECT {c.CLAIM_COLUMNS} FROM claims AS cl WHERE status = 'pending_evidence' AND NOT EXISTS "
        "(SELECT 1 FROM artifacts AS a WHERE a.claim_id = cl.claim_id AND a.role_id = $1) "
        "ORDER BY created_at, claim_id LIMIT $2",
        ("evidence_seeker", 50),
    ),
    "ready queue": (
        f"SELECT {c.CLAIM_COLUMNS} FROM claims WHERE status = 'ready_for_verdict' "
        "ORDER BY created_at, claim_id LIMIT $1",
        (50,),
    ),
    "artifacts of a claim": (
        f"SELECT {c.ARTIFACT_COLUMNS} FROM artifacts WHERE claim_id = $1 ORDER BY created_at, artifact_id",
        (1,),
    ),
    "artifacts of a claim by role": (
        f"SELECT {c.ARTIFACT_COLUMNS} FROM artifacts WHERE claim_id = $1 AND role_id = $2 "
        "ORDER BY created_at, artifact_id",
        (1, "judge"),
    ),
    "a claim": (f"SELECT {c.CLAIM_COLUMNS} FROM claims WHERE claim_id = $1", (1,)),
    "a submission": (f"SELECT {c.SUBMISSION_COLUMNS} FROM submissions WHERE submission_id = $1", ("x",)),
    "the submission queue": (
        f"SELECT {c.SUBMISSION_COLUMNS} FROM submissions WHERE status = 'accepted' "
        "ORDER BY created_at, seq LIMIT $1 FOR UPDATE SKIP LOCKED",
        (256,),
    ),
    "lock claims": (_LOCK_CLAIMS, ([1, 2],)),
    "claim states": (_LOAD_CLAIMS, ([1, 2],)),
    "an idempotency key": (
        "SELECT fingerprint, status, body FROM idempotency_keys WHERE agent_id = $1 AND key = $2",
        ("a", "k"),
    ),
    "a rate window": ("SELECT count FROM rate_windows WHERE bucket = $1 AND window_start = $2", ("b", 0)),
    "expired idempotency keys": ("SELECT 1 FROM idempotency_keys WHERE created_at < $1", (0.0,)),
    "expired rate windows": ("SELECT 1 FROM rate_windows WHERE ends_at <= $1", (0.0,)),
}


@pytest.mark.parametrize("name", list(QUERIES))
async def test_query_is_served_by_an_index(pg_url: str, name: str) -> None:
    sql, args = QUERIES[name]
    conn = await asyncpg.connect(pg_url)
    try:
        async with conn.transaction():
            await conn.execute("SET LOCAL enable_seqscan = off")
            plan = "\n".join(row[0] for row in await conn.fetch(f"EXPLAIN {sql}", *args))
    finally:
        await conn.close()
    assert "Seq Scan" not in plan, f"{name} is not served by an index:\n{plan}"


@pytest.mark.parametrize("kind", list(_ALLOCATE_IDS))
async def test_id_allocation_looks_the_sequence_up_once_per_call(pg_url: str, kind: str) -> None:
    """Evaluated per id, pg_get_serial_sequence's catalog lookups cost PostgreSQL four times what nextval does; the
    processor asks for 1,024 ids at a time. The lookup must be done once (outside the per-row expression)."""
    conn = await asyncpg.connect(pg_url)
    try:
        plan = [row[0] for row in await conn.fetch(f"EXPLAIN VERBOSE {_ALLOCATE_IDS[kind]}", 3)]
        ids = await conn.fetchval(_ALLOCATE_IDS[kind], 3)
    finally:
        await conn.close()
    per_id = [line for line in plan if "nextval(" in line]
    assert per_id and not any("pg_get_serial_sequence" in line for line in per_id), "\n".join(plan)
    assert len(ids) == 3 and ids == sorted(ids) and len(set(ids)) == 3
