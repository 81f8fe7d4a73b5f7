"""The sample corpus (generated CVs, hand-written showcase CVs, job documents) in a real
embedded LightRAG with the default MiniLM embedder, built once per test session."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from talentrag.config import Settings
from talentrag.domain import DocumentType
from talentrag.runtime import KnowledgeBase, open_knowledge_base
from tests.conftest import AS_OF

SAMPLE = Path(__file__).parents[2] / "services" / "talentrag" / "sample_data" / "corpus"
TENANT = "sample"


@pytest.fixture(scope="session")
async def sample_settings(tmp_path_factory) -> Settings:
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("sample") / "kb", tenant=TENANT, ingest_batch_size=500
    )
    async with open_knowledge_base(settings, as_of=AS_OF) as kb:
        await kb.ingestor.ingest_paths([SAMPLE / "cvs", SAMPLE / "showcase"], TENANT)
        jobs = sorted((SAMPLE / "jobs").glob("jd-*"))
        await kb.ingestor.ingest_paths(jobs, TENANT, DocumentType.JOB_DESCRIPTION)
        await kb.ingestor.ingest_paths(
            sorted((SAMPLE / "jobs").glob("company-*")), TENANT, DocumentType.COMPANY_PAGE
        )
    return settings


@pytest.fixture(scope="module")
async def sample_kb(sample_settings: Settings) -> AsyncIterator[KnowledgeBase]:
    async with open_knowledge_base(sample_settings, as_of=AS_OF) as kb:
        yield kb
