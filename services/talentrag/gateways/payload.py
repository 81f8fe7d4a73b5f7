"""LightRAG's retrieval payload (``aquery_data`` and the server's POST /query/data) as typed records."""

from __future__ import annotations

from typing import Any

from talentrag.gateways.base import Retrieval, RetrievedEntity


def retrieval_from_payload(payload: dict[str, Any]) -> Retrieval:
    """The entities of an ``aquery_data``-shaped dict; KeyError/TypeError when malformed."""
    data = payload.get("data") or {}
    return Retrieval(
        entities=[
            RetrievedEntity(
                name=str(e["entity_name"]),
                entity_type=str(e.get("entity_type") or ""),
                description=str(e.get("description") or ""),
                file_path=str(e.get("file_path") or ""),
            )
            for e in data.get("entities") or []
        ]
    )
