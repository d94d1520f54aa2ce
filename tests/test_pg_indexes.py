"""Every query the PostgreSQL store runs for the interface is served by an index: with sequential scans priced
out (`enable_seqscan = off`) the planner still picks one only when no index can answer, so a `Seq Scan` in a plan
here means a migration dropped an index something needs (migration 4 dropped artifacts' submission_id index and
its foreign keys: nothing reads artifacts by submission)."""

from __future__ import annotations

import asyncpg
import pytest
from tahqiq.store import _common as c
from tahqiq.store.postgres import _LOAD_CLAIMS, _LOCK_CLAIMS

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
