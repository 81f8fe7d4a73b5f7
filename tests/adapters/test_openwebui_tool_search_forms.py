"""Each search a recruiter runs, through the OpenWebUI tool file against a real server.

Same hand-written corpus and outcomes as test_http_search_forms.py; here the Markdown a
recruiter reads in the chat.
"""

from __future__ import annotations

import re

from tests.adapters.test_openwebui_tool import load_tool


def _tools(url: str):
    tools = load_tool().Tools()
    tools.valves.service_url = url
    return tools


def _rows(markdown: str) -> dict[str, dict[str, str]]:
    """The candidate table, by candidate id: column name -> cell."""
    lines = [line for line in markdown.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = {}
    for line in lines[2:]:
        cells = dict(
            zip(header, (cell.strip() for cell in line.strip("|").split("|")), strict=True)
        )
        (candidate_id,) = re.findall(r"`([^`]+)`", cells["Candidate"])[:1]
        rows[candidate_id] = cells
    return rows


async def test_free_text_query(recruiter_server: str):
    answer = await _tools(recruiter_server).search_candidates_by_skills(
        query="senior python developer with kubernetes, terraform a plus"
    )
    assert (
        "Read the request as: required **Python, Kubernetes**; preferred Terraform; level senior"
        in answer
    )
    rows = _rows(answer)
    assert next(iter(rows)) == "jane-doe" and "sam-lee" not in rows
    jane = rows["jane-doe"]
    assert jane["Required matched"] == "Python, Kubernetes" and jane["Missing required"] == "-"
    assert jane["Preferred matched"] == "Terraform"
    assert "(showing 1 of 1 candidate)" in answer.splitlines()[0]


async def test_job_descriptions_are_listed_then_searched_by_id(recruiter_server: str):
    tools = _tools(recruiter_server)
    listed = await tools.list_job_descriptions()
    assert "| `jd-backend-python` | job description |" in listed
    assert "| `jd-platform-engineer` | job description |" in listed
    assert "jane-doe" not in listed  # CVs are never listed as documents

    answer = await tools.search_candidates_by_skills(job_description_id="jd-backend-python")
    assert "required **Python, Django, Docker**; preferred Kubernetes, Celery" in answer
    assert "at least 3 years" in answer
    rows = _rows(answer)
    assert list(rows) == ["sam-lee", "jane-doe"]
    assert rows["jane-doe"]["Missing preferred"] == "Celery"
    assert rows["sam-lee"]["Missing preferred"] == "-"

    wrong = await tools.search_candidates_by_skills(job_description_id="jane-doe")
    assert wrong.startswith("talentrag could not search: 422") and "is a CV" in wrong
    unknown = await tools.search_candidates_by_skills(job_description_id="jd-nobody-wrote")
    assert "404" in unknown and "jd-nobody-wrote" in unknown


async def test_pasted_job_description(recruiter_server: str):
    text = (
        "Data Scientist, Lisbon\n\nWhat you bring\n- 5+ years in analytics, with Python and SQL\n"
        "- Experience training models with PyTorch\n\nBonus points\n- Databricks\n- Tableau\n"
    )
    answer = await _tools(recruiter_server).search_candidates_by_skills(job_description_text=text)
    assert "required **Python, SQL, PyTorch**" in answer and "at least 5 years" in answer
    rows = _rows(answer)
    assert next(iter(rows)) == "omar-haddad"
    assert rows["omar-haddad"]["Missing required"] == "-"


async def test_levels_years_and_exclusions(recruiter_server: str):
    tools = _tools(recruiter_server)
    both = await tools.search_candidates_by_skills(["Python", "Kubernetes"], None, "mid or senior")
    full = [i for i, row in _rows(both).items() if row["Missing required"] == "-"]
    assert sorted(full) == ["jane-doe", "sam-lee"]
    mid = await tools.search_candidates_by_skills(["Python", "Kubernetes"], None, "mid")
    assert list(_rows(mid)) == ["sam-lee"]
    seasoned = await tools.search_candidates_by_skills(["Python"], min_years=6)
    assert sorted(_rows(seasoned)) == ["jane-doe", "omar-haddad"]
    excluded = await tools.search_candidates_by_skills(["Python"], exclude_skills=["PyTorch"])
    assert sorted(_rows(excluded)) == ["jane-doe", "sam-lee"]
    as_text = await tools.search_candidates_by_skills("Python", exclude_skills="PHP, PyTorch")  # type: ignore[arg-type]
    assert sorted(_rows(as_text)) == ["jane-doe"]
    wrong = await tools.search_candidates_by_skills(["Python"], experience_level="guru")
    assert "422" in wrong and "'junior', 'mid' or 'senior'" in wrong


async def test_partial_column_names_the_stand_in(recruiter_server: str):
    tools = _tools(recruiter_server)
    strict = await tools.search_candidates_by_skills(["TypeScript"], ["Jest"])
    assert list(_rows(strict)) == ["lena-fischer", "tom-baker"]
    answer = await tools.search_candidates_by_skills(["TypeScript"], ["Jest"], include_partial=True)
    assert "showing 3 of 3 candidates; 2 with every required skill matched" in answer
    rows = _rows(answer)
    priya = rows["priya-shah"]
    assert priya["Partial"] == "TypeScript ~ Angular"
    assert priya["Required matched"] == "-" and priya["Missing required"] == "-"
    assert rows["tom-baker"]["Missing preferred"] == "Jest"
    assert rows["tom-baker"]["Partial"] == "-"


async def test_cursor_shows_the_rest(recruiter_server: str):
    tools = _tools(recruiter_server)
    arguments = {"top_k": 2, "include_partial": True}
    first = await tools.search_candidates_by_skills(["JavaScript"], **arguments)
    assert "showing 2 of 3 candidates" in first.splitlines()[0]
    (cursor,) = re.findall(r"cursor `([^`]+)`", first)
    second = await tools.search_candidates_by_skills(["JavaScript"], **arguments, cursor=cursor)
    assert list(_rows(second)) == ["priya-shah"] and "cursor `" not in second
    assert sorted([*_rows(first), *_rows(second)]) == ["lena-fischer", "priya-shah", "tom-baker"]
    forged = await tools.search_candidates_by_skills(["JavaScript"], **arguments, cursor="forged")
    assert forged.startswith("talentrag could not search: 400") and "cursor" in forged


async def test_blind_by_argument_and_by_valve(recruiter_server: str):
    tools = _tools(recruiter_server)
    answer = await tools.search_candidates_by_skills(
        ["TypeScript"], include_partial=True, blind=True
    )
    assert "Candidate 1 (`blind-" in answer
    for identity in ("Priya", "Lena", "Tom Baker", ".md", ".txt"):
        assert identity not in answer, identity
    tools.valves.always_blind = True  # an admin's fair-screening policy: the model cannot lift it
    forced = await tools.search_candidates_by_skills(
        ["TypeScript"], include_partial=True, blind=False
    )
    assert "Candidate 1 (`blind-" in forced and "Lena" not in forced


async def test_one_person_twice_is_one_row(recruiter_server: str):
    answer = await _tools(recruiter_server).search_candidates_by_skills(["Nursing"])
    rows = [line for line in answer.splitlines() if "Ana Ruiz" in line and line.startswith("|")]
    assert len(rows) == 1 and "same person as `ana-ruiz" in rows[0]
    assert "showing 2 of 2 candidates" in answer


async def test_nothing_to_search_for_says_what_to_give(recruiter_server: str):
    answer = await _tools(recruiter_server).search_candidates_by_skills()
    assert answer.startswith("talentrag could not search: 422")
    assert "give required_skills, a free-text query, or a job description" in answer
