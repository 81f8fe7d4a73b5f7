"""LightRAG's plain-table PostgreSQL graph whose retrieval reads a bounded set of edges.

LightRAG's local retrieval reads every edge of each entity it retrieved; a skill held by
thousands of candidates sends them all over the wire to be sorted and cut. This subclass
asks PostgreSQL for each node's heaviest ``HUB_EDGES_FOR_RETRIEVAL`` edges (weight, then
the other end's name) in one query, read off two indexes of its own in that order. The
tables are LightRAG's, unchanged but for those two indexes.

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

from talentrag.policy.limits import HUB_DEGREE_COUNTED, HUB_EDGES_FOR_RETRIEVAL

KIND = "GRAPH_STORAGE"
NAME = "BoundedPGTableGraphStorage"

# Each direction reads its heaviest edges off an index in that order (``_WEIGHT_INDEXES``),
# so a hub costs ``LIMIT`` rows, not its degree: 10 hub nodes of a 100K-CV graph (33,000
# edges each) took 700 ms reading every edge, 1-3 ms this way, the same rows.
_BOUNDED_EDGES = """
SELECT n.id AS node, e.other
FROM unnest($3::text[]) AS n(id)
CROSS JOIN LATERAL (
    SELECT other, weight FROM (
        (SELECT tgt_id AS other, (properties->>'weight')::float8 AS weight
         FROM lightrag_graph_edges WHERE workspace = $1 AND namespace = $2 AND src_id = n.id
         ORDER BY (properties->>'weight')::float8 DESC NULLS LAST, tgt_id LIMIT $4)
        UNION ALL
        (SELECT src_id, (properties->>'weight')::float8
         FROM lightrag_graph_edges WHERE workspace = $1 AND namespace = $2 AND tgt_id = n.id
         ORDER BY (properties->>'weight')::float8 DESC NULLS LAST, src_id LIMIT $4)
    ) AS both_ways
    ORDER BY weight DESC NULLS LAST, other
    LIMIT $4
) AS e
"""

# Created beside LightRAG's own indexes when the storage opens (once; IF NOT EXISTS after).
_WEIGHT_INDEXES = """
CREATE INDEX IF NOT EXISTS talentrag_graph_edges_src_weight ON lightrag_graph_edges
    (workspace, namespace, src_id, ((properties->>'weight')::float8) DESC NULLS LAST, tgt_id);
CREATE INDEX IF NOT EXISTS talentrag_graph_edges_tgt_weight ON lightrag_graph_edges
    (workspace, namespace, tgt_id, ((properties->>'weight')::float8) DESC NULLS LAST, src_id);
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

# counted up to ``HUB_DEGREE_COUNTED`` per direction: a hub's exact size changes no order
_DEGREES = """
SELECT n.id,
    (SELECT COUNT(*) FROM (SELECT 1 FROM lightrag_graph_edges
     WHERE workspace = $1 AND namespace = $2 AND src_id = n.id LIMIT $4) AS s)
  + (SELECT COUNT(*) FROM (SELECT 1 FROM lightrag_graph_edges
     WHERE workspace = $1 AND namespace = $2 AND tgt_id = n.id LIMIT $4) AS t) AS degree
FROM unnest($3::text[]) AS n(id)
"""


class BoundedPGTableGraphStorage(PGTableGraphStorage):  # type: ignore[misc]  # LightRAG is untyped
    """PGTableGraphStorage whose ``get_nodes_edges_batch`` returns a hub's heaviest edges."""

    async def initialize(self) -> None:
        """LightRAG's tables and indexes, then the two that order each node's edges by
        weight (talentrag opens a workspace under the database's schema lock)."""
        await super().initialize()
        await self._execute(_WEIGHT_INDEXES)

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
        """Each node's edge count on the two indexes, up to ``HUB_DEGREE_COUNTED`` a side."""
        if not node_ids:
            return {}
        rows = await self._fetch(
            _DEGREES, self.workspace, self.namespace, list(set(node_ids)), HUB_DEGREE_COUNTED
        )
        degrees = {r["id"]: int(r["degree"]) for r in rows}
        return {node: degrees.get(node, 0) for node in node_ids}
