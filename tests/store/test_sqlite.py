"""The SQLite candidate store on its own: two-phase writes, profiles, old schemas."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from talentrag.domain import DocumentRecord, DocumentType, Evidence, HeldSkill, MatchKind
from talentrag.store import RowStatus, SQLiteCandidateStore


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


async def test_pending_rows_are_invisible_until_finished(tmp_path: Path):
    store = SQLiteCandidateStore(tmp_path / "db.sqlite3")
    await store.open()
    await store.stage(
        "t", [(_record("a"), "text a"), (_record("jd", DocumentType.JOB_DESCRIPTION), "jd text")]
    )
    assert await store.get("t", "a") is None and await store.profiles("t", ["a"]) == {}
    assert [w.status for w in await store.unfinished("t")] == [RowStatus.PENDING, RowStatus.PENDING]
    await store.finish("t", ["a", "jd"])
    profile = (await store.profiles("t", ["a", "jd"]))["a"]
    assert profile.level == "mid" and profile.skills["Python"].mentions == 3
    assert set(await store.profiles("t", ["a", "jd"])) == {
        "a"
    }  # job descriptions are never candidates
    assert await store.get("other-tenant", "a") is None
    await store.close()


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


async def test_profiles_restricted_to_skills_keep_every_active_candidate(tmp_path: Path):
    store = SQLiteCandidateStore(tmp_path / "db.sqlite3")
    await store.open()
    go = _record("b").model_copy(update={"skills": []})
    await store.stage("t", [(_record("a"), "a"), (go, "b"), (_record("pending"), "p")])
    await store.finish("t", ["a", "b"])
    ids = ["a", "b", "pending", "missing"]
    assert (await store.profiles("t", ids, {"Rust"})).keys() == {"a", "b"}
    scoped = await store.profiles("t", ids, {"Python", "Rust"})
    assert scoped["a"].skills.keys() == {"Python"} and scoped["b"].skills == {}
    assert scoped["a"] == (await store.profiles("t", ["a"]))["a"]
    assert (await store.profiles("t", ["b"], {"Python"}))["b"].skills == {}
    await store.close()


async def test_analysis_stamps_and_given_names_follow_the_version_they_belong_to(tmp_path: Path):
    store = SQLiteCandidateStore(tmp_path / "db.sqlite3")
    await store.open()
    await store.stage("t", [(_record("a"), "v1")], analysis="old", given_names={"a": "Ada (ATS)"})
    await store.finish("t", ["a"])
    assert (await store.versions("t", ["a"]))["a"].analysis == "old"

    # a replacement that fails is abandoned: the old stamp and given name come back with it
    await store.stage("t", [(_record("a"), "v2")], analysis="new")
    assert (await store.versions("t", ["a"]))["a"].analysis == "new"
    await store.abandon("t", ["a"])
    assert (await store.versions("t", ["a"]))["a"].analysis == "old"
    (stale,) = await store.stale_documents("t", "new", limit=10)
    assert (stale.record.id, stale.text, stale.given_name) == ("a", "v1", "Ada (ATS)")

    await store.stage("t", [(_record("a"), "v2")], analysis="new", given_names={"a": "Ada"})
    await store.finish("t", ["a"])
    assert await store.stale_documents("t", "new", limit=10) == []
    assert await store.stale_counts("new") == {}
    await store.close()


async def test_stale_documents_page_by_id_and_count_per_tenant(tmp_path: Path):
    store = SQLiteCandidateStore(tmp_path / "db.sqlite3")
    await store.open()
    ids = ["e", "b", "d", "a", "c"]
    await store.stage("t", [(_record(i), i) for i in ids], analysis="old")
    await store.stage("t", [(_record("f"), "f")], analysis="new")
    await store.stage("u", [(_record("a"), "a")])  # no stamp at all: stale too
    await store.finish("t", [*ids, "f"])
    await store.finish("u", ["a"])
    await store.stage("t", [(_record("g"), "g")], analysis="old")  # pending: not counted yet

    assert await store.stale_counts("new") == {"t": 5, "u": 1}
    first = await store.stale_documents("t", "new", limit=2)
    rest = await store.stale_documents("t", "new", limit=10, after_id=first[-1].record.id)
    assert [s.record.id for s in first + rest] == ["a", "b", "c", "d", "e"]
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
