"""The embedded gateway's LightRAG plumbing: batched graph reads and the tokenizer."""

from __future__ import annotations

import networkx
from lightrag.base import BaseGraphStorage

from talentrag.domain import DocumentType
from talentrag.gateways.embedded import _TOKENIZER
from talentrag.gateways.networkx_batched import BatchedNetworkXStorage
from talentrag.graph_schema import document_node
from talentrag.ingestion.pipeline import Outcome
from talentrag.policy.limits import GRAPH_WRITE_DOCUMENTS
from talentrag.runtime import KnowledgeBase
from tests.search.conftest import SAMPLE

SHOWCASE = SAMPLE / "showcase"


def test_tokenizer_round_trips_and_truncates_on_character_boundaries():
    for text in ["", "a", "Kubernetes (K8s), EKS", "Zoë ✓ 東京 naïve", "x" * 1001]:
        assert _TOKENIZER.decode(_TOKENIZER.encode(text)) == text
    tokens = _TOKENIZER.encode("ab✓cd")  # ✓ is 3 bytes: "ab✓" splits at byte 4
    assert len(tokens) == 2 and _TOKENIZER.decode(tokens[:1]) == "ab"
    assert len(_TOKENIZER.encode("four")) == 1


async def test_batched_reads_answer_like_lightrags_one_at_a_time_reads(kb: KnowledgeBase):
    await kb.ingestor.ingest_paths([SHOWCASE], "default")
    graph = (await kb.graph.rag("default")).chunk_entity_relation_graph
    assert isinstance(graph, BatchedNetworkXStorage)
    nodes = ["Kubernetes", "AWS", "Python", "No Such Node"]
    edges = [e for n in nodes for e in (await graph.get_node_edges(n) or [])]
    pairs = [*({"src": s, "tgt": t} for s, t in edges), {"src": "AWS", "tgt": "No Such Node"}]
    assert edges
    for method, argument in [
        ("get_nodes_batch", nodes),
        ("node_degrees_batch", nodes),
        ("get_nodes_edges_batch", nodes),
        ("edge_degrees_batch", [*edges, ("AWS", "No Such Node")]),
        ("get_edges_batch", pairs),
    ]:
        batched = await getattr(graph, method)(argument)
        one_by_one = await getattr(BaseGraphStorage, method)(graph, argument)
        assert batched == one_by_one, method


async def test_refresh_reloads_for_another_process_but_never_during_its_own_write(
    kb: KnowledgeBase,
):
    await kb.ingestor.ingest_paths([SHOWCASE], "default")
    rag = await kb.graph.rag("default")
    ids = ["no-such-document"]
    with kb.graph.writing("default"):  # the store commits before the writer records it
        await kb.store.finish("default", ids)
        assert not await kb.graph.refresh("default")
        assert await kb.graph.rag("default") is rag
    kb.graph.committed("default", await kb.store.generation("default"))
    assert not await kb.graph.refresh("default")

    await kb.store.finish("default", ids)  # as another process's commit looks from here
    assert await kb.graph.refresh("default")
    assert await kb.graph.rag("default") is not rag


async def test_a_batch_written_in_slices_reaches_the_files_once(kb: KnowledgeBase):
    """LightRAG rewrites every storage file whole on each flush; the slices of one
    ingest batch flush once, after the last, and the files then hold every slice."""
    files = sorted((SAMPLE / "cvs").iterdir())[: GRAPH_WRITE_DOCUMENTS + 10]
    rag = await kb.graph.rag("default")
    graph = rag.chunk_entity_relation_graph
    flushes = 0
    flush = graph.index_done_callback

    async def counted() -> bool:
        nonlocal flushes
        flushes += 1
        return await flush()

    graph.index_done_callback = counted
    kb.ingestor.batch_size = len(files)  # one batch, two slices
    results = await kb.ingestor.ingest_paths(files, "default")
    assert {result.outcome for result in results} == {Outcome.INGESTED}
    assert flushes == 1

    written = networkx.read_graphml(graph._graphml_xml_file)
    assert {document_node(DocumentType.CV, path.stem) for path in files} <= set(written.nodes)
