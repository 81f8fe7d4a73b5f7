"""nDCG@10 and precision@5 of search_by_skills on a labelled generated corpus.

    .venv/bin/python -m tests.benchmarks.search_quality --cvs 1000 --queries 60

Builds the corpus (seeded), ingests it into a fresh embedded knowledge base, runs the
queries through SearchService (the code behind `talentrag search` and the HTTP API)
and scores the rankings with ranx against the generator's ground truth.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from ranx import Qrels, Run, evaluate

from talentrag.config import Settings
from talentrag.runtime import open_knowledge_base
from talentrag.search import SearchRequest
from tests.benchmarks.corpus import AS_OF, built_corpus
from tests.benchmarks.queries import Query, make_queries


def qrels(queries: list[Query], minimum: int) -> Qrels:
    return Qrels(
        {
            q.qid: {d: g for d, g in q.grades.items() if g >= minimum}
            for q in queries
            if not q.impossible
        }
    )


async def rank(
    settings: Settings, queries: list[Query], top_k: int
) -> tuple[dict[str, list[str]], list[float]]:
    rankings, latencies = {}, []
    async with open_knowledge_base(settings, as_of=AS_OF) as kb:
        for query in queries:
            started = time.perf_counter()
            response = await kb.search.search(SearchRequest(**query.request(top_k)))
            latencies.append((time.perf_counter() - started) * 1000)
            rankings[query.qid] = [c.candidate_id for c in response.candidates]
    return rankings, latencies


def as_run(rankings: dict[str, list[str]], queries: list[Query]) -> Run:
    return Run({q.qid: {d: 1.0 / (i + 1) for i, d in enumerate(rankings[q.qid])} or {"none": 0.0}
                for q in queries if not q.impossible})  # fmt: skip


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cvs", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    args = parser.parse_args()
    print(
        f"corpus: {args.cvs} generated CVs (seed {args.seed}), embedder {args.embedder}", flush=True
    )
    with tempfile.TemporaryDirectory() as tmp:
        built = built_corpus(Path(tmp), args.cvs, args.seed, args.embedder)
        settings, truth = built.settings, built.truth
        from talentrag.vocabulary import load_vocabulary

        queries = make_queries(truth, load_vocabulary(), args.queries, args.seed)
        rankings, latencies = await rank(settings, queries, top_k=50)
    scores = evaluate(qrels(queries, 1), as_run(rankings, queries), ["ndcg@10"])
    binary = evaluate(qrels(queries, 2), as_run(rankings, queries), ["precision@5", "recall@50"])
    impossible = [q for q in queries if q.impossible]
    possible = [q for q in queries if not q.impossible]
    relevant = [sum(g >= 2 for g in q.grades.values()) for q in possible]
    p5_ceiling = sum(min(5, n) / 5 for n in relevant) / len(possible)
    r50_ceiling = sum(min(50, n) / n for n in relevant) / len(possible)
    empty = sum(not rankings[q.qid] for q in impossible)
    latencies.sort()
    print(f"queries: {len(queries)} ({len(impossible)} impossible combinations)")
    print(
        f"nDCG@10 {scores:.4f}  precision@5 {binary['precision@5']:.4f} (best possible {p5_ceiling:.4f})  "
        f"recall@50 {binary['recall@50']:.4f} (best possible {r50_ceiling:.4f})"
    )
    print(f"impossible combinations answered with no candidates: {empty}/{len(impossible)}")
    print(f"search latency p50 {latencies[len(latencies) // 2]:.1f} ms, max {latencies[-1]:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
