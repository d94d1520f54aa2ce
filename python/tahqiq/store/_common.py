"""What both stores share: fixed-window arithmetic, JSON text, row decoding."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is the service's dependency; the store works without it
    orjson = None  # type: ignore[assignment]

from tahqiq.limits import RateLimit, window
from tahqiq.store.protocol import (
    Agent,
    AgentStatus,
    App,
    Artifact,
    Claim,
    ClaimStatus,
    NewSubmission,
    SigningKey,
    Submission,
    SubmissionHandler,
    SubmissionStatus,
)

Item = TypeVar("Item")
Result = TypeVar("Result")
_LONG_DIGITS = re.compile(r"\d{20}")
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

AGENT_COLUMNS = "agent_id, name, role_id, status, key_prefix, created_at"
APP_COLUMNS = "app_id, name, key_prefix, created_at"
KEY_COLUMNS = "kid, public_key, private_key_enc, created_at, retired_at"
CLAIM_COLUMNS = "claim_id, text, status, created_at"
SUBMISSION_COLUMNS = "submission_id, agent_id, role_id, work_type, payload, status, reason, created_at, processed_at"
# A queued submission's columns: its status is `accepted` and it has no reason or processed_at yet, so the
# processor reads and decodes only the rest (a batch is up to 256 rows).
QUEUED_COLUMNS = "submission_id, agent_id, role_id, work_type, payload, created_at"
ARTIFACT_COLUMNS = "artifact_id, claim_id, role_id, agent_id, submission_id, work_type, content, created_at"


def fits_int64(value: int) -> bool:
    """Claim ids from requests are arbitrary integers; the databases hold 64-bit ones."""
    return INT64_MIN <= value <= INT64_MAX


@dataclass(frozen=True, slots=True)
class Accept:
    """One submission waiting in a store's accept batch (group commit), with what both stores write for it."""

    new: NewSubmission
    key: str  # the idempotency key
    fingerprint: str
    payload: str  # the payload as JSON text
    rate: RateLimit
    now: float
    window_start: int  # the rate window `now` falls in
    ends_at: float

    @classmethod
    def of(cls, new: NewSubmission, key: str, fingerprint: str, rate: RateLimit, now: float) -> Accept:
        """Raises ValueError for a bad rate limit, so that it fails this call alone, not the batch it would join."""
        start, ends_at = window(rate, now)
        return cls(new, key, fingerprint, dumps(new.payload), rate, now, start, ends_at)


def dumps(document: dict[str, Any]) -> str:
    if orjson is not None:
        try:
            return orjson.dumps(document).decode()
        except TypeError:  # integers beyond 64 bits, which orjson refuses and JSON allows
            pass
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def loads(text: str) -> dict[str, Any]:
    # orjson would turn integers beyond 64 bits into floats: such documents go to the json module.
    if orjson is None or _LONG_DIGITS.search(text) is not None:
        return cast(dict[str, Any], json.loads(text))
    return cast(dict[str, Any], orjson.loads(text))


def agent(row: Any) -> Agent:
    return Agent(row[0], row[1], row[2], cast(AgentStatus, row[3]), row[4], row[5])


def app(row: Any) -> App:
    return App(row[0], row[1], row[2], row[3])


def signing_key(row: Any) -> SigningKey:
    return SigningKey(row[0], bytes(row[1]), bytes(row[2]), row[3], row[4])


def claim(row: Any) -> Claim:
    return Claim(row[0], row[1], cast(ClaimStatus, row[2]), row[3])


def submission(row: Any) -> Submission:
    return Submission(
        row[0], row[1], row[2], row[3], loads(row[4]), cast(SubmissionStatus, row[5]), row[6], row[7], row[8]
    )


def queued(row: Any) -> Submission:
    """A submission read with QUEUED_COLUMNS from those whose status is `accepted`."""
    return Submission(row[0], row[1], row[2], row[3], loads(row[4]), "accepted", None, row[5], None)


def artifact(row: Any) -> Artifact:
    return Artifact(row[0], row[1], row[2], row[3], row[4], row[5], loads(row[6]), row[7])


def named_claims(submissions: list[Submission]) -> list[int]:
    """The stored claims the submissions' result items name (`claim_id`), in ascending order: the order in which
    a batch locks them, the same in every process, so that two batches waiting for each other's claims cannot
    deadlock."""
    named: set[int] = set()
    for submission in submissions:
        results = submission.payload.get("results")
        for item in results if isinstance(results, list) else ():
            claim_id = item.get("claim_id") if isinstance(item, dict) else None
            if isinstance(claim_id, int) and not isinstance(claim_id, bool) and fits_int64(claim_id):
                named.add(claim_id)
    return sorted(named)


