"""REST routes for ATS systems. Thin: authenticate, validate, call the core, translate."""

from __future__ import annotations

import base64
import binascii
import json
import pathlib
from datetime import datetime
from typing import Annotated

from fastapi import (
    APIRouter,
    Depends,
    File,
    Form,
    Path,
    Query,
    Request,
    Response,
    UploadFile,
    status,
)
from pydantic import BaseModel, ConfigDict, Field

from talentrag.adapters.auth import AuthError, tenant_for
from talentrag.adapters.http.errors import BadRequest, NotFound, Problem, ProblemError
from talentrag.domain import DocumentRecord, DocumentType, ExperienceLevel
from talentrag.ingestion.analyze import ID_PATTERN, document_id_for
from talentrag.ingestion.pipeline import Outcome, SourceDocument
from talentrag.ingestion.readers import MAX_DOCUMENT_BYTES, extract_text
from talentrag.runtime import KnowledgeBase
from talentrag.search import SearchRequest, SearchResponse

router = APIRouter()
ERRORS = {
    code: {"model": Problem, "content": {"application/problem+json": {}}}
    for code in (400, 401, 403, 404, 413, 415, 422, 503)
}
CandidateId = Annotated[
    str,
    Path(
        pattern=ID_PATTERN.pattern,
        description="Your id for the candidate (ATS id).",
        examples=["cv-00042"],
    ),
]


def _kb(request: Request) -> KnowledgeBase:
    return request.app.state.kb


def tenant_of(request: Request) -> str:
    """The tenant of the caller's API key; without configured keys, the default tenant."""
    try:
        return tenant_for(_kb(request).settings, request.headers)
    except AuthError as exc:
        title = "Unauthorized" if exc.status == 401 else "Forbidden"
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        raise ProblemError(exc.status, title, str(exc), headers) from exc


Tenant = Annotated[str, Depends(tenant_of)]


# -- operations -----------------------------------------------------------------------
class Health(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"status": "ok"}]})
    status: str


@router.get(
    "/health", operation_id="health", summary="Liveness", tags=["operations"], response_model=Health
)
async def health() -> Health:
    return Health(status="ok")


@router.get(
    "/ready", operation_id="ready", summary="Readiness: knowledge base loaded, LightRAG reachable",
    tags=["operations"], response_model=Health, responses=ERRORS,
)  # fmt: skip
async def ready(request: Request) -> Health:
    kb = _kb(request)
    await kb.gateway.ready(kb.settings.tenant)
    return Health(status="ready")


# -- search ---------------------------------------------------------------------------
@router.post(
    "/v1/candidates/search",
    operation_id="search_by_skills",
    summary="Rank candidates by required and preferred skills",
    description="Returns candidates with matched, preferred and missing skills, the experience level, "
    "a match score and the CV passages that prove it. Aliases work: 'K8s' finds Kubernetes.",
    response_model=SearchResponse,
    responses=ERRORS,
    tags=["candidates"],
)
async def search_by_skills(body: SearchRequest, request: Request, tenant: Tenant) -> SearchResponse:
    if body.tenant and body.tenant != tenant:
        raise ProblemError(403, "Forbidden", f"This API key may not search tenant '{body.tenant}'.")
    return await _kb(request).search.search(body, tenant)


# -- candidates -----------------------------------------------------------------------
class CandidateUpsert(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"text": "Jane Doe\nSenior DevOps engineer, 2016-present. Kubernetes, AWS.",
                                         "name": "Jane Doe", "source_file": "jane-doe.pdf"}]},
    )  # fmt: skip
    text: str = Field(
        min_length=20,
        max_length=MAX_DOCUMENT_BYTES,
        description="The CV (or document) as plain text.",
    )
    name: str | None = Field(
        None, max_length=200, description="Overrides the name read from the text."
    )
    document_type: DocumentType = Field(
        DocumentType.CV, description="Only 'cv' documents become candidates."
    )
    source_file: str | None = Field(
        None, max_length=255, description="File name to cite in evidence."
    )


class CandidateSummary(BaseModel):
    id: str
    name: str
    source_file: str
    experience_level: ExperienceLevel | None
    years_experience: float | None
    skills: list[str]
    created_at: datetime | None
    updated_at: datetime | None

    @classmethod
    def of(cls, record: DocumentRecord) -> CandidateSummary:
        return cls(id=record.id, name=record.name, source_file=record.source_file, experience_level=record.level,
                   years_experience=record.years, skills=record.skill_names(), created_at=record.created_at,
                   updated_at=record.updated_at)  # fmt: skip


class CandidatePage(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"data": [{"id": "cv-00001", "name": "Jane Doe", "source_file": "cv-00001.md",
                                                   "experience_level": "senior", "years_experience": 9.9,
                                                   "skills": ["AWS", "Kubernetes"], "created_at": "2026-11-21T07:00:00Z",
                                                   "updated_at": "2026-11-21T07:00:00Z"}],
                                         "next_cursor": "eyJhZnRlciI6ICJjdi0wMDAwMSJ9", "has_more": True}]}
    )  # fmt: skip

    data: list[CandidateSummary]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )
    has_more: bool


