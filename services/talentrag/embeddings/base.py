"""The embedder interface."""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from talentrag.errors import Unavailable


class EmbeddingError(Unavailable):
    """The embedding model could not be loaded or did not answer (HTTP 503)."""


class Embedder(ABC):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    #: Identifies the vector space; stores built with another model must not be mixed.
    name: str
    dim: int

    @abstractmethod
    async def embed(self, texts: list[str]) -> np.ndarray:
        """Return an array of shape (len(texts), dim)."""

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release network clients; local models have nothing to release."""


def l2_normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length as float32 (zero rows stay zero), so dot product is cosine."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: np.ndarray = (vectors / norms).astype(np.float32)
    return normalised
