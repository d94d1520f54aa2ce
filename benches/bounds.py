"""Upper bounds for PostgreSQL submissions: the same A/B rounds against copies of the package with parts taken out.

    python -m benches.bounds --rounds 6 --seconds 5 [--connections 64]

It answers "how far would the ratio to the bare route move if this part cost nothing?" before anyone rebuilds that
part, and what a sketch of a rebuilt part gives. Each variant is a copy of the package as imported (`python/tahqiq`
in development) with a few exact source edits (every edit must match once, so a change to the code it edits fails
loudly instead of measuring something else):

- `as_is`: no edit, the reference of the same run;
- `no_processor`: the submission processor never starts, so nothing is applied while wrk runs (its Python on the
  event loop and its PostgreSQL work both go);
- `no_idempotency_insert`: a migration after the last redefines `tahqiq_accept` without its insert into
  `idempotency_keys` (every key counts as new); rate counting and the submission's insert stay;
- `no_processor_no_idempotency_insert`: both;
- `no_store_write`: the accept batch answers "accepted" without calling PostgreSQL (and no processor): what the
  HTTP handling, validation, batching and answer cost without the durable write;
- `claim_splitter_applied_in_sql`: the processor applies claim_splitter submissions (the benchmark's) with one SQL
  statement, no Python per submission, and leaves other roles queued: what moving the claim life cycle into
  PostgreSQL could gain, roughly (claim texts trimmed of spaces only).

None of these is a correct service; they exist only here, in temporary directories. The rounds are those of
`benches.ab_submissions` (same bare route, alternating order, medians).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import tempfile
from pathlib import Path

import tahqiq

from benches import ab_submissions, bench_access

# The package as imported (with its built extension): the source tree in development (`PYTHONPATH=python`), the
# installed wheel in CI, where `python/tahqiq` holds no extension.
PACKAGE = Path(tahqiq.__file__).resolve().parent
MIGRATIONS = Path("store/migrations/postgres")

# (file in the package, text to find, replacement)
_NO_PROCESSOR = (
    "access/processor.py",
    '        self._task = asyncio.get_running_loop().create_task(self._run(), name="tahqiq-processor")\n',
    "        return  # bound: the processor never runs\n",
)
_NO_STORE_WRITE = (
    "store/postgres.py",
    "        order = sorted(range(len(batch)), key=lambda i: (batch[i].new.agent_id, batch[i].key))\n",
    '        return [("accepted", 1, None, None)] * len(batch)  # bound: no durable write\n',
)
# Applying queued claim_splitter submissions in one SQL statement instead of in Python: a claim and an artifact per
# result item, the submission marked processed. Claim texts are trimmed of spaces only (Python's strip() takes all
# Unicode white space) and other roles are left queued: a sketch of the PostgreSQL side's cost, not a processor.
_PROCESS_IN_SQL = (
    "store/postgres.py",
    "    async def process_batch(self, handler: SubmissionHandler, now: float, limit: int) -> list[Submission]:\n",
    """    async def process_batch(self, handler: SubmissionHandler, now: float, limit: int) -> list[Submission]:
        rows = await self.pool.fetch(
            \"\"\"
WITH taken AS (
    SELECT submission_id, agent_id, work_type, payload FROM submissions
    WHERE status = 'accepted' AND role_id = 'claim_splitter'
    ORDER BY created_at, seq LIMIT $1 FOR UPDATE SKIP LOCKED
), items AS (
    SELECT t.submission_id, t.agent_id, t.work_type, e.item, nextval('claims_claim_id_seq'::regclass) AS claim_id
    FROM taken AS t, json_array_elements(t.payload::json -> 'results') WITH ORDINALITY AS e(item, n)
), new_claims AS (
    INSERT INTO claims (claim_id, text, status, created_at, updated_at) OVERRIDING SYSTEM VALUE
    SELECT claim_id, btrim(item ->> 'text'), 'pending_evidence', $2, $2 FROM items
), new_artifacts AS (
    INSERT INTO artifacts (claim_id, role_id, agent_id, submission_id, work_type, content, created_at)
    SELECT claim_id, 'claim_splitter', agent_id, submission_id, work_type, item::text, $2 FROM items
)
UPDATE submissions AS s SET status = 'processed', processed_at = $2 FROM taken
WHERE s.submission_id = taken.submission_id RETURNING s.submission_id
\"\"\",
            limit,
            now,
        )
        return [row[0] for row in rows]  # bound: ids, not Submission records (the processor only counts them)

    async def _process_batch_in_python(
        self, handler: SubmissionHandler, now: float, limit: int
    ) -> list[Submission]:
