"""The /mcp endpoint is built by its first request, not at start-up (``deferred_mcp``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Route

from talentrag.adapters.http import deferred_mcp
from talentrag.adapters.http.deferred_mcp import MCP_PATH, DeferredMCP
from talentrag.config import Settings

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
HEADERS = {"Accept": "application/json, text/event-stream"}


def _endpoint(tmp_path: Path) -> DeferredMCP:
    def no_service():  # initialize needs no application
        raise AssertionError("initialize must not reach the application")

    return DeferredMCP(Settings(data_dir=tmp_path), no_service, body_limit=1 << 20)


def _client(mcp: DeferredMCP, **kwargs: bool) -> httpx.AsyncClient:
    app = Starlette(routes=[Route(MCP_PATH, endpoint=mcp)])
    transport = httpx.ASGITransport(app=app, **kwargs)
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000")


async def test_the_first_mcp_request_builds_the_server_once(tmp_path: Path):
    mcp = _endpoint(tmp_path)
    async with mcp.running(), _client(mcp) as client:
        assert not mcp.started  # nothing built at start-up
        first, second = await asyncio.gather(
            client.post(MCP_PATH, json=INITIALIZE, headers=HEADERS),
            client.post(MCP_PATH, json=INITIALIZE, headers=HEADERS),
        )
        assert mcp.started
        assert first.status_code == second.status_code == 200, first.text
        assert '"serverInfo"' in first.text and '"talentrag"' in first.text
        # the Host check of the SDK applies as before
        refused = await client.post(
            MCP_PATH, json=INITIALIZE, headers=HEADERS | {"Host": "evil.example"}
        )
        assert refused.status_code == 421
    assert mcp._task is not None and mcp._task.done()  # stopped with the app


async def test_an_mcp_server_that_cannot_be_built_fails_its_requests_not_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(deferred_mcp, "MCP_MODULE", "talentrag.adapters.no_such_module")
    mcp = _endpoint(tmp_path)
    async with mcp.running(), _client(mcp, raise_app_exceptions=True) as client:
        with pytest.raises(ImportError):
            await client.post(MCP_PATH, json=INITIALIZE, headers=HEADERS)


async def test_mcp_requests_outside_the_app_s_life_are_refused(tmp_path: Path):
    async with _client(_endpoint(tmp_path), raise_app_exceptions=True) as client:
        with pytest.raises(RuntimeError, match="only while the app runs"):
            await client.post(MCP_PATH, json=INITIALIZE, headers=HEADERS)
