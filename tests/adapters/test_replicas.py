"""Stateless replicas over one PostgreSQL: separate `talentrag serve` processes and
`serve --workers 2`, each with its own (empty) data directory and the same database.

A write through one replica is read at once through another; writes sent to both at the
same time all land (they take turns on the database's advisory lock); a replica killed
with SIGKILL loses nothing that was acknowledged and blocks nobody.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.adapters.conftest import FIXTURES, running_server

TEXT = (FIXTURES / "tom-baker.txt").read_text()
JANE = (FIXTURES / "jane-doe.md").read_text()


@pytest.fixture
def database_env(postgres_url: str) -> Iterator[dict[str, str]]:
    yield {"TALENTRAG_DATABASE_URL": postgres_url}


def _put(url: str, candidate_id: str, text: str = TEXT) -> int:
    response = httpx.put(f"{url}/v1/candidates/{candidate_id}", json={"text": text}, timeout=120)
    return response.status_code


def _ids(url: str) -> set[str]:
    ids, cursor = set(), None
    while True:
        params = {"limit": 100} | ({"cursor": cursor} if cursor else {})
        page = httpx.get(f"{url}/v1/candidates", params=params, timeout=30).json()
        ids |= {c["id"] for c in page["data"]}
        if not page["has_more"]:
            return ids
        cursor = page["next_cursor"]


def _search(url: str) -> list[str]:
    response = httpx.post(
        f"{url}/v1/candidates/search", json={"required_skills": ["Kubernetes"]}, timeout=60
    )
    assert response.status_code == 200
    return [c["candidate_id"] for c in response.json()["candidates"]]


def test_two_replicas_share_every_write(tmp_path: Path, database_env: dict[str, str]) -> None:
    with (
        running_server(tmp_path / "a", database_env, tmp_path / "a.log") as a,
        running_server(tmp_path / "b", database_env, tmp_path / "b.log") as b,
    ):
        assert _put(a, "jane", JANE) == 201
        assert httpx.get(f"{b}/v1/candidates/jane").json()["name"] == "Jane Doe"
        assert _search(b) == ["jane"]  # B's LightRAG reads the rows A wrote

        with ThreadPoolExecutor(8) as pool:  # both replicas write at the same time
            codes = list(pool.map(lambda i: _put((a, b)[i % 2], f"c{i}"), range(12)))
        assert codes == [201] * 12
        assert _ids(a) == _ids(b) == {"jane"} | {f"c{i}" for i in range(12)}

        assert httpx.delete(f"{b}/v1/candidates/jane", timeout=60).status_code == 204
        assert httpx.get(f"{a}/v1/candidates/jane").status_code == 404
        assert "jane" not in _search(a)
    assert not (tmp_path / "b" / "candidates.sqlite3").exists()  # the database holds it all


def test_a_job_submitted_to_one_replica_is_reported_by_the_other(
    tmp_path: Path, database_env: dict[str, str]
) -> None:
    with (
        running_server(tmp_path / "a", database_env, tmp_path / "a.log") as a,
        running_server(tmp_path / "b", database_env, tmp_path / "b.log") as b,
    ):
        documents = [{"id": f"j{i}", "text": TEXT} for i in range(3)]
        accepted = httpx.post(f"{a}/v1/ingest-jobs", json={"documents": documents}, timeout=30)
        assert accepted.status_code == 202, accepted.text
        location = accepted.headers["location"]
        deadline = time.monotonic() + 120
        while (job := httpx.get(f"{b}{location}", timeout=30).json())["status"] != "done":
            assert time.monotonic() < deadline, job
            time.sleep(0.5)
        assert job["counts"] == {"ingested": 3}
        assert {"j0", "j1", "j2"} <= _ids(b)


def test_a_killed_replica_loses_nothing_and_blocks_nobody(
    tmp_path: Path, database_env: dict[str, str]
) -> None:
    with running_server(tmp_path / "b", database_env, tmp_path / "b.log") as b:
        with running_server(tmp_path / "a", database_env, tmp_path / "a.log", kill=True) as a:
            assert [_put(a, f"k{i}") for i in range(3)] == [201] * 3
            with ThreadPoolExecutor(1) as pool:  # a write in flight when A dies
                pool.submit(lambda: _put(a, "in-flight"))
        # A was killed with SIGKILL; B writes at once (A's session, and its lock, died)
        assert _put(b, "after") == 201
        kept = _ids(b)
        assert {"k0", "k1", "k2", "after"} <= kept
        assert kept <= {"k0", "k1", "k2", "after", "in-flight"}


def test_serve_with_two_workers(tmp_path: Path, database_env: dict[str, str]) -> None:
    with running_server(
        tmp_path / "w", database_env, tmp_path / "w.log", args=("--workers", "2")
    ) as url:
        assert _put(url, "jane", JANE) == 201
        # every request, on whichever worker, reads the write
        assert all(_search(url) == ["jane"] for _ in range(10))
        health = httpx.get(f"{url}/health").json()
        assert health["status"] == "ok"
    log = (tmp_path / "w.log").read_text()
    assert "2 processes" in log


def test_workers_need_a_database(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "talentrag.cli", "serve", "--workers", "2"],
        env=os.environ | {"TALENTRAG_DATA_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "TALENTRAG_DATABASE_URL" in done.stderr and "Traceback" not in done.stderr
