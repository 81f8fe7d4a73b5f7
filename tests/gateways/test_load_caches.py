"""Sidecars of LightRAG's file storages: a load from one gives exactly what parsing the
file gives, and a missing, stale or damaged sidecar means parsing the file.

Real LightRAG storages written by real ingestion (hashing embedder); the reference is
LightRAG's and nano-vectordb's own parse of the files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import pytest
from lightrag.base import DocStatus
from nano_vectordb import NanoVectorDB

from talentrag.gateways import load_caches, sidecars
from talentrag.gateways.load_caches import (
    SidecarNanoVectorDB,
    graph_as_read_back,
    load_graph,
    load_key_values,
    write_key_values,
)
from talentrag.runtime import KnowledgeBase
from tests.search.conftest import SAMPLE

GRAPH_FILE = "graph_chunk_entity_relation.graphml"
VECTOR_FILES = ("vdb_entities.json", "vdb_relationships.json")
CHUNKS_FILE = "kv_store_text_chunks.json"
ROOT = Path(__file__).parents[2]


def _workspace(kb: KnowledgeBase) -> Path:
    return kb.settings.data_dir / "lightrag" / "default"


def _parsed_graph(path: Path) -> nx.Graph:
    """LightRAG's own load of the GraphML file (no sidecar involved)."""
    graph: nx.Graph = nx.read_graphml(path)
    return graph


def _canonical(graph: nx.Graph) -> str:
    """Everything a reader of the graph can see, order included (repr: NaN-safe)."""
    return repr(
        (
            sorted(graph.graph.items()),
            [(n, list(d.items())) for n, d in graph.nodes(data=True)],
            [(n, [(m, list(d.items())) for m, d in graph.adj[n].items()]) for n in graph],
        )
    )


def _parsed_vectors(path: Path, dim: int) -> dict[str, Any]:
    """nano-vectordb's own load of the JSON file (load_storage, then normalised)."""
    storage: dict[str, Any] = NanoVectorDB(dim, storage_file=str(path))._NanoVectorDB__storage
    return storage


def _same_vectors(a: dict[str, Any], b: dict[str, Any]) -> bool:
    rest_a = {k: v for k, v in a.items() if k != "matrix"}
    rest_b = {k: v for k, v in b.items() if k != "matrix"}
    same_matrix = a["matrix"].dtype == b["matrix"].dtype and np.array_equal(
        a["matrix"], b["matrix"], equal_nan=True
    )
    return list(a) == list(b) and rest_a == rest_b and same_matrix


def _sidecar_vectors(path: Path, dim: int) -> dict[str, Any]:
    storage: dict[str, Any] = SidecarNanoVectorDB(
        dim, storage_file=str(path)
    )._NanoVectorDB__storage
    return storage


@pytest.fixture
async def written(kb: KnowledgeBase) -> KnowledgeBase:
    """A knowledge base with CVs written, then some deleted (a graph whose adjacency
    order differs from a parsed one's), so every sidecar was written from memory."""
    await kb.ingestor.ingest_paths([SAMPLE / "showcase", SAMPLE / "cvs"], "default")
    ids = [r.id for r in (await kb.store.list_documents("default"))[:3]]
    await kb.ingestor.delete("default", ids)
    return kb


async def test_sidecars_written_with_the_files_load_what_parsing_the_files_gives(
    written: KnowledgeBase,
) -> None:
    folder = _workspace(written)
    dim = written.embedder.dim
    graph_file = folder / GRAPH_FILE
    assert sidecars.sidecar_path(graph_file).is_file()
    live = (await written.graph.rag("default")).chunk_entity_relation_graph._graph
    parsed = _parsed_graph(graph_file)
    assert _canonical(live) != _canonical(parsed)  # the live order is not the file's
    assert _canonical(load_graph(str(graph_file))) == _canonical(parsed)
    for name in VECTOR_FILES:
        assert sidecars.read(folder / name, load_caches.VECTORS, load_caches._LIBRARIES)
        loaded = _sidecar_vectors(folder / name, dim)
        assert _same_vectors(loaded, _parsed_vectors(folder / name, dim)), name
    chunks = folder / CHUNKS_FILE
    assert sidecars.read(chunks, load_caches.KEY_VALUES, load_caches._LIBRARIES)
    assert load_key_values(str(chunks)) == json.loads(chunks.read_text("utf-8"))


