"""POST /v1/embeddings: the configured embedding model, OpenAI-compatible.

A LightRAG Server pointed here embeds queries exactly as talentrag's ingestion did.
"""

from __future__ import annotations

import base64
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from talentrag.adapters.http.routes import ERRORS, Service, Tenant

router = APIRouter()


class EmbeddingRequest(BaseModel):
    """OpenAI's embeddings request (the parts a LightRAG Server sends)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"input": ["Kubernetes", "K8s"], "model": "all-MiniLM-L6-v2-int8"}]
        }
    )

    input: str | list[str] = Field(description="A text or a list of texts (at most 2048).")
    model: str | None = Field(None, description="Ignored: the server's configured model answers.")
    encoding_format: Literal["float", "base64"] = "float"


class EmbeddingItem(BaseModel):
    """One vector, as a list of floats or base64 of little-endian float32."""

    object: Literal["embedding"] = "embedding"
    index: int
    embedding: list[float] | str


class EmbeddingUsage(BaseModel):
    """Token counts (whitespace words: the local model bills nothing)."""

    prompt_tokens: int
    total_tokens: int


class EmbeddingResponse(BaseModel):
    """OpenAI's embeddings response."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "object": "list",
                    "model": "all-MiniLM-L6-v2-int8",
                    "data": [{"object": "embedding", "index": 0, "embedding": [0.021, -0.013]}],
                    "usage": {"prompt_tokens": 1, "total_tokens": 1},
                }
            ]
        }
    )

    object: Literal["list"] = "list"
    data: list[EmbeddingItem]
    model: str
    usage: EmbeddingUsage


@router.post(
    "/v1/embeddings",
    operation_id="create_embeddings",
    summary="Embed texts with the configured model (OpenAI-compatible)",
    response_model=EmbeddingResponse,
    responses=ERRORS,
    tags=["embeddings"],
)
async def create_embeddings(
    body: EmbeddingRequest, service: Service, _tenant: Tenant
) -> EmbeddingResponse:
    """Vectors from the model ingestion used, so a LightRAG Server's queries match the chunks."""
    texts = [body.input] if isinstance(body.input, str) else body.input
    vectors = await service.embed(texts)
    items = [
        EmbeddingItem(
            index=i,
            embedding=base64.b64encode(v.astype("<f4").tobytes()).decode()
            if body.encoding_format == "base64"
            else v.tolist(),
        )
        for i, v in enumerate(vectors)
    ]
    tokens = sum(len(t.split()) for t in texts)
    return EmbeddingResponse(
        data=items,
        model=service.embedder.name,
        usage=EmbeddingUsage(prompt_tokens=tokens, total_tokens=tokens),
    )
