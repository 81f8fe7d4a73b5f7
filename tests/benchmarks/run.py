"""`make bench`: quality against baselines, latency, ingestion, serving, in one run.

    .venv/bin/python -u -m tests.benchmarks.run [--quick]

Writes docs/benchmarks/results/<date>[-quick].json and .md; a full run also copies its
Markdown to docs/benchmarks.md. Every figure is measured in this run on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ranx import evaluate

from talentrag import __version__
from talentrag.domain import MatchKind
from talentrag.ingestion.analyze import document_id_for
from talentrag.runtime import open_knowledge_base
from talentrag.search import SearchRequest, SearchResponse
from talentrag.vocabulary import load_vocabulary
from tests.benchmarks import hub_edges, postgres, write_load
from tests.benchmarks import serving as serving_run
from tests.benchmarks.baselines import BM25Baseline, DenseBaseline, raw_lightrag_rank
from tests.benchmarks.corpus import AS_OF, ROOT, built_corpus, run_child
from tests.benchmarks.queries import Query, load_truth, make_queries
from tests.benchmarks.search_quality import as_run, qrels
from tests.support.generator import generate_corpus

RESULTS = ROOT / "docs" / "benchmarks" / "results"
SYSTEMS = ("talentrag", "bm25", "dense", "lightrag")


@dataclass(frozen=True)
class Plan:
    quality_cvs: int
    quality_queries: int
    latency_sizes: tuple[tuple[int, str], ...]  # (CVs, embedder)
    latency_queries: int
    ingest_cvs: int
    serving_cvs: int
    requests_per_level: int
    bulk_cvs: int = 300
    postgres_cvs: int = 10_000


QUICK = Plan(300, 24, ((1000, "hashing"),), 100, 100, 1000, 32, postgres_cvs=1000)
FULL = Plan(
    2000,
    60,
    (
        (1000, "minilm"),
        (1000, "hashing"),
        (10_000, "minilm"),
        (10_000, "hashing"),
        (100_000, "hashing"),
    ),
    200,
    1000,
    10_000,
    400,
)


# -- quality ------------------------------------------------------------------------
def _metrics(queries: list[Query], rankings: dict[str, list[str]]) -> dict[str, float]:
    run = as_run(rankings, queries)
    binary = evaluate(qrels(queries, 2), run, ["precision@5", "recall@50"])
    return {"ndcg@10": round(float(evaluate(qrels(queries, 1), run, "ndcg@10")), 4),
            "precision@5": round(float(binary["precision@5"]), 4), "recall@50": round(float(binary["recall@50"]), 4)}  # fmt: skip


def _skill_f1(
    queries: list[Query], responses: dict[str, SearchResponse], truth: dict[str, set[str]]
) -> dict[str, float]:
    """Micro-F1 of matched_required_skills and missing_skills against the generator's truth."""
    counts = {"matched": [0, 0, 0], "matched_held": [0, 0, 0], "missing": [0, 0, 0]}  # tp, fp, fn
    for query in queries:
        wording = dict(
            zip(
                query.required + query.preferred,
                query.canonical_required + query.canonical_preferred,
                strict=True,
            )
        )
        for candidate in responses[query.qid].candidates:
            held = truth[candidate.candidate_id]
            related = {d.requested for d in candidate.skill_matches if d.kind is MatchKind.RELATED}
            for label, predicted in (
                ("matched", set(candidate.matched_required_skills)),
                # the same without partial credit from a related skill (TensorFlow for PyTorch)
                ("matched_held", set(candidate.matched_required_skills) - related),
                ("missing", set(candidate.missing_skills)),
            ):
                for written, skill in wording.items():
                    if label != "missing" and written not in query.required:
                        continue
                    actual = (skill not in held) if label == "missing" else (skill in held)
                    said = written in predicted
                    counts[label][0] += said and actual
                    counts[label][1] += said and not actual
                    counts[label][2] += actual and not said
    return {
        label: round(2 * tp / (2 * tp + fp + fn), 4) if tp else 0.0
        for label, (tp, fp, fn) in counts.items()
    }


