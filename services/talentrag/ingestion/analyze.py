"""One document's text to its record: identity, structure, skills with evidence, chunks."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from anyascii import anyascii

from talentrag.domain import ChunkRef, DocumentRecord, DocumentType
from talentrag.ingestion.cv_parser import parse_cv, split_sections
from talentrag.ingestion.duplicates import signature
from talentrag.ingestion.skill_depth import add_skill_depth
from talentrag.ingestion.skills import extract_skills
from talentrag.ingestion.title_skills import add_heading_skills, add_title_skills
from talentrag.policy.limits import MAX_ANALYSED_CHARS
from talentrag.vocabulary.vocabulary import Vocabulary

CHUNK_CHARS = 1200
CONTACT_DETAILS = re.compile(r"\S+@\S+|https?://\S+|www\.\S+|\+?\d[\d ()-]{7,}\d")
"""E-mail addresses, web addresses and phone numbers: never skills, withheld in blind mode."""


def document_id_for(path: Path) -> str:
    """Stable id from a file name, transliterated ('Müller' -> 'muller', 'Иван' -> 'ivan')."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", anyascii(path.stem)).strip("-._").lower()
    return slug[:128] if slug else f"document-{_short_hash(path.stem)}"


def distinct_id(document_id: str, origin: str) -> str:
    """The id of a second file whose name gives the same id as another file's."""
    return f"{document_id[:119]}-{_short_hash(origin)}"


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", errors="replace")).hexdigest()[:8]


def content_hash(text: str, document_type: DocumentType) -> str:
    """Fingerprint of text and type: an unchanged re-ingest is skipped."""
    return hashlib.sha256(f"{document_type.value}\n{text}".encode()).hexdigest()


@dataclass(frozen=True)
class Chunk:
    """A passage sent to LightRAG, with its offsets in the document."""

    order: int
    start: int
    end: int
    content: str


@dataclass
class AnalyzedDocument:
    """What ingestion writes for one document: its record, its chunks, its signature."""

    record: DocumentRecord
    chunks: list[Chunk]
    signature: bytes | None = None
    """A CV's near-duplicate signature (``ingestion.duplicates``), stored beside the record
    and never shown; None for other document types."""


def chunk_content(source_file: str, text: str, start: int, end: int) -> str:
    """A chunk's LightRAG text: a provenance line (file and offsets), then the passage."""
    return f"{source_file} [{start}:{end}]\n{text[start:end]}"


def chunk_text(text: str, source_file: str) -> list[Chunk]:
    """Section-aligned chunks of at most ~CHUNK_CHARS, split at line ends.

    The content starts with the file and offsets, which keeps provenance visible
    in raw LightRAG answers and makes identical passages in two CVs distinct chunks.
    """
    spans: list[tuple[int, int]] = []
    for section in split_sections(text):
        start = section.start
        while start < section.end:
            end = min(section.end, start + CHUNK_CHARS)
            if end < section.end:
                cut = text.rfind("\n", start + CHUNK_CHARS // 2, end)
                end = cut + 1 if cut != -1 else end
            spans.append((start, end))
            start = end
    chunks: list[Chunk] = []
    for start, end in spans:
        body = text[start:end]
        lead = len(body) - len(body.lstrip())
        body = body.strip()
        if body:
            s = start + lead
            e = s + len(body)
            chunks.append(Chunk(len(chunks), s, e, chunk_content(source_file, text, s, e)))
    return chunks


def analyze_document(
    text: str,
    *,
    document_id: str,
    source_file: str,
    document_type: DocumentType,
    vocabulary: Vocabulary,
    as_of: date,
    name: str | None = None,
) -> AnalyzedDocument:
    """Record and chunks of one document: CVs are parsed for structure, every type for skills.

    Only the first ``MAX_ANALYSED_CHARS`` characters are analysed and chunked (a CV is
    far shorter); the whole text is stored. Offsets stay offsets into the whole text.
    """
    from lightrag.utils import compute_mdhash_id, sanitize_text_for_encoding

    full_text, text = text, text[:MAX_ANALYSED_CHARS]
    parsed = parse_cv(text, vocabulary, as_of) if document_type is DocumentType.CV else None
    skip = [m.span() for m in CONTACT_DETAILS.finditer(text)]
    if parsed and parsed.name_span:
        skip.append(parsed.name_span)
    sections = parsed.sections if parsed else split_sections(text)
    home_field = parsed.current_field if parsed else None
    extraction = extract_skills(text, vocabulary, source_file, skip, sections, home_field)
    if parsed:
        add_title_skills(extraction, parsed.roles, text, vocabulary, source_file)
        add_heading_skills(extraction, parsed.sections, text, vocabulary, source_file)
        add_skill_depth(extraction.held, extraction.positions, parsed.roles, parsed.skill_years)
    chunks = chunk_text(text, source_file)
    record = DocumentRecord(
        id=document_id,
        document_type=document_type,
        name=name or (parsed.name if parsed and parsed.name else Path(source_file).stem),
        source_file=source_file,
        content_hash=content_hash(full_text, document_type),
        level=parsed.level if parsed else None,
        level_source=parsed.level_source if parsed else None,
        level_reason=parsed.level_reason if parsed else None,
        years=parsed.years if parsed else None,
        experience_spans=parsed.experience_spans if parsed else [],
        skill_years=parsed.skill_years if parsed else {},
        field=parsed.current_field if parsed else None,
        skills=extraction.held,
        rejected=extraction.rejected,
        roles=parsed.roles if parsed else [],
        chunks=[
            ChunkRef(
                chunk_id=compute_mdhash_id(sanitize_text_for_encoding(c.content), prefix="chunk-"),
                start=c.start,
                end=c.end,
                order=c.order,
            )
            for c in chunks
        ],
    )
    signed = signature(full_text) if document_type is DocumentType.CV else None
    return AnalyzedDocument(record, chunks, signed.to_bytes() if signed else None)
