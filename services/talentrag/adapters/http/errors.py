"""The HTTP mapping of talentrag's error tree: every error is RFC 9457 problem+json.

``talentrag.errors`` gives each error its status; this module only renders it.
Unknown paths (404), wrong methods (405) and request validation (422) are mapped
here too, so no answer is ever plain text or a traceback; and the OpenAPI document
says so (every 4xx/5xx it declares is problem+json with the ``Problem`` schema).
"""

from __future__ import annotations

import json
import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from talentrag.errors import (
    InvalidInput,
    TalentragError,
    Unavailable,
    UpstreamError,
    describe_field_errors,
    field_errors,
)

log = logging.getLogger(__name__)
PROBLEM = "application/problem+json"
PROBLEM_SCHEMA = {"$ref": "#/components/schemas/Problem"}
# FastAPI's own 422 body, which the handlers below never send
FASTAPI_VALIDATION_SCHEMAS = ("HTTPValidationError", "ValidationError")


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    instance: str | None = None
    errors: list[dict[str, Any]] | None = None


def problem_response(
    path: str,
    status: int,
    detail: str,
    *,
    headers: dict[str, str] | None = None,
    errors: list[dict[str, str]] | None = None,
) -> JSONResponse:
    """A problem+json answer; the title is the status's standard phrase."""
    body = Problem(
        title=HTTPStatus(status).phrase, status=status, detail=detail, instance=path, errors=errors
    )
    return JSONResponse(
        body.model_dump(exclude_none=True),
        status_code=status,
        headers=headers,
        media_type=PROBLEM,
    )


def error_response(path: str, error: TalentragError) -> JSONResponse:
    """The answer for one error of the tree."""
    if isinstance(error, Unavailable | UpstreamError):
        log.warning("%s on %s: %s", type(error).__name__, path, error)
    detail = error.message
    if isinstance(error, Unavailable):
        detail += " Retry later."
    return problem_response(
        path, error.status, detail, headers=error.headers or None, errors=error.errors
    )


def install_error_handlers(app: FastAPI) -> None:
    """Map the error tree, FastAPI's own errors and anything unexpected, once; document it."""
    _document_problems(app)

    @app.exception_handler(TalentragError)
    async def _talentrag(request: Request, exc: TalentragError) -> JSONResponse:
        return error_response(request.url.path, exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        items = field_errors(exc.errors())
        error = InvalidInput(describe_field_errors(items), errors=items)
        return error_response(request.url.path, error)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = str(exc.detail)
        if exc.status_code == 404 and detail == HTTPStatus.NOT_FOUND.phrase:
            detail = f"There is no {request.url.path}; see /docs for the API."
        elif exc.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}."
        return problem_response(
            request.url.path, exc.status_code, detail, headers=dict(exc.headers or {}) or None
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
            request.url.path, 500, "The server failed unexpectedly; the error is logged."
        )


def _document_problems(app: FastAPI) -> None:
    """Declare every 4xx/5xx of the OpenAPI document as problem+json ``Problem``.

    FastAPI files an additional response's model under the route's media type
    (application/json) and adds its own ``HTTPValidationError`` 422 to every route with
    parameters; neither is what the handlers above answer.
    """
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()
            for item in document.get("paths", {}).values():
                for operation in item.values():
                    for code, response in operation.get("responses", {}).items():
                        if code[:1] in ("4", "5"):
                            response["content"] = {PROBLEM: {"schema": PROBLEM_SCHEMA}}
            schemas = document.setdefault("components", {}).setdefault("schemas", {})
            schemas.setdefault("Problem", Problem.model_json_schema(mode="serialization"))
            for name in FASTAPI_VALIDATION_SCHEMAS:
                if f'"#/components/schemas/{name}"' not in json.dumps(document["paths"]):
                    schemas.pop(name, None)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
