"""Ingest jobs, kept beside the documents so a restart loses none of them.

A job is a list of items (texts, uploaded files, or paths the CLI reads) and, per
item once processed, its outcome. An uploaded item's bytes stay in the row until
it is processed, so a server killed mid-job resumes where it stopped.
"""

from __future__ import annotations

import uuid
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum

import aiosqlite

from talentrag.domain import DocumentType

SCHEMA = """
CREATE TABLE IF NOT EXISTS ingest_jobs (
    tenant TEXT NOT NULL,
    id TEXT NOT NULL,
    status TEXT NOT NULL,
    document_type TEXT NOT NULL,
    replace_existing INTEGER NOT NULL,
    total INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX IF NOT EXISTS ingest_jobs_status ON ingest_jobs (status, created_at);
CREATE TABLE IF NOT EXISTS ingest_job_items (
    tenant TEXT NOT NULL,
    job_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    source TEXT NOT NULL,
    document_id TEXT,
    name TEXT,
    payload BLOB,
    outcome TEXT,
    result_id TEXT,
    reason TEXT,
    PRIMARY KEY (tenant, job_id, seq)
);
"""


class JobStatus(StrEnum):
    """``queued`` -> ``running`` -> ``done``; ``interrupted`` when a CLI run was killed."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    INTERRUPTED = "interrupted"


class ItemKind(StrEnum):
    """What an item carries: text sent, a file uploaded, or a path the CLI reads."""

    TEXT = "text"
    FILE = "file"
    PATH = "path"


@dataclass(frozen=True)
class JobItem:
    """One document to ingest; ``document_id`` None means "from the file's name"."""

    kind: ItemKind
    source: str
    payload: bytes | None = None
    document_id: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class ItemOutcome:
    """What became of one item; ``outcome`` None while it waits."""

    seq: int
    source: str
    outcome: str | None
    document_id: str | None
    reason: str | None


@dataclass
class IngestJob:
    """A job with per-item outcomes, as ``GET /v1/ingest-jobs/{id}`` reports it."""

    id: str
    tenant: str
    status: JobStatus
    document_type: DocumentType
    replace: bool
    total: int
    created_at: datetime
    updated_at: datetime
    items: list[ItemOutcome] = field(default_factory=list)

    @property
    def processed(self) -> int:
        """Items with an outcome."""
        return sum(1 for item in self.items if item.outcome is not None)

    @property
    def counts(self) -> dict[str, int]:
        """Items per outcome (ingested, updated, skipped, failed)."""
        return dict(Counter(item.outcome for item in self.items if item.outcome))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_job_id() -> str:
    """A job id that no other job of any process will take."""
    return f"job-{uuid.uuid4().hex[:16]}"


class JobStore(ABC):
    """Where jobs are kept: beside the candidate store, in the same database."""

    shared = False
    """True when replicas share the store: each job is then claimed by one of them for a
    lease it renews, and taken over by another when the lease runs out."""

    async def claim(self, lease_s: float) -> tuple[str, str] | None:
        """(tenant, id) of the oldest job nobody runs, now leased to the caller; only a
        shared store hands jobs out this way."""
        return None

    async def renew(self, tenant: str, job_id: str, lease_s: float) -> None:
        """Extend the caller's lease on a claimed job (a shared store's heartbeat)."""
        return None

    @abstractmethod
    async def create_schema(self) -> None:
        """Make the tables ready (create them, or check they were migrated)."""

    @abstractmethod
    async def create(
        self,
        tenant: str,
        items: list[JobItem],
        document_type: DocumentType,
        *,
        replace: bool = False,
        status: JobStatus = JobStatus.QUEUED,
    ) -> str:
        """Record a job and its items in one transaction; returns its id."""

    @abstractmethod
    async def get(self, tenant: str, job_id: str) -> IngestJob | None:
        """A job with its items' outcomes (payloads are not read)."""

    @abstractmethod
    async def queued(self) -> list[tuple[str, str]]:
        """(tenant, id) of the queued jobs, oldest first."""

    @abstractmethod
    async def set_status(self, tenant: str, job_id: str, status: JobStatus) -> None:
        """Move a job to ``status``."""

    @abstractmethod
    async def waiting_items(
        self, tenant: str, job_id: str, limit: int
    ) -> list[tuple[int, JobItem]]:
        """The next items without an outcome, in order, with their payloads."""

    @abstractmethod
    async def record(
        self, tenant: str, job_id: str, outcomes: list[tuple[int, str, str | None, str | None]]
    ) -> None:
        """Store (seq, outcome, document id, reason) per item and drop its payload."""

    @abstractmethod
    async def resume_after_restart(self) -> None:
        """Jobs left running by a stopped process: uploads are queued again, CLI runs
        interrupted."""


