"""REST routes for ATS systems. Thin: authenticate, parse, call the application, translate."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import (
    APIRouter,
    Body,
    Depends,
    File,
    Form,
    Header,
    Path,
    Query,
    Request,
    Response,
    Security,
    UploadFile,
    status,
)
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from talentrag.adapters.auth import tenant_for
from talentrag.adapters.http.errors import Problem
from talentrag.adapters.pages import CandidatePage, DocumentPage, candidate_page, document_page
from talentrag.application import DOCUMENT_ID_PATTERN, StoredDocument, TalentService, etag
from talentrag.config import Scope
from talentrag.domain import DocumentRecord, DocumentType
from talentrag.policy.limits import MAX_FILE_NAME_CHARS, MAX_NAME_CHARS, MIN_TEXT_CHARS
from talentrag.search import SearchRequest, SearchResponse

router = APIRouter()
# Declared once per route; errors.py documents them as application/problem+json.
ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": Problem} for code in (400, 401, 403, 404, 409, 412, 413, 415, 422, 503)
}
# The write routes answer 201 for a new id, 200 for a replaced or unchanged one.
WRITE_RESPONSES: dict[int | str, dict[str, object]] = {
    201: {"model": DocumentRecord, "description": "Created: the id was new."},
    **ERRORS,
}
# The file part's name matters (its extension picks the reader): say so, with an example.
UPLOAD_ENCODING: dict[str, object] = {
    "requestBody": {
        "content": {
            "multipart/form-data": {
                "encoding": {
                    "file": {
                        "headers": {
                            "Content-Disposition": {
                                "description": "The file name's extension picks the reader.",
                                "schema": {"type": "string"},
                                "example": 'form-data; name="file"; filename="jane-doe.txt"',
                            }
                        }
                    }
                }
            }
        }
    }
}
# The rule is the application's (validate_document_id); the document states it.
ID_SCHEMA: dict[str, object] = {"pattern": DOCUMENT_ID_PATTERN.pattern}
CandidateId = Annotated[
    str,
    Path(
        description="Your id for the candidate (ATS id): 1-128 letters, digits, '.', '_' or "
        "'-', starting with a letter or digit.",
        examples=["cv-00042"],
        json_schema_extra=ID_SCHEMA,
    ),
]
DocumentId = Annotated[
    str,
    Path(
        description="The document's id (from list_documents, or the one it was stored under).",
        examples=["jd-platform-engineer"],
        json_schema_extra=ID_SCHEMA,
    ),
]


def service_of(request: Request) -> TalentService:
    """The application the server opened at start-up."""
    service: TalentService = request.app.state.service
    return service


# Declared so /openapi.json carries components.securitySchemes (tools such as OpenWebUI
# read it); the key itself is checked by ``tenant_for``, which accepts either header.
BEARER = HTTPBearer(auto_error=False, description="An API key from TALENTRAG_API_KEYS.")
API_KEY = APIKeyHeader(name="X-API-Key", auto_error=False, description="The same key.")


def tenant_with(scope: Scope) -> Callable[..., str]:
    """A dependency: the tenant of a key that has ``scope`` (without keys, the default)."""

    def tenant(
        request: Request,
        _bearer: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)],
        _key: Annotated[str | None, Security(API_KEY)],
    ) -> str:
        return tenant_for(service_of(request).settings, request.headers, scope)

    return tenant


Tenant = Annotated[str, Depends(tenant_with("read"))]
WriterTenant = Annotated[str, Depends(tenant_with("write"))]
Service = Annotated[TalentService, Depends(service_of)]


# -- operations -----------------------------------------------------------------------
class Health(BaseModel):
    """The service's state: ``ok`` when alive, ``ready`` when it can serve."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"status": "ok"}]})
    status: str


@router.get(
    "/health", operation_id="health", summary="Liveness", tags=["operations"], response_model=Health
)
async def health() -> Health:
    """200 while the process is up; checks nothing else."""
    return Health(status="ok")


