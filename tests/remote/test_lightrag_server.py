"""search_by_skills through a real LightRAG Server (lightrag-hku[api]) on 127.0.0.1.

The server's working directory is a graph written by our ingestion; its embedding
binding points at our own OpenAI-compatible /v1/embeddings (talentrag serve), so
nothing leaves the machine. Run with `make test-remote` (it builds the server's venv).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from talentrag.config import Settings
from talentrag.gateways.base import GatewayError, GatewayUnavailable
from talentrag.runtime import open_knowledge_base
from talentrag.search import SearchRequest
from tests.conftest import AS_OF

pytestmark = pytest.mark.remote
SERVER_PYTHON = (
    os.path.abspath(os.environ.get("TALENTRAG_LIGHTRAG_SERVER_PYTHON", ""))
    if os.environ.get("TALENTRAG_LIGHTRAG_SERVER_PYTHON")
    else ""
)
SHOWCASE = (
    Path(__file__).parents[2] / "services" / "talentrag" / "sample_data" / "corpus" / "showcase"
)
FIXTURES = Path(__file__).parents[1] / "fixtures" / "corpus"
API_KEY = "remote-test-key"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(url: str, process: subprocess.Popen, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url} exited with {process.returncode}")
        try:
            if (
                httpx.get(f"{url}/health", headers={"X-API-Key": API_KEY}, timeout=1).status_code
                == 200
            ):
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not become healthy in {seconds}s")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("remote")
    corpus = folder / "cvs"
    shutil.copytree(SHOWCASE, corpus)
    for path in FIXTURES.glob("*"):
        if not path.name.startswith("jd-"):
            shutil.copy(path, corpus / path.name)
    command = [
        sys.executable,
        "-m",
        "talentrag.cli",
        "ingest",
        str(corpus),
        "--data-dir",
        str(folder / "kb"),
        "--quiet",
        "--as-of",
        AS_OF.isoformat(),
    ]
    subprocess.run(command, check=True, capture_output=True, timeout=300)
    return folder / "kb"


@pytest.fixture(scope="module")
def servers(data_dir: Path, tmp_path_factory) -> Iterator[str]:
    if not SERVER_PYTHON:
        pytest.fail("set TALENTRAG_LIGHTRAG_SERVER_PYTHON (make test-remote does)")
    embed_port, rag_port = _free_port(), _free_port()
    embeddings = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "talentrag.cli",
            "serve",
            "--port",
            str(embed_port),
            "--data-dir",
            str(data_dir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    env = os.environ | {
        "WORKING_DIR": str(data_dir / "lightrag"),
        "WORKSPACE": "default",
        "HOST": "127.0.0.1",
        "PORT": str(rag_port),
        "EMBEDDING_BINDING": "openai",
        "EMBEDDING_BINDING_HOST": f"http://127.0.0.1:{embed_port}/v1",
        "EMBEDDING_MODEL": "all-MiniLM-L6-v2-int8",
        "EMBEDDING_DIM": "384",
        "EMBEDDING_BINDING_API_KEY": "unused",
        "LLM_BINDING": "openai",
        "LLM_BINDING_HOST": "http://127.0.0.1:9/v1",
        "LLM_MODEL": "none",
        "LLM_BINDING_API_KEY": "unused",
        "LIGHTRAG_API_KEY": API_KEY,
    }
    server = subprocess.Popen(
        [SERVER_PYTHON, str(Path(__file__).with_name("offline_lightrag_server.py"))],
        cwd=tmp_path_factory.mktemp("server"),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_healthy(f"http://127.0.0.1:{embed_port}", embeddings)
        _wait_healthy(f"http://127.0.0.1:{rag_port}", server)
        yield f"http://127.0.0.1:{rag_port}"
    finally:
        for process in (server, embeddings):
            process.terminate()
            process.wait(timeout=20)


def _remote(data_dir: Path, url: str, key: str = API_KEY) -> Settings:
    return Settings(
        data_dir=data_dir,
        lightrag_mode="remote",
        lightrag_url=url,
        lightrag_api_key=key,
        lightrag_retries=1,
    )


async def _ids(settings: Settings, **request) -> list[str]:
    async with open_knowledge_base(settings, as_of=AS_OF) as kb:
        response = await kb.search.search(SearchRequest(**request))
    return [c.candidate_id for c in response.candidates]


async def test_remote_search_matches_embedded_search(data_dir: Path, servers: str):
    for request in (
        {"required_skills": ["Kubernetes"], "top_k": 10},
        {"required_skills": ["Python"], "preferred_skills": ["AWS"], "top_k": 10},
        {"required_skills": ["Python", "Machine Learning"], "experience_level": "senior"},
    ):
        remote = await _ids(_remote(data_dir, servers), **request)
        embedded = await _ids(Settings(data_dir=data_dir), **request)
        assert remote == embedded and remote, request
    kubernetes = await _ids(_remote(data_dir, servers), required_skills=["k8s"], top_k=10)
    assert {"priya-k8s", "marco-eks", "sofia-helm", "jane-doe"} <= set(kubernetes)


async def test_remote_server_is_ready(data_dir: Path, servers: str):
    async with open_knowledge_base(_remote(data_dir, servers), as_of=AS_OF) as kb:
        await kb.gateway.ready("default")


async def test_wrong_api_key_is_a_clear_error(data_dir: Path, servers: str):
    with pytest.raises(GatewayError, match="TALENTRAG_LIGHTRAG_API_KEY"):
        await _ids(_remote(data_dir, servers, key="wrong"), required_skills=["Python"])


async def test_server_down_is_unavailable(data_dir: Path):
    with pytest.raises(GatewayUnavailable):
        await _ids(
            _remote(data_dir, f"http://127.0.0.1:{_free_port()}"), required_skills=["Python"]
        )
