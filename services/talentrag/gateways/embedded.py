"""LightRAG in-process: file storage under the data directory, one workspace per tenant.

No LLM is ever called: ingestion writes a custom knowledge graph and queries pass
keywords. Writes are batched because the file stores rewrite themselves whole on
every flush.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

import numpy as np

from talentrag.embeddings.base import Embedder
from talentrag.embeddings.cache import CachedEmbedder
from talentrag.errors import ConfigurationError
from talentrag.gateways.base import (
    GraphWrite,
    KnowledgeGraphGateway,
    Retrieval,
    RetrievalQuery,
)
from talentrag.gateways.payload import retrieval_from_payload
from talentrag.gateways.vector_writes import (
    ChunkVectorsNotWritten,
    RelationVectorsFromKeywords,
    unwrapped,
)

log = logging.getLogger(__name__)


def _quiet_lightrag() -> None:
    """LightRAG's import sets its loggers to INFO; keep them at WARNING (no CV text above debug)."""
    for name in ("lightrag", "nano-vectordb"):
        logging.getLogger(name).setLevel(logging.WARNING)


class NoLLMConfigured(ConfigurationError):
    """LightRAG tried to call an LLM; talentrag never configures one."""


async def _refuse_llm(*_args: Any, **_kwargs: Any) -> str:
    raise NoLLMConfigured("talentrag runs LightRAG without an LLM; pass query keywords")


class _FourByteTokenizer:
    """Offline, fast tokenizer for LightRAG's token budgets (tiktoken would download).

    One token per 4 bytes of UTF-8, the usual rule of thumb for BPE token counts.
    LightRAG only counts and truncates with it, but it re-tokenises every relation
    of every retrieved entity on each query (950 KB of text for a skill held by
    2,300 candidates), so encoding is one numpy call: 7 ms where splitting into
    words took 60 ms. ``decode`` drops a character cut in half at the end and the
    padding, so ``decode(encode(text)) == text``.
    """

    def encode(self, content: str) -> list[int]:
        data = content.encode("utf-8")
        data += b"\0" * (-len(data) % 4)
        tokens: list[int] = np.frombuffer(data, dtype="<u4").tolist()
        return tokens

    def decode(self, tokens: list[int]) -> str:
        data = np.asarray(tokens, dtype="<u4").tobytes()
        return data.decode("utf-8", errors="ignore").rstrip("\0")


_TOKENIZER = _FourByteTokenizer()


# LightRAG keeps its in-memory stores in process-global dicts keyed by workspace,
# not by working directory: two data directories open at once in one process would
# silently share (and overwrite) each other's data. Guard against that, and reset
# the shared state when the last instance closes so a re-open reads the files.
_OPEN_WORKSPACES: dict[str, Path] = {}


def _claim_workspace(tenant: str, working_dir: Path) -> None:
    owner = _OPEN_WORKSPACES.setdefault(tenant, working_dir.resolve())
    if owner != working_dir.resolve():
        raise RuntimeError(
            f"workspace {tenant!r} is already open from {owner}; LightRAG allows one data "
            "directory per workspace in a process"
        )


def _release_workspaces(tenants: list[str]) -> None:
    for tenant in tenants:
        _OPEN_WORKSPACES.pop(tenant, None)
    if not _OPEN_WORKSPACES:
        from lightrag.kg.shared_storage import finalize_share_data

        finalize_share_data()
        gc.unfreeze()  # what the closed instances leave behind may be collected again