async def test_a_workspace_opened_from_sidecars_answers_as_one_opened_from_the_files(
    written: KnowledgeBase,
) -> None:
    from lightrag import QueryParam

    query = ("Kubernetes engineers", QueryParam(mode="hybrid", ll_keywords=["Kubernetes"],
                                                hl_keywords=["has skill"], enable_rerank=False))  # fmt: skip
    folder = _workspace(written)
    await written.graph.close()
    for sidecar in folder.glob(f"*{sidecars.SUFFIX}"):
        sidecar.unlink()
    parsed = await (await written.graph.rag("default")).aquery_data(*query)  # writes sidecars
    made = {p.name: p.stat().st_ino for p in folder.glob(f"*{sidecars.SUFFIX}")}
    await written.graph.close()
    cached = await (await written.graph.rag("default")).aquery_data(*query)
    assert cached["data"] == parsed["data"] and parsed["data"]["entities"]
    assert len(made) == 5  # graph, three vector files, chunk texts: read, not rewritten
    assert made == {p.name: p.stat().st_ino for p in folder.glob(f"*{sidecars.SUFFIX}")}


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-100],  # cut short
        lambda data: data[:-10] + bytes(10),  # payload changed
        lambda data: b"{not json" + data[9:],  # header broken
        lambda data: b"",
    ],
    ids=["truncated", "flipped", "header", "empty"],
)
async def test_a_damaged_sidecar_means_parsing_the_file_and_writing_it_again(
    written: KnowledgeBase, damage: Any
) -> None:
    folder = _workspace(written)
    for name in (GRAPH_FILE, *VECTOR_FILES, CHUNKS_FILE):
        sidecar = sidecars.sidecar_path(folder / name)
        sidecar.write_bytes(damage(sidecar.read_bytes()))
    graph_file = folder / GRAPH_FILE
    assert _canonical(load_graph(str(graph_file))) == _canonical(_parsed_graph(graph_file))
    for name in VECTOR_FILES:
        loaded = _sidecar_vectors(folder / name, written.embedder.dim)
        assert _same_vectors(loaded, _parsed_vectors(folder / name, written.embedder.dim))
    chunks = folder / CHUNKS_FILE
    assert load_key_values(str(chunks)) == json.loads(chunks.read_text("utf-8"))
    assert sidecars.read(graph_file, load_caches.GRAPH, load_caches._LIBRARIES) is not None


async def test_a_missing_sidecar_is_made_by_the_next_load(written: KnowledgeBase) -> None:
    graph_file = _workspace(written) / GRAPH_FILE
    sidecars.sidecar_path(graph_file).unlink()
    assert _canonical(load_graph(str(graph_file))) == _canonical(_parsed_graph(graph_file))
    assert sidecars.sidecar_path(graph_file).is_file()


async def test_a_file_replaced_without_its_sidecar_is_read_from_the_file(
    written: KnowledgeBase,
) -> None:
    """Another writer (an older talentrag, a LightRAG Server) replaced the files and left
    the sidecars of the previous version."""
    folder = _workspace(written)
    graph_file = folder / GRAPH_FILE
    graph = _parsed_graph(graph_file)
    graph.add_node("Written elsewhere", entity_type="skill", description="new")
    nx.write_graphml(graph, str(graph_file) + ".new")
    os.replace(str(graph_file) + ".new", graph_file)
    assert "Written elsewhere" in load_graph(str(graph_file))

    vectors = folder / "vdb_entities.json"
    db = NanoVectorDB(written.embedder.dim, storage_file=str(vectors))
    db.upsert([{"__id__": "ent-elsewhere", "__vector__": np.ones(written.embedder.dim)}])
    db.save()  # in place, as nano-vectordb itself writes: a new size and mtime
    loaded = _sidecar_vectors(vectors, written.embedder.dim)
    assert "ent-elsewhere" in {row["__id__"] for row in loaded["data"]}

    chunks = folder / CHUNKS_FILE
    data = json.loads(chunks.read_text("utf-8")) | {"chunk-elsewhere": {"content": "new"}}
    chunks.write_text(json.dumps(data), "utf-8")  # in place
    assert load_key_values(str(chunks)) == data


