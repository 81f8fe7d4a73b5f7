"""Versioned schema migrations for the PostgreSQL store.

Each file ``store/migrations/NNNN_name.sql`` is one migration, applied once, in order,
in its own transaction, and recorded in ``schema_migrations`` with a checksum of its
text. Replicas starting together take a database-wide advisory lock first, so exactly
one of them applies what is missing while the others wait and then find nothing to do.
An applied migration is never edited: a changed checksum stops start-up (add a new
migration instead).
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from importlib import resources
from typing import TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from talentrag.errors import ConfigurationError
from talentrag.store.pg_locks import advisory_lock

log = logging.getLogger(__name__)

Connection: TypeAlias = asyncpg.Connection | PoolConnectionProxy
"""A connection of its own or one borrowed from a pool: both run the store's SQL."""

# pg_advisory_lock takes a 64-bit key; this one is the first 8 bytes of
# sha256("talentrag.schema"), fixed here so every release takes the same lock.
MIGRATION_LOCK = int.from_bytes(
    hashlib.sha256(b"talentrag.schema").digest()[:8], "big", signed=True
)
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

CREATE_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


class MigrationError(ConfigurationError):
    """The migrations shipped or the database's schema history cannot be reconciled."""


@dataclass(frozen=True)
class Migration:
    """One SQL file: its version (the number it starts with), name, text and checksum."""

    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        """sha256 of the text: an applied migration that changed since is refused."""
        return hashlib.sha256(self.sql.encode()).hexdigest()


def load_migrations() -> list[Migration]:
    """The packaged migrations in version order; ``MigrationError`` for a misnamed file
    or a version used twice (a release must not ship an ambiguous history)."""
    folder = resources.files("talentrag.store") / "migrations"
    found: dict[int, Migration] = {}
    for entry in folder.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise MigrationError(f"migration file {entry.name!r} is not named NNNN_name.sql")
        version = int(match.group(1))
        if version in found:
            raise MigrationError(f"two migrations have version {version}")
        found[version] = Migration(version, match.group(2), entry.read_text(encoding="utf-8"))
    versions = sorted(found)
    if versions != list(range(1, len(versions) + 1)):
        raise MigrationError(f"migration versions must run 1, 2, 3 ... without gaps: {versions}")
    return [found[v] for v in versions]


async def apply_migrations(connection: Connection) -> list[int]:
    """Apply the migrations the database lacks, under the advisory lock; returns their
    versions (empty when the schema was up to date)."""
    migrations = load_migrations()
    async with advisory_lock(connection, MIGRATION_LOCK):
        await connection.execute(CREATE_LEDGER)
        applied = {
            row["version"]: row["checksum"]
            for row in await connection.fetch("SELECT version, checksum FROM schema_migrations")
        }
        _check_history(applied, migrations)
        done = []
        for migration in migrations:
            if migration.version in applied:
                continue
            async with connection.transaction():
                await connection.execute(migration.sql)
                await connection.execute(
                    "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    migration.checksum,
                )
            log.info("applied schema migration %04d_%s", migration.version, migration.name)
            done.append(migration.version)
        return done


def _check_history(applied: dict[int, str], migrations: list[Migration]) -> None:
    """Refuse a database migrated by a newer release, or one whose applied migrations
    differ from the files shipped now."""
    known = {m.version: m for m in migrations}
    newer = sorted(set(applied) - set(known))
    if newer:
        raise MigrationError(
            f"the database has schema migrations {newer} that this release does not know: "
            "it was migrated by a newer talentrag"
        )
    for version, checksum in applied.items():
        if known[version].checksum != checksum:
            raise MigrationError(
                f"schema migration {version:04d}_{known[version].name} was applied with "
                "other content than this release ships; migrations must never be edited"
            )
