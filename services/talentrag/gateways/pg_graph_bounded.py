"""LightRAG's plain-table PostgreSQL graph whose retrieval reads a bounded set of edges.

LightRAG's local retrieval reads every edge of each entity it retrieved; a skill held by
thousands of candidates sends them all over the wire to be sorted and cut. This subclass
asks PostgreSQL for each node's heaviest ``HUB_EDGES_FOR_RETRIEVAL`` edges (weight, then
the other end's name) in one query. The tables are LightRAG's, unchanged.

Its look-ups by edge and degree are written so the plan cannot depend on statistics:
on a table autovacuum has not analysed yet (after a bulk copy or a large ingest), the
planner took LightRAG's ``(src_id, tgt_id) IN (unnest ...)`` for a join against an
empty table and hashed every edge of the workspace (100 ms per query at 1,000 CVs,
growing with the pool). A ``LIMIT`` inside ``LATERAL`` keeps one primary-key look-up
per pair, and a scalar subquery per node one index count.
"""

from __future__ import annotations

from typing import Any

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


_EDGES_BY_PAIR = """
SELECT e.src_id, e.tgt_id, e.properties
FROM unnest($3::text[], $4::text[]) AS p(src, tgt)
CROSS JOIN LATERAL (
    SELECT src_id, tgt_id, properties FROM lightrag_graph_edges
    WHERE workspace = $1 AND namespace = $2 AND src_id = p.src AND tgt_id = p.tgt
    LIMIT 1
) AS e
"""

_DEGREES = """
SELECT n.id,
    (SELECT COUNT(*) FROM lightrag_graph_edges
     WHERE workspace = $1 AND namespace = $2 AND src_id = n.id)
  + (SELECT COUNT(*) FROM lightrag_graph_edges
     WHERE workspace = $1 AND namespace = $2 AND tgt_id = n.id) AS degree
FROM unnest($3::text[]) AS n(id)
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

    async def get_edges_batch(
        self, pairs: list[dict[str, str]]
    ) -> dict[tuple[str, str], dict[str, Any]]:
        """Each pair's edge properties, one primary-key look-up per pair (either order)."""
        if not pairs:
            return {}
        canonical = [(min(p["src"], p["tgt"]), max(p["src"], p["tgt"])) for p in pairs]
        rows = await self._fetch(
            _EDGES_BY_PAIR,
            self.workspace,
            self.namespace,
            [c[0] for c in canonical],
            [c[1] for c in canonical],
        )
        found = {(r["src_id"], r["tgt_id"]): self._json_loads(r["properties"]) for r in rows}
        return {
            (p["src"], p["tgt"]): found[c]
            for p, c in zip(pairs, canonical, strict=True)
            if c in found
        }

    async def node_degrees_batch(self, node_ids: list[str]) -> dict[str, int]:
        """Each node's edge count, counted on the two indexes per node."""
        if not node_ids:
            return {}
        rows = await self._fetch(_DEGREES, self.workspace, self.namespace, list(set(node_ids)))
        degrees = {r["id"]: int(r["degree"]) for r in rows}
        return {node: degrees.get(node, 0) for node in node_ids}
