"""Vectors an embedded data directory already holds, served as an embedder.

Copying a tenant to PostgreSQL writes the same knowledge graph again through LightRAG,
which embeds every entity and relation text it is given (chunks get no vectors:
``vector_writes``). The embedded files keep each of those texts beside its vector, so
the copy looks them up instead of running the model (minutes per thousand CVs with
MiniLM); a text not found is embedded by the real model and counted.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
from nano_vectordb.dbs import buffer_string_to_array

from talentrag.embeddings.base import Embedder

VECTOR_FILES = {"entities": "vdb_entities.json", "relations": "vdb_relationships.json"}
"""LightRAG's file vector storages a copy reads, by what they hold (a data directory's
``vdb_chunks.json``, written before chunks lost their vectors, is not needed)."""
CHUNKS_FILE = "kv_store_text_chunks.json"


def _key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def _read(path: Path, dim: int) -> tuple[list[str], np.ndarray]:
    """The texts and vectors (rows in the same order) of one vector file."""
    if not path.is_file():
        return [], np.zeros((0, dim), dtype=np.float32)
    stored = json.loads(path.read_text(encoding="utf-8"))
    if stored["embedding_dim"] != dim:
        raise ValueError(f"{path} holds {stored['embedding_dim']}-dim vectors, not {dim}")
    matrix = buffer_string_to_array(stored["matrix"]).reshape(-1, dim)
    return [row.get("content", "") for row in stored["data"]], matrix


class StoredVectors(Embedder):
    """The vectors of one workspace folder by text; other texts go to ``model``.

    Same name and dimension as ``model``, so what it writes is indistinguishable
    from what the model would have (the vectors are the model's, read back).
    """

    def __init__(self, model: Embedder):
        self.model = model
        self.name = model.name
        self.dim = model.dim
        self._rows: dict[bytes, int] = {}
        self._matrix = np.zeros((0, model.dim), dtype=np.float32)
        self.reused = 0
        self.embedded = 0

    def load(self, workspace: Path) -> dict[str, int]:
        """Serve the vectors of this workspace folder (replacing the previous one's).

        Returns what the folder holds: entities and relations (vectors) and chunks (texts
        in the key-value file), the figures a copy is checked against.
        """
        rows: dict[bytes, int] = {}
        matrices = []
        sizes: dict[str, int] = {}
        for kind, name in VECTOR_FILES.items():
            texts, matrix = _read(workspace / name, self.dim)
            offset = sum(sizes.values())
            for n, text in enumerate(texts):
                rows.setdefault(_key(text), offset + n)
            matrices.append(matrix)
            sizes[kind] = len(texts)
        self._rows = rows
        self._matrix = np.vstack(matrices).astype(np.float32, copy=False)
        chunks = workspace / CHUNKS_FILE
        sizes["chunks"] = len(json.loads(chunks.read_text("utf-8"))) if chunks.is_file() else 0
        return sizes

    async def embed(self, texts: list[str]) -> np.ndarray:
        """Stored vectors where the text is known, the model's for the rest (counted)."""
        found = [self._rows.get(_key(text), -1) for text in texts]
        vectors = np.zeros((len(texts), self.dim), dtype=np.float32)
        known = [n for n, row in enumerate(found) if row >= 0]
        if known:
            vectors[known] = self._matrix[[found[n] for n in known]]
        unknown = [n for n, row in enumerate(found) if row < 0]
        if unknown:
            vectors[unknown] = await self.model.embed([texts[n] for n in unknown])
        self.reused += len(known)
        self.embedded += len(unknown)
        return vectors

    async def aclose(self) -> None:
        """Release the model's clients."""
        await self.model.aclose()
