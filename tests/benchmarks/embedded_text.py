"""What ingestion embeds per CV, against what LightRAG's defaults would embed.

    .venv/bin/python -u -m tests.benchmarks.embedded_text --cvs 300

Generated CVs are ingested with the hashing embedder wrapped in a counter that
tokenises every text as MiniLM would (its tokenizer, truncated at its 128 tokens, no
padding), so the figures are MiniLM's work without MiniLM's time. "embedded" is what
reached the model (after ``gateways/vector_writes.py`` and the embedding cache);
"lightrag_default" is every entity, relation and chunk text as LightRAG builds them,
each embedded once per item.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

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
        self.tokenizer.no_padding()  # the file pads to 128; MiniLMEmbedder pads per batch
        self.texts = 0
        self.tokens = 0

    def count(self, texts: list[str]) -> int:
        return sum(len(e.ids) for e in self.tokenizer.encode_batch(texts))

    async def embed(self, texts: list[str]) -> np.ndarray:
        self.texts += len(texts)
        self.tokens += self.count(texts)
        return await self._inner.embed(texts)


def lightrag_default_texts(rag: Any) -> list[str]:
    """What LightRAG alone would embed for this graph: every entity and relation text as it
    builds them, and every chunk."""
    graph = rag.chunk_entity_relation_graph._graph  # networkx, the embedded default
    entities = [f"{name}\n{data.get('description', '')}" for name, data in graph.nodes(data=True)]
    relations = [
        f"{data.get('keywords', '')}\t{src}\n{tgt}\n{data.get('description', '')}"
        for src, tgt, data in graph.edges(data=True)
    ]
    chunks = [c["content"] for c in rag.text_chunks._data.values()]
    return entities + relations + chunks


async def measure(n_cvs: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        generate_corpus(Path(tmp) / "corpus", n_cvs, seed=seed, n_job_descriptions=0, as_of=AS_OF)
        counter = CountingEmbedder()
        settings = Settings(data_dir=Path(tmp) / "kb", embedder="hashing", ingest_workers=0)
        async with open_knowledge_base(settings, as_of=AS_OF, embedder=counter) as kb:
            cvs = sorted((Path(tmp) / "corpus" / "cvs").iterdir())
            await kb.ingestor.ingest_paths(cvs, "default")
            default = lightrag_default_texts(await kb.graph.rag("default"))
    return {
        "cvs": n_cvs,
        "embedded_per_cv": {
            "texts": round(counter.texts / n_cvs, 1),
            "tokens": round(counter.tokens / n_cvs),
        },
        "lightrag_default_per_cv": {
            "texts": round(len(default) / n_cvs, 1),
            "tokens": round(counter.count(default) / n_cvs),
        },
    }


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
