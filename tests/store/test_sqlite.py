"""The SQLite candidate store on its own: two-phase writes, profiles, old schemas."""

from __future__ import annotations

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
