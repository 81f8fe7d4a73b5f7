"""The SQLite store alone: stores made by earlier releases open, and readers never wait
for an open write (the backend-neutral behaviour is in test_contract.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from talentrag.domain import DocumentRecord, DocumentType, Evidence, HeldSkill, MatchKind
from talentrag.store import SQLiteCandidateStore


def _record(cid: str, document_type: DocumentType = DocumentType.CV) -> DocumentRecord:
    evidence = Evidence(text="Python and Go", source_file=f"{cid}.txt", start=0, end=13)
    skills = [
        HeldSkill(
            skill="Python",
            category="software",
            kind=MatchKind.EXACT,
            confidence=1.0,
            surface="Python",
            mentions=3,
            evidence=[evidence],
        )
    ]
    return DocumentRecord(
        id=cid,
        name=cid,
        source_file=f"{cid}.txt",
        content_hash="h",
        level="mid",
        document_type=document_type,
        skills=skills,
    )


async def test_a_store_from_before_the_mentions_column_opens(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE document_skills (tenant TEXT NOT NULL, id TEXT NOT NULL, skill TEXT NOT NULL, "
            "kind TEXT NOT NULL, confidence REAL NOT NULL, PRIMARY KEY (tenant, id, skill))"
        )
    store = SQLiteCandidateStore(path)
    await store.open()
    await store.stage("t", [(_record("a"), "text")])
    await store.finish("t", ["a"])
    assert (await store.profiles("t", ["a"]))["a"].skills["Python"].mentions == 3
    await store.close()


async def test_a_store_from_before_analysis_stamps_is_stale_and_keeps_given_names(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    store = SQLiteCandidateStore(path)
    await store.open()
    await store.stage("t", [(_record("sent"), "text"), (_record("read"), "text")])
    await store.finish("t", ["sent", "read"])
    await store.close()
    with sqlite3.connect(path) as db:  # the columns as a store of the previous release had them
        for column in ("analysis", "given_name", "previous_analysis", "previous_given_name"):
            db.execute("DROP INDEX IF EXISTS documents_analysis")
            db.execute(f"ALTER TABLE documents DROP COLUMN {column}")
        db.execute("UPDATE documents SET origin='/cvs/read.txt' WHERE id='read'")

    await store.open()
    assert await store.stale_counts("any") == {"t": 2}
    stale = {s.record.id: s.given_name for s in await store.stale_documents("t", "any", 10)}
    # a text sent by a caller may carry its name: kept; a file's name came from its text
    assert stale == {"read": None, "sent": "sent"}
    await store.close()


async def test_a_store_from_before_signatures_opens_and_has_no_groups(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as db:  # the documents table as it was before late columns
        db.execute(
            """CREATE TABLE documents (tenant TEXT NOT NULL, id TEXT NOT NULL,
               document_type TEXT NOT NULL, name TEXT NOT NULL, source_file TEXT NOT NULL,
               content_hash TEXT NOT NULL, level TEXT, years REAL, status TEXT NOT NULL,
               stale_chunk_ids TEXT NOT NULL DEFAULT '[]', record TEXT NOT NULL,
               text TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
               PRIMARY KEY (tenant, id))"""
        )
        db.execute(
            "INSERT INTO documents VALUES ('t','old','cv','Old','old.txt','h',NULL,NULL,"
            "'active','[]',?,'old text','2025-01-01T00:00:00+00:00','2025-01-01T00:00:00+00:00')",
            [_record("old").model_copy(update={"name": "Old"}).model_dump_json()],
        )
    store = SQLiteCandidateStore(path)
    await store.open()
    try:
        assert (await store.get("t", "old")).name == "Old"
        assert await store.duplicate_signatures("t") == []
        assert (
            await store.duplicate_groups("t") == []
            and await store.duplicates_of("t", ["old"]) == {}
        )
        assert set(await store.texts_containing("t", "old text", 10)) == {"old"}  # indexed now
        await store.stage("t", [(_record("new"), "new")], signatures={"new": b"n"})
        await store.finish("t", ["new"], {"new": "old", "old": "old"})
        assert await store.duplicate_groups("t") == [["old", "new"]]
    finally:
        await store.close()


async def test_searches_read_the_last_commit_without_waiting_for_an_open_write(tmp_path: Path):
    store = SQLiteCandidateStore(tmp_path / "db.sqlite3")
    await store.open()
    await store.stage("t", [(_record("a"), "text a")])
    await store.finish("t", ["a"])
    # a write in progress on the writing connection: inserted, not committed
    await store.db.execute("BEGIN IMMEDIATE")
    await store.db.execute("UPDATE documents SET name='changed' WHERE id='a'")
    try:
        found = await asyncio.wait_for(store.get_many("t", ["a"]), timeout=5)
        assert found["a"].name == "a"  # the last commit, not the open write
    finally:
        await store.db.rollback()
        await store.close()
