"""Each search a recruiter runs, through the real HTTP API, over hand-written CVs.

The corpus is ``tests/fixtures/corpus`` plus ``tests/adapters/corpus`` (its README says
who is who); every expected outcome below is what a reader of those CVs decides.
"""

from __future__ import annotations

import json

import httpx
import pytest

from tests.adapters.test_http_api import _assert_problem

TIMEOUT = 60


def _search(server: str, body: dict) -> dict:
    response = httpx.post(f"{server}/v1/candidates/search", json=body, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    return response.json()


def _ids(answer: dict) -> list[str]:
    return [c["candidate_id"] for c in answer["candidates"]]


def _qualifying(answer: dict) -> list[str]:
    """Candidates with no required skill missing (they are ranked first)."""
    return [c["candidate_id"] for c in answer["candidates"] if not c["missing_skills"]]


def _by_id(answer: dict) -> dict[str, dict]:
    return {c["candidate_id"]: c for c in answer["candidates"]}


def test_free_text_query_is_read_into_skills_and_level(recruiter_server: str):
    answer = _search(
        recruiter_server, {"query": "senior python developer with kubernetes, terraform a plus"}
    )
    resolved = answer["resolved_request"]
    assert resolved["required_skills"] == ["Python", "Kubernetes"]
    assert resolved["preferred_skills"] == ["Terraform"]
    assert resolved["experience_level"] == ["senior"]
    assert answer["request_notes"]  # what was read, in words
    # Jane: senior, Python and Kubernetes (EKS, K8s), Terraform. Sam has both but is mid;
    # Omar, senior, has Python but nothing standing in for Kubernetes.
    assert _ids(answer) == ["jane-doe"] and answer["total"] == answer["total_qualifying"] == 1
    jane = answer["candidates"][0]
    assert jane["matched_required_skills"] == ["Python", "Kubernetes"]
    assert jane["matched_preferred_skills"] == ["Terraform"]


def test_resolved_request_can_be_edited_and_sent_back(recruiter_server: str):
    by_text = _search(recruiter_server, {"query": "python developer with kubernetes"})
    edited = by_text["resolved_request"] | {"experience_level": ["mid"]}
    again = _search(recruiter_server, edited)
    assert _qualifying(again) == ["sam-lee"]


def test_stored_job_description_by_id(recruiter_server: str):
    answer = _search(recruiter_server, {"job_description_id": "jd-backend-python"})
    resolved = answer["resolved_request"]
    assert resolved["required_skills"] == ["Python", "Django", "Docker"]
    assert resolved["preferred_skills"] == ["Kubernetes", "Celery"]
    assert resolved["min_years"] == 3
    # Sam has every requirement and both nice-to-haves; Jane lacks Celery; Omar lacks Django
    assert _ids(answer) == ["sam-lee", "jane-doe"]
    candidates = _by_id(answer)
    assert candidates["jane-doe"]["missing_preferred_skills"] == ["Celery"]
    assert candidates["jane-doe"]["missing_skills"] == []


def test_a_job_description_nobody_fully_meets_lists_the_closest_and_can_be_relaxed(
    recruiter_server: str,
):
    answer = _search(recruiter_server, {"job_description_id": "jd-platform-engineer"})
    resolved = answer["resolved_request"]
    assert {"Kubernetes", "Terraform", "Python", "GitHub Actions"} <= set(
        resolved["required_skills"]
    )
    assert resolved["experience_level"] == ["senior"] and resolved["min_years"] == 6
    # nobody has GitHub Actions (Jane uses GitLab CI): the closest are listed, and said so
    assert answer["total_qualifying"] == 0 and answer["message"]
    jane = answer["candidates"][0]
    assert jane["candidate_id"] == "jane-doe" and jane["missing_skills"] == ["GitHub Actions"]
    relaxed = resolved | {
        "required_skills": [s for s in resolved["required_skills"] if s != "GitHub Actions"]
    }
    again = _search(recruiter_server, relaxed)
    assert _qualifying(again) == ["jane-doe"] and again["total_qualifying"] == 1


def test_pasted_job_description(recruiter_server: str):
    text = (
        "Data Scientist, Lisbon\n\nWhat you bring\n- 5+ years in analytics, with Python and SQL\n"
        "- Experience training models with PyTorch\n\nBonus points\n- Databricks\n- Tableau\n"
    )
    answer = _search(recruiter_server, {"job_description_text": text})
    resolved = answer["resolved_request"]
    assert resolved["required_skills"] == ["Python", "SQL", "PyTorch"]
    assert resolved["preferred_skills"] == ["Databricks", "Tableau"]
    assert resolved["min_years"] == 5
    assert _qualifying(answer) == ["omar-haddad"]
    assert answer["candidates"][0]["matched_preferred_skills"] == ["Databricks", "Tableau"]


@pytest.mark.parametrize("levels", ["mid or senior", ["mid", "senior"], "Mid, Senior"])
def test_several_levels(recruiter_server: str, levels):
    body = {"required_skills": ["Python", "Kubernetes"], "experience_level": levels}
    answer = _search(recruiter_server, body)
    assert sorted(_qualifying(answer)) == ["jane-doe", "sam-lee"]
    assert answer["resolved_request"]["experience_level"] == ["mid", "senior"]
    only_mid = _search(recruiter_server, body | {"experience_level": "mid"})
    assert _ids(only_mid) == ["sam-lee"]


def test_min_years(recruiter_server: str):
    # Jane ~9.8 years, Omar ~7.2, Sam ~4.8
    answer = _search(recruiter_server, {"required_skills": ["Python"], "min_years": 6})
    assert sorted(_ids(answer)) == ["jane-doe", "omar-haddad"]
    assert all(c["years_experience"] >= 6 for c in answer["candidates"])


def test_exclude_skills(recruiter_server: str):
    everyone = _search(recruiter_server, {"required_skills": ["Python"]})
    assert {"jane-doe", "omar-haddad", "sam-lee"} <= set(_ids(everyone))
    answer = _search(
        recruiter_server, {"required_skills": ["Python"], "exclude_skills": ["PyTorch"]}
    )
    assert sorted(_ids(answer)) == ["jane-doe", "sam-lee"]  # Omar trains models in PyTorch
    no_php = _search(recruiter_server, {"required_skills": ["Python"], "exclude_skills": "PHP"})
    assert "sam-lee" not in _ids(no_php)


def test_partial_is_not_a_match_and_missing_preferred_is_apart(recruiter_server: str):
    body = {"required_skills": ["TypeScript"], "preferred_skills": ["Jest"]}
    assert _ids(_search(recruiter_server, body)) == ["lena-fischer", "tom-baker"]
    answer = _search(recruiter_server, body | {"include_partial": True})
    assert answer["total"] == 3 and answer["total_qualifying"] == 2
    candidates = _by_id(answer)
    priya = candidates["priya-shah"]  # Angular only
    assert priya["matched_required_skills"] == [] and priya["missing_skills"] == []
    assert priya["partial_skills"] == [
        {"requested": "TypeScript", "required": True, "stand_in": "Angular"}
    ]
    assert candidates["lena-fischer"]["matched_preferred_skills"] == ["Jest"]
    tom = candidates["tom-baker"]
    assert tom["matched_required_skills"] == ["TypeScript"] and tom["missing_skills"] == []
    assert tom["missing_preferred_skills"] == ["Jest"]
    assert _ids(answer)[-1] == "priya-shah"  # a stand-in ranks below the real thing


def test_cursor_pages_through_every_candidate_with_the_total(recruiter_server: str):
    body = {"required_skills": ["JavaScript"], "top_k": 2, "include_partial": True}
    first = _search(recruiter_server, body)
    # Lena and Tom write TypeScript (implies JavaScript); Priya's Angular stands in
    assert first["total"] == 3 and len(first["candidates"]) == 2 and first["next_cursor"]
    second = _search(recruiter_server, body | {"cursor": first["next_cursor"]})
    assert second["total"] == 3 and second["next_cursor"] is None
    assert sorted(_ids(first) + _ids(second)) == ["lena-fischer", "priya-shah", "tom-baker"]
    assert _ids(second) == ["priya-shah"]

    forged = httpx.post(
        f"{recruiter_server}/v1/candidates/search", json=body | {"cursor": "not-a-cursor"}
    )
    _assert_problem(forged, 400, "cursor")
    elsewhere = httpx.post(
        f"{recruiter_server}/v1/candidates/search",
        json={"required_skills": ["Python"], "cursor": first["next_cursor"]},
        timeout=TIMEOUT,
    )
    _assert_problem(elsewhere, 400, "another search")


def test_blind_withholds_who_the_candidates_are(recruiter_server: str):
    body = {"required_skills": ["TypeScript"], "include_partial": True}
    seen = _search(recruiter_server, body)
    blind = _search(recruiter_server, body | {"blind": True})
    assert [c["match_score"] for c in blind["candidates"]] == [
        c["match_score"] for c in seen["candidates"]
    ]
    assert [c["name"] for c in blind["candidates"]] == ["Candidate 1", "Candidate 2", "Candidate 3"]
    assert all(c["candidate_id"].startswith("blind-") for c in blind["candidates"])
    assert {c["source_file"] for c in blind["candidates"]} == {"[withheld]"}
    text = json.dumps(blind)
    for identity in ("Priya", "Shah", "Lena", "Fischer", "Tom Baker", "example.com", "priya-"):
        assert identity not in text, identity
    # "Priya built the customer portal in Angular ...": the passage stays, her name does not
    angular = [
        e["text"] for c in blind["candidates"] for e in c["evidence"] if "Angular" in e["text"]
    ]
    assert angular and all(t.startswith("[withheld] built") for t in angular)


def test_one_person_uploaded_twice_is_one_result(recruiter_server: str):
    answer = _search(recruiter_server, {"required_skills": ["Nursing"]})
    ana = [c for c in answer["candidates"] if c["name"] == "Ana Ruiz"]
    assert len(ana) == 1 and answer["total"] == 2
    (kept,) = ana
    assert {kept["candidate_id"], *kept["duplicates"]} == {"ana-ruiz", "ana-ruiz-1"}


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"job_description_id": "jd-nobody-wrote"}, 404, "jd-nobody-wrote"),
        ({"job_description_id": "jane-doe"}, 422, "is a CV, not a job description"),
        ({}, 422, "give required_skills, a free-text query, or a job description"),
        ({"preferred_skills": ["Go"]}, 422, "give required_skills"),
        ({"query": "   "}, 422, "give required_skills"),
        ({"query": "someone lovely to work with"}, 422, "names no skill"),
        (
            {"job_description_id": "jd-backend-python", "job_description_text": "Python"},
            422,
            "not both",
        ),
        ({"required_skills": ["Go"], "experience_level": "mid or guru"}, 422, "'junior', 'mid'"),
        ({"required_skills": ["Go"], "min_years": -1}, 422, "min_years"),
    ],
)
def test_searches_that_cannot_run_say_why(recruiter_server: str, body, status, words):
    response = httpx.post(f"{recruiter_server}/v1/candidates/search", json=body, timeout=TIMEOUT)
    _assert_problem(response, status, words)


