"""Searches while the server ingests: p95 idle vs during a bulk ingest job, and one 1 MB text.

    .venv/bin/python -u -m tests.benchmarks.write_load --cvs 1000 --bulk 300

Both phases run against one `talentrag serve` child on a copy of a built corpus, with
the same queries and clients, so the ratio compares like with like.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from tests.benchmarks.corpus import AS_OF, built_corpus
from tests.benchmarks.latency import percentiles
from tests.benchmarks.queries import Query, load_truth, make_queries
from tests.benchmarks.serving import free_port
from tests.support.generator import generate_corpus

CLIENTS = 4
BIG_TEXT_BYTES = 1_000_000


async def _searches(
    client: httpx.AsyncClient, url: str, queries: list[Query], until
) -> list[float]:
    """Search with ``CLIENTS`` concurrent clients until ``until()`` says stop."""
    latencies: list[float] = []
    count = iter(range(10**9))

    async def worker() -> None:
        while not until():
            query = queries[next(count) % len(queries)]
            started = time.perf_counter()
            response = await client.post(f"{url}/v1/candidates/search", json=query.request(10))
            response.raise_for_status()
            latencies.append((time.perf_counter() - started) * 1000)

    await asyncio.gather(*(worker() for _ in range(CLIENTS)))
    return latencies


def bulk_texts(folder: Path, n: int, seed: int) -> list[dict[str, str]]:
    generate_corpus(folder, n, seed=seed + 1, n_job_descriptions=0, as_of=AS_OF)
    return [
        {"id": f"bulk-{i}-{path.stem}", "text": path.read_text()}
        for i, path in enumerate(sorted((folder / "cvs").iterdir()))
    ]


def _big_text(texts: list[dict[str, str]]) -> str:
    """About 1 MB of CV text: one person's CV followed by many project write-ups."""
    parts, size = [], 0
    while size < BIG_TEXT_BYTES:  # the bulk CVs' bodies, repeated until 1 MB
        for document in texts:
            body = document["text"].split("\n", 1)[-1]
            parts.append(body)
            size += len(body.encode()) + 1
    return ("Bulk Tester\n" + "\n".join(parts)).encode()[:BIG_TEXT_BYTES].decode(errors="ignore")


async def measure(data_dir: Path, queries: list[Query], bulk: list[dict[str, str]]) -> dict:
    """Idle p95, p95 during a bulk job, and the seconds a 1 MB text PUT takes."""
    with tempfile.TemporaryDirectory() as tmp:
        served = Path(tmp) / "kb"
        shutil.copytree(data_dir, served)
        port = free_port()
        env = os.environ | {"TALENTRAG_EMBEDDER": "hashing"}
        server = subprocess.Popen(
            [sys.executable, "-m", "talentrag.cli", "serve", "--port", str(port), "--data-dir", str(served)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            async with httpx.AsyncClient(timeout=300) as client:
                await _ready(client, url, server)
                await _searches(client, url, queries, _for_seconds(3))  # warm
                idle = await _searches(client, url, queries, _for_seconds(15))
                accepted = await client.post(f"{url}/v1/ingest-jobs", json={"documents": bulk})
                accepted.raise_for_status()
                location = f"{url}{accepted.headers['location']}"
                started = time.perf_counter()
                done = _JobWatch(client, location)
                during = await _searches(client, url, queries, done.finished)
                await done.wait()
                job_seconds = time.perf_counter() - started
                big = _big_text(bulk)
                started = time.perf_counter()
                put = await client.put(f"{url}/v1/candidates/big-1mb", json={"text": big})
                put.raise_for_status()
                big_seconds = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait(timeout=60)
    idle_p, during_p = percentiles(idle), percentiles(during)
    return {
        "clients": CLIENTS,
        "idle": {"requests": len(idle), **idle_p},
        "during_bulk_ingest": {"requests": len(during), **during_p},
        "p95_ratio": round(during_p["p95"] / idle_p["p95"], 2),
        "bulk": {
            "cvs": len(bulk),
            "seconds": round(job_seconds, 1),
            "cvs_per_second": round(len(bulk) / job_seconds, 1),
            "counts": done.counts,
        },
        "one_mb_text": {"bytes": len(big.encode()), "seconds": round(big_seconds, 2)},
    }


class _JobWatch:
    """Polls a job in the background; ``finished()`` turns true when it is done."""

    def __init__(self, client: httpx.AsyncClient, location: str):
        self.done = False
        self.counts: dict[str, int] = {}
        self._task = asyncio.create_task(self._poll(client, location))

    async def _poll(self, client: httpx.AsyncClient, location: str) -> None:
        while True:
            job = (await client.get(location)).json()
            if job["status"] == "done":
                self.counts = job["counts"]
                self.done = True
                return
            await asyncio.sleep(0.25)

    def finished(self) -> bool:
        return self.done

    async def wait(self) -> None:
        await self._task


def _for_seconds(seconds: float):
    deadline = time.perf_counter() + seconds
    return lambda: time.perf_counter() >= deadline


async def _ready(client: httpx.AsyncClient, url: str, server: subprocess.Popen) -> None:
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited: {server.stderr.read().decode()[-500:]}")
        try:
            if (await client.get(f"{url}/ready")).status_code == 200:
                return
        except httpx.TransportError:
            await asyncio.sleep(0.1)


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cvs", type=int, default=1000, help="size of the served corpus")
    parser.add_argument("--bulk", type=int, default=300, help="CVs in the bulk ingest job")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cache", type=Path, default=Path(".bench-cache") / "write-load")
    args = parser.parse_args()
    built = built_corpus(args.cache, args.cvs, args.seed, "hashing")
    truth = load_truth(built.settings.data_dir.parent / "corpus" / "ground_truth.jsonl")
    from talentrag.vocabulary import load_vocabulary

    queries = make_queries(truth, load_vocabulary(), 50, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        bulk = bulk_texts(Path(tmp) / "bulk", args.bulk, args.seed)
    print(json.dumps(await measure(built.settings.data_dir, queries, bulk), indent=2))


if __name__ == "__main__":
    asyncio.run(main())
