"""A deterministic feature-hashing embedder.

Not semantic: it exists so tests and 100K-candidate benchmarks can build stores
in seconds. Words and character trigrams are hashed into a fixed number of signed
buckets, so texts sharing words or spellings land close together.
"""

from __future__ import annotations

import asyncio
import re
import zlib

import numpy as np

from talentrag.embeddings.base import Embedder, l2_normalise

_WORD = re.compile(r"[a-z0-9+#]+")
_MAX_CACHED_FEATURES = 1_000_000
_INLINE_CHARS = 2_000


class HashingEmbedder(Embedder):
    """Fast, deterministic, non-semantic vectors for tests and benchmarks."""

    def __init__(self, dim: int = 256):
        self.dim = dim
        self.name = f"hashing-{dim}"
        # Words and trigrams repeat across texts: a feature's hash is computed once.
        self._codes: dict[str, int] = {}

    def _features(self, text: str) -> list[str]:
        words = _WORD.findall(text.lower())
        grams = [w[i : i + 3] for w in words for i in range(max(1, len(w) - 2))]
        return words + grams

    def encode(self, texts: list[str]) -> np.ndarray:
        """Hash each text's words and trigrams into signed buckets, synchronously."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            codes = np.fromiter(map(self._code, self._features(text)), dtype=np.uint32)
            signs = np.where(codes >> 31, 1.0, -1.0)  # the top bit of the hash picks the sign
            out[row] = np.bincount(codes % self.dim, weights=signs, minlength=self.dim)
        return l2_normalise(out)

    def _code(self, feature: str) -> int:
        code = self._codes.get(feature)
        if code is None:
            code = zlib.crc32(feature.encode())
            if len(self._codes) < _MAX_CACHED_FEATURES:
                self._codes[feature] = code
        return code

    async def embed(self, texts: list[str]) -> np.ndarray:
        """Encode in a worker thread: an ingest batch embeds thousands of texts (seconds)."""
        if sum(map(len, texts)) < _INLINE_CHARS:  # a query: not worth a thread hop
            return self.encode(texts)
        return await asyncio.to_thread(self.encode, texts)
