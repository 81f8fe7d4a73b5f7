"""The candidate store: the system of record that LightRAG results are joined with.

Writes go through a two-phase protocol so a crash never exposes half a document:
``stage`` records the new version as *pending* (keeping the version it replaces
and that version's LightRAG ids), the caller writes LightRAG, then ``finish``
makes it *active*. Readers see active rows only. A write that fails is undone
(``abandon`` restores the replaced version); one interrupted by a crash is
completed at the next start-up or write. Deletion is the same with *deleting* rows.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from talentrag.domain import CandidateProfile, DocumentRecord, DocumentType


class RowStatus(StrEnum):
    """Where a row is in the two-phase write; readers see ``active`` rows only."""

    ACTIVE = "active"
    PENDING = "pending"
    DELETING = "deleting"


CHANGE_LOG_GENERATIONS = 1_000
"""Generations whose changed ids the store keeps: a reader further behind reloads whole."""


@dataclass(frozen=True)
class StoreChanges:
    """The candidates whose rows (holdings, level, years, group) changed after a generation."""

    generation: int
    """The tenant's generation now."""
    ids: frozenset[str]
    """Written, deleted or regrouped in the generations after the one asked about."""


def changes_between(asked: int, current: int, ids: Iterable[str], kept: int) -> StoreChanges | None:
    """The changes after generation ``asked`` from the log rows read at ``current`` (the
    log keeping ``kept`` generations); None when the log cannot tell them (pruned that
    far back, or the store was replaced)."""
    if asked > current or current - asked > kept:
        return None
    return StoreChanges(current, frozenset(ids))


@dataclass(frozen=True)
class StoredVersion:
    """What ingestion needs to skip an unchanged document and keep identities apart."""

    id: str
    content_hash: str
    status: RowStatus
    origin: str | None = None
    """Where the document was read from (a resolved file path); None when sent as text."""
    analysis: str | None = None
    """The analysis version its record was made under; None for rows stored before stamps."""


@dataclass(frozen=True)
class StoredText:
    """An active document as re-analysis needs it: its record, its text, the name it was given."""

    record: DocumentRecord
    text: str
    given_name: str | None
    """The name a caller sent with the text (kept); None when the name comes from analysis."""
    origin: str | None = None
    """Where it was read from (``StoredVersion.origin``)."""
    analysis: str | None = None
    """The analysis version its record was made under."""
    signature: bytes | None = None
    """Its near-duplicate signature (CVs), or None."""


@dataclass
class UnfinishedWrite:
    """A staged change that LightRAG may hold only partly."""

    record: DocumentRecord
    text: str
    status: RowStatus
    stale_chunk_ids: list[str]
    previous: tuple[DocumentRecord, str] | None = None
    """The active version (record, text) a pending write replaces; None for a new document."""
    signature: bytes | None = None
    """The near-duplicate signature of ``record``'s version (None: not a CV, or none made)."""


@dataclass(frozen=True)
class StoredSignature:
    """An active CV's near-duplicate signature and group, as grouping new writes needs it."""

    id: str
    signature: bytes
    created_at: datetime
    group: str | None


@dataclass(frozen=True)
class StoreSummary:
    """A tenant's totals for ``talentrag summary``."""

    candidates: int
    other_documents: int
    by_level: dict[str, int]
    top_skills: list[tuple[str, int]]
    unfinished: list[str]
    """Ids of documents with a write that has not completed (pending or deleting)."""
    duplicates: int = 0
    """CVs that repeat an earlier one (members of a duplicate group but its first)."""


