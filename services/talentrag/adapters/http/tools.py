"""A read-only tool server for recruiter assistants, mounted at /tools.

OpenWebUI turns every operation of an OpenAPI server into a tool its model may call
without asking anyone, so this surface has reads only (search, get, list) and no
tenant parameter: the API key decides the tenant. ``/tools/openapi.json`` is what
OpenWebUI's "OpenAPI tool server" connection should point at.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, FastAPI, Query

from talentrag import __version__
from talentrag.adapters.http.errors import install_error_handlers
from talentrag.adapters.http.routes import (
    ERRORS,
    CandidateId,
    CandidatePage,
    Service,
    Tenant,
    candidate_page,
)
from talentrag.domain import DocumentRecord
from talentrag.search import SearchRequest, SearchResponse, SkillQuery

router = APIRouter()


@router.post(
    "/search",
    operation_id="search_candidates",
    summary="Find candidates by required and preferred skills",
    description="Ranked candidates with matched, preferred and missing skills, the experience "
    "level, a match score and the CV passages that prove it. Aliases work ('K8s').",
    response_model=SearchResponse,
    responses=ERRORS,
)
async def search_candidates(body: SkillQuery, service: Service, tenant: Tenant) -> SearchResponse:
    """Search in the key's tenant."""
    return await service.search(SearchRequest.model_validate(body.model_dump()), tenant)


@router.get(
    "/candidates/{candidate_id}",
    operation_id="get_candidate",
    summary="A candidate's skills with evidence, level, years and roles",
    description="The full profile of one candidate (an id from search_candidates or "
    "list_candidates): each skill with the CV passages that show it, the experience level "
    "and years, and the roles.",
    response_model=DocumentRecord,
    responses=ERRORS,
)
async def get_candidate(
    candidate_id: CandidateId, service: Service, tenant: Tenant
) -> DocumentRecord:
    """One candidate of the key's tenant."""
    return await service.get_candidate(tenant, candidate_id)


@router.get(
    "/candidates",
    operation_id="list_candidates",
    summary="List candidates by id, a page at a time",
    description="Candidates ordered by id with their level and skills; pass next_cursor as "
    "cursor for the next page. Use search_candidates to find people with given skills.",
    response_model=CandidatePage,
    responses=ERRORS,
)
async def list_candidates(
    service: Service,
    tenant: Tenant,
    limit: Annotated[int, Query(ge=1, le=100, description="Page size (1-100).")] = 20,
    cursor: Annotated[str | None, Query(description="next_cursor of the previous page.")] = None,
) -> CandidatePage:
    """A page of the key's candidates."""
    return await candidate_page(service, tenant, limit, cursor)


def create_tools_app() -> FastAPI:
    """The /tools sub-application; the parent app hands it the service at start-up."""
    app = FastAPI(
        title="talentrag tools",
        version=__version__,
        summary="Read-only candidate search for assistants (search, get, list).",
    )
    install_error_handlers(app)
    app.include_router(router)
    return app
