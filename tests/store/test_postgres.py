"""The PostgreSQL store alone: migrations, replicas opening one database together, reads
during an open write, and the ranking reads using their covering index."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from talentrag.domain import DocumentRecord, Evidence, HeldSkill, MatchKind
from talentrag.errors import ConfigurationError
from talentrag.store.pg_schema import MigrationError, apply_migrations, load_migrations
from talentrag.store.postgres import PostgresCandidateStore


def _record(cid: str, skills: tuple[str, ...] = ("Python",)) -> DocumentRecord:
    return DocumentRecord(
        id=cid,
        name=cid,
        source_file=f"{cid}.txt",
        content_hash=f"h-{cid}",
        level="mid",
        skills=[
            HeldSkill(
                skill=skill,
                category="software",
                kind=MatchKind.EXACT,
                confidence=1.0,
                surface=skill,
                mentions=1,
                evidence=[Evidence(text=skill, source_file=f"{cid}.txt", start=0, end=1)],
            )
            for skill in skills
        ],
    )


async def _ledger(url: str) -> list[tuple[int, str]]:
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch("SELECT version, name FROM schema_migrations ORDER BY 1")
        return [(row["version"], row["name"]) for row in rows]
    finally:
        await connection.close()


async def test_migrations_are_applied_once_and_a_second_open_applies_none(postgres_url: str):
    shipped = [(m.version, m.name) for m in load_migrations()]
    assert shipped[:2] == [(1, "candidate_store"), (2, "ingest_jobs")]
    store = PostgresCandidateStore(postgres_url)
    await store.open()
    await store.close()
    assert await _ledger(postgres_url) == shipped

    connection = await asyncpg.connect(postgres_url)
    try:
        assert await apply_migrations(connection) == []  # nothing left to do
    finally:
        await connection.close()
    reopened = PostgresCandidateStore(postgres_url)
    await reopened.open()
    await reopened.close()
    assert await _ledger(postgres_url) == shipped


async def test_replicas_opening_a_new_database_together_migrate_it_once(postgres_url: str):
    stores = [PostgresCandidateStore(postgres_url, max_connections=2) for _ in range(4)]
    await asyncio.gather(*(store.open() for store in stores))
    try:
        assert await _ledger(postgres_url) == [(m.version, m.name) for m in load_migrations()]
        await stores[0].stage("t", [(_record("a"), "text")])
        await stores[0].finish("t", ["a"])
        assert [(await s.get("t", "a")).id for s in stores[1:]] == ["a", "a", "a"]
    finally:
        await asyncio.gather(*(store.close() for store in stores))


async def test_an_edited_migration_or_a_newer_schema_stops_the_open(postgres_url: str):
    store = PostgresCandidateStore(postgres_url)
    await store.open()
    await store.close()
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute("UPDATE schema_migrations SET checksum = 'x' WHERE version = 1")
        with pytest.raises(MigrationError, match="never be edited"):
            await store.open()
        await connection.execute(
            "UPDATE schema_migrations SET checksum = $1 WHERE version = 1",
            load_migrations()[0].checksum,
        )
        await connection.execute(
            "INSERT INTO schema_migrations (version, name, checksum) VALUES (999, 'future', 'x')"
        )
        with pytest.raises(MigrationError, match="newer talentrag"):
            await store.open()
    finally:
        await connection.close()
    assert store._pool is None  # a failed open leaves no pool behind


@pytest.fixture
async def pg_store(postgres_url: str) -> AsyncIterator[PostgresCandidateStore]:
    """An opened PostgreSQL store on a fresh database, closed after the test."""
    opened = PostgresCandidateStore(postgres_url)
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


async def test_reads_see_the_last_commit_while_a_write_is_open(pg_store: PostgresCandidateStore):
    await pg_store.stage("t", [(_record("a"), "text a")])
    await pg_store.finish("t", ["a"])
    async with pg_store.pool.acquire() as writer, writer.transaction():
        await writer.execute("UPDATE documents SET name = 'changed' WHERE id = 'a'")
        found = await asyncio.wait_for(pg_store.get_many("t", ["a"]), timeout=5)
        assert found["a"].name == "a"


async def test_profiles_by_skill_read_only_the_covering_index(pg_store: PostgresCandidateStore):
    docs = [
        (_record(f"c{i:03}", ("Python", "Go") if i % 2 else ("Rust",)), "t") for i in range(300)
    ]
    await pg_store.stage("t", docs)
    await pg_store.finish("t", [record.id for record, _ in docs])
    async with pg_store.pool.acquire() as connection:
        await connection.execute("VACUUM ANALYZE document_skills")
        await connection.execute("SET enable_seqscan = off")  # a tiny table would be scanned
        plan = "\n".join(
            row[0]
            for row in await connection.fetch(
                "EXPLAIN SELECT s.id, s.skill, s.kind, s.confidence, s.mentions, s.strength, "
                "s.years, s.last_used FROM document_skills s "
                "WHERE s.tenant = 't' AND s.skill = ANY('{Go}') AND s.id = ANY('{c001,c003}')"
            )
        )
    assert "Index Only Scan using document_skills_ranking" in plan
    profiles = await pg_store.profiles("t", ["c001", "c002", "c003"], {"Go"})
    assert {i: set(p.skills) for i, p in profiles.items()} == {
        "c001": {"Go"},
        "c002": set(),
        "c003": {"Go"},
    }


async def test_a_huge_text_is_stored_and_its_words_found(pg_store: PostgresCandidateStore):
    text = "Kubernetes operator " + " ".join(f"word{i:07}" for i in range(200_000))
    await pg_store.stage("t", [(_record("big"), text)])
    await pg_store.finish("t", ["big"])
    assert set(await pg_store.texts_containing("t", "kubernetes operator", 5)) == {"big"}


@pytest.mark.parametrize(
    "url",
    ["postgresql://ada:s3cret@127.0.0.1:1/talentrag", "postgresql://ada:s3cret@db:port/x", "db"],
)
async def test_an_unreachable_database_is_a_configuration_error_without_the_password(url: str):
    with pytest.raises(ConfigurationError, match="cannot connect to the PostgreSQL store") as error:
        await PostgresCandidateStore(url).open()
    assert "s3cret" not in str(error.value)


async def test_full_text_search_reads_the_gin_index(pg_store: PostgresCandidateStore):
    docs = [(_record(f"c{i:03}"), f"Worked with tool{i} and Apache Kafka") for i in range(200)]
    await pg_store.stage("t", docs)
    await pg_store.finish("t", [record.id for record, _ in docs])
    async with pg_store.pool.acquire() as connection:
        await connection.execute("ANALYZE documents")
        plan = "\n".join(
            row[0]
            for row in await connection.fetch(
                "EXPLAIN SELECT id FROM documents WHERE words @@ 'tool7'::tsquery "
                "AND tenant = 't' AND status = 'active' AND document_type = 'cv'"
            )
        )
    assert "documents_words" in plan
    assert set(await pg_store.texts_containing("t", "Tool7", 10)) == {"c007"}
    assert len(await pg_store.texts_containing("t", "apache kafka", 500)) == 200
