"""LightRAG's plain-table PostgreSQL graph whose retrieval reads a bounded set of edges.

LightRAG's local retrieval reads every edge of each entity it retrieved; a skill held by
thousands of candidates sends them all over the wire to be sorted and cut. This subclass
asks PostgreSQL for each node's heaviest ``HUB_EDGES_FOR_RETRIEVAL`` edges (weight, then
the other end's name) in one query; talentrag's own reads (``all_nodes_edges_batch``)
still get every edge. The tables are LightRAG's, unchanged.
"""

from __future__ import annotations

from lightrag.kg.pgtable_impl import PGTableGraphStorage

from talentrag.policy.limits import HUB_EDGES_FOR_RETRIEVAL

KIND = "GRAPH_STORAGE"
NAME = "BoundedPGTableGraphStorage"

_BOUNDED_EDGES = """
SELECT n.id AS node, e.other
FROM unnest($3::text[]) AS n(id)
CROSS JOIN LATERAL (
    SELECT other, weight FROM (
        SELECT tgt_id AS other, (properties->>'weight')::float8 AS weight
        FROM lightrag_graph_edges WHERE workspace = $1 AND namespace = $2 AND src_id = n.id
        UNION
        SELECT src_id, (properties->>'weight')::float8
        FROM lightrag_graph_edges WHERE workspace = $1 AND namespace = $2 AND tgt_id = n.id
    ) AS both_ways
    ORDER BY weight DESC NULLS LAST, other
    LIMIT $4
) AS e
"""


class BoundedPGTableGraphStorage(PGTableGraphStorage):  # type: ignore[misc]  # LightRAG is untyped
    """PGTableGraphStorage whose ``get_nodes_edges_batch`` returns a hub's heaviest edges."""

    async def get_nodes_edges_batch(self, node_ids: list[str]) -> dict[str, list[tuple[str, str]]]:
        """At most ``HUB_EDGES_FOR_RETRIEVAL`` edges per node, heaviest first."""
        if not node_ids:
            return {}
        rows = await self._fetch(
            _BOUNDED_EDGES, self.workspace, self.namespace, node_ids, HUB_EDGES_FOR_RETRIEVAL
        )
        found: dict[str, list[tuple[str, str]]] = {node: [] for node in node_ids}
        for row in rows:
            found[row["node"]].append((row["node"], row["other"]))
        return found

    async def all_nodes_edges_batch(self, node_ids: list[str]) -> dict[str, list[tuple[str, str]]]:
        """Every edge of each node (talentrag's own pool reads)."""
        edges: dict[str, list[tuple[str, str]]] = await super().get_nodes_edges_batch(node_ids)
        return edges
