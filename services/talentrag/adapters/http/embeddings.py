"""POST /v1/embeddings: the configured embedding model, OpenAI-compatible.

A LightRAG Server pointed here embeds queries exactly as talentrag's ingestion did.
"""

from __future__ import annotations

import base64
from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

router = APIRouter()
MAX_INPUTS = 2048


class EmbeddingRequest(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"input": ["Kubernetes", "K8s"], "model": "all-MiniLM-L6-v2-int8"}]
        }
    )

    input: str | list[str] = Field(description="A text or a list of texts (at most 2048).")
    model: str | None = Field(None, description="Ignored: the server's configured model answers.")
    encoding_format: Literal["float", "base64"] = "float"


class EmbeddingItem(BaseModel):
    object: Literal["embedding"] = "embedding"
    index: int
    embedding: list[float] | str


class EmbeddingUsage(BaseModel):
    prompt_tokens: int
    total_tokens: int


class EmbeddingResponse(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"object": "list", "model": "all-MiniLM-L6-v2-int8",
                                         "data": [{"object": "embedding", "index": 0, "embedding": [0.021, -0.013]}],
                                         "usage": {"prompt_tokens": 1, "total_tokens": 1}}]}
    )  # fmt: skip

    object: Literal["list"] = "list"
    data: list[EmbeddingItem]
    model: str
    usage: EmbeddingUsage


@router.post(
    "/v1/embeddings",
    operation_id="create_embeddings",
    summary="Embed texts with the configured model (OpenAI-compatible)",
    response_model=EmbeddingResponse,
    tags=["embeddings"],
)
async def create_embeddings(body: EmbeddingRequest, request: Request) -> EmbeddingResponse:
    texts = [body.input] if isinstance(body.input, str) else body.input
    if not 1 <= len(texts) <= MAX_INPUTS:
        from talentrag.adapters.http.errors import BadRequest

        raise BadRequest(f"input needs 1 to {MAX_INPUTS} texts, got {len(texts)}")
    embedder = request.app.state.kb.embedder
    vectors = await embedder.embed(texts)
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
        model=embedder.name,
        usage=EmbeddingUsage(prompt_tokens=tokens, total_tokens=tokens),
    )
