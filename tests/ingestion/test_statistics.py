"""A bulk ingest or upload job into PostgreSQL leaves the planner's statistics fresh
(real PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from talentrag.config import Settings
from talentrag.domain import DocumentType
from talentrag.ingestion import pipeline
from talentrag.runtime import open_knowledge_base
from talentrag.store.jobs import ItemKind, JobItem
from tests.conftest import AS_OF


async def _analysed(url: str) -> bool:
    connection = await asyncpg.connect(url)
    try:
        when = await connection.fetchval(
            "SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'documents'"
        )
    finally:
        await connection.close()
    return when is not None


async def test_a_bulk_ingest_refreshes_the_planners_statistics(
    tmp_path: Path, postgres_url: str, lightrag_environment: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "cvs"
    folder.mkdir()
    for n in range(3):
        (folder / f"cv{n}.txt").write_text(
            f"Person {n}\nSKILLS\nPython, Kubernetes, Terraform and AWS for platform work.\n"
        )
    settings = Settings(
        data_dir=tmp_path / "kb", database_url=postgres_url, embedder="hashing", hashing_dim=64,
        ingest_workers=0,
    )  # fmt: skip
    monkeypatch.setattr(pipeline, "STATISTICS_AFTER_DOCUMENTS", 3)
    async with open_knowledge_base(settings, as_of=AS_OF) as kb:
        await kb.ingestor.ingest_paths([folder / "cv0.txt", folder / "cv1.txt"], "default")
        assert not await _analysed(postgres_url)  # two documents: too few to bother
        await kb.ingestor.ingest_paths([folder], "default")  # one new, two unchanged
        assert not await _analysed(postgres_url)
        (folder / "cv3.txt").write_text("Person 3\nSKILLS\nGo, Rust and PostgreSQL.\n" * 2)
        (folder / "cv4.txt").write_text("Person 4\nSKILLS\nJava, Spring and Kafka.\n" * 2)
        (folder / "cv5.txt").write_text("Person 5\nSKILLS\nReact, TypeScript and CSS.\n" * 2)
        await kb.ingestor.ingest_paths([folder], "default")
        assert await _analysed(postgres_url)


async def test_a_bulk_upload_job_refreshes_them_too(
    tmp_path: Path, postgres_url: str, lightrag_environment: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(
        data_dir=tmp_path / "kb", database_url=postgres_url, embedder="hashing", hashing_dim=64,
        ingest_workers=0,
    )  # fmt: skip
    monkeypatch.setattr(pipeline, "STATISTICS_AFTER_DOCUMENTS", 2)
    items = [
        JobItem(
            ItemKind.TEXT, f"cv{n}", f"Person {n}\nSKILLS\nPython and AWS.\n".encode(), f"cv{n}"
        )
        for n in range(2)
    ]
    async with open_knowledge_base(settings, as_of=AS_OF) as kb:
        job = await kb.jobs.submit("default", items, DocumentType.CV)
        await kb.jobs.run("default", job.id)
        assert await _analysed(postgres_url)
