"""Shared fixtures: the real vocabulary, real embedders, real on-disk knowledge bases."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest

from talentrag.config import Settings
from talentrag.embeddings import HashingEmbedder, MiniLMEmbedder
from talentrag.runtime import KnowledgeBase, open_knowledge_base
from talentrag.vocabulary import Vocabulary, load_vocabulary

AS_OF = date(2026, 11, 1)


@pytest.fixture(scope="session")
def vocabulary() -> Vocabulary:
    return load_vocabulary()


@pytest.fixture(scope="session")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # analysis in a thread: starting worker processes would dominate these small tests
    return Settings(
        data_dir=tmp_path / "kb", embedder="hashing", ingest_batch_size=50, ingest_workers=0
    )


@pytest.fixture
async def kb(settings: Settings) -> AsyncIterator[KnowledgeBase]:
    """A fresh on-disk knowledge base with real LightRAG (hashing embedder for speed)."""
    async with open_knowledge_base(settings, as_of=AS_OF, embedder=HashingEmbedder(64)) as opened:
        yield opened
