"""The analysis pool's worker processes: real processes, spawned as the server spawns them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from talentrag.ingestion.workers import WORKER_NICENESS

SERVER = """
import asyncio, os, time
from talentrag.ingestion.workers import AnalysisPool
from talentrag.vocabulary import load_vocabulary

async def main():
    pool = AnalysisPool(load_vocabulary(), None, workers=1)
    print(await pool._run(os.getpid), flush=True)
    time.sleep(600)

asyncio.run(main())
"""


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting for a parent to reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_worker_ends_with_its_server_killed_outright():
    root = Path(__file__).parents[2]
    env = os.environ | {"PYTHONPATH": f"{root}{os.pathsep}{root / 'services'}"}
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, env=env)
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        assert os.getpriority(os.PRIO_PROCESS, worker) == WORKER_NICENESS
    finally:
        server.send_signal(signal.SIGKILL)  # no shutdown of the pool runs
        server.wait()
    deadline = time.monotonic() + 60
    while _running(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(worker)
