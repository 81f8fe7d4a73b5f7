"""The FastAPI application: REST for ATS systems (and, later, MCP on the same port)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request

from talentrag import __version__
from talentrag.adapters.http import embeddings, routes
from talentrag.adapters.http.errors import ProblemError, install_error_handlers, problem_response
from talentrag.config import Settings
from talentrag.runtime import open_knowledge_base


def create_app(settings: Settings) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with open_knowledge_base(settings) as kb:
            app.state.kb = kb
            yield

    app = FastAPI(
        title="talentrag",
        version=__version__,
        summary="Candidate search over a LightRAG knowledge graph of CVs.",
        lifespan=lifespan,
    )
    install_error_handlers(app)

    @app.middleware("http")
    async def refuse_oversized_bodies(request: Request, call_next):  # type: ignore[no-untyped-def]
        """413 before reading a body that cannot fit (multipart adds a little overhead)."""
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
    return app
