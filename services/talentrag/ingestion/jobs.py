"""Ingest jobs: many documents at once, written in the background in batches.

``POST /v1/ingest-jobs`` and MCP's ``ingest_cv`` submit jobs that the writer
process runs one after another; the CLI records its runs as jobs too, so every
bulk write has one report (``GET /v1/ingest-jobs/{id}``). Items are written in
batches of ``TALENTRAG_INGEST_BATCH_SIZE``, each one atomic LightRAG write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

from talentrag.domain import DocumentType
from talentrag.errors import DocumentError, TalentragError
from talentrag.ingestion.analyze import document_id_for
from talentrag.ingestion.pipeline import (
    WRITTEN,
    Ingestor,
    IngestResult,
    Outcome,
    ProgressCallback,
    SourceDocument,
    expand_paths,
)
from talentrag.store.jobs import IngestJob, ItemKind, JobItem, JobStatus, JobStore

log = logging.getLogger(__name__)

LEASE_S = 60.0
"""How long a replica's claim on a job lasts without renewal (a shared job store)."""
POLL_S = 2.0
"""How often an idle replica looks for jobs submitted to the others."""


class IngestJobs:
    """Submits, runs and reports ingest jobs; one runner per writer process."""

    def __init__(
        self,
        jobs: JobStore,
        ingestor: Ingestor,
        max_document_bytes: int,
    ):
        self.jobs = jobs
        self.ingestor = ingestor
        self.max_document_bytes = max_document_bytes
        # Documents per LightRAG write: the embedded file stores rewrite themselves whole
        # on every write, which holds the event loop, so fewer, larger writes stall
        # searches least (analysis runs in the worker pool meanwhile).
        self.batch_size = ingestor.batch_size
        self._queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._submitted = asyncio.Event()  # a shared store's runner looks at once
        self._finished: dict[str, asyncio.Event] = {}

    # -- submitting and reporting -------------------------------------------------
    async def submit(
        self,
        tenant: str,
        items: list[JobItem],
        document_type: DocumentType,
        *,
        replace: bool = False,
    ) -> IngestJob:
        """Queue a job for this process's runner (``serve``), in submission order."""
        job_id = await self.jobs.create(tenant, items, document_type, replace=replace)
        if self.jobs.shared:
            self._submitted.set()
        else:
            self._queue.put_nowait((tenant, job_id))
        return await self._get(tenant, job_id)

    async def get(self, tenant: str, job_id: str) -> IngestJob | None:
        """A job of the tenant, or None."""
        return await self.jobs.get(tenant, job_id)

    async def wait(self, tenant: str, job_id: str, timeout_s: float) -> IngestJob:
        """The job once done, or as it stands after ``timeout_s``.

        Another replica may run it: the store is read again every ``POLL_S`` too.
        """
        finished = self._finished.setdefault(job_id, asyncio.Event())
        deadline = asyncio.get_running_loop().time() + timeout_s
        try:
            while True:
                job = await self._get(tenant, job_id)
                left = deadline - asyncio.get_running_loop().time()
                if job.status not in (JobStatus.QUEUED, JobStatus.RUNNING) or left <= 0:
                    return job
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(finished.wait(), min(left, POLL_S))
        finally:
            self._finished.pop(job_id, None)

    # -- the CLI's runs -----------------------------------------------------------
    async def run_paths(
        self,
        tenant: str,
        paths: list[Path],
        document_type: DocumentType,
        progress: ProgressCallback | None = None,
        *,
        document_id: str | None = None,
        replace: bool = False,
    ) -> tuple[str, list[IngestResult]]:
        """Ingest files and folders now, recorded as a job; (job id, per-file results)."""
        files = expand_paths(paths)
        items = [JobItem(ItemKind.PATH, str(path)) for path in files]
        job_id = await self.jobs.create(
            tenant, items, document_type, replace=replace, status=JobStatus.RUNNING
        )
        heartbeat = None
        if self.jobs.shared:  # a lease, so that a killed run reads as interrupted
            await self.jobs.renew(tenant, job_id, LEASE_S)
            heartbeat = asyncio.create_task(self._renew(tenant, job_id))
        try:
            results = await self.ingestor.ingest_paths(
                files, tenant, document_type, progress, document_id=document_id, replace=replace
            )
        except BaseException:
            await self.jobs.set_status(tenant, job_id, JobStatus.INTERRUPTED)
            raise
        finally:
            if heartbeat is not None:
                heartbeat.cancel()
        by_source = {r.source: r for r in results}
        await self.jobs.record(
            tenant,
            job_id,
            [
                (seq, r.outcome.value, r.document_id, r.reason)
                for seq, item in enumerate(items)
                if (r := by_source.get(item.source)) is not None
            ],
        )
        await self.jobs.set_status(tenant, job_id, JobStatus.DONE)
        return job_id, results

    # -- the background runner ----------------------------------------------------
    async def resume(self) -> int:
        """Queue the jobs a stopped server left unfinished; only the writer process may."""
        await self.jobs.resume_after_restart()
        queued = await self.jobs.queued()
        for job in queued:
            self._queue.put_nowait(job)
        return len(queued)

    async def serve(self) -> None:
        """Run jobs until cancelled (the server's background task): this process's queue,
        or with a shared store any replica's jobs, each claimed for a lease."""
        if self.jobs.shared:
            await self._serve_claimed()
            return
        while True:
            tenant, job_id = await self._queue.get()
            try:
                await self.run(tenant, job_id)
            except Exception as exc:  # the job stays queued in the store; resumed at restart
                log.warning("ingest job %s stopped: %s", job_id, type(exc).__name__)

    async def _serve_claimed(self) -> None:
        while True:
            self._submitted.clear()
            try:
                claimed = await self.jobs.claim(LEASE_S)
            except Exception as exc:  # the database is away: look again later
                log.warning("could not claim an ingest job: %s", type(exc).__name__)
                claimed = None
            if claimed is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._submitted.wait(), POLL_S)
                continue
            heartbeat = asyncio.create_task(self._renew(*claimed))
            try:
                await self.run(*claimed)
            except Exception as exc:  # the lease runs out; a replica takes the job over
                log.warning("ingest job %s stopped: %s", claimed[1], type(exc).__name__)
            finally:
                heartbeat.cancel()

    async def _renew(self, tenant: str, job_id: str) -> None:
        """Keep the lease on a running job (a third of it ahead each time)."""
        while True:
            await asyncio.sleep(LEASE_S / 3)
            with contextlib.suppress(Exception):  # missed once: the next one may land
                await self.jobs.renew(tenant, job_id, LEASE_S)

    async def run(self, tenant: str, job_id: str) -> None:
        """Run one queued job to the end, a batch at a time; every item gets an outcome."""
        job = await self._get(tenant, job_id)
        await self.jobs.set_status(tenant, job_id, JobStatus.RUNNING)
        written = 0
        while batch := await self.jobs.waiting_items(tenant, job_id, self.batch_size):
            outcomes = await self._ingest(job, batch)
            written += sum(o[1] in WRITTEN for o in outcomes)
            await self.jobs.record(tenant, job_id, outcomes)
        await self.ingestor.after_bulk_write(written)
        await self.jobs.set_status(tenant, job_id, JobStatus.DONE)
        if job_id in self._finished:
            self._finished[job_id].set()

    async def _ingest(
        self, job: IngestJob, batch: list[tuple[int, JobItem]]
    ) -> list[tuple[int, str, str | None, str | None]]:
        outcomes: list[tuple[int, str, str | None, str | None]] = []
        sources: dict[int, SourceDocument] = {}
        for seq, item in batch:
            try:
                source = await self._source(job, item)
            except Exception as exc:  # this item fails; the others go on
                outcomes.append((seq, Outcome.FAILED.value, item.document_id, _reason(exc)))
                continue
            if any(s.document_id == source.document_id for s in sources.values()):
                reason = f"conflict: another document of this job is also '{source.document_id}'"
                outcomes.append((seq, Outcome.FAILED.value, source.document_id, reason))
                continue
            sources[seq] = source
        if not sources:
            return outcomes
        try:
            results = await self.ingestor.ingest_documents(job.tenant, list(sources.values()))
        except Exception as exc:  # the batch was undone; its items fail, the job goes on
            return outcomes + [
                (seq, Outcome.FAILED.value, s.document_id, _reason(exc))
                for seq, s in sources.items()
            ]
        by_id = {r.document_id: r for r in results}
        return outcomes + [
            (seq, by_id[s.document_id].outcome.value, s.document_id, by_id[s.document_id].reason)
            for seq, s in sources.items()
        ]

    async def _source(self, job: IngestJob, item: JobItem) -> SourceDocument:
        """The item's text and identity; ``TalentragError`` fails this item alone."""
        if item.kind is ItemKind.TEXT:
            assert item.payload is not None and item.document_id is not None
            return SourceDocument(
                item.payload.decode("utf-8"),
                item.document_id,
                item.source,
                job.document_type,
                name=item.name,
                origin=item.source,
            )
        assert item.kind is ItemKind.FILE and item.payload is not None
        basename = Path(item.source).name
        text = await self.ingestor.pool.extract(item.payload, basename, self.max_document_bytes)
        document_id = item.document_id or document_id_for(Path(basename))
        if item.document_id is None and not job.replace:
            await self.ingestor.refuse_to_overwrite(
                job.tenant, document_id, text, job.document_type
            )
        return SourceDocument(
            text, document_id, basename, job.document_type, name=item.name, origin=item.source
        )

    async def _get(self, tenant: str, job_id: str) -> IngestJob:
        job = await self.jobs.get(tenant, job_id)
        if job is None:  # the job was just written by this process
            raise RuntimeError(f"ingest job {job_id} vanished")
        return job


def _reason(exc: Exception) -> str:
    """One line for a failed item: the document error's stable word first when there is one."""
    if isinstance(exc, DocumentError):
        return f"{exc.reason}: {exc.message}"
    if isinstance(exc, TalentragError):
        return exc.message
    log.warning("an ingest job item failed unexpectedly: %s", type(exc).__name__)
    return f"internal error ({type(exc).__name__}); nothing was written for it"
