"""How `talentrag serve` starts: one opening of the knowledge base, collection paused."""

from __future__ import annotations

import argparse
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from talentrag import application, cli
from talentrag.config import Settings
from talentrag.startup import collection_paused, pause_collection, resume_collection

SERVE_ARGS = argparse.Namespace(host="127.0.0.1", port=0, verbose=False, workers=1)


@pytest.fixture
def openings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Events of the real ``open_knowledge_base``: "opened", then "closed"."""
    events: list[str] = []
    real_open = application.open_knowledge_base

    @asynccontextmanager
    async def counted(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async with real_open(*args, **kwargs) as kb:
            events.append("opened")
            yield kb
        events.append("closed")

    monkeypatch.setattr(application, "open_knowledge_base", counted)
    return events


async def test_serve_opens_the_knowledge_base_once_and_the_app_closes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, openings: list[str]
):
    async def serve(server: uvicorn.Server, sockets: Any = None) -> None:
        app = server.config.app  # the app's lifespan, without a socket
        async with app.router.lifespan_context(app):
            openings.append("serving")
            assert app.state.service.kb.graph._instances  # the default tenant is loaded
        openings.append("stopped")

    monkeypatch.setattr(uvicorn.Server, "serve", serve)

    await cli._serve_here(SERVE_ARGS, Settings(data_dir=tmp_path / "kb", embedder="hashing"))

    # the analysis check and the server share one opening; the lifespan closes it
    assert openings == ["opened", "serving", "closed", "stopped"]


async def test_a_failed_start_closes_what_serve_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, openings: list[str]
):
    async def no_port(server: uvicorn.Server, sockets: Any = None) -> None:
        raise SystemExit(1)  # what uvicorn does when the port is taken, before the lifespan

    monkeypatch.setattr(uvicorn.Server, "serve", no_port)

    with pytest.raises(SystemExit):
        await cli._serve_here(SERVE_ARGS, Settings(data_dir=tmp_path / "kb", embedder="hashing"))
    assert openings == ["opened", "closed"]


def test_collection_pauses_for_start_up_and_resumes_once():
    assert gc.isenabled()
    pause_collection()
    try:
        assert not gc.isenabled()
        with collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # still paused for start-up
    finally:
        resume_collection()
    assert gc.isenabled()
    resume_collection()  # nothing paused: no change
    assert gc.isenabled()


def test_collection_stays_off_where_the_caller_turned_it_off():
    gc.disable()
    try:
        pause_collection()
        resume_collection()
        with collection_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
