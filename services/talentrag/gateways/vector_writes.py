"""What LightRAG embeds at ingestion: only what talentrag's retrieval reads, and each
distinct text once.

talentrag queries in ``hybrid`` mode with ``kg_chunk_pick_method="WEIGHT"``: entities and
relations are found by their vectors, chunks are reached through them (LightRAG reads
chunk vectors only in ``mix`` and ``naive`` modes), and search ranks from the candidate
store and takes its evidence from there. So:

- **Chunks get no vector.** They were 28% of the MiniLM tokens embedded per CV (753 of
  2,673; ``tests/benchmarks/embedded_text.py``). Their texts stay in LightRAG's key-value
  store, and deletes still reach the storage, for vectors written before.
- **A relation's vector is its keywords** ("has skill, Kubernetes, Containers"), not
  LightRAG's default of keywords, both ends and the whole description. The description
  (the evidence sentence) is still stored on the edge and read by retrieval; only the
  text behind the vector changes. Every holder of a skill then shares one text, which
  an embedding cache (``embeddings/cache.py``) embeds once: relations were 60% of the
  tokens left after chunks.

A LightRAG Server pointed at the same data answers in ``local``, ``global`` and
``hybrid`` modes (``mix`` and ``naive`` find no chunks by vector). Wrappers on the
instance rather than storage subclasses: the same for every backend, and LightRAG's
PostgreSQL client decides whether pgvector is needed from the vector storage's
registered name.
"""

from __future__ import annotations

from typing import Any


class _VectorStorageWrapper:
    """Everything but ``upsert`` is the wrapped storage's."""

    def __init__(self, storage: Any):
        self.storage = storage

    def __getattr__(self, name: str) -> Any:
        return getattr(self.storage, name)


def unwrapped(storage: Any) -> Any:
    """The LightRAG storage behind a wrapper here (the storage itself otherwise)."""
    return storage.storage if isinstance(storage, _VectorStorageWrapper) else storage


class ChunkVectorsNotWritten(_VectorStorageWrapper):
    """Stands in for ``rag.chunks_vdb``: ``upsert`` does nothing."""

    async def upsert(self, data: dict[str, dict[str, Any]]) -> None:
        """Nothing is embedded or stored for chunks."""


class RelationVectorsFromKeywords(_VectorStorageWrapper):
    """Stands in for ``rag.relationships_vdb``: each relation is embedded from its keywords."""

    async def upsert(self, data: dict[str, dict[str, Any]]) -> None:
        """Store the relations with ``content`` (the text embedded) set to their keywords
        (a relation without keywords keeps LightRAG's text)."""
        await self.storage.upsert(
            {
                key: relation | {"content": relation["keywords"]}
                if relation.get("keywords")
                else relation
                for key, relation in data.items()
            }
        )
