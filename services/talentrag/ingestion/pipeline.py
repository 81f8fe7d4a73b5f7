"""Batch ingestion into both stores, all-or-nothing per document.

Each batch is: analyse -> stage in the candidate store (pending) -> one LightRAG
write (old versions removed, new KG inserted, persisted once) -> finish (active).
A process killed anywhere leaves pending rows that ``recover`` completes on the
next run; readers never see a pending row. One writer per data directory is
enforced with a lock file.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from dataclasses import replace as replace_fields
from datetime import date
from enum import StrEnum
from pathlib import Path

from talentrag.domain import DocumentRecord, DocumentType
from talentrag.errors import (
    Conflict,
    DocumentError,
    InvalidInput,
    TalentragError,
    Unavailable,
    WriteFailed,
)
from talentrag.gateways.base import GraphWrite, GraphWriter
from talentrag.graph_schema import document_nodes, level_node
from talentrag.ingestion.analysis_version import analysis_version
from talentrag.ingestion.analyze import (
    AnalyzedDocument,
    Chunk,
    chunk_content,
    content_hash,
    distinct_id,
    document_id_for,
)
from talentrag.ingestion.duplicates import Change, DuplicateGroups, change_of
from talentrag.ingestion.graph import build_custom_kg, merge_kgs
from talentrag.ingestion.readers import clean_text
from talentrag.ingestion.workers import AnalysisPool
from talentrag.ingestion.writer_lock import WriterLock
from talentrag.policy.limits import (
    DEFAULT_MAX_DOCUMENT_BYTES,
    GRAPH_WRITE_DOCUMENTS,
    STATISTICS_AFTER_DOCUMENTS,
)
from talentrag.store.base import (
    CandidateStore,
    RowStatus,
    StoredText,
    StoredVersion,
    UnfinishedWrite,
)
from talentrag.vocabulary.vocabulary import Vocabulary

log = logging.getLogger(__name__)


class Outcome(StrEnum):
    """What ingesting one source did; 'skipped' means its content was unchanged."""

    INGESTED = "ingested"
    UPDATED = "updated"
    SKIPPED = "skipped"
    FAILED = "failed"


WRITTEN = frozenset({Outcome.INGESTED, Outcome.UPDATED})
"""The outcomes that wrote a document."""


@dataclass(frozen=True)
class IngestResult:
    """The outcome for one source (a path or an id), with the reason when it failed."""

    source: str
    outcome: Outcome
    document_id: str | None = None
    reason: str | None = None
    duplicate_of: str | None = None
    """The earlier CV this one repeats (the first of its duplicate group), if any."""


@dataclass(frozen=True)
class SourceDocument:
    """A document to ingest: already-read text plus its identity."""

    text: str
    document_id: str
    source_file: str
    document_type: DocumentType = DocumentType.CV
    name: str | None = None
    origin: str = ""
    """How the user named the source (a path as given), for reports."""
    location: str | None = None
    """The resolved file path, which keeps two files with one name apart; None for texts."""


Precondition = Callable[[dict[str, StoredVersion]], None]
"""Checks the stored versions of a write's ids and raises to refuse it."""

ProgressCallback = Callable[[], None]  # called once per file, when it has been read and analysed
ReindexProgress = Callable[[int, int], None]  # (documents done, documents to do) after each batch


@dataclass(frozen=True)
class ReindexReport:
    """What re-analysing a tenant did: counts, and the documents left at their old analysis."""

    tenant: str
    total: int
    """Documents that were not at the current analysis version when the run started."""
    reanalysed: int
    changed: int
    """Re-analysed documents whose record came out different (rewritten in both stores;
    the others only get the new stamp, since LightRAG would receive the same content)."""
    failed: list[IngestResult]
    """Documents whose analysis failed: their previous version stays, a re-run retries them."""


@dataclass(frozen=True)
class CopyReport:
    """What copying a tenant from another store did."""

    tenant: str
    total: int
    """Active documents the source holds."""
    copied: int
    skipped: int
    """Documents already here with the same content and stamp (an earlier run's)."""


class CopyConflict(Conflict):
    """The destination holds other documents under ids the source uses."""


