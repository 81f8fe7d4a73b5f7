"""LightRAG's NetworkX graph storage with real batch reads.

LightRAG's base class implements the ``*_batch`` reads one item at a time, each
taking the storage lock, and invites backends to override them. NetworkXStorage
does not. A query touching a skill held by 2,300 candidates fetched every edge
that way: 40 µs of lock traffic per edge, most of ``aquery_data`` at 10K CVs.
These overrides take the graph once per batch; the files on disk are unchanged,
so a data directory works with either class (and with a LightRAG Server).

Reads also skip the storage lock and the commit gate, which LightRAG holds for the
whole serialisation of the graph to GraphML: with them, every search waited for
each write's flush (seconds at 1,000 CVs). Reading while the flush thread reads is
safe; the graph only changes between our serialised writes, on the event loop, and
another process's writes are picked up by reopening the workspace
(``EmbeddedLightRAG.refresh``), not by LightRAG's own reload flag.
"""

from __future__ import annotations

import heapq
from typing import Any

from lightrag.kg.networkx_impl import NetworkXStorage

from talentrag.gateways.flush_turn import in_turn
from talentrag.policy.limits import HUB_EDGES_FOR_RETRIEVAL

KIND = "GRAPH_STORAGE"
NAME = "BatchedNetworkXStorage"


class BatchedNetworkXStorage(NetworkXStorage):  # type: ignore[misc]  # LightRAG is untyped
    """NetworkXStorage whose reads take the live graph, once per batch, without waiting."""

    async def index_done_callback(self) -> bool:
        """Save the GraphML file, never while another storage flushes (``flush_turn``)."""
        return bool(await in_turn(super().index_done_callback))

    def _live(self) -> Any:
        """The in-memory graph, without the lock and gate that writers' flushes hold."""
        return self._graph

    async def has_node(self, node_id: str) -> bool:
        """Whether the node exists."""
        return bool(self._live().has_node(node_id))

    async def has_edge(self, source_node_id: str, target_node_id: str) -> bool:
        """Whether the edge exists."""
        return bool(self._live().has_edge(source_node_id, target_node_id))

    async def get_node(self, node_id: str) -> dict[str, Any] | None:
        """A copy of the node's attributes, or None."""
        node = self._live().nodes.get(node_id)
        return dict(node) if node is not None else None

    async def node_degree(self, node_id: str) -> int:
        """The node's degree (0 when absent)."""
        graph = self._live()
        return int(graph.degree(node_id)) if node_id in graph else 0

    async def edge_degree(self, src_id: str, tgt_id: str) -> int:
        """Sum of both ends' degrees."""
        return await self.node_degree(src_id) + await self.node_degree(tgt_id)

    async def get_edge(self, source_node_id: str, target_node_id: str) -> dict[str, Any] | None:
        """A copy of the edge's attributes, or None."""
        edge = self._live().edges.get((source_node_id, target_node_id))
        return dict(edge) if edge is not None else None

    async def get_node_edges(self, source_node_id: str) -> list[tuple[str, str]] | None:
        """The node's edges, or None when it is absent."""
        graph = self._live()
        return list(graph.edges(source_node_id)) if source_node_id in graph else None

    async def get_nodes_batch(self, node_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Attributes of the nodes that exist, in one pass."""
        nodes = self._live().nodes
        return {n: dict(nodes[n]) for n in node_ids if n in nodes}

    async def node_degrees_batch(self, node_ids: list[str]) -> dict[str, int]:
        """Degree of each node (0 when absent), in one pass."""
        graph = self._live()
        return {n: graph.degree(n) if n in graph else 0 for n in node_ids}

    async def edge_degrees_batch(
        self, edge_pairs: list[tuple[str, str]]
    ) -> dict[tuple[str, str], int]:
        """Sum of both ends' degrees for each pair, in one pass."""
        adjacency = _adjacency(self._live())
        empty: dict[str, Any] = {}
        return {
            (s, t): len(adjacency.get(s, empty)) + len(adjacency.get(t, empty))
            for s, t in edge_pairs
        }

    async def get_edges_batch(
        self, pairs: list[dict[str, str]]
    ) -> dict[tuple[str, str], dict[str, Any]]:
        """Attributes of the edges that exist, keyed by (src, tgt), in one pass."""
        adjacency = _adjacency(self._live())
        found = {}
        for pair in pairs:
            source, target = pair["src"], pair["tgt"]
            edge = adjacency.get(source, {}).get(target)
            if edge is not None:
                found[(source, target)] = dict(edge)
        return found

    async def get_nodes_edges_batch(self, node_ids: list[str]) -> dict[str, list[tuple[str, str]]]:
        """Edges of each node for LightRAG's retrieval: a hub's heaviest
        ``HUB_EDGES_FOR_RETRIEVAL`` (weight, then name), so its cost does not grow with
        the number of holders."""
        adjacency = _adjacency(self._live())
        found: dict[str, list[tuple[str, str]]] = {}
        for node in node_ids:
            others = adjacency.get(node, {})
            if len(others) > HUB_EDGES_FOR_RETRIEVAL:
                others = dict(
                    heapq.nsmallest(
                        HUB_EDGES_FOR_RETRIEVAL,
                        others.items(),
                        key=lambda item: (-float(item[1].get("weight", 1.0)), item[0]),
                    )
                )
            found[node] = [(node, other) for other in others]
        return found


def _adjacency(graph: Any) -> dict[str, dict[str, dict[str, Any]]]:
    """The graph's own adjacency dicts (read only): ``graph.adj`` wraps every lookup in
    a view object, which cost more than the lookups in a retrieval's degree pass."""
    return graph._adj  # type: ignore[no-any-return]  # networkx: "dict-of-dict-of-dict" (subclassing docs)
