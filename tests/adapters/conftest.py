"""Real `talentrag serve` processes on free loopback ports."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

FIXTURES = Path(__file__).parents[1] / "fixtures" / "corpus"
RECRUITER_CORPUS = Path(__file__).parent / "corpus"
AS_OF = "2026-11-01"
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
    args: tuple[str, ...] = (),
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
            *args,
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


def load_recruiter_corpus(data_dir: Path) -> None:
    """The shared fixture CVs, ``corpus/``'s CVs (see its README) and both job
    descriptions, ingested by the CLI as a user would, with years counted to ``AS_OF``."""
    staging = data_dir.parent / "staging"
    cvs, jds = staging / "cvs", staging / "jds"
    cvs.mkdir(parents=True)
    jds.mkdir()
    for folder in (FIXTURES, RECRUITER_CORPUS):
        for path in folder.iterdir():
            if path.suffix in (".md", ".txt") and path.name != "README.md":
                shutil.copy(path, (jds if path.name.startswith("jd-") else cvs) / path.name)
    env = os.environ | {"TALENTRAG_EMBEDDER": "hashing"}
    for folder, kind in ((cvs, "cv"), (jds, "job_description")):
        command = [sys.executable, "-m", "talentrag.cli", "ingest", str(folder)]
        command += ["--document-type", kind, "--as-of", AS_OF, "--quiet"]
        subprocess.run(
            [*command, "--data-dir", str(data_dir)],
            check=True,
            env=env,
            capture_output=True,
            timeout=300,
        )


@pytest.fixture(scope="session")
def recruiter_kb(tmp_path_factory) -> Path:
    """A knowledge base of 10 hand-written CVs (one person twice) and 2 job descriptions."""
    data_dir = tmp_path_factory.mktemp("recruiter") / "kb"
    load_recruiter_corpus(data_dir)
    return data_dir


@pytest.fixture(scope="session")
def recruiter_server(recruiter_kb: Path) -> Iterator[str]:
    """``talentrag serve`` over ``recruiter_kb``: the searches' tests only read from it."""
    with running_server(recruiter_kb) as url:
        yield url
