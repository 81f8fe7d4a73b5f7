"""Each search a recruiter runs, through MCP (the SDK's own client over Streamable HTTP).

Same hand-written corpus and outcomes as test_http_search_forms.py; here what the
assistant gets: the structured result and the text it reads.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


@asynccontextmanager
async def _session(url: str) -> AsyncIterator[ClientSession]:
    """A client session, opened and closed within one test's task (anyio's rule)."""
    client = httpx2.AsyncClient(timeout=60)
    async with (
        streamable_http_client(f"{url}/mcp", http_client=client) as (read, write),
        ClientSession(read, write) as opened,
    ):
        await opened.initialize()
        yield opened


async def _search(session: ClientSession, arguments: dict) -> tuple[dict, str]:
    result = await session.call_tool("search_by_skills", arguments)
    assert not result.is_error, result.content[0].text
    return result.structured_content, result.content[0].text


def _qualifying(answer: dict) -> list[str]:
    return [c["candidate_id"] for c in answer["candidates"] if not c["missing_skills"]]


async def test_the_tools_offer_the_new_arguments(recruiter_server: str):
    async with _session(recruiter_server) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert {"list_documents", "get_document"} <= set(tools)
        assert all(tools[n].annotations.read_only_hint for n in ("list_documents", "get_document"))
        properties = tools["search_by_skills"].input_schema["properties"]
        assert {
            "query",
            "job_description_id",
            "job_description_text",
            "min_years",
            "exclude_skills",
            "cursor",
            "blind",
            "include_partial",
        } <= set(properties)
        assert tools["search_by_skills"].input_schema.get("required", []) == []


async def test_free_text_query(recruiter_server: str):
    async with _session(recruiter_server) as session:
        answer, text = await _search(
            session, {"query": "senior python developer with kubernetes, terraform a plus"}
        )
        assert answer["resolved_request"]["required_skills"] == ["Python", "Kubernetes"]
        assert _qualifying(answer) == ["jane-doe"]
        assert text.splitlines()[0].startswith(f"{len(answer['candidates'])} of {answer['total']}")
        assert "Read as: required Python, Kubernetes; preferred Terraform; level senior" in text
        assert "1. Jane Doe (jane-doe, senior)" in text


async def test_job_description_by_id_found_through_list_documents(recruiter_server: str):
    async with _session(recruiter_server) as session:
        listed = await session.call_tool("list_documents", {"document_type": "job_description"})
        assert not listed.is_error, listed.content[0].text
        ids = [d["id"] for d in listed.structured_content["data"]]
        assert ids == ["jd-backend-python", "jd-platform-engineer"]
        document = await session.call_tool("get_document", {"document_id": "jd-backend-python"})
        assert document.structured_content["document_type"] == "job_description"

        answer, text = await _search(session, {"job_description_id": "jd-backend-python"})
        assert [c["candidate_id"] for c in answer["candidates"]] == ["sam-lee", "jane-doe"]
        assert "Read as: required Python, Django, Docker; preferred Kubernetes, Celery" in text
        assert "missing preferred: Celery" in text  # Jane's

        missing = await session.call_tool("get_document", {"document_id": "jd-nobody-wrote"})
        assert missing.is_error and "jd-nobody-wrote" in missing.content[0].text
        wrong = await session.call_tool("search_by_skills", {"job_description_id": "jane-doe"})
        assert wrong.is_error and "is a CV, not a job description" in wrong.content[0].text
        unknown = await session.call_tool("search_by_skills", {"job_description_id": "jd-none"})
        assert unknown.is_error and "jd-none" in unknown.content[0].text


async def test_pasted_job_description(recruiter_server: str):
    async with _session(recruiter_server) as session:
        text = (
            "Data Scientist, Lisbon\n\nWhat you bring\n- 5+ years in analytics, with Python and SQL\n"
            "- Experience training models with PyTorch\n\nBonus points\n- Databricks\n- Tableau\n"
        )
        answer, rendered = await _search(session, {"job_description_text": text})
        assert answer["resolved_request"]["min_years"] == 5
        assert _qualifying(answer) == ["omar-haddad"]
        assert "at least 5 years" in rendered and "Omar Haddad (omar-haddad" in rendered


async def test_levels_years_and_exclusions(recruiter_server: str):
    async with _session(recruiter_server) as session:
        both, _ = await _search(
            session, {"required_skills": "Python, Kubernetes", "experience_level": "mid or senior"}
        )
        assert sorted(_qualifying(both)) == ["jane-doe", "sam-lee"]
        as_list, _ = await _search(
            session, {"required_skills": ["Python", "Kubernetes"], "experience_level": ["mid"]}
        )
        assert [c["candidate_id"] for c in as_list["candidates"]] == ["sam-lee"]
        seasoned, _ = await _search(session, {"required_skills": ["Python"], "min_years": 6})
        assert sorted(c["candidate_id"] for c in seasoned["candidates"]) == [
            "jane-doe",
            "omar-haddad",
        ]
        excluded, _ = await _search(
            session, {"required_skills": ["Python"], "exclude_skills": ["PyTorch"]}
        )
        assert sorted(c["candidate_id"] for c in excluded["candidates"]) == ["jane-doe", "sam-lee"]


async def test_partial_and_missing_preferred_read_as_such(recruiter_server: str):
    async with _session(recruiter_server) as session:
        arguments = {"required_skills": ["TypeScript"], "preferred_skills": ["Jest"]}
        strict, _ = await _search(session, arguments)
        assert "priya-shah" not in str(strict)
        answer, text = await _search(session, arguments | {"include_partial": True})
        priya = next(c for c in answer["candidates"] if c["candidate_id"] == "priya-shah")
        assert priya["matched_required_skills"] == []
        assert [p["stand_in"] for p in priya["partial_skills"]] == ["Angular"]
        block = text[text.index("Priya Shah") :]
        assert "required: -" in block and "partial: TypeScript ~ Angular (partial)" in block
        tom = text[text.index("Tom Baker") :]
        assert tom.splitlines()[2] == "   missing preferred: Jest"  # nothing required missing


async def test_cursor_pages_and_the_text_gives_the_cursor(recruiter_server: str):
    async with _session(recruiter_server) as session:
        arguments = {"required_skills": ["JavaScript"], "top_k": 2, "include_partial": True}
        first, text = await _search(session, arguments)
        assert text.startswith("2 of 3 candidates (2 with every required skill matched)")
        (cursor,) = re.findall(r'cursor "([^"]+)"', text)
        assert cursor == first["next_cursor"]
        second, text = await _search(session, arguments | {"cursor": cursor})
        assert [c["candidate_id"] for c in second["candidates"]] == ["priya-shah"]
        assert second["next_cursor"] is None and "cursor" not in text
        forged = await session.call_tool("search_by_skills", arguments | {"cursor": "forged"})
        assert forged.is_error and "cursor is not valid" in forged.content[0].text


async def test_blind(recruiter_server: str):
    async with _session(recruiter_server) as session:
        answer, text = await _search(
            session, {"required_skills": ["TypeScript"], "include_partial": True, "blind": True}
        )
        assert [c["name"] for c in answer["candidates"]] == [
            "Candidate 1",
            "Candidate 2",
            "Candidate 3",
        ]
        for identity in ("Priya", "Lena", "Tom Baker", "example.com", ".md", ".txt"):
            assert identity not in text and identity not in str(answer), identity


async def test_one_person_twice_is_one_result(recruiter_server: str):
    async with _session(recruiter_server) as session:
        answer, text = await _search(session, {"required_skills": ["Nursing"]})
        ana = [c for c in answer["candidates"] if c["name"] == "Ana Ruiz"]
        assert len(ana) == 1
        (kept,) = ana
        other = ({"ana-ruiz", "ana-ruiz-1"} - {kept["candidate_id"]}).pop()
        assert kept["duplicates"] == [other]
        assert f"same person as: {other}" in text


async def test_nothing_to_search_for_is_one_sentence(recruiter_server: str):
    async with _session(recruiter_server) as session:
        result = await session.call_tool("search_by_skills", {"preferred_skills": ["Go"]})
        assert result.is_error
        message = result.content[0].text
        assert "give required_skills, a free-text query, or a job description" in message
        assert "pydantic" not in message and "\n" not in message.strip()
