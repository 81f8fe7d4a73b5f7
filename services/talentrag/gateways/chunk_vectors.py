"""LightRAG's chunk vector storage with writes left out: talentrag's retrieval never reads it.

talentrag queries in ``hybrid`` mode with ``kg_chunk_pick_method="WEIGHT"``: entities and
relations are found by their vectors, chunks are reached through them (LightRAG reads
chunk vectors only in ``mix`` and ``naive`` modes), and search takes evidence from the
candidate store anyway. Chunks were 28% of the MiniLM tokens embedded per CV (753 of
2,673; ``tests/benchmarks/embedded_text.py``). The chunk texts stay in LightRAG's
key-value store, and deletes still reach the storage, for vectors written before. A LightRAG Server pointed at the same
data answers in ``local``, ``global`` and ``hybrid`` modes; ``mix`` and ``naive`` find no
chunks by vector.

A wrapper on the instance rather than a storage subclass: the same for every backend,
and LightRAG's PostgreSQL client decides whether pgvector is needed from the vector
storage's registered name.
"""

from __future__ import annotations

from typing import Any


class ChunkVectorsNotWritten:
    """Stands in for ``rag.chunks_vdb``: ``upsert`` does nothing, the rest is the storage's."""

    def __init__(self, storage: Any):
        self._storage = storage

    async def upsert(self, data: dict[str, dict[str, Any]]) -> None:
        """Nothing is embedded or stored for chunks."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._storage, name)
