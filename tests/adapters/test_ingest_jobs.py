"""POST /v1/ingest-jobs and GET /v1/ingest-jobs/{id} against a real server, and restarts."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx

from tests.adapters.conftest import KEY_A, KEY_B, KEY_READ, running_server

FIXTURES = Path(__file__).parents[1] / "fixtures" / "corpus"


def _wait_done(url: str, location: str, headers: dict | None = None) -> dict:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = httpx.get(f"{url}{location}", headers=headers, timeout=30).json()
        if job["status"] == "done":
            return job
        time.sleep(0.2)
    raise AssertionError(f"job not done: {job}")


def test_texts_and_files_in_one_job_each_with_per_document_outcomes(server: str):
    texts = [
        {"id": "job-jane", "text": (FIXTURES / "jane-doe.md").read_text(), "name": "Jane Doe"},
        {"id": "job-tom", "text": (FIXTURES / "tom-baker.txt").read_text()},
        {"id": "job-blank", "text": "   \n\t  "},
    ]
    refused = httpx.post(f"{server}/v1/ingest-jobs", json={"documents": texts}, timeout=30)
    assert refused.status_code == 422 and "documents[2]" in refused.json()["detail"]

    accepted = httpx.post(f"{server}/v1/ingest-jobs", json={"documents": texts[:2]}, timeout=30)
    assert accepted.status_code == 202, accepted.text
    assert accepted.json()["total"] == 2 and accepted.json()["status"] in {"queued", "running"}
    job = _wait_done(server, accepted.headers["location"])
    assert job["counts"] == {"ingested": 2} and job["processed"] == 2
    assert [d["document_id"] for d in job["documents"]] == ["job-jane", "job-tom"]

    files = [
        ("files", ("lena.md", (FIXTURES / "lena-fischer.md").read_bytes())),
        ("files", ("notes.xlsx", b"PK\x03\x04")),
        ("files", ("empty.txt", b"")),
    ]
    uploaded = httpx.post(f"{server}/v1/ingest-jobs", files=files, timeout=30)
    assert uploaded.status_code == 202, uploaded.text
    job = _wait_done(server, uploaded.headers["location"])
    outcomes = {d["source"]: (d["outcome"], d["reason"]) for d in job["documents"]}
    assert outcomes["lena.md"] == ("ingested", None)
    assert outcomes["notes.xlsx"][0] == "failed" and "unsupported" in outcomes["notes.xlsx"][1]
    assert outcomes["empty.txt"][0] == "failed" and "empty" in outcomes["empty.txt"][1]

    found = httpx.post(
        f"{server}/v1/candidates/search", json={"required_skills": ["Kubernetes"]}, timeout=60
    ).json()
    assert "job-jane" in [c["candidate_id"] for c in found["candidates"]]


def test_a_file_named_like_another_persons_fails_alone_with_a_conflict(server: str):
    jane = ("files", ("cv.md", (FIXTURES / "jane-doe.md").read_bytes()))
    first = httpx.post(f"{server}/v1/ingest-jobs", files=[jane], timeout=30)
    _wait_done(server, first.headers["location"])
    omar = ("files", ("cv.txt", (FIXTURES / "omar-haddad.txt").read_bytes()))
    second = httpx.post(f"{server}/v1/ingest-jobs", files=[omar], timeout=30)
    (document,) = _wait_done(server, second.headers["location"])["documents"]
    assert document["outcome"] == "failed" and "already stored as 'cv'" in document["reason"]
    assert httpx.get(f"{server}/v1/candidates/cv", timeout=30).json()["name"] == "Jane Doe"


def test_jobs_need_a_write_key_and_belong_to_the_keys_tenant(keyed_server: str):
    body = {"documents": [{"id": "k1", "text": (FIXTURES / "tom-baker.txt").read_text()}]}
    read_only = {"Authorization": f"Bearer {KEY_READ}"}
    assert (
        httpx.post(f"{keyed_server}/v1/ingest-jobs", json=body, headers=read_only).status_code
        == 403
    )
    writer = {"Authorization": f"Bearer {KEY_A}"}
    accepted = httpx.post(f"{keyed_server}/v1/ingest-jobs", json=body, headers=writer, timeout=30)
    assert accepted.status_code == 202
    assert _wait_done(keyed_server, accepted.headers["location"], writer)["counts"] == {
        "ingested": 1
    }
    other = {"Authorization": f"Bearer {KEY_B}"}
    assert httpx.get(
        f"{keyed_server}{accepted.headers['location']}", headers=other
    ).status_code in {
        401,
        404,
    }


def test_a_queued_job_survives_a_restart(tmp_path: Path):
    """A server killed mid-job: the next one resumes it and no document is lost."""
    data_dir = tmp_path / "kb"
    texts = [
        {"id": f"cv-{i}", "text": (FIXTURES / "jane-doe.md").read_text() + f"\nRef {i}\n"}
        for i in range(40)
    ]
    with running_server(data_dir, kill=True) as url:
        accepted = httpx.post(f"{url}/v1/ingest-jobs", json={"documents": texts}, timeout=30)
        location = accepted.headers["location"]
    # the server was killed at once; whatever it had not done is still queued
    with running_server(data_dir) as url:
        job = _wait_done(url, location)
        assert job["processed"] == 40 and set(job["counts"]) <= {"ingested", "skipped"}
        listed = httpx.get(f"{url}/v1/candidates", params={"limit": 100}, timeout=30).json()
        assert len(listed["data"]) == 40


def test_job_request_errors(server: str):
    assert httpx.get(f"{server}/v1/ingest-jobs/job-nope", timeout=30).status_code == 404
    empty = httpx.post(f"{server}/v1/ingest-jobs", json={"documents": []}, timeout=30)
    assert empty.status_code == 422
    plain = httpx.post(
        f"{server}/v1/ingest-jobs",
        content=b"hello",
        headers={"content-type": "text/plain"},
        timeout=30,
    )
    assert plain.status_code == 400 and "multipart/form-data" in plain.json()["detail"]
    extra = httpx.post(
        f"{server}/v1/ingest-jobs",
        content=json.dumps({"documents": [{"id": "a", "text": "x" * 30, "oops": 1}]}),
        headers={"content-type": "application/json"},
        timeout=30,
    )
    assert extra.status_code == 422 and "oops" in extra.json()["detail"]
