"""What ingestion embeds per CV: vectors and MiniLM tokens, and what chunk vectors cost.

    .venv/bin/python -u -m tests.benchmarks.embedded_text --cvs 300

Generated CVs are ingested with the hashing embedder wrapped in a counter that
tokenises every text as MiniLM would (its tokenizer, truncated at its 256 tokens),
so the figures are MiniLM's work without MiniLM's time. Chunks are no longer embedded
(``gateways/chunk_vectors.py``); their texts, still in LightRAG's key-value store, are
tokenised the same way to show what embedding them cost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path

import numpy as np

from talentrag.config import Settings
from talentrag.embeddings import Embedder, HashingEmbedder
from talentrag.embeddings.minilm import MAX_TOKENS, default_tokenizer_path
from talentrag.runtime import open_knowledge_base
from tests.benchmarks.corpus import AS_OF
from tests.support.generator import generate_corpus


class CountingEmbedder(Embedder):
    """Hashing vectors; counts texts and the MiniLM tokens they would take."""

    def __init__(self) -> None:
        from tokenizers import Tokenizer

        self._inner = HashingEmbedder(256)
        self.name, self.dim = self._inner.name, self._inner.dim
        self.tokenizer = Tokenizer.from_file(str(default_tokenizer_path()))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self.texts = 0
        self.tokens = 0

    def count(self, texts: list[str]) -> int:
        return sum(len(e.ids) for e in self.tokenizer.encode_batch(texts))

    async def embed(self, texts: list[str]) -> np.ndarray:
        self.texts += len(texts)
        self.tokens += self.count(texts)
        return await self._inner.embed(texts)


async def measure(n_cvs: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        generate_corpus(Path(tmp) / "corpus", n_cvs, seed=seed, n_job_descriptions=0, as_of=AS_OF)
        counter = CountingEmbedder()
        settings = Settings(data_dir=Path(tmp) / "kb", embedder="hashing", ingest_workers=0)
        async with open_knowledge_base(settings, as_of=AS_OF, embedder=counter) as kb:
            cvs = sorted((Path(tmp) / "corpus" / "cvs").iterdir())
            await kb.ingestor.ingest_paths(cvs, "default")
            chunks = (await kb.graph.rag("default")).text_chunks._data.values()
            chunk_tokens = counter.count([c["content"] for c in chunks])
            chunk_count = len(chunks)
    per_cv = {
        "vectors": round(counter.texts / n_cvs, 1),
        "tokens": round(counter.tokens / n_cvs),
        "chunk_vectors_left_out": round(chunk_count / n_cvs, 1),
        "chunk_tokens_left_out": round(chunk_tokens / n_cvs),
    }
    before = per_cv["tokens"] + per_cv["chunk_tokens_left_out"]
    return {"cvs": n_cvs, "per_cv": per_cv, "tokens_per_cv_before": before,
            "tokens_per_cv_after": per_cv["tokens"]}  # fmt: skip


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cvs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(json.dumps(await measure(args.cvs, args.seed), indent=2))


if __name__ == "__main__":
    asyncio.run(main())
