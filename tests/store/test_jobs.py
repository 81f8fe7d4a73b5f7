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


async def test_replicas_claim_each_job_once_and_take_over_a_dead_runners(
    postgres_url: str,
) -> None:
    import asyncio

    from talentrag.store.postgres import PostgresCandidateStore

    stores = [PostgresCandidateStore(postgres_url), PostgresCandidateStore(postgres_url)]
    for opened in stores:
        await opened.open()
    try:
        a, b = (job_store(s) for s in stores)
        assert a.shared and b.shared
        first = await a.create("t", [JobItem(ItemKind.TEXT, "x", b"x", "x")], DocumentType.CV)
        second = await a.create("u", [JobItem(ItemKind.TEXT, "y", b"y", "y")], DocumentType.CV)
        claims = await asyncio.gather(a.claim(0.5), b.claim(0.5))
        assert sorted(claims) == [("t", first), ("u", second)]  # one each, none twice
        assert await a.claim(0.5) is None
        await b.renew(*claims[1], 30)  # b's runner is alive; a's stops renewing
        await asyncio.sleep(0.7)
        assert await b.claim(30) == claims[0]  # a's lease ran out: b takes the job over
        assert await a.claim(30) is None
    finally:
        for opened in stores:
            await opened.close()


async def test_the_embedded_job_store_is_not_shared(store: CandidateStore) -> None:
    jobs = job_store(store)
    if not jobs.shared:
        await jobs.create_schema()
        await jobs.create("t", [JobItem(ItemKind.TEXT, "x", b"x", "x")], DocumentType.CV)
        assert await jobs.claim(30) is None  # one writer process runs its own queue


async def test_a_killed_command_line_run_reads_interrupted_and_is_never_taken_over(
    postgres_url: str,
) -> None:
    """A CLI run holds a lease while it runs; killed, its lease runs out: any replica then
    reports it interrupted, and none claims it (its files are on another machine)."""
    import asyncio

    from talentrag.store.postgres import PostgresCandidateStore

    store = PostgresCandidateStore(postgres_url)
    await store.open()
    try:
        jobs = job_store(store)
        run = await jobs.create(
            "t", [JobItem(ItemKind.PATH, "/cvs/a.txt")], DocumentType.CV, status=JobStatus.RUNNING
        )
        await jobs.renew("t", run, 0.3)
        assert (await jobs.get("t", run)).status is JobStatus.RUNNING  # its runner is alive
        await asyncio.sleep(0.5)  # killed: nobody renews
        assert (await jobs.get("t", run)).status is JobStatus.INTERRUPTED
        assert await jobs.claim(30) is None
    finally:
        await store.close()
