"""One interface to LightRAG, whether in-process or a LightRAG Server over HTTP.

Search needs two things from the graph: a hybrid retrieval for the query (with
keywords, so no LLM runs) and the full neighbour lists of skill nodes (because a
single retrieval is cut by token budgets and is not complete).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from talentrag.errors import Unavailable, UpstreamError


class GatewayError(UpstreamError):
    """LightRAG answered, but not usefully (bad status, malformed payload): HTTP 502."""


class GatewayUnavailable(Unavailable):
    """LightRAG could not be reached or timed out; retrying later may help: HTTP 503."""


@dataclass(frozen=True)
class RetrievedEntity:
    """A graph node a retrieval returned, such as a skill or a candidate."""

    name: str
    entity_type: str
    description: str = ""
    file_path: str = ""


@dataclass
class Retrieval:
    """What a LightRAG retrieval found: its entities.

    Search asks for it beside the ranking and fails when LightRAG cannot answer; the
    ranking and the evidence come from the candidate store, so neither reads it.
    """

    entities: list[RetrievedEntity] = field(default_factory=list)


@dataclass(frozen=True)
class RetrievalQuery:
    """A keyword retrieval and the token budgets that keep LightRAG's work small."""

    query: str
    ll_keywords: list[str]
    hl_keywords: list[str]
    top_k: int = 40
    chunk_top_k: int = 10
    mode: str = "hybrid"
    # LightRAG renders and re-tokenises everything it retrieves to fit these budgets;
    # search needs the skill nodes and a few passages, not a long LLM context.
    max_entity_tokens: int = 1500
    max_relation_tokens: int = 2000
    max_total_tokens: int = 6000

    def params(self) -> dict[str, object]:
        """LightRAG QueryParam fields (also the body of the server's POST /query/data)."""
        fields = asdict(self)
        fields.pop("query")
        return fields | {"enable_rerank": False}


class KnowledgeGraphGateway(ABC):
    """Search's read access to LightRAG (embedded or a LightRAG Server)."""

    @abstractmethod
    async def retrieve(self, tenant: str, query: RetrievalQuery) -> Retrieval:
        """LightRAG's retrieval (aquery_data / POST /query/data) with keywords, no LLM."""

    @abstractmethod
    async def ready(self, tenant: str) -> None:
        """Raise GatewayUnavailable when LightRAG cannot serve queries."""

    @abstractmethod
    async def close(self) -> None:
        """Release clients and storages."""


@dataclass
class GraphWrite:
    """One atomic batch: what to remove first, then the custom KG to insert."""

    remove_entities: list[str] = field(default_factory=list)
    remove_chunk_ids: list[str] = field(default_factory=list)
    kg: dict[str, list[dict[str, Any]]] = field(
        default_factory=lambda: {"chunks": [], "entities": [], "relationships": []}
    )


class GraphWriter(Protocol):
    """Ingestion's write access to LightRAG's storages (the embedded gateway implements it)."""

    async def existing_nodes(self, tenant: str, names: list[str]) -> set[str]:
        """The names among ``names`` that are already nodes of the tenant's graph."""
        ...

    async def write(self, tenant: str, batch: GraphWrite) -> None:
        """Apply one batch: removals, then the insert, persisted once."""
        ...

    def batch(self, tenant: str) -> AbstractAsyncContextManager[None]:
        """Writes inside are persisted once, at the end, and not at all after an error."""
        ...

    async def refresh(self, tenant: str) -> bool:
        """Re-read what another process wrote since this one loaded the tenant."""
        ...

    def committed(self, tenant: str, generation: int) -> None:
        """The store committed this process's writes as ``generation``: no reload needed."""
        ...

    def writing(self, tenant: str) -> AbstractContextManager[None]:
        """While this process holds the writer lock: generation changes are its own."""
        ...
