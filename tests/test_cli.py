"""The talentrag command as a user runs it (a real process each time)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from talentrag.config import Settings
from talentrag.domain import DocumentType
from talentrag.ingestion.analyze import analyze_document
from talentrag.runtime import open_knowledge_base
from talentrag.vocabulary import load_vocabulary
from tests.conftest import AS_OF
from tests.ingestion.test_reindex import CVS, NEW_SKILL, write_vocabularies

FIXTURES = Path(__file__).parent / "fixtures" / "corpus"


def _run(*args: str, data_dir: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "talentrag.cli", *args, "--data-dir", str(data_dir)]
    environment = os.environ | {"TALENTRAG_EMBEDDER": "hashing"} | (env or {})
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=environment)


@pytest.fixture(scope="module")
def loaded(tmp_path_factory) -> Path:
    data_dir = tmp_path_factory.mktemp("cli") / "kb"
    corpus = data_dir.parent / "in"
    shutil.copytree(FIXTURES, corpus)
    (corpus / "notes.xlsx").write_bytes(b"PK\x03\x04")
    jd = corpus / "jd-platform-engineer.md"
    shutil.move(jd, data_dir.parent / jd.name)
    result = _run("ingest", str(corpus), "--as-of", "2026-11-01", data_dir=data_dir)
    assert result.returncode == 0, result.stderr
    assert "6 files: 5 ingested, 0 updated, 0 skipped, 1 failed" in result.stdout
    assert "notes.xlsx: unsupported" in result.stdout
    result = _run(
        "ingest",
        str(data_dir.parent / jd.name),
        "--document-type",
        "job_description",
        data_dir=data_dir,
    )
    assert "1 ingested" in result.stdout
    return data_dir


def test_candidates_json_lists_profiles_with_source_files(loaded: Path):
    result = _run("candidates", "--json", data_dir=loaded)
    profiles = json.loads(result.stdout)
    assert [p["id"] for p in profiles] == [
        "jane-doe",
        "lena-fischer",
        "maria-santos",
        "omar-haddad",
        "tom-baker",
    ]
    assert all(p["source_file"] for p in profiles)
    levels = {p["id"]: p["level"] for p in profiles}
    assert levels == {
        "jane-doe": "senior",
        "lena-fischer": "junior",
        "maria-santos": "senior",
        "omar-haddad": "senior",
        "tom-baker": "junior",
    }


def test_candidate_shows_skills_evidence_and_level(loaded: Path):
    record = json.loads(_run("candidate", "maria-santos", "--json", data_dir=loaded).stdout)
    assert record["source_file"] == "maria-santos.txt"
    assert record["level"] == "senior"
    skills = {s["skill"]: s for s in record["skills"]}
    assert "Wound Care" in skills
    evidence = skills["Wound Care"]["evidence"][0]
    assert evidence["source_file"] == "maria-santos.txt" and evidence["end"] > evidence["start"]
    human = _run("candidate", "maria-santos", data_dir=loaded).stdout
    assert "Maria Santos" in human and "Wound Care" in human


def test_summary(loaded: Path):
    out = _run("summary", data_dir=loaded).stdout
    assert "candidates: 5" in out and "other documents: 1" in out


def test_second_ingest_is_fast_and_skips(loaded: Path):
    result = _run("ingest", str(FIXTURES / "jane-doe.md"), "--as-of", "2026-11-01", data_dir=loaded)
    assert "1 skipped" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("candidate", "nobody"), "no candidate with id 'nobody'"),
        (("ingest", "/does/not/exist"), "no such file or folder"),
        (("candidates", "--tenant", "Bad Tenant!"), "tenant 'Bad Tenant!' is invalid"),
        (("candidate", "jd-platform-engineer"), "no candidate with id"),
    ],
)
def test_user_errors_are_one_line_without_traceback(loaded: Path, args, message):
    result = _run(*args, data_dir=loaded)
    assert result.returncode == 2
    assert message.casefold() in result.stderr.casefold()
    assert "Traceback" not in result.stderr + result.stdout


def test_broken_vocabulary_is_reported(loaded: Path, tmp_path: Path):
    bad = tmp_path / "skills.yaml"
    bad.write_text("version: 1\nfields: {}\ncategories: {}\nskills: [{name: X}]\n")
    result = _run("summary", data_dir=loaded, env={"TALENTRAG_VOCABULARY_PATH": str(bad)})
    assert (
        result.returncode == 2 and "category" in result.stderr and "Traceback" not in result.stderr
    )


def test_another_embedder_on_the_same_data_dir_is_refused(loaded: Path):
    result = _run("summary", data_dir=loaded, env={"TALENTRAG_EMBEDDER": "minilm"})
    message = " ".join(result.stderr.split())  # the console wraps long paths at 80 columns
    assert result.returncode == 2 and "was built with embedder hashing-256" in message


def test_installed_console_script():
    script = Path(sys.executable).parent / "talentrag"
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "ingest" in result.stdout


def test_files_with_one_name_are_different_people(tmp_path: Path):
    export = tmp_path / "export"
    people = {
        "cand-101/CV.txt": "Thomas Baker\nSenior accountant since 2010. Skills: IFRS, Excel.",
        "cand-102/cv.txt": "Maya Patel\nData engineer, 2019 - present. Skills: Python, Spark.",
        "Müller.txt": "Hans Müller\nElectrician, 2012 - present. Skills: AutoCAD.",
        "Mäller.txt": "Eva Mäller\nNurse, 2015 - present. Skills: Wound Care.",
        "张伟.txt": "Zhang Wei\nEngineer, 2018 - present. Skills: Java, Spring.",
        "Иван.txt": "Ivan Petrov\nDeveloper, 2016 - present. Skills: Go, Docker.",
    }
    for name, text in people.items():
        (export / name).parent.mkdir(parents=True, exist_ok=True)
        (export / name).write_text(text)
    data_dir = tmp_path / "kb"
    first = _run("ingest", str(export), "--quiet", data_dir=data_dir)
    assert "6 ingested" in first.stdout, first.stdout + first.stderr
    again = _run("ingest", str(export), "--quiet", data_dir=data_dir)
    assert "6 skipped" in again.stdout  # the same files again: no new ids, nothing replaced
    listed = json.loads(_run("candidates", "--json", data_dir=data_dir).stdout)
    assert sorted(c["name"] for c in listed) == sorted(t.split("\n")[0] for t in people.values())
    ids = {c["name"]: c["id"] for c in listed}
    assert ids["Hans Müller"] == "muller" and ids["Eva Mäller"] == "maller"
    assert ids["Ivan Petrov"] == "ivan" and ids["Zhang Wei"] == "zhangwei"


def test_summary_tells_of_unfinished_writes_and_repair_completes_them(tmp_path: Path):
    """A write a crash left pending (staged, LightRAG never written) is reported and repaired."""
    data_dir = tmp_path / "kb"
    text = (FIXTURES / "jane-doe.md").read_text()

    async def crash_after_staging() -> None:
        settings = Settings(data_dir=data_dir, embedder="hashing")
        async with open_knowledge_base(settings, as_of=AS_OF) as kb:
            doc = analyze_document(
                text,
                document_id="jane",
                source_file="jane.md",
                document_type=DocumentType.CV,
                vocabulary=load_vocabulary(),
                as_of=AS_OF,
            )
            await kb.store.stage("default", [(doc.record, text)])

    asyncio.run(crash_after_staging())
    summary = _run("summary", data_dir=data_dir)
    assert "unfinished writes: 1 (jane)" in summary.stdout
    assert "talentrag repair" in summary.stdout

    repaired = _run("repair", data_dir=data_dir)
    assert repaired.returncode == 0, repaired.stderr
    assert "1 unfinished writes completed: jane" in repaired.stdout
    assert "unfinished" not in _run("summary", data_dir=data_dir).stdout
    assert _run("candidate", "jane", data_dir=data_dir).returncode == 0
    assert "no unfinished writes" in _run("repair", "--drop", data_dir=data_dir).stdout


def test_id_and_replace_make_a_replacement_explicit(tmp_path: Path):
    thomas, maya = tmp_path / "a" / "CV.txt", tmp_path / "b" / "cv.txt"
    thomas.parent.mkdir()
    maya.parent.mkdir()
    thomas.write_text("Thomas Baker\nSenior accountant since 2010. Skills: IFRS, Excel.")
    maya.write_text("Maya Patel\nData engineer, 2019 - present. Skills: Python, Spark.")
    data_dir = tmp_path / "kb"
    assert "1 ingested" in _run("ingest", str(thomas), "--quiet", data_dir=data_dir).stdout
    beside = _run("ingest", str(maya), "--quiet", data_dir=data_dir)
    assert "1 ingested" in beside.stdout and "another file already has the id cv" in beside.stdout

    replaced = _run("ingest", str(maya), "--quiet", "--replace", data_dir=data_dir)
    assert "1 updated" in replaced.stdout, replaced.stdout + replaced.stderr
    names = {
        c["id"]: c["name"]
        for c in json.loads(_run("candidates", "--json", data_dir=data_dir).stdout)
    }
    assert names["cv"] == "Maya Patel"

    named = _run("ingest", str(thomas), "--quiet", "--id", "ats-101", data_dir=data_dir)
    assert "1 ingested" in named.stdout and "stored as ats-101" in named.stdout
    assert _run("candidate", "ats-101", "--json", data_dir=data_dir).returncode == 0
    several = _run("ingest", str(tmp_path / "a"), str(maya), "--id", "x", data_dir=data_dir)
    assert several.returncode == 2 and "an id names one file; 2 files" in several.stderr


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def stale_kb(tmp_path: Path) -> tuple[Path, dict, dict]:
    """Two CVs ingested under the packaged vocabulary; (data dir, old env, new env)."""
    old, new = write_vocabularies(tmp_path / "vocabulary")
    data_dir, cvs = tmp_path / "kb", tmp_path / "cvs"
    cvs.mkdir()
    (cvs / "bea.txt").write_text(CVS["bea"])
    (cvs / "ada.txt").write_text(CVS["ada"])
    before = {"TALENTRAG_VOCABULARY_PATH": str(old)}
    ingested = _run("ingest", str(cvs), "--quiet", data_dir=data_dir, env=before)
    assert "2 ingested" in ingested.stdout, ingested.stdout + ingested.stderr
    return data_dir, before, {"TALENTRAG_VOCABULARY_PATH": str(new)}


def test_reindex_brings_a_new_vocabulary_to_stored_cvs(stale_kb):
    data_dir, before, after = stale_kb
    assert "out-of-date" not in _run("summary", data_dir=data_dir, env=before).stdout
    summary = _run("summary", data_dir=data_dir, env=after).stdout
    assert "out-of-date analysis: 2 documents" in " ".join(summary.split())
    stale_search = _run("search", "--required", NEW_SKILL, data_dir=data_dir, env=after)
    assert "run `talentrag reindex`" in " ".join(stale_search.stderr.split())

    reindexed = _run("reindex", data_dir=data_dir, env=after)

    assert reindexed.returncode == 0, reindexed.stderr
    assert "tenant default: 2 documents re-analysed (1 changed), 0 failed" in reindexed.stdout
    record = json.loads(_run("candidate", "bea", "--json", data_dir=data_dir, env=after).stdout)
    assert NEW_SKILL in [s["skill"] for s in record["skills"]]
    search = _run("search", "--required", NEW_SKILL, "--json", data_dir=data_dir, env=after)
    assert search.stderr == ""
    assert [c["candidate_id"] for c in json.loads(search.stdout)["candidates"]] == ["bea"]
    again = _run("reindex", "--all-tenants", data_dir=data_dir, env=after)
    assert "nothing to re-analyse" in again.stdout and again.returncode == 0


def test_serve_reanalyses_before_serving_or_refuses(stale_kb):
    data_dir, _, after = stale_kb
    port = str(_free_port())
    refuse = after | {"TALENTRAG_REINDEX_ON_START": "false"}
    refused = _run("serve", "--port", port, data_dir=data_dir, env=refuse)
    message = " ".join(refused.stderr.split())
    assert refused.returncode == 2 and "2 in tenant default" in message, refused.stderr
    assert "run `talentrag reindex --all-tenants`" in message and "Traceback" not in message

    command = [sys.executable, "-m", "talentrag.cli", "serve", "--port", port]
    environment = os.environ | {"TALENTRAG_EMBEDDER": "hashing"} | after
    server = subprocess.Popen(
        [*command, "--data-dir", str(data_dir)],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        lines = [server.stdout.readline() for _ in range(2)]
    finally:
        server.terminate()
        server.wait(timeout=60)
    assert "tenant default: 2 documents re-analysed (1 changed)" in lines[0], lines
    assert "talentrag serving" in lines[1]
    assert "out-of-date" not in _run("summary", data_dir=data_dir, env=after).stdout
