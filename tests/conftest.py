"""Shared fixtures: a PostgreSQL server for the store tests (never skipped: without one the tests fail).

`TAHQIQ_TEST_PG_URL` names a superuser URL (CI exports what `scripts/pg-test-setup` prints). Without it, the
local Debian cluster is started with that script (needs root). The session creates one database, migrates it,
and empties its tables before each test; the migration tests get empty databases of their own.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import tempfile
import uuid
from collections.abc import Coroutine, Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import pytest

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
SETUP = ROOT / "scripts" / "pg-test-setup"
HOW = (
    "The store tests need PostgreSQL. Export "
    "TAHQIQ_TEST_PG_URL=postgresql://USER:PASSWORD@HOST:PORT/postgres "
    "(a superuser: the tests create and drop databases), or run them as root on a machine with the Debian "
    "postgresql package so that scripts/pg-test-setup can start the local cluster."
)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    """Under pytest-xdist, a test marked ``alone`` runs while the other test processes run none
    (tests.support.alone); its fixtures' setup and teardown are inside the protocol too."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:  # one test process: every test runs alone
        yield
        return
    from tests.support.alone import machine_share

    with machine_share(Path(tempfile.gettempdir()), run, alone=item.get_closest_marker("alone") is not None):
        yield


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Runs `coro` on a loop of its own in another thread (the caller may be inside a running loop)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def with_database(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


async def _admin(url: str, *statements: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url, timeout=10)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


def _server_url() -> str:
    url = os.environ.get("TAHQIQ_TEST_PG_URL")
    problems: list[str] = []
    if not url:
        try:
            done = subprocess.run([str(SETUP)], capture_output=True, text=True, timeout=120, check=False)
        except OSError as exc:
            problems.append(f"{SETUP}: {exc}")
        else:
            if done.returncode == 0 and done.stdout.strip():
                url = done.stdout.strip().splitlines()[-1]
            else:
                problems.append(f"{SETUP} exited {done.returncode}: {done.stderr.strip()}")
    if url:
        try:
            run_sync(_admin(url, "SELECT 1"))
            return url
        except Exception as exc:
            problems.append(f"cannot connect to {urlsplit(url).hostname}:{urlsplit(url).port}: {exc!r}")
    pytest.fail(f"{HOW}\n" + "\n".join(problems), pytrace=False)


@pytest.fixture(scope="session")
def pg_server_url() -> str:
    """A superuser URL to the server's maintenance database."""
    return _server_url()


@pytest.fixture(scope="session")
def pg_database(pg_server_url: str) -> Iterator[str]:
    """A URL to a database holding the migrated schema, shared by the tests of the session (one at a time)."""
    from tahqiq.store.postgres import PostgresStore

    name = f"tahqiq_test_{uuid.uuid4().hex[:12]}"
    url = with_database(pg_server_url, name)

    async def build() -> None:
        await _admin(pg_server_url, f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'")
        store = PostgresStore(url, min_size=1, max_size=1)
        await store.open()
        try:
            await store.migrate()
        finally:
            await store.close()

    run_sync(build())
    yield url
    run_sync(_admin(pg_server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _empty_tables(url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=10)
    try:
        tables = await conn.fetch(
            "SELECT quote_ident(tablename) FROM pg_tables "
            "WHERE schemaname = 'public' AND tablename <> 'schema_migrations'"
        )
        async with conn.transaction():
            await conn.execute("SET LOCAL session_replication_role = replica")  # no foreign-key order to follow
            for (table,) in tables:
                await conn.execute(f"DELETE FROM {table}")
    finally:
        await conn.close()


@pytest.fixture
def pg_url(pg_database: str) -> str:
    """A URL to the migrated test database, emptied for this test.

    Emptying the tables (DELETE, ~6 ms) is 40 times faster than cloning a template database and dropping it
    afterwards (CREATE DATABASE … TEMPLATE ~90 ms, DROP ~170 ms on this machine); rows are deleted before the
    test, so whatever a failed test left behind cannot leak into the next one.
    """
    run_sync(_empty_tables(pg_database))
    return pg_database


@pytest.fixture
def pg_empty_url(pg_server_url: str) -> Iterator[str]:
    """A URL to an empty database of its own (no schema), dropped afterwards."""
    name = f"tahqiq_empty_{uuid.uuid4().hex[:12]}"
    run_sync(_admin(pg_server_url, f'CREATE DATABASE "{name}" TEMPLATE template0'))
    try:
        yield with_database(pg_server_url, name)
    finally:
        run_sync(_admin(pg_server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session", autouse=True)
def morphology_table() -> None:
    """Reads the compiled language data once before any test server starts: the wheel's copy, or (in an
    environment built without the build backend, such as ``maturin develop``) a copy built here once into
    CACHE_DIR, about 90 s, so that the servers under test wait for no build (tahqiq.analysis.compiled). Built by
    the servers instead, it starved the servers under test on two cores (an access test saw 1 queue poll where it
    needs 60)."""
    from tahqiq.analysis.morphology import Morphology
    from tahqiq.analysis.wsd import Disambiguator, SenseInventory

    from tests.support.server import CACHE_DIR

    morphology = Morphology(CACHE_DIR)
    morphology.load()
    inventory = SenseInventory(CACHE_DIR)
    inventory.load()
    Disambiguator(inventory, morphology).example_contexts()
