"""The one error tree: every failure a user can see is a ``TalentragError``.

Each branch says who raises it and what each adapter shows. Adapters map the tree
once, by the class attributes below: HTTP answers ``http_status`` as RFC 9457
problem+json (``title`` from ``http.HTTPStatus``), MCP returns the message as a tool
error, the CLI prints ``error: <message>`` and exits with ``exit_code`` (2: something
the user can fix; 1: a dependency failed). Anything
that is not a ``TalentragError`` is a bug: logged, and shown as a generic 500 /
"unexpected failure" without a traceback.

    TalentragError
    ├── InvalidInput           422  bad arguments, ids, texts (raised by the application layer)
    │   ├── MalformedRequest   400  a request that cannot be parsed (e.g. a forged cursor)
    │   ├── DocumentError      413/415/422 by ``reason``: a file that cannot be indexed (readers)
    │   └── PayloadTooLarge    413  a request body over the upload limit (HTTP body guard)
    ├── AuthenticationRequired 401  no API key where keys are configured (adapters' auth)
    ├── PermissionDenied       403  a key that is unknown or may not touch that tenant
    ├── NotFound               404  no such candidate or document (application layer)
    ├── Conflict               409  a write that would clash with stored data
    ├── Busy                   503 + Retry-After  another writer holds the data directory
    ├── Unavailable            503 + Retry-After  LightRAG Server or embedding endpoint down
    ├── UpstreamError          502  LightRAG answered, but not usefully
    └── ConfigurationError     500  settings, vocabulary or data directory unusable (CLI exit 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from http import HTTPStatus
from typing import Any, ClassVar

from pydantic import ValidationError


class TalentragError(Exception):
    """A failure whose message tells the user what to fix."""

    http_status: ClassVar[int] = 500
    exit_code: ClassVar[int] = 1

    def __init__(self, message: str, *, errors: list[dict[str, str]] | None = None):
        super().__init__(message)
        self.message = message
        self.errors = errors

    @property
    def status(self) -> int:
        """The HTTP status this instance maps to (subclasses may decide per instance)."""
        return self.http_status

    @property
    def title(self) -> str:
        """The status's reason phrase, shown as the problem+json ``title``."""
        return HTTPStatus(self.status).phrase

    @property
    def headers(self) -> dict[str, str]:
        """Extra HTTP response headers; none by default."""
        return {}


class InvalidInput(TalentragError):
    """Arguments, ids or texts the service cannot accept; the message names the field."""

    http_status = 422
    exit_code = 2

    @classmethod
    def from_validation(cls, exc: ValidationError) -> InvalidInput:
        """A pydantic error as one readable sentence plus per-field entries."""
        items = field_errors(exc.errors())
        return cls(describe_field_errors(items), errors=items)


class MalformedRequest(InvalidInput):
    """A request whose syntax is wrong, such as a cursor that no page handed out."""

    http_status = 400


DOCUMENT_STATUS = {"too_large": 413, "unsupported": 415, "unreadable": 422, "empty": 422}


class DocumentError(InvalidInput):
    """A document that cannot be indexed; ``reason`` is one stable word.

    Reasons: ``unsupported`` (415), ``too_large`` (413), ``unreadable`` and ``empty`` (422).
    The CLI reports it per file and goes on with the batch.
    """

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason

    @property
    def status(self) -> int:
        """413, 415 or 422 by ``reason``."""
        return DOCUMENT_STATUS.get(self.reason, 422)


class PayloadTooLarge(InvalidInput):
    """A request body larger than ``Settings.max_upload_bytes``; nothing was written."""

    http_status = 413


class AuthenticationRequired(TalentragError):
    """API keys are configured and the request sent none."""

    http_status = 401
    exit_code = 2

    @property
    def headers(self) -> dict[str, str]:
        """Ask the client for a bearer token."""
        return {"WWW-Authenticate": "Bearer"}


class PermissionDenied(TalentragError):
    """The API key is unknown, or may not act on the tenant asked for."""

    http_status = 403
    exit_code = 2


class NotFound(TalentragError):
    """No candidate or document with that id in the tenant."""

    http_status = 404
    exit_code = 2


class Conflict(TalentragError):
    """The write would clash with stored data; nothing was changed."""

    http_status = 409
    exit_code = 2


class PreconditionFailed(TalentragError):
    """An ``If-Match``/``If-None-Match`` condition does not hold; nothing was written."""

    http_status = 412
    exit_code = 2


class _RetryLater(TalentragError):
    """A temporary condition; ``retry_after_s`` says when to try again."""

    http_status = 503
    exit_code = 1

    def __init__(self, message: str, retry_after_s: int = 5):
        super().__init__(message)
        self.retry_after_s = retry_after_s

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_s)}


class Busy(_RetryLater):
    """Another process (a server or an ingest) is writing to the same data directory."""

    exit_code = 2


class Unavailable(_RetryLater):
    """A service talentrag depends on (LightRAG Server, embedding endpoint) is not answering."""


class UpstreamError(TalentragError):
    """LightRAG answered, but not usefully (bad status, malformed payload)."""

    http_status = 502


class WriteFailed(TalentragError):
    """An unexpected failure stopped a write; it was undone, nothing changed."""


class ConfigurationError(TalentragError):
    """Settings, the vocabulary file or the data directory cannot be used as configured."""

    http_status = 500
    exit_code = 2


# -- validation errors: one wording for every adapter ---------------------------------
def field_errors(errors: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
    """pydantic/FastAPI error entries as ``{"field": "a.b", "message": "..."}``.

    The location drops FastAPI's ``body``/``query``/``path`` prefixes; messages drop
    pydantic's ``Value error, `` prefix.
    """
    items = []
    for error in errors:
        location = [str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path")]
        message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
        items.append({"field": ".".join(location), "message": message})
    return items


def describe_field_errors(items: list[dict[str, str]]) -> str:
    """'top_k: Input should be less than or equal to 50; ...' (one line)."""
    return "; ".join(f"{item['field'] or 'request'}: {item['message']}" for item in items)
