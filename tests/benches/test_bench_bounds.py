"""The bound variants of benches/bounds.py are what they say: each edit still applies to the current source, the
edited package imports, the accept without its idempotency insert stores the submission but no key, and the SQL
sketch of applying makes a claim and an artifact per item (both checked on a real PostgreSQL). A bound measured on a
copy that silently kept the part it claims to remove would mislead."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benches import bounds


def store_script(then: str) -> str:
    """A script that accepts one claim_splitter submission of two items on the store at argv[1], then runs `then`
    (lines indented for the body of its `try`) with `store` and `outcome` in scope."""
    return f"""
import asyncio, sys
from tahqiq.store.postgres import PostgresStore
from tahqiq.limits import RateLimit
from tahqiq.store.protocol import NewSubmission

async def main(url):
    store = PostgresStore(url)
    await store.open()
    try:
        await store.migrate()
        payload = {{"work_type": "split", "results": [{{"text": " a "}}, {{"text": "b", "source": "s"}}]}}
        new = NewSubmission("7d3c6f0e-8a41-4b8e-9f4e-0c1d2e3f4a5b", "agent-1", "claim_splitter", "split",
                            payload, 202, b"{{}}")
        key = "0b6c1a52-5f0e-4c43-8d1e-2a3b4c5d6e7f"
        outcome = await store.accept_submission(new, key, "fp", RateLimit(5, 60), 1e9)
{then}
    finally:
        await store.close()

asyncio.run(main(sys.argv[1]))
"""


ACCEPT_ONCE = store_script("""\
        keys = await store.pool.fetchval("SELECT count(*) FROM idempotency_keys")
        stored = await store.pool.fetchval("SELECT count(*) FROM submissions")
        print(type(outcome).__name__, keys, stored)""")

APPLY_ONCE = store_script("""\
        taken = await store.process_batch(None, 1e9 + 1, 256)
        status = await store.pool.fetchval("SELECT status FROM submissions")
        texts = await store.pool.fetchval("SELECT string_agg(text, '|' ORDER BY claim_id) FROM claims")
        contents = await store.pool.fetchval("SELECT string_agg(content, '|' ORDER BY artifact_id) FROM artifacts")
        print(len(taken), status, texts, contents, sep="\\n")""")


def run_in(variant: Path, code: str, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(variant)}
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("name", list(bounds.VARIANTS))
def test_variant_is_built_and_imports(name: str, tmp_path: Path) -> None:
    variant = bounds.make_variant(name, tmp_path)
    package = variant / "tahqiq"
    for relative, old, new in bounds.VARIANTS[name]:
        text = (package / relative).read_text(encoding="utf-8")
        assert new in text and (old in new or old not in text)  # an edit may keep the line it found
    added = sorted((package / bounds.MIGRATIONS).glob("*_bound_no_idempotency_insert.sql"))
    assert len(added) == (name in {"no_idempotency_insert", "no_processor_no_idempotency_insert"})
    code = "import tahqiq.web.app, tahqiq.store.postgres, tahqiq.access.processor, tahqiq; print(tahqiq.__file__)"
    assert run_in(variant, code).startswith(str(package))


def test_unedited_variant_matches_the_package(tmp_path: Path) -> None:
    package = bounds.make_variant("as_is", tmp_path) / "tahqiq"
    for source in bounds.PACKAGE.rglob("*.py"):
        assert (package / source.relative_to(bounds.PACKAGE)).read_bytes() == source.read_bytes()


def test_an_edit_that_no_longer_matches_fails_loudly(tmp_path: Path) -> None:
    target = tmp_path / "module.py"
    target.write_text("a = 1\n")
    with pytest.raises(RuntimeError, match="occurs 0 times"):
        bounds._edit(target, "b = 2\n", "b = 3\n")


def test_unedited_accept_stores_the_submission_and_its_key(pg_empty_url: str, tmp_path: Path) -> None:
    unedited = run_in(bounds.make_variant("as_is", tmp_path / "a"), ACCEPT_ONCE, pg_empty_url)
    assert unedited == "Accepted 1 1"


def test_bound_accept_keeps_the_submission_but_not_the_key(pg_empty_url: str, tmp_path: Path) -> None:
    bound = run_in(bounds.make_variant("no_idempotency_insert", tmp_path / "b"), ACCEPT_ONCE, pg_empty_url)
    assert bound == "Accepted 0 1"


def test_sql_applied_variant_makes_a_claim_and_artifact_per_item(pg_empty_url: str, tmp_path: Path) -> None:
    variant = bounds.make_variant("claim_splitter_applied_in_sql", tmp_path)
    taken, status, texts, contents = run_in(variant, APPLY_ONCE, pg_empty_url).splitlines()
    assert (taken, status, texts) == ("1", "processed", "a|b")
    assert [json.loads(c) for c in contents.split("|")] == [{"text": " a "}, {"text": "b", "source": "s"}]
