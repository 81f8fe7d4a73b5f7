"""The application layer: the one seam every adapter calls.

HTTP, MCP, the CLI (and, through HTTP, the OpenWebUI tool) translate their
arguments into these calls and the results back; the rules live here once:
which documents are candidates, what a valid id is, the minimum content of a
document, that a write is read back before it is reported, and which tenant a
caller may touch. Failures are ``talentrag.errors`` exceptions.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np

from talentrag.config import Settings
from talentrag.domain import DocumentRecord, DocumentType
from talentrag.embeddings import Embedder
from talentrag.errors import (
    Busy,
    ConfigurationError,
    InvalidInput,
    NotFound,
    PayloadTooLarge,
    PermissionDenied,
    PreconditionFailed,
)
from talentrag.ingestion.analyze import document_id_for
from talentrag.ingestion.pipeline import (
    IngestResult,
    Outcome,
    Precondition,
    ProgressCallback,
    ReindexProgress,
    ReindexReport,
    SourceDocument,
    UnfinishedWrites,
    expand_paths,
)
from talentrag.ingestion.readers import clean_line, clean_text, require_text
from talentrag.policy.limits import MAX_FILE_NAME_CHARS, MAX_JOB_DOCUMENTS, MAX_NAME_CHARS
from talentrag.runtime import KnowledgeBase, open_knowledge_base
from talentrag.search import SearchRequest, SearchResponse
from talentrag.startup import resume_collection
from talentrag.store import StoredVersion, StoreSummary
from talentrag.store.jobs import IngestJob, ItemKind, JobItem

log = logging.getLogger(__name__)

DOCUMENT_ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
MAX_EMBEDDING_INPUTS = 2048
JOB_WAIT_S = 300.0
"""How long ``ingest_text_job`` waits for its job before answering that it is queued."""


def validate_document_id(document_id: str) -> str:
    """An id an ATS (or a file name) gives a document; ``InvalidInput`` otherwise."""
    if not DOCUMENT_ID_PATTERN.fullmatch(document_id):
        raise InvalidInput(
            f"id {document_id!r} is invalid: use 1-128 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return document_id


def require_paths(paths: Sequence[Path]) -> None:
    """``InvalidInput`` naming every path that does not exist (checked before any work)."""
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise InvalidInput(f"no such file or folder: {', '.join(missing)}")


@dataclass(frozen=True)
class TextDocument:
    """One text of an ingest job: the ATS id is its identity."""

    id: str
    text: str
    name: str | None = None
    source_file: str | None = None


@dataclass(frozen=True)
class StoredDocument:
    """A document as stored after a write; ``created`` is False when replaced or unchanged."""

    record: DocumentRecord
    created: bool


@dataclass(frozen=True)
class RecordPage:
    """One page of stored documents ordered by id; ``has_more`` when another page follows."""

    records: list[DocumentRecord]
    has_more: bool


CandidatePage = RecordPage
"""A page of candidates (CV records)."""

NON_CANDIDATE_TYPES = tuple(t for t in DocumentType if t is not DocumentType.CV)
"""What ``list_documents`` lists by default: the documents that are never candidates."""


class TalentService:
    """Search, read, list, ingest and delete, with the rules of the product."""

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb

    @property
    def settings(self) -> Settings:
        """The settings the knowledge base was opened with."""
        return self.kb.settings

    # -- search ---------------------------------------------------------------------
    async def search(self, request: SearchRequest, tenant: str) -> SearchResponse:
        """Ranked candidates; a request naming another tenant than the caller's is refused."""
        if request.tenant and request.tenant != tenant:
            raise PermissionDenied(f"This API key may not search tenant '{request.tenant}'.")
        await self.kb.graph.refresh(tenant)  # another process may have written since
        return await self.kb.search.search(request, tenant)

    # -- reads ----------------------------------------------------------------------
    async def get_document(self, tenant: str, document_id: str) -> DocumentRecord:
        """Any stored document (CV, job description, company page, job profile)."""
        record = await self.kb.store.get(tenant, document_id)
        if record is None:
            raise NotFound(f"No document with id '{document_id}'.")
        return record

    async def get_candidate(self, tenant: str, candidate_id: str) -> DocumentRecord:
        """A candidate: only CV documents are candidates."""
        record = await self.kb.store.get(tenant, candidate_id)
        if record is None or not record.is_candidate:
            raise NotFound(f"No candidate with id '{candidate_id}'.")
        return record

    async def list_candidates(
        self, tenant: str, limit: int, after_id: str | None = None
    ) -> RecordPage:
        """Candidates ordered by id, starting after ``after_id``."""
        records = await self.kb.store.list_documents(
            tenant, DocumentType.CV, limit=limit + 1, after_id=after_id
        )
        return RecordPage(records=records[:limit], has_more=len(records) > limit)

    async def list_documents(
        self,
        tenant: str,
        limit: int,
        after_id: str | None = None,
        document_type: DocumentType | None = None,
    ) -> RecordPage:
        """Documents of one type, or by default every document that is not a CV (job
        descriptions to search by, company pages, job profiles), ordered by id."""
        types = (document_type,) if document_type is not None else NON_CANDIDATE_TYPES
        found: list[DocumentRecord] = []
        for kind in types:  # one keyset page per type, merged: ids are unique in a tenant
            found += await self.kb.store.list_documents(
                tenant, kind, limit=limit + 1, after_id=after_id
            )
        records = sorted(found, key=lambda r: r.id)[: limit + 1]
        return RecordPage(records=records[:limit], has_more=len(records) > limit)

    async def summary(self, tenant: str) -> StoreSummary:
        """Counts, levels, top skills and unfinished writes of a tenant."""
        return await self.kb.store.summary(tenant)

    async def duplicate_groups(self, tenant: str) -> list[list[DocumentRecord]]:
        """CVs that are one CV ingested more than once, by group, earliest stored first."""
        groups = await self.kb.store.duplicate_groups(tenant)
        records = await self.kb.store.get_many(tenant, [i for group in groups for i in group])
        found = [[records[i] for i in group if i in records] for group in groups]
        return [group for group in found if len(group) > 1]  # a member deleted meanwhile

    async def load(self, tenant: str) -> None:
        """Load the tenant's embedded graph now rather than on its first query."""
        await self.kb.graph.rag(tenant)

    async def ready(self, tenant: str) -> None:
        """Raise ``Unavailable`` when LightRAG cannot serve the tenant's queries."""
        await self.kb.gateway.ready(tenant)

    # -- writes ---------------------------------------------------------------------
    async def ingest_text(
        self,
        tenant: str,
        *,
        text: str,
        document_id: str,
        document_type: DocumentType = DocumentType.CV,
        source_file: str | None = None,
        name: str | None = None,
        if_match: str | None = None,
        if_none_match: str | None = None,
    ) -> StoredDocument:
        """Create or replace one document from its text; durable when it returns.

        ``if_match`` (an ETag list or ``*``) replaces only the version the caller read;
        ``if_none_match="*"`` only creates. Either failing is ``PreconditionFailed``.
        """
        document = TextDocument(document_id, text, name, source_file)
        source = self._text_source(document, document_type)
        return await self._ingest_one(
            tenant, source, _conditions(document_id, if_match, if_none_match)
        )

    async def ingest_file(
        self,
        tenant: str,
        *,
        data: bytes,
        filename: str,
        document_type: DocumentType = DocumentType.CV,
        document_id: str | None = None,
        replace: bool = False,
    ) -> StoredDocument:
        """Create or replace one document from a file's bytes (txt, md, pdf, docx).

        Without ``document_id`` the id comes from the file name, and ATS exports name
        thousands of files ``CV.pdf``: a different document under a taken id is a
        ``Conflict`` unless ``replace`` says to replace it. The same document again is
        simply unchanged.
        """
        basename = clean_line(Path(filename or "upload.txt").name) or "upload.txt"
        named_by_caller = document_id is not None
        document_id = validate_document_id(document_id or document_id_for(Path(basename)))
        # in a worker: a PDF's text extraction would stall searches on the event loop
        text = await self.kb.pool.extract(data, basename, self.settings.max_upload_bytes)
        if not named_by_caller and not replace:
            await self.kb.ingestor.refuse_to_overwrite(tenant, document_id, text, document_type)
        source = SourceDocument(
            text=text, document_id=document_id, source_file=basename, document_type=document_type
        )
        return await self._ingest_one(tenant, source)

    async def ingest_paths(
        self,
        tenant: str,
        paths: Sequence[Path],
        document_type: DocumentType = DocumentType.CV,
        progress: ProgressCallback | None = None,
        *,
        document_id: str | None = None,
        replace: bool = False,
    ) -> tuple[str, list[IngestResult]]:
        """Files and folders, now, recorded as an ingest job; (job id, per-file results).

        A bad file is reported in its result and never stops the batch. ``document_id``
        stores the one file given under that id (replacing what it names); ``replace``
        lets files replace different documents stored under the ids their names give.
        """
        require_paths(paths)
        if document_id is not None:
            validate_document_id(document_id)
        return await self.kb.jobs.run_paths(
            tenant, list(paths), document_type, progress, document_id=document_id, replace=replace
        )

    async def submit_ingest_job(
        self,
        tenant: str,
        *,
        texts: Sequence[TextDocument] = (),
        files: Sequence[tuple[str, bytes]] = (),
        document_type: DocumentType = DocumentType.CV,
        replace: bool = False,
    ) -> IngestJob:
        """Queue texts and files for the background runner; the job reports per document.

        Texts are checked now (id, size, content), so a bad request writes nothing;
        a file that cannot be read fails alone when the job runs.
        """
        count = len(texts) + len(files)
        if not 1 <= count <= MAX_JOB_DOCUMENTS:
            raise InvalidInput(
                f"an ingest job takes 1 to {MAX_JOB_DOCUMENTS} documents, got {count}"
            )
        items = [self._text_item(i, doc) for i, doc in enumerate(texts)]
        for filename, data in files:
            self._check_size(len(data))
            name = clean_line(Path(filename or "upload.txt").name) or "upload.txt"
            items.append(JobItem(ItemKind.FILE, name, data))
        return await self.kb.jobs.submit(tenant, items, document_type, replace=replace)

    async def ingest_job(self, tenant: str, job_id: str) -> IngestJob:
        """A job of the caller's tenant; ``NotFound`` otherwise."""
        job = await self.kb.jobs.get(tenant, job_id)
        if job is None:
            raise NotFound(f"No ingest job with id '{job_id}'.")
        return job

    async def wait_for_job(self, tenant: str, job_id: str, timeout_s: float) -> IngestJob:
        """The job when done, or as it stands after ``timeout_s``."""
        await self.ingest_job(tenant, job_id)
        return await self.kb.jobs.wait(tenant, job_id, timeout_s)

    async def ingest_text_job(
        self, tenant: str, document: TextDocument, timeout_s: float = JOB_WAIT_S
    ) -> DocumentRecord:
        """One text through an ingest job, waited for: MCP's ``ingest_cv``.

        The job runner of this process writes it, as it writes every bulk job, so a
        long write never runs on the caller's request. ``Busy`` when the job is still
        queued after ``timeout_s``; the item's failure as an error when it failed.
        """
        job = await self.submit_ingest_job(tenant, texts=[document])
        job = await self.kb.jobs.wait(tenant, job.id, timeout_s)
        (item,) = job.items
        if item.outcome is None:
            raise Busy(
                f"the CV is queued as ingest job {job.id} behind other writes; "
                f"get_candidate '{document.id}' will find it when it is done"
            )
        if item.outcome == Outcome.FAILED.value:
            raise InvalidInput(item.reason or "the CV could not be ingested")
        return await self.get_document(tenant, document.id)

    async def run_jobs(self) -> None:
        """Run submitted jobs until cancelled: the background task of a server or stdio MCP.

        Only the data directory's writer resumes the jobs a stopped server left; another
        process runs the jobs it was given (they fail with ``Busy`` while a server writes).
        """
        if self.kb.ingestor.writer_lock.held:
            await self.kb.jobs.resume()
        await self.kb.jobs.serve()

    def _text_item(self, index: int, document: TextDocument) -> JobItem:
        source = self._text_source(document, DocumentType.CV, f"documents[{index}]")
        return JobItem(
            ItemKind.TEXT,
            source.source_file,
            source.text.encode("utf-8"),
            source.document_id,
            source.name,
        )

    def _text_source(
        self, document: TextDocument, document_type: DocumentType, where: str = ""
    ) -> SourceDocument:
        """A text a caller sent, checked and cleaned (PUT, MCP, job texts alike).

        ``where`` names the document in a request of several; the error (and its
        status) is the same, its message starts with it.
        """
        try:
            validate_document_id(document.id)
            self._check_size(len(document.text.encode("utf-8", errors="replace")))
            text = clean_text(document.text)
            require_text(text)
            if document.name is not None and len(document.name) > MAX_NAME_CHARS:
                raise InvalidInput(f"name: at most {MAX_NAME_CHARS} characters")
            source_file = document.source_file
            if source_file is not None and len(source_file) > MAX_FILE_NAME_CHARS:
                raise InvalidInput(f"source_file: at most {MAX_FILE_NAME_CHARS} characters")
        except InvalidInput as exc:
            if where:
                exc.message = f"{where}: {exc.message}"
                exc.args = (exc.message,)
            raise
        return SourceDocument(
            text=text,
            document_id=document.id,
            source_file=clean_line(source_file or "") or f"{document.id}.txt",
            document_type=document_type,
            name=clean_line(document.name or "") or None,
        )

    async def delete(self, tenant: str, document_ids: Sequence[str]) -> list[str]:
        """Remove documents of any type from both stores; returns the ids that existed."""
        return await self.kb.ingestor.delete(tenant, list(document_ids))

    async def delete_candidate(self, tenant: str, candidate_id: str) -> None:
        """Remove one candidate; ``NotFound`` when there is no such candidate."""
        await self.get_candidate(tenant, candidate_id)
        if not await self.kb.ingestor.delete(tenant, [candidate_id]):
            raise NotFound(f"No candidate with id '{candidate_id}'.")

    # -- embeddings -----------------------------------------------------------------
    @property
    def embedder(self) -> Embedder:
        """The knowledge base's embedding model; adapters report its name."""
        return self.kb.embedder

    async def embed(self, texts: list[str]) -> np.ndarray:
        """Vectors of the configured model, for a LightRAG Server that embeds queries."""
        if not 1 <= len(texts) <= MAX_EMBEDDING_INPUTS:
            raise InvalidInput(f"input needs 1 to {MAX_EMBEDDING_INPUTS} texts, got {len(texts)}")
        return await self.kb.embedder.embed(texts)

    async def recover(self) -> dict[str, int]:
        """Complete (or undo) every tenant's unfinished writes; run at start-up.

        A tenant whose writes can be neither completed nor undone (LightRAG
        unreachable) is left for the next write or ``talentrag repair``.
        """
        recovered = {}
        for tenant in await self.kb.store.tenants_with_unfinished():
            try:
                recovered[tenant] = await self.kb.ingestor.recover(tenant)
            except UnfinishedWrites as exc:
                log.warning("start-up recovery left %d writes unfinished", len(exc.ids))
        return recovered

    # -- re-analysis ------------------------------------------------------------------
    async def stale_analysis(self, tenant: str | None = None) -> dict[str, int]:
        """Per tenant (or for one), documents analysed under another vocabulary or analyser."""
        counts = await self.kb.store.stale_counts(self.kb.ingestor.analysis)
        return counts if tenant is None else {t: n for t, n in counts.items() if t == tenant}

    async def reindex(self, tenant: str, progress: ReindexProgress | None = None) -> ReindexReport:
        """Re-analyse the tenant's out-of-date documents from their stored text.

        Atomic per batch in both stores; a killed run is completed by the next write
        and continued by the next run (what is done is skipped).
        """
        return await self.kb.ingestor.reindex(tenant, progress)

    async def bring_analysis_up_to_date(
        self, reindex_tenant: Callable[[str], Awaitable[ReindexReport]] | None = None
    ) -> list[ReindexReport]:
        """The start-up check: never serve records of an older analysis silently.

        Re-analyses every tenant's out-of-date documents before serving (with
        ``reindex_tenant``, the CLI's progress bar; by default logged), or, with
        ``reindex_on_start`` off, refuses to start and says what to run.
        """
        stale = await self.stale_analysis()
        if stale and not self.settings.reindex_on_start:
            raise StaleAnalysis(stale)
        if stale:
            resume_collection()  # a re-analysis is long work that leaves garbage behind
        return [
            await (reindex_tenant(tenant) if reindex_tenant else self._reindex_logged(tenant, n))
            for tenant, n in stale.items()
        ]

    async def _reindex_logged(self, tenant: str, count: int) -> ReindexReport:
        log.warning(
            "re-analysing %d documents of tenant %s (the vocabulary or analyser changed) "
            "before serving",
            count,
            tenant,
        )
        report = await self.reindex(tenant)
        log.warning(
            "re-analysed %d documents of tenant %s (%d changed, %d failed)",
            report.reanalysed,
            tenant,
            report.changed,
            len(report.failed),
        )
        return report

    async def repair(self, tenant: str, *, drop: bool) -> list[str]:
        """Complete the tenant's unfinished writes, or with ``drop`` undo them; their ids."""
        return await self.kb.ingestor.repair(tenant, drop=drop)

    # -- the server's exclusive hold ------------------------------------------------------
    async def hold_writer(self) -> None:
        """Make this process the data directory's only writer (``talentrag serve``)."""
        await self.kb.ingestor.writer_lock.hold()

    def release_writer(self) -> None:
        """Give up the hold taken by ``hold_writer`` (at server shutdown)."""
        self.kb.ingestor.writer_lock.release()

    # -- internals ------------------------------------------------------------------
    def _check_size(self, size: int) -> None:
        limit = self.settings.max_upload_bytes
        if size > limit:
            raise PayloadTooLarge(f"the document is {size} bytes; the limit is {limit} bytes")

    async def _ingest_one(
        self, tenant: str, source: SourceDocument, precondition: Precondition | None = None
    ) -> StoredDocument:
        (result,) = await self.kb.ingestor.ingest_documents(tenant, [source], precondition)
        record = await self.kb.store.get(tenant, source.document_id)
        if record is None:  # cannot happen after a successful write; never report it as done
            raise RuntimeError(f"document {source.document_id!r} was written but cannot be read")
        return StoredDocument(record=record, created=result.outcome is Outcome.INGESTED)


