"""`talentrag migrate`: an embedded data directory copied into a real PostgreSQL.

The copy must answer every query as the data directory did, keep what the store keeps
(duplicate groups, created_at, stamps), reuse the stored vectors (nothing embedded
again), check its counts, resume after a stop, and refuse to overwrite.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from talentrag.config import Settings
from talentrag.domain import DocumentType
from talentrag.ingestion.pipeline import CopyConflict
from talentrag.migration import migrate
from talentrag.runtime import open_knowledge_base
from talentrag.search import SearchRequest
from talentrag.store import SQLiteCandidateStore
from tests.conftest import AS_OF

FIXTURES = Path(__file__).parent / "fixtures" / "corpus"
SAMPLE = Path(__file__).parents[1] / "services" / "talentrag" / "sample_data" / "corpus"
QUERIES = [
    {"required_skills": ["Kubernetes"]},
    {"required_skills": ["Python", "AWS"], "top_k": 10},
    {"query": "Java developers who know Spring", "top_k": 20},
    {"job_description_id": "jd-platform-engineer", "top_k": 10},
]


def _settings(data_dir: Path, url: str | None = None, tenant: str = "default") -> Settings:
    return Settings(
        data_dir=data_dir,
        database_url=url,
        tenant=tenant,
        embedder="hashing",
        hashing_dim=64,
        ingest_batch_size=20,  # several batches per tenant
        ingest_workers=0,
    )


async def _answers(settings: Settings) -> list[object]:
    async with open_knowledge_base(settings, as_of=AS_OF) as kb:
        answers: list[object] = [
            (await kb.search.search(SearchRequest(**query), "default")).model_dump(
                exclude={"processing_time_ms"}
            )
            for query in QUERIES
        ]
        answers.append(await kb.store.duplicate_groups("default"))
        records = await kb.store.get_many("default", ["jane-doe", "jane-doe-again"])
        answers.append({k: (r.created_at, r.level) for k, r in records.items()})
        return answers


async def _fill(data_dir: Path, inbox: Path) -> None:
    """Two tenants; one CV ingested twice (a duplicate group), a job description."""
    inbox.mkdir()
    for path in FIXTURES.iterdir():
        shutil.copy(path, inbox / path.name)
    shutil.copy(FIXTURES / "jane-doe.md", inbox / "jane-doe-again.md")
    cvs = [p for p in sorted(inbox.iterdir()) if not p.name.startswith("jd-")]
    cvs += sorted((SAMPLE / "cvs").iterdir())[:40]
    async with open_knowledge_base(_settings(data_dir), as_of=AS_OF) as kb:
        await kb.ingestor.ingest_paths(cvs, "default")
        await kb.ingestor.ingest_paths(
            [inbox / "jd-platform-engineer.md"], "default", DocumentType.JOB_DESCRIPTION
        )
        await kb.ingestor.ingest_paths(sorted((SAMPLE / "showcase").iterdir()), "agency-b")


async def test_a_data_directory_copied_into_postgresql_answers_alike(
    tmp_path: Path, postgres_url: str, lightrag_environment: None
):
    data_dir = tmp_path / "kb"
    await _fill(data_dir, tmp_path / "in")
    before = await _answers(_settings(data_dir))

    report = await migrate(_settings(data_dir), postgres_url)
    assert report.verified
    assert {t.report.tenant: t.report.copied for t in report.tenants} == {
        "agency-b": len(list((SAMPLE / "showcase").iterdir())),
        "default": 47,
    }
    assert report.vectors_embedded == 0  # every vector read back from the files
    # entities and relations have vectors, relations sharing their keywords one vector;
    # chunks have none (retrieval never reads them)
    entities = sum(t.graph_before["entities"] for t in report.tenants)
    relations = sum(t.graph_before["relations"] for t in report.tenants)
    assert entities < report.vectors_reused < entities + relations
    assert all(t.graph_after["relations"] and t.graph_after["chunks"] for t in report.tenants)

    # the database alone (another data directory) answers as the files did
    assert await _answers(_settings(tmp_path / "replica", postgres_url)) == before
    assert before[-2]  # the duplicate group came along

    again = await migrate(_settings(data_dir), postgres_url)  # a second run: nothing to do
    assert again.verified
    assert all(t.report.copied == 0 for t in again.tenants)


async def test_migrate_refuses_other_documents_under_the_same_ids(
    tmp_path: Path, postgres_url: str, lightrag_environment: None
):
    data_dir = tmp_path / "kb"
    async with open_knowledge_base(_settings(data_dir), as_of=AS_OF) as kb:
        await kb.ingestor.ingest_paths([FIXTURES / "jane-doe.md", FIXTURES / "tom-baker.txt"], "t")
    elsewhere = tmp_path / "other" / "tom-baker.txt"
    elsewhere.parent.mkdir()
    elsewhere.write_text("Tom Baker\nSkills: COBOL, Mainframe.\n")
    async with open_knowledge_base(_settings(tmp_path / "db", postgres_url), as_of=AS_OF) as kb:
        await kb.ingestor.ingest_paths([elsewhere], "t")

    with pytest.raises(CopyConflict, match="tom-baker"):
        await migrate(_settings(data_dir), postgres_url)
    async with open_knowledge_base(_settings(tmp_path / "db", postgres_url), as_of=AS_OF) as kb:
        assert await kb.store.document_counts() == {"t": 1}  # nothing was written
        assert "COBOL" in {s.skill for s in (await kb.store.get("t", "tom-baker")).skills}


def test_migrate_command_reports_and_refuses_what_it_cannot_copy(tmp_path: Path):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "talentrag.cli", "migrate", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env=os.environ | {"TALENTRAG_EMBEDDER": "hashing"},
        )

    empty = run("--to", "postgresql://u@localhost/db", "--data-dir", str(tmp_path / "none"))
    assert empty.returncode == 2
    assert "holds no talentrag data" in empty.stderr
    assert "Traceback" not in empty.stderr
    wrong = run("--to", "mysql://u@localhost/db", "--data-dir", str(tmp_path))
    assert wrong.returncode == 2
    assert "postgresql://" in wrong.stderr
    assert not list(tmp_path.iterdir())  # nothing created


async def test_a_stored_unfinished_write_must_be_repaired_first(
    tmp_path: Path, postgres_url: str, lightrag_environment: None
):
    data_dir = tmp_path / "kb"
    async with open_knowledge_base(_settings(data_dir), as_of=AS_OF) as kb:
        await kb.ingestor.ingest_paths([FIXTURES / "jane-doe.md"], "t")
    store = SQLiteCandidateStore(data_dir / "candidates.sqlite3")
    await store.open()
    (record,) = (await store.get_many("t", ["jane-doe"])).values()
    await store.stage("t", [(record, "an interrupted update")])  # never finished
    await store.close()
    with pytest.raises(Exception, match="talentrag repair"):
        await migrate(_settings(data_dir), postgres_url)
