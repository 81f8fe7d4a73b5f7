"""Ingest jobs over HTTP: many texts or files at once, answered 202 with a job to poll."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.datastructures import UploadFile

from talentrag.adapters.http.routes import ERRORS, Service, Tenant, WriterTenant
from talentrag.application import TextDocument
from talentrag.domain import DocumentType
from talentrag.errors import InvalidInput, MalformedRequest
from talentrag.policy.limits import MAX_FILE_NAME_CHARS, MAX_JOB_DOCUMENTS, MAX_NAME_CHARS
from talentrag.store.jobs import IngestJob, JobStatus

router = APIRouter(tags=["ingest jobs"])


class JobText(BaseModel):
    """One text to ingest under your id."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(
        min_length=1, max_length=128, description="Your id (ATS id).", examples=["cv-00042"]
    )
    text: str = Field(min_length=1, description="The document's plain text.")
    name: str | None = Field(None, max_length=MAX_NAME_CHARS, description="The person's name.")


class IngestJobRequest(BaseModel):
    """Texts to ingest in the background (JSON); files go as multipart/form-data."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "documents": [
                        {
                            "id": "ats-1001",
                            "text": "Jane Doe\nDevOps engineer since 2016: K8s, AWS",
                        },
                        {"id": "ats-1002", "text": "Tom Baker\nJunior Python developer, 2024-"},
                    ]
                }
            ]
        },
    )
    documents: list[JobText] = Field(min_length=1, max_length=MAX_JOB_DOCUMENTS)
    document_type: DocumentType = DocumentType.CV


class JobDocument(BaseModel):
    """What became of one document of the job; ``outcome`` is null while it waits."""

    index: int
    source: str = Field(description="The file name, or the id given with a text.")
    outcome: str | None = Field(description="ingested, updated, skipped or failed; null = waiting")
    document_id: str | None
    reason: str | None = None


class IngestJobView(BaseModel):
    """A job's progress and per-document outcomes."""

    id: str
    status: JobStatus = Field(description="queued, running, done (or interrupted: a CLI run).")
    document_type: DocumentType
    total: int
    processed: int
    counts: dict[str, int] = Field(description="Documents per outcome so far.")
    created_at: datetime
    updated_at: datetime
    documents: list[JobDocument]

    @classmethod
    def of(cls, job: IngestJob) -> IngestJobView:
        """The view of a stored job."""
        return cls(
            id=job.id,
            status=job.status,
            document_type=job.document_type,
            total=job.total,
            processed=job.processed,
            counts=job.counts,
            created_at=job.created_at,
            updated_at=job.updated_at,
            documents=[
                JobDocument(
                    index=i.seq,
                    source=i.source,
                    outcome=i.outcome,
                    document_id=i.document_id,
                    reason=i.reason,
                )
                for i in job.items
            ],
        )


_MULTIPART_SCHEMA = {
    "type": "object",
    "required": ["files"],
    "properties": {
        "files": {
            "type": "array",
            "items": {"type": "string", "format": "binary"},
            "description": "The documents (txt, md, pdf, docx); each id comes from its file name.",
        },
        "document_type": {"type": "string", "enum": [t.value for t in DocumentType]},
        "replace": {
            "type": "boolean",
            "description": "Replace a different document stored under the id a file name "
            "gives (otherwise that file fails with a conflict).",
        },
    },
}


@router.post(
    "/v1/ingest-jobs",
    operation_id="create_ingest_job",
    summary="Ingest many documents in the background (texts as JSON, or files as multipart)",
    description="Answers 202 with the job at once; poll `Location` (GET /v1/ingest-jobs/{id}) for "
    "progress and per-document outcomes. A document that cannot be read fails alone.",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=IngestJobView,
    responses=ERRORS,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": IngestJobRequest.model_json_schema()},
                "multipart/form-data": {"schema": _MULTIPART_SCHEMA},
            },
        }
    },
)
async def create_ingest_job(
    request: Request, service: Service, tenant: WriterTenant, response: Response
) -> IngestJobView:
    """Queue the request's texts or files as one job."""
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        job = await _submit_files(request, service, tenant)
    elif content_type.startswith("application/json"):
        job = await _submit_texts(request, service, tenant)
    else:
        raise MalformedRequest("send application/json (texts) or multipart/form-data (files)")
    response.headers["Location"] = f"/v1/ingest-jobs/{job.id}"
    return IngestJobView.of(job)


async def _submit_texts(request: Request, service: Service, tenant: str) -> IngestJob:
    try:
        body = IngestJobRequest.model_validate_json(await request.body())
    except ValidationError as exc:
        raise InvalidInput.from_validation(exc) from exc
    texts = [TextDocument(d.id, d.text, d.name) for d in body.documents]
    return await service.submit_ingest_job(tenant, texts=texts, document_type=body.document_type)


async def _submit_files(request: Request, service: Service, tenant: str) -> IngestJob:
    limit = service.settings.max_upload_bytes
    async with request.form(max_files=MAX_JOB_DOCUMENTS, max_fields=10) as form:
        uploads = [f for f in form.getlist("files") if isinstance(f, UploadFile)]
        if not uploads:
            raise InvalidInput("files: send at least one file in the 'files' field")
        document_type = _form_value(form.get("document_type"), "cv")
        replace = _form_value(form.get("replace"), "false").lower()
        if replace not in {"true", "false"}:
            raise InvalidInput("replace: use true or false")
        try:
            kind = DocumentType(document_type)
        except ValueError as exc:
            allowed = ", ".join(t.value for t in DocumentType)
            raise InvalidInput(f"document_type: use one of {allowed}") from exc
        files = []
        for upload in uploads:
            filename = (upload.filename or "upload.txt")[-MAX_FILE_NAME_CHARS:]
            files.append((filename, await upload.read(limit + 1)))
    return await service.submit_ingest_job(
        tenant, files=files, document_type=kind, replace=replace == "true"
    )


def _form_value(value: Any, default: str) -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise InvalidInput("document_type and replace are plain form fields, not files")
    return value


@router.get(
    "/v1/ingest-jobs/{job_id}",
    operation_id="get_ingest_job",
    summary="An ingest job's progress and per-document outcomes",
    response_model=IngestJobView,
    responses=ERRORS,
)
async def get_ingest_job(
    job_id: Annotated[
        str,
        Path(max_length=64, description="The id POST returned.", examples=["job-3f2a9c1d5e7b4a60"]),
    ],
    service: Service,
    tenant: Tenant,
) -> IngestJobView:
    """The job of the caller's tenant."""
    return IngestJobView.of(await service.ingest_job(tenant, job_id))
