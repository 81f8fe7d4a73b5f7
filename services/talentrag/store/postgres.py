"""PostgreSQL implementation of the candidate store (``TALENTRAG_DATABASE_URL``).

The same rows and the same two-phase protocol as the SQLite store, on a database that
several processes share: every write is one transaction on a pooled connection, rows a
staging replaces are locked while it reads them, and the schema comes from versioned
migrations (``talentrag.store.pg_schema``) applied at ``open``.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, NamedTuple
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from talentrag.domain import (
    CandidateProfile,
    DocumentRecord,
    DocumentType,
)
from talentrag.errors import ConfigurationError
from talentrag.store.base import (
    CandidateStore,
    RowStatus,
    StoreChanges,
    StoredSignature,
    StoredText,
    StoredVersion,
    StoreSummary,
    UnfinishedWrite,
    changes_between,
)
from talentrag.store.pg_locks import advisory_lock
from talentrag.store.pg_schema import MIGRATION_LOCK, Connection, apply_migrations
from talentrag.store.pg_text import phrase_query, tsvector_literal
from talentrag.store.rows import (
    HOLDING_COLUMNS,
    PROFILE_COLUMNS,
    add_profiles,
    document_columns,
    skill_rows,
    stale_chunks,
)

log = logging.getLogger(__name__)

RECORD_COLUMNS = "record, created_at, updated_at"

INSERT_SKILLS = """INSERT INTO document_skills
    (tenant, id, skill, kind, confidence, mentions, strength, years, last_used)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"""

UPSERT_PENDING = """
INSERT INTO documents (tenant, id, document_type, name, source_file, content_hash, level, years,
    status, stale_chunk_ids, record, text, words, origin, analysis, given_name, signature,
    created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10::jsonb, $11, $12::text::tsvector,
    $13, $14, $15, $16, $17, $18)
ON CONFLICT (tenant, id) DO UPDATE SET
    document_type = excluded.document_type, name = excluded.name,
    source_file = excluded.source_file, content_hash = excluded.content_hash,
    level = excluded.level, years = excluded.years, status = excluded.status,
    stale_chunk_ids = excluded.stale_chunk_ids, record = excluded.record,
    text = excluded.text, words = excluded.words,
    origin = COALESCE(excluded.origin, documents.origin),
    previous_record = CASE WHEN documents.status = 'active' THEN documents.record
                           ELSE documents.previous_record END,
    previous_text = CASE WHEN documents.status = 'active' THEN documents.text
                         ELSE documents.previous_text END,
    previous_analysis = CASE WHEN documents.status = 'active' THEN documents.analysis
                             ELSE documents.previous_analysis END,
    previous_given_name = CASE WHEN documents.status = 'active' THEN documents.given_name
                               ELSE documents.previous_given_name END,
    previous_signature = CASE WHEN documents.status = 'active' THEN documents.signature
                              ELSE documents.previous_signature END,
    analysis = excluded.analysis, given_name = excluded.given_name,
    signature = excluded.signature, updated_at = excluded.updated_at
"""

RESTORE_PREVIOUS = """
UPDATE documents SET document_type = $3, name = $4, source_file = $5, content_hash = $6,
    level = $7, years = $8, status = 'active', stale_chunk_ids = '{}', record = $9::jsonb,
    text = $10, words = $11::text::tsvector,
    analysis = previous_analysis, given_name = previous_given_name,
    signature = previous_signature,
    previous_record = NULL, previous_text = NULL, previous_analysis = NULL,
    previous_given_name = NULL, previous_signature = NULL
WHERE tenant = $1 AND id = $2
"""

ADVANCE_GENERATION = """
INSERT INTO generations (tenant, generation) VALUES ($1, 1)
ON CONFLICT (tenant) DO UPDATE SET generation = generations.generation + 1
RETURNING generation
"""

LOG_CHANGES = """
INSERT INTO changes (tenant, generation, id) SELECT $1, $2, unnest($3::text[])
ON CONFLICT DO NOTHING
"""

# The generation and the ids logged after $2, in one snapshot.
CHANGES_SINCE = """
SELECT g.generation, c.id FROM generations g
LEFT JOIN changes c ON c.tenant = g.tenant AND c.generation > $2
WHERE g.tenant = $1
"""


def _record(row: asyncpg.Record) -> DocumentRecord:
    """A stored record with the row's timestamps (created_at survives updates)."""
    record = DocumentRecord.model_validate_json(row["record"])
    return record.model_copy(
        update={"created_at": row["created_at"], "updated_at": row["updated_at"]}
    )