@router.get(
    "/ready",
    operation_id="ready",
    summary="Readiness: knowledge base loaded, LightRAG reachable",
    tags=["operations"],
    response_model=Health,
    responses=ERRORS,
)
async def ready(service: Service) -> Health:
    """200 once the knowledge base is open and LightRAG answers; 503 otherwise."""
    await service.ready(service.settings.tenant)
    return Health(status="ready")


# -- search ---------------------------------------------------------------------------
SEARCH_SUMMARY = "Rank candidates by skills, a free-text query or a job description"
SEARCH_DESCRIPTION = (
    "Say what to find in one of three ways: `required_skills` (and `preferred_skills`); a "
    "free-text `query` ('senior python developer with kubernetes, terraform a plus'); or a "
    "job description, stored (`job_description_id`, an id from list_documents) or pasted "
    "(`job_description_text`). Text is read without an LLM into skills, levels and years, "
    "echoed as `resolved_request` (edit it and send it back as a new request). Narrow with "
    "`experience_level` (one level or several: 'mid or senior'), `min_years` and "
    "`exclude_skills` (nobody holding them is returned). Each candidate's requested skills "
    "are matched (the skill, an alias, a skill implying it), partial (only a related skill "
    "stands in: `partial_skills` names it) or missing (`missing_skills` required, "
    "`missing_preferred_skills`), with the CV passages that prove them; candidates with a "
    "stand-in for a required skill are listed after the full matches with "
    "`include_partial` (the default for text, not for skills). `total` counts the "
    "candidates over all pages; pass `next_cursor` as `cursor` with the same request for "
    "the next page. `blind: true` withholds names, contact details and source files."
)
SEARCH_EXAMPLES: dict[str, Any] = {
    "skills": {
        "summary": "Required and preferred skills, levels, years, exclusions",
        "value": {
            "required_skills": ["Kubernetes", "AWS"],
            "preferred_skills": ["Terraform"],
            "experience_level": ["mid", "senior"],
            "min_years": 3,
            "exclude_skills": ["PHP"],
            "top_k": 5,
        },
    },
    "query": {
        "summary": "Free text",
        "value": {"query": "senior python developer with kubernetes, terraform a plus"},
    },
    "job_description_id": {
        "summary": "A stored job description",
        "value": {"job_description_id": "jd-platform-engineer", "top_k": 10},
    },
    "job_description_text": {
        "summary": "A pasted job description",
        "value": {
            "job_description_text": "Data Scientist\n\nRequirements\n- 5+ years with Python "
            "and SQL\n- PyTorch\n\nNice to have\n- Databricks"
        },
    },
    "next_page": {
        "summary": "The next page of the same search",
        "value": {
            "required_skills": ["Python"],
            "top_k": 5,
            "cursor": "eyJvZmZzZXQiOjUsInNlYXJjaCI6IjNmMmE5YzAxZDRlNWI2YTcifQ",
        },
    },
    "include_partial": {
        "summary": "Full matches, then those for whom a related skill stands in",
        "value": {"required_skills": ["TypeScript"], "include_partial": True},
    },
    "blind": {
        "summary": "Blind screening",
        "value": {"required_skills": ["Nursing"], "blind": True},
    },
}


@router.post(
    "/v1/candidates/search",
    operation_id="search_by_skills",
    summary=SEARCH_SUMMARY,
    description=SEARCH_DESCRIPTION,
    response_model=SearchResponse,
    responses=ERRORS,
    tags=["candidates"],
)
async def search_by_skills(
    body: Annotated[SearchRequest, Body(openapi_examples=SEARCH_EXAMPLES)],
    service: Service,
    tenant: Tenant,
) -> SearchResponse:
    """Rank the caller's candidates; the tenant comes from the API key."""
    return await service.search(body, tenant)


