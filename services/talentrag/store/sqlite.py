"""SQLite implementation of the candidate store (the embedded default)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import aiosqlite

from talentrag.domain import (
    CandidateProfile,
    DocumentRecord,
    DocumentType,
)
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
from talentrag.store.rows import (
    HOLDING_COLUMNS,
    PROFILE_COLUMNS,
    add_profiles,
    document_columns,
    skill_rows,
    stale_chunks,
)

_FULL_TEXT_WORD = re.compile(r"\w+")  # what FTS5's unicode61 tokenizer indexes, roughly


SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    tenant TEXT NOT NULL,
    id TEXT NOT NULL,
    document_type TEXT NOT NULL,
    name TEXT NOT NULL,
    source_file TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    level TEXT,
    years REAL,
    status TEXT NOT NULL,
    stale_chunk_ids TEXT NOT NULL DEFAULT '[]',
    record TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (tenant, id)
);
-- Only unfinished rows: an index on every row's status lured the planner into scanning
-- all active rows for `status='active' AND id IN (...)` instead of using the primary key.
DROP INDEX IF EXISTS documents_status;
CREATE INDEX IF NOT EXISTS documents_unfinished ON documents (tenant, status) WHERE status != 'active';
CREATE INDEX IF NOT EXISTS documents_source ON documents (tenant, source_file);
CREATE TABLE IF NOT EXISTS document_skills (
    tenant TEXT NOT NULL,
    id TEXT NOT NULL,
    skill TEXT NOT NULL,
    kind TEXT NOT NULL,
    confidence REAL NOT NULL,
    mentions INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant, id, skill)
);
-- One row per tenant: increased by every committed write, read by other processes.
CREATE TABLE IF NOT EXISTS generations (
    tenant TEXT PRIMARY KEY,
    generation INTEGER NOT NULL
);
-- The ids each write touched, for the last CHANGE_LOG_GENERATIONS generations.
CREATE TABLE IF NOT EXISTS changes (
    tenant TEXT NOT NULL,
    generation INTEGER NOT NULL,
    id TEXT NOT NULL,
    PRIMARY KEY (tenant, generation, id)
) WITHOUT ROWID;
"""

LATE_COLUMNS = {
    "origin": "TEXT",  # where a file was read from (keeps two files named CV.pdf apart)
    "previous_record": "TEXT",  # the version a pending write replaces, restored if it fails
    "previous_text": "TEXT",
    "analysis": "TEXT",  # the analysis version the record was made under (NULL: before stamps)
    "given_name": "TEXT",  # a name the caller sent, which re-analysis keeps
    "previous_analysis": "TEXT",  # those two of the version a pending write replaces
    "previous_given_name": "TEXT",
    "signature": "BLOB",  # a CV's near-duplicate signature (NULL: not a CV, or made before them)
    "previous_signature": "BLOB",
    "duplicate_group": "TEXT",  # id of the earliest CV of its duplicate group (NULL: in none)
}

# Rows stored before names were told apart: a row not read from a file (sent as text or
# uploaded) may carry a caller's name, so it keeps its name through re-analysis.
GIVEN_NAME_BACKFILL = """
UPDATE documents SET given_name = name,
    previous_given_name = CASE WHEN previous_record IS NULL THEN NULL
                               ELSE json_extract(previous_record, '$.name') END
WHERE origin IS NULL
"""

# Finds the rows to re-analyse, and counts them at start-up, from the index alone.
ANALYSIS_INDEX = """
CREATE INDEX IF NOT EXISTS documents_analysis ON documents (tenant, analysis, id)
    WHERE status = 'active';
"""

# A search's duplicates and `talentrag duplicates` read the few grouped rows only.
DUPLICATE_INDEX = """
CREATE INDEX IF NOT EXISTS documents_duplicates ON documents (tenant, duplicate_group, id)
    WHERE duplicate_group IS NOT NULL;
"""


RECORD_COLUMNS = "record, created_at, updated_at"

# What ranking reads per held skill; the later three came with evidence-strength ranking.
SKILL_LATE_COLUMNS = {
    "mentions": "INTEGER NOT NULL DEFAULT 0",
    "strength": "TEXT",
    "years": "REAL",
    "last_used": "INTEGER",
}
INSERT_SKILLS = """INSERT INTO document_skills
    (tenant, id, skill, kind, confidence, mentions, strength, years, last_used)
    VALUES (?,?,?,?,?,?,?,?,?)"""

