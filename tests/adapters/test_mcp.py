"""The MCP server driven by the SDK's own client over stdio and Streamable HTTP."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.adapters.conftest import KEY_A, KEY_B, KEY_READ, running_server

FIXTURES = Path(__file__).parents[1] / "fixtures" / "corpus"
TOOLS = {"search_by_skills", "get_candidate", "list_documents", "get_document", "ingest_cv"}


@pytest.fixture(scope="module")
def loaded_dir(tmp_path_factory) -> Path:
    data_dir = tmp_path_factory.mktemp("mcp") / "kb"
    cvs = [str(p) for p in FIXTURES.iterdir() if not p.name.startswith("jd-")]
    env = os.environ | {"TALENTRAG_EMBEDDER": "hashing"}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "talentrag.cli",
            "ingest",
            *cvs,
            "--data-dir",
            str(data_dir),
            "--quiet",
        ],
        check=True,
        env=env,
        capture_output=True,
        timeout=120,
    )
    return data_dir


async def _exercise(session: ClientSession) -> None:
    await session.initialize()
    tools = {t.name: t for t in (await session.list_tools()).tools}
    assert set(tools) == TOOLS
    search = tools["search_by_skills"]
    assert (
        search.annotations.read_only_hint is True
        and tools["get_candidate"].annotations.read_only_hint is True
    )
    assert tools["ingest_cv"].annotations.read_only_hint is False
    assert {"required_skills", "preferred_skills", "experience_level", "top_k"} <= set(
        search.input_schema["properties"]
    )
    assert "candidates" in search.output_schema["properties"] and "Example" in search.description

    found = await session.call_tool(
        "search_by_skills", {"required_skills": ["K8s"], "preferred_skills": ["Terraform"]}
    )
    assert not found.is_error
    assert found.structured_content["candidates"][0]["candidate_id"] == "jane-doe"
    assert "Jane Doe" in found.content[0].text

    empty = await session.call_tool(
        "search_by_skills", {"required_skills": ["NonexistentSkill123"]}
    )
    assert empty.structured_content["candidates"] == []
    assert empty.content[0].text.startswith("No candidates found with required skill combination.")

    profile = await session.call_tool("get_candidate", {"candidate_id": "jane-doe"})
    assert (
        profile.structured_content["level"] == "senior"
        and profile.structured_content["source_file"] == "jane-doe.md"
    )

    missing = await session.call_tool("get_candidate", {"candidate_id": "nobody"})
    assert missing.is_error and "nobody" in missing.content[0].text

    bad = await session.call_tool("search_by_skills", {"required_skills": ["Go"], "top_k": 500})
    assert bad.is_error and "pydantic" not in bad.content[0].text
    assert "top_k" in bad.content[0].text
    nothing = await session.call_tool("search_by_skills", {"required_skills": []})
    assert nothing.is_error and "required_skills" in nothing.content[0].text

    # arguments as models send them: a comma-separated string, a capitalised level
    lenient = await session.call_tool(
        "search_by_skills", {"required_skills": "K8s, AWS", "experience_level": "Senior"}
    )
    assert not lenient.is_error, lenient.content[0].text
    assert lenient.structured_content["candidates"][0]["candidate_id"] == "jane-doe"
    wrong_level = await session.call_tool(
        "search_by_skills", {"required_skills": ["K8s"], "experience_level": "guru"}
    )
    assert wrong_level.is_error and "'junior', 'mid' or 'senior'" in wrong_level.content[0].text
    unknown = await session.call_tool(
        "search_by_skills", {"required_skills": ["K8s"], "location": "Berlin"}
    )
    assert unknown.is_error and "unknown argument 'location'" in unknown.content[0].text


async def test_stdio(loaded_dir: Path):
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "talentrag.cli", "mcp", "--data-dir", str(loaded_dir)],
        env=dict(os.environ) | {"TALENTRAG_EMBEDDER": "hashing"},
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await _exercise(session)
        added = await session.call_tool(
            "ingest_cv",
            {"text": (FIXTURES / "omar-haddad.txt").read_text(), "candidate_id": "omar-2"},
        )
        assert not added.is_error and added.structured_content["id"] == "omar-2"
        again = await session.call_tool("search_by_skills", {"required_skills": ["PyTorch"]})
        found = again.structured_content["candidates"]
        assert "omar-2" in {i for c in found for i in (c["candidate_id"], *c["duplicates"])}


async def test_streamable_http_with_api_keys(loaded_dir: Path, tmp_path: Path):
    keys = json.dumps(
        {KEY_A: "default", KEY_B: "globex", KEY_READ: {"tenant": "default", "scopes": ["read"]}}
    )
    with running_server(loaded_dir, {"TALENTRAG_API_KEYS": keys}) as url:
        assert httpx.post(f"{url}/mcp", json={}).status_code == 401
        client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {KEY_A}"}, timeout=60)
        async with (
            streamable_http_client(f"{url}/mcp", http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await _exercise(session)
        other = httpx2.AsyncClient(headers={"X-API-Key": KEY_B}, timeout=60)
        async with (
            streamable_http_client(f"{url}/mcp", http_client=other) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            result = await session.call_tool(
                "search_by_skills", {"required_skills": ["Kubernetes"]}
            )
            assert result.structured_content["candidates"] == []  # another tenant sees nothing
        reader = httpx2.AsyncClient(headers={"Authorization": f"Bearer {KEY_READ}"}, timeout=60)
        async with (
            streamable_http_client(f"{url}/mcp", http_client=reader) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            offered = {tool.name for tool in (await session.list_tools()).tools}
            assert offered == TOOLS - {"ingest_cv"}  # a read-only key is not offered writes
            refused = await session.call_tool(
                "ingest_cv", {"text": "Rita Reader\nSkills: Python and Go.", "candidate_id": "rita"}
            )
            assert refused.is_error and "'write' scope" in refused.content[0].text


async def test_stdio_beside_a_running_server_sees_its_writes_and_fails_fast_to_write(
    loaded_dir: Path, tmp_path: Path
):
    """docs/mcp.md's stdio set-up on the data directory a server serves (issue 10, part 5)."""
    data_dir = tmp_path / "shared"
    shutil.copytree(loaded_dir, data_dir)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "talentrag.cli", "mcp", "--data-dir", str(data_dir)],
        env=dict(os.environ) | {"TALENTRAG_EMBEDDER": "hashing"},
    )
    with running_server(data_dir) as url:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            first = await session.call_tool("search_by_skills", {"required_skills": ["PyTorch"]})
            assert "omar-3" not in str(first.structured_content)

            text = (FIXTURES / "omar-haddad.txt").read_text()
            put = httpx.put(f"{url}/v1/candidates/omar-3", json={"text": text}, timeout=60)
            assert put.status_code == 201, put.text

            found = await session.call_tool("search_by_skills", {"required_skills": ["PyTorch"]})
            ids = {
                i
                for c in found.structured_content["candidates"]
                for i in (c["candidate_id"], *c["duplicates"])
            }
            assert "omar-3" in ids  # the session reloaded what the server wrote (a copy of omar)

            started = time.monotonic()
            refused = await session.call_tool("ingest_cv", {"text": text, "candidate_id": "o4"})
            print(f"\nsecond writer refused after {time.monotonic() - started:.2f} s")
            assert refused.is_error
            message = refused.content[0].text
            assert "another process is writing" in message and "POST /v1/ingest-jobs" in message
            assert "Traceback" not in message and "\n" not in message.strip()
