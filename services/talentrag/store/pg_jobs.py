"""Ingest jobs in PostgreSQL, beside the candidate store (same pool, same migrations)."""

from __future__ import annotations

from datetime import UTC, datetime

import asyncpg

from talentrag.domain import DocumentType
from talentrag.store.jobs import (
    IngestJob,
    ItemKind,
    ItemOutcome,
    JobItem,
    JobStatus,
    JobStore,
    new_job_id,
)
from talentrag.store.pg_schema import apply_migrations

_HAS_PATHS = (
    "EXISTS (SELECT 1 FROM ingest_job_items i "
    "WHERE i.tenant = j.tenant AND i.job_id = j.id AND i.kind = 'path')"
)
"""SQL: job ``j`` is a command-line run (its items are file paths)."""


def _now() -> datetime:
    """Whole seconds, as the SQLite job store keeps them (jobs are listed by this time)."""
    return datetime.now(UTC).replace(microsecond=0)


class PostgresJobStore(JobStore):
    """Jobs in the candidate store's PostgreSQL database, through its connection pool.

    Replicas share it: a job is claimed with ``FOR UPDATE SKIP LOCKED`` and a lease
    (``lease_until``) its runner renews; a job whose runner died is claimed again when
    the lease runs out, and goes on with the items that have no outcome yet.
    """

    shared = True

    def __init__(self, pool: asyncpg.Pool):
        self.pool = pool

    async def create_schema(self) -> None:
        """Apply any missing migration (the tables come with them); usually a no-op,
        as the candidate store applied them when it opened."""
        async with self.pool.acquire() as connection:
            await apply_migrations(connection)

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
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "INSERT INTO ingest_jobs VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
                tenant,
                job_id,
                status.value,
                document_type.value,
                replace,
                len(items),
                now,
            )
            await connection.executemany(
                "INSERT INTO ingest_job_items (tenant, job_id, seq, kind, source, document_id, "
                "name, payload) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                [
                    (tenant, job_id, seq, i.kind.value, i.source, i.document_id, i.name, i.payload)
                    for seq, i in enumerate(items)
                ],
            )
        return job_id

    async def get(self, tenant: str, job_id: str) -> IngestJob | None:
        """A job with its items' outcomes (payloads are not read)."""
        async with self.pool.acquire() as connection:
            job = await connection.fetchrow(
                # a command-line run whose lease ran out was killed: nobody will finish it
                "SELECT CASE WHEN status = 'running' AND lease_until < now() "
                f"  AND {_HAS_PATHS} THEN 'interrupted' ELSE status END AS status, "
                "document_type, replace_existing, total, created_at, updated_at "
                "FROM ingest_jobs j WHERE tenant = $1 AND id = $2",
                tenant,
                job_id,
            )
            if job is None:
                return None
            items = await connection.fetch(
                "SELECT seq, source, outcome, COALESCE(result_id, document_id) AS document_id, "
                "reason FROM ingest_job_items WHERE tenant = $1 AND job_id = $2 ORDER BY seq",
                tenant,
                job_id,
            )
        return IngestJob(
            job_id,
            tenant,
            JobStatus(job["status"]),
            DocumentType(job["document_type"]),
            job["replace_existing"],
            job["total"],
            job["created_at"],
            job["updated_at"],
            [ItemOutcome(*item) for item in items],
        )

    async def queued(self) -> list[tuple[str, str]]:
        """(tenant, id) of the queued jobs, oldest first."""
        rows = await self.pool.fetch(
            "SELECT tenant, id FROM ingest_jobs WHERE status = 'queued' ORDER BY created_at, id"
        )
        return [(row["tenant"], row["id"]) for row in rows]

    async def claim(self, lease_s: float) -> tuple[str, str] | None:
        """The oldest queued job, or a running upload whose lease ran out, leased to us.

        A command-line run (its items are paths on the machine that ran it) is never
        taken over: its files may not be here."""
        row = await self.pool.fetchrow(
            "UPDATE ingest_jobs SET status = 'running', updated_at = $2, "
            "lease_until = now() + make_interval(secs => $1) "
            "WHERE (tenant, id) = (SELECT tenant, id FROM ingest_jobs j "
            "  WHERE status = 'queued' OR (status = 'running' AND lease_until < now() "
            f"    AND NOT {_HAS_PATHS}) "
            "  ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED) "
            "RETURNING tenant, id",
            lease_s,
            _now(),
        )
        return (row["tenant"], row["id"]) if row else None

    async def renew(self, tenant: str, job_id: str, lease_s: float) -> None:
        """Push the lease ``lease_s`` seconds ahead."""
        await self.pool.execute(
            "UPDATE ingest_jobs SET lease_until = now() + make_interval(secs => $1) "
            "WHERE tenant = $2 AND id = $3",
            lease_s,
            tenant,
            job_id,
        )

    async def set_status(self, tenant: str, job_id: str, status: JobStatus) -> None:
        """Move a job to ``status``."""
        await self.pool.execute(
            "UPDATE ingest_jobs SET status = $1, updated_at = $2 WHERE tenant = $3 AND id = $4",
            status.value,
            _now(),
            tenant,
            job_id,
        )

    async def waiting_items(
        self, tenant: str, job_id: str, limit: int
    ) -> list[tuple[int, JobItem]]:
        """The next items without an outcome, in order, with their payloads."""
        rows = await self.pool.fetch(
            "SELECT seq, kind, source, payload, document_id, name FROM ingest_job_items "
            "WHERE tenant = $1 AND job_id = $2 AND outcome IS NULL ORDER BY seq LIMIT $3",
            tenant,
            job_id,
            limit,
        )
        return [
            (
                row["seq"],
                JobItem(
                    ItemKind(row["kind"]),
                    row["source"],
                    row["payload"],
                    row["document_id"],
                    row["name"],
                ),
            )
            for row in rows
        ]

    async def record(
        self, tenant: str, job_id: str, outcomes: list[tuple[int, str, str | None, str | None]]
    ) -> None:
        """Store (seq, outcome, document id, reason) per item and drop its payload."""
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.executemany(
                "UPDATE ingest_job_items SET outcome = $1, result_id = $2, reason = $3, "
                "payload = NULL WHERE tenant = $4 AND job_id = $5 AND seq = $6",
                [(o, d, r, tenant, job_id, seq) for seq, o, d, r in outcomes],
            )
            await connection.execute(
                "UPDATE ingest_jobs SET updated_at = $1 WHERE tenant = $2 AND id = $3",
                _now(),
                tenant,
                job_id,
            )

    async def resume_after_restart(self) -> None:
        """Jobs left running by a stopped process: uploads are queued again, CLI runs
        interrupted.

        As with SQLite, only one writer process runs jobs (the writer lock), so no job
        is really running when it starts.
        """
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "UPDATE ingest_jobs SET status = 'interrupted' WHERE status = 'running' "
                "AND id IN (SELECT job_id FROM ingest_job_items WHERE kind = 'path')"
            )
            await connection.execute(
                "UPDATE ingest_jobs SET status = 'queued' WHERE status = 'running'"
            )