async def _ingest(
    kb: KnowledgeBase, tenant: str, source: SourceDocument, response: Response
) -> DocumentRecord:
    (result,) = await kb.ingestor.ingest_documents(tenant, [source])
    if result.outcome is Outcome.INGESTED:
        response.status_code = status.HTTP_201_CREATED
    record = await kb.store.get(tenant, source.document_id)
    if record is None:  # cannot happen after a successful write; never answer 2xx without it
        raise ProblemError(500, "Internal error", "The document was not stored.")
    return record


@router.put(
    "/v1/candidates/{candidate_id}",
    operation_id="upsert_candidate",
    summary="Create or replace a candidate from CV text (idempotent)",
    description="201 when created, 200 when replaced or unchanged. A 2xx means the candidate is in both stores.",
    response_model=DocumentRecord,
    responses=ERRORS,
    tags=["candidates"],
)
async def upsert_candidate(
    candidate_id: CandidateId,
    body: CandidateUpsert,
    request: Request,
    response: Response,
    tenant: Tenant,
) -> DocumentRecord:
    source = SourceDocument(
        text=body.text, document_id=candidate_id, source_file=body.source_file or f"{candidate_id}.txt",
        document_type=body.document_type, name=body.name,
    )  # fmt: skip
    return await _ingest(_kb(request), tenant, source, response)


@router.post(
    "/v1/documents",
    operation_id="upload_document",
    summary="Upload a CV or another document (txt, md, pdf, docx)",
    description="The id defaults to the file name without extension. 201 when created, 200 when replaced or unchanged.",
    response_model=DocumentRecord,
    responses=ERRORS,
    tags=["documents"],
)
async def upload_document(
    request: Request,
    response: Response,
    tenant: Tenant,
    file: Annotated[UploadFile, File(description="The document.")],
    document_type: Annotated[
        DocumentType, Form(description="cv (default), job_description, company_page, job_profile")
    ] = DocumentType.CV,
    document_id: Annotated[
        str | None,
        Form(
            pattern=ID_PATTERN.pattern, description="Id to store it under.", examples=["jane-doe"]
        ),
    ] = None,
) -> DocumentRecord:
    kb = _kb(request)
    limit = kb.settings.max_upload_bytes
    data = await file.read(limit + 1)
    if len(data) > limit:
        raise ProblemError(
            413, "Upload too large", f"The file exceeds {limit} bytes; send a smaller file."
        )
    filename = pathlib.Path(file.filename or "upload.txt").name
    text = extract_text(data, filename)
    source = SourceDocument(text=text, document_id=document_id or document_id_for(pathlib.Path(filename)),
                            source_file=filename, document_type=document_type)  # fmt: skip
    return await _ingest(kb, tenant, source, response)


@router.get(
    "/v1/candidates/{candidate_id}",
    operation_id="get_candidate",
    summary="A candidate with skills, evidence, level and roles",
    response_model=DocumentRecord,
    responses=ERRORS,
    tags=["candidates"],
)
async def get_candidate(
    candidate_id: CandidateId, request: Request, tenant: Tenant
) -> DocumentRecord:
    record = await _kb(request).store.get(tenant, candidate_id)
    if record is None or not record.is_candidate:
        raise NotFound(f"No candidate with id '{candidate_id}'.")
    return record


@router.delete(
    "/v1/candidates/{candidate_id}",
    operation_id="delete_candidate",
    summary="Delete a candidate from both stores",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=ERRORS,
    tags=["candidates"],
)
async def delete_candidate(candidate_id: CandidateId, request: Request, tenant: Tenant) -> Response:
    if not await _kb(request).ingestor.delete(tenant, [candidate_id]):
        raise NotFound(f"No candidate with id '{candidate_id}'.")
    return Response(status_code=status.HTTP_204_NO_CONTENT)


def _encode_cursor(last_id: str) -> str:
    return base64.urlsafe_b64encode(json.dumps({"after": last_id}).encode()).decode().rstrip("=")


def _decode_cursor(cursor: str) -> str:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        return str(json.loads(base64.urlsafe_b64decode(padded))["after"])
    except (binascii.Error, ValueError, KeyError, TypeError) as exc:
        raise BadRequest("cursor is not valid; pass the next_cursor of the previous page") from exc


@router.get(
    "/v1/candidates",
    operation_id="list_candidates",
    summary="List candidates, oldest id first, with cursor pagination",
    response_model=CandidatePage,
    responses=ERRORS,
    tags=["candidates"],
)
async def list_candidates(
    request: Request,
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
    after = _decode_cursor(cursor) if cursor else None
    records = await _kb(request).store.list(
        tenant, DocumentType.CV, limit=limit + 1, after_id=after
    )
    page = records[:limit]
    has_more = len(records) > limit
    return CandidatePage(data=[CandidateSummary.of(r) for r in page],
                         next_cursor=_encode_cursor(page[-1].id) if has_more else None, has_more=has_more)  # fmt: skip
