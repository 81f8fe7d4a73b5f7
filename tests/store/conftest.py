"""Store fixtures: every backend-neutral store test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from talentrag.store import CandidateStore, SQLiteCandidateStore
from talentrag.store.postgres import PostgresCandidateStore
from tests.conftest import create_database, drop_database

StoreFactory = Callable[[], CandidateStore]


@pytest.fixture(params=["sqlite", "postgres"])
async def new_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[StoreFactory]:
    """Makes unopened stores over one fresh database of the backend (a second call gives a
    second store on the same data, as another process would have)."""
    if request.param == "sqlite":
        yield lambda: SQLiteCandidateStore(tmp_path / "db.sqlite3")
        return
    # looked up here, not declared: SQLite runs never start PostgreSQL
    server: str = request.getfixturevalue("postgres_server")
    url = await create_database(server)
    try:
        yield lambda: PostgresCandidateStore(url, max_connections=4)
    finally:
        await drop_database(server, url)


@pytest.fixture
async def store(new_store: StoreFactory) -> AsyncIterator[CandidateStore]:
    """An opened store on a fresh database, closed after the test."""
    opened = new_store()
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()