def expand_paths(paths: Iterable[Path]) -> list[Path]:
    """Files as given, folders walked recursively (hidden entries skipped), sorted."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
        else:
            found.append(path)
    return found


class Ingestor:
    """Writes documents into both stores, one writer at a time, all-or-nothing per batch."""

    def __init__(
        self,
        store: CandidateStore,
        graph: GraphWriter,
        vocabulary: Vocabulary,
        writer_lock: WriterLock,
        pool: AnalysisPool,
        *,
        batch_size: int = 200,
        as_of: date | None = None,
        max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
    ):
        self.store = store
        self.graph = graph
        self.vocabulary = vocabulary
        self.batch_size = batch_size
        self.as_of = as_of
        self.writer_lock = writer_lock
        self.pool = pool
        self.max_document_bytes = max_document_bytes
        self.analysis = analysis_version(vocabulary)
        """The stamp records written now carry; a stored record with another is re-analysed."""
        self.duplicates = DuplicateGroups(store)
        """Groups CVs that are one CV ingested twice, in the transaction of each write."""

    # -- public operations ----------------------------------------------------------
    async def ingest_paths(
        self,
        paths: list[Path],
        tenant: str,
        document_type: DocumentType = DocumentType.CV,
        progress: ProgressCallback | None = None,
        *,
        document_id: str | None = None,
        replace: bool = False,
    ) -> list[IngestResult]:
        """Ingest files and folders in batches; unreadable files fail alone, the rest go on.

        ``document_id`` names the one file given (the caller's id); ``replace`` lets a
        file replace a different document stored under the id its name gives, where
        otherwise it would be stored beside it under a distinct id.
        """
        files = expand_paths(paths)
        if document_id is not None and len(files) != 1:
            raise InvalidInput(f"an id names one file; {len(files)} files were given")
        results: list[IngestResult] = []
        async with self._writing(tenant):
            owners: dict[str, tuple[str, str]] = {}
            for start in range(0, len(files), self.batch_size):
                batch = files[start : start + self.batch_size]
                sources, failures = await self._read_batch(batch, document_type, progress)
                if document_id is not None:
                    sources = [replace_fields(s, document_id=document_id) for s in sources]
                elif not replace:
                    sources, copies = await self._assign_ids(tenant, sources, owners)
                    failures += copies
                    if progress:
                        for _ in copies:
                            progress()
                results += failures + await self._ingest_batch(tenant, sources, progress)
            await self.after_bulk_write(sum(r.outcome in WRITTEN for r in results))
        return results

    async def after_bulk_write(self, written: int) -> None:
        """Refresh the planner's statistics once an ingest or a job has written
        ``STATISTICS_AFTER_DOCUMENTS`` documents or more (a no-op on the embedded store)."""
        if written >= STATISTICS_AFTER_DOCUMENTS:
            await self.store.refresh_statistics()

    async def ingest_documents(
        self, tenant: str, sources: list[SourceDocument], precondition: Precondition | None = None
    ) -> list[IngestResult]:
        """Ingest already-read documents (the HTTP API's path); durable when it returns.

        ``precondition`` sees the stored versions inside the writer lock and raises to
        refuse the write (``If-Match`` on PUT): no other write can come in between.
        """
        async with self._writing(tenant):
            return await self._ingest_batch(tenant, sources, precondition=precondition)

    async def delete(self, tenant: str, ids: list[str]) -> list[str]:
        """Remove documents from both stores; returns the ids that existed."""
        async with self._writing(tenant):
            existing = await self.store.stage_deletion(tenant, ids)
            if existing:
                writes = [w for w in await self.store.unfinished(tenant) if w.record.id in existing]
                await self._complete_or_undo(tenant, writes)
            return existing

    async def recover(self, tenant: str) -> int:
        """Complete (or, failing that, undo) unfinished writes; the server runs it at start-up."""
        async with self._writing(tenant, recover=False):
            return await self._recover(tenant)

    async def repair(self, tenant: str, *, drop: bool) -> list[str]:
        """Complete the tenant's unfinished writes, or with ``drop`` undo them.

        Dropping always clears the candidate store's unfinished rows, even when
        LightRAG cannot be cleaned (its leftovers are invisible: every answer is
        joined with the store's active rows). Returns the ids concerned.
        """
        async with self._writing(tenant, recover=False):
            unfinished = await self.store.unfinished(tenant)
            if not drop:
                await self._recover(tenant)
                return [w.record.id for w in unfinished]
            try:
                await self._undo_in_graph(tenant, unfinished)
            except Exception as exc:
                log.warning(
                    "LightRAG could not be cleaned while dropping %d writes (%s)",
                    len(unfinished),
                    type(exc).__name__,
                )
            await self.store.abandon(tenant, [w.record.id for w in unfinished])
            return [w.record.id for w in unfinished]

    async def refuse_to_overwrite(
        self, tenant: str, document_id: str, text: str, document_type: DocumentType
    ) -> None:
        """``Conflict`` when a different document is stored under the id a file's name gives.

        ATS exports name thousands of files ``CV.pdf``: an upload named only by its
        file name must not replace another person. The same document again is fine
        (it is simply unchanged).
        """
        stored = (await self.store.versions(tenant, [document_id])).get(document_id)
        if stored is not None and stored.content_hash != content_hash(text, document_type):
            raise Conflict(
                f"A different document is already stored as '{document_id}'. Send document_id "
                "(your ATS id) to store this one beside it, or replace=true to replace it."
            )

    # -- internals ------------------------------------------------------------------
    @asynccontextmanager
    async def _writing(self, tenant: str, *, recover: bool = True) -> AsyncIterator[None]:
        """The writer lock, LightRAG as the last writer left it, unfinished writes completed."""
        async with self.writer_lock.writing():
            await self.graph.refresh(tenant)
            await self.duplicates.refresh(tenant)
            with self.graph.writing(tenant):
                try:
                    if recover:
                        await self._recover(tenant)
                    yield
                finally:  # every commit inside was ours: LightRAG and the index hold it
                    with suppress(Exception):  # unreadable: the next search reloads
                        generation = await self.store.generation(tenant)
                        self.graph.committed(tenant, generation)
                        self.duplicates.committed(tenant, generation)

    async def _read_batch(
        self,
        files: list[Path],
        document_type: DocumentType,
        progress: ProgressCallback | None = None,
    ) -> tuple[list[SourceDocument], list[IngestResult]]:
        """Read the files in the worker pool (ids still the ones their names give).

        A file that cannot be read fails alone; so does one a reader bug trips on.
        """
        texts = await asyncio.gather(
            *(self.pool.read(path, self.max_document_bytes) for path in files),
            return_exceptions=True,
        )
        sources, failures = [], []
        for path, text in zip(files, texts, strict=True):
            document_id = document_id_for(path)
            if isinstance(text, BaseException):
                if isinstance(text, DocumentError):
                    reason = f"{text.reason}: {text}"
                elif isinstance(text, Exception):
                    log.warning("reading a file failed: %s", type(text).__name__)
                    reason = f"unreadable: {type(text).__name__} while reading the file"
                else:
                    raise text
                failures.append(IngestResult(str(path), Outcome.FAILED, document_id, reason))
                if progress:
                    progress()
                continue
            sources.append(
                SourceDocument(
                    text,
                    document_id,
                    path.name,
                    document_type,
                    origin=str(path),
                    location=str(path.resolve()),
                )
            )
        return sources, failures

    async def _assign_ids(
        self, tenant: str, sources: list[SourceDocument], owners: dict[str, tuple[str, str]]
    ) -> tuple[list[SourceDocument], list[IngestResult]]:
        """Each file keeps the id its name gives, unless a different document owns that id.

        The same file (same resolved path) or the same content keeps the id, so
        re-ingesting updates or skips; a different document whose name gives a taken id
        gets the id plus a short hash of its path, so two people's ``CV.pdf`` never
        replace each other. ``owners`` maps ids to (path, content hash) across the
        batches of one run; stored rows without a path (texts sent over HTTP, or stored
        before paths were kept) do not claim their id. A second copy of a document in
        the same run is skipped.
        """
        stored = await self.store.versions(tenant, sorted({s.document_id for s in sources}))
        assigned, copies = [], []
        for source in sources:
            location = source.location or ""
            digest = content_hash(source.text, source.document_type)
            in_run = owners.get(source.document_id)
            owner = in_run
            if owner is None and source.document_id in stored:
                version = stored[source.document_id]
                owner = (version.origin, version.content_hash) if version.origin else None
            if owner is not None and location != owner[0] and digest == owner[1] and in_run:
                reason = f"the same document as {in_run[0]}"
                copies.append(
                    IngestResult(source.origin, Outcome.SKIPPED, source.document_id, reason)
                )
                continue
            if owner is not None and location != owner[0] and digest != owner[1]:
                source = replace_fields(
                    source, document_id=distinct_id(source.document_id, location)
                )
            owners.setdefault(source.document_id, (location, digest))
            assigned.append(source)
        return assigned, copies

    async def _ingest_batch(
        self,
        tenant: str,
        sources: list[SourceDocument],
        progress: ProgressCallback | None = None,
        precondition: Precondition | None = None,
    ) -> list[IngestResult]:
        if not sources:
            return []
        versions = await self.store.versions(tenant, [s.document_id for s in sources])
        if precondition is not None:
            precondition(versions)
        results: list[IngestResult] = []
        analyzed: list[tuple[AnalyzedDocument, str, str]] = []
        documents = await asyncio.gather(*(self._analyze(source) for source in sources))
        for source, doc in zip(sources, documents, strict=True):
            if progress:
                progress()
            stored = versions.get(source.document_id)
            if (
                stored
                and stored.status is RowStatus.ACTIVE
                and stored.content_hash == doc.record.content_hash
                and stored.analysis == self.analysis
            ):
                results.append(
                    IngestResult(
                        source.origin or source.source_file,
                        Outcome.SKIPPED,
                        source.document_id,
                        "unchanged",
                    )
                )
                continue
            outcome = Outcome.UPDATED if stored else Outcome.INGESTED
            analyzed.append((doc, source.text, outcome))
        if analyzed:
            locations = {s.document_id: s.location for s in sources if s.location}
            names = {s.document_id: s.name for s in sources if s.name}
            groups = await self._write(
                tenant, [(d, text) for d, text, _ in analyzed], locations, names
            )
            origins = {s.document_id: s.origin or s.source_file for s in sources}
            results += [
                IngestResult(
                    origins[d.record.id],
                    Outcome(o),
                    d.record.id,
                    duplicate_of=_earlier(d.record.id, groups.get(d.record.id)),
                )
                for d, _, o in analyzed
            ]
        return results

    async def reindex(self, tenant: str, progress: ReindexProgress | None = None) -> ReindexReport:
        """Re-analyse every document not at the current analysis version, from its stored text.

        Batches of ``batch_size`` go through the same write as ingestion (each batch
        atomic in both stores, no hash check). A run that is killed leaves at most one
        batch pending, which the next write completes; the next run skips what is done.
        """
        async with self._writing(tenant):
            total = (await self.store.stale_counts(self.analysis)).get(tenant, 0)
            done, changed, failed = 0, 0, []
            after: str | None = None
            if progress:
                progress(done, total)
            log.info("re-analysing %d documents in tenant %s", total, tenant)
            while stored := await self.store.stale_documents(
                tenant, self.analysis, self.batch_size, after
            ):
                after = stored[-1].record.id
                batch_changed, batch_failed = await self._reanalyse_batch(tenant, stored)
                changed += batch_changed
                failed += batch_failed
                done += len(stored)
                if progress:
                    progress(done, max(total, done))
                log.info("re-analysed %d of %d documents in tenant %s", done, total, tenant)
        return ReindexReport(tenant, total, done - len(failed), changed, failed)

    async def copy_in(
        self, source: CandidateStore, tenant: str, progress: ReindexProgress | None = None
    ) -> CopyReport:
        """Write ``tenant``'s active documents from ``source`` here as they were stored:
        records, texts, stamps, given names, signatures and created_at; nothing is analysed.

        Documents here with the same content and stamp are skipped, so a run that stopped
        half-way is completed by the next; another document under one of the ids stops
        the copy before it writes anything (``CopyConflict``: nothing is overwritten).
        Batches are atomic in both stores, as in ingestion.
        """
        async with self._writing(tenant):
            total = (await source.document_counts()).get(tenant, 0)
            await self._refuse_conflicts(source, tenant)
            copied = done = 0
            after: str | None = None
            while page := await source.every_document(tenant, self.batch_size, after):
                after = page[-1].record.id
                here = await self.store.versions(tenant, [s.record.id for s in page])
                new = [s for s in page if s.record.id not in here]
                for analysis in dict.fromkeys(s.analysis for s in new):
                    await self._write_stored(tenant, [s for s in new if s.analysis == analysis])
                copied += len(new)
                done += len(page)
                if progress:
                    progress(done, max(total, done))
        return CopyReport(tenant, total, copied, done - copied)

    async def _refuse_conflicts(self, source: CandidateStore, tenant: str) -> None:
        """Raise ``CopyConflict`` if any source id is here with other content or stamp."""
        conflicts: list[str] = []
        after: str | None = None
        while page := await source.every_document(tenant, self.batch_size, after):
            after = page[-1].record.id
            here = await self.store.versions(tenant, [s.record.id for s in page])
            conflicts += [
                s.record.id
                for s in page
                if s.record.id in here
                and (here[s.record.id].content_hash, here[s.record.id].analysis)
                != (s.record.content_hash, s.analysis)
            ]
        if conflicts:
            shown = ", ".join(conflicts[:5]) + (" ..." if len(conflicts) > 5 else "")
            raise CopyConflict(
                f"tenant {tenant} already holds {len(conflicts)} other document(s) under the "
                f"ids being copied ({shown}); nothing was copied. Delete them there, or copy "
                "into an empty database"
            )

    async def _write_stored(self, tenant: str, stored: list[StoredText]) -> None:
        """Stage documents as ``stored`` keeps them (one stamp), write LightRAG, finish."""
        staged = await self.store.stage(
            tenant,
            [(s.record, s.text) for s in stored],
            {s.record.id: s.origin for s in stored if s.origin},
            analysis=stored[0].analysis,
            given_names={s.record.id: s.given_name for s in stored if s.given_name},
            signatures={s.record.id: s.signature for s in stored if s.signature},
        )
        await self._complete_or_undo(tenant, staged)

    async def stale_count(self, tenant: str) -> int:
        """Documents of the tenant whose records were made under another analysis version."""
        return (await self.store.stale_counts(self.analysis)).get(tenant, 0)

    async def _reanalyse_batch(
        self, tenant: str, stored: list[StoredText]
    ) -> tuple[int, list[IngestResult]]:
        """Analyse a page of stored documents and write them; (changed, failed)."""
        sources = [
            SourceDocument(
                clean_text(s.text),  # cleaning may have improved since it was stored
                s.record.id,
                s.record.source_file,
                s.record.document_type,
                name=s.given_name,
            )
            for s in stored
        ]
        analyzed = await asyncio.gather(
            *(self._analyze(source) for source in sources), return_exceptions=True
        )
        writes, failed, same = [], [], []
        signatures: dict[str, bytes | None] = {}
        for old, source, doc in zip(stored, sources, analyzed, strict=True):
            if isinstance(doc, Exception):  # an analyser bug: this document keeps its version
                log.warning("re-analysing a document failed: %s", type(doc).__name__)
                reason = f"analysis failed ({type(doc).__name__}); its previous version stays"
                failed.append(IngestResult(old.record.id, Outcome.FAILED, old.record.id, reason))
                continue
            if isinstance(doc, BaseException):
                raise doc
            if source.text == old.text and _same_record(doc.record, old.record):
                same.append(old)
                signatures[old.record.id] = doc.signature
            else:
                writes.append((doc, source.text))
        names = {s.record.id: s.given_name for s in stored if s.given_name}
        await self._write(tenant, writes, given_names=names)
        await self._restamp(tenant, [(old, signatures[old.record.id]) for old in same])
        return len(writes), failed

    async def _restamp(self, tenant: str, same: list[tuple[StoredText, bytes | None]]) -> None:
        """New stamps for records that came out equal, with their signatures and groups.

        Records stored before signatures existed get one here (their record is equal,
        so LightRAG is not rewritten) and join their duplicate group.
        """
        changes = [change_of(old.record.id, sig, old.record.created_at) for old, sig in same]
        groups = await self._regroup(tenant, changes)
        try:
            await self.store.restamp(
                tenant,
                [old.record.id for old, _ in same],
                self.analysis,
                signatures={old.record.id: sig for old, sig in same if sig},
                groups=groups,
            )
        except BaseException:
            self.duplicates.forget(tenant)
            raise

    async def _analyze(self, source: SourceDocument) -> AnalyzedDocument:
        return await self.pool.analyze(
            source.text,
            document_id=source.document_id,
            source_file=source.source_file,
            document_type=source.document_type,
            as_of=self.as_of or date.today(),
            name=source.name,
        )

    async def _write(
        self,
        tenant: str,
        documents: list[tuple[AnalyzedDocument, str]],
        locations: dict[str, str] | None = None,
        given_names: dict[str, str] | None = None,
    ) -> dict[str, str | None]:
        """Stage, write LightRAG, finish; a failure undoes the whole batch in both stores.

        Returns the duplicate groups the write set (see ``_complete_or_undo``).
        """
        if not documents:
            return {}
        staged = await self.store.stage(
            tenant,
            [(doc.record, text) for doc, text in documents],
            locations,
            analysis=self.analysis,
            given_names=given_names,
            signatures={doc.record.id: doc.signature for doc, _ in documents if doc.signature},
        )
        return await self._complete_or_undo(tenant, staged)

    async def _complete_or_undo(
        self, tenant: str, writes: list[UnfinishedWrite]
    ) -> dict[str, str | None]:
        """Finish staged writes; if LightRAG fails, restore the versions they replace.

        Re-raises the failure after the undo, so the caller reports it with nothing
        changed. When the undo fails too (LightRAG unreachable), the writes stay
        unfinished: start-up or the next write retries them, ``talentrag repair``
        drops them. The duplicate groups the writes change are stored by the same
        commit that finishes them (a failed write changes no group); returns them.
        """
        if not writes:
            return {}
        try:
            await self._redo_in_graph(tenant, writes)
        except Exception as failure:
            log.warning(
                "a write of %d documents failed (%s); undoing it",
                len(writes),
                type(failure).__name__,
            )
            try:
                await self._undo_in_graph(tenant, writes)
            except Exception as undo_failure:
                log.warning("undoing it failed too (%s)", type(undo_failure).__name__)
                raise UnfinishedWrites(tenant, [w.record.id for w in writes]) from failure
            await self.store.abandon(tenant, [w.record.id for w in writes])
            if isinstance(failure, TalentragError):
                raise
            raise WriteFailed(
                f"writing {len(writes)} document(s) failed ({type(failure).__name__}) and was "
                "undone; nothing changed"
            ) from failure
        groups = await self._regroup(tenant, [_change(w) for w in writes])
        try:
            await self.store.finish(tenant, [w.record.id for w in writes], groups)
        except BaseException:
            self.duplicates.forget(tenant)  # it holds a write that did not commit
            raise
        return groups

    async def _regroup(self, tenant: str, changes: list[Change]) -> dict[str, str | None]:
        """The duplicate groups the changes set; if grouping itself fails (logged), the
        changed CVs are written in no group.

        A grouping bug must not block writes: those CVs stay ungrouped until they are
        written again.
        """
        try:
            return await self.duplicates.regroup(tenant, changes)
        except Exception as exc:
            log.warning("grouping duplicates failed (%s); writing without", type(exc).__name__)
            self.duplicates.forget(tenant)
            return {change.id: None for change in changes}

    async def _redo_in_graph(self, tenant: str, writes: list[UnfinishedWrite]) -> None:
        """Every trace of these documents removed, new versions inserted, in slices.

        A failure in any slice is undone for the whole batch by ``_undo_in_graph``; the
        slices reach LightRAG's files together, once, after the last.
        """
        async with self.graph.batch(tenant):
            for first in range(0, len(writes), GRAPH_WRITE_DOCUMENTS):
                part = writes[first : first + GRAPH_WRITE_DOCUMENTS]
                pending = [
                    AnalyzedDocument(w.record, chunks_of(w.record, w.text))
                    for w in part
                    if w.status is RowStatus.PENDING
                ]
                await self.graph.write(tenant, await self._graph_write(tenant, part, pending))

    async def _undo_in_graph(self, tenant: str, writes: list[UnfinishedWrite]) -> None:
        """One LightRAG write: every trace removed, the versions before the writes re-inserted."""
        before = [_version_before(w) for w in writes]
        documents = [AnalyzedDocument(r, chunks_of(r, text)) for r, text in filter(None, before)]
        await self.graph.write(tenant, await self._graph_write(tenant, writes, documents))

    async def _graph_write(
        self, tenant: str, writes: list[UnfinishedWrite], documents: list[AnalyzedDocument]
    ) -> GraphWrite:
        """Remove the writes' documents (every chunk any of their versions had), insert ``documents``."""
        shared = {s.skill for d in documents for s in d.record.skills}
        shared |= {level_node(d.record.level.value) for d in documents if d.record.level}
        existing = await self.graph.existing_nodes(tenant, sorted(shared))
        kgs = [build_custom_kg(d.record, d.chunks, self.vocabulary, existing) for d in documents]
        chunk_ids = {c.chunk_id for w in writes for c in w.record.chunks}
        chunk_ids |= {c for w in writes for c in w.stale_chunk_ids}
        chunk_ids |= {c.chunk_id for w in writes if w.previous for c in w.previous[0].chunks}
        write = GraphWrite(
            remove_entities=[n for w in writes for n in document_nodes(w.record.id)],
            remove_chunk_ids=sorted(chunk_ids),
        )
        if kgs:
            write.kg = merge_kgs(kgs)
        return write

    async def _recover(self, tenant: str) -> int:
        unfinished = await self.store.unfinished(tenant)
        if not unfinished:
            return 0
        log.info("completing %d unfinished document writes in tenant %s", len(unfinished), tenant)
        try:
            await self._complete_or_undo(tenant, unfinished)
        except UnfinishedWrites:
            raise
        except Exception as exc:
            log.warning("unfinished writes could not be completed and were undone (%s)", exc)
        return len(unfinished)


class UnfinishedWrites(Unavailable):
    """Writes that could neither be completed nor undone (LightRAG unreachable)."""

    def __init__(self, tenant: str, ids: list[str]):
        shown = ", ".join(ids[:5]) + (" ..." if len(ids) > 5 else "")
        super().__init__(
            f"{len(ids)} write(s) in tenant {tenant} ({shown}) could not be completed or "
            "undone because the knowledge graph failed; they are retried at start-up and by the "
            "next write, and `talentrag repair --drop` undoes them"
        )
        self.ids = ids


def _change(write: UnfinishedWrite) -> Change:
    """What a staged write does to duplicate groups: a new signature, or a removal."""
    pending = write.status is RowStatus.PENDING
    return change_of(write.record.id, write.signature if pending else None, write.record.created_at)


def _earlier(document_id: str, group: str | None) -> str | None:
    """The earlier CV a written one repeats: its group's first member, unless it is that."""
    return group if group is not None and group != document_id else None


def _same_record(new: DocumentRecord, old: DocumentRecord) -> bool:
    """Equal records of equal texts: LightRAG would get exactly what it already holds."""
    ignore = {"tenant", "created_at", "updated_at"}
    return new.model_dump(exclude=ignore) == old.model_dump(exclude=ignore)


def _version_before(write: UnfinishedWrite) -> tuple[DocumentRecord, str] | None:
    """The version an unfinished write changes: the replaced one, or the one being deleted."""
    return write.previous if write.status is RowStatus.PENDING else (write.record, write.text)


def chunks_of(record: DocumentRecord, text: str) -> list[Chunk]:
    """Rebuild a record's chunks from its stored text (identical content, identical ids)."""
    return [
        Chunk(
            ref.order,
            ref.start,
            ref.end,
            chunk_content(record.source_file, text, ref.start, ref.end),
        )
        for ref in record.chunks
    ]
