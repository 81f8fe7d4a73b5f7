"""The search_by_skills request and response: one contract for CLI, HTTP and MCP."""

from __future__ import annotations

import re
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from talentrag.config import validate_tenant
from talentrag.domain import Evidence, ExperienceLevel, MatchKind, SkillStrength
from talentrag.policy.levels import BANDS_TEXT
from talentrag.policy.limits import (
    MAX_EVIDENCE,
    MAX_JOB_DESCRIPTION_CHARS,
    MAX_QUERY_CHARS,
    MAX_SKILL_CHARS,
    MAX_SKILLS,
    MAX_TOP_K,
)

NO_MATCH_MESSAGE = "No candidates found with required skill combination. Try broadening criteria."


def _clean_skills(values: list[str], field_name: str) -> list[str]:
    """Trim, refuse empty entries, drop case-insensitive duplicates (first wording wins)."""
    cleaned: list[str] = []
    seen: set[str] = set()
    for index, value in enumerate(values):
        text = " ".join(str(value).split())
        if not text:
            raise ValueError(f"{field_name}[{index}] is empty; every skill needs a name")
        if len(text) > MAX_SKILL_CHARS:
            raise ValueError(f"{field_name}[{index}] is longer than {MAX_SKILL_CHARS} characters")
        if text.casefold() not in seen:
            seen.add(text.casefold())
            cleaned.append(text)
    return cleaned


def _levels(value: object) -> object:
    """'senior', 'mid or senior', 'Mid, Senior', ['mid', 'senior'] -> a list; '' -> None."""
    if value is None:
        return None
    parts = re.split(r",|/|\bor\b|\band\b", value) if isinstance(value, str) else value
    if not isinstance(parts, list):
        return value
    cleaned = [p.strip().lower() if isinstance(p, str) else p for p in parts]
    levels = [p for p in cleaned if p != ""]
    if not all(isinstance(p, str) for p in levels):
        return value  # pydantic reports the wrong item type
    return list(dict.fromkeys(levels)) or None


