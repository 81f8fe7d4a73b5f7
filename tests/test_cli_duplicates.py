"""`talentrag duplicates` and the duplicate lines of `ingest` and `summary` (a real process each)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.test_cli import _run

CVS = Path(__file__).parent / "fixtures" / "duplicates"
UPLOADS = ["jordan-kim.txt", "JORDAN.TXT", "jordan kim (1).txt", "priya-raman.txt"]


@pytest.fixture(scope="module")
def ingested(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("cli-duplicates")
    uploads = root / "uploads"
    uploads.mkdir()
    for name in UPLOADS:
        shutil.copy(CVS / name, uploads / name)
    result = _run("ingest", str(uploads), "--as-of", "2026-11-01", data_dir=root / "kb")
    assert result.returncode == 0, result.stderr
    return root / "kb", result.stdout


def test_ingest_says_which_files_repeat_a_stored_cv(ingested: tuple[Path, str]):
    _, stdout = ingested
    assert "4 files: 4 ingested" in stdout
    assert "2 repeat a CV stored earlier" in stdout
    assert "jordan-kim.txt is the same CV as jordan" in stdout
    assert "jordan kim (1).txt is the same CV as jordan" in stdout
    assert "priya-raman.txt is the same" not in stdout


def test_duplicates_lists_each_group_with_names_and_source_files(ingested: tuple[Path, str]):
    data_dir, _ = ingested
    result = _run("duplicates", "--json", data_dir=data_dir)
    assert result.returncode == 0, result.stderr
    (group,) = json.loads(result.stdout)
    assert [(c["id"], c["source_file"]) for c in group] == [
        ("jordan", "JORDAN.TXT"),
        ("jordan-kim", "jordan-kim.txt"),
        ("jordan-kim-1", "jordan kim (1).txt"),
    ]
    assert {c["name"].lower() for c in group} == {"jordan kim"}

    table = _run("duplicates", data_dir=data_dir)
    assert table.returncode == 0, table.stderr
    assert "jordan kim (1).txt" in table.stdout and "priya" not in table.stdout
    assert "1 group: 2 CVs repeat the first of their group" in table.stdout


def test_summary_counts_repeats_and_another_tenant_has_none(ingested: tuple[Path, str]):
    data_dir, _ = ingested
    summary = _run("summary", data_dir=data_dir)
    assert "duplicates: 2 CVs repeat one stored earlier" in summary.stdout
    empty = _run("duplicates", "--tenant", "other", data_dir=data_dir)
    assert empty.returncode == 0, empty.stderr
    assert "no CV is stored more than once in tenant other" in empty.stdout
