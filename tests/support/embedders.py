"""Embedders for tests: real hashing vectors, with a record of what was asked."""

from __future__ import annotations

import numpy as np

from talentrag.embeddings import HashingEmbedder


class RecordingEmbedder(HashingEmbedder):
    """Hashing vectors; keeps each call's texts."""

    def __init__(self, dim: int = 64) -> None:
        super().__init__(dim)
        self.calls: list[list[str]] = []

    @property
    def texts(self) -> list[str]:
        """Every text embedded, in order."""
        return [text for call in self.calls for text in call]

    async def embed(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return await super().embed(texts)
