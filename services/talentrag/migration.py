"""`talentrag migrate --to postgresql://...`: an embedded data directory copied into a database.

Every tenant's documents are written again through the PostgreSQL backend's own write
path, as the data directory stored them (records, texts, stamps, names, signatures,
created_at; nothing re-analysed), and LightRAG gets each vector from the data
directory's vector files instead of the embedding model. Afterwards the counts are
compared (documents per tenant, and LightRAG's entities, relations and chunks) and the
database's planner statistics refreshed.

The data directory is only read, under its writer lock (no server may write it
meanwhile). A run that stops half-way is completed by the next; a database that
already holds other documents under the same ids is refused before anything is
written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from talentrag.config import Settings
from talentrag.embeddings import Embedder, build_embedder
from talentrag.errors import ConfigurationError, InvalidInput
from talentrag.gateways.lightrag_postgres import lightrag_environment
from talentrag.gateways.stored_vectors import StoredVectors
from talentrag.ingestion.pipeline import CopyReport
from talentrag.ingestion.writer_lock import WriterLock
from talentrag.runtime import WRITE_LOCK_FILE, check_manifest, open_knowledge_base
from talentrag.store import SQLiteCandidateStore

TenantProgress = Callable[[str], Callable[[int, int], None]]
"""Given a tenant, the callback its copy reports (documents done, documents to do) to."""


@dataclass(frozen=True)
class TenantCopy:
    """One tenant's copy and its check."""

    report: CopyReport
    documents_after: int
    """Active documents the database holds for the tenant after the copy."""
    graph_before: dict[str, int]
    """Entities and relations in the data directory's vector files, and its chunks."""
    graph_after: dict[str, int]
    """The same in the database's workspace after the copy."""

    @property
    def verified(self) -> bool:
        """Every document and every graph row arrived (and nothing else was there)."""
        return self.documents_after == self.report.total and self.graph_after == self.graph_before


@dataclass
class MigrationReport:
    """Every tenant's copy, and how many distinct vectors were read back rather than
    embedded (relations sharing a text share a vector)."""

    tenants: list[TenantCopy] = field(default_factory=list)
    vectors_reused: int = 0
    vectors_embedded: int = 0

    @property
    def verified(self) -> bool:
        """Every tenant's counts agree."""
        return all(t.verified for t in self.tenants)


async def migrate(
    settings: Settings, database_url: str, progress: TenantProgress | None = None
) -> MigrationReport:
    """Copy ``settings.data_dir`` into the database at ``database_url``."""
    lightrag_environment(database_url)  # a clear error for anything but postgresql://
    source_settings = settings.model_copy(update={"database_url": None})
    data_dir = source_settings.data_dir
    if not (data_dir / "candidates.sqlite3").is_file():
        raise InvalidInput(
            f"{data_dir} holds no talentrag data (no candidates.sqlite3); give the data "
            "directory to copy with --data-dir"
        )
    model = build_embedder(source_settings)
    check_manifest(data_dir, model)
    lock = WriterLock(data_dir / WRITE_LOCK_FILE)
    await lock.hold()  # raises Busy while a server or another command writes it
    source = SQLiteCandidateStore(data_dir / "candidates.sqlite3")
    await source.open()
    try:
        return await _copy_tenants(source, settings, database_url, model, progress)
    finally:
        await source.close()
        lock.release()


async def _copy_tenants(
    source: SQLiteCandidateStore,
    settings: Settings,
    database_url: str,
    model: Embedder,
    progress: TenantProgress | None,
) -> MigrationReport:
    unfinished = await source.tenants_with_unfinished()
    if unfinished:
        raise ConfigurationError(
            f"tenant(s) {', '.join(unfinished)} in {settings.data_dir} have unfinished writes; "
            "run `talentrag repair` on the data directory first"
        )
    counts = await source.document_counts()
    vectors = StoredVectors(model)
    report = MigrationReport()
    target = settings.model_copy(update={"database_url": database_url})
    async with open_knowledge_base(target, embedder=vectors) as kb:
        for tenant in counts:
            graph_before = vectors.load(settings.data_dir / "lightrag" / tenant)
            copy = await kb.ingestor.copy_in(source, tenant, progress(tenant) if progress else None)
            documents_after = (await kb.store.document_counts()).get(tenant, 0)
            graph_after = await kb.graph.sizes(tenant)
            report.tenants.append(TenantCopy(copy, documents_after, graph_before, graph_after))
        await kb.store.refresh_statistics()
    report.vectors_reused, report.vectors_embedded = vectors.reused, vectors.embedded
    return report
