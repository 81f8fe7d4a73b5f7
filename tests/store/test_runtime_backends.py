"""The knowledge base on each candidate store: ``TALENTRAG_DATABASE_URL`` puts the store on
PostgreSQL, and the same corpus gives the same answers as on SQLite."""

from __future__ import annotations

from pathlib import Path

from talentrag.config import Settings
from talentrag.domain import DocumentType
from talentrag.embeddings import HashingEmbedder
from talentrag.runtime import open_knowledge_base
from talentrag.search import SearchRequest
from talentrag.store import SQLiteCandidateStore
from talentrag.store.postgres import PostgresCandidateStore
from tests.conftest import AS_OF

SAMPLE = Path(__file__).parents[2] / "services" / "talentrag" / "sample_data" / "corpus"
# the hand-written fixtures, the showcase and 60 generated CVs: enough holders per skill
# for rankings with ties, levels and partial matches
CVS = [
    *sorted(
        p
        for p in (Path(__file__).parents[1] / "fixtures" / "corpus").iterdir()
        if not p.name.startswith("jd-")
    ),
    *sorted((SAMPLE / "showcase").iterdir()),
    *sorted((SAMPLE / "cvs").iterdir())[:60],
]
QUERIES = [
    {"required_skills": ["Kubernetes"]},
    {"required_skills": ["Python", "AWS"], "top_k": 10},
    {"required_skills": ["Terraform"], "experience_level": "senior"},
    {"query": "Java developers who know Spring", "top_k": 20},
    {"required_skills": ["React"], "preferred_skills": ["TypeScript"], "min_years": 3},
]


async def _answers(settings: Settings) -> tuple[type, list[object], str]:
    async with open_knowledge_base(settings, as_of=AS_OF, embedder=HashingEmbedder(64)) as kb:
        job_id, results = await kb.jobs.run_paths("default", CVS, DocumentType.CV)
        assert len(results) == len(CVS)
        answers: list[object] = []
        for query in QUERIES:
            response = await kb.search.search(SearchRequest(**query), "default")
            answers.append(response.model_dump(exclude={"processing_time_ms"}))
        job = await kb.jobs.get("default", job_id)
        return type(kb.store), answers, job.status


async def test_the_same_corpus_answers_alike_on_sqlite_and_postgresql(
    tmp_path: Path, postgres_url: str
):
    def settings(name: str, url: str | None) -> Settings:
        return Settings(
            data_dir=tmp_path / name,
            embedder="hashing",
            ingest_batch_size=200,  # one batch of two LightRAG slices, flushed once
            ingest_workers=0,
            database_url=url,
        )

    sqlite_store, on_sqlite, sqlite_job = await _answers(settings("sqlite", None))
    pg_store, on_postgres, pg_job = await _answers(settings("postgres", postgres_url))
    assert (sqlite_store, pg_store) == (SQLiteCandidateStore, PostgresCandidateStore)
    assert sqlite_job == pg_job == "done"
    # the comparison has content: several candidates per answer
    assert all(len(answer["candidates"]) >= 3 for answer in on_sqlite)
    assert on_postgres == on_sqlite
    assert not (tmp_path / "postgres" / "candidates.sqlite3").exists()
