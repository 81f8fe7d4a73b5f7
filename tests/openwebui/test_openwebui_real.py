"""A real OpenWebUI 0.12.4 using talentrag, three ways, driven by a scripted model.

Everything is real except the language model: a real `talentrag serve` with API keys
over a small corpus ingested by the CLI, and a real `open-webui serve` (its own venv,
offline, fresh data directory). The model is a tiny OpenAI-compatible server whose
first answer calls the search tool OpenWebUI offered it and whose second answer echoes
the tool result it was given. So every chat shows what OpenWebUI offered the model,
what talentrag answered, and that OpenWebUI really ran the tool.

Paths: (a) the tool file (Workspace -> Tools, Valves), (b) the read-only OpenAPI tool
server at /tools, (c) MCP (Streamable HTTP at /mcp); both servers are registered the
way the admin page does it (verify, then save the connections). Each chat uses
OpenWebUI's default "native" function calling through a saved chat, as the web page
does. Run with `make test-openwebui` (it builds .venv-openwebui).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from aiohttp import web

from tests.conftest import AS_OF

pytestmark = pytest.mark.openwebui

ROOT = Path(__file__).parents[2]
COMPOSE = ROOT / "compose" / "docker-compose.yml"
TOOL_FILE = ROOT / "services" / "talentrag" / "adapters" / "openwebui_tool.py"
FIXTURES = ROOT / "tests" / "fixtures" / "corpus"
CVS = ["jane-doe.md", "omar-haddad.txt", "tom-baker.txt", "lena-fischer.md", "maria-santos.txt"]
OPENWEBUI_BIN = os.environ.get("TALENTRAG_OPENWEBUI_BIN", "")
TALENTRAG_BIN = Path(sys.executable).with_name("talentrag")

WRITE_KEY = "owui-test-write-key-0123456789"
READ_KEY = "owui-test-read-only-key-0123456789"
MODEL = "scripted-recruiter"
SEARCH_ARGS = {"required_skills": ["Kubernetes", "AWS"], "preferred_skills": ["Terraform"]}
SEARCH_TOOLS = ("search_candidates_by_skills", "search_candidates", "search_by_skills")
# Any of these in a tool name means it can change data (talentrag's HTTP and MCP writes).
WRITE_WORDS = ("delete", "upsert", "upload", "ingest", "embedding", "create", "replace", "update")
INTRUDER_CV = (
    "Ivan Intruder\nSenior platform engineer since 2015: Kubernetes, AWS and Terraform "
    "at scale, written by a model that was told it could only read."
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until(ready, what: str, process: subprocess.Popen, log: Path, seconds: float) -> None:
    """Readiness wait for a child process (not an assertion on how long it took)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}:\n{_tail(log)}")
        try:
            if ready():
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"{what} was not ready after {seconds:.0f} s:\n{_tail(log)}")


def _tail(log: Path, lines: int = 40) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


# --- the scripted model -------------------------------------------------------------


