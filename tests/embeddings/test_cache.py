"""The embedding cache: each distinct text reaches the model once, vectors unchanged."""

from __future__ import annotations

import numpy as np

from talentrag.embeddings import HashingEmbedder
from talentrag.embeddings.cache import CachedEmbedder
from tests.support.embedders import RecordingEmbedder


async def test_repeated_texts_are_embedded_once_with_the_same_vectors() -> None:
    inner = RecordingEmbedder(32)
    cached = CachedEmbedder(inner)
    texts = ["has skill, Python", "has skill, Go", "has skill, Python"]
    first = await cached.embed(texts)
    again = await cached.embed(["has skill, Go", "new text"])
    assert inner.calls == [["has skill, Python", "has skill, Go"], ["new text"]]
    assert cached.embedded == 3
    expected = await HashingEmbedder(32).embed([*texts, "has skill, Go", "new text"])
    assert np.array_equal(np.vstack([first, again]), expected)
    assert (await cached.embed([])).shape == (0, 32)


async def test_a_batch_larger_than_the_cache_still_answers_every_text() -> None:
    cached = CachedEmbedder(RecordingEmbedder(32), max_texts=2)
    await cached.embed(["a", "b"])
    vectors = await cached.embed(["a", "c", "d", "e", "b"])  # a and b evicted meanwhile
    assert np.array_equal(vectors, await HashingEmbedder(32).embed(["a", "c", "d", "e", "b"]))
