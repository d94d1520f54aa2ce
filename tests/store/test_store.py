"""One suite, two stores: every test runs against SqliteStore and PostgresStore (the `store` fixture)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from tahqiq.access.processor import BATCH_SIZE, Processor
from tahqiq.store import (
    Accepted,
    AlreadyExists,
    Applied,
    Claim,
    KeyReused,
    NewSubmission,
    ProcessingTx,
    RateLimit,
    RateLimited,
    Replayed,
    Store,
    Submission,
    open_store,
    sqlite_path,
)
from tahqiq.store.postgres import PostgresStore
from tahqiq.store.sqlite import SqliteStore

T0 = 1_700_000_040.0  # a multiple of 60: the start of a one-minute window
RATE = RateLimit(limit=120, window_s=60)
LATEST_VERSIONS = [1, 2, 3, 4, 5]  # the migrations both dialects ship
LATEST = LATEST_VERSIONS[-1]
Factory = Callable[[], Awaitable[Store]]


def uid() -> str:
    return str(uuid.uuid4())


def new_submission(
    agent_id: str,
    payload: dict[str, Any] | None = None,
    *,
    role_id: str = "claim_splitter",
    status: int = 202,
) -> NewSubmission:
    submission_id = uid()
    payload = payload if payload is not None else {"work_type": "split", "results": [{"text": "x"}]}
    body = f'{{"submission_id":"{submission_id}"}}'.encode()
    return NewSubmission(submission_id, agent_id, role_id, str(payload.get("work_type")), payload, status, body)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def factory(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Factory]:
    """Opens stores on one migrated database: several instances stand for several processes."""
    if backend == "sqlite":
        path = str(tmp_path / "tahqiq.db")

        def make() -> Store:
            return SqliteStore(path)
    else:
        url = request.getfixturevalue("pg_url")

        def make() -> Store:
            return PostgresStore(url, min_size=1, max_size=8)

    opened: list[Store] = []

    async def open_one() -> Store:
        store = make()
        await store.open()
        opened.append(store)
        await store.migrate()
        return store

    yield open_one
    for store in opened:
        await store.close()


@pytest.fixture
async def store(factory: Factory) -> Store:
    return await factory()


@pytest.fixture
async def empty_factory(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Factory]:
    """Opens stores on an empty database (no schema yet)."""
    if backend == "sqlite":
        path = str(tmp_path / "empty.db")

        def make() -> Store:
            return SqliteStore(path)
    else:
        url = request.getfixturevalue("pg_empty_url")

        def make() -> Store:
            return PostgresStore(url, min_size=1, max_size=2)

    opened: list[Store] = []

    async def open_one() -> Store:
        store = make()
        await store.open()
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        await store.close()


async def make_agent(store: Store, role_id: str = "claim_splitter", now: float = T0) -> str:
    agent_id = uid()
    await store.create_agent(agent_id, "agent", role_id, uuid.uuid4().hex * 2, "svc_agent_ab", now)
    return agent_id


async def split_claims(tx: ProcessingTx, submission: Submission) -> Applied:
    """A handler in the spirit of the domain's: one claim and one artifact per result item."""
    for item in submission.payload["results"]:
        claim_id = await tx.insert_claim(item["text"], submission.created_at + 1)
        await tx.insert_artifact(claim_id, submission, item, submission.created_at + 1)
    return Applied()


async def three_agents_and_a_claim(store: Store) -> tuple[str, str, str, Claim]:
    """A splitter, a seeker and a critic, and one claim the splitter's submission made (pending evidence)."""
    splitter = await make_agent(store)
    seeker = await make_agent(store, "evidence_seeker")
    critic = await make_agent(store, "methodology_critic")
    await store.accept_submission(new_submission(splitter), uid(), "f", RATE, T0)
    await store.process_next(split_claims, T0 + 1)
    (claim,) = await store.pending_claims("evidence_seeker", 10)
    return splitter, seeker, critic, claim


# open_store


def test_open_store_picks_the_implementation_by_scheme(tmp_path: Path) -> None:
    assert isinstance(open_store("sqlite:///var/t.db"), SqliteStore)
    assert sqlite_path("sqlite:///var/t.db") == "var/t.db"
    assert sqlite_path("sqlite:///./var/t.db") == "./var/t.db"
    assert sqlite_path(f"sqlite:///{tmp_path}/t.db") == f"{tmp_path}/t.db"
    assert sqlite_path("sqlite:///:memory:") == ":memory:"
    pg = open_store("postgresql://u:p@localhost:5432/db")
    assert isinstance(pg, PostgresStore) and pg.url_scheme == "postgresql"
    assert isinstance(open_store("postgres://u:p@localhost/db"), PostgresStore)
    assert open_store("sqlite:///x.db").url_scheme == "sqlite"


@pytest.mark.parametrize(
    "url",
    ["mysql://u:secret@h/db", "sqlite://relative.db", "sqlite:///", "sqlite:///x.db?mode=ro", "", "x.db"],
)
def test_open_store_refuses_other_urls_without_echoing_passwords(url: str) -> None:
    with pytest.raises(ValueError, match="URL") as raised:
        open_store(url)
    assert "secret" not in str(raised.value)


async def test_in_memory_sqlite_store_works_end_to_end() -> None:
    store = open_store("sqlite:///:memory:")
    await store.open()
    try:
        assert await store.migrate() == LATEST_VERSIONS
        agent_id = await make_agent(store)
        new = new_submission(agent_id)
        assert isinstance(await store.accept_submission(new, uid(), "fp", RATE, T0), Accepted)
        taken = await store.process_next(split_claims, T0 + 2)
        assert taken is not None and taken.submission_id == new.submission_id
        assert [c.text for c in await store.pending_claims("evidence_seeker", 10)] == ["x"]
    finally:
        await store.close()