# Full-text index over every stored text (FTS5, external content: the text is stored
# once, in `documents`); the triggers keep it in step with every insert, update and delete.
FULL_TEXT = """
CREATE VIRTUAL TABLE IF NOT EXISTS documents_text USING fts5(
    text, content='documents', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS documents_text_insert AFTER INSERT ON documents BEGIN
    INSERT INTO documents_text (rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER IF NOT EXISTS documents_text_delete AFTER DELETE ON documents BEGIN
    INSERT INTO documents_text (documents_text, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
CREATE TRIGGER IF NOT EXISTS documents_text_update AFTER UPDATE OF text ON documents BEGIN
    INSERT INTO documents_text (documents_text, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO documents_text (rowid, text) VALUES (new.rowid, new.text);
END;
"""


# Covering indexes for ranking: a query reads its skills' holders and their level from
# the indexes alone (55 -> 7 ms for 5,500 holdings at 10K CVs) instead of the wide rows.
RANKING_INDEXES = """
DROP INDEX IF EXISTS document_skills_skill;
DROP INDEX IF EXISTS document_skills_holders;
CREATE INDEX IF NOT EXISTS document_skills_ranking
    ON document_skills (tenant, skill, id, kind, confidence, mentions, strength, years, last_used);
DROP INDEX IF EXISTS documents_rank;
CREATE INDEX IF NOT EXISTS documents_ranking
    ON documents (tenant, id, status, document_type, level, years);
"""