class StaleAnalysis(ConfigurationError):
    """Stored records were made under another vocabulary or analyser, and may not be served."""

    def __init__(self, stale: dict[str, int]):
        counts = ", ".join(f"{n} in tenant {t}" for t, n in stale.items())
        super().__init__(
            f"stored documents were analysed with another vocabulary or analyser ({counts}); "
            "run `talentrag reindex --all-tenants` to re-analyse them from their stored text, "
            "or set TALENTRAG_REINDEX_ON_START=true to do it at start-up"
        )
        self.stale = stale


def etag(record: DocumentRecord) -> str:
    """The entity tag of a stored version (its content hash, quoted)."""
    return f'"{record.content_hash}"'


def _conditions(
    document_id: str, if_match: str | None, if_none_match: str | None
) -> Precondition | None:
    """HTTP conditional-request rules (RFC 9110 13.1) over the stored version."""
    if if_match is None and if_none_match is None:
        return None
    if if_none_match is not None and if_none_match.strip() != "*":
        raise InvalidInput('If-None-Match: only "*" (create, never replace) is supported')

    def check(stored: dict[str, StoredVersion]) -> None:
        version = stored.get(document_id)
        current = f'"{version.content_hash}"' if version else None
        if if_none_match is not None and current is not None:
            raise PreconditionFailed(f"'{document_id}' exists and If-None-Match: * was sent")
        if if_match is None:
            return
        wanted = {tag.strip().removeprefix("W/") for tag in if_match.split(",")}
        if current is None or ("*" not in wanted and current not in wanted):
            raise PreconditionFailed(
                f"'{document_id}' is not at the version If-Match names (it is "
                f"{current or 'absent'}); GET it again and resend with its ETag"
            )

    return check


@asynccontextmanager
async def open_service(
    settings: Settings, *, as_of: date | None = None, embedder: Embedder | None = None
) -> AsyncIterator[TalentService]:
    """The application over an opened knowledge base, closed on exit."""
    async with open_knowledge_base(settings, as_of=as_of, embedder=embedder) as kb:
        yield TalentService(kb)


__all__ = [
    "NON_CANDIDATE_TYPES",
    "CandidatePage",
    "RecordPage",
    "ReindexReport",
    "StaleAnalysis",
    "StoredDocument",
    "TalentService",
    "TextDocument",
    "etag",
    "expand_paths",
    "open_service",
    "require_paths",
    "validate_document_id",
]
