"""Each distinct text embedded once: a bounded cache of vectors in front of an embedder.

Ingestion repeats texts: every holder of a skill shares its relation's text
(``gateways/vector_writes.py``), and queries repeat their keywords. Running the model
costs milliseconds per text; a look-up costs microseconds.
"""

from __future__ import annotations

import numpy as np
from cachetools import LRUCache

from talentrag.embeddings.base import Embedder

CACHED_TEXTS = 8192
"""Vectors kept (least recently used go first): about 13 MB at MiniLM's 384 dimensions."""


class CachedEmbedder(Embedder):
    """``inner``'s vectors, computed once per distinct text while the text stays cached."""

    def __init__(self, inner: Embedder, max_texts: int = CACHED_TEXTS):
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim
        self._vectors: LRUCache[str, np.ndarray] = LRUCache(maxsize=max_texts)
        self.embedded = 0
        """Texts the inner embedder was asked for (misses), for benchmarks and tests."""

    async def embed(self, texts: list[str]) -> np.ndarray:
        """Vectors for ``texts``; only texts not cached (each once) reach ``inner``."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        known = {t: self._vectors[t] for t in set(texts) if t in self._vectors}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            known.update(zip(missing, await self.inner.embed(missing), strict=True))
            self.embedded += len(missing)
            for text in missing:
                self._vectors[text] = known[text]
        return np.stack([known[t] for t in texts])

    async def aclose(self) -> None:
        """Close the inner embedder."""
        await self.inner.aclose()
