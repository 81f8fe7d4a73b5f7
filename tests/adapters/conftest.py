"""Real `talentrag serve` processes on free loopback ports."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

KEY_A = "acme-key-0123456789abcdef"
KEY_B = "globex-key-0123456789abcdef"
KEY_READ = "acme-read-only-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running_server(
    data_dir: Path,
    env: dict[str, str] | None = None,
    log: Path | None = None,
    *,
    kill: bool = False,
) -> Iterator[str]:
    """``talentrag serve`` on a free port; stopped with SIGTERM (``kill``: SIGKILL, a crash).

    ``log`` takes its output (a pipe nobody reads can fill up during a long run).
    """
    port = free_port()
    environment = os.environ | {"TALENTRAG_EMBEDDER": "hashing"} | (env or {})
    output = log.open("w") if log else subprocess.PIPE
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "talentrag.cli",
            "serve",
            "--port",
            str(port),
            "--data-dir",
            str(data_dir),
        ],
        env=environment,
        stdout=output,
        stderr=subprocess.STDOUT if log else subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                said = log.read_text() if log else process.stderr.read()
                raise RuntimeError(f"server exited: {said}")
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        yield url
    finally:
        process.kill() if kill else process.terminate()
        process.wait(timeout=20)
        if log:
            output.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("http") / "kb") as url:
        yield url


@pytest.fixture(scope="module")
def keyed_server(tmp_path_factory) -> Iterator[str]:
    keys = json.dumps(
        {KEY_A: "acme", KEY_B: "globex", KEY_READ: {"tenant": "acme", "scopes": ["read"]}}
    )
    with running_server(
        tmp_path_factory.mktemp("keyed") / "kb", {"TALENTRAG_API_KEYS": keys}
    ) as url:
        yield url
