"""Domain models shared by ingestion, stores, search and adapters."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

# domain imports nothing of talentrag's but the limits: every other module imports domain.
from talentrag.policy.limits import MAX_EVIDENCE


class DocumentType(StrEnum):
    """What a document is; only CVs become candidates."""

    CV = "cv"
    JOB_DESCRIPTION = "job_description"
    COMPANY_PAGE = "company_page"
    JOB_PROFILE = "job_profile"


class ExperienceLevel(StrEnum):
    """Seniority band, decided from years in the current field (or titles)."""

    JUNIOR = "junior"
    MID = "mid"
    SENIOR = "senior"


class MatchKind(StrEnum):
    """How a written string reached a canonical skill, strongest first."""

    EXACT = "exact"
    ALIAS = "alias"
    IMPLIED = "implied"
    NARROWER = "narrower"
    RELATED = "related"
    SEMANTIC = "semantic"
    TEXT = "text"


class SkillStrength(StrEnum):
    """Where a CV shows a held skill, strongest first: used in a role, listed in a skills
    section, named in the summary only, or learnt in a course or certificate only."""

    ROLE = "role"
    SKILLS_LIST = "skills_list"
    SUMMARY = "summary"
    COURSE = "course"


STRENGTH_RANK = {
    SkillStrength.ROLE: 3,
    SkillStrength.SKILLS_LIST: 2,
    SkillStrength.SUMMARY: 1,
    SkillStrength.COURSE: 0,
}


class SkillMatch(BaseModel):
    """The canonical skill a written string names, and how sure the match is."""

    skill: str
    kind: MatchKind
    confidence: float = Field(ge=0, le=1)
    via: str | None = Field(None, description="The spelling or skill that led here.")


class Evidence(BaseModel):
    """A passage of a document that proves a skill, with its provenance."""

    text: str
    source_file: str
    start: int = Field(ge=0, description="Character offset of the passage in the document.")
    end: int = Field(ge=0)
    skill: str | None = None
    strength: SkillStrength | None = Field(
        None, description="Where the passage stands: role, skills_list, summary or course."
    )


class HeldSkill(BaseModel):
    """A skill a document shows its holder has, with mentions and evidence."""

    skill: str
    category: str
    kind: MatchKind
    confidence: float = Field(ge=0, le=1)
    surface: str = Field(description="How the document wrote it (or the skill implying it).")
    mentions: int = Field(ge=0)
    evidence: list[Evidence] = Field(default_factory=list, max_length=MAX_EVIDENCE)
    strength: SkillStrength | None = Field(
        None, description="The strongest place the document shows it (None: not analysed)."
    )
    years: float | None = Field(
        None,
        ge=0,
        description="Years with the skill: the dated roles whose text names it, or the years "
        "the CV states for it, whichever is more (None: the CV shows neither).",
    )
    last_used: int | None = Field(
        None, description="Year of the latest dated role whose text names it (None: none does)."
    )


@dataclass(frozen=True)
class SkillHolding:
    """What scoring needs to know about one held skill (no evidence text)."""

    kind: MatchKind
    confidence: float
    mentions: int
    strength: SkillStrength | None = None
    years: float | None = None
    last_used: int | None = None


@dataclass(frozen=True)
class CandidateProfile:
    """The slice of a candidate record that ranking reads, cheap to load by the thousand."""

    id: str
    level: ExperienceLevel | None
    skills: dict[str, SkillHolding]
    years: float | None = None
    duplicate_group: str | None = None
    """The id that names its near-duplicate group (one person's CVs), or None."""


class RejectedMention(BaseModel):
    """A skill written but not held, and why: ``negated`` ("no Java"), ``aspirational``
    ("learning Rust"), ``other_person`` ("hired Java engineers"), ``project_domain`` ("the
    app is available on iOS"), ``abbreviation`` ("H.S.C.", "R&D", "Go-live"),
    ``employer_or_school_name`` ("IPS Academy"), ``degree_subject`` (an SAP consultant's
    "B.E. (Mechanical Engineering)"), ``other_field`` (a word that names the skill only
    in its own profession, such as "sourcing" outside recruitment), ``hobby`` (under
    "Hobbies" or "Interests") or ``no_skill_context`` (a short or everyday name such as
    "Excel" or "C" outside any list of skills)."""

    skill: str
    reason: str
    evidence: Evidence


class Role(BaseModel):
    """One job in a CV's experience, with its dates, length and field."""

    title: str
    start: date | None = None
    end: date | None = None
    years: float = Field(ge=0)
    field: str | None = None
    kind: str | None = Field(
        None,
        description="'job', 'training' (internship, placement...), 'part_time', 'education', "
        "'career_break' (a gap such as a sabbatical) or 'earlier_career' (under a heading such "
        "as 'Previous Career').",
    )
    counted: bool | None = Field(None, description="Whether the role counts toward years.")
    span_start: int | None = Field(
        None, ge=0, description="Offset of the role's dates in the text."
    )
    span_end: int | None = Field(None, ge=0)
    block_start: int | None = Field(
        None, ge=0, description="Offset of the role's text (its header lines) in the document."
    )
    block_end: int | None = Field(None, ge=0, description="Where the role's text ends.")


class ExperienceSpan(BaseModel):
    """A passage the experience decision used: a role's dates, a stated total, a skill line."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    use: str = Field(description="'role', 'not_counted:<kind>', 'stated_total' or 'skill_years'.")


class ChunkRef(BaseModel):
    """Where a LightRAG chunk came from in the original document."""

    chunk_id: str
    start: int
    end: int
    order: int


class DocumentRecord(BaseModel):
    """The system-of-record entry for one ingested document (a candidate when type is cv)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "jane-doe",
                    "tenant": "default",
                    "document_type": "cv",
                    "name": "Jane Doe",
                    "source_file": "jane-doe.md",
                    "content_hash": "ae27d947...",
                    "level": "senior",
                    "level_source": "roles",
                    "years": 9.89,
                    "field": "technology",
                    "skills": [
                        {
                            "skill": "Kubernetes",
                            "category": "cloud_devops",
                            "kind": "alias",
                            "confidence": 0.95,
                            "surface": "K8s",
                            "mentions": 1,
                            "evidence": [
                                {
                                    "text": "K8s, Docker, AWS, Prometheus, Grafana",
                                    "source_file": "jane-doe.md",
                                    "start": 513,
                                    "end": 550,
                                    "skill": "Kubernetes",
                                }
                            ],
                        }
                    ],
                    "rejected": [
                        {
                            "skill": "Java",
                            "reason": "negated",
                            "evidence": {
                                "text": "No commercial experience with Java.",
                                "source_file": "jane-doe.md",
                                "start": 95,
                                "end": 130,
                                "skill": "Java",
                            },
                        }
                    ],
                    "roles": [
                        {
                            "title": "Senior DevOps Engineer",
                            "start": "2019-01-01",
                            "end": "2026-11-01",
                            "years": 7.83,
                            "field": "technology",
                        }
                    ],
                    "chunks": [
                        {
                            "chunk_id": "chunk-4b49488a6f6faf1b4f4cfa9a49b8f406",
                            "start": 0,
                            "end": 50,
                            "order": 0,
                        }
                    ],
                }
            ]
        }
    )

    id: str
    tenant: str = "default"
    document_type: DocumentType = DocumentType.CV
    name: str
    source_file: str
    content_hash: str
    level: ExperienceLevel | None = None
    level_source: str | None = Field(
        None,
        description="'roles', 'stated_total' or 'training_only'; None when nothing supports a level.",
    )
    level_reason: str | None = Field(None, description="How the level was decided, in words.")
    years: float | None = None
    experience_spans: list[ExperienceSpan] = Field(default_factory=list)
    skill_years: dict[str, float] = Field(
        default_factory=dict, description="Years a CV states per skill ('Java - 36 months')."
    )
    field: str | None = None
    skills: list[HeldSkill] = Field(default_factory=list)
    rejected: list[RejectedMention] = Field(default_factory=list)
    roles: list[Role] = Field(default_factory=list)
    chunks: list[ChunkRef] = Field(default_factory=list)
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @property
    def is_candidate(self) -> bool:
        """Only CV documents are candidates."""
        return self.document_type is DocumentType.CV

    def skill_names(self) -> list[str]:
        """Canonical names of the held skills, in stored order."""
        return [s.skill for s in self.skills]
