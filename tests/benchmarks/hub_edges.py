"""LightRAG's local retrieval on a hub: edges bounded (``HUB_EDGES_FOR_RETRIEVAL``) or not.

One skill held by ``holders`` candidates, real embedded LightRAG, the same query measured
with the bound and without it, alternating, in one run (figures are ratios of one run).
Run alone: ``python -m tests.benchmarks.hub_edges --holders 5000``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

import talentrag.gateways.networkx_batched as networkx_batched
from talentrag.config import Settings
from talentrag.embeddings import HashingEmbedder
from talentrag.gateways.base import GraphWrite, RetrievalQuery
from talentrag.policy.limits import HUB_EDGES_FOR_RETRIEVAL
from talentrag.runtime import open_knowledge_base

UNBOUNDED = 10**9


def hub_weight(i: int) -> float:
    """The weight of holder ``i``'s edge: seven tiers, so the heaviest are many."""
    return float(i % 7 + 1)


def hub_kg(holders: int) -> dict[str, list[dict[str, Any]]]:
    """One skill node and ``holders`` candidate nodes, each with a described edge to it."""
    chunk = {"content": "Python everywhere.", "source_id": "c1", "file_path": "hub.txt"}
    entities = [{"entity_name": "Python", "entity_type": "skill", "source_id": "c1"}]
    entities += [
        {"entity_name": f"Candidate h{i}", "entity_type": "candidate", "source_id": "c1"}
        for i in range(holders)
    ]
    relationships = [
        {
            "src_id": f"Candidate h{i}",
            "tgt_id": "Python",
            "description": f"Candidate h{i} wrote Python services in a role for {i % 9} years",
            "keywords": "has skill",
            "weight": hub_weight(i),
            "source_id": "c1",
        }
        for i in range(holders)
    ]
    return {"chunks": [chunk], "entities": entities, "relationships": relationships}


async def measure(holders: int = 5000, rounds: int = 3, queries: int = 10) -> dict[str, Any]:
    """p50/p95 of one local ``aquery_data`` with and without the bound; their ratio."""
    query = RetrievalQuery(
        query="Python developer", ll_keywords=["Python"], hl_keywords=["Python"], mode="local"
    )
    times: dict[str, list[float]] = {"bounded": [], "unbounded": []}
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), embedder="hashing")
        async with open_knowledge_base(
            settings, as_of=date(2026, 11, 1), embedder=HashingEmbedder(64)
        ) as kb:
            await kb.graph.write("default", GraphWrite(kg=hub_kg(holders)))
            try:
                for _ in range(rounds):
                    for label, bound in (
                        ("bounded", HUB_EDGES_FOR_RETRIEVAL),
                        ("unbounded", UNBOUNDED),
                    ):
                        networkx_batched.HUB_EDGES_FOR_RETRIEVAL = bound
                        for _ in range(queries):
                            started = time.perf_counter()
                            await kb.graph.retrieve("default", query)
                            times[label].append((time.perf_counter() - started) * 1000)
            finally:
                networkx_batched.HUB_EDGES_FOR_RETRIEVAL = HUB_EDGES_FOR_RETRIEVAL
    figures: dict[str, Any] = {"holders": holders, "bound": HUB_EDGES_FOR_RETRIEVAL}
    for label, values in times.items():
        values.sort()
        figures[f"{label}_p50_ms"] = round(statistics.median(values), 1)
        figures[f"{label}_p95_ms"] = round(values[int(0.95 * (len(values) - 1))], 1)
    figures["p50_speedup"] = round(figures["unbounded_p50_ms"] / figures["bounded_p50_ms"], 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--holders", type=int, default=5000)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.holders))))


if __name__ == "__main__":
    main()
