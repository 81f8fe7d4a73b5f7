"""Cold starts of `talentrag serve` on one data directory, measured as `serving.py` does:
process start to the first answered search (the first benchmark query), one server per
run, with its peak RSS at that moment.

    .venv/bin/python -m tests.benchmarks.cold_start --data-dir D --corpus C [--runs 3]

``--corpus`` is a benchmark corpus folder (its ``ground_truth.jsonl`` gives the query).
Serve a copy of a cached knowledge base, not the cache: a start writes load caches
beside LightRAG's files (``gateways/sidecars.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

from talentrag.vocabulary import load_vocabulary
from tests.benchmarks.queries import load_truth, make_queries
from tests.benchmarks.serving import _first_answer, free_port


async def cold_start(data_dir: Path, body: dict, env: dict[str, str]) -> tuple[float, int]:
    """Seconds from process start to the first answer, and the peak RSS (MB) by then."""
    port = free_port()
    command = [sys.executable, "-m", "talentrag.cli", "serve", "--port", str(port),
               "--data-dir", str(data_dir)]  # fmt: skip
    started = time.perf_counter()
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        async with httpx.AsyncClient(timeout=120) as client:
            url = f"http://127.0.0.1:{port}/v1/candidates/search"
            seconds = await _first_answer(client, url, body, started, server)
        status = Path(f"/proc/{server.pid}/status").read_text().splitlines()
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
        return seconds, peak_kb // 1024
    finally:
        server.terminate()
        server.wait(timeout=60)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--embedder", default="hashing")
    args = parser.parse_args()
    truth = load_truth(args.corpus / "ground_truth.jsonl")
    body = make_queries(truth, load_vocabulary(), 1, 2026)[0].request(10)
    env = os.environ | {"TALENTRAG_EMBEDDER": args.embedder}
    runs = [await cold_start(args.data_dir, body, env) for _ in range(args.runs)]
    seconds = [round(s, 2) for s, _ in runs]
    print(json.dumps({"seconds": seconds, "median": round(statistics.median(seconds), 2),
                      "peak_rss_mb": [mb for _, mb in runs], "query": body}))  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main())