def test_documents_lists_job_descriptions_never_candidates(recruiter_server: str):
    listed = httpx.get(f"{recruiter_server}/v1/documents").json()
    assert [d["id"] for d in listed["data"]] == ["jd-backend-python", "jd-platform-engineer"]
    assert {d["document_type"] for d in listed["data"]} == {"job_description"}
    assert listed["has_more"] is False and listed["next_cursor"] is None
    backend = listed["data"][0]
    assert {"Python", "Django", "Docker", "Celery"} <= set(backend["skills"])

    ids, cursor = [], None
    while True:
        params = {"limit": 1} | ({"cursor": cursor} if cursor else {})
        page = httpx.get(f"{recruiter_server}/v1/documents", params=params).json()
        ids += [d["id"] for d in page["data"]]
        if not page["has_more"]:
            break
        cursor = page["next_cursor"]
    assert ids == ["jd-backend-python", "jd-platform-engineer"]

    cvs = httpx.get(f"{recruiter_server}/v1/documents", params={"document_type": "cv"}).json()
    assert "jane-doe" in [d["id"] for d in cvs["data"]]
    assert {d["document_type"] for d in cvs["data"]} == {"cv"}
    none = httpx.get(f"{recruiter_server}/v1/documents", params={"document_type": "job_profile"})
    assert none.json()["data"] == []
    _assert_problem(
        httpx.get(f"{recruiter_server}/v1/documents", params={"cursor": "%%%"}), 400, "cursor"
    )
    _assert_problem(
        httpx.get(f"{recruiter_server}/v1/documents", params={"document_type": "memo"}),
        422,
        "document_type",
    )


