"""The FastAPI application: REST for ATS systems and MCP (Streamable HTTP) on one port.

MCP's route is added to the same router as the REST routes (not mounted at "/"),
so unknown paths and wrong methods get the API's problem+json 404/405. Its server is
built after start-up (``deferred_mcp``): the first search does not wait for the SDK.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI
from starlette.routing import Route

from talentrag import __version__
from talentrag.adapters.http import embeddings, jobs, routes
from talentrag.adapters.http.deferred_mcp import MCP_PATH, DeferredMCP
from talentrag.adapters.http.errors import install_error_handlers
from talentrag.adapters.http.guard import MULTIPART_ALLOWANCE, RequestGuard
from talentrag.adapters.http.tools import create_tools_app
from talentrag.application import TalentService, open_service
from talentrag.config import Settings
from talentrag.startup import resume_collection


def create_app(
    settings: Settings, opened: AbstractAsyncContextManager[TalentService] | None = None
) -> FastAPI:
    """The ASGI app ``talentrag serve`` runs; it opens the knowledge base in its lifespan,
    or takes over ``opened``, a service the caller opened already (and closes it)."""
    mcp = DeferredMCP(
        settings,
        lambda: _service(app),
        # the guard's limit applies (problem+json 413), not the SDK's own 4 MiB
        body_limit=settings.max_upload_bytes + MULTIPART_ALLOWANCE,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with opened or open_service(settings) as service:
            await service.hold_writer()  # the server is the data directory's only writer
            await service.recover()  # writes a killed process left unfinished
            await service.bring_analysis_up_to_date()  # never serve an older analysis silently
            # load the default tenant's graph now, not on the first query
            await service.load(settings.tenant)
            app.state.service = tools_app.state.service = service
            runner = asyncio.create_task(service.run_jobs(), name="ingest-jobs")
            resume_collection()  # start-up is over (``talentrag.startup``)
            try:
                async with mcp.running():
                    yield
            finally:
                runner.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await runner
                service.release_writer()

    app = FastAPI(
        title="talentrag",
        version=__version__,
        summary="Candidate search over a LightRAG knowledge graph of CVs.",
        lifespan=lifespan,
    )
    install_error_handlers(app)
    app.add_middleware(RequestGuard, settings=settings)
    app.include_router(routes.router)
    app.include_router(jobs.router)
    app.include_router(embeddings.router)
    app.router.routes.append(Route(MCP_PATH, endpoint=mcp))  # POST/GET/DELETE /mcp
    tools_app = create_tools_app()
    app.mount("/tools", tools_app)  # read-only surface for assistants, own /tools/openapi.json
    return app


def _service(app: FastAPI) -> TalentService:
    service: TalentService = app.state.service
    return service