def redacted(url: str) -> str:
    """``url`` without its password, fit for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _now() -> datetime:
    """Whole seconds, as the SQLite store keeps them: the two order equal times alike."""
    return datetime.now(UTC).replace(microsecond=0)


class PostgresCandidateStore(CandidateStore):
    """Every tenant's documents in one PostgreSQL database, through a connection pool."""

    def __init__(self, url: str, *, min_connections: int = 1, max_connections: int = 10):
        self.url = url
        self.min_connections = min_connections
        self.max_connections = max_connections
        self._pool: asyncpg.Pool | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        """The connection pool; ``RuntimeError`` before ``open``."""
        if self._pool is None:
            raise RuntimeError("candidate store is not open")
        return self._pool

    async def open(self) -> None:
        """Connect the pool and apply the migrations the database lacks (under a lock)."""
        try:
            pool = await asyncpg.create_pool(
                self.url, min_size=self.min_connections, max_size=self.max_connections
            )
        except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise ConfigurationError(
                f"cannot connect to the PostgreSQL store at {redacted(self.url)}: {error}"
            ) from error
        try:
            async with pool.acquire() as connection:
                await apply_migrations(connection)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool

    async def close(self) -> None:
        """Close the pool; a second call does nothing."""
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @asynccontextmanager
    async def schema_lock(self) -> AsyncIterator[None]:
        """The migrations' advisory lock, held on one connection for the block.

        Replicas starting together on an empty database must not create LightRAG's tables
        at the same moment: concurrent ``CREATE TABLE IF NOT EXISTS`` collide in
        PostgreSQL's catalog (``pg_type_typname_nsp_index``) and one replica fails to start.
        """
        async with self.pool.acquire() as connection, advisory_lock(connection, MIGRATION_LOCK):
            yield

    async def refresh_statistics(self) -> None:
        """``ANALYZE`` the whole database (ours and LightRAG's tables) after a bulk copy.

        Until autovacuum gets to a freshly filled table the planner takes it for empty
        and hash-joins whole tables: LightRAG's edge look-ups read every edge of the
        workspace (a search took 421 ms instead of 60 ms at 1,000 CVs).
        """
        await self.pool.execute("ANALYZE")

    async def versions(self, tenant: str, ids: list[str]) -> dict[str, StoredVersion]:
        """Hash and status of the rows among ``ids``, whatever their status."""
        rows = await self.pool.fetch(
            "SELECT id, content_hash, status, origin, analysis FROM documents "
            "WHERE tenant = $1 AND id = ANY($2::text[])",
            tenant,
            ids,
        )
        return {
            row["id"]: StoredVersion(
                row["id"],
                row["content_hash"],
                RowStatus(row["status"]),
                row["origin"],
                row["analysis"],
            )
            for row in rows
        }

    async def get_many(self, tenant: str, ids: list[str]) -> dict[str, DocumentRecord]:
        """Active rows among ``ids``."""
        rows = await self.pool.fetch(
            f"SELECT id, {RECORD_COLUMNS} FROM documents "
            "WHERE tenant = $1 AND status = 'active' AND id = ANY($2::text[])",
            tenant,
            ids,
        )
        return {row["id"]: _record(row) for row in rows}

    async def text_of(self, tenant: str, document_id: str) -> str | None:
        """The stored text of one active document (any type), or None."""
        text: str | None = await self.pool.fetchval(
            "SELECT text FROM documents WHERE tenant = $1 AND id = $2 AND status = 'active'",
            tenant,
            document_id,
        )
        return text

    async def profiles(
        self, tenant: str, ids: list[str], skills: Collection[str] | None = None
    ) -> dict[str, CandidateProfile]:
        """Profiles by id through the primary keys (search reads a page's worth)."""
        skill_join = "TRUE" if skills is None else "s.skill = ANY($3::text[])"
        found: dict[str, CandidateProfile] = {}
        add_profiles(
            found,
            await self.pool.fetch(
                f"""SELECT {PROFILE_COLUMNS}, {HOLDING_COLUMNS} FROM documents d
                    LEFT JOIN document_skills s
                      ON s.tenant = d.tenant AND s.id = d.id AND {skill_join}
                    WHERE d.tenant = $1 AND d.status = 'active' AND d.document_type = 'cv'
                      AND d.id = ANY($2::text[])""",
                tenant,
                sorted(set(ids)),
                *([] if skills is None else [sorted(skills)]),
            ),
        )
        return found

    async def holders(self, tenant: str, skills: Collection[str]) -> dict[str, CandidateProfile]:
        """Holders of ``skills`` from the skill table's covering index, with only those skills."""
        found: dict[str, CandidateProfile] = {}
        add_profiles(
            found,
            await self.pool.fetch(
                f"""SELECT {PROFILE_COLUMNS}, {HOLDING_COLUMNS}
                    FROM document_skills s JOIN documents d ON d.tenant = s.tenant AND d.id = s.id
                    WHERE s.tenant = $1 AND s.skill = ANY($2::text[])
                      AND d.status = 'active' AND d.document_type = 'cv'""",
                tenant,
                sorted(skills),
            ),
        )
        return found

    async def list_documents(
        self,
        tenant: str,
        document_type: DocumentType | None = DocumentType.CV,
        limit: int = 100,
        after_id: str | None = None,
    ) -> list[DocumentRecord]:
        """One keyset page: active rows with id above ``after_id``, ordered by id.

        The conditions are written only when given, so each shape of the query has a
        plan that seeks to ``after_id`` in the primary key rather than scanning to it.
        """
        sql = f"SELECT {RECORD_COLUMNS} FROM documents WHERE tenant = $1 AND status = 'active'"
        args: list[object] = [tenant]
        if document_type is not None:
            args.append(document_type.value)
            sql += f" AND document_type = ${len(args)}"
        if after_id is not None:
            args.append(after_id)
            sql += f" AND id > ${len(args)}"
        args.append(limit)
        rows = await self.pool.fetch(f"{sql} ORDER BY id LIMIT ${len(args)}", *args)
        return [_record(row) for row in rows]

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
        """Upsert the rows as pending, replace their skill rows, keep the replaced versions;
        one transaction, with the replaced rows locked while it runs."""
        now = _now()
        signatures = signatures or {}
        ids = [record.id for record, _ in documents]
        async with self.pool.acquire() as connection, connection.transaction():
            replaced = await _replaced(connection, tenant, ids)
            rows, skills, staged = [], [], []
            for record, text in documents:
                old = replaced.get(record.id)
                stale = stale_chunks(old.chunk_ids if old else [], record)
                record = record.model_copy(update={"tenant": tenant})
                created = old.created_at if old else record.created_at or now
                staged.append(
                    UnfinishedWrite(
                        record.model_copy(update={"created_at": created, "updated_at": created}),
                        text,
                        RowStatus.PENDING,
                        stale,
                        old.previous if old else None,
                        signatures.get(record.id),
                    )
                )
                rows.append(
                    (
                        tenant,
                        record.id,
                        *document_columns(record),
                        stale,
                        record.model_dump_json(),
                        text,
                        tsvector_literal(text),
                        (origins or {}).get(record.id),
                        analysis,
                        (given_names or {}).get(record.id),
                        signatures.get(record.id),
                        created,
                        now,
                    )
                )
                skills += skill_rows(tenant, record)
            await connection.executemany(UPSERT_PENDING, rows)
            await connection.execute(
                "DELETE FROM document_skills WHERE tenant = $1 AND id = ANY($2::text[])",
                tenant,
                ids,
            )
            await connection.executemany(INSERT_SKILLS, skills)
        return staged

    async def stage_deletion(self, tenant: str, ids: list[str]) -> list[str]:
        """Mark the existing rows among ``ids`` as deleting."""
        rows = await self.pool.fetch(
            "UPDATE documents SET status = 'deleting', updated_at = $3 "
            "WHERE tenant = $1 AND id = ANY($2::text[]) RETURNING id",
            tenant,
            ids,
            _now(),
        )
        existing = {row["id"] for row in rows}
        return [i for i in dict.fromkeys(ids) if i in existing]

    async def finish(
        self, tenant: str, ids: list[str], groups: dict[str, str | None] | None = None
    ) -> None:
        """Delete the deleting rows (their skills go with them), activate the pending ones,
        set groups and advance the generation; one transaction."""
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "DELETE FROM documents "
                "WHERE tenant = $1 AND id = ANY($2::text[]) AND status = 'deleting'",
                tenant,
                ids,
            )
            await connection.execute(
                """UPDATE documents SET status = 'active', stale_chunk_ids = '{}',
                       previous_record = NULL, previous_text = NULL, previous_analysis = NULL,
                       previous_given_name = NULL, previous_signature = NULL
                   WHERE tenant = $1 AND id = ANY($2::text[]) AND status = 'pending'""",
                tenant,
                ids,
            )
            regrouped = await _set_groups(connection, tenant, groups)
            await _advance_generation(
                connection, tenant, [*ids, *regrouped], self.change_log_generations
            )

    async def abandon(self, tenant: str, ids: list[str]) -> None:
        """Restore replaced versions, drop new ones, cancel deletions; one transaction."""
        async with self.pool.acquire() as connection, connection.transaction():
            for write in await _unfinished(connection, tenant, ids, lock=True):
                key = (tenant, write.record.id)
                if write.status is RowStatus.DELETING:
                    await connection.execute(
                        "UPDATE documents SET status = 'active' WHERE tenant = $1 AND id = $2",
                        *key,
                    )
                    continue
                if write.previous is None:
                    await connection.execute(
                        "DELETE FROM documents WHERE tenant = $1 AND id = $2", *key
                    )
                    continue
                record, text = write.previous
                await connection.execute(
                    "DELETE FROM document_skills WHERE tenant = $1 AND id = $2", *key
                )
                await connection.execute(
                    RESTORE_PREVIOUS,
                    *key,
                    *document_columns(record),
                    record.model_dump_json(),
                    text,
                    tsvector_literal(text),
                )
                await connection.executemany(INSERT_SKILLS, skill_rows(tenant, record))
            await _advance_generation(connection, tenant, ids, self.change_log_generations)

    async def unfinished(self, tenant: str) -> list[UnfinishedWrite]:
        """Pending and deleting rows with their text, by id."""
        async with self.pool.acquire() as connection:
            return await _unfinished(connection, tenant)

    async def tenants_with_unfinished(self) -> list[str]:
        """Tenants with pending or deleting rows, through the partial status index."""
        rows = await self.pool.fetch(
            "SELECT DISTINCT tenant FROM documents WHERE status <> 'active' ORDER BY tenant"
        )
        return [row["tenant"] for row in rows]

    async def generation(self, tenant: str) -> int:
        """The tenant's write counter (0 before its first write)."""
        value = await self.pool.fetchval(
            "SELECT generation FROM generations WHERE tenant = $1", tenant
        )
        return int(value) if value is not None else 0

    async def changes_since(self, tenant: str, generation: int) -> StoreChanges | None:
        """The generation and the ids logged after ``generation``, in one statement."""
        rows = await self.pool.fetch(CHANGES_SINCE, tenant, generation)
        current = int(rows[0]["generation"]) if rows else 0
        ids = (row["id"] for row in rows if row["id"])
        return changes_between(generation, current, ids, self.change_log_generations)

    async def texts_containing(self, tenant: str, phrase: str, limit: int) -> dict[str, str]:
        """Active CVs whose words include the phrase's words in order (GIN index), best
        ``ts_rank`` first: id -> text."""
        query = phrase_query(phrase)
        if query is None:
            return {}
        rows = await self.pool.fetch(
            """SELECT id, text FROM documents, CAST($2::text AS tsquery) AS query
               WHERE words @@ query AND tenant = $1 AND status = 'active'
                 AND document_type = 'cv'
               ORDER BY ts_rank(words, query) DESC, id LIMIT $3""",
            tenant,
            query,
            limit,
        )
        return {row["id"]: row["text"] for row in rows}

    async def stale_documents(
        self, tenant: str, analysis: str, limit: int, after_id: str | None = None
    ) -> list[StoredText]:
        """One keyset page of active rows whose stamp is not ``analysis`` (NULL included)."""
        return await self._texts(
            tenant, "analysis IS DISTINCT FROM $4", [analysis], limit, after_id
        )

    async def every_document(
        self, tenant: str, limit: int, after_id: str | None = None
    ) -> list[StoredText]:
        """One keyset page of active rows, with origin, stamp and signature."""
        return await self._texts(tenant, "TRUE", [], limit, after_id)

    async def _texts(
        self, tenant: str, condition: str, values: list[Any], limit: int, after_id: str | None
    ) -> list[StoredText]:
        rows = await self.pool.fetch(
            f"""SELECT {RECORD_COLUMNS}, text, given_name, origin, analysis, signature
                FROM documents WHERE tenant = $1 AND status = 'active' AND {condition}
                  AND id > $2 ORDER BY id LIMIT $3""",
            tenant,
            after_id or "",
            limit,
            *values,
        )
        return [
            StoredText(
                _record(row),
                row["text"],
                row["given_name"],
                row["origin"],
                row["analysis"],
                row["signature"],
            )
            for row in rows
        ]

    async def document_counts(self) -> dict[str, int]:
        """Per tenant, its active rows."""
        rows = await self.pool.fetch(
            "SELECT tenant, COUNT(*) AS n FROM documents WHERE status = 'active' "
            "GROUP BY tenant ORDER BY tenant"
        )
        return {row["tenant"]: row["n"] for row in rows}

    async def restamp(
        self,
        tenant: str,
        ids: list[str],
        analysis: str,
        *,
        signatures: dict[str, bytes] | None = None,
        groups: dict[str, str | None] | None = None,
    ) -> None:
        """Set the stamp (and signature) of the active rows among ``ids``, and groups; one
        transaction."""
        signatures = signatures or {}
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.executemany(
                "UPDATE documents SET analysis = $1, signature = COALESCE($2, signature) "
                "WHERE tenant = $3 AND id = $4 AND status = 'active'",
                [(analysis, signatures.get(i), tenant, i) for i in ids],
            )
            if regrouped := await _set_groups(connection, tenant, groups):
                await _advance_generation(
                    connection, tenant, regrouped, self.change_log_generations
                )

    async def stale_counts(self, analysis: str) -> dict[str, int]:
        """Per tenant, the active rows whose stamp is not ``analysis``."""
        rows = await self.pool.fetch(
            "SELECT tenant, COUNT(*) AS n FROM documents "
            "WHERE status = 'active' AND analysis IS DISTINCT FROM $1 "
            "GROUP BY tenant ORDER BY tenant",
            analysis,
        )
        return {row["tenant"]: row["n"] for row in rows}

    async def duplicate_signatures(self, tenant: str) -> list[StoredSignature]:
        """Active CVs with a signature: id, signature, created_at, group."""
        rows = await self.pool.fetch(
            "SELECT id, signature, created_at, duplicate_group FROM documents "
            "WHERE tenant = $1 AND status = 'active' AND document_type = 'cv' "
            "AND signature IS NOT NULL ORDER BY id",
            tenant,
        )
        return [
            StoredSignature(row["id"], row["signature"], row["created_at"], row["duplicate_group"])
            for row in rows
        ]

    async def duplicate_groups(self, tenant: str) -> list[list[str]]:
        """Grouped active CVs, through the partial group index; groups of one are left out."""
        groups: dict[str, list[str]] = {}
        for row in await self.pool.fetch(
            "SELECT duplicate_group, id FROM documents WHERE tenant = $1 "
            "AND duplicate_group IS NOT NULL AND status = 'active' AND document_type = 'cv' "
            "ORDER BY created_at, id",
            tenant,
        ):
            groups.setdefault(row["duplicate_group"], []).append(row["id"])
        return [ids for ids in groups.values() if len(ids) > 1]

    async def duplicates_of(self, tenant: str, ids: list[str]) -> dict[str, list[str]]:
        """The other active members of each given CV's group (earliest first), if any."""
        found: dict[str, list[str]] = {}
        for row in await self.pool.fetch(
            """SELECT d.id, o.id AS other FROM documents d JOIN documents o
                   ON o.tenant = d.tenant AND o.duplicate_group = d.duplicate_group
                  AND o.id <> d.id
               WHERE d.tenant = $1 AND d.id = ANY($2::text[]) AND d.duplicate_group IS NOT NULL
                 AND d.status = 'active' AND o.status = 'active' AND o.document_type = 'cv'
               ORDER BY d.id, o.created_at, o.id""",
            tenant,
            ids,
        ):
            found.setdefault(row["id"], []).append(row["other"])
        return found

    async def summary(self, tenant: str) -> StoreSummary:
        """Counts by type, level and status, and the ten skills most candidates hold."""
        counts: Counter[str] = Counter()
        levels: Counter[str] = Counter()
        async with self.pool.acquire() as connection:
            for row in await connection.fetch(
                "SELECT document_type, level, COUNT(*) AS n FROM documents "
                "WHERE tenant = $1 AND status = 'active' GROUP BY 1, 2",
                tenant,
            ):
                if row["document_type"] == DocumentType.CV.value:
                    counts["cv"] += row["n"]
                    levels[row["level"] or "unknown"] += row["n"]
                else:
                    counts["other"] += row["n"]
            top = [
                (row["skill"], row["n"])
                for row in await connection.fetch(
                    """SELECT s.skill, COUNT(*) AS n FROM document_skills s
                       JOIN documents d ON d.tenant = s.tenant AND d.id = s.id
                       WHERE s.tenant = $1 AND d.status = 'active' AND d.document_type = 'cv'
                       GROUP BY s.skill ORDER BY 2 DESC, 1 LIMIT 10""",
                    tenant,
                )
            ]
            unfinished = [
                row["id"]
                for row in await connection.fetch(
                    "SELECT id FROM documents WHERE tenant = $1 AND status <> 'active' ORDER BY id",
                    tenant,
                )
            ]
        groups = await self.duplicate_groups(tenant)
        duplicates = sum(len(group) - 1 for group in groups)
        return StoreSummary(
            counts["cv"], counts["other"], dict(levels), top, unfinished, duplicates
        )


