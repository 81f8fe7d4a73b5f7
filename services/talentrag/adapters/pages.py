"""Pages of stored records as every adapter shows them: summaries and keyset cursors.

The cursor is opaque to callers: it carries the last id of the page, and the
application layer lists the ids after it. One codec for candidates and documents,
for REST, /tools and MCP alike.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from talentrag.application import TalentService
from talentrag.domain import DocumentRecord, DocumentType, ExperienceLevel
from talentrag.errors import MalformedRequest


def encode_cursor(last_id: str) -> str:
    """The cursor of the page that follows the record ``last_id``."""
    return base64.urlsafe_b64encode(json.dumps({"after": last_id}).encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> str:
    """The id a cursor continues after; ``MalformedRequest`` when no page handed it out."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        return str(json.loads(base64.urlsafe_b64decode(padded))["after"])
    except (binascii.Error, ValueError, KeyError, TypeError) as exc:
        raise MalformedRequest(
            "cursor is not valid; pass the next_cursor of the previous page"
        ) from exc


class CandidateSummary(BaseModel):
    """A candidate in a list: identity, level and skill names."""

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
        """The summary of a stored record."""
        return cls(
            id=record.id,
            name=record.name,
            source_file=record.source_file,
            experience_level=record.level,
            years_experience=record.years,
            skills=record.skill_names(),
            created_at=record.created_at,
            updated_at=record.updated_at,
        )


class CandidatePage(BaseModel):
    """One page of candidates with the cursor of the next."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [
                        {
                            "id": "cv-00001",
                            "name": "Jane Doe",
                            "source_file": "cv-00001.md",
                            "experience_level": "senior",
                            "years_experience": 9.9,
                            "skills": ["AWS", "Kubernetes"],
                            "created_at": "2026-11-21T07:00:00Z",
                            "updated_at": "2026-11-21T07:00:00Z",
                        }
                    ],
                    "next_cursor": "eyJhZnRlciI6ICJjdi0wMDAwMSJ9",
                    "has_more": True,
                }
            ]
        }
    )

    data: list[CandidateSummary]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )
    has_more: bool


class DocumentSummary(BaseModel):
    """A stored document in a list: its id (to search by), type, name and skills named."""

    id: str = Field(description="Pass as `job_description_id` to search for its requirements.")
    document_type: DocumentType
    name: str = Field(
        description="The name given when it was stored, else its file name without extension."
    )
    source_file: str
    skills: list[str] = Field(description="Skills the document names.")
    created_at: datetime | None
    updated_at: datetime | None

    @classmethod
    def of(cls, record: DocumentRecord) -> DocumentSummary:
        """The summary of a stored record."""
        return cls(
            id=record.id,
            document_type=record.document_type,
            name=record.name,
            source_file=record.source_file,
            skills=record.skill_names(),
            created_at=record.created_at,
            updated_at=record.updated_at,
        )


class DocumentPage(BaseModel):
    """One page of documents with the cursor of the next."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [
                        {
                            "id": "jd-platform-engineer",
                            "document_type": "job_description",
                            "name": "jd-platform-engineer",
                            "source_file": "jd-platform-engineer.md",
                            "skills": ["AWS", "Kubernetes", "Python", "Terraform"],
                            "created_at": "2026-11-21T07:00:00Z",
                            "updated_at": "2026-11-21T07:00:00Z",
                        }
                    ],
                    "next_cursor": None,
                    "has_more": False,
                }
            ]
        }
    )

    data: list[DocumentSummary]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )
    has_more: bool


async def candidate_page(
    service: TalentService, tenant: str, limit: int, cursor: str | None
) -> CandidatePage:
    """One page of candidates for an opaque cursor."""
    after = decode_cursor(cursor) if cursor else None
    page = await service.list_candidates(tenant, limit, after)
    last = page.records[-1].id if page.records and page.has_more else None
    return CandidatePage(
        data=[CandidateSummary.of(r) for r in page.records],
        next_cursor=encode_cursor(last) if last else None,
        has_more=page.has_more,
    )


async def document_page(
    service: TalentService,
    tenant: str,
    limit: int,
    cursor: str | None,
    document_type: DocumentType | None = None,
) -> DocumentPage:
    """One page of documents (by default those that are not CVs) for an opaque cursor."""
    after = decode_cursor(cursor) if cursor else None
    page = await service.list_documents(tenant, limit, after, document_type)
    last = page.records[-1].id if page.records and page.has_more else None
    return DocumentPage(
        data=[DocumentSummary.of(r) for r in page.records],
        next_cursor=encode_cursor(last) if last else None,
        has_more=page.has_more,
    )
