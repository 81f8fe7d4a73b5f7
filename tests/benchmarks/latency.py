"""search_by_skills latency against one raw LightRAG aquery_data call, same queries, warm.

.venv/bin/python -u -m tests.benchmarks.latency --cvs 1000 --queries 200 --embedder hashing
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from talentrag.config import Settings
from talentrag.runtime import open_knowledge_base
from talentrag.search import SearchRequest
from talentrag.search.query import build_retrieval_query, resolve_skills
from talentrag.vocabulary import load_vocabulary
from tests.benchmarks.corpus import AS_OF, built_corpus
from tests.benchmarks.postings import Postings
from tests.benchmarks.queries import load_truth, make_queries


def percentiles(values: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return {"p50": round(cuts[49], 2), "p95": round(cuts[94], 2), "p99": round(cuts[98], 2)}


async def _postings(kb, tenant: str) -> Postings:
    """Every CV's holdings, loaded once into the in-memory floor."""
    ids: list[str] = []
    while page := await kb.store.list_documents(
        tenant, limit=5000, after_id=ids[-1] if ids else None
    ):
        ids += [record.id for record in page]
    return Postings(await kb.store.profiles(tenant, ids))


async def measure(settings, queries, top_k: int = 10) -> dict[str, dict[str, float]]:
    """Each query searched twice: first with its skills not yet in the ranking index
    (read from the store), then warm, beside one raw ``aquery_data`` and the floor."""
    first_ms, search_ms, raw_ms, floor_ms = [], [], [], []
    async with open_knowledge_base(settings, as_of=AS_OF) as kb:
        postings = await _postings(kb, settings.tenant)
        service = kb.search
        for query in queries[:5]:  # warm LightRAG's lazy loads
            await service.search(SearchRequest(**query.request(top_k)))
        for query in queries:
            started = time.perf_counter()
            await service.search(SearchRequest(**query.request(top_k)))
            first_ms.append((time.perf_counter() - started) * 1000)
        for query in queries:
            request = SearchRequest(**query.request(top_k))
            started = time.perf_counter()
            await service.search(request)
            search_ms.append((time.perf_counter() - started) * 1000)
            skills = await resolve_skills(
                request.required_skills,
                request.preferred_skills,
                kb.normalizer,
                service._implied_by,
            )
            retrieval_query = build_retrieval_query(skills, request.experience_level, top_k)
            started = time.perf_counter()
            await kb.gateway.retrieve(settings.tenant, retrieval_query)
            raw_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            postings.top(skills, top_k)
            floor_ms.append((time.perf_counter() - started) * 1000)
    return {
        "search_by_skills": percentiles(search_ms),
        "search_first_time": percentiles(first_ms),
        "aquery_data": percentiles(raw_ms),
        "postings_floor": percentiles(floor_ms),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cvs", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--embedder", default="hashing", choices=["minilm", "hashing"])
    parser.add_argument("--corpus", type=Path,
                        help="a built corpus folder (corpus/ and kb/) instead of building one; "
                             "prints the figures as JSON")  # fmt: skip
    args = parser.parse_args()
    if args.corpus:
        settings = Settings(data_dir=args.corpus / "kb", embedder=args.embedder)
        truth = load_truth(args.corpus / "corpus" / "ground_truth.jsonl")
        queries = make_queries(truth, load_vocabulary(), args.queries, args.seed)
        print(json.dumps({"queries": len(queries), **await measure(settings, queries)}))
        return
    with tempfile.TemporaryDirectory() as tmp:
        built = built_corpus(Path(tmp), args.cvs, args.seed, args.embedder)
        settings, truth = built.settings, built.truth
        queries = [q for q in make_queries(truth, load_vocabulary(), args.queries, args.seed)]
        figures = await measure(settings, queries)
    ratio = figures["search_by_skills"]["p95"] / figures["aquery_data"]["p95"]
    print(
        f"{args.cvs} CVs, {args.embedder}, {len(queries)} queries (ms): {figures}; p95 ratio {ratio:.2f}"
    )


if __name__ == "__main__":
    asyncio.run(main())