class Batcher(Generic[Item, Result]):
    """Group commit: items queued by concurrent callers are written `max_size` at a time by `write(batch)`, one
    transaction (and one flush to disk) per batch, and each caller gets its own item's result (or the batch's
    exception) once that transaction is over. While a batch is being written the next one gathers, so under load
    batches grow by themselves and when idle an item is written at once.

    `key(item)` names what must not appear twice in one batch (an idempotency key): a later item with a key
    already in the batch waits for the next one, so that it sees the earlier item's outcome as stored.

    With `gather_s`, a batch that would start with fewer than `gather_until` items, right after another batch was
    written (that is, under load), waits `gather_s` for more: a batch's fixed cost (round trip, statement,
    commit) is then shared by more items. A lone item arriving when nothing is being written never waits."""

    def __init__(
        self,
        write: Callable[[list[Item]], Awaitable[list[Result]]],
        key: Callable[[Item], Hashable],
        max_size: int,
        name: str,
        gather_s: float = 0.0,
        gather_until: int = 0,
    ) -> None:
        self._write = write
        self._key = key
        self._max_size = max_size
        self._name = name
        self._gather_s = gather_s
        self._gather_until = min(gather_until, max_size)
        self._queue: list[tuple[Item, asyncio.Future[Result]]] = []
        self._writing: list[tuple[Item, asyncio.Future[Result]]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def submit(self, item: Item) -> Result:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Result] = loop.create_future()
        self._queue.append((item, future))
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run(), name=self._name)
        return await future

    def _take(self) -> list[tuple[Item, asyncio.Future[Result]]]:
        batch: list[tuple[Item, asyncio.Future[Result]]] = []
        later: list[tuple[Item, asyncio.Future[Result]]] = []
        keys: set[Hashable] = set()
        for entry in self._queue:
            if entry[1].done():  # its caller was cancelled before the write began: nothing to do for it
                continue
            key = self._key(entry[0])
            if len(batch) >= self._max_size or key in keys:
                later.append(entry)
            else:
                keys.add(key)
                batch.append(entry)
        self._queue = later
        return batch

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            written = False  # whether this wake-up already wrote a batch: the queue then filled during a write
            while self._queue:
                if written and self._gather_s > 0 and len(self._queue) < self._gather_until:
                    await asyncio.sleep(self._gather_s)
                written = True
                batch = self._writing = self._take()
                if not batch:
                    continue
                try:
                    results = await self._write([item for item, _ in batch])
                except Exception as exc:  # the whole transaction rolled back: nothing of the batch is stored
                    self._writing = []
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                self._writing = []
                for (_, future), result in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(result)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for _, future in self._writing:  # the write was cut short: it may or may not have committed
            if not future.done():
                future.set_exception(RuntimeError("the store closed while this item was being written"))
        for _, future in self._queue:
            if not future.done():
                future.set_exception(RuntimeError("the store closed before this item was written"))
        self._queue, self._writing = [], []


class BatchWrites:
    """The writes of one or more submissions, kept in memory until the batch is written."""

    __slots__ = ("artifacts", "new_claims", "roles", "statuses")

    def __init__(self) -> None:
        self.new_claims: dict[int, list[Any]] = {}  # claim_id -> [text, status, created_at, updated_at]
        self.statuses: dict[int, tuple[ClaimStatus, float]] = {}  # status changes of claims stored before
        self.artifacts: list[tuple[Any, ...]] = []  # rows in ARTIFACT_COLUMNS order, content as JSON text
        self.roles: dict[int, set[str]] = {}  # claim_id -> roles of the artifacts added


ClaimState = tuple[ClaimStatus | None, set[str]]  # a stored claim's status (None: no such claim), its artifacts' roles
ClaimLoader = Callable[[int], Awaitable[ClaimState]]
IdAllocator = Callable[[str, int], Awaitable[list[int]]]


