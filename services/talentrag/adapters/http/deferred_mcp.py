"""The /mcp endpoint, built on the first MCP request rather than before the server listens.

Importing the MCP SDK (its protocol types are hundreds of pydantic models) took
0.8-1.4 s of every ``talentrag serve`` start, and no search needs it. Built in the
background right after start-up instead, the import took the GIL from the first
searches (0.2 s became 0.5-0.7 s), so the first MCP request builds it: the import in
a thread (searches keep being answered), then the server and its session manager on
the event loop. That request waits about a second, once per process.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Receive, Scope, Send

from talentrag.config import Settings

if TYPE_CHECKING:
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    from talentrag.application import TalentService

log = logging.getLogger(__name__)

MCP_PATH = "/mcp"
MCP_MODULE = "talentrag.adapters.mcp"
"""What the first request imports (the SDK comes with it)."""


class DeferredMCP:
    """An ASGI endpoint for /mcp: builds the MCP app on first use, then forwards to it."""

    def __init__(
        self, settings: Settings, service_of: Callable[[], TalentService], body_limit: int
    ):
        self._settings = settings
        self._service_of = service_of
        self._body_limit = body_limit
        self._app: asyncio.Future[ASGIApp] | None = None
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def started(self) -> bool:
        """Whether an MCP request came and the server is built (or being built)."""
        return self._task is not None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one /mcp request; the first one builds the server, others wait for it."""
        if self._app is None or self._stop is None:
            raise RuntimeError("the MCP endpoint is served only while the app runs")
        if self._task is None:
            self._task = asyncio.create_task(self._run(self._app, self._stop), name="mcp-server")
        app = await asyncio.shield(self._app)  # a cancelled request leaves the build alone
        await app(scope, receive, send)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Serve /mcp for the block (the app's life); stop the MCP server at its end."""
        self._app = asyncio.get_running_loop().create_future()
        self._stop = asyncio.Event()
        try:
            yield
        finally:
            self._stop.set()
            if self._task is not None:
                await self._task  # the session manager exits in the task that entered it

    async def _run(self, app: asyncio.Future[ASGIApp], stop: asyncio.Event) -> None:
        try:
            # the import is the cost, and it needs no event loop; building is quick
            await asyncio.to_thread(importlib.import_module, MCP_MODULE)
            http_app, session_manager = self._build()
        except Exception as error:
            log.exception("the MCP endpoint could not be built")
            app.set_exception(error)
            return
        async with session_manager.run():
            app.set_result(http_app)
            await stop.wait()

    def _build(self) -> tuple[ASGIApp, StreamableHTTPSessionManager]:
        from mcp.server.transport_security import TransportSecuritySettings

        from talentrag.adapters.mcp import build_mcp_server

        settings = self._settings
        server = build_mcp_server(self._service_of)
        app = server.streamable_http_app(
            streamable_http_path=MCP_PATH,
            # replicas over PostgreSQL: any of them answers any MCP request (no session state)
            stateless_http=bool(settings.database_url),
            # the guard's limit applies (problem+json 413), not the SDK's own 4 MiB
            max_request_body_size=self._body_limit,
            transport_security=TransportSecuritySettings(
                allowed_hosts=settings.mcp_allowed_hosts,
                allowed_origins=settings.mcp_allowed_origins,
            ),
        )
        (route,) = [r for r in app.routes if getattr(r, "path", None) == MCP_PATH]
        endpoint: ASGIApp = route.endpoint  # type: ignore[attr-defined]
        return endpoint, server.session_manager
