"""Ingestion into the real embedded LightRAG and the SQLite candidate store."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from talentrag.domain import DocumentType
from talentrag.graph_schema import document_node
from talentrag.ingestion.pipeline import Outcome, SourceDocument
from talentrag.runtime import KnowledgeBase, open_knowledge_base
from tests.conftest import AS_OF

FIXTURES = Path(__file__).parent.parent / "fixtures" / "corpus"
CVS = sorted(p for p in FIXTURES.iterdir() if not p.name.startswith("jd-"))
JD = FIXTURES / "jd-platform-engineer.md"


@pytest.fixture
def cv_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "cvs"
    folder.mkdir()
    for path in CVS:
        shutil.copy(path, folder / path.name)
    return folder


async def _candidate_edges(
    kb: KnowledgeBase, candidate_id: str, tenant: str = "default"
) -> set[str]:
    rag = await kb.graph.rag(tenant)
    graph = rag.chunk_entity_relation_graph
    node = document_node(DocumentType.CV, candidate_id)
    return {tgt if src == node else src for src, tgt in await graph.get_node_edges(node) or []}


async def _candidate_nodes(kb: KnowledgeBase, tenant: str = "default") -> list[str]:
    rag = await kb.graph.rag(tenant)
    nodes = await rag.chunk_entity_relation_graph.get_all_nodes()
    return sorted(n["id"] for n in nodes if n.get("entity_type") == "candidate")


async def test_ingest_writes_both_stores(kb: KnowledgeBase, cv_dir: Path):
    results = await kb.ingestor.ingest_paths([cv_dir], "default")
    assert [r.outcome for r in results] == [Outcome.INGESTED] * len(CVS)

    records = await kb.store.list_documents("default")
    assert [r.id for r in records] == [
        "jane-doe",
        "lena-fischer",
        "maria-santos",
        "omar-haddad",
        "tom-baker",
    ]
    jane = await kb.store.get("default", "jane-doe")
    assert jane.source_file == "jane-doe.md" and jane.name == "Jane Doe" and jane.level == "senior"
    assert {"Kubernetes", "AWS", "Helm", "Terraform", "Python"} <= set(jane.skill_names())
    assert {"Java", "Rust"}.isdisjoint(jane.skill_names())
    assert {r.skill: r.reason for r in jane.rejected} == {"Java": "negated", "Rust": "aspirational"}

    edges = await _candidate_edges(kb, "jane-doe")
    assert set(jane.skill_names()) <= edges
    assert "Senior level" in edges
    rag = await kb.graph.rag("default")
    chunk = await rag.text_chunks.get_by_id(jane.chunks[0].chunk_id)
    assert chunk["file_path"] == "jane-doe.md"
    assert chunk["content"].startswith(f"jane-doe.md [{jane.chunks[0].start}:{jane.chunks[0].end}]")


async def test_graph_answers_a_keyword_query_without_an_llm(kb: KnowledgeBase, cv_dir: Path):
    from lightrag import QueryParam

    await kb.ingestor.ingest_paths([cv_dir], "default")
    rag = await kb.graph.rag("default")
    result = await rag.aquery_data(
        "candidates with Kubernetes",
        QueryParam(
            mode="hybrid",
            ll_keywords=["Kubernetes"],
            hl_keywords=["Kubernetes skill"],
            enable_rerank=False,
        ),
    )
    assert result["status"] == "success"
    names = {e["entity_name"] for e in result["data"]["entities"]}
    assert "Kubernetes" in names


async def test_unchanged_files_are_skipped(kb: KnowledgeBase, cv_dir: Path):
    await kb.ingestor.ingest_paths([cv_dir], "default")
    again = await kb.ingestor.ingest_paths([cv_dir], "default")
    assert {r.outcome for r in again} == {Outcome.SKIPPED}
    assert await _candidate_nodes(kb) == sorted(
        document_node(DocumentType.CV, r.id) for r in await kb.store.list_documents("default")
    )


async def test_changed_file_replaces_the_old_version_everywhere(kb: KnowledgeBase, cv_dir: Path):
    await kb.ingestor.ingest_paths([cv_dir], "default")
    old = await kb.store.get("default", "jane-doe")
    path = cv_dir / "jane-doe.md"
    path.write_text(
        path.read_text()
        .replace("K8s, Docker, AWS", "Scala, Docker")
        .replace("EKS with Helm charts and ", "")
    )

    results = await kb.ingestor.ingest_paths([path], "default")
    assert [r.outcome for r in results] == [Outcome.UPDATED]
    new = await kb.store.get("default", "jane-doe")
    assert "Kubernetes" not in new.skill_names() and "Scala" in new.skill_names()
    assert new.created_at == old.created_at

    edges = await _candidate_edges(kb, "jane-doe")
    assert "Kubernetes" not in edges and "Scala" in edges
    assert edges - {"Senior level"} == set(new.skill_names())
    rag = await kb.graph.rag("default")
    gone = {c.chunk_id for c in old.chunks} - {c.chunk_id for c in new.chunks}
    assert gone and [await rag.text_chunks.get_by_id(c) for c in gone] == [None] * len(gone)
    assert len(await kb.store.list_documents("default")) == len(CVS)


async def test_delete_removes_from_both_stores(kb: KnowledgeBase, cv_dir: Path):
    await kb.ingestor.ingest_paths([cv_dir], "default")
    record = await kb.store.get("default", "omar-haddad")
    assert await kb.ingestor.delete("default", ["omar-haddad", "nobody"]) == ["omar-haddad"]
    assert await kb.store.get("default", "omar-haddad") is None
    assert await _candidate_edges(kb, "omar-haddad") == set()
    rag = await kb.graph.rag("default")
    assert [await rag.text_chunks.get_by_id(c.chunk_id) for c in record.chunks] == [None] * len(
        record.chunks
    )
    assert document_node(DocumentType.CV, "omar-haddad") not in await _candidate_nodes(kb)


async def test_job_descriptions_are_stored_but_never_candidates(kb: KnowledgeBase, cv_dir: Path):
    await kb.ingestor.ingest_paths([cv_dir], "default")
    results = await kb.ingestor.ingest_paths([JD], "default", DocumentType.JOB_DESCRIPTION)
    assert results[0].outcome is Outcome.INGESTED
    assert "jd-platform-engineer" not in {r.id for r in await kb.store.list_documents("default")}
    documents = await kb.store.list_documents("default", document_type=None)
    assert "jd-platform-engineer" in {r.id for r in documents}
    assert "jd-platform-engineer" not in await kb.store.profiles(
        "default", ["jd-platform-engineer"]
    )
    rag = await kb.graph.rag("default")
    node = await rag.chunk_entity_relation_graph.get_node(
        document_node(DocumentType.JOB_DESCRIPTION, "jd-platform-engineer")
    )
    assert node["entity_type"] == "job_description"


async def test_bad_files_are_reported_and_do_not_stop_the_batch(kb: KnowledgeBase, cv_dir: Path):
    (cv_dir / "empty.txt").write_text("")
    (cv_dir / "binary.txt").write_bytes(b"\x00\x01\x02 garbage \x00")
    (cv_dir / "photo.png").write_bytes(b"\x89PNG....")
    (cv_dir / "scan.pdf").write_bytes(b"%PDF-1.4 not really")
    results = {Path(r.source).name: r for r in await kb.ingestor.ingest_paths([cv_dir], "default")}
    assert results["empty.txt"].reason.startswith("empty")
    assert results["binary.txt"].reason.startswith("unreadable")
    assert results["photo.png"].reason.startswith("unsupported")
    assert results["scan.pdf"].reason.startswith("unreadable")
    assert sum(r.outcome is Outcome.INGESTED for r in results.values()) == len(CVS)


async def test_two_files_with_one_id_in_a_run(kb: KnowledgeBase, cv_dir: Path, tmp_path: Path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "tom-baker.md").write_text("Tommy Baker\nChef, 2012 - present. Skills: Food Safety.")
    shutil.copy(cv_dir / "jane-doe.md", other / "jane-doe.md")  # the same document, copied
    results = await kb.ingestor.ingest_paths([cv_dir, other], "default")
    assert not [r for r in results if r.outcome is Outcome.FAILED]
    ids = {r.document_id for r in results}
    assert "tom-baker" in ids and any(i.startswith("tom-baker-") for i in ids)  # two people
    assert not any(i.startswith("jane-doe-") for i in ids)  # one document, one id


async def test_documents_by_id_replace_each_other(kb: KnowledgeBase):
    text = (FIXTURES / "lena-fischer.md").read_text()
    source = SourceDocument(text, "ext-42", "lena.md")
    assert (await kb.ingestor.ingest_documents("default", [source]))[0].outcome is Outcome.INGESTED
    changed = SourceDocument(text.replace("React, TS", "React, Vue.js, TS"), "ext-42", "lena-v2.md")
    assert (await kb.ingestor.ingest_documents("default", [changed]))[0].outcome is Outcome.UPDATED
    record = await kb.store.get("default", "ext-42")
    assert record.source_file == "lena-v2.md" and "Vue.js" in record.skill_names()
    assert await _candidate_nodes(kb) == [document_node(DocumentType.CV, "ext-42")]


async def test_tenants_are_isolated(kb: KnowledgeBase, cv_dir: Path):
    await kb.ingestor.ingest_paths([cv_dir / "jane-doe.md"], "acme")
    await kb.ingestor.ingest_paths([cv_dir / "tom-baker.txt"], "globex")
    assert [r.id for r in await kb.store.list_documents("acme")] == ["jane-doe"]
    assert [r.id for r in await kb.store.list_documents("globex")] == ["tom-baker"]
    assert await _candidate_nodes(kb, "acme") == ["Candidate jane-doe"]
    assert await _candidate_nodes(kb, "globex") == ["Candidate tom-baker"]
    assert (kb.settings.data_dir / "lightrag" / "acme").is_dir()


async def test_data_survives_a_restart(settings, cv_dir: Path):
    from talentrag.embeddings import HashingEmbedder

    async with open_knowledge_base(settings, as_of=AS_OF, embedder=HashingEmbedder(64)) as kb:
        await kb.ingestor.ingest_paths([cv_dir], "default")
    async with open_knowledge_base(settings, as_of=AS_OF, embedder=HashingEmbedder(64)) as kb:
        assert len(await kb.store.list_documents("default")) == len(CVS)
        assert "Kubernetes" in await _candidate_edges(kb, "jane-doe")
        assert {r.outcome for r in await kb.ingestor.ingest_paths([cv_dir], "default")} == {
            Outcome.SKIPPED
        }
