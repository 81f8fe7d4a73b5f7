"""The word lists experience analysis reads (``data/experience.yaml``), validated on load.

Heading words, month names in several languages, "present" words, cues that make a
role an internship or part-time: data, so a new spelling is a one-line change.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)

SectionKind = Literal[
    "experience",
    "earlier_career",
    "education",
    "certifications",
    "skills",
    "projects",
    "summary",
    "other",
    "interests",
    "references",
]
Words = list[str]


class ExperienceWords(BaseModel):
    """The validated contents of ``experience.yaml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int
    sections: dict[SectionKind, Words]
    months: dict[int, Words]
    seasons: dict[str, tuple[int, int]]
    present: Words = Field(min_length=1)
    range_words: Words = Field(min_length=1)
    since_words: Words = Field(min_length=1)
    numbers: dict[str, int]
    training_cues: Words = Field(min_length=1)
    break_cues: Words = Field(min_length=1)
    part_time_cues: Words = Field(min_length=1)
    education_cues: Words = Field(min_length=1)
    experience_words: Words = Field(min_length=1)
    role_fields: dict[str, Words]
    title_words: Words = Field(min_length=1)
    export_labels: Words = Field(default_factory=list)
    role_statements: Words = Field(min_length=1)
    related_fields: list[Words]
    shared_skill_fields: list[Words] = Field(default_factory=list)
    document_title_words: Words = Field(min_length=1)
    post_nominals: Words = Field(min_length=1)
    title_skills: dict[str, Words] = Field(min_length=1)
    heading_skills: dict[str, Words] = Field(default_factory=dict)

    @field_validator("months")
    @classmethod
    def _twelve_months(cls, months: dict[int, Words]) -> dict[int, Words]:
        if sorted(months) != list(range(1, 13)) or not all(months.values()):
            raise ValueError("months must name every month 1-12 with at least one spelling")
        return months

    @field_validator("sections", "title_skills", "heading_skills")
    @classmethod
    def _non_empty(cls, lists: dict[str, Words], info: ValidationInfo) -> dict[str, Words]:
        empty = [key for key, words in lists.items() if not words]
        if empty:
            raise ValueError(f"{info.field_name} entries without words: {empty}")
        return lists

    def month_table(self) -> dict[str, int]:
        """Every month spelling (case-folded) and the month it names."""
        return {w.casefold(): m for m, spellings in self.months.items() for w in spellings}


def alternation(words: Words) -> str:
    """A regex alternation of ``words`` (longest first, escaped, spaces flexible)."""
    ordered = sorted({w.casefold() for w in words}, key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)


@cache
def experience_words() -> ExperienceWords:
    """The shipped word lists; a clear error names the file when they are invalid."""
    path = resources.files("talentrag.ingestion") / "data" / "experience.yaml"
    try:
        # libyaml when built in, as for the vocabulary: read at import, so at every start
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
        return ExperienceWords.model_validate(raw)
    except (yaml.YAMLError, ValidationError) as exc:
        raise ValueError(f"invalid experience word list {path}: {exc}") from exc


@cache
def education_cue_pattern() -> re.Pattern[str]:
    """A degree's name in a line ("B.S.", "Diploma in", "M.Com"): education, not a job,
    and its subject no skill."""
    cues = alternation(experience_words().education_cues)
    return re.compile(rf"(?<![\w.])(?:{cues})(?![\w-])", re.I)