class CandidateStore(ABC):
    """The system of record for documents, with two-phase writes per tenant."""

    change_log_generations: int = CHANGE_LOG_GENERATIONS
    """Generations the change log keeps (``changes_since``)."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and create or migrate the schema; call before any other method."""

    @abstractmethod
    async def close(self) -> None:
        """Release the connection."""

    @abstractmethod
    async def versions(self, tenant: str, ids: list[str]) -> dict[str, StoredVersion]:
        """Hash and status of the stored rows among ``ids``."""

    async def get(self, tenant: str, document_id: str) -> DocumentRecord | None:
        """An active document, or None (one row through ``get_many``)."""
        return (await self.get_many(tenant, [document_id])).get(document_id)

    @abstractmethod
    async def get_many(self, tenant: str, ids: list[str]) -> dict[str, DocumentRecord]:
        """Active documents among ``ids``."""

    @abstractmethod
    async def text_of(self, tenant: str, document_id: str) -> str | None:
        """The stored text of one active document (any type), or None."""

    @abstractmethod
    async def profiles(
        self, tenant: str, ids: list[str], skills: Collection[str] | None = None
    ) -> dict[str, CandidateProfile]:
        """Level and held skills of the active candidates among ``ids`` (for ranking).

        With ``skills``, a profile holds only those of them (all a query can score),
        which is far less to read than whole profiles for thousands of candidates.
        """

    @abstractmethod
    async def holders(self, tenant: str, skills: Collection[str]) -> dict[str, CandidateProfile]:
        """Every active candidate holding any of ``skills``, each with only those skills.

        What the ranking index (``search/holdings_index.py``) loads, one skill's holders
        at a time, and keeps until the tenant's generation moves.
        """

    @abstractmethod
    async def list_documents(
        self,
        tenant: str,
        document_type: DocumentType | None = DocumentType.CV,
        limit: int = 100,
        after_id: str | None = None,
    ) -> list[DocumentRecord]:
        """Active documents ordered by id, starting after ``after_id``."""

    @abstractmethod
    async def stage(
        self,
        tenant: str,
        documents: list[tuple[DocumentRecord, str]],
        origins: dict[str, str] | None = None,
        *,
        analysis: str | None = None,
        given_names: dict[str, str] | None = None,
        signatures: dict[str, bytes] | None = None,
    ) -> list[UnfinishedWrite]:
        """Record new versions (record, full text, and per id where it was read) as pending.

        ``analysis`` is the analysis version the records were made under; ``given_names``
        the names callers sent (per id), which re-analysis keeps; ``signatures`` the
        CVs' near-duplicate signatures. Returns the staged writes: each with the
        LightRAG chunk ids of the versions it replaces and the active version to
        restore if it fails (with its stamp, given name and signature); each record
        carries its row's ``created_at``: kept from the version it replaces, else the
        record's own when it has one (a copy from another store), else now.
        """

    @abstractmethod
    async def stage_deletion(self, tenant: str, ids: list[str]) -> list[str]:
        """Mark documents as deleting; return the ids that existed."""

    @abstractmethod
    async def finish(
        self, tenant: str, ids: list[str], groups: dict[str, str | None] | None = None
    ) -> None:
        """Pending rows become active; deleting rows disappear.

        ``groups`` sets the duplicate group (None: none) of active CVs in the same
        transaction, so a write that fails changes no group.
        """

    @abstractmethod
    async def unfinished(self, tenant: str) -> list[UnfinishedWrite]:
        """Pending and deleting rows left by an interrupted run."""

    @abstractmethod
    async def abandon(self, tenant: str, ids: list[str]) -> None:
        """Undo unfinished writes: a replaced version is restored, a new one removed,
        a deletion cancelled (the caller restores LightRAG to match)."""

    @abstractmethod
    async def tenants_with_unfinished(self) -> list[str]:
        """Tenants that have unfinished writes (recovered at start-up)."""

    @abstractmethod
    async def generation(self, tenant: str) -> int:
        """A counter that every committed write of the tenant increases.

        Other processes reading the same data compare it with the one they loaded
        LightRAG at, and reload when it moved.
        """

    @abstractmethod
    async def changes_since(self, tenant: str, generation: int) -> StoreChanges | None:
        """What changed after ``generation``, read with the current generation in one
        snapshot; None when the log no longer reaches back that far (read everything again).

        Each write that advances the generation logs the ids it touched, and the log keeps
        the last ``CHANGE_LOG_GENERATIONS`` generations, so a replica's ranking index
        re-reads the few candidates a write touched instead of every holder.
        """

    @abstractmethod
    async def texts_containing(self, tenant: str, phrase: str, limit: int) -> dict[str, str]:
        """Active CVs whose text contains the words of ``phrase`` in order: id -> text.

        A full-text index answers it (case and accents ignored); callers confirm the
        exact occurrence in the text they get back.
        """

    @abstractmethod
    async def stale_documents(
        self, tenant: str, analysis: str, limit: int, after_id: str | None = None
    ) -> list[StoredText]:
        """Active documents not analysed under ``analysis``, ordered by id, after ``after_id``."""

    @abstractmethod
    async def every_document(
        self, tenant: str, limit: int, after_id: str | None = None
    ) -> list[StoredText]:
        """Active documents ordered by id, after ``after_id``, with everything their row keeps
        (origin, stamp, signature): what copying a tenant to another store needs."""

    @abstractmethod
    async def document_counts(self) -> dict[str, int]:
        """Per tenant, how many active documents it has (tenants with none are absent)."""

    async def refresh_statistics(self) -> None:  # noqa: B027 - a no-op unless a planner needs it
        """Bring the query planner's statistics up to date after a bulk write (PostgreSQL:
        ``ANALYZE``). The embedded store needs none."""

    @abstractmethod
    async def restamp(
        self,
        tenant: str,
        ids: list[str],
        analysis: str,
        *,
        signatures: dict[str, bytes] | None = None,
        groups: dict[str, str | None] | None = None,
    ) -> None:
        """Mark active documents as analysed under ``analysis`` (their record came out equal).

        ``signatures`` and ``groups`` (as in ``finish``) are stored in the same
        transaction: re-analysis signs CVs stored before signatures existed.
        """

    @abstractmethod
    async def stale_counts(self, analysis: str) -> dict[str, int]:
        """Per tenant, how many active documents were not analysed under ``analysis``."""

    @abstractmethod
    async def duplicate_signatures(self, tenant: str) -> list[StoredSignature]:
        """Every active CV that has a near-duplicate signature, with its group."""

    @abstractmethod
    async def duplicate_groups(self, tenant: str) -> list[list[str]]:
        """Groups of two or more active CVs that are one CV ingested more than once.

        Each group's ids are ordered earliest stored first; groups by their first member.
        """

    @abstractmethod
    async def duplicates_of(self, tenant: str, ids: list[str]) -> dict[str, list[str]]:
        """For each of ``ids`` that has duplicates: the other active members of its group,
        earliest stored first (what a search answer collapses into one result)."""

    @abstractmethod
    async def summary(self, tenant: str) -> StoreSummary:
        """Counts, levels, top skills and unfinished writes of a tenant."""
