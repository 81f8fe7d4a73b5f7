"""The search_by_skills request and response: one contract for CLI, HTTP and MCP."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, field_validator

from talentrag.config import validate_tenant
from talentrag.domain import Evidence, ExperienceLevel, MatchKind
from talentrag.policy.levels import BANDS_TEXT
from talentrag.policy.limits import MAX_EVIDENCE, MAX_SKILL_CHARS, MAX_SKILLS, MAX_TOP_K

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


class SkillQuery(BaseModel):
    """Skills to find candidates by, an optional level, and how many to return."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "required_skills": ["Kubernetes", "AWS"],
                    "preferred_skills": ["Terraform"],
                    "experience_level": "senior",
                    "top_k": 5,
                }
            ]
        },
    )

    required_skills: list[str] = Field(
        ...,
        description="Skills every candidate must have (1-20). Aliases work: 'K8s' means Kubernetes.",
        examples=[["Python", "Machine Learning"]],
    )
    preferred_skills: list[str] = Field(
        default_factory=list,
        description="Nice-to-have skills (0-20); holders rank higher.",
        examples=[["AWS"]],
    )
    experience_level: ExperienceLevel | None = Field(
        None,
        description=f"{BANDS_TEXT}; only that level is returned. Omit for any.",
    )
    top_k: int = Field(
        5, ge=1, le=MAX_TOP_K, description=f"How many candidates to return (1-{MAX_TOP_K})."
    )

    @field_validator("required_skills", "preferred_skills", mode="before")
    @classmethod
    def _split_text(cls, value: object) -> object:
        """Assistants send "Kubernetes, AWS" for a list: split on commas, semicolons, lines."""
        if isinstance(value, str):
            return [part for part in re.split(r"[,;\n]", value) if part.strip()]
        return value

    @field_validator("experience_level", mode="before")
    @classmethod
    def _level_any_case(cls, value: object) -> object:
        """'Senior' and ' senior ' mean senior; an empty string means any level."""
        if isinstance(value, str):
            return value.strip().lower() or None
        return value

    @field_validator("required_skills")
    @classmethod
    def _required(cls, values: list[str]) -> list[str]:
        cleaned = _clean_skills(values, "required_skills")
        if not 1 <= len(cleaned) <= MAX_SKILLS:
            raise ValueError(
                f"required_skills needs 1 to {MAX_SKILLS} distinct skills, got {len(cleaned)}"
            )
        return cleaned

    @field_validator("preferred_skills")
    @classmethod
    def _preferred(cls, values: list[str]) -> list[str]:
        cleaned = _clean_skills(values, "preferred_skills")
        if len(cleaned) > MAX_SKILLS:
            raise ValueError(
                f"preferred_skills takes at most {MAX_SKILLS} distinct skills, got {len(cleaned)}"
            )
        return cleaned


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
    """How one requested skill was met by one candidate."""

    requested: str = Field(description="The recruiter's wording.")
    skill: str = Field(description="The canonical skill the candidate holds.")
    kind: MatchKind
    confidence: float = Field(ge=0, le=1)
    required: bool


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


class CandidateResult(BaseModel):
    """One ranked candidate: matched and missing skills, score, evidence and why."""

    candidate_id: str
    name: str
    source_file: str
    experience_level: ExperienceLevel | None
    years_experience: float | None
    match_score: float = Field(ge=0, le=1)
    matched_required_skills: list[str]
    matched_preferred_skills: list[str]
    missing_skills: list[str]
    skill_matches: list[SkillMatchDetail]
    evidence: list[Evidence] = Field(max_length=MAX_EVIDENCE)
    explanation: str


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
        description="Candidates examined before the level filter and top_k."
    )
    processing_time_ms: float
    message: str | None = None
    resolved_skills: list[ResolvedSkill] = Field(
        default_factory=list, description="How each requested skill was resolved."
    )
