"""A read-only tool server for recruiter assistants, mounted at /tools.

OpenWebUI turns every operation of an OpenAPI server into a tool its model may call
without asking anyone, so this surface has reads only (search; get and list
candidates; list and get job descriptions and other documents, to search by one) and
no tenant parameter: the API key decides the tenant. ``/tools/openapi.json`` is what
OpenWebUI's "OpenAPI tool server" connection should point at.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, FastAPI, Query

from talentrag import __version__
from talentrag.adapters.http.errors import install_error_handlers
from talentrag.adapters.http.routes import (
    ERRORS,
    SEARCH_DESCRIPTION,
    CandidateId,
    DocumentId,
    DocumentTypeFilter,
    Service,
    Tenant,
)
from talentrag.adapters.pages import CandidatePage, DocumentPage, candidate_page, document_page
from talentrag.domain import DocumentRecord
from talentrag.search import SearchRequest, SearchResponse, SkillQuery

router = APIRouter()


@router.post(
    "/search",
    operation_id="search_candidates",
    summary="Find candidates by skills, a free-text query or a job description",
    description=SEARCH_DESCRIPTION,
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


@router.get(
    "/documents",
    operation_id="list_documents",
    summary="List job descriptions (and other documents that are not CVs)",
    description="Stored job descriptions, company pages and job profiles by id, with the "
    "skills they name. Pass a job description's id as job_description_id to "
    "search_candidates to find candidates for it.",
    response_model=DocumentPage,
    responses=ERRORS,
)
async def list_documents(
    service: Service,
    tenant: Tenant,
    document_type: DocumentTypeFilter = None,
    limit: Annotated[int, Query(ge=1, le=100, description="Page size (1-100).")] = 20,
    cursor: Annotated[str | None, Query(description="next_cursor of the previous page.")] = None,
) -> DocumentPage:
    """A page of the key's documents."""
    return await document_page(service, tenant, limit, cursor, document_type)


@router.get(
    "/documents/{document_id}",
    operation_id="get_document",
    summary="A job description or other stored document",
    description="One stored document (an id from list_documents): its type, name and the "
    "skills it names with the passages that name them.",
    response_model=DocumentRecord,
    responses=ERRORS,
)
async def get_document(document_id: DocumentId, service: Service, tenant: Tenant) -> DocumentRecord:
    """One document of the key's tenant."""
    return await service.get_document(tenant, document_id)


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
