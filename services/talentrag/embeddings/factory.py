"""Build the configured embedder."""

from __future__ import annotations

from talentrag.config import Settings
from talentrag.embeddings.base import Embedder
from talentrag.embeddings.hashing import HashingEmbedder
from talentrag.embeddings.http import HttpEmbedder
from talentrag.embeddings.minilm import MiniLMEmbedder


def build_embedder(settings: Settings) -> Embedder:
    """The embedder ``Settings.embedder`` names, configured from the other settings."""
    if settings.embedder == "minilm":
        return MiniLMEmbedder()
    if settings.embedder == "hashing":
        return HashingEmbedder(settings.hashing_dim)
    return HttpEmbedder(
        base_url=settings.embedding_url,
        model=settings.embedding_model,
        dim=settings.embedding_dim,
        protocol=settings.embedder,
        api_key=settings.embedding_api_key,
    )
