"""REST routes. Thin: validate, call the core, translate."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel

from talentrag.search import SearchRequest, SearchResponse

router = APIRouter()


class Health(BaseModel):
    status: str


@router.get(
    "/health", operation_id="health", summary="Liveness", tags=["operations"], response_model=Health
)
async def health() -> Health:
    return Health(status="ok")


@router.get(
    "/ready",
    operation_id="ready",
    summary="Readiness: knowledge base loaded, LightRAG reachable",
    tags=["operations"],
    response_model=Health,
)
async def ready(request: Request) -> Health:
    kb = request.app.state.kb
    await kb.gateway.ready(kb.settings.tenant)
    return Health(status="ready")


@router.post(
    "/v1/candidates/search",
    operation_id="search_by_skills",
    summary="Rank candidates by required and preferred skills",
    response_model=SearchResponse,
    tags=["candidates"],
)
async def search_by_skills(body: SearchRequest, request: Request) -> SearchResponse:
    kb = request.app.state.kb
    return await kb.search.search(body, body.tenant or kb.settings.tenant)
