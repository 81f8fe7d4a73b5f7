"""A hub's edges: LightRAG's retrieval reads the heaviest few.

Real LightRAG on both backends (file storage and PostgreSQL) with a skill held by more
candidates than ``HUB_EDGES_FOR_RETRIEVAL``.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from lightrag import QueryParam

from talentrag.config import Settings
from talentrag.gateways.base import GraphWrite, RetrievalQuery
from talentrag.policy.limits import HUB_EDGES_FOR_RETRIEVAL
from talentrag.runtime import KnowledgeBase, open_knowledge_base
from tests.benchmarks.hub_edges import hub_kg, hub_weight
from tests.conftest import AS_OF, create_database, drop_database
from tests.support.embedders import RecordingEmbedder

HOLDERS = HUB_EDGES_FOR_RETRIEVAL + 50


@pytest.fixture(params=["embedded", "postgres"])
async def hub_kb(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[KnowledgeBase]:
    server = request.getfixturevalue("postgres_server") if request.param == "postgres" else None
    database_url = await create_database(server) if server else None
    kept = {k: v for k, v in os.environ.items() if k.startswith("POSTGRES_")}
    settings = Settings(data_dir=tmp_path / "kb", database_url=database_url, embedder="hashing")
    try:
        async with open_knowledge_base(settings, as_of=AS_OF, embedder=RecordingEmbedder()) as kb:
            await kb.graph.write("default", GraphWrite(kg=hub_kg(HOLDERS)))
            yield kb
    finally:
        for name in [k for k in os.environ if k.startswith("POSTGRES_")]:
            del os.environ[name]
        os.environ.update(kept)
        if server and database_url:
            await drop_database(server, database_url)


async def test_retrieval_reads_the_heaviest_edges(
    hub_kb: KnowledgeBase,
) -> None:
    graph = (await hub_kb.graph.rag("default")).chunk_entity_relation_graph
    assert type(graph).__name__ in {"BatchedNetworkXStorage", "BoundedPGTableGraphStorage"}

    bounded = (await graph.get_nodes_edges_batch(["Python", "No Such Node"]))["Python"]
    assert len(bounded) == HUB_EDGES_FOR_RETRIEVAL
    kept = {int(other.removeprefix("Candidate h")) for _node, other in bounded}
    left_out = set(range(HOLDERS)) - kept
    assert min(hub_weight(i) for i in kept) >= max(hub_weight(i) for i in left_out)

    retrieval = await hub_kb.graph.retrieve(
        "default",
        RetrievalQuery(query="Python developer", ll_keywords=["Python"], hl_keywords=["Python"]),
    )
    assert any(e.name == "Python" for e in retrieval.entities)


async def test_edge_and_degree_look_ups_answer_as_lightrags_own(hub_kb: KnowledgeBase) -> None:
    """The PostgreSQL subclass's statistics-proof look-ups give what LightRAG's queries give
    (either order of a pair; absent pairs and nodes left out or counted 0)."""
    graph = (await hub_kb.graph.rag("default")).chunk_entity_relation_graph
    if type(graph).__name__ != "BoundedPGTableGraphStorage":
        pytest.skip("the file graph keeps LightRAG's own look-ups")
    lightrags = type(graph).__mro__[1]
    pairs = [
        {"src": "Python", "tgt": "Candidate h1"},
        {"src": "Candidate h2", "tgt": "Python"},
        {"src": "Python", "tgt": "No Such Node"},
    ]
    ours = await graph.get_edges_batch(pairs)
    assert set(ours) == {("Python", "Candidate h1"), ("Candidate h2", "Python")}
    assert ours == await lightrags.get_edges_batch(graph, pairs)
    nodes = ["Python", "Candidate h3", "No Such Node", "Python"]
    degrees = await graph.node_degrees_batch(nodes)
    assert degrees == await lightrags.node_degrees_batch(graph, nodes)
    assert degrees["Python"] == HOLDERS
    assert degrees["No Such Node"] == 0


async def test_a_hubs_heaviest_edges_are_read_off_an_index(hub_kb: KnowledgeBase) -> None:
    """PostgreSQL reads a hub's LIMIT heaviest edges per direction off the weight indexes
    instead of every edge (the plan, not a timing: on a table this small the planner would
    rather sort, so sequential scans and sorts are priced out, as on a large table)."""
    graph = (await hub_kb.graph.rag("default")).chunk_entity_relation_graph
    if type(graph).__name__ != "BoundedPGTableGraphStorage":
        pytest.skip("the file graph reads its adjacency in memory")
    from talentrag.gateways.pg_graph_bounded import _BOUNDED_EDGES

    connection = await asyncpg.connect(hub_kb.settings.database_url)
    try:
        names = {r["indexname"] for r in await connection.fetch(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'lightrag_graph_edges'"
        )}  # fmt: skip
        assert {"talentrag_graph_edges_src_weight", "talentrag_graph_edges_tgt_weight"} <= names
        await connection.execute("SET enable_seqscan = off; SET enable_sort = off")
        plan = await connection.fetch(
            "EXPLAIN " + _BOUNDED_EDGES,
            graph.workspace, graph.namespace, ["Python"], HUB_EDGES_FOR_RETRIEVAL,
        )  # fmt: skip
    finally:
        await connection.close()
    text = "\n".join(row[0] for row in plan)
    assert "talentrag_graph_edges_src_weight" in text
    assert "talentrag_graph_edges_tgt_weight" in text


async def test_chunks_are_kept_as_text_without_vectors(hub_kb: KnowledgeBase) -> None:
    """Retrieval never reads chunk vectors (hybrid mode, chunks picked by weight): none are
    embedded, the chunk text stays, and retrieval works as before."""
    rag = await hub_kb.graph.rag("default")
    sizes = await hub_kb.graph.sizes("default")
    assert sizes == {"entities": HOLDERS + 1, "relations": HOLDERS, "chunks": 1}
    assert await rag.chunks_vdb.query("Python everywhere.", top_k=5) == []
    retrieval = await hub_kb.graph.retrieve(
        "default",
        RetrievalQuery(query="Python developer", ll_keywords=["Python"], hl_keywords=["Python"]),
    )
    assert any(e.name == "Python" for e in retrieval.entities)


async def test_relations_are_embedded_from_their_keywords_once_per_distinct_text(
    hub_kb: KnowledgeBase,
) -> None:
    """Every holder's relation is embedded from its keywords, which all holders share: the
    model sees each entity once and the one keywords text once, not a text per holder."""
    assert isinstance(hub_kb.graph.embedder, RecordingEmbedder)
    embedded = hub_kb.graph.embedder.texts
    assert "has skill" in embedded
    assert len(embedded) == len(set(embedded)) == HOLDERS + 1 + 1  # entities + keywords
    assert not any("wrote Python services" in text for text in embedded)
    rag = await hub_kb.graph.rag("default")
    answer = await rag.aquery_data(
        "has skill", QueryParam(mode="global", hl_keywords=["has skill"], ll_keywords=[])
    )
    relations = answer["data"]["relationships"]
    assert relations  # found by the keywords' vector, their description intact
    assert all("wrote Python services" in r["description"] for r in relations)
