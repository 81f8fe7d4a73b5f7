"""Text embedders: local MiniLM (default), an HTTP endpoint, and a hashing embedder.

All three share one small interface so LightRAG, the skill normaliser and the
benchmarks can swap them through configuration.
"""

from talentrag.embeddings.base import Embedder, EmbeddingError
from talentrag.embeddings.factory import build_embedder
from talentrag.embeddings.hashing import HashingEmbedder
from talentrag.embeddings.http import HttpEmbedder
from talentrag.embeddings.minilm import MiniLMEmbedder

__all__ = [
    "Embedder",
    "EmbeddingError",
    "HashingEmbedder",
    "HttpEmbedder",
    "MiniLMEmbedder",
    "build_embedder",
]
