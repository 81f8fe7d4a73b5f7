"""A document record as a LightRAG custom knowledge graph (names: ``graph_schema``).

Edges: document -> skill carrying the evidence sentence, its offsets and a weight;
candidate -> level.
"""

from __future__ import annotations

from typing import Any

from talentrag.domain import DocumentRecord, HeldSkill
from talentrag.graph_schema import (
    LEVEL_TYPE,
    SKILL_TYPE,
    document_entity_type,
    document_node,
    level_node,
)
from talentrag.ingestion.analyze import Chunk
from talentrag.policy.levels import BANDS_TEXT
from talentrag.vocabulary.vocabulary import Vocabulary


def _alias(record: DocumentRecord, order: int) -> str:
    return f"{record.id}#{order}"


def _chunk_for(offset: int, chunks: list[Chunk]) -> int:
    for chunk in chunks:
        if chunk.start <= offset < chunk.end:
            return chunk.order
    return chunks[0].order if chunks else 0


def _document_description(record: DocumentRecord) -> str:
    skills = ", ".join(s.skill for s in record.skills[:15])
    if record.is_candidate:
        years = f"{record.years:g} years" if record.years is not None else "unknown years"
        return (
            f"{document_node(record.document_type, record.id)} ({record.name}), "
            f"{record.level or 'unknown'} level, "
            f"{years} in {record.field or 'their field'}. Skills: {skills}."
        )
    return f"{document_node(record.document_type, record.id)} ({record.name}). Mentions: {skills}."


def _skill_edge(record: DocumentRecord, held: HeldSkill, chunks: list[Chunk]) -> dict[str, Any]:
    evidence = held.evidence[0] if held.evidence else None
    source = _alias(record, _chunk_for(evidence.start, chunks)) if evidence else _alias(record, 0)
    verb = "has skill" if record.is_candidate else "mentions skill"
    quote = (
        f' "{evidence.text[:300]}" [{record.source_file} {evidence.start}-{evidence.end}]'
        if evidence
        else ""
    )
    return {
        "src_id": document_node(record.document_type, record.id),
        "tgt_id": held.skill,
        "description": f"{document_node(record.document_type, record.id)} {verb} {held.skill} "
        f"({held.kind.value} via '{held.surface}').{quote}",
        # the relation's vector is embedded from these alone (``gateways/vector_writes.py``):
        # what every holder of the skill shares, so the text is embedded once
        "keywords": f"{verb}, {held.skill}, {held.category}",
        "weight": round(1.0 + held.confidence * min(held.mentions, 5), 2),
        "source_id": source,
        "file_path": record.source_file,
    }


def build_custom_kg(
    record: DocumentRecord, chunks: list[Chunk], vocabulary: Vocabulary, existing_nodes: set[str]
) -> dict[str, list[dict[str, Any]]]:
    """The custom KG for one document; shared skill/level nodes are added only when new."""
    node = document_node(record.document_type, record.id)
    kg: dict[str, list[dict[str, Any]]] = {
        "chunks": [
            {
                "content": c.content,
                "source_id": _alias(record, c.order),
                "file_path": record.source_file,
                "chunk_order_index": c.order,
            }
            for c in chunks
        ],
        "entities": [
            {
                "entity_name": node,
                "entity_type": document_entity_type(record.document_type),
                "description": _document_description(record),
                "source_id": _alias(record, 0),
                "file_path": record.source_file,
            }
        ],
        "relationships": [],
    }
    for held in record.skills:
        edge = _skill_edge(record, held, chunks)
        kg["relationships"].append(edge)
        if held.skill not in existing_nodes:
            existing_nodes.add(held.skill)
            kg["entities"].append(
                {
                    "entity_name": held.skill,
                    "entity_type": SKILL_TYPE,
                    "description": vocabulary.describe(held.skill),
                    "source_id": edge["source_id"],
                    "file_path": record.source_file,
                }
            )
    if record.is_candidate and record.level:
        level = level_node(record.level.value)
        years = (
            f"{record.years:g} years in {record.field or 'their field'}"
            if record.years
            else "by title"
        )
        kg["relationships"].append(
            {
                "src_id": node,
                "tgt_id": level,
                "description": f"{node} is {record.level.value} level ({years}).",
                "keywords": f"experience level, {record.level.value}",
                "weight": 1.0,
                "source_id": _alias(record, 0),
                "file_path": record.source_file,
            }
        )
        if level not in existing_nodes:
            existing_nodes.add(level)
            kg["entities"].append(
                {
                    "entity_name": level,
                    "entity_type": LEVEL_TYPE,
                    "description": f"Experience level {record.level.value}; the levels are {BANDS_TEXT}.",
                    "source_id": _alias(record, 0),
                    "file_path": record.source_file,
                }
            )
    return kg


def merge_kgs(kgs: list[dict[str, list[dict[str, Any]]]]) -> dict[str, list[dict[str, Any]]]:
    """One custom KG of several documents' KGs, for a single LightRAG insert."""
    merged: dict[str, list[dict[str, Any]]] = {"chunks": [], "entities": [], "relationships": []}
    for kg in kgs:
        for key in merged:
            merged[key].extend(kg[key])
    return merged