async def test_another_process_write_is_read_after_a_refresh(
    written: KnowledgeBase, tmp_path: Path
) -> None:
    """A reader opened from sidecars; another process writes (files and sidecars); the
    reader's refresh reloads and sees the new document."""
    await written.graph.rag("default")
    cv = tmp_path / "late-cv.txt"
    cv.write_text(LATE_CV)
    other = textwrap.dedent(
        f"""
        import asyncio
        from pathlib import Path
        from talentrag.config import Settings
        from talentrag.embeddings import HashingEmbedder
        from talentrag.runtime import open_knowledge_base

        async def main():
            settings = Settings(data_dir=Path({str(written.settings.data_dir)!r}),
                                embedder="hashing", ingest_workers=0)
            async with open_knowledge_base(settings, embedder=HashingEmbedder(64)) as kb:
                await kb.ingestor.ingest_paths([Path({str(cv)!r})], "default")

        asyncio.run(main())
        """
    )
    env = os.environ | {"PYTHONPATH": f"{ROOT}:{ROOT / 'services'}"}
    subprocess.run([sys.executable, "-c", other], check=True, env=env, cwd=ROOT, timeout=120)
    assert await written.graph.refresh("default")
    found = await written.graph.existing_nodes("default", ["Candidate late-cv"])
    assert found == {"Candidate late-cv"}


LATE_CV = (
    "Jane Late\nSenior platform engineer\n\nExperience\n2015 - present: Platform engineer "
    "at Example. Kubernetes, Terraform and Go every day.\n"
)


def test_the_graph_as_read_back_is_what_graphml_gives_back(tmp_path: Path) -> None:
    graph = nx.Graph()
    for n in range(6):
        graph.add_node(f"n{n}", label=f"Node ✓ {n}", weight=n / 3, count=n, flag=n % 2 == 0)
    for a, b in [(5, 1), (0, 4), (3, 1), (4, 2), (1, 0), (2, 2), (5, 0)]:  # not in node order
        graph.add_edge(f"n{a}", f"n{b}", weight=a + b / 7, text=" tab\there <&> \n", n=a)
    graph.remove_node("n3")
    graph.add_node("late", text="x")
    graph.add_edge("late", "n0", weight=float("inf"))
    nx.write_graphml(graph, tmp_path / "g.graphml")
    expected = nx.read_graphml(tmp_path / "g.graphml")
    read_back = graph_as_read_back(graph)
    assert read_back is not None and _canonical(read_back) == _canonical(expected)
    assert _canonical(graph) != _canonical(expected)  # the order did change


@pytest.mark.parametrize(
    "change",
    [
        lambda g: g.add_node("a", text="line\r\nbreak"),
        lambda g: g.add_node("a", text=""),
        lambda g: g.add_node("a", value=None),
        lambda g: g.add_node("a", value=(1, 2)),
        lambda g: g.add_node(7),
        lambda g: g.add_node("tab\tname"),
        lambda g: g.graph.update(name="graph"),
    ],
)
def test_no_graph_is_predicted_where_graphml_might_change_a_value(change: Any) -> None:
    graph = nx.Graph()
    graph.add_edge("x", "y", weight=1.0)
    change(graph)
    assert graph_as_read_back(graph) is None


def test_vectors_json_would_change_get_no_sidecar_on_save(tmp_path: Path) -> None:
    path = tmp_path / "vdb.json"
    db = SidecarNanoVectorDB(4, storage_file=str(path))
    db.upsert([{"__id__": "a", "__vector__": np.arange(1.0, 5.0), "tags": ("x", "y")}])
    db.save()
    assert not sidecars.sidecar_path(path).exists()  # a tuple comes back a list
    loaded = _sidecar_vectors(path, 4)  # parsed, then a sidecar of what was parsed
    assert loaded["data"][0]["tags"] == ["x", "y"]
    assert sidecars.sidecar_path(path).exists()
    assert _same_vectors(_sidecar_vectors(path, 4), _parsed_vectors(path, 4))


def test_key_values_json_would_change_get_no_sidecar_on_write(tmp_path: Path) -> None:
    path = tmp_path / "kv.json"
    assert not write_key_values({"a": {"ids": ("x", "y")}}, str(path))
    assert not sidecars.sidecar_path(path).exists()
    assert load_key_values(str(path)) == {"a": {"ids": ["x", "y"]}}  # parsed
    status = DocStatus.PROCESSED  # a str enum in memory, its text in the file
    assert not write_key_values({"a": {"ids": ["x"], "n": 1.5, "s": status}}, str(path))
    cached = sidecars.read(path, load_caches.KEY_VALUES, load_caches._LIBRARIES)
    assert (
        cached
        == json.loads(path.read_text("utf-8"))
        == {"a": {"ids": ["x"], "n": 1.5, "s": "processed"}}
    )
    assert type(cached["a"]["s"]) is str