class _Replaced(NamedTuple):
    """A stored row a staging replaces."""

    chunk_ids: list[str]
    """LightRAG chunk ids of its version and of earlier half-written ones."""
    previous: tuple[DocumentRecord, str] | None
    """The active version to restore if the write fails."""
    created_at: datetime
    """When the document was first stored (a new version keeps it)."""


async def _replaced(connection: Connection, tenant: str, ids: list[str]) -> dict[str, _Replaced]:
    """The stored rows a staging replaces, locked until its transaction ends."""
    found: dict[str, _Replaced] = {}
    for row in await connection.fetch(
        """SELECT id, record, text, status, stale_chunk_ids, previous_record, previous_text,
                  created_at
           FROM documents WHERE tenant = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE""",
        tenant,
        ids,
    ):
        record = DocumentRecord.model_validate_json(row["record"])
        chunk_ids = [c.chunk_id for c in record.chunks] + list(row["stale_chunk_ids"])
        previous: tuple[DocumentRecord, str] | None
        if row["status"] == RowStatus.ACTIVE.value:
            previous = (record, row["text"])
        elif row["previous_record"] is not None:
            previous = (
                DocumentRecord.model_validate_json(row["previous_record"]),
                row["previous_text"],
            )
        else:
            previous = None
        found[row["id"]] = _Replaced(chunk_ids, previous, row["created_at"])
    return found


