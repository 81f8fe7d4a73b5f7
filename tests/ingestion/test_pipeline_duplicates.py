"""One CV ingested several times becomes one duplicate group: the real pipeline, store and
embedded LightRAG."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from talentrag.domain import DocumentType
from talentrag.errors import WriteFailed
from talentrag.ingestion.analyze import analyze_document
from talentrag.ingestion.pipeline import Outcome, SourceDocument
from talentrag.runtime import KnowledgeBase
from talentrag.store import SQLiteCandidateStore
from tests.conftest import AS_OF
from tests.ingestion.test_write_failures import FailingWrites

CVS = Path(__file__).parent.parent / "fixtures" / "duplicates"
JORDAN = (CVS / "jordan-kim.txt").read_text()
JORDAN_REFORMATTED = (CVS / "JORDAN.TXT").read_text()
ANNA = (CVS / "europass-anna-nowak.txt").read_text()
UPLOADS = ["jordan-kim.txt", "JORDAN.TXT", "jordan kim (1).txt", "priya-raman.txt"]


@pytest.fixture
def uploads(tmp_path: Path) -> Path:
    folder = tmp_path / "uploads"
    folder.mkdir()
    for name in UPLOADS:
        shutil.copy(CVS / name, folder / name)
    return folder


async def _groups(kb: KnowledgeBase) -> list[list[str]]:
    return await kb.store.duplicate_groups("default")


async def _stored_groups(kb: KnowledgeBase) -> dict[str, str | None]:
    return {s.id: s.group for s in await kb.store.duplicate_signatures("default")}


def _source(text: str, document_id: str) -> SourceDocument:
    return SourceDocument(text, document_id, f"{document_id}.txt")


async def test_one_cv_uploaded_three_times_is_one_group(kb: KnowledgeBase, uploads: Path):
    results = await kb.ingestor.ingest_paths([uploads], "default")
    assert {r.document_id: r.outcome for r in results} == {
        "jordan": Outcome.INGESTED,
        "jordan-kim": Outcome.INGESTED,
        "jordan-kim-1": Outcome.INGESTED,
        "priya-raman": Outcome.INGESTED,  # the same bootcamp template, another person
    }
    # one batch, one second: the earliest is the first id
    assert await _groups(kb) == [["jordan", "jordan-kim", "jordan-kim-1"]]
    assert {r.document_id: r.duplicate_of for r in results} == {
        "jordan": None,
        "jordan-kim": "jordan",
        "jordan-kim-1": "jordan",
        "priya-raman": None,
    }
    assert await kb.store.duplicates_of("default", ["jordan-kim", "priya-raman"]) == {
        "jordan-kim": ["jordan", "jordan-kim-1"]
    }
    assert (await kb.store.summary("default")).duplicates == 2

    again = await kb.ingestor.ingest_paths([uploads], "default")  # unchanged: skipped
    assert {r.outcome for r in again} == {Outcome.SKIPPED}
    assert await _groups(kb) == [["jordan", "jordan-kim", "jordan-kim-1"]]


async def test_deleting_or_changing_members_regroups_the_rest(kb: KnowledgeBase, uploads: Path):
    await kb.ingestor.ingest_paths([uploads], "default")
    await kb.ingestor.delete("default", ["jordan"])  # the group's namesake
    assert await _groups(kb) == [["jordan-kim", "jordan-kim-1"]]
    stored = await _stored_groups(kb)
    assert stored["jordan-kim"] == stored["jordan-kim-1"] == "jordan-kim"

    changed = uploads / "jordan kim (1).txt"
    changed.write_text(ANNA)  # the file now holds someone else's CV
    (result,) = await kb.ingestor.ingest_paths([changed], "default")
    assert result.outcome is Outcome.UPDATED and result.duplicate_of is None
    assert await _groups(kb) == []
    assert (await _stored_groups(kb))["jordan-kim"] is None


async def test_a_failed_write_changes_no_group(kb: KnowledgeBase):
    await kb.ingestor.ingest_documents("default", [_source(JORDAN, "jordan-kim")])
    faults = FailingWrites(kb)
    faults.failures = 1
    with pytest.raises(WriteFailed):
        await kb.ingestor.ingest_documents("default", [_source(JORDAN_REFORMATTED, "jordan")])
    assert await _groups(kb) == [] and await _stored_groups(kb) == {"jordan-kim": None}

    await kb.ingestor.ingest_documents("default", [_source(JORDAN_REFORMATTED, "jordan")])
    assert [sorted(g) for g in await _groups(kb)] == [["jordan", "jordan-kim"]]


async def test_a_write_by_another_process_is_seen_before_grouping(kb: KnowledgeBase):
    await kb.ingestor.ingest_documents("default", [_source(JORDAN, "jordan-kim")])
    # another process stores a copy (its own write, without grouping it)
    copy = analyze_document(
        JORDAN,
        document_id="copy",
        source_file="copy.txt",
        document_type=DocumentType.CV,
        vocabulary=kb.vocabulary,
        as_of=AS_OF,
    )
    assert copy.signature is not None
    await kb.store.stage("default", [(copy.record, JORDAN)], signatures={"copy": copy.signature})
    await kb.store.finish("default", ["copy"])

    await kb.ingestor.ingest_documents("default", [_source(JORDAN_REFORMATTED, "jordan")])
    assert [sorted(g) for g in await _groups(kb)] == [["copy", "jordan", "jordan-kim"]]


async def test_a_write_recovered_after_a_crash_is_grouped(kb: KnowledgeBase):
    await kb.ingestor.ingest_documents("default", [_source(JORDAN, "jordan-kim")])
    crashed = analyze_document(
        JORDAN_REFORMATTED,
        document_id="jordan",
        source_file="JORDAN.TXT",
        document_type=DocumentType.CV,
        vocabulary=kb.vocabulary,
        as_of=AS_OF,
    )
    assert crashed.signature is not None
    await kb.store.stage(  # staged, then the process died before LightRAG was written
        "default", [(crashed.record, JORDAN_REFORMATTED)], signatures={"jordan": crashed.signature}
    )
    assert await kb.ingestor.recover("default") == 1
    assert [sorted(g) for g in await _groups(kb)] == [["jordan", "jordan-kim"]]


async def test_cvs_stored_before_signatures_join_their_group_when_reanalysed(kb: KnowledgeBase):
    await kb.ingestor.ingest_documents("default", [_source(JORDAN, "jordan-kim")])
    # as a store written before this change holds it: no signature, an older analysis stamp
    assert isinstance(kb.store, SQLiteCandidateStore)
    await kb.store.db.execute("UPDATE documents SET signature=NULL, analysis='analyser-0/old'")
    await kb.store.db.commit()
    kb.ingestor.duplicates.forget("default")  # a new process starts without an index

    await kb.ingestor.ingest_documents("default", [_source(JORDAN_REFORMATTED, "jordan")])
    assert await _groups(kb) == []  # tolerated: an unsigned CV is simply not grouped yet

    report = await kb.ingestor.reindex("default")
    assert (report.total, report.changed) == (1, 0)  # equal record: only restamped and signed
    assert [sorted(g) for g in await _groups(kb)] == [["jordan", "jordan-kim"]]
    stored = await _stored_groups(kb)  # both signed now, in one group
    assert stored.keys() == {"jordan", "jordan-kim"} and stored["jordan"] == stored["jordan-kim"]


async def test_a_grouping_failure_never_blocks_the_write(kb: KnowledgeBase):
    await kb.ingestor.ingest_documents("default", [_source(JORDAN, "jordan-kim")])
    real = kb.ingestor.duplicates.regroup

    async def broken(tenant: str, changes: object) -> dict[str, str | None]:
        raise RuntimeError("a grouping bug")

    kb.ingestor.duplicates.regroup = broken  # type: ignore[method-assign]
    (result,) = await kb.ingestor.ingest_documents("default", [_source(JORDAN, "copy")])
    assert result.outcome is Outcome.INGESTED and await kb.store.get("default", "copy")
    assert await _groups(kb) == []  # written in no group

    kb.ingestor.duplicates.regroup = real  # type: ignore[method-assign]
    await kb.ingestor.ingest_documents("default", [_source(JORDAN_REFORMATTED, "jordan")])
    assert [sorted(g) for g in await _groups(kb)] == [["copy", "jordan", "jordan-kim"]]
