"""Shared reads (tahqiq.access.coalesce.ReadCoalescer): the claim queues and the keyring's newest-key check.

What must hold: concurrent reads of one key share one call; a read never joins a call that has already begun,
so no answer is older than its request; an error reaches only the reads of the call that failed; a read that
gives up leaves the others their answer."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import uuid
from collections.abc import AsyncIterator
from typing import Any

import hypothesis.strategies as st
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from tahqiq.access.coalesce import ReadCoalescer
from tahqiq.access.service import AccessService
from tahqiq.access.tokens import Keyring, TokenClaims, rotate
from tahqiq.config import Settings
from tahqiq.store import Applied, NewSubmission, ProcessingTx, RateLimit, Store, Submission, open_store


class VersionedSource:
    """A stand-in for the store: `version` counts writes; a call reads it when it begins and answers later."""

    def __init__(self, turns_per_call: int = 1) -> None:
        self.turns_per_call = turns_per_call  # event-loop turns a call takes after reading
        self.version = 0
        self.calls: list[str] = []
        self.release = asyncio.Event()  # while cleared, calls wait after reading
        self.release.set()
        self.fail_next = False

    async def fetch(self, key: str) -> tuple[str, int]:
        self.calls.append(key)
        seen = self.version
        await self.release.wait()
        for _ in range(self.turns_per_call):
            await asyncio.sleep(0)
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("the store went away")
        return key, seen

    async def called(self, times: int = 1) -> None:
        """Returns once `times` calls have read the store."""
        while len(self.calls) < times:
            await asyncio.sleep(0)


async def test_concurrent_reads_of_one_key_share_one_call_and_other_keys_get_their_own() -> None:
    source = VersionedSource()
    reads = ReadCoalescer(source.fetch, "test")
    answers = await asyncio.gather(*(reads.get("a") for _ in range(20)), reads.get("b"), reads.get("b"))
    assert answers == [("a", 0)] * 20 + [("b", 0)] * 2
    assert sorted(source.calls) == ["a", "b"]
    assert await reads.get("a") == ("a", 0) and source.calls.count("a") == 2  # idle again: a new call


async def test_a_read_arriving_during_a_call_waits_for_a_new_call_that_sees_the_write_before_it() -> None:
    source = VersionedSource()
    reads = ReadCoalescer(source.fetch, "test")
    source.release.clear()
    first = asyncio.create_task(reads.get("a"))
    await source.called()  # the first call has read the store (version 0) and waits
    source.version = 1  # a write completes...
    later = [asyncio.create_task(reads.get("a")) for _ in range(5)]  # ...before these reads arrive
    await asyncio.sleep(0)
    assert source.calls == ["a"]  # they did not start a second call beside the first
    source.release.set()
    assert await first == ("a", 0)
    assert [await task for task in later] == [("a", 1)] * 5  # one new call for all five, made after the write
    assert source.calls == ["a", "a"]


async def test_an_error_reaches_only_the_reads_of_the_failed_call() -> None:
    source = VersionedSource()
    reads = ReadCoalescer(source.fetch, "test")
    source.release.clear()
    source.fail_next = True
    failing = [asyncio.create_task(reads.get("a")) for _ in range(3)]
    await source.called()
    after = asyncio.create_task(reads.get("a"))  # arrives during the failing call: gets the next one
    source.release.set()
    for task in failing:
        with pytest.raises(RuntimeError, match="went away"):
            await task
    assert await after == ("a", 0)
    assert source.calls == ["a", "a"]


async def test_a_read_that_gives_up_leaves_the_others_their_answer_and_no_lost_error_is_reported() -> None:
    loop = asyncio.get_running_loop()
    reported: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    source = VersionedSource()
    reads = ReadCoalescer(source.fetch, "test")
    source.release.clear()
    quitter, stayer = asyncio.create_task(reads.get("a")), asyncio.create_task(reads.get("a"))
    await source.called()
    quitter.cancel()
    source.release.set()
    assert await stayer == ("a", 0)
    with pytest.raises(asyncio.CancelledError):
        await quitter
    # A failed call whose only reader gave up: its error is read, not reported as never retrieved.
    source.release.clear()
    source.fail_next = True
    alone = asyncio.create_task(reads.get("a"))
    await source.called(2)
    alone.cancel()
    source.release.set()
    await asyncio.sleep(0.01)
    gc.collect()
    await asyncio.sleep(0)
    assert reported == []
    assert await reads.get("a") == ("a", 0)  # and the key works afterwards


async def test_cancelling_the_calls_at_shutdown_leaves_no_read_waiting_forever() -> None:
    source = VersionedSource()
    reads = ReadCoalescer(source.fetch, "shutdown-test")
    source.release.clear()
    current = asyncio.create_task(reads.get("a"))
    await source.called()
    queued = asyncio.create_task(reads.get("a"))  # waits for the next call
    await asyncio.sleep(0)
    (caller,) = [task for task in asyncio.all_tasks() if task.get_name() == "shutdown-test"]
    caller.cancel()
    done, _ = await asyncio.wait([current, queued], timeout=5)
    assert done == {current, queued} and all(task.cancelled() for task in done)
    source.release.set()
    assert await reads.get("a") == ("a", 0)  # a later read starts afresh


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["read a", "read b", "write", "yield"]), st.integers(min_value=0, max_value=3)),
        min_size=1,
        max_size=40,
    ),
    turns_per_call=st.integers(min_value=0, max_value=4),
)
def test_no_answer_is_older_than_its_request_and_calls_never_outnumber_reads(
    steps: list[tuple[str, int]], turns_per_call: int
) -> None:
    """Any interleaving of reads, writes and event-loop turns: each answer reflects at least every write made
    before its read arrived, and at most the writes made before it was answered."""

    async def scenario() -> None:
        source = VersionedSource(turns_per_call)
        reads = ReadCoalescer(source.fetch, "test")
        checks: list[asyncio.Task[None]] = []

        async def read(key: str) -> None:
            arrived = source.version
            answered_key, seen = await reads.get(key)
            assert answered_key == key
            assert arrived <= seen <= source.version

        for action, turns in steps:
            if action == "write":
                source.version += 1
            elif action.startswith("read"):
                checks.append(asyncio.create_task(read(action[-1])))
            for _ in range(turns):
                await asyncio.sleep(0)
        await asyncio.gather(*checks)
        assert len(source.calls) <= len(checks)

    asyncio.run(scenario())


# The service: its queue reads go through one coalescer per service.

T0 = 1_700_000_040.0
RATE = RateLimit(limit=120, window_s=60)


async def split_into_claims(tx: ProcessingTx, submission: Submission) -> Applied:
    for item in submission.payload["results"]:
        await tx.insert_claim(item["text"], submission.created_at)
    return Applied()


async def add_claim(store: Store, text: str, at: float) -> None:
    agent_id = str(uuid.uuid4())
    await store.create_agent(agent_id, "splitter", "claim_splitter", uuid.uuid4().hex * 2, "svc_agent_ab", at)
    payload = {"work_type": "split", "results": [{"text": text}]}
    submission = NewSubmission(str(uuid.uuid4()), agent_id, "claim_splitter", "split", payload, 202, b"{}")
    await store.accept_submission(submission, str(uuid.uuid4()), "f", RATE, at)
    assert await store.process_next(split_into_claims, at) is not None


@pytest.fixture
async def store() -> AsyncIterator[Store]:
    opened = open_store("sqlite:///:memory:")
    await opened.open()
    await opened.migrate()
    yield opened
    await opened.close()


def seeker() -> TokenClaims:
    return TokenClaims(str(uuid.uuid4()), "evidence_seeker", ("claims:read",), "app", "jti", T0, T0 + 60, "1.0.0")


def texts(body: bytes) -> list[str]:
    return [claim["text"] for claim in orjson.loads(body)["data"]]


async def test_the_pending_queue_shares_store_queries_without_answering_from_before_a_read(store: Store) -> None:
    await add_claim(store, "first", T0)
    access = AccessService(Settings(secret_key=b"k" * 32), store, tokens=None)  # type: ignore[arg-type]
    queries = 0
    query_done, resume = asyncio.Event(), asyncio.Event()
    resume.set()
    real = store.pending_claims

    async def counted(role_id: str, limit: int) -> Any:
        nonlocal queries
        queries += 1
        rows = await real(role_id, limit)  # the store is read here...
        query_done.set()
        await resume.wait()  # ...and the answer comes later
        return rows

    store.pending_claims = counted  # type: ignore[method-assign]
    replies = await asyncio.gather(*(access.pending(seeker(), None) for _ in range(30)))
    assert queries == 1 and {r.body for r in replies} == {replies[0].body}
    assert texts(replies[0].body) == ["first"]

    resume.clear()
    query_done.clear()
    before = asyncio.create_task(access.pending(seeker(), None))
    await query_done.wait()  # this read's query has run
    await add_claim(store, "second", T0 + 1)
    after = asyncio.create_task(access.pending(seeker(), None))  # arrives after the claim was made
    await asyncio.sleep(0.01)
    resume.set()
    assert texts((await before).body) == ["first"]
    assert texts((await after).body) == ["first", "second"]
    assert queries == 3
    # other limits and the judge's queue are other reads
    assert texts((await access.pending(seeker(), "1")).body) == ["first"]
    judge = dataclasses.replace(seeker(), role_id="judge")
    assert texts((await access.ready(judge, None)).body) == []
    assert queries == 4


async def test_concurrent_mints_share_the_newest_key_check_and_a_key_added_before_a_mint_signs_it(store: Store) -> None:
    secret = b"s" * 32
    keyring = Keyring(store, secret, 30)
    await keyring.load(T0)
    reads = 0
    real = store.signing_keys

    async def counted() -> Any:
        nonlocal reads
        reads += 1
        return await real()

    store.signing_keys = counted  # type: ignore[method-assign]
    await asyncio.gather(*(keyring.refresh_if_stale(T0) for _ in range(20)))  # twenty mints at once
    assert reads == 1
    first = keyring.signing[0]
    added = await rotate(store, secret, T0 + 1)  # `tahqiq keys rotate`, in this process or another
    await keyring.refresh_if_stale(T0 + 1)
    assert keyring.signing[0] == added != first


async def test_a_key_another_server_added_verifies_at_once_and_junk_kids_reload_nothing(store: Store) -> None:
    # Two servers starting on an empty store each create a first key; the one that loaded first must still verify
    # the other's tokens at once, not after its one-second bound on reloads for unknown kids.
    secret = b"s" * 32
    keyring = Keyring(store, secret, 30)
    await keyring.load(T0)
    added = await rotate(store, secret, T0)  # the other server's first key, added just after this one loaded
    assert await keyring.public_key(added, T0) is not None
    loads = 0
    real = keyring.load

    async def counted(now: float) -> None:
        nonlocal loads
        loads += 1
        await real(now)

    keyring.load = counted  # type: ignore[method-assign]
    assert await keyring.public_key(str(uuid.uuid4()), T0) is None  # a junk kid: the newest is known, no reload
    assert loads == 0
