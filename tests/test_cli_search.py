"""`talentrag search` with each query form, and `talentrag documents` (a real process each).

The corpus and what a reader decides from it: tests/adapters/corpus/README.md.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.adapters.conftest import load_recruiter_corpus
from tests.test_cli import _run

WIDE = {"COLUMNS": "250"}  # rich wraps tables to the terminal; a pipe has none
DATA_SCIENTIST = (
    "Data Scientist, Lisbon\n\nWhat you bring\n- 5+ years in analytics, with Python and SQL\n"
    "- Experience training models with PyTorch\n\nBonus points\n- Databricks\n- Tableau\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory) -> Path:
    data_dir = tmp_path_factory.mktemp("cli-search") / "kb"
    load_recruiter_corpus(data_dir)
    return data_dir


def _search(kb: Path, *args: str) -> dict:
    result = _run("search", *args, "--json", data_dir=kb)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _qualifying(answer: dict) -> list[str]:
    return [c["candidate_id"] for c in answer["candidates"] if not c["missing_skills"]]


def _row(output: str, candidate_id: str) -> list[str]:
    """The table row of one candidate, as its cells."""
    (line,) = [line for line in output.splitlines() if f"({candidate_id})" in line]
    return [cell.strip() for cell in line.split("│")[1:-1]]


def test_free_text_query_shows_how_it_was_read(kb: Path):
    query = "senior python developer with kubernetes, terraform a plus"
    result = _run("search", "--query", query, data_dir=kb, env=WIDE)
    assert result.returncode == 0, result.stderr
    assert "read as: required Python, Kubernetes; preferred Terraform; level senior" in (
        result.stdout
    )
    jane = _row(result.stdout, "jane-doe")
    assert jane[0] == "1" and jane[4:6] == ["Python, Kubernetes", "Terraform"]
    assert "sam-lee" not in result.stdout  # mid, not senior


def test_job_description_by_id_and_from_a_file(kb: Path, tmp_path: Path):
    by_id = _search(kb, "--job-description-id", "jd-backend-python")
    assert [c["candidate_id"] for c in by_id["candidates"]] == ["sam-lee", "jane-doe"]
    assert by_id["resolved_request"]["min_years"] == 3

    pasted = tmp_path / "data-scientist.txt"
    pasted.write_text(DATA_SCIENTIST)
    from_file = _search(kb, "--job-description-file", str(pasted))
    assert from_file["resolved_request"]["required_skills"] == ["Python", "SQL", "PyTorch"]
    assert _qualifying(from_file) == ["omar-haddad"]


@pytest.mark.parametrize(
    "levels", [["--level", "mid", "--level", "senior"], ["--level", "mid,senior"]]
)
def test_several_levels(kb: Path, levels: list[str]):
    answer = _search(kb, "--required", "Python", "Kubernetes", *levels)
    assert sorted(_qualifying(answer)) == ["jane-doe", "sam-lee"]


def test_min_years_and_exclude(kb: Path):
    seasoned = _search(kb, "--required", "Python", "--min-years", "6")
    assert sorted(c["candidate_id"] for c in seasoned["candidates"]) == ["jane-doe", "omar-haddad"]
    excluded = _search(kb, "--required", "Python", "--exclude", "PyTorch", "PHP")
    assert [c["candidate_id"] for c in excluded["candidates"]] == ["jane-doe"]


def test_table_shows_partial_and_missing_preferred_apart(kb: Path):
    args = ("search", "--required", "TypeScript", "--preferred", "Jest")
    strict = _run(*args, data_dir=kb, env=WIDE)
    assert "lena-fischer" in strict.stdout and "priya-shah" not in strict.stdout
    result = _run(*args, "--include-partial", data_dir=kb, env=WIDE)
    assert result.returncode == 0, result.stderr
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("┃ #")]
    header = [cell.strip() for cell in line.split("┃")[1:-1]]
    assert header[4:] == [
        "required",
        "preferred",
        "partial",
        "missing required",
        "missing preferred",
    ]
    priya = dict(zip(header, _row(result.stdout, "priya-shah"), strict=True))
    assert priya["required"] == "" and priya["partial"] == "TypeScript ~ Angular"
    tom = dict(zip(header, _row(result.stdout, "tom-baker"), strict=True))
    assert tom["required"] == "TypeScript" and tom["missing preferred"] == "Jest"
    assert tom["missing required"] == "" and tom["partial"] == ""


def test_cursor_pages_through_the_rest(kb: Path):
    args = ("--required", "JavaScript", "--top-k", "2", "--include-partial")
    first = _run("search", *args, data_dir=kb, env=WIDE)
    assert "2 of 3 candidates (2 with every required skill matched)" in first.stdout
    (cursor,) = re.findall(r"--cursor (\S+)", first.stdout)
    second = _search(kb, *args, "--cursor", cursor)
    assert [c["candidate_id"] for c in second["candidates"]] == ["priya-shah"]
    assert second["next_cursor"] is None and second["total"] == 3
    forged = _run("search", "--required", "JavaScript", "--cursor", "forged", data_dir=kb)
    assert forged.returncode == 2 and "cursor is not valid" in forged.stderr


def test_blind(kb: Path):
    args = ("search", "--required", "TypeScript", "--include-partial", "--blind")
    result = _run(*args, data_dir=kb, env=WIDE)
    assert result.returncode == 0, result.stderr
    assert "Candidate 1 (blind-" in result.stdout
    for identity in ("Priya", "Lena", "Tom Baker", "example.com", ".md", ".txt"):
        assert identity not in result.stdout, identity


def test_duplicates_are_one_row(kb: Path):
    answer = _search(kb, "--required", "Nursing")
    ana = [c for c in answer["candidates"] if c["name"] == "Ana Ruiz"]
    assert len(ana) == 1 and len(ana[0]["duplicates"]) == 1


def test_documents_lists_job_descriptions(kb: Path):
    result = _run("documents", "--json", data_dir=kb)
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    assert [d["id"] for d in listed] == ["jd-backend-python", "jd-platform-engineer"]
    assert {d["document_type"] for d in listed} == {"job_description"}
    human = _run("documents", "--type", "job_description", data_dir=kb, env=WIDE).stdout
    assert "jd-backend-python" in human and "--job-description-id" in human


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give required_skills, a free-text query, or a job description"),
        (("--job-description-id", "jane-doe"), "is a CV, not a job description"),
        (("--job-description-id", "jd-nobody"), "no job description 'jd-nobody'"),
        (("--job-description-file", "/does/not/exist.txt"), "no such file"),
        (("--required", "Go", "--level", "guru"), "'junior', 'mid' or 'senior'"),
    ],
)
def test_searches_that_cannot_run_are_one_line(kb: Path, args, message):
    result = _run("search", *args, data_dir=kb)
    assert result.returncode == 2, result.stdout + result.stderr
    assert message in " ".join(result.stderr.split()) and "Traceback" not in result.stderr