class EmbeddedLightRAG(KnowledgeGraphGateway):
    """LightRAG in this process, one instance per tenant workspace; reads and writes the graph."""

    def __init__(
        self,
        working_dir: Path,
        embedder: Embedder,
        cosine_threshold: float = 0.2,
        storages: dict[str, str] | None = None,
        generation: Callable[[str], Awaitable[int]] | None = None,
        opening: Callable[[], AbstractAsyncContextManager[None]] = nullcontext,
    ):
        self.working_dir = working_dir
        self.embedder = embedder
        # What LightRAG embeds repeats (each skill's relation text, query keywords).
        self._cached_embedder = CachedEmbedder(embedder)
        self.cosine_threshold = cosine_threshold
        # kv_storage / vector_storage / graph_storage / doc_status_storage class names;
        # PostgreSQL ones read POSTGRES_* from the environment (LightRAG's convention).
        self.storages = storages or {}
        self._instances: dict[str, Any] = {}
        self._lock = asyncio.Lock()
        # Another process may write the same files (a CLI beside `talentrag mcp`): the
        # store's generation says when, and the files are then read again.
        self._generation = generation
        self._loaded_at: dict[str, int] = {}
        self._own_writes: set[str] = set()  # tenants this process is writing now
        self._batches: set[str] = set()  # tenants inside ``batch``: inserts do not flush
        self._users = 0
        self._idle = asyncio.Condition()
        self._open = asyncio.Event()  # cleared while a reload waits for operations in flight
        self._open.set()
        self._reload_lock = asyncio.Lock()
        # Held while a workspace opens: on PostgreSQL, the database's schema lock, since
        # LightRAG creates its tables then and replicas doing it at once collide.
        self._opening = opening
        _quiet_lightrag()

    async def rag(self, tenant: str) -> Any:
        """The LightRAG instance of a tenant's workspace, created on first use."""
        async with self._lock:
            if tenant not in self._instances:
                if self._generation is not None:  # read before the files: a later write reloads
                    self._loaded_at[tenant] = await self._generation(tenant)
                _claim_workspace(tenant, self.working_dir)
                try:
                    async with self._opening():
                        self._instances[tenant] = await self._create(tenant)
                except BaseException:
                    _release_workspaces([tenant])
                    raise
                # The loaded graph and vectors live as long as the process. Without this
                # every full collection re-scans their millions of objects: 300-500 ms
                # pauses in the middle of queries at 10K CVs.
                gc.freeze()
            return self._instances[tenant]

    async def _create(self, tenant: str) -> Any:
        from lightrag import LightRAG
        from lightrag.utils import EmbeddingFunc, Tokenizer

        _quiet_lightrag()
        self.working_dir.mkdir(parents=True, exist_ok=True)
        embedder = self._cached_embedder

        async def embed(texts: list[str], **_kwargs: Any) -> Any:
            # A plain function, because LightRAG deep-copies its config (and a bound
            # method would drag the ONNX session along).
            return await embedder.embed(texts)

        rag = LightRAG(
            working_dir=str(self.working_dir),
            workspace=tenant,
            embedding_func=EmbeddingFunc(
                embedding_dim=self.embedder.dim,
                func=embed,
                max_token_size=256,
                model_name=self.embedder.name,
            ),
            llm_model_func=_refuse_llm,
            tokenizer=Tokenizer("talentrag-4-bytes", _TOKENIZER),
            vector_db_storage_cls_kwargs={"cosine_better_than_threshold": self.cosine_threshold},
            enable_llm_cache=False,
            # One embedding call at a time with large batches: the local model already
            # uses every core, and concurrent ONNX runs only thrash them.
            embedding_batch_num=128,
            embedding_func_max_async=1,
            # "VECTOR" re-reads chunk vectors through nano-vectordb's linear scan on every
            # query (57% of aquery_data at 10K CVs); evidence comes from the store anyway.
            kg_chunk_pick_method="WEIGHT",
            **self._storage_classes(),
        )
        _quiet_lightrag()
        await rag.initialize_storages()
        # never read: not embedded; and relations embedded from their keywords alone
        rag.chunks_vdb = ChunkVectorsNotWritten(rag.chunks_vdb)
        rag.relationships_vdb = RelationVectorsFromKeywords(rag.relationships_vdb)
        return rag

    def _storage_classes(self) -> dict[str, str]:
        """The configured storages swapped for subclasses (same files, same tables).

        Their reads neither wait for a write's flush nor go one item at a time, and a
        hub gives retrieval its heaviest edges; see ``networkx_batched``,
        ``nano_vector_reads`` and ``pg_graph_bounded``. The file storages load from
        sidecars where they match their files (``load_caches``).
        """
        from talentrag.gateways import (
            load_caches,
            nano_vector_reads,
            networkx_batched,
            pg_graph_bounded,
        )

        storages = dict(self.storages)
        if storages.get("graph_storage", "NetworkXStorage") == "NetworkXStorage":
            storages["graph_storage"] = _register(networkx_batched)
            load_caches.install()
        if storages.get("graph_storage") == "PGTableGraphStorage":
            storages["graph_storage"] = _register(pg_graph_bounded)
        if storages.get("vector_storage", "NanoVectorDBStorage") == "NanoVectorDBStorage":
            storages["vector_storage"] = _register(nano_vector_reads)
            load_caches.install()
        return storages

    # -- other processes' writes ----------------------------------------------------
    async def refresh(self, tenant: str) -> bool:
        """Re-read the files if another process committed a write since they were loaded.

        LightRAG keeps each workspace in process-wide shared state, so every open
        workspace is closed (after the operations in flight) and reopened on use.
        """
        if self._generation is None or tenant in self._own_writes:
            return False
        async with self._reload_lock:
            loaded = self._loaded_at.get(tenant)
            if loaded is None or await self._generation(tenant) == loaded:
                return False
            log.info("another process wrote tenant %s: reloading LightRAG's files", tenant)
            self._open.clear()
            try:
                async with self._idle:
                    await self._idle.wait_for(lambda: self._users == 0)
                async with self._lock:
                    await self._close_instances()
            finally:
                self._open.set()
        return True

    def committed(self, tenant: str, generation: int) -> None:
        """This process's own write: the loaded state already matches ``generation``."""
        if tenant in self._loaded_at:
            self._loaded_at[tenant] = generation

    @contextmanager
    def writing(self, tenant: str) -> Iterator[None]:
        """This process writes the tenant (under the writer lock): no search reloads it.

        The store's generation moves with each of its commits, a moment before the
        writer records it with ``committed``; a search in between took it for another
        process's write and reloaded every file (a 14 s stall at 1,300 CVs).
        """
        self._own_writes.add(tenant)
        try:
            yield
        finally:
            self._own_writes.discard(tenant)

    @asynccontextmanager
    async def _in_use(self) -> AsyncIterator[None]:
        """Counts operations in flight, which a reload waits for (and new ones wait for it)."""
        await self._open.wait()
        self._users += 1
        try:
            yield
        finally:
            self._users -= 1
            if self._users == 0:
                async with self._idle:
                    self._idle.notify_all()

    async def existing_nodes(self, tenant: str, names: list[str]) -> set[str]:
        """The names among ``names`` already in the tenant's graph, in one batch read."""
        async with self._in_use():
            rag = await self.rag(tenant)
            graph = rag.chunk_entity_relation_graph
            return set(await graph.has_nodes_batch(names)) if names else set()

    # -- KnowledgeGraphGateway ----------------------------------------------------------
    async def retrieve(self, tenant: str, query: RetrievalQuery) -> Retrieval:
        """``aquery_data`` with the query's keywords, as a typed ``Retrieval``."""
        from lightrag import QueryParam

        async with self._in_use():
            rag = await self.rag(tenant)
            param = QueryParam(**query.params())
            return retrieval_from_payload(await rag.aquery_data(query.query, param))

    async def sizes(self, tenant: str) -> dict[str, int]:
        """Entities and relations the tenant's vector storages hold, and chunks its
        key-value storage holds (either backend): what a copy to another storage is
        checked by."""
        async with self._in_use():
            rag = await self.rag(tenant)
            stores = {
                "entities": rag.entities_vdb,
                "relations": rag.relationships_vdb,
                "chunks": rag.text_chunks,  # chunks have no vectors (``vector_writes``)
            }
            return {kind: await _size(store) for kind, store in stores.items()}

    async def ready(self, tenant: str) -> None:
        """Open the tenant's workspace; raises when its storages cannot load."""
        await self.rag(tenant)

    async def write(self, tenant: str, batch: GraphWrite) -> None:
        """Remove, insert, and persist every store once (at the end of a ``batch``)."""
        async with self._in_use():
            rag = await self.rag(tenant)
            await self._remove(rag, batch.remove_entities, batch.remove_chunk_ids)
            kg = batch.kg
            inserts = kg["chunks"] or kg["entities"] or kg["relationships"]
            if inserts and tenant in self._batches:
                await _insert_unflushed(rag, kg)
            elif inserts:
                await rag.ainsert_custom_kg(kg)  # persists all stores, removals included
            elif (batch.remove_entities or batch.remove_chunk_ids) and tenant not in self._batches:
                await self._persist(rag)

    @asynccontextmanager
    async def batch(self, tenant: str) -> AsyncIterator[None]:
        """Writes inside reach LightRAG's files once, when the block ends without error.

        Each insert ends by rewriting every storage file whole (and the load caches
        beside them): work that grows with the corpus, and GIL-bound JSON and pickle
        encoding on LightRAG's I/O thread that slows every search meanwhile. A batch
        written in slices pays it once. After an error nothing is flushed: the caller's
        undo writes, and flushes, the state to keep; after a crash the files are as
        before the batch, which recovery redoes from the store.
        """
        self._batches.add(tenant)
        try:
            yield
        finally:
            self._batches.discard(tenant)
        async with self._in_use():
            rag = await self.rag(tenant)
            await rag._insert_done_with_cleanup()  # what each insert would have run

    async def _remove(self, rag: Any, entities: list[str], chunk_ids: list[str]) -> None:
        from lightrag.utils import compute_mdhash_id, make_relation_vdb_ids

        graph = rag.chunk_entity_relation_graph
        present = sorted(set(await graph.has_nodes_batch(entities))) if entities else []
        relation_ids: list[str] = []
        for name in present:
            for src, tgt in await graph.get_node_edges(name) or []:
                relation_ids += make_relation_vdb_ids(src, tgt)
        if relation_ids:
            await rag.relationships_vdb.delete(relation_ids)
        if present:
            await rag.entities_vdb.delete([compute_mdhash_id(n, prefix="ent-") for n in present])
            await graph.remove_nodes(present)
        if chunk_ids:
            await rag.chunks_vdb.delete(chunk_ids)
            await rag.text_chunks.delete(chunk_ids)

    @staticmethod
    async def _persist(rag: Any) -> None:
        """Flush the stores a removal changes (an insert flushes them itself)."""
        stores = [
            rag.chunk_entity_relation_graph,
            rag.entities_vdb,
            rag.relationships_vdb,
            rag.chunks_vdb,
            rag.text_chunks,
        ]
        for store in stores:
            await store.index_done_callback()

    async def close(self) -> None:
        """Finalise every open workspace and free it for another data directory."""
        async with self._lock:
            await self._close_instances()

    async def _close_instances(self) -> None:
        for rag in self._instances.values():
            await rag.finalize_storages()
        if self._instances:
            _release_workspaces(list(self._instances))
        self._instances.clear()
        self._loaded_at.clear()