class SQLiteJobStore(JobStore):
    """Jobs in the candidate store's SQLite database (same connection)."""

    def __init__(self, db: aiosqlite.Connection):
        self.db = db

    async def create_schema(self) -> None:
        """Create the tables if missing."""
        await self.db.executescript(SCHEMA)
        await self.db.commit()

    async def create(
        self,
        tenant: str,
        items: list[JobItem],
        document_type: DocumentType,
        *,
        replace: bool = False,
        status: JobStatus = JobStatus.QUEUED,
    ) -> str:
        """Record a job and its items in one transaction; returns its id."""
        job_id = new_job_id()
        now = _now()
        await self.db.execute(
            "INSERT INTO ingest_jobs VALUES (?,?,?,?,?,?,?,?)",
            (tenant, job_id, status.value, document_type.value, int(replace), len(items), now, now),
        )
        await self.db.executemany(
            "INSERT INTO ingest_job_items (tenant, job_id, seq, kind, source, document_id, name, "
            "payload) VALUES (?,?,?,?,?,?,?,?)",
            [
                (tenant, job_id, seq, i.kind.value, i.source, i.document_id, i.name, i.payload)
                for seq, i in enumerate(items)
            ],
        )
        await self.db.commit()
        return job_id

    async def get(self, tenant: str, job_id: str) -> IngestJob | None:
        """A job with its items' outcomes (payloads are not read)."""
        async with self.db.execute(
            "SELECT status, document_type, replace_existing, total, created_at, updated_at "
            "FROM ingest_jobs WHERE tenant=? AND id=?",
            (tenant, job_id),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        async with self.db.execute(
            "SELECT seq, source, outcome, COALESCE(result_id, document_id), reason "
            "FROM ingest_job_items WHERE tenant=? AND job_id=? ORDER BY seq",
            (tenant, job_id),
        ) as cursor:
            items = [ItemOutcome(*item) async for item in cursor]
        return IngestJob(
            job_id,
            tenant,
            JobStatus(row[0]),
            DocumentType(row[1]),
            bool(row[2]),
            row[3],
            datetime.fromisoformat(row[4]),
            datetime.fromisoformat(row[5]),
            items,
        )

    async def queued(self) -> list[tuple[str, str]]:
        """(tenant, id) of the queued jobs, oldest first."""
        async with self.db.execute(
            "SELECT tenant, id FROM ingest_jobs WHERE status='queued' ORDER BY created_at, id"
        ) as cursor:
            return [(row[0], row[1]) async for row in cursor]

    async def set_status(self, tenant: str, job_id: str, status: JobStatus) -> None:
        """Move a job to ``status``."""
        await self.db.execute(
            "UPDATE ingest_jobs SET status=?, updated_at=? WHERE tenant=? AND id=?",
            (status.value, _now(), tenant, job_id),
        )
        await self.db.commit()

    async def waiting_items(
        self, tenant: str, job_id: str, limit: int
    ) -> list[tuple[int, JobItem]]:
        """The next items without an outcome, in order, with their payloads."""
        async with self.db.execute(
            "SELECT seq, kind, source, payload, document_id, name FROM ingest_job_items "
            "WHERE tenant=? AND job_id=? AND outcome IS NULL ORDER BY seq LIMIT ?",
            (tenant, job_id, limit),
        ) as cursor:
            return [
                (row[0], JobItem(ItemKind(row[1]), row[2], row[3], row[4], row[5]))
                async for row in cursor
            ]

    async def record(
        self, tenant: str, job_id: str, outcomes: list[tuple[int, str, str | None, str | None]]
    ) -> None:
        """Store (seq, outcome, document id, reason) per item and drop its payload."""
        await self.db.executemany(
            "UPDATE ingest_job_items SET outcome=?, result_id=?, reason=?, payload=NULL "
            "WHERE tenant=? AND job_id=? AND seq=?",
            [(o, d, r, tenant, job_id, seq) for seq, o, d, r in outcomes],
        )
        await self.db.execute(
            "UPDATE ingest_jobs SET updated_at=? WHERE tenant=? AND id=?", (_now(), tenant, job_id)
        )
        await self.db.commit()

    async def resume_after_restart(self) -> None:
        """Jobs left running by a stopped process: uploads are queued again, CLI runs interrupted.

        Only the data directory's writer runs jobs, so no job is really running now.
        """
        await self.db.execute(
            "UPDATE ingest_jobs SET status='interrupted' WHERE status='running' AND id IN "
            "(SELECT job_id FROM ingest_job_items WHERE kind='path')"
        )
        await self.db.execute("UPDATE ingest_jobs SET status='queued' WHERE status='running'")
        await self.db.commit()
