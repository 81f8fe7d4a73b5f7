"""LightRAG's own PostgreSQL storages on talentrag's database.

LightRAG reads its connection from ``POSTGRES_*`` environment variables and keeps one
pool per process (``ClientManager``), so the database URL is translated into those
variables once, before the first workspace opens. Each tenant stays a LightRAG
workspace: a column in LightRAG's tables, so ``POSTGRES_WORKSPACE`` (which would put
every tenant in one workspace) is refused.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import MutableMapping
from urllib.parse import parse_qs, unquote, urlsplit

from talentrag.errors import ConfigurationError

POSTGRES_STORAGES = {
    "kv_storage": "PGKVStorage",
    "vector_storage": "PGVectorStorage",
    "graph_storage": "PGTableGraphStorage",  # plain tables; PGGraphStorage needs Apache AGE
    "doc_status_storage": "PGDocStatusStorage",
}
"""LightRAG's storage classes when the database URL is set."""

MAX_CONNECTIONS = 10
"""LightRAG's pool per process (beside the candidate store's own)."""


def lightrag_environment(url: str) -> dict[str, str]:
    """The ``POSTGRES_*`` variables LightRAG reads, from a ``postgresql://`` URL.

    A Unix-socket server (``postgresql://user@/db?host=/run/postgresql``) gives its
    directory as the host, which asyncpg accepts.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres"):
        raise ConfigurationError(
            "TALENTRAG_DATABASE_URL must start with postgresql://, e.g. "
            "postgresql://talentrag:secret@db.internal:5432/talentrag"
        )
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    host = query.get("host") or parts.hostname or "localhost"
    environment = {
        "POSTGRES_HOST": host,
        "POSTGRES_PORT": str(query.get("port") or parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or query.get("user") or "postgres"),
        "POSTGRES_DATABASE": unquote(parts.path.lstrip("/")) or "postgres",
        "POSTGRES_MAX_CONNECTIONS": str(MAX_CONNECTIONS),
    }
    password = parts.password if parts.password is not None else query.get("password", "")
    environment["POSTGRES_PASSWORD"] = unquote(password)  # LightRAG requires it, even empty
    if "sslmode" in query:
        environment["POSTGRES_SSL_MODE"] = query["sslmode"]
    return environment


def configure_lightrag_postgres(url: str, environ: MutableMapping[str, str] = os.environ) -> None:
    """Point LightRAG's PostgreSQL storages at ``url`` (sets ``POSTGRES_*`` in ``environ``)."""
    if environ.get("POSTGRES_WORKSPACE"):
        raise ConfigurationError(
            "unset POSTGRES_WORKSPACE: talentrag keeps each tenant in its own LightRAG "
            "workspace, and that variable would put every tenant in one"
        )
    environ.update(lightrag_environment(url))
    _quiet_table_probes()


# LightRAG finds out whether its tables exist by selecting from each and logging the
# failure at ERROR before it creates the table: eight alarming lines on every fresh
# database. The probe's exception is handled there; any other query's still reaches us.
_TABLE_PROBE = re.compile(r'^PostgreSQL database, error:relation "lightrag_\w+" does not exist$')


class _TableProbeFilter(logging.Filter):
    """Drops LightRAG's log line for a table that does not exist yet."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not _TABLE_PROBE.match(record.getMessage())


_PROBE_FILTER = _TableProbeFilter()


def _quiet_table_probes() -> None:
    logger = logging.getLogger("lightrag")
    if _PROBE_FILTER not in logger.filters:
        logger.addFilter(_PROBE_FILTER)