async def test_sqlite_creates_the_database_directory(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/deep/er/t.db")
    await store.open()
    try:
        assert await store.migrate() == LATEST_VERSIONS
        assert (tmp_path / "deep" / "er" / "t.db").exists()
    finally:
        await store.close()


# Migrations


async def test_migrations_are_recorded_and_idempotent(store: Store) -> None:
    assert await store.schema_version() == LATEST
    assert await store.migrate() == []
    assert await store.migrate() == []
    assert await store.schema_version() == LATEST


async def test_migrations_start_from_an_empty_database(empty_factory: Factory) -> None:
    store = await empty_factory()
    assert await store.schema_version() == 0
    assert await store.migrate() == LATEST_VERSIONS
    assert await store.schema_version() == LATEST
    assert await store.migrate() == []
    assert await store.list_agents() == []


async def test_concurrent_migrations_apply_each_version_once(empty_factory: Factory) -> None:
    stores = [await empty_factory() for _ in range(3)]
    results = await asyncio.gather(*(s.migrate() for s in stores))
    assert sorted(v for r in results for v in r) == LATEST_VERSIONS  # each version applied by exactly one
    for s in stores:
        assert await s.schema_version() == LATEST
    await make_agent(stores[0])
    assert len(await stores[2].list_agents()) == 1


# Agents and apps


async def test_agents_are_created_found_and_listed(store: Store) -> None:
    agent = await store.create_agent("a1", "Ahmad ٣", "judge", "h1", "svc_agent_a1", T0)
    assert (agent.agent_id, agent.name, agent.role_id, agent.status, agent.key_prefix) == (
        "a1",
        "Ahmad ٣",
        "judge",
        "active",
        "svc_agent_a1",
    )
    assert agent.created_at == T0
    assert await store.get_agent("a1") == agent
    assert await store.agent_by_key_hash("h1") == agent
    assert await store.get_agent("nobody") is None
    assert await store.agent_by_key_hash("h2") is None
    second = await store.create_agent("a0", "B", "evidence_seeker", "h2", "svc_agent_a0", T0 + 1)
    assert await store.list_agents() == [agent, second]


async def test_agent_ids_and_key_hashes_are_unique(store: Store) -> None:
    await store.create_agent("a1", "A", "judge", "h1", "p", T0)
    with pytest.raises(AlreadyExists):
        await store.create_agent("a1", "A", "judge", "h2", "p", T0)
    with pytest.raises(AlreadyExists):
        await store.create_agent("a2", "A", "judge", "h1", "p", T0)
    await store.create_agent("a2", "A", "judge", "h2", "p", T0)
    with pytest.raises(AlreadyExists):
        await store.set_agent_key("a2", "h1", "q", T0)
    assert [a.agent_id for a in await store.list_agents()] == ["a1", "a2"]
    assert (await store.agent_by_key_hash("h2")) == await store.get_agent("a2")


async def test_agent_status_and_key_change(store: Store) -> None:
    await store.create_agent("a1", "A", "judge", "h1", "p1", T0)
    suspended = await store.set_agent_status("a1", "suspended", T0 + 5)
    assert suspended is not None and suspended.status == "suspended" and suspended.created_at == T0
    assert (await store.get_agent("a1")) == suspended
    active = await store.set_agent_status("a1", "active", T0 + 6)
    assert active is not None and active.status == "active"
    rotated = await store.set_agent_key("a1", "h9", "p9", T0 + 7)
    assert rotated is not None and rotated.key_prefix == "p9"
    assert await store.agent_by_key_hash("h1") is None
    assert await store.agent_by_key_hash("h9") == rotated
    assert await store.set_agent_status("nobody", "suspended", T0) is None
    assert await store.set_agent_key("nobody", "hx", "px", T0) is None


async def test_apps_are_created_found_and_listed(store: Store) -> None:
    app = await store.create_app("app1", "First party", "ah1", "svc_app_x", T0)
    assert (app.app_id, app.name, app.key_prefix, app.created_at) == ("app1", "First party", "svc_app_x", T0)
    assert await store.app_by_key_hash("ah1") == app
    assert await store.app_by_key_hash("ah2") is None
    with pytest.raises(AlreadyExists):
        await store.create_app("app1", "again", "ah2", "p", T0)
    with pytest.raises(AlreadyExists):
        await store.create_app("app2", "again", "ah1", "p", T0)
    other = await store.create_app("app0", "Other", "ah2", "p", T0 + 1)
    assert await store.list_apps() == [app, other]


async def test_an_app_key_is_replaced_and_an_app_deleted(store: Store) -> None:
    app = await store.create_app("app1", "First party", "ah1", "svc_app_x", T0)
    other = await store.create_app("app2", "Other", "ah2", "svc_app_y", T0)
    rotated = await store.set_app_key("app1", "ah3", "svc_app_z")
    assert rotated is not None and (rotated.app_id, rotated.name, rotated.key_prefix) == (
        "app1",
        "First party",
        "svc_app_z",
    )
    assert await store.app_by_key_hash("ah1") is None
    assert await store.app_by_key_hash("ah3") == rotated
    with pytest.raises(AlreadyExists):
        await store.set_app_key("app1", "ah2", "p")  # another app's key: nothing changes
    assert await store.app_by_key_hash("ah3") == rotated
    assert await store.set_app_key("nobody", "ah4", "p") is None
    assert await store.delete_app("app1") is True
    assert await store.delete_app("app1") is False
    assert await store.app_by_key_hash("ah3") is None
    assert await store.list_apps() == [other]
    assert app.app_id == "app1"


async def test_another_instance_sees_writes_at_once(factory: Factory) -> None:
    one, two = await factory(), await factory()
    assert await one.get_agent("a1") is None
    await two.create_agent("a1", "A", "judge", "h1", "p", T0)
    assert (await one.get_agent("a1")) is not None
    await two.set_agent_status("a1", "suspended", T0 + 1)
    assert await one.auth_state("a1", "j") == ("suspended", False)


# Signing keys and revocation


async def test_adding_a_signing_key_retires_the_others(store: Store) -> None:
    assert await store.signing_keys() == []
    await store.add_signing_key("k1", b"\x01" * 32, b"enc1\x00\xff", T0)
    (k1,) = await store.signing_keys()
    assert (k1.kid, k1.public_key, k1.private_key_enc, k1.created_at, k1.retired_at) == (
        "k1",
        b"\x01" * 32,
        b"enc1\x00\xff",
        T0,
        None,
    )
    await store.add_signing_key("k2", b"\x02" * 32, b"enc2", T0 + 10)
    await store.add_signing_key("k3", b"\x03" * 32, b"enc3", T0 + 20)
    keys = await store.signing_keys()
    assert [k.kid for k in keys] == ["k3", "k2", "k1"]
    assert [k.retired_at for k in keys] == [None, T0 + 20, T0 + 10]


async def test_a_refused_signing_key_retires_nothing(store: Store) -> None:
    await store.add_signing_key("k1", b"\x01" * 32, b"e", T0)
    with pytest.raises(AlreadyExists):
        await store.add_signing_key("k1", b"\x02" * 32, b"e", T0 + 5)
    (k1,) = await store.signing_keys()
    assert k1.retired_at is None and k1.public_key == b"\x01" * 32


async def test_signing_keys_added_in_the_same_second_list_the_current_one_first(store: Store) -> None:
    await store.add_signing_key("b", b"\x01" * 32, b"e", T0)
    await store.add_signing_key("a", b"\x02" * 32, b"e", T0)
    keys = await store.signing_keys()
    assert [(k.kid, k.retired_at) for k in keys] == [("a", None), ("b", T0)]


async def test_auth_state_reads_status_and_revocation_together(store: Store) -> None:
    assert await store.auth_state("nobody", "j1") == (None, False)
    await store.create_agent("a1", "A", "judge", "h1", "p", T0)
    assert await store.auth_state("a1", "j1") == ("active", False)
    await store.revoke_token("j1", T0 + 900)
    assert await store.auth_state("a1", "j1") == ("active", True)
    assert await store.auth_state("a1", "j2") == ("active", False)
    assert await store.auth_state("nobody", "j1") == (None, True)
    await store.set_agent_status("a1", "suspended", T0)
    assert await store.auth_state("a1", "j2") == ("suspended", False)


async def test_cached_auth_state_follows_changes_made_by_another_instance(factory: Factory) -> None:
    """auth_state may be cached, but a revocation or suspension by another process must show: at once on SQLite
    (PRAGMA data_version), within the NOTIFY's delivery on PostgreSQL (awaited here with a deadline)."""
    reader, writer = await factory(), await factory()
    agent_id = await make_agent(writer)
    assert await reader.auth_state(agent_id, "j1") == ("active", False)
    assert await reader.auth_state(agent_id, "j1") == ("active", False)  # now cached

    async def seen(expected: tuple[str, bool]) -> bool:
        deadline = asyncio.get_running_loop().time() + 2
        while asyncio.get_running_loop().time() < deadline:
            if await reader.auth_state(agent_id, "j1") == expected:
                return True
            await asyncio.sleep(0.005)
        return False

    await writer.revoke_token("j1", T0 + 900)
    assert await seen(("active", True))
    await writer.set_agent_status(agent_id, "suspended", T0)
    assert await seen(("suspended", True))


async def test_sqlite_reads_the_data_version_once_per_loop_iteration(tmp_path: Path) -> None:
    """The verified-token path asks auth_state on every request: SQLite reads `PRAGMA data_version` once per event-loop
    iteration (requests of one iteration are concurrent with any commit it could miss), and again in the next."""
    store = SqliteStore(str(tmp_path / "tahqiq.db"))
    await store.open()
    await store.migrate()
    statements: list[str] = []
    assert store._reader is not None
    store._reader.set_trace_callback(statements.append)
    answers = await asyncio.gather(*(store.auth_state("a", f"j{i}") for i in range(5)))
    assert answers == [(None, False)] * 5
    assert statements.count("PRAGMA data_version") == 1
    await store.revoke_token("j0", T0 + 900)  # a commit between two iterations is seen by the next
    assert await store.auth_state("a", "j0") == (None, True)
    assert statements.count("PRAGMA data_version") == 2
    await store.close()


async def test_revoking_twice_keeps_the_later_expiry(store: Store) -> None:
    await store.revoke_token("j1", T0 + 900)
    await store.revoke_token("j1", T0 + 100)
    await store.prune(T0 + 500, 86_400)
    assert (await store.auth_state("a", "j1"))[1] is True
    await store.prune(T0 + 901, 86_400)
    assert (await store.auth_state("a", "j1"))[1] is False


# Rate limits


async def test_hit_rate_counts_up_to_the_limit_exactly(store: Store) -> None:
    rate = RateLimit(limit=3, window_s=60)
    now = T0 + 0.5
    decisions = [await store.hit_rate("b", rate, now) for _ in range(5)]
    assert [d.allowed for d in decisions] == [True, True, True, False, False]
    assert [d.remaining for d in decisions] == [2, 1, 0, 0, 0]
    assert all(d.limit == 3 for d in decisions)
    assert decisions[0].reset_s == pytest.approx(59.5)


async def test_hit_rate_counts_gathered_units_at_once(store: Store) -> None:
    rate = RateLimit(limit=10, window_s=60)
    first = await store.hit_rate("b", rate, T0 + 1, units=4)  # a new window starts at the units given
    assert (first.allowed, first.remaining) == (True, 6)
    assert (await store.hit_rate("b", rate, T0 + 2, units=6)).remaining == 0
    over = await store.hit_rate("b", rate, T0 + 3, units=2)
    assert (over.allowed, over.remaining) == (False, 0)
    assert (await store.peek_rate("b", rate, T0 + 4)).remaining == 0
    assert (await store.hit_rate("b", rate, T0 + 60, units=3)).remaining == 7  # the next window
    assert (await store.hit_rate("b", rate, T0 + 61)).remaining == 6  # one unit by default


async def test_rate_windows_roll_over_on_the_boundary(store: Store) -> None:
    rate = RateLimit(limit=2, window_s=60)
    for _ in range(2):
        assert (await store.hit_rate("b", rate, T0)).allowed
    last = await store.hit_rate("b", rate, T0 + 59.999)
    assert not last.allowed and last.reset_s == pytest.approx(0.001, abs=1e-6)
    fresh = await store.hit_rate("b", rate, T0 + 60)
    assert fresh.allowed and fresh.remaining == 1 and fresh.reset_s == pytest.approx(60)
    assert (await store.hit_rate("other", rate, T0 + 59)).remaining == 1


async def test_peek_rate_reads_without_counting(store: Store) -> None:
    rate = RateLimit(limit=2, window_s=10)
    empty = await store.peek_rate("b", rate, T0 + 3)
    assert (empty.allowed, empty.remaining, empty.limit) == (True, 2, 2)
    assert empty.reset_s == pytest.approx(7)
    assert (await store.peek_rate("b", rate, T0 + 3)).remaining == 2
    await store.hit_rate("b", rate, T0 + 3)
    one = await store.peek_rate("b", rate, T0 + 4)
    assert (one.allowed, one.remaining) == (True, 1)
    await store.hit_rate("b", rate, T0 + 4)
    full = await store.peek_rate("b", rate, T0 + 5)
    assert (full.allowed, full.remaining) == (False, 0)
    assert (await store.hit_rate("b", rate, T0 + 5)).allowed is False  # the third request: peek never counted
    assert (await store.peek_rate("b", rate, T0 + 10)).allowed is True


async def test_concurrent_hits_are_all_counted(factory: Factory) -> None:
    one, two = await factory(), await factory()
    rate = RateLimit(limit=30, window_s=60)
    decisions = await asyncio.gather(*(s.hit_rate("b", rate, T0) for s in [one, two] * 20))
    assert sorted(d.remaining for d in decisions) == [0] * 11 + list(range(1, 30))
    assert sum(d.allowed for d in decisions) == 30
    assert (await one.peek_rate("b", rate, T0)).remaining == 0


# Accepting submissions


async def test_accept_stores_the_submission_and_counts_one_unit(store: Store) -> None:
    agent_id = await make_agent(store)
    payload = {
        "work_type": "تقسيم",
        "results": [{"text": "الأرض تدور حول الشمس 🌍", "note": '\u0000 nul, "quotes", \\'}],
        "metadata": {"nested": {"list": [1, 2.5, None, True, False, ""]}},
    }
    new = new_submission(agent_id, payload)
    outcome = await store.accept_submission(new, uid(), "fp1", RateLimit(5, 60), T0 + 1)
    assert isinstance(outcome, Accepted)
    assert (outcome.rate.allowed, outcome.rate.limit, outcome.rate.remaining) == (True, 5, 4)
    assert outcome.rate.reset_s == pytest.approx(59)
    stored = await store.get_submission(new.submission_id)
    assert stored == Submission(
        new.submission_id, agent_id, "claim_splitter", "تقسيم", payload, "accepted", None, T0 + 1, None
    )
    assert (await store.peek_rate(f"submit:{agent_id}", RateLimit(5, 60), T0 + 2)).remaining == 4
    assert await store.get_submission(uid()) is None


async def test_same_key_same_fingerprint_replays_without_counting(store: Store) -> None:
    agent_id = await make_agent(store)
    key = uid()
    first = new_submission(agent_id, status=202)
    assert isinstance(await store.accept_submission(first, key, "fp", RateLimit(5, 60), T0), Accepted)
    again = new_submission(agent_id)
    outcomes = [await store.accept_submission(again, key, "fp", RateLimit(5, 60), T0 + 1) for _ in range(3)]
    assert outcomes == [Replayed(202, first.response_body)] * 3
    assert await store.get_submission(again.submission_id) is None
    assert (await store.peek_rate(f"submit:{agent_id}", RateLimit(5, 60), T0 + 1)).remaining == 4


async def test_same_key_other_fingerprint_is_refused(store: Store) -> None:
    agent_id = await make_agent(store)
    key = uid()
    await store.accept_submission(new_submission(agent_id), key, "fp", RATE, T0)
    other = new_submission(agent_id)
    assert await store.accept_submission(other, key, "fp-other", RATE, T0) == KeyReused()
    assert await store.get_submission(other.submission_id) is None
    assert (await store.peek_rate(f"submit:{agent_id}", RATE, T0)).remaining == RATE.limit - 1


async def test_keys_are_scoped_by_agent(store: Store) -> None:
    a, b = await make_agent(store), await make_agent(store)
    key = uid()
    assert isinstance(await store.accept_submission(new_submission(a), key, "fp", RATE, T0), Accepted)
    assert isinstance(await store.accept_submission(new_submission(b), key, "fp2", RATE, T0), Accepted)


async def test_rate_limit_at_the_boundary_writes_nothing(store: Store) -> None:
    agent_id = await make_agent(store)
    rate = RateLimit(limit=2, window_s=60)
    outcomes = []
    for _ in range(2):
        outcomes.append(await store.accept_submission(new_submission(agent_id), uid(), "fp", rate, T0 + 10))
    assert [o.rate.remaining for o in outcomes if isinstance(o, Accepted)] == [1, 0]
    refused_key = uid()
    refused = new_submission(agent_id)
    outcome = await store.accept_submission(refused, refused_key, "fp", rate, T0 + 20)
    assert isinstance(outcome, RateLimited)
    assert (outcome.rate.allowed, outcome.rate.remaining, outcome.rate.limit) == (False, 0, 2)
    assert outcome.rate.reset_s == pytest.approx(40)
    # Nothing written: no submission, no counted unit, no idempotency record.
    assert await store.get_submission(refused.submission_id) is None
    assert (await store.peek_rate(f"submit:{agent_id}", rate, T0 + 20)).remaining == 0
    third = await store.hit_rate(f"submit:{agent_id}", RateLimit(limit=3, window_s=60), T0 + 21)
    assert (third.allowed, third.remaining) == (True, 0)  # the count was 2: the refusal counted nothing
    # The same key, once the window has rolled over, is a new request (accepted), not a replay.
    retry = await store.accept_submission(refused, refused_key, "fp", rate, T0 + 60)
    assert isinstance(retry, Accepted) and retry.rate.remaining == 1
    assert await store.get_submission(refused.submission_id) is not None


async def test_a_rate_limited_request_does_not_use_up_the_window(store: Store) -> None:
    agent_id = await make_agent(store)
    rate = RateLimit(limit=1, window_s=60)
    assert isinstance(await store.accept_submission(new_submission(agent_id), uid(), "f", rate, T0), Accepted)
    for _ in range(5):
        assert isinstance(
            await store.accept_submission(new_submission(agent_id), uid(), "f", rate, T0 + 1), RateLimited
        )
    peek = await store.peek_rate(f"submit:{agent_id}", RateLimit(limit=2, window_s=60), T0 + 1)
    assert peek.remaining == 1  # one unit counted, not six


async def test_replays_pass_even_when_rate_limited(store: Store) -> None:
    agent_id = await make_agent(store)
    rate = RateLimit(limit=1, window_s=60)
    key = uid()
    first = new_submission(agent_id)
    assert isinstance(await store.accept_submission(first, key, "f", rate, T0), Accepted)
    assert await store.accept_submission(first, key, "f", rate, T0 + 1) == Replayed(202, first.response_body)
    assert await store.accept_submission(first, key, "g", rate, T0 + 1) == KeyReused()


async def test_fifty_concurrent_requests_with_one_key_store_one_submission(store: Store) -> None:
    agent_id = await make_agent(store)
    key = uid()
    news = [new_submission(agent_id) for _ in range(50)]
    outcomes = await asyncio.gather(*(store.accept_submission(n, key, "fp", RATE, T0) for n in news))
    await assert_one_accepted(store, news, outcomes)


async def test_concurrent_requests_with_one_key_from_two_instances(factory: Factory) -> None:
    one, two = await factory(), await factory()
    agent_id = await make_agent(one)
    key = uid()
    news = [new_submission(agent_id) for _ in range(50)]
    outcomes = await asyncio.gather(
        *((one if i % 2 else two).accept_submission(n, key, "fp", RATE, T0) for i, n in enumerate(news))
    )
    await assert_one_accepted(one, news, outcomes)


async def assert_one_accepted(store: Store, news: list[NewSubmission], outcomes: list[Any]) -> None:
    accepted = [i for i, o in enumerate(outcomes) if isinstance(o, Accepted)]
    assert len(accepted) == 1
    winner = news[accepted[0]]
    replays = [o for o in outcomes if not isinstance(o, Accepted)]
    assert replays == [Replayed(202, winner.response_body)] * 49
    stored = [n for n in news if await store.get_submission(n.submission_id) is not None]
    assert stored == [winner]
    assert (await store.peek_rate(f"submit:{winner.agent_id}", RATE, T0)).remaining == RATE.limit - 1


async def test_large_unicode_payloads_round_trip(store: Store) -> None:
    agent_id = await make_agent(store)
    results = [
        {"text": f"ادعاء رقم {i}: " + "ك" * 200 + " \U0001d518\U0001d52b \U0001f600 \u200f", "i": i}
        for i in range(2000)
    ]
    payload = {"work_type": "split", "results": results, "metadata": {"huge": 2**70, "neg": -(2**65)}}
    new = new_submission(agent_id, payload)
    assert isinstance(await store.accept_submission(new, uid(), "fp", RATE, T0), Accepted)
    stored = await store.get_submission(new.submission_id)
    assert stored is not None and stored.payload == payload
    assert stored.payload["metadata"]["huge"] == 2**70 and isinstance(stored.payload["metadata"]["huge"], int)


# Processing


async def test_process_next_on_an_empty_queue(store: Store) -> None:
    calls: list[Submission] = []

    async def handler(tx: ProcessingTx, submission: Submission) -> Applied:
        calls.append(submission)
        return Applied()

    assert await store.process_next(handler, T0) is None
    assert calls == []


async def test_process_next_applies_the_oldest_and_marks_it_processed(store: Store) -> None:
    agent_id = await make_agent(store)
    late = new_submission(agent_id, {"work_type": "split", "results": [{"text": "late"}]})
    early = new_submission(agent_id, {"work_type": "split", "results": [{"text": "early"}, {"text": "e2"}]})
    same_time = new_submission(agent_id, {"work_type": "split", "results": [{"text": "same"}]})
    await store.accept_submission(late, uid(), "f", RATE, T0 + 5)
    await store.accept_submission(early, uid(), "f", RATE, T0 + 1)
    await store.accept_submission(same_time, uid(), "f", RATE, T0 + 5)

    taken = await store.process_next(split_claims, T0 + 10)
    assert taken is not None
    assert taken.submission_id == early.submission_id
    assert (taken.status, taken.processed_at, taken.payload) == ("accepted", None, early.payload)
    done = await store.get_submission(early.submission_id)
    assert done is not None and (done.status, done.reason, done.processed_at) == ("processed", None, T0 + 10)
    claims = await store.pending_claims("evidence_seeker", 10)
    assert [c.text for c in claims] == ["early", "e2"]
    artifacts = await store.artifacts(claims[0].claim_id, None)
    assert len(artifacts) == 1
    a = artifacts[0]
    assert (a.claim_id, a.role_id, a.agent_id, a.submission_id, a.work_type, a.content, a.created_at) == (
        claims[0].claim_id,
        "claim_splitter",
        agent_id,
        early.submission_id,
        "split",
        {"text": "early"},
        T0 + 2,
    )
    order = [(await store.process_next(split_claims, T0 + 11)) for _ in range(3)]
    assert [s.submission_id if s else None for s in order] == [
        late.submission_id,
        same_time.submission_id,
        None,
    ]


async def test_a_rejected_handler_leaves_no_writes_but_the_rejection(store: Store) -> None:
    agent_id = await make_agent(store)
    new = new_submission(agent_id)
    await store.accept_submission(new, uid(), "f", RATE, T0)
    seen: dict[str, Any] = {}

    async def reject(tx: ProcessingTx, submission: Submission) -> Applied:
        claim_id = await tx.insert_claim("doomed", T0 + 1)
        await tx.insert_artifact(claim_id, submission, {"text": "doomed"}, T0 + 1)
        await tx.set_claim_status(claim_id, "ready_for_verdict", T0 + 1)
        seen["claim_id"] = claim_id
        seen["status"] = await tx.claim_status(claim_id)
        return Applied(rejected_reason="results[0]: claim 99 does not exist")

    taken = await store.process_next(reject, T0 + 3)
    assert taken is not None and taken.submission_id == new.submission_id
    assert seen["status"] == "ready_for_verdict"
    after = await store.get_submission(new.submission_id)
    assert after is not None
    assert (after.status, after.reason, after.processed_at) == (
        "rejected",
        "results[0]: claim 99 does not exist",
        T0 + 3,
    )
    assert await store.get_claim(seen["claim_id"]) is None
    assert await store.artifacts(seen["claim_id"], None) == []
    assert await store.ready_claims(10) == []
    assert await store.process_next(reject, T0 + 4) is None


async def test_a_failing_handler_rolls_everything_back(store: Store) -> None:
    agent_id = await make_agent(store)
    new = new_submission(agent_id)
    await store.accept_submission(new, uid(), "f", RATE, T0)

    async def explode(tx: ProcessingTx, submission: Submission) -> Applied:
        await tx.insert_claim("half-done", T0)
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        await store.process_next(explode, T0 + 1)
    still = await store.get_submission(new.submission_id)
    assert still is not None and (still.status, still.processed_at) == ("accepted", None)
    assert await store.pending_claims("evidence_seeker", 10) == []
    # The store is usable afterwards and the submission is taken again.
    taken = await store.process_next(split_claims, T0 + 2)
    assert taken is not None and taken.submission_id == new.submission_id
    assert len(await store.pending_claims("evidence_seeker", 10)) == 1


async def test_the_transaction_sees_its_own_writes(store: Store) -> None:
    _, seeker, critic, claim = await three_agents_and_a_claim(store)
    for agent_id, role in [(seeker, "evidence_seeker"), (critic, "methodology_critic")]:
        payload = {"work_type": "review", "results": [{"claim_id": claim.claim_id, "n": role}]}
        await store.accept_submission(new_submission(agent_id, payload, role_id=role), uid(), "f", RATE, T0 + 2)
    observed: list[tuple[set[str], set[str], Any]] = []

    async def review(tx: ProcessingTx, submission: Submission) -> Applied:
        for item in submission.payload["results"]:
            before = await tx.artifact_roles(item["claim_id"])
            await tx.insert_artifact(item["claim_id"], submission, item, T0 + 3)
            roles = await tx.artifact_roles(item["claim_id"])
            if {"evidence_seeker", "methodology_critic"} <= roles:
                await tx.set_claim_status(item["claim_id"], "ready_for_verdict", T0 + 3)
            observed.append((before, roles, await tx.claim_status(item["claim_id"])))
        return Applied()

    assert await store.process_next(review, T0 + 3) is not None
    assert await store.pending_claims("evidence_seeker", 10) == []
    assert [c.claim_id for c in await store.pending_claims("methodology_critic", 10)] == [claim.claim_id]
    assert await store.process_next(review, T0 + 4) is not None
    assert observed == [
        ({"claim_splitter"}, {"claim_splitter", "evidence_seeker"}, "pending_evidence"),
        (
            {"claim_splitter", "evidence_seeker"},
            {"claim_splitter", "evidence_seeker", "methodology_critic"},
            "ready_for_verdict",
        ),
    ]
    assert await store.pending_claims("methodology_critic", 10) == []
    ready = await store.ready_claims(10)
    assert [(c.claim_id, c.status) for c in ready] == [(claim.claim_id, "ready_for_verdict")]
    got = await store.get_claim(claim.claim_id)
    assert got is not None and got.status == "ready_for_verdict" and got.created_at == T0 + 1


async def test_applied_rows_keep_every_character_and_number_exactly(store: Store) -> None:
    """What a batch writes (claim text, artifact content, times) comes back unchanged, whatever it holds."""
    agent_id = await make_agent(store)
    odd = 'quote " backslash \\ slash / newline \n tab \t \u0001 \u2028 \U0001f600 \u200f ادعاء {"k": [1]}'
    content = {"text": odd, "nested": {"list": [odd, 1.25, -(2**63), None, True]}, odd: odd}
    await store.accept_submission(new_submission(agent_id), uid(), "f", RATE, T0)
    at = T0 + 0.123456789012

    async def write(tx: ProcessingTx, submission: Submission) -> Applied:
        claim_id = await tx.insert_claim(odd, at)
        await tx.insert_artifact(claim_id, submission, content, at)
        return Applied()

    assert await store.process_next(write, at) is not None
    (claim,) = await store.pending_claims("evidence_seeker", 10)
    assert (claim.text, claim.created_at) == (odd, at)
    (artifact,) = await store.artifacts(claim.claim_id, None)
    assert (artifact.content, artifact.created_at) == (content, at)


async def test_the_transaction_cannot_be_used_after_the_handler(store: Store) -> None:
    agent_id = await make_agent(store)
    await store.accept_submission(new_submission(agent_id), uid(), "f", RATE, T0)
    kept: list[ProcessingTx] = []

    async def keep(tx: ProcessingTx, submission: Submission) -> Applied:
        kept.append(tx)
        return Applied()

    await store.process_next(keep, T0)
    with pytest.raises(RuntimeError):
        await kept[0].insert_claim("late", T0)


async def test_claim_status_of_unknown_claims(store: Store) -> None:
    agent_id = await make_agent(store)
    await store.accept_submission(new_submission(agent_id), uid(), "f", RATE, T0)
    seen: list[Any] = []

    async def look(tx: ProcessingTx, submission: Submission) -> Applied:
        seen.extend([await tx.claim_status(12345), await tx.claim_status(2**80), await tx.artifact_roles(2**80)])
        return Applied()

    await store.process_next(look, T0)
    assert seen == [None, None, set()]


async def test_each_submission_is_applied_once_by_concurrent_processors(factory: Factory) -> None:
    one, two = await factory(), await factory()
    agent_id = await make_agent(one)
    news = [new_submission(agent_id, {"work_type": "split", "results": [{"text": f"c{i}"}]}) for i in range(20)]
    for i, n in enumerate(news):
        await one.accept_submission(n, uid(), "f", RATE, T0 + i)
    applied: list[tuple[str, str]] = []

    def handler_for(name: str) -> Callable[[ProcessingTx, Submission], Awaitable[Applied]]:
        async def handler(tx: ProcessingTx, submission: Submission) -> Applied:
            applied.append((name, submission.submission_id))
            await asyncio.sleep(0.001)
            return await split_claims(tx, submission)

        return handler

    async def worker(store: Store, name: str) -> int:
        count = 0
        while await store.process_next(handler_for(name), T0 + 100) is not None:
            count += 1
        return count

    counts = await asyncio.gather(worker(one, "one"), worker(one, "one-b"), worker(two, "two"))
    assert sum(counts) == 20
    ids = [submission_id for _, submission_id in applied]
    assert sorted(ids) == sorted(n.submission_id for n in news)
    for n in news:
        s = await two.get_submission(n.submission_id)
        assert s is not None and s.status == "processed"
    claims = await one.pending_claims("evidence_seeker", 500)
    assert sorted(c.text for c in claims) == sorted(f"c{i}" for i in range(20))


async def test_accepting_while_processing_does_not_interleave(store: Store) -> None:
    agent_id = await make_agent(store)
    await store.accept_submission(new_submission(agent_id), uid(), "f", RATE, T0)
    accepted_during: list[Any] = []

    async def slow(tx: ProcessingTx, submission: Submission) -> Applied:
        task = asyncio.ensure_future(store.accept_submission(new_submission(agent_id), uid(), "f", RATE, T0))
        await asyncio.sleep(0.01)
        await tx.insert_claim("during", T0)
        accepted_during.append(task)
        return Applied(rejected_reason="no")

    await store.process_next(slow, T0 + 1)
    assert isinstance(await accepted_during[0], Accepted)
    assert await store.pending_claims("x", 10) == []  # the rejected handler's claim is gone
    taken = await store.process_next(split_claims, T0 + 2)
    assert taken is not None


# Queues and artifacts


async def make_claims(store: Store, texts_at: list[tuple[str, float]]) -> list[int]:
    agent_id = await make_agent(store)
    ids: list[int] = []

    async def create(tx: ProcessingTx, submission: Submission) -> Applied:
        for text, at in texts_at:
            ids.append(await tx.insert_claim(text, at))
        return Applied()

    await store.accept_submission(new_submission(agent_id), uid(), "f", RATE, T0)
    await store.process_next(create, T0)
    return ids


async def test_queues_list_oldest_first_and_honour_the_limit(store: Store) -> None:
    ids = await make_claims(store, [("c", T0 + 3), ("a", T0 + 1), ("b1", T0 + 2), ("b2", T0 + 2)])
    pending = await store.pending_claims("evidence_seeker", 50)
    assert [c.text for c in pending] == ["a", "b1", "b2", "c"]
    assert [c.text for c in await store.pending_claims("evidence_seeker", 2)] == ["a", "b1"]
    assert all(c.status == "pending_evidence" for c in pending)
    assert await store.ready_claims(50) == []
    assert await store.existing_claims(set(ids) | {ids[-1] + 100, -1, 0, 2**64, -(2**70)}) == set(ids)
    assert await store.existing_claims(set()) == set()
    assert await store.get_claim(2**70) is None
    assert await store.artifacts(2**70, None) == []

    agent_id = await make_agent(store, "evidence_seeker")
    payload = {"work_type": "r", "results": [{"claim_id": ids[1]}]}

    async def advance(tx: ProcessingTx, submission: Submission) -> Applied:
        await tx.insert_artifact(ids[1], submission, {"claim_id": ids[1]}, T0 + 5)
        await tx.set_claim_status(ids[0], "ready_for_verdict", T0 + 5)
        await tx.set_claim_status(ids[3], "ready_for_verdict", T0 + 5)
        await tx.set_claim_status(ids[2], "verdict_issued", T0 + 5)
        return Applied()

    await store.accept_submission(new_submission(agent_id, payload, role_id="evidence_seeker"), uid(), "f", RATE, T0)
    await store.process_next(advance, T0 + 5)
    assert [c.text for c in await store.pending_claims("evidence_seeker", 50)] == []
    assert [c.text for c in await store.pending_claims("methodology_critic", 50)] == ["a"]
    assert [c.text for c in await store.ready_claims(50)] == ["b2", "c"]
    assert [c.text for c in await store.ready_claims(1)] == ["b2"]
    verdict = await store.get_claim(ids[2])
    assert verdict is not None and verdict.status == "verdict_issued"


async def test_artifacts_filter_by_role_oldest_first(store: Store) -> None:
    (claim_id,) = await make_claims(store, [("c", T0)])
    for role, at in [("judge", T0 + 3), ("evidence_seeker", T0 + 2), ("evidence_seeker", T0 + 1)]:
        agent_id = await make_agent(store, role)
        new = new_submission(agent_id, {"work_type": role, "results": [{"claim_id": claim_id}]}, role_id=role)
        await store.accept_submission(new, uid(), "f", RATE, T0)

        async def add(tx: ProcessingTx, submission: Submission, at: float = at) -> Applied:
            await tx.insert_artifact(claim_id, submission, {"claim_id": claim_id, "at": at}, at)
            return Applied()

        await store.process_next(add, at)
    everything = await store.artifacts(claim_id, None)
    assert [(a.role_id, a.created_at) for a in everything] == [
        ("evidence_seeker", T0 + 1),
        ("evidence_seeker", T0 + 2),
        ("judge", T0 + 3),
    ]
    assert [a.content["at"] for a in await store.artifacts(claim_id, "evidence_seeker")] == [T0 + 1, T0 + 2]
    assert [a.role_id for a in await store.artifacts(claim_id, "judge")] == ["judge"]
    assert await store.artifacts(claim_id, "methodology_critic") == []
    assert len({a.artifact_id for a in everything}) == 3


# Pruning


async def test_prune_drops_only_what_has_expired(store: Store) -> None:
    agent_id = await make_agent(store)
    old_key, new_key = uid(), uid()
    old, new = new_submission(agent_id), new_submission(agent_id)
    await store.accept_submission(old, old_key, "f", RATE, T0)
    await store.accept_submission(new, new_key, "f", RATE, T0 + 100)
    await store.revoke_token("gone", T0 + 50)
    await store.revoke_token("kept", T0 + 500)
    rate = RateLimit(limit=5, window_s=60)
    await store.hit_rate("ended", rate, T0 + 10)  # window [T0, T0+60)
    await store.hit_rate("current", RateLimit(limit=5, window_s=3600), T0 + 10)

    await store.prune(T0 + 150, idempotency_ttl_s=100)

    assert (await store.auth_state(agent_id, "gone"))[1] is False
    assert (await store.auth_state(agent_id, "kept"))[1] is True
    # The ended window is gone: looking back at it shows no count; the current one is kept.
    assert (await store.peek_rate("ended", rate, T0 + 10)).remaining == 5
    assert (await store.peek_rate("current", RateLimit(limit=5, window_s=3600), T0 + 150)).remaining == 4
    # The old idempotency record is gone (the key is new again); the recent one still replays.
    again = new_submission(agent_id)
    assert isinstance(await store.accept_submission(again, old_key, "other", RATE, T0 + 150), Accepted)
    assert await store.accept_submission(again, new_key, "f", RATE, T0 + 150) == Replayed(202, new.response_body)
    # Submissions themselves are kept.
    assert await store.get_submission(old.submission_id) is not None


async def test_methods_refuse_to_work_on_a_closed_store(factory: Factory) -> None:
    store = await factory()
    await store.close()
    with pytest.raises(RuntimeError):
        await store.create_agent("a", "A", "judge", "h", "p", T0)
    await store.open()
    await store.create_agent("a", "A", "judge", "h", "p", T0)
    assert await store.get_agent("a") is not None


# Batches: concurrent accepts share one transaction, the processor applies many submissions in one


async def test_one_batch_of_accepts_gives_each_request_its_own_answer(store: Store) -> None:
    """Concurrent accepts are written together (group commit); each still gets exactly the answer it would get
    alone: new keys accepted up to the rate limit then refused, a stored key replayed or refused for another
    body, the same new key twice stored once, and a refused request leaves its key free."""
    agent_id, other = await make_agent(store), await make_agent(store)
    rate = RateLimit(limit=4, window_s=60)
    stored_key = uid()
    first = new_submission(agent_id)
    assert isinstance(await store.accept_submission(first, stored_key, "fp-first", rate, T0), Accepted)
    twice_key = uid()
    calls = [
        (new_submission(agent_id), stored_key, "fp-first"),  # replay
        (new_submission(agent_id), stored_key, "fp-changed"),  # the key used for another request
        (new_submission(agent_id), twice_key, "fp-twice"),  # the same new key twice
        (new_submission(agent_id), twice_key, "fp-twice"),
        *((new_submission(agent_id), uid(), f"fp-{i}") for i in range(4)),  # 1 + 4 new keys for 3 units left
        (new_submission(other), stored_key, "fp-other"),  # another agent: keys are per agent
    ]
    outcomes = await asyncio.gather(*(store.accept_submission(n, k, f, rate, T0 + 1) for n, k, f in calls))
    assert outcomes[0] == Replayed(202, first.response_body)
    assert outcomes[1] == KeyReused()
    # The same new key twice: one is stored and the other replays it, unless the key lost to the rate limit,
    # when both are refused (the second is then a new request, over the limit as well).
    twice = outcomes[2:4]
    if any(isinstance(o, Accepted) for o in twice):
        winner = 2 if isinstance(twice[0], Accepted) else 3
        assert outcomes[5 - winner] == Replayed(202, calls[winner][0].response_body)
        fresh = [outcomes[winner], *outcomes[4:8]]
    else:
        assert all(isinstance(o, RateLimited) for o in twice)
        fresh = [twice[0], *outcomes[4:8]]
    assert isinstance(outcomes[-1], Accepted) and outcomes[-1].rate.remaining == 3
    accepted = [o for o in fresh if isinstance(o, Accepted)]
    refused = [o for o in fresh if isinstance(o, RateLimited)]
    assert len(accepted) == 3 and len(refused) == 2
    assert sorted(o.rate.remaining for o in accepted) == [0, 1, 2]
    assert all(not o.rate.allowed and o.rate.remaining == 0 for o in refused)
    # Exactly the accepted ones are stored; refusals cost no unit.
    for (new, _, _), outcome in zip(calls, outcomes, strict=True):
        assert (await store.get_submission(new.submission_id) is not None) == isinstance(outcome, Accepted)
    assert (await store.peek_rate(f"submit:{agent_id}", rate, T0 + 1)).remaining == 0
    # A refused key was not kept: in the next window it is accepted.
    refused_call = next(c for c, o in zip(calls, outcomes, strict=True) if isinstance(o, RateLimited))
    again = await store.accept_submission(refused_call[0], refused_call[1], refused_call[2], rate, T0 + 61)
    assert isinstance(again, Accepted)


async def test_a_batch_of_new_keys_over_the_limit_keeps_exactly_the_ones_within_it(store: Store) -> None:
    """Every key of the batch new (PostgreSQL's usual case since migration 5, where the claimed elements are not
    joined back to the keys): the rate numbers still go to the right requests and the refused keys are freed."""
    agent_id = await make_agent(store)
    rate = RateLimit(limit=3, window_s=60)
    calls = [(new_submission(agent_id), uid()) for _ in range(5)]
    outcomes = await asyncio.gather(*(store.accept_submission(n, k, "fp", rate, T0) for n, k in calls))
    accepted = [o for o in outcomes if isinstance(o, Accepted)]
    assert sorted(o.rate.remaining for o in accepted) == [0, 1, 2]
    assert sum(isinstance(o, RateLimited) for o in outcomes) == 2
    for (new, _), outcome in zip(calls, outcomes, strict=True):
        assert (await store.get_submission(new.submission_id) is not None) == isinstance(outcome, Accepted)
    for (new, key), outcome in zip(calls, outcomes, strict=True):
        again = await store.accept_submission(new, key, "fp", rate, T0 + 61)
        assert isinstance(again, Replayed if isinstance(outcome, Accepted) else Accepted)


async def test_many_concurrent_accepts_are_all_stored_once(factory: Factory) -> None:
    one, two = await factory(), await factory()
    agent_id = await make_agent(one)
    news = [new_submission(agent_id) for _ in range(300)]
    keys = [uid() for _ in news]
    outcomes = await asyncio.gather(
        *(
            (one if i % 3 else two).accept_submission(n, k, "fp", RATE_HIGH, T0)
            for i, (n, k) in enumerate(zip(news, keys, strict=True))
        )
    )
    assert all(isinstance(o, Accepted) for o in outcomes)
    assert sorted(o.rate.remaining for o in outcomes) == list(range(RATE_HIGH.limit - 300, RATE_HIGH.limit))  # type: ignore[union-attr]
    for new in news:
        stored = await one.get_submission(new.submission_id)
        assert stored is not None and stored.status == "accepted"
    replays = await asyncio.gather(
        *(two.accept_submission(n, k, "fp", RATE_HIGH, T0 + 1) for n, k in zip(news, keys, strict=True))
    )
    assert replays == [Replayed(202, n.response_body) for n in news]


RATE_HIGH = RateLimit(limit=10_000, window_s=60)


async def test_process_batch_applies_in_order_each_seeing_the_earlier_ones(store: Store) -> None:
    splitter, seeker, critic, claim = await three_agents_and_a_claim(store)
    news = [
        new_submission(splitter, {"work_type": "split", "results": [{"text": "a"}, {"text": "b"}]}),
        new_submission(
            seeker, {"work_type": "r", "results": [{"claim_id": claim.claim_id}]}, role_id="evidence_seeker"
        ),
        new_submission(seeker, {"work_type": "r", "results": [{"claim_id": 10**12}]}, role_id="evidence_seeker"),
        new_submission(
            critic, {"work_type": "r", "results": [{"claim_id": claim.claim_id}]}, role_id="methodology_critic"
        ),
        new_submission(splitter, {"work_type": "split", "results": [{"text": "c"}]}),
    ]
    for i, new in enumerate(news):
        await store.accept_submission(new, uid(), "f", RATE, T0 + 2 + i)

    async def apply(tx: ProcessingTx, submission: Submission) -> Applied:
        if submission.role_id == "claim_splitter":
            return await split_claims(tx, submission)
        for item in submission.payload["results"]:
            status = await tx.claim_status(item["claim_id"])
            if status is None:
                return Applied(rejected_reason=f"claim {item['claim_id']} does not exist")
            await tx.insert_artifact(item["claim_id"], submission, item, T0 + 9)
            if {"evidence_seeker", "methodology_critic"} <= await tx.artifact_roles(item["claim_id"]):
                await tx.set_claim_status(item["claim_id"], "ready_for_verdict", T0 + 9)
        return Applied()

    taken = await store.process_batch(apply, T0 + 10, 10)
    assert [s.submission_id for s in taken] == [n.submission_id for n in news]
    statuses = [(await store.get_submission(n.submission_id)) for n in news]
    assert [(s.status, s.processed_at) for s in statuses if s] == [
        ("processed", T0 + 10),
        ("processed", T0 + 10),
        ("rejected", T0 + 10),
        ("processed", T0 + 10),
        ("processed", T0 + 10),
    ]
    # The seeker's artifact and the critic's, applied in one batch, moved the claim on together.
    got = await store.get_claim(claim.claim_id)
    assert got is not None and got.status == "ready_for_verdict"
    assert {a.role_id for a in await store.artifacts(claim.claim_id, None)} == {
        "claim_splitter",
        "evidence_seeker",
        "methodology_critic",
    }
    # New claims in order, with increasing ids, each with its artifact.
    pending = await store.pending_claims("evidence_seeker", 10)
    assert [c.text for c in pending] == ["a", "b", "c"]
    assert [c.claim_id for c in pending] == sorted(c.claim_id for c in pending)
    for c in pending:
        (artifact,) = await store.artifacts(c.claim_id, None)
        assert artifact.content == {"text": c.text}
    assert await store.process_batch(apply, T0 + 11, 10) == []


async def test_a_batch_hands_its_handler_the_submissions_as_stored(store: Store) -> None:
    # The processor reads only the columns a queued submission needs (status, reason and processed_at are known
    # for those): what its handler gets must equal the submission as stored, field by field.
    splitter, seeker, _critic, claim = await three_agents_and_a_claim(store)
    news = [
        new_submission(splitter, {"work_type": "split", "results": [{"text": "a", "n": 12345678901234567890123}]}),
        new_submission(
            seeker,
            {"work_type": "r", "results": [{"claim_id": claim.claim_id}], "metadata": {"k": "v"}},
            role_id="evidence_seeker",
        ),
    ]
    for i, new in enumerate(news):
        await store.accept_submission(new, uid(), "f", RATE, T0 + 2 + i)
    stored = [await store.get_submission(n.submission_id) for n in news]
    seen: list[Submission] = []

    async def record(_tx: ProcessingTx, submission: Submission) -> Applied:
        seen.append(submission)
        return Applied()

    assert len(await store.process_batch(record, T0 + 10, 10)) == 2
    assert seen == stored
    assert [s.payload for s in seen] == [n.payload for n in news]


async def test_a_failing_handler_rolls_the_whole_batch_back(store: Store) -> None:
    agent_id = await make_agent(store)
    news = [new_submission(agent_id) for _ in range(3)]
    for i, new in enumerate(news):
        await store.accept_submission(new, uid(), "f", RATE, T0 + i)

    async def explode_on_the_second(tx: ProcessingTx, submission: Submission) -> Applied:
        if submission.submission_id == news[1].submission_id:
            raise RuntimeError("boom")
        return await split_claims(tx, submission)

    with pytest.raises(RuntimeError, match="boom"):
        await store.process_batch(explode_on_the_second, T0 + 5, 10)
    for new in news:
        still = await store.get_submission(new.submission_id)
        assert still is not None and still.status == "accepted"
    assert await store.pending_claims("evidence_seeker", 10) == []
    assert len(await store.process_batch(split_claims, T0 + 6, 2)) == 2  # the limit holds
    assert len(await store.process_batch(split_claims, T0 + 7, 10)) == 1
    assert len(await store.pending_claims("evidence_seeker", 10)) == 3


async def test_two_instances_processing_in_batches_apply_each_submission_once(factory: Factory) -> None:
    one, two = await factory(), await factory()
    agent_id = await make_agent(one)
    news = [new_submission(agent_id) for _ in range(120)]
    await asyncio.gather(*(one.accept_submission(n, uid(), "f", RATE_HIGH, T0) for n in news))
    applied: list[str] = []

    async def record(tx: ProcessingTx, submission: Submission) -> Applied:
        applied.append(submission.submission_id)
        return await split_claims(tx, submission)

    async def drain(store: Store) -> None:
        while await store.process_batch(record, T0 + 1, 16):
            pass

    await asyncio.gather(drain(one), drain(two))
    assert sorted(applied) == sorted(n.submission_id for n in news)
    assert len(await one.pending_claims("evidence_seeker", 500)) == 120


# The claim life cycle across processes: batches that touch the same claims are applied one after the other.

RACE_CLAIMS = BATCH_SIZE  # one processor batch of each role
RACE_RATE = RateLimit(limit=1000, window_s=3600)


async def queue_claim_work(store: Store, roles: list[str], claim_ids: list[int], at: float) -> None:
    """One single-item submission per (role, claim), all of a role's before the next role's: two processors
    then take one role's batch each. Every other role goes through the claims in reverse order, so batches that
    locked claims in the order their submissions name them would deadlock."""
    for n, role in enumerate(roles):
        agent_id = await make_agent(store, role)
        for claim_id in claim_ids if n % 2 == 0 else claim_ids[::-1]:
            payload = {"work_type": role, "results": [{"claim_id": claim_id}]}
            new = new_submission(agent_id, payload, role_id=role)
            assert isinstance(await store.accept_submission(new, uid(), "f", RACE_RATE, at), Accepted)


async def test_evidence_and_critique_applied_by_two_processes_make_every_claim_ready(factory: Factory) -> None:
    """An evidence_seeker batch and a methodology_critic batch for the same claims, applied at the same time by
    two processors on two stores (two processes' connections): whichever commits second must see the first's
    artifacts, so every claim ends ready_for_verdict. Without the claim rows locked, each transaction read the
    other's artifacts as absent and the claims stayed pending_evidence."""
    one, two = await factory(), await factory()
    claim_ids = await make_claims(one, [(f"c{i}", T0) for i in range(RACE_CLAIMS)])
    await queue_claim_work(one, ["evidence_seeker", "methodology_critic"], claim_ids, T0 + 1)

    processors = [Processor(store, 0.05, 86_400, clock=lambda: T0 + 2) for store in (one, two)]
    taken = await asyncio.gather(*(p.drain() for p in processors))
    assert sum(taken) == 2 * RACE_CLAIMS
    if isinstance(one, PostgresStore):  # SQLite serialises whole batches: one processor may take everything
        assert all(taken), taken  # both took a batch: they ran at the same time
    ready = {c.claim_id for c in await two.ready_claims(500)}
    stuck = sorted(set(claim_ids) - ready)
    assert not stuck, f"{len(stuck)} of {RACE_CLAIMS} claims stayed pending_evidence"
    assert await one.pending_claims("evidence_seeker", 500) == []
    assert await one.pending_claims("methodology_critic", 500) == []


async def test_two_judges_applied_by_two_processes_give_each_claim_one_verdict(factory: Factory) -> None:
    """Two judges' submissions for the same ready claims, applied at the same time by two processors: the first
    to commit issues the verdict, the other sees the claim verdict_issued and is rejected, as it would be one
    after the other."""
    one, two = await factory(), await factory()
    claim_ids = await make_claims(one, [(f"c{i}", T0) for i in range(RACE_CLAIMS)])
    await queue_claim_work(one, ["evidence_seeker", "methodology_critic"], claim_ids, T0 + 1)
    assert await Processor(one, 0.05, 86_400, clock=lambda: T0 + 2).drain() == 2 * RACE_CLAIMS
    judges = []
    for _ in range(2):
        agent_id = await make_agent(one, "judge")
        judges.append(agent_id)
        for claim_id in claim_ids:
            payload = {"work_type": "verdict", "results": [{"claim_id": claim_id, "verdict": "false"}]}
            new = new_submission(agent_id, payload, role_id="judge")
            assert isinstance(await one.accept_submission(new, uid(), "f", RACE_RATE, T0 + 3), Accepted)

    processors = [Processor(store, 0.05, 86_400, clock=lambda: T0 + 4) for store in (one, two)]
    taken = await asyncio.gather(*(p.drain() for p in processors))
    assert sum(taken) == 2 * RACE_CLAIMS
    if isinstance(one, PostgresStore):
        assert all(taken), taken
    doubled = [claim_id for claim_id in claim_ids if len(await one.artifacts(claim_id, "judge")) != 1]
    assert not doubled, f"{len(doubled)} of {RACE_CLAIMS} claims got two verdicts"
    for claim_id in claim_ids:
        claim = await two.get_claim(claim_id)
        assert claim is not None and claim.status == "verdict_issued"
