"""Wiring: settings -> embedder, vocabulary, stores, LightRAG, ingestor, search.

``open_knowledge_base`` builds the components; adapters use them only through the
application layer (``talentrag.application``), never build them themselves.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from talentrag.config import Settings
from talentrag.embeddings import Embedder, build_embedder
from talentrag.errors import ConfigurationError
from talentrag.gateways.base import KnowledgeGraphGateway
from talentrag.gateways.embedded import EmbeddedLightRAG
from talentrag.gateways.lightrag_postgres import POSTGRES_STORAGES, configure_lightrag_postgres
from talentrag.gateways.remote import RemoteLightRAG
from talentrag.ingestion.jobs import IngestJobs
from talentrag.ingestion.pipeline import Ingestor
from talentrag.ingestion.workers import AnalysisPool
from talentrag.ingestion.writer_lock import AdvisoryWriterLock, WriterLock
from talentrag.search.engine import SearchService
from talentrag.store import CandidateStore, SQLiteCandidateStore
from talentrag.store.jobs import JobStore, SQLiteJobStore
from talentrag.vocabulary import SkillNormalizer, Vocabulary, load_vocabulary

WRITE_LOCK_FILE = ".write.lock"


@dataclass
class KnowledgeBase:
    """The opened components of one data directory."""

    settings: Settings
    vocabulary: Vocabulary
    embedder: Embedder
    store: CandidateStore
    graph: EmbeddedLightRAG
    ingestor: Ingestor
    pool: AnalysisPool
    jobs: IngestJobs
    normalizer: SkillNormalizer
    search: SearchService
    gateway: KnowledgeGraphGateway


class DataDirMismatch(ConfigurationError):
    """The data directory was built with another embedding model."""


def check_manifest(data_dir: Path, embedder: Embedder) -> None:
    """Bind a data directory to its embedding model; vectors of two models never mix."""
    manifest = data_dir / "manifest.json"
    expected = {"embedder": embedder.name, "dim": embedder.dim}
    if manifest.is_file():
        found = json.loads(manifest.read_text())
        if {k: found.get(k) for k in expected} != expected:
            raise DataDirMismatch(
                f"{data_dir} was built with embedder {found.get('embedder')} ({found.get('dim')} dims), "
                f"not {embedder.name} ({embedder.dim}); use that embedder or another --data-dir"
            )
        return
    manifest.write_text(json.dumps(expected, indent=2) + "\n")


def writer_lock(settings: Settings, store: CandidateStore | None = None) -> WriterLock:
    """One writer at a time: the data directory's lock file, or on PostgreSQL the
    database's advisory lock (taken through ``store``'s pool, any number of replicas)."""
    if settings.database_url and store is not None:
        from talentrag.store.postgres import PostgresCandidateStore

        if isinstance(store, PostgresCandidateStore):
            return AdvisoryWriterLock(lambda: store.pool)
    return WriterLock(settings.data_dir / WRITE_LOCK_FILE)


def storage_place(settings: Settings) -> str:
    """Where the knowledge base lives, for messages: the data directory or the database
    (its URL without the password)."""
    if settings.database_url:
        from talentrag.store.postgres import redacted

        return redacted(settings.database_url)
    return str(settings.data_dir)


def lightrag_storages(settings: Settings) -> dict[str, str]:
    """LightRAG storage class names: the settings', with ``database_url`` LightRAG's
    PostgreSQL storages wherever the settings keep the file default."""
    storages = {
        "kv_storage": settings.lightrag_kv_storage,
        "vector_storage": settings.lightrag_vector_storage,
        "graph_storage": settings.lightrag_graph_storage,
        "doc_status_storage": settings.lightrag_doc_status_storage,
    }
    if not settings.database_url:
        return storages
    fields = Settings.model_fields
    return {
        kind: POSTGRES_STORAGES[kind] if name == fields[f"lightrag_{kind}"].default else name
        for kind, name in storages.items()
    }


def candidate_store(settings: Settings) -> CandidateStore:
    """PostgreSQL when ``database_url`` is set, else SQLite in the data directory.

    The PostgreSQL module (and asyncpg) is imported only then: the embedded default
    does not pay for it at start-up.
    """
    if settings.database_url:
        from talentrag.store.postgres import PostgresCandidateStore

        return PostgresCandidateStore(settings.database_url)
    return SQLiteCandidateStore(settings.data_dir / "candidates.sqlite3")


def job_store(store: CandidateStore) -> JobStore:
    """The ingest-job store beside ``store``, in the same database (an opened store)."""
    if isinstance(store, SQLiteCandidateStore):
        return SQLiteJobStore(store.db)
    from talentrag.store.pg_jobs import PostgresJobStore
    from talentrag.store.postgres import PostgresCandidateStore

    if isinstance(store, PostgresCandidateStore):
        return PostgresJobStore(store.pool)
    raise ConfigurationError(f"no ingest-job store for {type(store).__name__}")


def _search_gateway(settings: Settings, embedded: EmbeddedLightRAG) -> KnowledgeGraphGateway:
    """Search goes to the LightRAG Server in remote mode; ingestion always writes the storage."""
    if settings.lightrag_mode == "embedded":
        return embedded
    return RemoteLightRAG(
        settings.lightrag_url,
        settings.lightrag_api_key,
        connect_timeout_s=settings.lightrag_connect_timeout_s,
        read_timeout_s=settings.lightrag_read_timeout_s,
        retries=settings.lightrag_retries,
    )


def _workspace_opening(
    settings: Settings, store: CandidateStore
) -> Callable[[], AbstractAsyncContextManager[None]]:
    """What a LightRAG workspace opens under: the database's schema lock on PostgreSQL
    (LightRAG creates its tables then, and replicas starting together must take turns),
    nothing in a data directory (one process writes it; and asyncpg, 0.1-0.2 s of a cold
    start, is not imported)."""
    if not settings.database_url:
        return nullcontext
    from talentrag.store.postgres import PostgresCandidateStore

    if isinstance(store, PostgresCandidateStore):
        return store.schema_lock
    return nullcontext


@asynccontextmanager
async def open_knowledge_base(
    settings: Settings, *, as_of: date | None = None, embedder: Embedder | None = None
) -> AsyncIterator[KnowledgeBase]:
    """Open every component of ``settings.data_dir``; close them all on exit."""
    data_dir = settings.data_dir
    data_dir.mkdir(parents=True, exist_ok=True)
    vocabulary = load_vocabulary(settings.vocabulary_path)
    embedder = embedder or build_embedder(settings)
    check_manifest(data_dir, embedder)
    store = candidate_store(settings)
    if settings.database_url:  # rows, not files: nothing to reload after another's write
        configure_lightrag_postgres(settings.database_url)
    graph = EmbeddedLightRAG(
        data_dir / "lightrag",
        embedder,
        storages=lightrag_storages(settings),
        generation=None if settings.database_url else store.generation,
        opening=_workspace_opening(settings, store),
    )
    await store.open()
    gateway: KnowledgeGraphGateway = graph
    pool = AnalysisPool(vocabulary, settings.vocabulary_path, settings.ingest_workers)
    try:
        ingestor = Ingestor(
            store,
            graph,
            vocabulary,
            writer_lock(settings, store),
            pool,
            batch_size=settings.ingest_batch_size,
            as_of=as_of,
            max_document_bytes=settings.max_upload_bytes,
        )
        jobs_kept = job_store(store)
        await jobs_kept.create_schema()
        jobs = IngestJobs(jobs_kept, ingestor, settings.max_upload_bytes)
        normalizer = SkillNormalizer(vocabulary, embedder, cache_dir=data_dir / "cache")
        gateway = _search_gateway(settings, graph)
        search = SearchService(
            gateway,
            store,
            normalizer,
            default_tenant=settings.tenant,
            blind_tenants=settings.blind_tenants,
            today=(lambda: as_of) if as_of else date.today,
        )
        yield KnowledgeBase(
            settings,
            vocabulary,
            embedder,
            store,
            graph,
            ingestor,
            pool,
            jobs,
            normalizer,
            search,
            gateway,
        )
    finally:
        pool.close()
        if gateway is not graph:
            await gateway.close()
        await graph.close()
        await store.close()
        await embedder.aclose()
