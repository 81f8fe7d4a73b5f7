"""A write that fails is undone in both stores and leaves the tenant writable.

The failure is injected in front of the real embedded LightRAG (the error path is
the subject); everything else is the real pipeline, store and graph.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from talentrag.domain import DocumentType
from talentrag.errors import WriteFailed
from talentrag.gateways.base import GraphWrite
from talentrag.graph_schema import document_node, level_node
from talentrag.ingestion.pipeline import SourceDocument, UnfinishedWrites
from talentrag.runtime import KnowledgeBase

FIRST = "Ada Lovelace\nSkills: Python, Kubernetes.\nSoftware Engineer, Jan 2015 - Present\n"
SECOND = "Ada Lovelace\nSkills: Rust, Terraform.\nSoftware Engineer, Jan 2015 - Present\n"


class FailingWrites:
    """Fails the next ``failures`` LightRAG writes before they reach the real graph."""

    def __init__(self, kb: KnowledgeBase):
        self.failures = 0
        self._write: Callable[[str, GraphWrite], Awaitable[None]] = kb.graph.write
        kb.ingestor.graph.write = self.write  # type: ignore[method-assign]

    async def write(self, tenant: str, write: GraphWrite) -> None:
        if self.failures:
            self.failures -= 1
            # a half-applied write: the removal happens, then the insert breaks
            await self._write(tenant, GraphWrite(remove_entities=write.remove_entities))
            raise ValueError("the graph refused the write")
        await self._write(tenant, write)


def _source(text: str, document_id: str = "ada") -> SourceDocument:
    return SourceDocument(text, document_id, f"{document_id}.txt")


async def _graph_skills(kb: KnowledgeBase, document_id: str = "ada") -> set[str]:
    rag = await kb.graph.rag("default")
    node = document_node(DocumentType.CV, document_id)
    edges = await rag.chunk_entity_relation_graph.get_node_edges(node) or []
    return {t if s == node else s for s, t in edges}


async def test_a_failed_replacement_restores_the_previous_version(kb: KnowledgeBase):
    await kb.ingestor.ingest_documents("default", [_source(FIRST)])
    before = await kb.store.get("default", "ada")
    faults = FailingWrites(kb)
    faults.failures = 1

    with pytest.raises(WriteFailed, match="undone; nothing changed"):
        await kb.ingestor.ingest_documents("default", [_source(SECOND)])

    after = await kb.store.get("default", "ada")
    assert after is not None and after.content_hash == before.content_hash
    assert (await kb.store.summary("default")).unfinished == []
    assert await _graph_skills(kb) == set(before.skill_names()) | {level_node(before.level.value)}

    # the tenant stays writable: the same replacement now succeeds
    await kb.ingestor.ingest_documents("default", [_source(SECOND)])
    assert {"Rust", "Terraform"} <= set((await kb.store.get("default", "ada")).skill_names())


async def test_a_failed_new_document_leaves_no_trace(kb: KnowledgeBase):
    FailingWrites(kb).failures = 1
    with pytest.raises(WriteFailed):
        await kb.ingestor.ingest_documents("default", [_source(FIRST)])
    assert await kb.store.get("default", "ada") is None
    assert await kb.store.versions("default", ["ada"]) == {}
    assert await _graph_skills(kb) == set()


async def test_a_failed_deletion_keeps_the_candidate_whole(kb: KnowledgeBase):
    await kb.ingestor.ingest_documents("default", [_source(FIRST)])
    FailingWrites(kb).failures = 1
    with pytest.raises(WriteFailed):
        await kb.ingestor.delete("default", ["ada"])
    record = await kb.store.get("default", "ada")
    assert record is not None
    assert await _graph_skills(kb) == set(record.skill_names()) | {level_node(record.level.value)}


async def test_a_write_that_cannot_be_undone_is_reported_and_repair_drops_it(kb: KnowledgeBase):
    await kb.ingestor.ingest_documents("default", [_source(FIRST)])
    faults = FailingWrites(kb)
    faults.failures = 2  # the write and its undo

    with pytest.raises(UnfinishedWrites, match="talentrag repair --drop"):
        await kb.ingestor.ingest_documents("default", [_source(SECOND)])
    assert (await kb.store.summary("default")).unfinished == ["ada"]
    assert await kb.store.get("default", "ada") is None  # readers never see a pending row

    assert await kb.ingestor.repair("default", drop=True) == ["ada"]
    restored = await kb.store.get("default", "ada")
    assert restored is not None and "Kubernetes" in restored.skill_names()
    assert (await kb.store.summary("default")).unfinished == []
    assert "Kubernetes" in await _graph_skills(kb)


async def test_repair_completes_unfinished_writes_when_the_graph_is_back(kb: KnowledgeBase):
    await kb.ingestor.ingest_documents("default", [_source(FIRST)])
    FailingWrites(kb).failures = 2
    with pytest.raises(UnfinishedWrites):
        await kb.ingestor.ingest_documents("default", [_source(SECOND)])

    assert await kb.ingestor.repair("default", drop=False) == ["ada"]
    record = await kb.store.get("default", "ada")
    assert record is not None and "Rust" in record.skill_names()
    assert "Rust" in await _graph_skills(kb)
