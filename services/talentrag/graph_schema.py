"""How talentrag names things in the LightRAG graph: the contract between the code that
writes a document's nodes and the code that finds them again to replace or delete them.

Nodes: one per document ("Candidate cv-00042", type ``candidate``; other document
types get their own prefix and type), one per canonical skill (its name, type
``skill``), one per experience level ("Senior level"). Entity names hold ids, not
personal names, because LightRAG logs entity names.
"""

from __future__ import annotations

from talentrag.domain import DocumentType

DOCUMENT_PREFIX = {
    DocumentType.CV: "Candidate",
    DocumentType.JOB_DESCRIPTION: "Job description",
    DocumentType.COMPANY_PAGE: "Company page",
    DocumentType.JOB_PROFILE: "Job profile",
}
SKILL_TYPE = "skill"
LEVEL_TYPE = "experience_level"


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