class SkillQuery(BaseModel):
    """What to find: skills, levels, years, exclusions; or text to read them from."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "required_skills": ["Kubernetes", "AWS"],
                    "preferred_skills": ["Terraform"],
                    "experience_level": ["mid", "senior"],
                    "min_years": 3,
                    "exclude_skills": ["PHP"],
                    "top_k": 5,
                },
                {"query": "senior python developer with kubernetes, terraform a plus"},
                {"job_description_id": "jd-platform-engineer", "top_k": 10},
            ]
        },
    )

    required_skills: list[str] = Field(
        default_factory=list,
        description="Skills every candidate must have (up to 20). Aliases work: 'K8s' means "
        "Kubernetes. Needed unless `query` or a job description is given.",
        examples=[["Python", "Machine Learning"]],
    )
    preferred_skills: list[str] = Field(
        default_factory=list,
        description="Nice-to-have skills (0-20); holders rank higher.",
        examples=[["AWS"]],
    )
    experience_level: list[ExperienceLevel] | None = Field(
        None,
        description=f"{BANDS_TEXT}. One level or several ('mid or senior'); only those "
        "levels are returned. Omit for any.",
    )
    min_years: float | None = Field(
        None,
        ge=0,
        le=60,
        description="Only candidates with at least this many years of experience.",
    )
    exclude_skills: list[str] = Field(
        default_factory=list,
        description="Nobody who holds any of these skills (or an alias, or a skill implying "
        "it) is returned.",
    )
    query: str | None = Field(
        None,
        max_length=MAX_QUERY_CHARS,
        description="Free text, e.g. 'senior python developer with kubernetes, terraform a "
        "plus': read without an LLM into skills, level and years (echoed as "
        "`resolved_request`). Fields given alongside it win over what it says.",
    )
    job_description_id: str | None = Field(
        None, description="Search for a stored job description's requirements (its id)."
    )
    job_description_text: str | None = Field(
        None,
        max_length=MAX_JOB_DESCRIPTION_CHARS,
        description="Search for a pasted job description's requirements.",
    )
    include_partial: bool | None = Field(
        None,
        description="Also list, after those with every required skill, candidates for whom "
        "a related skill stands in for a required one (partial_skills names it). Omit: no "
        "for skill fields, yes for a query or job description (words are looser than fields).",
    )
    top_k: int = Field(5, ge=1, le=MAX_TOP_K, description=f"Candidates per page (1-{MAX_TOP_K}).")
    cursor: str | None = Field(
        None, description="`next_cursor` of the previous page of the same search."
    )
    blind: bool | None = Field(
        None,
        description="Withhold names, contact details and source files, and scrub them from "
        "evidence (fair screening). Omit for the tenant's default.",
    )

    @field_validator("required_skills", "preferred_skills", "exclude_skills", mode="before")
    @classmethod
    def _split_text(cls, value: object) -> object:
        """Assistants send "Kubernetes, AWS" for a list: split on commas, semicolons, lines."""
        if isinstance(value, str):
            return [part for part in re.split(r"[,;\n]", value) if part.strip()]
        return value

    @field_validator("experience_level", mode="before")
    @classmethod
    def _level_list(cls, value: object) -> object:
        return _levels(value)

    @field_validator("query", "job_description_text", "job_description_id", "cursor")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None

    @field_validator("required_skills", "preferred_skills", "exclude_skills")
    @classmethod
    def _skills(cls, values: list[str], info: ValidationInfo) -> list[str]:
        name = str(info.field_name)
        cleaned = _clean_skills(values, name)
        if len(cleaned) > MAX_SKILLS:
            raise ValueError(
                f"{name} takes at most {MAX_SKILLS} distinct skills, got {len(cleaned)}"
            )
        return cleaned

    @model_validator(mode="after")
    def _something_to_find(self) -> Self:
        sources = [self.query, self.job_description_id, self.job_description_text]
        if not self.required_skills and not any(sources):
            raise ValueError(
                "give required_skills, a free-text query, or a job description "
                "(job_description_id or job_description_text)"
            )
        if self.job_description_id and self.job_description_text:
            raise ValueError("give job_description_id or job_description_text, not both")
        return self

    @property
    def reads_text(self) -> bool:
        """Whether skills, level or years come (partly) from a query or job description."""
        return bool(self.query or self.job_description_id or self.job_description_text)


class ResolvedRequest(BaseModel):
    """The structured search a request became; send it back (edited) as a new request."""

    required_skills: list[str]
    preferred_skills: list[str]
    experience_level: list[ExperienceLevel] | None
    min_years: float | None
    exclude_skills: list[str]
    include_partial: bool
    top_k: int


class SearchRequest(SkillQuery):
    """A skill query, optionally naming the tenant (it must be the caller's)."""

    tenant: str | None = Field(
        None, description="Tenant to search; default from configuration or API key."
    )

    @field_validator("tenant")
    @classmethod
    def _tenant(cls, value: str | None) -> str | None:
        return validate_tenant(value) if value is not None else None


class SkillMatchDetail(BaseModel):
    """How one requested skill was met by one candidate, with the score's components."""

    requested: str = Field(description="The recruiter's wording.")
    skill: str = Field(description="The canonical skill the candidate holds.")
    kind: MatchKind
    status: str = Field(
        description="'matched' (the skill, an alias, a skill implying it, its family for a "
        "broad term, or its name in the text) or 'partial' (only a related skill stands in)."
    )
    stand_in: str | None = Field(
        None, description="For a partial match: the related skill that stood in."
    )
    confidence: float = Field(ge=0, le=1, description="Credit: how fully the held skill counts.")
    required: bool
    strength: SkillStrength | None = Field(
        None, description="Where the CV shows it: role, skills_list, summary or course."
    )
    years: float | None = Field(None, description="Years with it, where the CV shows them.")
    last_used: int | None = Field(None, description="Year of its latest use in a dated role.")
    depth: float = Field(ge=0, le=1, description="0.5 strength + 0.3 years + 0.2 recency.")
    points: float = Field(ge=0, le=1, description="confidence x (0.7 + 0.3 depth).")


class PartialSkill(BaseModel):
    """A requested skill the candidate lacks, for which a related skill stood in."""

    requested: str
    required: bool
    stand_in: str = Field(
        description="The related skill the candidate holds instead, or the skill itself "
        "marked '(course only)' when only a course or certificate shows it."
    )


class ResolvedSkill(BaseModel):
    """How one requested skill was understood, before any candidate was looked at."""

    requested: str = Field(description="The recruiter's wording.")
    required: bool
    skill: str | None = Field(
        description="The canonical skill it names; null when the vocabulary has none."
    )
    how: MatchKind | None = Field(
        description="exact, alias or semantic (an embedding neighbour of the same concept); "
        "null when unknown to the vocabulary."
    )
    accepts: int = Field(
        description="Canonical skills that count for it: itself, skills implying it, its "
        "family when it is a broad term, related skills."
    )
    found_in_text: int = Field(
        description="CVs credited because their text names it (searched when nobody holds it)."
    )
    family: list[str] = Field(
        default_factory=list,
        description="For a broad term (Accounting, Nursing): the skills under it that count "
        "as a match.",
    )


class CandidateResult(BaseModel):
    """One ranked candidate: what matched fully, what only partly, what is missing, and why."""

    candidate_id: str = Field(description="The candidate's id (an opaque reference in blind mode).")
    name: str
    source_file: str
    experience_level: ExperienceLevel | None
    years_experience: float | None
    match_score: float = Field(ge=0, le=1)
    matched_required_skills: list[str] = Field(description="Required skills fully matched.")
    matched_preferred_skills: list[str] = Field(description="Preferred skills fully matched.")
    partial_skills: list[PartialSkill] = Field(
        default_factory=list,
        description="Requested skills only a related skill stands in for (named).",
    )
    missing_skills: list[str] = Field(description="Required skills the candidate lacks.")
    missing_preferred_skills: list[str] = Field(
        default_factory=list, description="Preferred skills the candidate lacks."
    )
    skill_matches: list[SkillMatchDetail]
    evidence: list[Evidence] = Field(max_length=MAX_EVIDENCE)
    explanation: str
    duplicates: list[str] = Field(
        default_factory=list,
        description="Other records of the same person (near-identical CVs), not listed again.",
    )


class SearchResponse(BaseModel):
    """Ranked candidates, with a message when none match."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "query": "Find candidates with NonexistentSkill123 experience",
                    "candidates": [],
                    "total_considered": 0,
                    "processing_time_ms": 12.5,
                    "message": NO_MATCH_MESSAGE,
                }
            ]
        }
    )

    query: str = Field(description="The natural-language query sent to LightRAG.")
    candidates: list[CandidateResult]
    total_considered: int = Field(
        description="Candidates examined before the filters and paging: those holding a "
        "requested skill or a stand-in for one, or whose CV text names one."
    )
    total: int = Field(0, description="Candidates listed over all pages.")
    total_qualifying: int = Field(
        0, description="Of those, candidates with every required skill matched."
    )
    next_cursor: str | None = Field(
        None, description="Pass as `cursor` (same search) for the next page; null on the last."
    )
    processing_time_ms: float
    message: str | None = None
    resolved_skills: list[ResolvedSkill] = Field(
        default_factory=list, description="How each requested skill was resolved."
    )
    resolved_request: ResolvedRequest | None = Field(
        None,
        description="The structured search this became (from a query or job description "
        "too); edit and send back.",
    )
    request_notes: list[str] = Field(
        default_factory=list, description="What was read from a query or job description."
    )
