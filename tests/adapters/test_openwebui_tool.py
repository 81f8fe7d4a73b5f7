"""The OpenWebUI tool file: against the real running service, and its spec through
OpenWebUI's own spec-generation code (taken from the open-webui 0.12.4 wheel)."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any, get_type_hints

import pytest
from pydantic import BaseModel, Field, create_model

from tests.adapters.conftest import free_port

TOOL_FILE = Path(__file__).parents[2] / "services" / "talentrag" / "adapters" / "openwebui_tool.py"
FIXTURES = Path(__file__).parents[1] / "fixtures" / "corpus"
OPENWEBUI = "open-webui==0.12.4"
SPEC_FUNCTIONS = [
    "parse_description",
    "parse_docstring",
    "convert_function_to_pydantic_model",
    "clean_properties",
    "clean_openai_tool_schema",
    "get_functions_from_tool",
    "get_tool_specs",
    "resolve_schema",
    "convert_openapi_to_tool_payload",
]


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("talentrag_openwebui_tool", TOOL_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tool_server(server: str) -> str:
    import httpx

    for path in (FIXTURES / "jane-doe.md", FIXTURES / "omar-haddad.txt"):
        httpx.post(
            f"{server}/v1/documents", files={"file": (path.name, path.read_bytes())}, timeout=60
        ).raise_for_status()
    return server


async def test_search_renders_markdown_and_emits_status(tool_server: str):
    tools = load_tool().Tools()
    tools.valves.service_url = tool_server
    events: list[dict] = []

    async def emit(event: dict) -> None:
        events.append(event)

    answer = await tools.search_candidates_by_skills(
        ["K8s"], ["Terraform"], "senior", None, __event_emitter__=emit
    )
    header = "| # | Candidate | Level | Score | Required matched | Preferred matched | Partial | "
    assert header + "Missing required | Missing preferred |" in answer
    assert "Jane Doe (`jane-doe`)" in answer and "K8s" in answer and "> " in answer
    assert [e["data"]["done"] for e in events] == [False, True] and all(
        e["type"] == "status" for e in events
    )
    as_text = await tools.search_candidates_by_skills("K8s, AWS", None, "Senior")  # type: ignore[arg-type]
    assert "Jane Doe (`jane-doe`)" in as_text


async def test_no_match_and_errors_are_readable(tool_server: str):
    tools = load_tool().Tools()
    tools.valves.service_url = tool_server
    assert (await tools.search_candidates_by_skills(["NonexistentSkill123"])).startswith(
        "No candidates found"
    )
    assert "'junior', 'mid' or 'senior'" in await tools.search_candidates_by_skills(
        ["Python"], experience_level="guru"
    )
    assert "422" in await tools.search_candidates_by_skills([])
    tools.valves.service_url = f"http://127.0.0.1:{free_port()}"
    assert "unreachable" in await tools.search_candidates_by_skills(["Python"])


@pytest.fixture(scope="session")
def openwebui_spec_functions(tmp_path_factory) -> dict[str, Any]:
    """OpenWebUI's own get_tool_specs and helpers, lifted from its wheel (its import chain
    needs a database and ~90 packages; these functions need only pydantic and langchain-core)."""
    folder = tmp_path_factory.mktemp("openwebui")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-q", OPENWEBUI, "-d", str(folder)],
        check=True,
        timeout=600,
    )
    (wheel,) = folder.glob("open_webui-*.whl")
    source = zipfile.ZipFile(wheel).read("open_webui/utils/tools.py").decode()
    tree = ast.parse(source)
    wanted = [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name in SPEC_FUNCTIONS
    ]
    assert {n.name for n in wanted} == set(SPEC_FUNCTIONS), "open-webui changed its spec functions"
    constants = [
        node
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(getattr(t, "id", "") == "OPENAPI_HTTP_METHODS" for t in node.targets)
    ]
    wanted = constants + wanted
    for node in wanted:
        node.decorator_list = []
    from langchain_core.utils.function_calling import convert_to_openai_function

    namespace: dict[str, Any] = {
        "__name__": "open_webui.utils.tools",
        "re": re,
        "inspect": inspect,
        "copy": __import__("copy"),
        "Any": Any,
        "get_type_hints": get_type_hints,
        "BaseModel": BaseModel,
        "Field": Field,
        "create_model": create_model,
        "Callable": Any,
        "convert_pydantic_model_to_openai_function_spec": convert_to_openai_function,
    }
    exec(
        compile(ast.Module(body=wanted, type_ignores=[]), "open_webui/utils/tools.py", "exec"),
        namespace,
    )
    return namespace


def test_spec_through_openwebui_logic(openwebui_spec_functions: dict[str, Any]):
    specs = openwebui_spec_functions["get_tool_specs"](load_tool().Tools())
    by_name = {s["name"]: s for s in specs}
    assert set(by_name) == {"search_candidates_by_skills", "list_job_descriptions"}
    spec = by_name["search_candidates_by_skills"]
    assert spec["description"].startswith("Find candidates for a role")
    properties = spec["parameters"]["properties"]
    assert set(properties) == {
        "required_skills",
        "preferred_skills",
        "experience_level",
        "top_k",
        "query",
        "job_description_id",
        "job_description_text",
        "min_years",
        "exclude_skills",
        "cursor",
        "blind",
        "include_partial",
    }
    assert spec["parameters"].get("required", []) == []  # skills, a query or a job description
    assert properties["required_skills"] == properties["exclude_skills"] | {
        "description": properties["required_skills"]["description"]
    }
    assert properties["required_skills"]["type"] == "array"
    assert properties["required_skills"]["items"] == {"type": "string"}
    types = {name: p["type"] for name, p in properties.items()}
    assert types["top_k"] == "integer" and types["min_years"] == "number"
    assert types["blind"] == "boolean" and types["query"] == types["cursor"] == "string"
    assert "K8s" in properties["required_skills"]["description"]
    assert "mid or senior" in properties["experience_level"]["description"]
    assert "list_job_descriptions" in properties["job_description_id"]["description"]
    assert "cursor" in properties["cursor"]["description"]
    listing = by_name["list_job_descriptions"]
    assert "job_description_id" in listing["description"]
    assert listing["parameters"]["properties"] == {}


def test_openapi_import_as_a_tool_server(openwebui_spec_functions: dict[str, Any], server: str):
    import httpx

    tools = openwebui_spec_functions["convert_openapi_to_tool_payload"](
        httpx.get(f"{server}/openapi.json").json()
    )
    by_name = {t["name"]: t for t in tools}
    search = by_name["search_by_skills"]
    assert {
        "required_skills",
        "preferred_skills",
        "experience_level",
        "top_k",
        "query",
        "job_description_id",
        "cursor",
    } <= set(search["parameters"]["properties"])
    assert "required_skills" not in search["parameters"].get("required", [])
    assert {"get_candidate", "list_candidates", "upsert_candidate"} <= set(by_name)
    assert {"list_documents", "get_document"} <= set(by_name)
    assert by_name["get_candidate"]["parameters"]["required"] == ["candidate_id"]
