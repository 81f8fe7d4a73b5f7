"""`talentrag serve` in a child process, measured the same way by every benchmark:
cold start (process start to the first answered search), requests/s and latency at each
client count, errors, and the peak RSS of each server process."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.benchmarks.corpus import peak_rss_mb
from tests.benchmarks.latency import percentiles
from tests.benchmarks.queries import Query


async def serve(
    data_dir: Path,
    queries: list[Query],
    clients: tuple[int, ...],
    requests: int,
    env: dict[str, str],
    workers: int = 1,
) -> dict:
    """Start the server on ``data_dir`` with ``env``, load it at each client count, stop it."""
    port = free_port()
    command = [sys.executable, "-m", "talentrag.cli", "serve", "--port", str(port),
               "--data-dir", str(data_dir), "--workers", str(workers)]  # fmt: skip
    started = time.perf_counter()
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/v1/candidates/search"
    try:
        async with httpx.AsyncClient(timeout=120) as client:
            cold = await _first_answer(client, url, queries[0].request(10), started, server)
            levels = {str(n): await _load(client, url, queries, n, requests) for n in clients}
        processes = _children(server.pid) if workers > 1 else [server.pid]
        rss = [peak_rss_mb(pid) for pid in processes]
    finally:
        server.terminate()
        server.wait(timeout=60)
    return {"cold_start_seconds": round(cold, 2), "concurrency": levels,
            "peak_rss_mb_per_process": rss}  # fmt: skip


def free_port() -> int:
    """A TCP port on loopback nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _children(pid: int) -> list[int]:
    """The worker processes uvicorn started under ``pid``."""
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


async def _first_answer(
    client: httpx.AsyncClient, url: str, body: dict, started: float, server: subprocess.Popen
) -> float:
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited: {server.stderr.read().decode()[-800:]}")
        try:
            if (await client.post(url, json=body)).status_code == 200:
                return time.perf_counter() - started
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.05)


async def _load(
    client: httpx.AsyncClient, url: str, queries: list[Query], clients: int, total: int
) -> dict:
    latencies: list[float] = []
    errors = 0
    cursor = iter(range(total))

    async def worker() -> None:
        nonlocal errors
        for i in cursor:
            started = time.perf_counter()
            response = await client.post(url, json=queries[i % len(queries)].request(10))
            latencies.append((time.perf_counter() - started) * 1000)
            errors += response.status_code != 200

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    seconds = time.perf_counter() - started
    return {"requests": total, "rps": round(total / seconds, 1), **percentiles(latencies),
            "errors": errors}  # fmt: skip
