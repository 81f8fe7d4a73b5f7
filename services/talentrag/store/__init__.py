"""Candidate stores: the system of record joined with LightRAG results.

SQLite (the embedded default) is exported here; the PostgreSQL store is
``talentrag.store.postgres.PostgresCandidateStore``, imported only when
``TALENTRAG_DATABASE_URL`` asks for it (``talentrag.runtime.candidate_store``).
"""

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
