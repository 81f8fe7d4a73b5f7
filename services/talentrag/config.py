"""Settings from environment variables (prefix ``TALENTRAG_``) and an optional ``.env``.

Every setting is documented in docs/configuration.md; keep the two in step.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from talentrag.policy.limits import DEFAULT_MAX_DOCUMENT_BYTES, default_ingest_workers

TENANT_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")

EmbedderKind = Literal["minilm", "hashing", "openai", "ollama"]


def validate_tenant(tenant: str) -> str:
    """``tenant`` unchanged if it is a safe workspace name; ``ValueError`` otherwise."""
    if not TENANT_PATTERN.fullmatch(tenant):
        raise ValueError(
            f"tenant {tenant!r} is invalid: use 1-64 lowercase letters, digits, '-' or '_', "
            "starting with a letter or digit"
        )
    return tenant


Scope = Literal["read", "write"]


class ApiKey(BaseModel):
    """What one API key may do: its tenant, and read (search, get, list) and/or write."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tenant: str
    scopes: frozenset[Scope] = frozenset({"read", "write"})

    @field_validator("tenant")
    @classmethod
    def _tenant(cls, value: str) -> str:
        return validate_tenant(value)


class Settings(BaseSettings):
    """Every runtime setting, read from ``TALENTRAG_*`` variables and ``.env``."""

    model_config = SettingsConfigDict(env_prefix="TALENTRAG_", env_file=".env", extra="ignore")

    data_dir: Path = Field(Path("talentrag-data"), description="Where stores live.")
    database_url: str | None = Field(
        None,
        description="postgresql://user:password@host:port/database: the candidate store and "
        "LightRAG's storages (one workspace per tenant) in that database; replicas share it. "
        "Unset: embedded SQLite and LightRAG files in the data directory.",
    )
    tenant: str = Field("default", description="Tenant (LightRAG workspace) used by the CLI.")
    blind_tenants: list[str] = Field(
        default_factory=list,
        description='Tenants whose searches are blind by default (JSON list, e.g. ["agency"]): '
        "no names, contact details or source files; a request's `blind` overrides it.",
    )
    embedder: EmbedderKind = Field("minilm", description="Embedding backend.")
    embedding_url: str = Field("http://127.0.0.1:11434", description="openai/ollama endpoint.")
    embedding_model: str = Field("all-minilm", description="Model name sent to the endpoint.")
    embedding_dim: int = Field(384, ge=8, le=8192, description="Vector size of the endpoint.")
    embedding_api_key: str | None = Field(None, description="Bearer key for the endpoint.")
    hashing_dim: int = Field(256, ge=16, le=4096, description="Vector size of 'hashing'.")
    vocabulary_path: Path | None = Field(
        None, description="Skill vocabulary YAML (default: the one shipped in the package)."
    )
    lightrag_kv_storage: str = Field(
        "JsonKVStorage", description="LightRAG KV storage class (PGKVStorage for PostgreSQL)."
    )
    lightrag_vector_storage: str = Field(
        "NanoVectorDBStorage", description="LightRAG vector storage class (PGVectorStorage)."
    )
    lightrag_graph_storage: str = Field(
        "NetworkXStorage", description="LightRAG graph storage class (PGTableGraphStorage)."
    )
    lightrag_doc_status_storage: str = Field(
        "JsonDocStatusStorage", description="LightRAG doc-status storage class."
    )
    lightrag_mode: Literal["embedded", "remote"] = Field(
        "embedded", description="Search through in-process LightRAG or a LightRAG Server."
    )
    lightrag_url: str = Field(
        "http://127.0.0.1:9621", description="LightRAG Server base URL (remote)."
    )
    lightrag_api_key: str | None = Field(
        None, description="Sent as X-API-Key to the LightRAG Server."
    )
    lightrag_connect_timeout_s: float = Field(
        3.0, gt=0, le=60, description="Connect timeout (remote)."
    )
    lightrag_read_timeout_s: float = Field(
        15.0,
        gt=0,
        le=600,
        description="Total time per call to the LightRAG Server, retries included.",
    )
    lightrag_retries: int = Field(
        2, ge=0, le=10, description="Retries on connection errors and 502/503/504."
    )
    api_keys: dict[str, ApiKey] = Field(
        default_factory=dict,
        description='API keys as JSON {"key": "tenant"} (read and write) or '
        '{"key": {"tenant": "t", "scopes": ["read"]}}; empty = no auth, localhost only.',
    )
    mcp_allowed_hosts: list[str] = Field(
        default_factory=lambda: ["127.0.0.1:*", "localhost:*", "[::1]:*"],
        description='Host headers the MCP endpoint accepts (JSON list); add container names, e.g. "talentrag:*".',
    )
    mcp_allowed_origins: list[str] = Field(
        default_factory=lambda: ["http://127.0.0.1:*", "http://localhost:*"],
        description="Origin headers the MCP endpoint accepts (JSON list).",
    )
    max_upload_bytes: int = Field(
        DEFAULT_MAX_DOCUMENT_BYTES,
        ge=1024,
        description="Largest accepted document (file upload or text), in bytes; every path.",
    )
    ingest_batch_size: int = Field(
        200, ge=1, le=10_000, description="Documents written to LightRAG per atomic batch."
    )
    ingest_workers: int = Field(
        default_factory=default_ingest_workers,
        ge=0,
        le=64,
        description="Processes that read and analyse documents off the event loop "
        "(default: one per core but one; 0 = one thread in the process).",
    )
    reindex_on_start: bool = Field(
        True,
        description="At server start-up, re-analyse documents stored under another "
        "vocabulary or analyser before serving (false: refuse to start and say to run "
        "`talentrag reindex`).",
    )

    @field_validator("tenant")
    @classmethod
    def _tenant(cls, value: str) -> str:
        return validate_tenant(value)

    @field_validator("api_keys", mode="before")
    @classmethod
    def _api_keys(cls, value: object) -> object:
        """A bare tenant string is a key with every scope."""
        if not isinstance(value, dict):
            return value
        for key in value:
            if len(str(key)) < 16:
                raise ValueError("every API key needs at least 16 characters")
        return {
            key: {"tenant": spec} if isinstance(spec, str) else spec for key, spec in value.items()
        }
