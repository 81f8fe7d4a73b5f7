"""Rows both SQL stores write and read the same way: document columns, skill rows,
holdings and profiles. Only the SQL dialect differs between SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from talentrag.domain import (
    CandidateProfile,
    DocumentRecord,
    ExperienceLevel,
    MatchKind,
    SkillHolding,
    SkillStrength,
)

_KINDS = {kind.value: kind for kind in MatchKind}
_LEVELS = {level.value: level for level in ExperienceLevel}
_STRENGTHS = {strength.value: strength for strength in SkillStrength}

PROFILE_COLUMNS = "d.id, d.level, d.years, d.duplicate_group"
"""The document columns a profile reads (``d`` is the documents table)."""

HOLDING_COLUMNS = "s.skill, s.kind, s.confidence, s.mentions, s.strength, s.years, s.last_used"
"""The skill-table columns a profile reads, after ``PROFILE_COLUMNS``."""


def document_columns(record: DocumentRecord) -> tuple[Any, ...]:
    """The searchable columns of a document row, in table order after the id."""
    return (
        record.document_type.value,
        record.name,
        record.source_file,
        record.content_hash,
        record.level.value if record.level else None,
        record.years,
    )


def skill_rows(tenant: str, record: DocumentRecord) -> list[tuple[Any, ...]]:
    """One skill-table row per held skill, in the table's column order."""
    return [
        (
            tenant,
            record.id,
            s.skill,
            s.kind.value,
            s.confidence,
            s.mentions,
            s.strength.value if s.strength else None,
            s.years,
            s.last_used,
        )
        for s in record.skills
    ]


def stale_chunks(old_chunk_ids: list[str], record: DocumentRecord) -> list[str]:
    """Chunks of earlier (possibly half-written) versions that the new one does not reuse."""
    keep = {c.chunk_id for c in record.chunks}
    return sorted({c for c in old_chunk_ids if c not in keep})


def _holding(
    kind: str,
    confidence: float,
    mentions: int,
    strength: str | None,
    years: float | None,
    last_used: int | None,
) -> SkillHolding:
    return SkillHolding(
        _KINDS[kind],
        confidence,
        mentions,
        _STRENGTHS[strength] if strength else None,
        years,
        last_used,
    )


def add_profiles(found: dict[str, CandidateProfile], rows: Iterable[Any]) -> None:
    """Fold (``PROFILE_COLUMNS``, ``HOLDING_COLUMNS``) rows into profiles; a row without
    a skill (a LEFT JOIN's) makes the profile alone."""
    for document_id, level, years, group, skill, *holding in rows:
        profile = found.get(document_id)
        if profile is None:
            profile = found[document_id] = CandidateProfile(
                document_id, _LEVELS[level] if level else None, {}, years, group
            )
        if skill is not None:
            profile.skills[skill] = _holding(*holding)