def _register(module: Any) -> str:
    """Make a storage subclass selectable by name, the way LightRAG selects its own.

    ``module`` defines the class ``NAME`` and the LightRAG storage ``KIND`` it is.
    """
    from lightrag.kg import STORAGE_ENV_REQUIREMENTS, STORAGE_IMPLEMENTATIONS, STORAGES

    implementations = STORAGE_IMPLEMENTATIONS[module.KIND]["implementations"]
    if module.NAME not in implementations:
        implementations.append(module.NAME)
    STORAGES[module.NAME] = module.__name__
    STORAGE_ENV_REQUIREMENTS[module.NAME] = []
    return str(module.NAME)


async def _size(store: Any) -> int:
    """Rows in one storage: a file storage's in-memory data, or the workspace's table rows."""
    from lightrag.kg.nano_vector_db_impl import NanoVectorDBStorage

    store = unwrapped(store)
    if isinstance(store, NanoVectorDBStorage):
        return len((await store.client_storage)["data"])
    if getattr(store, "db", None) is None:  # JsonKVStorage
        return len(store._data)
    from lightrag.kg.postgres_impl import namespace_to_table_name

    table = getattr(store, "table_name", None) or namespace_to_table_name(store.namespace)
    row = await store.db.query(
        f"SELECT COUNT(*) AS n FROM {table} WHERE workspace = $1", [store.workspace]
    )
    return int(row["n"]) if row else 0


async def _insert_unflushed(rag: Any, kg: dict[str, list[dict[str, Any]]]) -> None:
    """``ainsert_custom_kg`` without the flush it ends with (``batch`` flushes once)."""

    async def no_flush() -> None:
        return None

    rag._insert_done_with_cleanup = no_flush  # shadows the method for this call only
    try:
        await rag.ainsert_custom_kg(kg)
    finally:
        del rag._insert_done_with_cleanup
