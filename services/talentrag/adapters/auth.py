"""API keys -> callers (tenant and scopes), shared by the REST API, /tools and MCP.

A key reads (search, get, list) and/or writes (ingest, delete) in one tenant. Without
configured keys the service runs on localhost only and every caller may do anything
in the default tenant.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass

from talentrag.config import Scope, Settings
from talentrag.errors import AuthenticationRequired, PermissionDenied

EVERY_SCOPE: frozenset[Scope] = frozenset({"read", "write"})


@dataclass(frozen=True)
class Caller:
    """Who is calling: the tenant their key opens, and what the key may do there."""

    tenant: str
    scopes: frozenset[Scope]

    def require(self, scope: Scope) -> str:
        """The tenant, or ``PermissionDenied`` when the key lacks ``scope``."""
        if scope not in self.scopes:
            raise PermissionDenied(
                f"This API key may only {' and '.join(sorted(self.scopes))}; "
                f"this operation needs a key with the '{scope}' scope."
            )
        return self.tenant


def caller_for(settings: Settings, headers: Mapping[str, str]) -> Caller:
    """The caller of a request's key (Bearer or X-API-Key); anyone without configured keys."""
    if not settings.api_keys:
        return Caller(settings.tenant, EVERY_SCOPE)
    authorization = headers.get("authorization", "")
    key = (
        authorization[7:].strip()
        if authorization.lower().startswith("bearer ")
        else headers.get("x-api-key")
    )
    if not key:
        raise AuthenticationRequired("Send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'.")
    for known, spec in settings.api_keys.items():
        if hmac.compare_digest(known.encode(), key.encode()):
            return Caller(spec.tenant, spec.scopes)
    raise PermissionDenied("This API key is not recognised.")


def tenant_for(settings: Settings, headers: Mapping[str, str], scope: Scope = "read") -> str:
    """The caller's tenant when their key has ``scope``."""
    return caller_for(settings, headers).require(scope)
