"""How talentrag names things in the LightRAG graph: the contract between the writer
(ingestion), the readers (gateways, search) and graphs a LightRAG Server built itself.

Nodes: one per document ("Candidate cv-00042", type ``candidate``; other document
types get their own prefix and type), one per canonical skill (its name, type
``skill``), one per experience level ("Senior level"). Entity names hold ids, not
personal names, because LightRAG logs entity names.
"""

from __future__ import annotations

from talentrag.domain import DocumentType

SEP = "<SEP>"
"""LightRAG joins merged values (file paths, source ids) with this separator."""

DOCUMENT_PREFIX = {
    DocumentType.CV: "Candidate",
    DocumentType.JOB_DESCRIPTION: "Job description",
    DocumentType.COMPANY_PAGE: "Company page",
    DocumentType.JOB_PROFILE: "Job profile",
}
SKILL_TYPE = "skill"
LEVEL_TYPE = "experience_level"
PERSON_TYPES = frozenset({"person", "candidate"})
"""Entity types that stand for a person in graphs built by an LLM (or by us)."""


def document_node(document_type: DocumentType, document_id: str) -> str:
    """'Candidate cv-00042' for a CV; 'Job description jd-1' for a job description."""
    return f"{DOCUMENT_PREFIX[document_type]} {document_id}"


def document_nodes(document_id: str) -> list[str]:
    """Every node name a document with this id may have (its type may have changed)."""
    return [document_node(t, document_id) for t in DocumentType]


def document_entity_type(document_type: DocumentType) -> str:
    """The entity type of a document's node: ``candidate`` for a CV, else the type's value."""
    return "candidate" if document_type is DocumentType.CV else document_type.value


def level_node(level: str) -> str:
    """'Senior level' for 'senior': the node shared by every candidate of that level."""
    return f"{level.capitalize()} level"


def parse_document_node(name: str) -> tuple[DocumentType, str] | None:
    """('cv', 'cv-00042') for 'Candidate cv-00042'; None for any other node."""
    for document_type, prefix in DOCUMENT_PREFIX.items():
        if name.startswith(prefix + " "):
            return document_type, name[len(prefix) + 1 :]
    return None


def split_joined(value: str) -> list[str]:
    """The parts of a LightRAG value merged with ``SEP``."""
    return [part for part in value.split(SEP) if part]
