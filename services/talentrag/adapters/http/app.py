"""The FastAPI application: REST for ATS systems and MCP (Streamable HTTP) on one port."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from mcp.server.transport_security import TransportSecuritySettings

from talentrag import __version__
from talentrag.adapters.auth import AuthError, tenant_for
from talentrag.adapters.http import embeddings, routes
from talentrag.adapters.http.errors import ProblemError, install_error_handlers, problem_response
from talentrag.adapters.mcp import build_mcp_server
from talentrag.config import Settings
from talentrag.runtime import open_knowledge_base


def create_app(settings: Settings) -> FastAPI:
    mcp_server = build_mcp_server(lambda: app.state.kb)
    mcp_app = mcp_server.streamable_http_app(
        streamable_http_path="/mcp",
        transport_security=TransportSecuritySettings(
            allowed_hosts=settings.mcp_allowed_hosts, allowed_origins=settings.mcp_allowed_origins
        ),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with open_knowledge_base(settings) as kb, mcp_server.session_manager.run():
            await kb.ingestor.hold_writer_lock()  # the server is the data directory's only writer
            # load the default tenant's graph now, not on the first query
            await kb.graph.rag(settings.tenant)
            app.state.kb = kb
            try:
                yield
            finally:
                kb.ingestor.release_writer_lock()

    app = FastAPI(
        title="talentrag",
        version=__version__,
        summary="Candidate search over a LightRAG knowledge graph of CVs.",
        lifespan=lifespan,
    )
    install_error_handlers(app)

    @app.middleware("http")
    async def guard(request: Request, call_next):  # type: ignore[no-untyped-def]
        """API keys for /mcp; 413 before reading a body that cannot fit."""
        if request.url.path.startswith("/mcp"):
            try:
                tenant_for(settings, request.headers)
            except AuthError as exc:
                title = "Unauthorized" if exc.status == 401 else "Forbidden"
                return problem_response(request, ProblemError(exc.status, title, str(exc)))
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > settings.max_upload_bytes + 64 * 1024:
            error = ProblemError(
                413,
                "Upload too large",
                f"The body exceeds {settings.max_upload_bytes} bytes; send a smaller file.",
            )
            return problem_response(request, error)
        return await call_next(request)

    app.include_router(routes.router)
    app.include_router(embeddings.router)
    app.mount("/", mcp_app)  # after the REST routes: serves /mcp
    return app