def _record(row: Sequence[Any]) -> DocumentRecord:
    """A stored record with the row's timestamps (created_at survives updates)."""
    record = DocumentRecord.model_validate_json(row[0])
    return record.model_copy(
        update={
            "created_at": datetime.fromisoformat(row[1]),
            "updated_at": datetime.fromisoformat(row[2]),
        }
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class SQLiteCandidateStore(CandidateStore):
    """One SQLite file (WAL) for every tenant: records, texts and a skill table for ranking."""

    def __init__(self, path: Path):
        self.path = path
        self._db: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None

    @property
    def db(self) -> aiosqlite.Connection:
        """The connection that writes (and reads what writes need); ``RuntimeError`` before ``open``."""
        if self._db is None:
            raise RuntimeError("candidate store is not open")
        return self._db

    @property
    def reads(self) -> aiosqlite.Connection:
        """A second connection for what searches and listings read.

        aiosqlite runs one connection's statements one after another in its thread, so
        on the writing connection a search waited behind each batch's inserts and
        commit. In WAL mode a reader sees the last commit and never waits for a writer.
        """
        if self._reader is None:
            raise RuntimeError("candidate store is not open")
        return self._reader

    async def open(self) -> None:
        """Connect in WAL mode, create the schema, add late columns and the ranking indexes."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path)
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.executescript(SCHEMA)
        async with self._db.execute("PRAGMA table_info(document_skills)") as cursor:
            columns = {row[1] async for row in cursor}
        for column, sql_type in SKILL_LATE_COLUMNS.items():
            if column not in columns:  # stores created before the column existed
                await self._db.execute(
                    f"ALTER TABLE document_skills ADD COLUMN {column} {sql_type}"
                )
        async with self._db.execute("PRAGMA table_info(documents)") as cursor:
            present = {row[1] async for row in cursor}
        for column, sql_type in LATE_COLUMNS.items():
            if column not in present:
                await self._db.execute(f"ALTER TABLE documents ADD COLUMN {column} {sql_type}")
        if "given_name" not in present:
            await self._db.execute(GIVEN_NAME_BACKFILL)
        await self._db.executescript(RANKING_INDEXES + ANALYSIS_INDEX + DUPLICATE_INDEX)
        await self._create_full_text_index()
        await self._db.commit()
        self._reader = await aiosqlite.connect(self.path)

    async def _create_full_text_index(self) -> None:
        """The FTS5 index; a store created before it had one is indexed now, once."""
        async with self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE name='documents_text'"
        ) as cursor:
            existed = await cursor.fetchone() is not None
        await self.db.executescript(FULL_TEXT)
        if not existed:
            await self.db.execute("INSERT INTO documents_text (documents_text) VALUES ('rebuild')")

    async def close(self) -> None:
        """Close the connection; a second call does nothing."""
        if self._reader is not None:
            await self._reader.close()
            self._reader = None
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def versions(self, tenant: str, ids: list[str]) -> dict[str, StoredVersion]:
        """Hash and status of the rows among ``ids``, whatever their status."""
        found: dict[str, StoredVersion] = {}
        for chunk in _batches(ids):
            marks = ",".join("?" * len(chunk))
            async with self.db.execute(
                "SELECT id, content_hash, status, origin, analysis FROM documents "
                f"WHERE tenant=? AND id IN ({marks})",
                [tenant, *chunk],
            ) as cursor:
                async for row in cursor:
                    found[row[0]] = StoredVersion(row[0], row[1], RowStatus(row[2]), *row[3:])
        return found

    async def get_many(self, tenant: str, ids: list[str]) -> dict[str, DocumentRecord]:
        """Active rows among ``ids``, read in batches of 500."""
        found: dict[str, DocumentRecord] = {}
        for chunk in _batches(ids):
            marks = ",".join("?" * len(chunk))
            async with self.reads.execute(
                f"SELECT id, {RECORD_COLUMNS} FROM documents WHERE tenant=? AND status='active' AND id IN ({marks})",
                [tenant, *chunk],
            ) as cursor:
                async for row in cursor:
                    found[row[0]] = _record(row[1:])
        return found

    async def text_of(self, tenant: str, document_id: str) -> str | None:
        """The stored text of one active document (any type), or None."""
        async with self.reads.execute(
            "SELECT text FROM documents WHERE tenant=? AND id=? AND status='active'",
            [tenant, document_id],
        ) as cursor:
            row = await cursor.fetchone()
        return str(row[0]) if row else None

    async def profiles(
        self, tenant: str, ids: list[str], skills: Collection[str] | None = None
    ) -> dict[str, CandidateProfile]:
        """Profiles by id through the primary keys (search reads a page's worth)."""
        found: dict[str, CandidateProfile] = {}
        wanted = sorted(skills) if skills is not None else []
        skill_join = "1" if skills is None else f"s.skill IN ({','.join('?' * len(wanted))})"
        for chunk in _batches(sorted(set(ids))):
            marks = ",".join("?" * len(chunk))
            async with self.reads.execute(
                f"""SELECT {PROFILE_COLUMNS}, {HOLDING_COLUMNS} FROM documents d
                    LEFT JOIN document_skills s
                      ON s.tenant=d.tenant AND s.id=d.id AND {skill_join}
                    WHERE d.tenant=? AND d.status='active' AND d.document_type='cv'
                      AND d.id IN ({marks})""",
                [*wanted, tenant, *chunk],
            ) as cursor:
                add_profiles(found, await cursor.fetchall())
        return found

    async def holders(self, tenant: str, skills: Collection[str]) -> dict[str, CandidateProfile]:
        """Holders of ``skills`` through the skill index, each with only those skills."""
        found: dict[str, CandidateProfile] = {}
        for chunk in _batches(sorted(skills)):
            marks = ",".join("?" * len(chunk))
            async with self.reads.execute(
                f"""SELECT {PROFILE_COLUMNS}, {HOLDING_COLUMNS} FROM document_skills s
                    JOIN documents d ON d.tenant=s.tenant AND d.id=s.id
                    WHERE s.tenant=? AND s.skill IN ({marks}) AND d.status='active'
                      AND d.document_type='cv'""",
                [tenant, *chunk],
            ) as cursor:
                add_profiles(found, await cursor.fetchall())
        return found

    async def list_documents(
        self,
        tenant: str,
        document_type: DocumentType | None = DocumentType.CV,
        limit: int = 100,
        after_id: str | None = None,
    ) -> list[DocumentRecord]:
        """One keyset page: active rows with id above ``after_id``, ordered by id."""
        sql = f"SELECT {RECORD_COLUMNS} FROM documents WHERE tenant=? AND status='active'"
        args: list[object] = [tenant]
        if document_type is not None:
            sql += " AND document_type=?"
            args.append(document_type.value)
        if after_id is not None:
            sql += " AND id > ?"
            args.append(after_id)
        sql += " ORDER BY id LIMIT ?"
        args.append(limit)
        async with self.reads.execute(sql, args) as cursor:
            return [_record(row) async for row in cursor]

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
        """Upsert the rows as pending, replace their skill rows, keep the replaced versions."""
        now = _now()
        records = [record for record, _ in documents]
        replaced = await self._replaced(tenant, [r.id for r in records])
        signatures = signatures or {}
        rows, skills, staged = [], [], []
        for record, text in documents:
            old = replaced.get(record.id)
            stale = stale_chunks(old.chunk_ids if old else [], record)
            record = record.model_copy(update={"tenant": tenant})
            created = (
                datetime.fromisoformat(old.created_at)
                if old
                else record.created_at or datetime.fromisoformat(now)
            )
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
                    RowStatus.PENDING.value,
                    json.dumps(stale),
                    record.model_dump_json(),
                    text,
                    (origins or {}).get(record.id),
                    analysis,
                    (given_names or {}).get(record.id),
                    signatures.get(record.id),
                    created.isoformat(timespec="seconds"),
                    now,
                )
            )
            skills += skill_rows(tenant, record)
        await self.db.executemany(
            """INSERT INTO documents (tenant, id, document_type, name, source_file, content_hash,
                   level, years, status, stale_chunk_ids, record, text, origin, analysis,
                   given_name, signature, created_at, updated_at)
               VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
               ON CONFLICT (tenant, id) DO UPDATE SET
                   document_type=excluded.document_type, name=excluded.name,
                   source_file=excluded.source_file, content_hash=excluded.content_hash,
                   level=excluded.level, years=excluded.years, status=excluded.status,
                   stale_chunk_ids=excluded.stale_chunk_ids,
                   record=excluded.record, text=excluded.text,
                   origin=COALESCE(excluded.origin, documents.origin),
                   previous_record=CASE WHEN documents.status='active' THEN documents.record
                                        ELSE documents.previous_record END,
                   previous_text=CASE WHEN documents.status='active' THEN documents.text
                                      ELSE documents.previous_text END,
                   previous_analysis=CASE WHEN documents.status='active' THEN documents.analysis
                                          ELSE documents.previous_analysis END,
                   previous_given_name=CASE WHEN documents.status='active'
                                            THEN documents.given_name
                                            ELSE documents.previous_given_name END,
                   previous_signature=CASE WHEN documents.status='active'
                                           THEN documents.signature
                                           ELSE documents.previous_signature END,
                   analysis=excluded.analysis, given_name=excluded.given_name,
                   signature=excluded.signature, updated_at=excluded.updated_at""",
            rows,
        )
        await self.db.executemany(
            "DELETE FROM document_skills WHERE tenant=? AND id=?", [(tenant, r.id) for r in records]
        )
        await self.db.executemany(INSERT_SKILLS, skills)
        await self.db.commit()
        return staged

    async def _replaced(self, tenant: str, ids: list[str]) -> dict[str, _Replaced]:
        """The stored rows a staging replaces: chunk ids to remove and the version to keep."""
        found: dict[str, _Replaced] = {}
        for chunk in _batches(ids):
            marks = ",".join("?" * len(chunk))
            async with self.db.execute(
                "SELECT id, record, text, status, stale_chunk_ids, previous_record, previous_text, "
                f"created_at FROM documents WHERE tenant=? AND id IN ({marks})",
                [tenant, *chunk],
            ) as cursor:
                async for row in cursor:
                    record = DocumentRecord.model_validate_json(row[1])
                    chunk_ids = [c.chunk_id for c in record.chunks] + json.loads(row[4])
                    if row[3] == RowStatus.ACTIVE.value:
                        previous = (record, row[2])
                    elif row[5]:
                        previous = (DocumentRecord.model_validate_json(row[5]), row[6])
                    else:
                        previous = None
                    found[row[0]] = _Replaced(chunk_ids, previous, row[7])
        return found

    async def stage_deletion(self, tenant: str, ids: list[str]) -> list[str]:
        """Mark the existing rows among ``ids`` as deleting."""
        existing = list((await self.versions(tenant, ids)).keys())
        await self.db.executemany(
            "UPDATE documents SET status='deleting', updated_at=? WHERE tenant=? AND id=?",
            [(_now(), tenant, i) for i in existing],
        )
        await self.db.commit()
        return existing

    async def finish(
        self, tenant: str, ids: list[str], groups: dict[str, str | None] | None = None
    ) -> None:
        """Delete the deleting rows with their skills, activate the pending ones, set groups."""
        for chunk in _batches(ids):
            marks = ",".join("?" * len(chunk))
            args = [tenant, *chunk]
            await self.db.execute(
                f"DELETE FROM document_skills WHERE tenant=? AND id IN ({marks}) AND id IN "
                f"(SELECT id FROM documents WHERE tenant=? AND status='deleting')",
                [*args, tenant],
            )
            await self.db.execute(
                f"DELETE FROM documents WHERE tenant=? AND id IN ({marks}) AND status='deleting'",
                args,
            )
            await self.db.execute(
                f"UPDATE documents SET status='active', stale_chunk_ids='[]', "
                f"previous_record=NULL, previous_text=NULL, previous_analysis=NULL, "
                f"previous_given_name=NULL, previous_signature=NULL "
                f"WHERE tenant=? AND id IN ({marks}) AND status='pending'",
                args,
            )
        regrouped = await self._set_groups(tenant, groups)
        await self._advance_generation(tenant, [*ids, *regrouped])
        await self.db.commit()

    async def abandon(self, tenant: str, ids: list[str]) -> None:
        """Restore replaced versions, drop new ones, cancel deletions; one transaction."""
        for write in await self.unfinished(tenant):
            if write.record.id not in ids:
                continue
            key = (tenant, write.record.id)
            if write.status is RowStatus.DELETING:
                await self.db.execute(
                    "UPDATE documents SET status='active' WHERE tenant=? AND id=?", key
                )
                continue
            await self.db.execute("DELETE FROM document_skills WHERE tenant=? AND id=?", key)
            if write.previous is None:
                await self.db.execute("DELETE FROM documents WHERE tenant=? AND id=?", key)
                continue
            record, text = write.previous
            await self.db.execute(
                """UPDATE documents SET document_type=?, name=?, source_file=?, content_hash=?,
                       level=?, years=?, status='active', stale_chunk_ids='[]', record=?, text=?,
                       analysis=previous_analysis, given_name=previous_given_name,
                       signature=previous_signature,
                       previous_record=NULL, previous_text=NULL, previous_analysis=NULL,
                       previous_given_name=NULL, previous_signature=NULL
                   WHERE tenant=? AND id=?""",
                (*document_columns(record), record.model_dump_json(), text, *key),
            )
            await self.db.executemany(INSERT_SKILLS, skill_rows(tenant, record))
        await self._advance_generation(tenant, ids)
        await self.db.commit()

    async def tenants_with_unfinished(self) -> list[str]:
        """Tenants with pending or deleting rows, through the partial status index."""
        async with self.db.execute(
            "SELECT DISTINCT tenant FROM documents WHERE status!='active' ORDER BY tenant"
        ) as cursor:
            return [row[0] async for row in cursor]

    async def generation(self, tenant: str) -> int:
        """The tenant's write counter (0 before its first write)."""
        async with self.reads.execute(
            "SELECT generation FROM generations WHERE tenant=?", [tenant]
        ) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def _set_groups(self, tenant: str, groups: dict[str, str | None] | None) -> list[str]:
        """Store duplicate groups (None: in none) in the caller's transaction; return the
        ids whose group changed."""
        groups = groups or {}
        stored: dict[str, str | None] = {}
        for chunk in _batches(list(groups)):
            async with self.db.execute(
                f"SELECT id, duplicate_group FROM documents "
                f"WHERE tenant=? AND id IN ({','.join('?' * len(chunk))})",
                [tenant, *chunk],
            ) as cursor:
                stored.update({row[0]: row[1] async for row in cursor})
        changed = [i for i, group in groups.items() if i in stored and stored[i] != group]
        await self.db.executemany(
            "UPDATE documents SET duplicate_group=? WHERE tenant=? AND id=?",
            [(groups[i], tenant, i) for i in changed],
        )
        return changed

    async def duplicate_signatures(self, tenant: str) -> list[StoredSignature]:
        """Active CVs with a signature: id, signature, created_at, group."""
        async with self.db.execute(
            "SELECT id, signature, created_at, duplicate_group FROM documents "
            "WHERE tenant=? AND status='active' AND document_type='cv' AND signature IS NOT NULL "
            "ORDER BY id",
            [tenant],
        ) as cursor:
            return [
                StoredSignature(row[0], row[1], datetime.fromisoformat(row[2]), row[3])
                async for row in cursor
            ]

    async def duplicate_groups(self, tenant: str) -> list[list[str]]:
        """Grouped active CVs, through the partial group index; groups of one are left out."""
        groups: dict[str, list[str]] = {}
        async with self.reads.execute(
            "SELECT duplicate_group, id FROM documents WHERE tenant=? "
            "AND duplicate_group IS NOT NULL AND status='active' AND document_type='cv' "
            "ORDER BY created_at, id",
            [tenant],
        ) as cursor:
            async for group, document_id in cursor:
                groups.setdefault(group, []).append(document_id)
        return [ids for ids in groups.values() if len(ids) > 1]

    async def duplicates_of(self, tenant: str, ids: list[str]) -> dict[str, list[str]]:
        """The other active members of each given CV's group (earliest first), if any."""
        found: dict[str, list[str]] = {}
        for chunk in _batches(ids):
            marks = ",".join("?" * len(chunk))
            async with self.reads.execute(
                f"""SELECT d.id, o.id FROM documents d JOIN documents o
                        ON o.tenant=d.tenant AND o.duplicate_group=d.duplicate_group AND o.id!=d.id
                    WHERE d.tenant=? AND d.id IN ({marks}) AND d.duplicate_group IS NOT NULL
                      AND d.status='active' AND o.status='active' AND o.document_type='cv'
                    ORDER BY d.id, o.created_at, o.id""",
                [tenant, *chunk],
            ) as cursor:
                async for document_id, other in cursor:
                    found.setdefault(document_id, []).append(other)
        return found

    async def changes_since(self, tenant: str, generation: int) -> StoreChanges | None:
        """The generation and the ids logged after ``generation``, in one statement."""
        async with self.reads.execute(
            "SELECT g.generation, c.id FROM generations g LEFT JOIN changes c "
            "ON c.tenant=g.tenant AND c.generation>? WHERE g.tenant=?",
            [generation, tenant],
        ) as cursor:
            rows = list(await cursor.fetchall())
        current = int(rows[0][0]) if rows else 0
        ids = (row[1] for row in rows if row[1])
        return changes_between(generation, current, ids, self.change_log_generations)

    async def _advance_generation(self, tenant: str, ids: Collection[str]) -> None:
        """Increase the generation and log ``ids`` under it, in the caller's transaction."""
        async with self.db.execute(
            """INSERT INTO generations (tenant, generation) VALUES (?, 1)
               ON CONFLICT (tenant) DO UPDATE SET generation=generation+1
               RETURNING generation""",
            [tenant],
        ) as cursor:
            row = await cursor.fetchone()
        generation = int(row[0]) if row else 0
        await self.db.executemany(
            "INSERT OR IGNORE INTO changes (tenant, generation, id) VALUES (?,?,?)",
            [(tenant, generation, i) for i in set(ids)],
        )
        await self.db.execute(
            "DELETE FROM changes WHERE tenant=? AND generation<=?",
            [tenant, generation - self.change_log_generations],
        )

    async def unfinished(self, tenant: str) -> list[UnfinishedWrite]:
        """Pending and deleting rows with their text, by id."""
        async with self.db.execute(
            f"SELECT {RECORD_COLUMNS}, text, status, stale_chunk_ids, previous_record, "
            "previous_text, signature FROM documents WHERE tenant=? AND status!='active' ORDER BY id",
            [tenant],
        ) as cursor:
            return [
                UnfinishedWrite(
                    _record(r[:3]),
                    r[3],
                    RowStatus(r[4]),
                    json.loads(r[5]),
                    (DocumentRecord.model_validate_json(r[6]), r[7]) if r[6] else None,
                    r[8],
                )
                async for r in cursor
            ]

    async def texts_containing(self, tenant: str, phrase: str, limit: int) -> dict[str, str]:
        """Active CVs whose text has the phrase's words in order, best BM25 first: id -> text."""
        words = _FULL_TEXT_WORD.findall(phrase)
        if not words:
            return {}
        query = '"' + " ".join(words) + '"'
        async with self.reads.execute(
            """SELECT d.id, d.text FROM documents_text JOIN documents d ON d.rowid = documents_text.rowid
               WHERE documents_text MATCH ? AND d.tenant=? AND d.status='active'
                 AND d.document_type='cv'
               ORDER BY documents_text.rank LIMIT ?""",
            [query, tenant, limit],
        ) as cursor:
            return {row[0]: row[1] async for row in cursor}

    async def stale_documents(
        self, tenant: str, analysis: str, limit: int, after_id: str | None = None
    ) -> list[StoredText]:
        """One keyset page of active rows whose stamp is not ``analysis`` (NULL included)."""
        return await self._texts(tenant, "analysis IS NOT ?", [analysis], limit, after_id)

    async def every_document(
        self, tenant: str, limit: int, after_id: str | None = None
    ) -> list[StoredText]:
        """One keyset page of active rows, with origin, stamp and signature."""
        return await self._texts(tenant, "1=1", [], limit, after_id)

    async def _texts(
        self, tenant: str, condition: str, values: list[Any], limit: int, after_id: str | None
    ) -> list[StoredText]:
        async with self.db.execute(
            f"SELECT {RECORD_COLUMNS}, text, given_name, origin, analysis, signature "
            f"FROM documents WHERE tenant=? AND status='active' AND {condition} AND id > ? "
            "ORDER BY id LIMIT ?",
            [tenant, *values, after_id or "", limit],
        ) as cursor:
            return [StoredText(_record(row[:3]), *row[3:]) async for row in cursor]

    async def document_counts(self) -> dict[str, int]:
        """Per tenant, its active rows."""
        async with self.db.execute(
            "SELECT tenant, COUNT(*) FROM documents WHERE status='active' "
            "GROUP BY tenant ORDER BY tenant"
        ) as cursor:
            return {tenant: n async for tenant, n in cursor}

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
        await self.db.executemany(
            "UPDATE documents SET analysis=?, signature=COALESCE(?, signature) "
            "WHERE tenant=? AND id=? AND status='active'",
            [(analysis, signatures.get(i), tenant, i) for i in ids],
        )
        if regrouped := await self._set_groups(tenant, groups):
            await self._advance_generation(tenant, regrouped)
        await self.db.commit()

    async def stale_counts(self, analysis: str) -> dict[str, int]:
        """Per tenant, the active rows whose stamp is not ``analysis``."""
        async with self.db.execute(
            "SELECT tenant, COUNT(*) FROM documents WHERE status='active' AND analysis IS NOT ? "
            "GROUP BY tenant ORDER BY tenant",
            [analysis],
        ) as cursor:
            return {tenant: n async for tenant, n in cursor}

    async def summary(self, tenant: str) -> StoreSummary:
        """Counts by type, level and status, and the ten skills most candidates hold."""
        counts: Counter[str] = Counter()
        levels: Counter[str] = Counter()
        async with self.reads.execute(
            "SELECT document_type, level, COUNT(*) FROM documents WHERE tenant=? AND status='active' "
            "GROUP BY 1,2",
            [tenant],
        ) as cursor:
            async for document_type, level, n in cursor:
                if document_type == DocumentType.CV.value:
                    counts["cv"] += n
                    levels[level or "unknown"] += n
                else:
                    counts["other"] += n
        async with self.reads.execute(
            """SELECT s.skill, COUNT(*) FROM document_skills s JOIN documents d ON d.tenant=s.tenant
               AND d.id=s.id WHERE s.tenant=? AND d.status='active' AND d.document_type='cv'
               GROUP BY s.skill ORDER BY 2 DESC, 1 LIMIT 10""",
            [tenant],
        ) as cursor:
            top = [(skill, n) async for skill, n in cursor]
        async with self.reads.execute(
            "SELECT id FROM documents WHERE tenant=? AND status!='active' ORDER BY id", [tenant]
        ) as cursor:
            unfinished = [row[0] async for row in cursor]
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
    created_at: str
    """When the document was first stored (a new version keeps it)."""


def _batches(items: list[str], size: int = 500) -> list[list[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)]