async def _unfinished(
    connection: Connection,
    tenant: str,
    ids: list[str] | None = None,
    *,
    lock: bool = False,
) -> list[UnfinishedWrite]:
    """Pending and deleting rows of the tenant (among ``ids`` if given), by id."""
    rows = await connection.fetch(
        f"""SELECT {RECORD_COLUMNS}, text, status, stale_chunk_ids, previous_record,
                   previous_text, signature
            FROM documents WHERE tenant = $1 AND status <> 'active'
              AND ($2::text[] IS NULL OR id = ANY($2::text[]))
            ORDER BY id {"FOR UPDATE" if lock else ""}""",
        tenant,
        ids,
    )
    return [
        UnfinishedWrite(
            _record(row),
            row["text"],
            RowStatus(row["status"]),
            list(row["stale_chunk_ids"]),
            (DocumentRecord.model_validate_json(row["previous_record"]), row["previous_text"])
            if row["previous_record"] is not None
            else None,
            row["signature"],
        )
        for row in rows
    ]


async def _advance_generation(
    connection: Connection, tenant: str, ids: list[str], kept: int
) -> None:
    """Increase the generation and log ``ids`` under it, dropping what is ``kept``
    generations old, in the caller's transaction (the generation's row stays locked
    until it commits, so a reader sees both or neither)."""
    generation = await connection.fetchval(ADVANCE_GENERATION, tenant)
    await connection.execute(LOG_CHANGES, tenant, generation, sorted(set(ids)))
    await connection.execute(
        "DELETE FROM changes WHERE tenant = $1 AND generation <= $2",
        tenant,
        generation - kept,
    )


async def _set_groups(
    connection: Connection, tenant: str, groups: dict[str, str | None] | None
) -> list[str]:
    """Store duplicate groups (None: in none) in the caller's transaction; return the
    ids whose group changed."""
    if not groups:
        return []
    rows = await connection.fetch(
        "UPDATE documents d SET duplicate_group = v.grp "
        "FROM unnest($2::text[], $3::text[]) AS v(id, grp) "
        "WHERE d.tenant = $1 AND d.id = v.id AND d.duplicate_group IS DISTINCT FROM v.grp "
        "RETURNING d.id",
        tenant,
        list(groups),
        list(groups.values()),
    )
    return [row["id"] for row in rows]