""",
)
# The statement of tahqiq_accept that claims the batch's keys, up to the test that reads its result.
_IDEMPOTENCY_INSERT = re.compile(
    r"    WITH inserted AS \(\n.*?(?=    IF coalesce\(cardinality\(got_keys\), 0\) = n THEN)", re.S
)

VARIANTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "as_is": (),
    "no_processor": (_NO_PROCESSOR,),
    "no_idempotency_insert": (),
    "no_processor_no_idempotency_insert": (_NO_PROCESSOR,),
    "no_store_write": (_NO_PROCESSOR, _NO_STORE_WRITE),
    "claim_splitter_applied_in_sql": (_PROCESS_IN_SQL,),
}
_WITHOUT_IDEMPOTENCY_INSERT = {"no_idempotency_insert", "no_processor_no_idempotency_insert"}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    if text.count(old) != 1:
        raise RuntimeError(f"{path}: the text to replace occurs {text.count(old)} times, not once:\n{old}")
    path.write_text(text.replace(old, new), encoding="utf-8")


def _accept_without_idempotency_insert(package: Path) -> Path:
    """A migration after the last one: the newest definition of `tahqiq_accept`, its key-claiming insert left out."""
    folder = package / MIGRATIONS
    numbered = sorted(p for p in folder.glob("[0-9][0-9][0-9][0-9]_*.sql"))
    source = next(p for p in reversed(numbered) if "FUNCTION tahqiq_accept(" in p.read_text(encoding="utf-8"))
    replacement = "    got_keys := p_key;  -- bound: every key counts as new\n"
    text, count = _IDEMPOTENCY_INSERT.subn(replacement, source.read_text(encoding="utf-8"))
    if count != 1:
        raise RuntimeError(f"{source}: the idempotency insert of tahqiq_accept was found {count} times, not once")
    target = folder / f"{int(numbered[-1].name[:4]) + 1:04d}_bound_no_idempotency_insert.sql"
    target.write_text(text, encoding="utf-8")
    return target


def make_variant(name: str, root: Path) -> Path:
    """A copy of the package with variant `name`'s edits under `root`; returns the directory to put on the path."""
    package = root / name / "tahqiq"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    for relative, old, new in VARIANTS[name]:
        _edit(package / relative, old, new)
    if name in _WITHOUT_IDEMPOTENCY_INSERT:
        _accept_without_idempotency_insert(package)
    return package.parent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--connections", type=int, default=bench_access.CONNECTIONS)
    parser.add_argument(
        "--only",
        action="append",
        choices=list(VARIANTS),
        help="a variant to run beside as_is (repeatable; default: all)",
    )
    args = parser.parse_args(argv)
    names = args.only or list(VARIANTS)
    if "as_is" not in names:
        names.insert(0, "as_is")
    with tempfile.TemporaryDirectory(prefix="tahqiq-bounds-") as tmp:
        variants = {name: str(make_variant(name, Path(tmp))) for name in names}
        medians = ab_submissions.run(variants, args.rounds, args.seconds, args.connections)
    print(f"\nmedians of {args.rounds} rounds of {args.seconds:g} s, {args.connections} connections")
    for name, figures in medians.items():
        print(name, json.dumps({k: round(v, 3) for k, v in figures.items()}))


if __name__ == "__main__":
    main()
