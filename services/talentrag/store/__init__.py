"""Candidate stores: the system of record joined with LightRAG results."""

from talentrag.store.base import (
    CandidateStore,
    RowStatus,
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
    "StoredText",
    "StoredVersion",
    "UnfinishedWrite",
]