# -- candidates -----------------------------------------------------------------------
class CandidateUpsert(BaseModel):
    """A CV (or another document) as plain text, stored under the id in the path."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "text": "Jane Doe\nSenior DevOps engineer, 2016-present. Kubernetes, AWS.",
                    "name": "Jane Doe",
                    "source_file": "jane-doe.pdf",
                }
            ]
        },
    )
    text: str = Field(
        description=f"The CV (or document) as plain text; at least {MIN_TEXT_CHARS} characters "
        "that are not blank.",
        json_schema_extra={"minLength": MIN_TEXT_CHARS},
    )
    name: str | None = Field(
        None, max_length=MAX_NAME_CHARS, description="Overrides the name read from the text."
    )
    document_type: DocumentType = Field(
        DocumentType.CV, description="Only 'cv' documents become candidates."
    )
    source_file: str | None = Field(
        None, max_length=MAX_FILE_NAME_CHARS, description="File name to cite in evidence."
    )


def _stored(stored: StoredDocument, response: Response) -> DocumentRecord:
    if stored.created:
        response.status_code = status.HTTP_201_CREATED
    response.headers["ETag"] = etag(stored.record)
    return stored.record


@router.put(
    "/v1/candidates/{candidate_id}",
    operation_id="upsert_candidate",
    summary="Create or replace a candidate from CV text (idempotent)",
    description="201 when created, 200 when replaced or unchanged. A 2xx means the candidate is in "
    "both stores. The id is your ATS id: sending it again replaces that candidate. To replace only "
    "the version you read, send its `ETag` as `If-Match` (412 if it changed meanwhile); "
    "`If-None-Match: *` creates but never replaces (412 if the id exists).",
    response_model=DocumentRecord,
    response_description="Replaced or unchanged.",
    responses=WRITE_RESPONSES,
    tags=["candidates"],
)
async def upsert_candidate(
    candidate_id: CandidateId,
    body: CandidateUpsert,
    service: Service,
    response: Response,
    tenant: WriterTenant,
    if_match: Annotated[
        str | None, Header(description="Replace only this version (an ETag from GET or PUT).")
    ] = None,
    if_none_match: Annotated[
        str | None, Header(description='"*": create only, never replace.')
    ] = None,
) -> DocumentRecord:
    """Ingest the text under ``candidate_id``; 201 when the id is new."""
    stored = await service.ingest_text(
        tenant,
        text=body.text,
        document_id=candidate_id,
        document_type=body.document_type,
        source_file=body.source_file,
        name=body.name,
        if_match=if_match,
        if_none_match=if_none_match,
    )
    return _stored(stored, response)


@router.post(
    "/v1/documents",
    operation_id="upload_document",
    summary="Upload a CV or another document (txt, md, pdf, docx)",
    description="The id defaults to the file name without extension (transliterated). 201 when "
    "created, 200 when replaced or unchanged, 409 when a different document already has that id "
    "(send document_id, or replace=true).",
    openapi_extra=UPLOAD_ENCODING,
    response_model=DocumentRecord,
    response_description="Replaced or unchanged.",
    responses=WRITE_RESPONSES,
    tags=["documents"],
)
async def upload_document(
    service: Service,
    response: Response,
    tenant: WriterTenant,
    file: Annotated[
        UploadFile,
        File(
            description=f"The document (a shorter file than {MIN_TEXT_CHARS} bytes has no text "
            "to index).",
            json_schema_extra={"minLength": MIN_TEXT_CHARS},
        ),
    ],
    document_type: Annotated[
        DocumentType, Form(description="cv (default), job_description, company_page, job_profile")
    ] = DocumentType.CV,
    document_id: Annotated[
        str | None,
        Form(
            description="Id to store it under (your ATS id).",
            examples=["jane-doe"],
            json_schema_extra=ID_SCHEMA,
        ),
    ] = None,
    replace: Annotated[
        bool,
        Form(
            description="Without document_id: replace a different document stored under the "
            "id the file name gives (409 otherwise)."
        ),
    ] = False,
) -> DocumentRecord:
    """Read, convert and ingest an uploaded file; 201 when the id is new."""
    data = await file.read(service.settings.max_upload_bytes + 1)
    stored = await service.ingest_file(
        tenant,
        data=data,
        filename=file.filename or "upload.txt",
        document_type=document_type,
        document_id=document_id,
        replace=replace,
    )
    return _stored(stored, response)


@router.get(
    "/v1/candidates/{candidate_id}",
    operation_id="get_candidate",
    summary="A candidate with skills, evidence, level and roles",
    response_model=DocumentRecord,
    responses=ERRORS,
    tags=["candidates"],
)
async def get_candidate(
    candidate_id: CandidateId, service: Service, tenant: Tenant, response: Response
) -> DocumentRecord:
    """The stored record of a CV (with its ``ETag``); 404 for an unknown id or a non-CV."""
    record = await service.get_candidate(tenant, candidate_id)
    response.headers["ETag"] = etag(record)
    return record


@router.delete(
    "/v1/candidates/{candidate_id}",
    operation_id="delete_candidate",
    summary="Delete a candidate from both stores",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=ERRORS,
    tags=["candidates"],
)
async def delete_candidate(
    candidate_id: CandidateId, service: Service, tenant: WriterTenant
) -> Response:
    """Remove the candidate from the record store and from LightRAG; 404 when unknown."""
    await service.delete_candidate(tenant, candidate_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/v1/candidates",
    operation_id="list_candidates",
    summary="List candidates, oldest id first, with cursor pagination",
    response_model=CandidatePage,
    responses=ERRORS,
    tags=["candidates"],
)
async def list_candidates(
    service: Service,
    tenant: Tenant,
    limit: Annotated[
        int, Query(ge=1, le=500, description="Page size (1-500).", examples=[50])
    ] = 50,
    cursor: Annotated[
        str | None,
        Query(
            description="next_cursor from the previous page.",
            examples=["eyJhZnRlciI6ICJjdi0wMDA1MCJ9"],
        ),
    ] = None,
) -> CandidatePage:
    """Candidates ordered by id; pass next_cursor back until has_more is false."""
    return await candidate_page(service, tenant, limit, cursor)


# -- documents ------------------------------------------------------------------------
DocumentTypeFilter = Annotated[
    DocumentType | None,
    Query(
        description="Only this type; omit for every document that is not a CV "
        "(job descriptions, company pages, job profiles).",
        examples=["job_description"],
    ),
]


@router.get(
    "/v1/documents",
    operation_id="list_documents",
    summary="List job descriptions and other non-CV documents, with cursor pagination",
    description="Stored documents ordered by id: by default those that are not CVs, never "
    "candidates themselves. A job description's id searches by it "
    "(`job_description_id` of POST /v1/candidates/search).",
    response_model=DocumentPage,
    responses=ERRORS,
    tags=["documents"],
)
async def list_documents(
    service: Service,
    tenant: Tenant,
    document_type: DocumentTypeFilter = None,
    limit: Annotated[
        int, Query(ge=1, le=500, description="Page size (1-500).", examples=[50])
    ] = 50,
    cursor: Annotated[
        str | None,
        Query(
            description="next_cursor from the previous page.",
            examples=["eyJhZnRlciI6ICJqZC1wbGF0Zm9ybS1lbmdpbmVlciJ9"],
        ),
    ] = None,
) -> DocumentPage:
    """Documents ordered by id; pass next_cursor back until has_more is false."""
    return await document_page(service, tenant, limit, cursor, document_type)


@router.get(
    "/v1/documents/{document_id}",
    operation_id="get_document",
    summary="A stored document of any type (job description, CV, ...)",
    description="The stored record: type, name, the skills it names with the passages that "
    "name them, levels and years where it states them.",
    response_model=DocumentRecord,
    responses=ERRORS,
    tags=["documents"],
)
async def get_document(
    document_id: DocumentId, service: Service, tenant: Tenant, response: Response
) -> DocumentRecord:
    """The stored record (with its ``ETag``); 404 for an unknown id."""
    record = await service.get_document(tenant, document_id)
    response.headers["ETag"] = etag(record)
    return record
