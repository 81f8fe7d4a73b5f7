"""The systems search_by_skills is compared with, on the same corpus and queries.

- bm25: BM25 over each CV's full text (bm25s), query = the recruiter's skill strings.
- dense: the CV chunks embedded with the knowledge base's model and searched by cosine,
  each candidate ranked by its best chunk (talentrag itself embeds no chunks: its
  retrieval never reads them).
- lightrag: one raw ``aquery_data`` in hybrid mode with the same keywords and LightRAG's
  default budgets; candidates ranked in the order their entities, relations and chunks
  come back, no post-processing.
"""

from __future__ import annotations

from pathlib import Path

import bm25s
import numpy as np
from lightrag import QueryParam

from talentrag.ingestion.analyze import document_id_for
from talentrag.runtime import KnowledgeBase
from talentrag.search import SearchRequest
from talentrag.search.query import build_retrieval_query, resolve_skills
from tests.benchmarks.queries import Query

DEPTH = 50
CANDIDATE = "Candidate "


class BM25Baseline:
    def __init__(self, cv_dir: Path):
        paths = sorted(cv_dir.iterdir())
        self.ids = [document_id_for(p) for p in paths]
        self.retriever = bm25s.BM25()
        self.retriever.index(
            bm25s.tokenize([p.read_text() for p in paths], stopwords="en", show_progress=False),
            show_progress=False,
        )

    def rank(self, query: Query) -> list[str]:
        tokens = bm25s.tokenize(
            [" ".join(query.required + query.preferred)], stopwords="en", show_progress=False
        )
        results, _scores = self.retriever.retrieve(
            tokens, k=min(DEPTH, len(self.ids)), show_progress=False
        )
        return [self.ids[i] for i in results[0]]


def _ids_from_files(files: list[str], by_file: dict[str, str]) -> list[str]:
    ranked: list[str] = []
    for file_path in files:
        for name in file_path.split("<SEP>"):
            cid = by_file.get(name)
            if cid and cid not in ranked:
                ranked.append(cid)
    return ranked


class DenseBaseline:
    """Every chunk LightRAG keeps, embedded once with the knowledge base's model."""

    def __init__(self, files: list[str], vectors: np.ndarray):
        self.files = files
        self.vectors = vectors

    @classmethod
    async def build(cls, kb: KnowledgeBase, tenant: str) -> DenseBaseline:
        rag = await kb.graph.rag(tenant)
        chunks = list(rag.text_chunks._data.values())  # JsonKVStorage's loaded data
        files = [c.get("file_path", "") for c in chunks]
        vectors = [await kb.embedder.embed([c["content"] for c in chunks[i : i + 256]])
                   for i in range(0, len(chunks), 256)]  # fmt: skip
        return cls(files, np.vstack(vectors) if vectors else np.zeros((0, kb.embedder.dim)))

    async def rank(self, kb: KnowledgeBase, query: Query, by_file: dict[str, str]) -> list[str]:
        text = " ".join(query.required + query.preferred)
        scores = self.vectors @ (await kb.embedder.embed([text]))[0]
        best = np.argsort(-scores)[: DEPTH * 6]
        return _ids_from_files([self.files[i] for i in best], by_file)[:DEPTH]


async def raw_lightrag_rank(
    kb: KnowledgeBase, tenant: str, query: Query, by_file: dict[str, str]
) -> list[str]:
    request = SearchRequest(**query.request(DEPTH))
    skills = await resolve_skills(
        request.required_skills, request.preferred_skills, kb.normalizer, kb.search._implied_by
    )
    keywords = build_retrieval_query(skills, request.experience_level, DEPTH)
    rag = await kb.graph.rag(tenant)
    param = QueryParam(
        mode="hybrid",
        ll_keywords=keywords.ll_keywords,
        hl_keywords=keywords.hl_keywords,
        enable_rerank=False,
    )
    data = (await rag.aquery_data(keywords.query, param)).get("data") or {}
    ranked: list[str] = []

    def add(name: str) -> None:
        if name.startswith(CANDIDATE) and name[len(CANDIDATE) :] not in ranked:
            ranked.append(name[len(CANDIDATE) :])

    for entity in data.get("entities") or []:
        add(entity["entity_name"])
    for relation in data.get("relationships") or []:
        add(relation["src_id"])
        add(relation["tgt_id"])
    for cid in _ids_from_files([c.get("file_path", "") for c in data.get("chunks") or []], by_file):
        if cid not in ranked:
            ranked.append(cid)
    return ranked[:DEPTH]
