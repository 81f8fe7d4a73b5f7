"""Candidate stores: the system of record joined with LightRAG results."""

from talentrag.store.base import (
    CandidateStore,
    RowStatus,
    StoredSignature,
    StoredText,
    StoredVersion,
    StoreSummary,
    UnfinishedWrite,
)
from talentrag.store.sqlite import SQLiteCandidateStore

__all__ = [
    "CandidateStore",
    "RowStatus",
    "SQLiteCandidateStore",
    "StoreSummary",
    "StoredSignature",
    "StoredText",
    "StoredVersion",
    "UnfinishedWrite",
]
