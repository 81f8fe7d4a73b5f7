"""A LightRAG Server over HTTP: POST /query/data for retrieval, GET /health for readiness.

Connection errors, timeouts and 502/503/504 are retried a bounded number of times
with exponential backoff, all within one deadline per call (``read_timeout_s``), and then
surface as ``GatewayUnavailable`` (the HTTP API
answers 503 with Retry-After). Anything else the server says wrong is a
``GatewayError`` with the status and what to check.

The server holds one workspace per process, so the tenant argument must match the
workspace it was started with (``WORKSPACE``); talentrag maps each tenant to a server.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import httpx

from talentrag.gateways.base import (
    GatewayError,
    GatewayUnavailable,
    KnowledgeGraphGateway,
    Retrieval,
    RetrievalQuery,
)
from talentrag.gateways.payload import retrieval_from_payload

log = logging.getLogger(__name__)

T = TypeVar("T")
RETRYABLE_STATUS = {502, 503, 504}


class RemoteLightRAG(KnowledgeGraphGateway):
    """A LightRAG Server's read API, with bounded retries and concurrency."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        connect_timeout_s: float = 3.0,
        read_timeout_s: float = 15.0,
        retries: int = 2,
        backoff_s: float = 0.2,
        max_concurrency: int = 8,
        transport: httpx.AsyncBaseTransport | None = None,
    ):
        headers = {"X-API-Key": api_key} if api_key else {}
        timeout = httpx.Timeout(read_timeout_s, connect=connect_timeout_s)
        self.deadline_s = read_timeout_s
        self.base_url = base_url.rstrip("/")
        self._client = httpx.AsyncClient(
            base_url=self.base_url, headers=headers, timeout=timeout, transport=transport
        )
        self._retries = retries
        self._backoff_s = backoff_s
        self._slots = asyncio.Semaphore(max_concurrency)

    async def _within_deadline(self, call: Awaitable[T]) -> T:
        """One total deadline per gateway call: waiting for a slot, attempts and backoff."""
        try:
            async with asyncio.timeout(self.deadline_s):
                return await call
        except TimeoutError as exc:
            raise GatewayUnavailable(
                f"LightRAG Server at {self.base_url} did not answer within {self.deadline_s:g} s"
            ) from exc

    async def _request(self, method: str, path: str, **kwargs: Any) -> Any:
        last_problem = ""
        for attempt in range(self._retries + 1):
            if attempt:
                await asyncio.sleep(self._backoff_s * 2 ** (attempt - 1))
            try:
                async with self._slots:
                    response = await self._client.request(method, path, **kwargs)
            except httpx.TimeoutException as exc:
                last_problem = f"timed out ({type(exc).__name__})"
                continue
            except httpx.TransportError as exc:
                last_problem = f"unreachable ({type(exc).__name__}: {exc})"
                continue
            if response.status_code in RETRYABLE_STATUS:
                last_problem = f"answered {response.status_code}"
                continue
            return self._json(response, path)
        raise GatewayUnavailable(
            f"LightRAG Server at {self.base_url} {last_problem} after {self._retries + 1} attempts"
        )

    def _json(self, response: httpx.Response, path: str) -> Any:
        if response.status_code in (401, 403):
            raise GatewayError(
                f"LightRAG Server refused {path} ({response.status_code}): check TALENTRAG_LIGHTRAG_API_KEY"
            )
        if response.status_code >= 400:
            raise GatewayError(
                f"LightRAG Server answered {response.status_code} to {path}: {response.text[:200]}"
            )
        try:
            return response.json()
        except ValueError as exc:
            raise GatewayError(f"LightRAG Server sent malformed JSON for {path}") from exc

    async def retrieve(self, tenant: str, query: RetrievalQuery) -> Retrieval:
        """POST /query/data with the query's keywords, as a typed ``Retrieval``."""
        payload = await self._within_deadline(
            self._request("POST", "/query/data", json={"query": query.query, **query.params()})
        )
        if not isinstance(payload, dict) or not isinstance(payload.get("data", {}), dict):
            raise GatewayError("LightRAG Server sent a /query/data answer without a data object")
        try:
            return retrieval_from_payload(payload)
        except (KeyError, TypeError, ValueError) as exc:
            raise GatewayError(
                f"LightRAG Server sent a malformed /query/data answer: {exc!r}"
            ) from exc

    async def ready(self, tenant: str) -> None:
        """GET /health; ``GatewayUnavailable`` unless the server reports healthy."""
        health = await self._within_deadline(self._request("GET", "/health"))
        if not isinstance(health, dict) or health.get("status") not in ("healthy", "ok"):
            raise GatewayUnavailable(
                f"LightRAG Server at {self.base_url} is not healthy: {str(health)[:200]}"
            )

    async def close(self) -> None:
        """Close the HTTP client."""
        await self._client.aclose()