def test_get_document_of_any_type(recruiter_server: str):
    jd = httpx.get(f"{recruiter_server}/v1/documents/jd-platform-engineer")
    assert jd.status_code == 200 and jd.headers["etag"].startswith('"')
    record = jd.json()
    assert record["document_type"] == "job_description"
    assert {"Kubernetes", "Terraform", "GitHub Actions"} <= {s["skill"] for s in record["skills"]}
    cv = httpx.get(f"{recruiter_server}/v1/documents/jane-doe").json()
    assert cv["document_type"] == "cv" and cv["name"] == "Jane Doe"
    _assert_problem(httpx.get(f"{recruiter_server}/v1/documents/nobody"), 404, "nobody")
    # a job description is a document, never a candidate
    _assert_problem(
        httpx.get(f"{recruiter_server}/v1/candidates/jd-platform-engineer"), 404, "candidate"
    )


def test_tools_surface_searches_and_lists_documents_too(recruiter_server: str):
    found = httpx.post(
        f"{recruiter_server}/tools/search",
        json={"job_description_id": "jd-backend-python"},
        timeout=TIMEOUT,
    )
    assert found.status_code == 200, found.text
    assert _ids(found.json()) == ["sam-lee", "jane-doe"]
    listed = httpx.get(f"{recruiter_server}/tools/documents").json()
    assert [d["id"] for d in listed["data"]] == ["jd-backend-python", "jd-platform-engineer"]
    got = httpx.get(f"{recruiter_server}/tools/documents/jd-backend-python")
    assert got.status_code == 200 and got.json()["document_type"] == "job_description"
    _assert_problem(
        httpx.post(f"{recruiter_server}/tools/search", json={"job_description_id": "sam-lee"}),
        422,
        "is a CV",
    )


def test_openapi_offers_the_new_searches(recruiter_server: str):
    spec = httpx.get(f"{recruiter_server}/openapi.json").json()
    search = spec["paths"]["/v1/candidates/search"]["post"]
    examples = search["requestBody"]["content"]["application/json"]["examples"]
    assert {
        "query",
        "job_description_id",
        "job_description_text",
        "include_partial",
        "next_page",
        "blind",
    } <= set(examples)
    assert "job description" in search["summary"] and "cursor" in search["description"]
    assert spec["paths"]["/v1/documents"]["get"]["operationId"] == "list_documents"
    assert spec["paths"]["/v1/documents/{document_id}"]["get"]["operationId"] == "get_document"
    # every example the document gives is a request the server accepts or refuses cleanly
    for name, example in examples.items():
        response = httpx.post(
            f"{recruiter_server}/v1/candidates/search", json=example["value"], timeout=TIMEOUT
        )
        assert response.status_code in (200, 400), (name, response.text)
