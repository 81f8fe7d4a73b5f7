"""Ingest-job stores on both backends: jobs, items, outcomes and restarts."""

from __future__ import annotations

from talentrag.domain import DocumentType
from talentrag.runtime import job_store
from talentrag.store import CandidateStore
from talentrag.store.jobs import ItemKind, JobItem, JobStatus


async def test_a_job_keeps_its_items_until_their_outcomes_are_recorded(store: CandidateStore):
    jobs = job_store(store)
    await jobs.create_schema()
    items = [
        JobItem(ItemKind.FILE, "a.pdf", b"%PDF-1.4 bytes", name="Ada"),
        JobItem(ItemKind.TEXT, "text #2", b"plain text", document_id="bob"),
    ]
    job_id = await jobs.create("t", items, DocumentType.CV, replace=True)
    assert await jobs.get("u", job_id) is None
    job = await jobs.get("t", job_id)
    assert (job.status, job.document_type, job.replace, job.total, job.processed) == (
        JobStatus.QUEUED,
        DocumentType.CV,
        True,
        2,
        0,
    )
    assert await jobs.queued() == [("t", job_id)]

    waiting = await jobs.waiting_items("t", job_id, limit=1)
    assert waiting == [(0, items[0])]
    await jobs.record("t", job_id, [(0, "ingested", "ada", None)])
    assert await jobs.waiting_items("t", job_id, limit=10) == [(1, items[1])]
    await jobs.record("t", job_id, [(1, "failed", None, "unreadable")])
    await jobs.set_status("t", job_id, JobStatus.DONE)

    job = await jobs.get("t", job_id)
    assert job.status is JobStatus.DONE and job.counts == {"ingested": 1, "failed": 1}
    assert [(i.seq, i.outcome, i.document_id, i.reason) for i in job.items] == [
        (0, "ingested", "ada", None),
        (1, "failed", "bob", "unreadable"),  # the id asked for, when none was written
    ]
    assert await jobs.queued() == []


async def test_after_a_restart_uploads_run_again_and_cli_runs_are_interrupted(
    store: CandidateStore,
):
    jobs = job_store(store)
    await jobs.create_schema()
    upload = await jobs.create("t", [JobItem(ItemKind.TEXT, "x", b"x")], DocumentType.CV)
    cli = await jobs.create(
        "t", [JobItem(ItemKind.PATH, "/cvs/a.txt")], DocumentType.CV, status=JobStatus.RUNNING
    )
    await jobs.set_status("t", upload, JobStatus.RUNNING)
    await jobs.resume_after_restart()
    assert (await jobs.get("t", upload)).status is JobStatus.QUEUED
    assert (await jobs.get("t", cli)).status is JobStatus.INTERRUPTED
    assert await jobs.queued() == [("t", upload)]
