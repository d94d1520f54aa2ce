"""Applies accepted submissions: one artifact per result item, and the claim life cycle.

    pending_evidence --(an evidence_seeker and a methodology_critic artifact)--> ready_for_verdict
    ready_for_verdict --(a judge artifact)--> verdict_issued

Submissions are applied in batches, one store transaction each, every submission exactly once, by whichever
process takes it first.
A submission that cannot be applied as a whole (a claim that no longer qualifies) is `rejected` with the reason
and leaves no artifact.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from tahqiq.access.roles import EVIDENCE_ROLES
from tahqiq.metrics import Metrics
from tahqiq.store.protocol import Applied, ProcessingTx, Store, Submission

log = logging.getLogger("tahqiq.processor")
PRUNE_EVERY_S = 60.0
STOP_WAIT_S = 2.0  # how long stop() lets the submission being applied finish before cancelling it
MAX_ATTEMPTS = 3
# Submissions applied per store transaction: a batch costs a few round trips and one commit whatever its size,
# and a queue that built up under load is worked off in large batches instead of one commit per submission.
# Under load the batches are full (the queue grows faster than LINGER_S of lingering drains it), so a larger
# batch spreads its fixed cost over more submissions: 256 rather than 64.
# See docs/benchmarks.md, "Submission processor batches".
BATCH_SIZE = 256
LINGER_S = 0.02  # after a partial batch, how long accepts may gather before the next


async def apply_submission(tx: ProcessingTx, submission: Submission, now: float) -> Applied:
    role = submission.role_id
    for index, item in enumerate(submission.payload["results"]):
        if role == "claim_splitter":
            claim_id = await tx.insert_claim(item["text"].strip(), now)
            await tx.insert_artifact(claim_id, submission, item, now)
            continue
        claim_id = item["claim_id"]
        status = await tx.claim_status(claim_id)
        if status is None:
            return Applied(rejected_reason=f"results[{index}].claim_id: claim {claim_id} does not exist")
        if role == "judge":
            if status != "ready_for_verdict":
                return Applied(
                    rejected_reason=f"results[{index}].claim_id: claim {claim_id} is {status}, not ready_for_verdict"
                )
            await tx.insert_artifact(claim_id, submission, item, now)
            await tx.set_claim_status(claim_id, "verdict_issued", now)
            continue
        await tx.insert_artifact(claim_id, submission, item, now)
        if status == "pending_evidence" and EVIDENCE_ROLES <= await tx.artifact_roles(claim_id):
            await tx.set_claim_status(claim_id, "ready_for_verdict", now)
    return Applied()


class Processor:
    """The in-process worker that drains the submission queue; `wake()` after an accept avoids waiting a poll."""

    def __init__(
        self,
        store: Store,
        poll_s: float,
        idempotency_ttl_s: float,
        clock: Callable[[], float] = time.time,
        metrics: Metrics | None = None,
    ) -> None:
        self._store = store
        self._metrics = metrics or Metrics()
        self._poll_s = poll_s
        self._idempotency_ttl_s = idempotency_ttl_s
        self._clock = clock
        self._pruned_at = 0.0
        self._failures: dict[str, int] = {}
        self._wake = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        self._stopping = False
        self._task = asyncio.get_running_loop().create_task(self._run(), name="tahqiq-processor")

    async def stop(self, wait_s: float = STOP_WAIT_S) -> None:
        """Stops between two submissions: the one being applied is finished (cancelled only after `wait_s`),
        so its transaction ends here rather than when the store closes."""
        if self._task is not None:
            self._stopping = True
            self._wake.set()
            try:
                await asyncio.wait_for(self._task, wait_s)
            except TimeoutError:
                log.warning("submission processor did not stop within %g s; cancelled it", wait_s)
            except asyncio.CancelledError:
                pass
            self._task = None

    async def drain(self) -> int:
        """Applies everything queued now; returns how many submissions it took (used by tests and the CLI)."""
        count = 0
        while taken := await self._step():
            count += taken
        return count

    async def _step(self) -> int:
        now = self._clock()
        rejected = 0  # of the batch's submissions, once the batch is committed

        async def handler(tx: ProcessingTx, submission: Submission) -> Applied:
            nonlocal rejected
            try:
                applied = await apply_submission(tx, submission, now)
                rejected += applied.rejected_reason is not None
                return applied
            except Exception as exc:
                # The store rolls back and the submission stays queued; a transient fault heals on retry, but
                # one that keeps failing would block the queue behind it, so it is rejected after a few tries.
                failures = self._failures.get(submission.submission_id, 0) + 1
                self._failures[submission.submission_id] = failures
                if failures < MAX_ATTEMPTS:
                    raise
                del self._failures[submission.submission_id]
                log.exception("rejecting submission %s after %d failed attempts", submission.submission_id, failures)
                rejected += 1
                return Applied(rejected_reason=f"could not be applied ({type(exc).__name__}); submit it again")

        taken = await self._store.process_batch(handler, now, BATCH_SIZE)
        if taken:
            self._metrics.submissions.labels("processed").inc(len(taken) - rejected)
            if rejected:
                self._metrics.submissions.labels("rejected").inc(rejected)
        if log.isEnabledFor(logging.DEBUG):  # a batch is up to 256 submissions: not one call each when off
            for submission in taken:
                log.debug("applied submission %s", submission.submission_id)
        return len(taken)

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()  # before looking, so an accept during the look still wakes the wait below
            try:
                taken = await self._step()
                if taken >= BATCH_SIZE:
                    continue  # more are waiting
                if taken:
                    # The queue is empty for now. Under load, more accepts arrive within milliseconds: letting
                    # them gather makes the next batch large instead of taking one submission per transaction.
                    await asyncio.sleep(LINGER_S)
                    continue
                now = self._clock()
                if now - self._pruned_at > PRUNE_EVERY_S:  # idle: a good moment to drop expired records
                    await self._store.prune(now, self._idempotency_ttl_s)
                    self._pruned_at = now
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("submission processor failed; retrying")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._poll_s)
