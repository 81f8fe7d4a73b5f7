"""The same knowledge base on both backends gives the same answers.

The hand-written development set is ingested twice through the real application: once
embedded (LightRAG's file storages, SQLite store) and once with ``database_url`` set
(LightRAG's PostgreSQL storages and our store on one real PostgreSQL with pgvector).
Every judged query must rank the same candidates in the same order, with the same
scores and labels.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from talentrag.application import open_service
from talentrag.config import Settings
from talentrag.embeddings import HashingEmbedder
from tests.conftest import create_database, drop_database
from tests.devset.score import ingest, query_request, tenant_of
from tests.devset.truth import AS_OF, DevSet, load_devset

Answers = dict[str, list[tuple[Any, ...]]]


async def _answers(settings: Settings, devset: DevSet) -> Answers:
    """Ingest the dev set with ``settings``; each query's ranked (id, score, labels)."""
    answers: Answers = {}
    async with open_service(settings, as_of=AS_OF, embedder=HashingEmbedder(64)) as service:
        await ingest(service, devset)
        for query in devset.queries:
            response = await service.search(query_request(query), tenant_of(query.annotator))
            answers[query.id] = [
                (
                    c.candidate_id,
                    round(c.match_score, 6),
                    tuple(c.matched_required_skills),
                    tuple(p.requested for p in c.partial_skills),
                    tuple(c.missing_skills),
                    c.experience_level,
                )
                for c in response.candidates
            ]
    return answers


def _settings(data_dir: Path, database_url: str | None = None) -> Settings:
    return Settings(
        data_dir=data_dir,
        database_url=database_url,
        embedder="hashing",
        ingest_batch_size=100,
        ingest_workers=0,
    )


@pytest.fixture(scope="module")
async def runs(
    tmp_path_factory: pytest.TempPathFactory, postgres_server: str
) -> AsyncIterator[dict[str, tuple[Path, Answers]]]:
    """Each backend's data directory and answers."""
    devset = load_devset()
    url = await create_database(postgres_server)
    kept = {k: v for k, v in os.environ.items() if k.startswith("POSTGRES_")}
    try:
        embedded_dir = tmp_path_factory.mktemp("backend-embedded")
        postgres_dir = tmp_path_factory.mktemp("backend-pg")
        yield {
            "embedded": (embedded_dir, await _answers(_settings(embedded_dir), devset)),
            "postgres": (postgres_dir, await _answers(_settings(postgres_dir, url), devset)),
        }
    finally:
        for name in [k for k in os.environ if k.startswith("POSTGRES_")]:
            del os.environ[name]
        os.environ.update(kept)
        await drop_database(postgres_server, url)


def test_postgres_ranks_every_query_as_the_embedded_default(
    runs: dict[str, tuple[Path, Answers]],
) -> None:
    embedded, postgres = runs["embedded"][1], runs["postgres"][1]
    assert sum(bool(a) for a in embedded.values()) >= len(embedded) - 2  # real answers
    different = {q: (embedded[q], postgres[q]) for q in embedded if embedded[q] != postgres[q]}
    assert not different


def test_postgres_holds_lightrag_and_the_store(runs: dict[str, tuple[Path, Answers]]) -> None:
    """Nothing of the PostgreSQL run went to files: LightRAG's graph and vectors and the
    SQLite store exist only in the embedded run's data directory."""
    embedded, postgres = runs["embedded"][0], runs["postgres"][0]
    assert (embedded / "candidates.sqlite3").exists()
    assert list((embedded / "lightrag").rglob("*.graphml"))
    assert not (postgres / "candidates.sqlite3").exists()
    assert not list(postgres.rglob("*.graphml"))
    assert not list(postgres.rglob("vdb_*.json"))