class BatchTx:
    """The `ProcessingTx` of a batch of submissions applied in one transaction with few round trips.

    Reads of stored claims go to the database once per claim (`load`: its status and the roles of its
    artifacts, as of the transaction); writes are kept in memory, one layer per submission, which the store
    writes in a few set statements at the end. A rejected submission's layer is dropped, so its writes vanish
    as a savepoint's would; the next submission sees everything kept before it. Ids come from `allocate(kind,
    n)` ("claims" or "artifacts"), asked for as many as the submissions left in the batch, so a batch of
    one-item submissions needs one allocation of each kind."""

    def __init__(
        self, load: ClaimLoader, allocate: IdAllocator, size: int, stored: dict[int, ClaimState] | None = None
    ) -> None:
        self._load = load
        self._allocate = allocate
        self._left = size  # submissions not yet finished, the current one included
        self._stored: dict[int, ClaimState] = dict(stored or {})  # read before the handlers ran; `load` reads the rest
        self._ids: dict[str, list[int]] = {"claims": [], "artifacts": []}
        self.kept = BatchWrites()
        self._cur = BatchWrites()
        self.open = False

    # The batch's side: one submission at a time.

    def begin(self) -> None:
        self._cur = BatchWrites()
        self.open = True

    def finish(self, keep: bool) -> None:
        """Ends the current submission's handler: its writes are kept (processed) or dropped (rejected)."""
        self.open = False
        self._left -= 1
        cur, kept = self._cur, self.kept  # `begin` gives the next submission a fresh layer
        if not keep:
            return
        kept.new_claims.update(cur.new_claims)
        for claim_id, change in cur.statuses.items():
            if claim_id in kept.new_claims:
                kept.new_claims[claim_id][1] = change[0]
                kept.new_claims[claim_id][3] = change[1]
            else:
                kept.statuses[claim_id] = change
        kept.artifacts.extend(cur.artifacts)
        for claim_id, roles in cur.roles.items():
            kept.roles.setdefault(claim_id, set()).update(roles)

    async def apply_all(
        self, taken: list[Submission], handler: SubmissionHandler
    ) -> list[tuple[Submission, SubmissionStatus, str | None]]:
        """Runs `handler` on each submission in turn, each in its own layer: (submission, status, reason) each."""
        outcomes: list[tuple[Submission, SubmissionStatus, str | None]] = []
        for submission in taken:
            self.begin()
            try:
                applied = await handler(self, submission)
            finally:
                self.open = False
            self.finish(keep=applied.rejected_reason is None)
            status: SubmissionStatus = "processed" if applied.rejected_reason is None else "rejected"
            outcomes.append((submission, status, applied.rejected_reason))
        return outcomes

    # The handler's side (ProcessingTx).

    def _check(self) -> None:
        if not self.open:
            raise RuntimeError("the processing transaction is over")

    async def _next_id(self, kind: str) -> int:
        ids = self._ids[kind]
        if not ids:
            ids.extend(await self._allocate(kind, max(1, self._left)))
        return ids.pop(0)

    async def _stored_claim(self, claim_id: int) -> ClaimState:
        stored = self._stored.get(claim_id)
        if stored is None:
            stored = self._stored[claim_id] = await self._load(claim_id)
        return stored

    async def claim_status(self, claim_id: int) -> ClaimStatus | None:
        self._check()
        if not fits_int64(claim_id):
            return None
        for layer in (self._cur, self.kept):
            if claim_id in layer.new_claims:
                return cast(ClaimStatus, layer.new_claims[claim_id][1])
            if claim_id in layer.statuses:
                return layer.statuses[claim_id][0]
        return (await self._stored_claim(claim_id))[0]

    async def insert_claim(self, text: str, now: float) -> int:
        self._check()
        claim_id = await self._next_id("claims")
        self._cur.new_claims[claim_id] = [text, "pending_evidence", now, now]
        return claim_id

    async def set_claim_status(self, claim_id: int, status: ClaimStatus, now: float) -> None:
        self._check()
        if claim_id in self._cur.new_claims:
            self._cur.new_claims[claim_id][1] = status
            self._cur.new_claims[claim_id][3] = now
        else:
            self._cur.statuses[claim_id] = (status, now)

    async def insert_artifact(self, claim_id: int, submission: Submission, content: dict[str, Any], now: float) -> int:
        self._check()
        artifact_id = await self._next_id("artifacts")
        self._cur.artifacts.append(
            (
                artifact_id,
                claim_id,
                submission.role_id,
                submission.agent_id,
                submission.submission_id,
                submission.work_type,
                dumps(content),
                now,
            )
        )
        self._cur.roles.setdefault(claim_id, set()).add(submission.role_id)
        return artifact_id

    async def artifact_roles(self, claim_id: int) -> set[str]:
        self._check()
        if not fits_int64(claim_id):
            return set()
        roles = set(self._cur.roles.get(claim_id, ())) | self.kept.roles.get(claim_id, set())
        if claim_id not in self._cur.new_claims and claim_id not in self.kept.new_claims:
            roles |= (await self._stored_claim(claim_id))[1]
        return roles
