import httpx
import numpy as np
import pytest
import respx

from talentrag.embeddings import EmbeddingError, HashingEmbedder, HttpEmbedder, MiniLMEmbedder
from talentrag.embeddings.minilm import default_tokenizer_path


async def test_minilm_vectors_are_normalised_and_semantic(minilm: MiniLMEmbedder):
    vectors = await minilm.embed(
        ["Kubernetes cluster operations", "container orchestration", "baking bread"]
    )
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


def test_minilm_batches_give_the_same_vectors(minilm: MiniLMEmbedder):
    texts = [f"sentence number {i} about Python" for i in range(40)]
    together = minilm.encode(texts)
    alone = np.vstack([minilm.encode([t]) for t in texts[:3]])
    assert np.allclose(together[:3], alone, atol=1e-4)


def test_minilm_refuses_a_tampered_tokenizer(tmp_path):
    bad = tmp_path / "tokenizer.json"
    bad.write_bytes(default_tokenizer_path().read_bytes() + b" ")
    with pytest.raises(EmbeddingError, match="checksum mismatch"):
        MiniLMEmbedder(tokenizer_path=bad)


async def test_hashing_embedder_is_deterministic():
    a, b = HashingEmbedder(64), HashingEmbedder(64)
    va, vb = await a.embed(["Python developer"]), await b.embed(["Python developer"])
    assert np.array_equal(va, vb)
    assert va.shape == (1, 64)


@respx.mock
async def test_openai_compatible_endpoint():
    respx.post("http://emb.test/v1/embeddings").mock(
        return_value=httpx.Response(
            200,
            json={"data": [{"index": 1, "embedding": [0, 2]}, {"index": 0, "embedding": [3, 0]}]},
        )
    )
    embedder = HttpEmbedder("http://emb.test/v1", "m", dim=2, protocol="openai")
    vectors = await embedder.embed(["a", "b"])
    assert vectors.tolist() == [[1.0, 0.0], [0.0, 1.0]]
    await embedder.aclose()


@respx.mock
async def test_ollama_endpoint():
    respx.post("http://ollama.test/api/embed").mock(
        return_value=httpx.Response(200, json={"embeddings": [[0, 5]]})
    )
    embedder = HttpEmbedder("http://ollama.test", "all-minilm", dim=2, protocol="ollama")
    assert (await embedder.embed(["a"])).tolist() == [[0.0, 1.0]]
    await embedder.aclose()


@respx.mock
@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(500, text="boom"),
        httpx.Response(200, json={"unexpected": True}),
        httpx.Response(200, json={"data": [{"index": 0, "embedding": [1, 2, 3]}]}),
    ],
    ids=["http-error", "malformed", "wrong-dimension"],
)
async def test_endpoint_failures_are_embedding_errors(response):
    respx.post("http://emb.test/embeddings").mock(return_value=response)
    embedder = HttpEmbedder("http://emb.test", "m", dim=2)
    with pytest.raises(EmbeddingError):
        await embedder.embed(["a"])
    await embedder.aclose()


@respx.mock
async def test_unreachable_endpoint_is_an_embedding_error():
    respx.post("http://emb.test/embeddings").mock(side_effect=httpx.ConnectError("refused"))
    embedder = HttpEmbedder("http://emb.test", "m", dim=2)
    with pytest.raises(EmbeddingError, match="refused"):
        await embedder.embed(["a"])
    await embedder.aclose()