@dataclass
class ScriptedModel:
    """An OpenAI-compatible chat server with a script instead of a model.

    Turn 1 (no tool result yet): call the tool named by the user's message
    (``[call: ingest_cv]``) or else the search tool, among the tools OpenWebUI offered,
    with fixed arguments. Turn 2 (a ``tool`` message present): answer with the tool
    results verbatim. Every request is kept for the test to inspect.
    """

    port: int = field(default_factory=_free_port)
    requests: list[dict[str, Any]] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> None:
        started = threading.Event()
        self._loop = asyncio.new_event_loop()

        async def serve() -> None:
            app = web.Application()
            app.router.add_get("/v1/models", self._models)
            app.router.add_post("/v1/chat/completions", self._chat)
            self._runner = web.AppRunner(app)
            await self._runner.setup()
            await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
            started.set()

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            self._loop.run_until_complete(serve())
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        if not started.wait(30):
            raise RuntimeError("the scripted model did not start")

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(30)

    def requests_for(self, marker: str) -> list[dict[str, Any]]:
        """The chat requests of the conversation whose user message contains ``marker``."""
        return [r for r in self.requests if marker in _user_text(r)]

    async def _models(self, _request: web.Request) -> web.Response:
        return web.json_response(
            {"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "tests"}]}
        )

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        messages = body.get("messages", [])
        results = [_text(m.get("content")) for m in messages if m.get("role") == "tool"]
        if results:
            return await self._answer(request, body, {"content": _echo(results)}, "stop")
        wanted = "ingest_cv" if "[call: ingest_cv]" in _user_text(body) else None
        offered = [t["function"]["name"] for t in body.get("tools") or []]
        name = _pick(offered, (wanted,) if wanted else SEARCH_TOOLS)
        if name is None:
            reply = f"NO TOOL: OpenWebUI offered {offered}"
            return await self._answer(request, body, {"content": reply}, "stop")
        arguments = (
            {"text": INTRUDER_CV, "candidate_id": "ivan-intruder"} if wanted else SEARCH_ARGS
        )
        call = {
            "id": f"call_{uuid.uuid4().hex[:12]}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        return await self._answer(request, body, {"tool_calls": [call]}, "tool_calls")

    async def _answer(
        self, request: web.Request, body: dict[str, Any], message: dict[str, Any], finish: str
    ) -> web.StreamResponse:
        base = {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "created": int(time.time())}
        base["model"] = body.get("model", MODEL)
        if not body.get("stream"):
            choice = {
                "index": 0,
                "message": {"role": "assistant", "content": message.get("content"), **message},
                "finish_reason": finish,
            }
            return web.json_response({**base, "object": "chat.completion", "choices": [choice]})
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        delta: dict[str, Any] = {"role": "assistant"}
        if "tool_calls" in message:
            delta["tool_calls"] = [{"index": 0, **message["tool_calls"][0]}]
        else:
            delta["content"] = message["content"]
        for choice in (
            {"index": 0, "delta": delta, "finish_reason": None},
            {"index": 0, "delta": {}, "finish_reason": finish},
        ):
            chunk = {**base, "object": "chat.completion.chunk", "choices": [choice]}
            await response.write(f"data: {json.dumps(chunk)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


def _user_text(body: dict[str, Any]) -> str:
    return "\n".join(
        _text(m.get("content")) for m in body.get("messages", []) if m.get("role") == "user"
    )


def _echo(results: list[str]) -> str:
    return "TOOL RESULT:\n" + "\n---\n".join(results)


def _pick(offered: list[str], wanted: tuple[str, ...]) -> str | None:
    """OpenWebUI prefixes MCP tools with the server id (``talentrag-mcp_search_by_skills``)."""
    for suffix in wanted:
        for name in offered:
            if name == suffix or name.endswith(f"_{suffix}"):
                return name
    return None


# --- the real servers -----------------------------------------------------------------


@dataclass
class Talentrag:
    url: str
    log: Path

    def requests_seen(self, path: str) -> list[str]:
        """Access-log lines (uvicorn, `serve -v`) of requests to ``path``."""
        pattern = re.compile(rf'"[A-Z]+ {re.escape(path)}(\?[^ ]*)? HTTP/[\d.]+" (\d+)')
        return [m.group(0) for m in pattern.finditer(self.log.read_text(errors="replace"))]


@pytest.fixture(scope="module")
def talentrag(tmp_path_factory) -> Iterator[Talentrag]:
    folder = tmp_path_factory.mktemp("talentrag")
    corpus = folder / "cvs"
    corpus.mkdir()
    for name in CVS:
        shutil.copy(FIXTURES / name, corpus / name)
    data_dir = folder / "kb"
    subprocess.run(
        [
            TALENTRAG_BIN,
            "ingest",
            corpus,
            "--data-dir",
            data_dir,
            "--quiet",
            "--as-of",
            AS_OF.isoformat(),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    keys = {WRITE_KEY: "default", READ_KEY: {"tenant": "default", "scopes": ["read"]}}
    port = _free_port()
    log = folder / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [TALENTRAG_BIN, "serve", "-v", "--port", str(port), "--data-dir", data_dir],
            env=os.environ | {"TALENTRAG_API_KEYS": json.dumps(keys)},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until(
            lambda: httpx.get(f"{url}/health", timeout=2).status_code == 200,
            "talentrag serve",
            process,
            log,
            120,
        )
        yield Talentrag(url, log)
    finally:
        _stop(process)


@pytest.fixture(scope="module")
def model() -> Iterator[ScriptedModel]:
    scripted = ScriptedModel()
    scripted.start()
    yield scripted
    scripted.stop()


@dataclass
class OpenWebUI:
    url: str
    token: str
    log: Path

    def call(self, method: str, path: str, body: Any = None, timeout: float = 120) -> Any:
        response = httpx.request(
            method,
            self.url + path,
            json=body,
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=timeout,
        )
        assert response.status_code == 200, (
            f"{method} {path}: {response.status_code} {response.text}"
        )
        return response.json()


@pytest.fixture(scope="module")
def openwebui(model: ScriptedModel, tmp_path_factory) -> Iterator[OpenWebUI]:
    if not OPENWEBUI_BIN:
        pytest.fail("set TALENTRAG_OPENWEBUI_BIN (make test-openwebui does)")
    folder = tmp_path_factory.mktemp("openwebui")
    port = _free_port()
    env = os.environ | {
        "DATA_DIR": str(folder / "data"),
        "WEBUI_AUTH": "False",
        "WEBUI_SECRET_KEY": "talentrag-openwebui-test",
        "OFFLINE_MODE": "true",
        "HF_HUB_OFFLINE": "1",
        "ENABLE_OLLAMA_API": "false",
        "OPENAI_API_BASE_URL": model.url,
        "OPENAI_API_KEY": "scripted",
        "RAG_EMBEDDING_ENGINE": "openai",
        "BYPASS_EMBEDDING_AND_RETRIEVAL": "true",
        "ENABLE_TOOL_SERVERS": "true",
        "ENABLE_VERSION_UPDATE_CHECK": "false",
    }
    log = folder / "open-webui.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [OPENWEBUI_BIN, "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=folder,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until(
            lambda: httpx.get(f"{url}/health", timeout=2).status_code == 200,
            "open-webui serve",
            process,
            log,
            180,
        )
        # With WEBUI_AUTH=False any sign-in is the admin (the form still needs both fields).
        signin = httpx.post(
            f"{url}/api/v1/auths/signin", json={"email": "", "password": ""}, timeout=30
        )
        assert signin.status_code == 200, signin.text
        yield OpenWebUI(url, signin.json()["token"], log)
    finally:
        _stop(process)


def _chat(openwebui: OpenWebUI, tool_ids: list[str], prompt: str) -> dict[str, Any]:
    """One chat turn as the web page sends it (a new saved chat, native function calling);
    returns the assistant message OpenWebUI stored."""
    user_id, assistant_id = str(uuid.uuid4()), str(uuid.uuid4())
    body = {
        "model": MODEL,
        "stream": True,
        "messages": [{"role": "user", "content": prompt}],
        "tool_ids": tool_ids,
        "parent_id": None,
        "id": assistant_id,
        "user_message": {
            "id": user_id,
            "parentId": None,
            "childrenIds": [],
            "role": "user",
            "content": prompt,
            "models": [MODEL],
            "timestamp": int(time.time()),
        },
    }
    with httpx.stream(
        "POST",
        f"{openwebui.url}/api/chat/completions",
        json=body,
        headers={"Authorization": f"Bearer {openwebui.token}"},
        timeout=300,
    ) as response:
        raw = response.read().decode()
    assert response.status_code == 200, raw
    return {"response": raw, "assistant_id": assistant_id}


def _stored_answer(openwebui: OpenWebUI, assistant_id: str) -> dict[str, Any]:
    """The assistant message as OpenWebUI saved it in the chat."""
    for chat in openwebui.call("GET", "/api/v1/chats/"):
        history = openwebui.call("GET", f"/api/v1/chats/{chat['id']}")["chat"]["history"]
        if assistant_id in history["messages"]:
            return history["messages"][assistant_id]
    raise AssertionError(f"OpenWebUI saved no message {assistant_id}")


@dataclass
class Chat:
    """One chat as the scripted model and OpenWebUI saw it."""

    offered: list[str]  # tool names OpenWebUI offered the model
    offered_specs: list[dict[str, Any]]
    tool_results: list[str]  # what OpenWebUI handed back to the model after running the tool
    answer: dict[str, Any]  # the assistant message OpenWebUI saved


def _run_chat(openwebui: OpenWebUI, model: ScriptedModel, tool_ids: list[str], prompt: str) -> Chat:
    marker = f"[chat {uuid.uuid4().hex[:8]}]"
    assistant_id = _chat(openwebui, tool_ids, f"{prompt} {marker}")["assistant_id"]
    requests = model.requests_for(marker)
    assert requests, f"OpenWebUI never called the model:\n{_tail(openwebui.log)}"
    specs = [t["function"] for t in requests[0].get("tools") or []]
    results = [
        _text(m.get("content"))
        for r in requests
        for m in r.get("messages", [])
        if m.get("role") == "tool"
    ]
    return Chat([s["name"] for s in specs], specs, results, _stored_answer(openwebui, assistant_id))


def _write_tools(names: list[str]) -> list[str]:
    return [n for n in names if any(word in n.lower() for word in WRITE_WORDS)]


def _assert_talentrag_answered(chat: Chat) -> None:
    """Jane Doe is the one Kubernetes + AWS candidate of the corpus: only talentrag knows."""
    assert len(chat.tool_results) == 1, chat.tool_results
    (result,) = chat.tool_results
    assert "jane-doe" in result and "Jane Doe" in result and "jane-doe.md" in result, result
    # the second turn went through: OpenWebUI saved the model's echo of the tool result
    assert chat.answer["done"] is True and not chat.answer.get("error"), chat.answer
    assert (
        chat.answer["content"].startswith("TOOL RESULT:") and "jane-doe" in chat.answer["content"]
    )


@pytest.fixture(scope="module")
def tool_file(openwebui: OpenWebUI, talentrag: Talentrag) -> str:
    """Workspace -> Tools -> Create: the file pasted and saved; then its Valves."""
    created = openwebui.call(
        "POST",
        "/api/v1/tools/create",
        {
            "id": "talentrag_search",
            "name": "talentrag candidate search",
            "content": TOOL_FILE.read_text(),
            "meta": {"description": "Find candidates by skills in talentrag"},
        },
    )
    assert created["id"] == "talentrag_search"
    valves = openwebui.call(
        "POST",
        "/api/v1/tools/id/talentrag_search/valves/update",
        {"service_url": talentrag.url, "api_key": READ_KEY},
    )
    assert valves["service_url"] == talentrag.url and valves["api_key"] == READ_KEY
    return "talentrag_search"


def _compose_connections(talentrag: Talentrag) -> list[dict[str, Any]]:
    """The TOOL_SERVER_CONNECTIONS of compose/docker-compose.yml, aimed at this server."""
    compose = yaml.safe_load(COMPOSE.read_text())
    text = compose["services"]["open-webui"]["environment"]["TOOL_SERVER_CONNECTIONS"]
    text = text.replace("${TALENTRAG_ASSISTANT_KEY}", READ_KEY)
    return json.loads(text.replace("http://talentrag:8000", talentrag.url))


@pytest.fixture(scope="module")
def tool_servers(openwebui: OpenWebUI, talentrag: Talentrag) -> dict[str, dict[str, Any]]:
    """Admin Panel -> Settings -> Integrations -> External Tool Servers: each connection
    verified (the modal's check), then all saved. The connections are compose's (MCP with
    a function filter list, and the /tools OpenAPI server, both with the read-only key),
    plus the MCP one again without the filter list."""
    connections = _compose_connections(talentrag)
    (mcp,) = [c for c in connections if c["type"] == "mcp"]
    unfiltered = {**mcp, "config": {"enable": True}}
    unfiltered["info"] = {**mcp["info"], "id": "talentrag-mcp-all"}
    connections.append(unfiltered)
    verified = {}
    for connection in connections:
        verified[connection["info"]["id"]] = openwebui.call(
            "POST", "/api/v1/configs/tool_servers/verify", connection
        )
    saved = openwebui.call(
        "POST", "/api/v1/configs/tool_servers", {"TOOL_SERVER_CONNECTIONS": connections}
    )
    assert len(saved["TOOL_SERVER_CONNECTIONS"]) == 3
    return verified


def test_tool_file(openwebui, model, talentrag, tool_file):
    searches = len(talentrag.requests_seen("/v1/candidates/search"))
    chat = _run_chat(openwebui, model, [tool_file], "Who has Kubernetes and AWS, Terraform a plus?")

    assert sorted(chat.offered) == ["list_job_descriptions", "search_candidates_by_skills"]
    (spec,) = [s for s in chat.offered_specs if s["name"] == "search_candidates_by_skills"]
    assert set(spec["parameters"]["properties"]) == {
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
    _assert_talentrag_answered(chat)
    assert "| 1 | Jane Doe (`jane-doe`) | senior" in chat.tool_results[0]  # the Markdown table
    seen = talentrag.requests_seen("/v1/candidates/search")
    assert len(seen) == searches + 1 and seen[-1].endswith(" 200"), seen
    # the tool's status events reached the chat
    assert [s["description"] for s in chat.answer["statusHistory"]] == [
        "Searching candidates in talentrag...",
        "Found 1 candidate",
    ]


def test_openapi_tool_server(openwebui, model, talentrag, tool_servers):
    spec = tool_servers["talentrag-openapi"]  # verify returns the /tools/openapi.json it read
    operations = {op["operationId"] for path in spec["paths"].values() for op in path.values()}
    assert operations == {
        "search_candidates",
        "get_candidate",
        "list_candidates",
        "list_documents",
        "get_document",
    }
    searches = len(talentrag.requests_seen("/tools/search"))

    chat = _run_chat(openwebui, model, ["server:talentrag-openapi"], "Who has Kubernetes and AWS?")

    assert sorted(chat.offered) == [
        "get_candidate",
        "get_document",
        "list_candidates",
        "list_documents",
        "search_candidates",
    ]
    assert _write_tools(chat.offered) == []
    assert all("tenant" not in s["parameters"].get("properties", {}) for s in chat.offered_specs)
    _assert_talentrag_answered(chat)
    assert json.loads(chat.tool_results[0])["candidates"][0]["candidate_id"] == "jane-doe"
    seen = talentrag.requests_seen("/tools/search")
    assert len(seen) == searches + 1 and seen[-1].endswith(" 200"), seen


def test_mcp_as_compose_configures_it(openwebui, model, talentrag, tool_servers):
    listed = [s["name"] for s in tool_servers["talentrag-mcp"]["specs"]]
    # the read-only key is not offered talentrag's write tool at all
    assert sorted(listed) == ["get_candidate", "get_document", "list_documents", "search_by_skills"]
    calls = len(talentrag.requests_seen("/mcp"))

    chat = _run_chat(openwebui, model, ["server:mcp:talentrag-mcp"], "Who has Kubernetes and AWS?")

    # compose's function filter list leaves ingest_cv out of what the model gets
    assert sorted(chat.offered) == [
        "talentrag-mcp_get_candidate",
        "talentrag-mcp_search_by_skills",
    ]
    assert _write_tools(chat.offered) == []
    _assert_talentrag_answered(chat)
    # OpenWebUI 0.12.4 hands the model the text content and the structured result both
    results = json.loads(chat.tool_results[0])["results"]
    assert (
        results[0].startswith("1 of 1 candidate for:")
        and "Jane Doe (jane-doe, senior)" in results[0]
    )
    assert results[1]["candidates"][0]["candidate_id"] == "jane-doe"
    seen = talentrag.requests_seen("/mcp")
    assert len(seen) > calls and all(line.endswith(" 200") for line in seen[calls:]), seen


def test_mcp_without_filter_list_offers_no_write_tool_to_a_read_key(
    openwebui, model, talentrag, tool_servers
):
    """Without a filter list OpenWebUI offers every MCP tool the server lists (and runs them
    without asking anyone); talentrag lists no write tool to a read-only key."""
    search = _run_chat(
        openwebui, model, ["server:mcp:talentrag-mcp-all"], "Who has Kubernetes and AWS?"
    )
    assert sorted(search.offered) == [
        "talentrag-mcp-all_get_candidate",
        "talentrag-mcp-all_get_document",
        "talentrag-mcp-all_list_documents",
        "talentrag-mcp-all_search_by_skills",
    ]
    assert _write_tools(search.offered) == []
    _assert_talentrag_answered(search)
    headers = {"Authorization": f"Bearer {WRITE_KEY}"}
    page = httpx.get(f"{talentrag.url}/v1/candidates", headers=headers, timeout=30).json()
    assert sorted(c["id"] for c in page["data"]) == sorted(Path(name).stem for name in CVS)
