"""The FastAPI application: REST for ATS systems (and, later, MCP on the same port)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from talentrag import __version__
from talentrag.adapters.http import embeddings, routes
from talentrag.adapters.http.errors import install_error_handlers
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
    app.include_router(routes.router)
    app.include_router(embeddings.router)
    return app
