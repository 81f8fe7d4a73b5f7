"""Every error as RFC 9457 problem+json with a detail that says what to fix.

Core exceptions map to status codes here and only here; no handler ever returns a
traceback.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from talentrag.gateways.base import GatewayError, GatewayUnavailable
from talentrag.ingestion.pipeline import WriterBusy
from talentrag.ingestion.readers import DocumentError

log = logging.getLogger(__name__)
PROBLEM = "application/problem+json"


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    instance: str | None = None
    errors: list[dict[str, Any]] | None = None


class ProblemError(Exception):
    def __init__(self, status: int, title: str, detail: str, headers: dict[str, str] | None = None):
        super().__init__(detail)
        self.status, self.title, self.detail, self.headers = status, title, detail, headers or {}


class BadRequest(ProblemError):
    def __init__(self, detail: str):
        super().__init__(400, "Bad request", detail)


class NotFound(ProblemError):
    def __init__(self, detail: str):
        super().__init__(404, "Not found", detail)


def problem_response(
    request: Request, error: ProblemError, errors: list[dict[str, Any]] | None = None
) -> JSONResponse:
    body = Problem(
        title=error.title,
        status=error.status,
        detail=error.detail,
        instance=request.url.path,
        errors=errors,
    )
    return JSONResponse(
        body.model_dump(exclude_none=True),
        status_code=error.status,
        headers=error.headers,
        media_type=PROBLEM,
    )


DOCUMENT_STATUS = {"too_large": 413, "unsupported": 415, "unreadable": 422, "empty": 422}


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ProblemError)
    async def _problem(request: Request, exc: ProblemError) -> JSONResponse:
        return problem_response(request, exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {
                "field": ".".join(str(p) for p in e["loc"] if p != "body"),
                "message": e["msg"].removeprefix("Value error, "),
            }
            for e in exc.errors()
        ]
        detail = "; ".join(f"{e['field'] or 'body'}: {e['message']}" for e in errors)
        return problem_response(request, ProblemError(422, "Invalid request", detail), errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        title = {
            401: "Unauthorized",
            403: "Forbidden",
            404: "Not found",
            405: "Method not allowed",
        }.get(exc.status_code, "Error")
        return problem_response(
            request, ProblemError(exc.status_code, title, str(exc.detail), dict(exc.headers or {}))
        )

    @app.exception_handler(DocumentError)
    async def _document(request: Request, exc: DocumentError) -> JSONResponse:
        status = DOCUMENT_STATUS.get(exc.reason, 400)
        return problem_response(request, ProblemError(status, f"Document {exc.reason}", str(exc)))

    @app.exception_handler(GatewayUnavailable)
    async def _unavailable(request: Request, exc: GatewayUnavailable) -> JSONResponse:
        log.warning("LightRAG unavailable: %s", exc)
        headers = {"Retry-After": str(exc.retry_after_s)}
        return problem_response(
            request, ProblemError(503, "LightRAG unavailable", f"{exc}. Retry later.", headers)
        )

    @app.exception_handler(GatewayError)
    async def _gateway(request: Request, exc: GatewayError) -> JSONResponse:
        log.warning("LightRAG error: %s", exc)
        return problem_response(request, ProblemError(502, "LightRAG error", str(exc)))

    @app.exception_handler(WriterBusy)
    async def _busy(request: Request, exc: WriterBusy) -> JSONResponse:
        return problem_response(
            request, ProblemError(503, "Busy", f"{exc}. Retry later.", {"Retry-After": "5"})
        )

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error(
            "unexpected error on %s: %s",
            request.url.path,
            type(exc).__name__,
            exc_info=log.isEnabledFor(logging.DEBUG),
        )
        return problem_response(
            request,
            ProblemError(
                500, "Internal error", "The server failed unexpectedly; the error is logged."
            ),
        )