async def quality(cache: Path, plan: Plan, seed: int) -> dict:
    built = built_corpus(cache, plan.quality_cvs, seed, "minilm")
    settings, truth, folder = built.settings, built.truth, built.settings.data_dir.parent
    queries = make_queries(truth, load_vocabulary(), plan.quality_queries, seed)
    cvs = [t for t in truth if t["document_type"] == "cv"]
    by_file = {Path(t["file"]).name: document_id_for(Path(t["file"])) for t in cvs}
    held = {document_id_for(Path(t["file"])): set(t["skills"]) for t in cvs}
    rankings: dict[str, dict[str, list[str]]] = {s: {} for s in SYSTEMS}
    responses: dict[str, SearchResponse] = {}
    async with open_knowledge_base(settings, as_of=AS_OF) as kb:
        dense = await DenseBaseline.build(kb, settings.tenant)
        for query in queries:
            responses[query.qid] = await kb.search.search(SearchRequest(**query.request(50)))
            rankings["talentrag"][query.qid] = [
                c.candidate_id for c in responses[query.qid].candidates
            ]
            rankings["dense"][query.qid] = await dense.rank(kb, query, by_file)
            rankings["lightrag"][query.qid] = await raw_lightrag_rank(
                kb, settings.tenant, query, by_file
            )
    bm25 = BM25Baseline(folder / "corpus" / "cvs")
    rankings["bm25"] = {q.qid: bm25.rank(q) for q in queries}
    impossible = [q for q in queries if q.impossible]
    return {
        "cvs": plan.quality_cvs, "queries": len(queries), "impossible_queries": len(impossible),
        "build": built.info,
        "systems": {system: _metrics(queries, rankings[system]) for system in SYSTEMS},
        "impossible_answered_empty": sum(not rankings["talentrag"][q.qid] for q in impossible),
        "skill_f1": _skill_f1(queries, responses, held),
    }  # fmt: skip


# -- latency, ingestion, serving ----------------------------------------------------------
async def latency(cache: Path, size: int, plan: Plan, seed: int, embedder: str) -> dict:
    built = built_corpus(cache, size, seed, embedder)
    queries = make_queries(built.truth, load_vocabulary(), plan.latency_queries, seed)
    # In a child process: a 100K knowledge base takes GBs this process would keep.
    measured = subprocess.run([sys.executable, "-m", "tests.benchmarks.latency", "--corpus", str(built.settings.data_dir.parent),
                               "--embedder", embedder, "--queries", str(plan.latency_queries), "--seed", str(seed)],
                              capture_output=True, text=True, check=True, cwd=ROOT)  # fmt: skip
    figures = json.loads(measured.stdout.strip().splitlines()[-1])
    figures.pop("queries")
    ratio = figures["search_by_skills"]["p95"] / figures["aquery_data"]["p95"]
    served = await serving(built.settings.data_dir, embedder, queries[:50], (1,), 20)
    return {"cvs": size, "embedder": embedder, "queries": len(queries), **figures, "p95_ratio": round(ratio, 2),
            "serving": {"cold_start_seconds": served["cold_start_seconds"], "peak_rss_mb": served["serving_peak_rss_mb"]},
            "disk_mb": disk_mb(built.settings.data_dir),
            "build": built.info, "data_dir": str(built.settings.data_dir)}  # fmt: skip


def disk_mb(data_dir: Path) -> float:
    return round(sum(p.stat().st_size for p in data_dir.rglob("*") if p.is_file()) / 2**20, 1)


def ingestion(folder: Path, n_cvs: int, seed: int) -> dict:
    generate_corpus(folder / "corpus", n_cvs, seed=seed, n_job_descriptions=0, as_of=AS_OF)
    results = {}
    for embedder in ("minilm", "hashing"):
        data_dir = folder / f"kb-{embedder}"
        env = os.environ | {"TALENTRAG_EMBEDDER": embedder, "TALENTRAG_INGEST_BATCH_SIZE": "1000"}
        command = [sys.executable, "-m", "talentrag.cli", "ingest", str(folder / "corpus" / "cvs"), "--data-dir",
                   str(data_dir), "--quiet", "--as-of", AS_OF.isoformat()]  # fmt: skip
        seconds, rss = run_child(command, env)
        results[embedder] = {"cvs": n_cvs, "seconds": round(seconds, 1), "cvs_per_second": round(n_cvs / seconds, 1),
                             "peak_rss_mb": rss, "disk_mb": disk_mb(data_dir)}  # fmt: skip
    return results


async def serving(
    data_dir: Path, embedder: str, queries: list[Query], clients: tuple[int, ...], requests: int
) -> dict:
    """`talentrag serve` on the data directory: cold start, load at each client count, peak RSS."""
    env = os.environ | {"TALENTRAG_EMBEDDER": embedder}
    served = await serving_run.serve(data_dir, queries, clients, requests, env)
    (rss,) = served.pop("peak_rss_mb_per_process")
    return {**served, "serving_peak_rss_mb": rss}


