"""The hand-written development set as data: documents, a reader's truth, recruiter queries.

Truth files and queries are validated on load, so a typo in a YAML file is a clear error
naming the file rather than a figure that is quietly wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from talentrag.domain import DocumentType, ExperienceLevel

DEVSET = Path(__file__).parent
AS_OF = date(2026, 11, 1)
"""The date every truth file counts to ("present", "till date" mean this day)."""

Strength = Literal["role", "skills_list", "summary", "course"]
Reason = Literal[
    "abbreviation",
    "aspirational",
    "employer_or_school_name",
    "negated",
    "other_person",
    "project_domain",
]


class HeldTruth(BaseModel):
    """A skill the reader judged the author to hold."""

    model_config = ConfigDict(extra="forbid")

    skill: str
    strength: Strength
    years: float | None = None


class NotHeldTruth(BaseModel):
    """A mention the reader judged must not count, and why."""

    model_config = ConfigDict(extra="forbid")

    term: str
    text: str
    reason: Reason


class DocumentTruth(BaseModel):
    """One truth file: what a person read in one document."""

    model_config = ConfigDict(extra="allow")  # job descriptions carry required/preferred/...

    document: str
    document_type: DocumentType
    as_of: date = AS_OF
    held: list[HeldTruth] = []
    acceptable: list[str] = []
    not_held: list[NotHeldTruth] = []
    years: float | None = None
    level: ExperienceLevel | None = None

    @property
    def id(self) -> str:
        """The document's id: its file name's stem (ids in queries use it)."""
        return Path(self.document).stem

    @property
    def annotator(self) -> str:
        """'t' (technology) or 'p' (other professions): queries are judged within one."""
        return self.id.split("-", 1)[0]


class QueryTruth(BaseModel):
    """A recruiter query and the documents a person judged relevant."""

    model_config = ConfigDict(extra="forbid")

    id: str
    required_skills: list[str]
    preferred_skills: list[str] = []
    experience_level: ExperienceLevel | None = None
    relevant: list[str]
    notes: str = ""

    @property
    def annotator(self) -> str:
        """'tq-01' is judged over the t- documents, 'pq-01' over the p- ones."""
        return self.id[0]


@dataclass(frozen=True)
class DevSet:
    """Every truth file (by document id) and every query."""

    documents: dict[str, DocumentTruth]
    queries: list[QueryTruth]
    root: Path = DEVSET

    @property
    def cvs(self) -> dict[str, DocumentTruth]:
        """The documents that are candidates."""
        return {i: d for i, d in self.documents.items() if d.document_type is DocumentType.CV}

    def path(self, document_id: str) -> Path:
        """Where a document's file is."""
        return self.root / "documents" / self.documents[document_id].document


def _read(path: Path) -> object:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not valid YAML: {exc}") from exc


def load_devset(root: Path = DEVSET) -> DevSet:
    """Load and check the set: each truth file names an existing document, queries name truths.

    ``root`` holds ``documents/``, ``truth/`` and ``queries/``; another set laid out like
    this one (a held-out set kept outside the repo) is scored the same way.
    """
    documents: dict[str, DocumentTruth] = {}
    for path in sorted((root / "truth").glob("*.yaml")):
        try:
            truth = DocumentTruth.model_validate(_read(path))
        except ValidationError as exc:
            raise ValueError(f"{path}: {exc}") from exc
        if truth.id != path.stem or not (root / "documents" / truth.document).is_file():
            raise ValueError(f"{path}: names {truth.document!r}, which is not in {root}/documents")
        if truth.as_of != AS_OF:
            raise ValueError(f"{path}: as_of {truth.as_of} (the set counts to {AS_OF})")
        documents[truth.id] = truth
    queries: list[QueryTruth] = []
    for path in sorted((root / "queries").glob("*.yaml")):
        raw = _read(path)
        if not isinstance(raw, list):
            raise ValueError(f"{path}: expected a list of queries")
        for item in raw:
            try:
                query = QueryTruth.model_validate(item)
            except ValidationError as exc:
                raise ValueError(f"{path}: {exc}") from exc
            unknown = [d for d in query.relevant if d not in documents]
            if unknown:
                raise ValueError(f"{path}: {query.id} names unknown documents {unknown}")
            queries.append(query)
    return DevSet(documents, queries, root)
