"""The database URL as LightRAG's PostgreSQL storages read it (POSTGRES_* variables)."""

from __future__ import annotations

import pytest

from talentrag.config import Settings
from talentrag.errors import ConfigurationError
from talentrag.gateways.lightrag_postgres import (
    POSTGRES_STORAGES,
    configure_lightrag_postgres,
    lightrag_environment,
)
from talentrag.runtime import lightrag_storages


def test_a_tcp_url_with_password_and_ssl() -> None:
    env = lightrag_environment("postgresql://tr:s%40cret@db.internal:6432/talent?sslmode=require")
    assert env["POSTGRES_HOST"] == "db.internal"
    assert env["POSTGRES_PORT"] == "6432"
    assert env["POSTGRES_USER"] == "tr"
    assert env["POSTGRES_PASSWORD"] == "s@cret"
    assert env["POSTGRES_DATABASE"] == "talent"
    assert env["POSTGRES_SSL_MODE"] == "require"


def test_a_unix_socket_url_gives_the_directory_as_host() -> None:
    env = lightrag_environment("postgresql://postgres:@/talent?host=/run/postgresql")
    assert env["POSTGRES_HOST"] == "/run/postgresql"
    assert env["POSTGRES_PORT"] == "5432"
    assert env["POSTGRES_PASSWORD"] == ""  # LightRAG insists on the variable
    assert env["POSTGRES_DATABASE"] == "talent"


def test_another_scheme_is_a_configuration_error_with_an_example() -> None:
    with pytest.raises(ConfigurationError, match="postgresql://"):
        lightrag_environment("mysql://u@h/db")


def test_a_global_workspace_is_refused_it_would_merge_tenants() -> None:
    environ = {"POSTGRES_WORKSPACE": "shared"}
    with pytest.raises(ConfigurationError, match="POSTGRES_WORKSPACE"):
        configure_lightrag_postgres("postgresql://u@h/db", environ)
    assert set(environ) == {"POSTGRES_WORKSPACE"}  # nothing set half-way


def test_storages_follow_the_database_url_unless_chosen() -> None:
    assert lightrag_storages(Settings(database_url="postgresql://u@h/db")) == POSTGRES_STORAGES
    assert lightrag_storages(Settings())["graph_storage"] == "NetworkXStorage"
    chosen = Settings(
        database_url="postgresql://u@h/db", lightrag_vector_storage="FaissVectorDBStorage"
    )
    assert lightrag_storages(chosen)["vector_storage"] == "FaissVectorDBStorage"
    assert lightrag_storages(chosen)["kv_storage"] == "PGKVStorage"


def test_lightrags_probe_for_a_missing_table_is_not_logged_as_an_error() -> None:
    import logging

    environ: dict[str, str] = {}
    configure_lightrag_postgres("postgresql://u@h/db", environ)
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("lightrag")
    logger.addHandler(handler)
    try:
        logger.error('PostgreSQL database, error:relation "lightrag_doc_full" does not exist')
        logger.error('PostgreSQL database, error:relation "documents" does not exist')
        logger.error("PostgreSQL database, error:connection refused")
    finally:
        logger.removeHandler(handler)
    assert seen == [
        'PostgreSQL database, error:relation "documents" does not exist',
        "PostgreSQL database, error:connection refused",
    ]