def machine() -> dict:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())  # fmt: skip
    memory = next(
        int(line.split()[1])
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal")
    )
    import lightrag

    return {"cpu": model, "cores": os.cpu_count(), "memory_gb": round(memory / 2**20, 1), "python": platform.python_version(),
            "os": platform.platform(), "lightrag": lightrag.__version__, "talentrag": __version__}  # fmt: skip


# -- report ---------------------------------------------------------------------------
def markdown(report: dict) -> str:
    q, m = report["quality"], report["machine"]
    lines = [f"# Benchmarks ({report['date']}{', quick mode' if report['quick'] else ''})", "",
             f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gb']} GB; Python {m['python']}; "
             f"LightRAG {m['lightrag']}. Command: `{report['command']}`. Raw figures: `{report['json']}`.", "",
             f"## Quality ({q['cvs']} generated CVs, MiniLM; {q['queries']} queries, {q['impossible_queries']} impossible)", "",
             "| system | nDCG@10 | precision@5 | recall@50 |", "| --- | --- | --- | --- |"]  # fmt: skip
    for system, s in q["systems"].items():
        lines.append(f"| {system} | {s['ndcg@10']} | {s['precision@5']} | {s['recall@50']} |")
    lines += ["", f"Impossible combinations answered with no candidates: {q['impossible_answered_empty']}/{q['impossible_queries']}. "
              f"Micro-F1 against the truth: matched_required_skills {q['skill_f1']['matched']} ({q['skill_f1']['matched_held']} "
              "leaving out skills matched only through a related skill, which earn partial credit and are listed as matched), "
              f"missing_skills {q['skill_f1']['missing']}.",
              "", "## Latency (warm, ms)", "",
              "| CVs | embedder | search p50 | p95 | p99 | first search of its skills p95 | raw aquery_data p50 | p95 | p99 | p95 ratio | build s | build peak RSS MB | disk MB | serve cold start s | serving peak RSS MB |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for row in report["latency"]:
        s, r = row["search_by_skills"], row["aquery_data"]
        b = row["build"]
        lines.append(
            f"| {row['cvs']} | {row['embedder']} | {s['p50']} | {s['p95']} | {s['p99']} | {row.get('search_first_time', {}).get('p95', '-')} | {r['p50']} | {r['p95']} | {r['p99']} | {row['p95_ratio']} | {b['ingest_seconds']} | {b['peak_rss_mb']} | {row.get('disk_mb', '-')} | {row['serving']['cold_start_seconds']} | {row['serving']['peak_rss_mb']} |"
        )
    builds = [row["build"] for row in report["latency"]] + [q["build"]]
    lines += ["", "Each corpus was ingested by `talentrag ingest` in a child process, in batches of "
              f"{', '.join(sorted({str(b['batch']) for b in builds}))} CVs; build seconds include the job descriptions and are wall time, "
              "possibly beside other builds (`make bench-prepare` runs them one after another; the Ingestion table is the throughput figure). "
              "The 100K corpus uses the hashing embedder (not semantic, but the same graph and store): at about 5 CVs/s, "
              "MiniLM would need over 5 hours to build it. "
              "Serving: `talentrag serve` on the same data directory, from process start to the first answered "
              "search, then 20 more searches; peak RSS of the server process. "
              "Builds are cached in `.bench-cache/` and reused while the ingestion code is unchanged: "
              + "; ".join(f"{b['cvs']:,} {b['embedder']} built on {b['built_on']}{' (reused)' if b['reused'] else ''}" for b in builds) + "."]  # fmt: skip
    lines += [
        "",
        "## Ingestion",
        "",
        "| embedder | CVs | CVs/s | peak RSS MB | disk MB |",
        "| --- | --- | --- | --- | --- |",
    ]
    for embedder, row in report["ingestion"].items():
        lines.append(
            f"| {embedder} | {row['cvs']} | {row['cvs_per_second']} | {row['peak_rss_mb']} | {row['disk_mb']} |"
        )
    sv = report["serving"]
    lines += ["", f"## Serving ({sv['cvs']} CVs, {sv['embedder']})", "",
              f"Cold start (process start to first answered query): {sv['cold_start_seconds']} s. Peak RSS while serving: {sv['serving_peak_rss_mb']} MB.", "",
              "| concurrent clients | requests | req/s | p50 ms | p95 ms | errors |", "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for level, row in sv["concurrency"].items():
        lines.append(
            f"| {level} | {row['requests']} | {row['rps']} | {row['p50']} | {row['p95']} | {row['errors']} |"
        )
    wl = report.get("write_load")
    if wl:
        lines += ["", f"## Searches during a bulk ingest ({wl['cvs']} CVs served, {wl['clients']} search clients)", "",
                  "| phase | requests | p50 ms | p95 ms | p99 ms |", "| --- | --- | --- | --- | --- |",
                  *(f"| {name} | {wl[key]['requests']} | {wl[key]['p50']} | {wl[key]['p95']} | {wl[key]['p99']} |"
                    for name, key in (("idle", "idle"), ("during the ingest job", "during_bulk_ingest"))),
                  "", f"p95 during / idle: {wl['p95_ratio']}x. The job (POST /v1/ingest-jobs) wrote {wl['bulk']['cvs']} CVs "
                  f"in {wl['bulk']['seconds']} s ({wl['bulk']['cvs_per_second']} CVs/s); a {wl['one_mb_text']['bytes']:,}-byte "
                  f"text PUT took {wl['one_mb_text']['seconds']} s."]  # fmt: skip
    if report.get("postgres"):
        lines += ["", *postgres.markdown(report["postgres"])]
    lines += ["", "## Targets", "", "| target | measured | met |", "| --- | --- | --- |"]
    for name, value, ok in targets(report):
        lines.append(
            f"| {name} | {value} | {'yes' if ok else 'not measured' if ok is None else 'NO'} |"
        )
    lines += ["", "Profiles of the misses, the fixes they led to and what is left: "
              "[benchmarks/profiling.md](benchmarks/profiling.md)."]  # fmt: skip
    lines += ["", "## Not measured in this run", ""] + [
        f"- {item}" for item in report["not_measured"]
    ]
    return "\n".join(lines) + "\n"


def targets(report: dict) -> list[tuple[str, str, bool | None]]:
    """The benchmark issue's targets against this run's figures."""
    systems = report["quality"]["systems"]
    ours = systems["talentrag"]["ndcg@10"]
    best = max(v["ndcg@10"] for k, v in systems.items() if k != "talentrag")
    by_size = {row["cvs"]: row for row in report["latency"] if row["embedder"] == "hashing"}
    rows: list[tuple[str, str, bool | None]] = [
        ("nDCG@10 >= 0.90", f"{ours}", ours >= 0.90),
        ("nDCG@10 >= best baseline + 0.15", f"{ours - best:+.4f}", ours - best >= 0.15),
    ]
    for size, limit in ((10_000, 50), (100_000, 150)):
        row = by_size.get(size)
        p95 = row["search_by_skills"]["p95"] if row else None
        rows.append(
            (
                f"search p95 <= {limit} ms at {size:,}",
                f"{p95} ms" if row else "-",
                p95 <= limit if row else None,
            )
        )
    for row in report["latency"]:
        rows.append(
            (
                f"search p95 <= 2x raw aquery_data at {row['cvs']:,} ({row['embedder']})",
                f"{row['p95_ratio']}x",
                row["p95_ratio"] <= 2,
            )
        )
    ingestion = report["ingestion"]
    for embedder, floor in (("minilm", 20), ("hashing", 300)):
        rate = ingestion[embedder]["cvs_per_second"]
        rows.append((f">= {floor} CVs/s ingesting with {embedder}", f"{rate}", rate >= floor))
    big, mid = by_size.get(100_000), by_size.get(10_000)
    rss = big["serving"]["peak_rss_mb"] if big else None
    rows.append(
        (
            "serving RSS <= 2 GB at 100,000",
            f"{rss} MB" if big else "-",
            rss <= 2048 if big else None,
        )
    )
    cold = mid["serving"]["cold_start_seconds"] if mid else None
    rows.append(
        ("cold start <= 3 s at 10,000", f"{cold} s" if mid else "-", cold <= 3 if mid else None)
    )
    serving = report["serving"]
    errors = sum(level["errors"] for level in serving["concurrency"].values())
    rows.append(("zero errors with 1/8/32 concurrent clients", f"{errors}", errors == 0))
    load = report.get("write_load")
    if load:
        ratio = load["p95_ratio"]
        rows.append(("search p95 during a bulk ingest <= 2x idle", f"{ratio}x", ratio <= 2))
        big = load["one_mb_text"]["seconds"]
        rows.append(("a 1 MB text ingests in <= 5 s", f"{big} s", big <= 5))
    pg = report.get("postgres")
    if pg:
        rows += postgres.targets(pg)
    return rows


POSTGRES_MILLION = (
    "PostgreSQL at 100K and 1M CVs: the corpora are built embedded, then copied in with "
    "`talentrag migrate` (52 CVs/s at 10K); 1M would take over 7 hours to build and about 5 "
    "to copy on this machine"
)

DEVSET_HEADING = "## Hand-written development set (tests/devset)"


def _with_devset_section(generated: str, previous: str) -> str:
    """The run's Markdown with the previous page's development-set section kept after
    its first section: that section is measured by ``python -m tests.devset.score``."""
    if DEVSET_HEADING not in previous:
        return generated
    start = previous.index(DEVSET_HEADING)
    end = previous.find("\n## ", start + len(DEVSET_HEADING))
    section = previous[start : end if end != -1 else len(previous)].rstrip() + "\n\n"
    cut = generated.find("\n## ", generated.find("\n## ") + 1)
    if cut == -1:
        return generated.rstrip() + "\n\n" + section
    return generated[: cut + 1] + section + generated[cut + 1 :]


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick", action="store_true", help="small sizes, for development (a few minutes)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cache", type=Path, default=ROOT / ".bench-cache",
                        help="where built corpora are kept and reused (default .bench-cache)")  # fmt: skip
    parser.add_argument("--skip", action="append", default=[], metavar="CVS:EMBEDDER",
                        help="leave out one latency size, e.g. 10000:minilm (reported as not measured)")  # fmt: skip
    parser.add_argument("--prepare", action="store_true",
                        help="only build the corpora the run needs, measure nothing")  # fmt: skip
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    cache = args.cache / ("quick" if args.quick else "full")
    if args.prepare:
        for size, embedder in [(plan.quality_cvs, "minilm"), *plan.latency_sizes]:
            built_corpus(cache, size, args.seed, embedder)
        return
    report: dict = {"date": date.today().isoformat(), "quick": args.quick, "machine": machine(),
                    "command": "make bench" + (" QUICK=1" if args.quick else "") + "".join(f" SKIP={s}" for s in args.skip)}  # fmt: skip
    report["quality"] = await quality(cache, plan, args.seed)
    print("quality", json.dumps(report["quality"]), flush=True)
    report["latency"] = []
    for size, embedder in plan.latency_sizes:
        if f"{size}:{embedder}" in args.skip:
            continue
        row = await latency(cache, size, plan, args.seed, embedder)
        print("latency", json.dumps(row), flush=True)
        report["latency"].append(row)
    with tempfile.TemporaryDirectory() as tmp:
        report["ingestion"] = ingestion(Path(tmp), plan.ingest_cvs, args.seed)
    print("ingestion", json.dumps(report["ingestion"]), flush=True)
    served = next(
        r for r in report["latency"] if r["cvs"] == plan.serving_cvs and r["embedder"] == "hashing"
    )
    data_dir = Path(served["data_dir"])
    truth = load_truth(data_dir.parent / "corpus" / "ground_truth.jsonl")
    queries = make_queries(truth, load_vocabulary(), 50, args.seed)
    report["serving"] = {"cvs": plan.serving_cvs, "embedder": "hashing",
                         **await serving(data_dir, "hashing", queries, (1, 8, 32), plan.requests_per_level)}  # fmt: skip
    print("serving", json.dumps(report["serving"]), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        bulk = write_load.bulk_texts(Path(tmp) / "bulk", plan.bulk_cvs, args.seed)
    report["write_load"] = {
        "cvs": plan.serving_cvs,
        **await write_load.measure(data_dir, queries, bulk),
    }
    print("write_load", json.dumps(report["write_load"]), flush=True)
    report["hub_edges"] = await hub_edges.measure(1000 if args.quick else 5000)
    print("hub_edges", json.dumps(report["hub_edges"]), flush=True)
    report["postgres"] = await postgres.measure(
        cache, plan.postgres_cvs, args.seed, plan.latency_queries, plan.requests_per_level
    )
    print("postgres", json.dumps(report["postgres"]), flush=True)
    for row in report["latency"]:
        row.pop("data_dir", None)
    measured = {(r["cvs"], r["embedder"]) for r in report["latency"]}
    report["not_measured"] = [
        f"latency at {n:,} CVs with {e}" for n, e in FULL.latency_sizes if (n, e) not in measured
    ]
    report["not_measured"].append(POSTGRES_MILLION)
    RESULTS.mkdir(parents=True, exist_ok=True)
    stem = report["date"] + ("-quick" if args.quick else "")
    report["json"] = f"docs/benchmarks/results/{stem}.json"
    (RESULTS / f"{stem}.json").write_text(json.dumps(report, indent=2) + "\n")
    text = markdown(report)
    (RESULTS / f"{stem}.md").write_text(text)
    if not args.quick:  # docs/benchmarks.md is the latest full run, plus the dev-set section
        docs = ROOT / "docs" / "benchmarks.md"
        docs.write_text(_with_devset_section(text, docs.read_text() if docs.exists() else ""))
    print(text)


if __name__ == "__main__":
    asyncio.run(main())
