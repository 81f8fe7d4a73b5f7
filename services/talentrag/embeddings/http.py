"""Embeddings from an HTTP endpoint: OpenAI-compatible or Ollama.

This is what a LightRAG Server deployment uses, so a remote setup can embed with
exactly the model its server was built with.
"""

from __future__ import annotations

from typing import Any, Literal

import httpx
import numpy as np

from talentrag.embeddings.base import Embedder, EmbeddingError, l2_normalise

Protocol = Literal["openai", "ollama"]


class HttpEmbedder(Embedder):
    """Vectors from an OpenAI-compatible or Ollama endpoint, checked for shape."""

    def __init__(
        self,
        base_url: str,
        model: str,
        dim: int,
        protocol: Protocol = "openai",
        api_key: str | None = None,
        timeout_s: float = 30.0,
        batch_size: int = 64,
    ):
        self.name = f"{protocol}:{model}"
        self.dim = dim
        self._model = model
        self._protocol = protocol
        self._batch_size = batch_size
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.AsyncClient(
            base_url=base_url.rstrip("/"), headers=headers, timeout=timeout_s
        )

    async def embed(self, texts: list[str]) -> np.ndarray:
        """Post the texts in batches and stack the normalised vectors."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [
            await self._embed_batch(texts[i : i + self._batch_size])
            for i in range(0, len(texts), self._batch_size)
        ]
        return np.vstack(parts)

    async def _embed_batch(self, texts: list[str]) -> np.ndarray:
        path = "/embeddings" if self._protocol == "openai" else "/api/embed"
        try:
            response = await self._client.post(path, json={"model": self._model, "input": texts})
            response.raise_for_status()
            payload = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise EmbeddingError(
                f"embedding endpoint {self._client.base_url}{path}: {exc}"
            ) from exc
        vectors = self._vectors(payload)
        if vectors.shape != (len(texts), self.dim):
            raise EmbeddingError(
                f"embedding endpoint returned shape {vectors.shape}, expected {(len(texts), self.dim)}"
            )
        return l2_normalise(vectors)

    def _vectors(self, payload: dict[str, Any]) -> np.ndarray:
        try:
            if self._protocol == "openai":
                rows = sorted(payload["data"], key=lambda item: item["index"])
                return np.array([row["embedding"] for row in rows], dtype=np.float32)
            return np.array(payload["embeddings"], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbeddingError(f"malformed embedding response: {exc}") from exc

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._client.aclose()
