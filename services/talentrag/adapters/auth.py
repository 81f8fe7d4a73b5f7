"""API keys -> tenants, shared by the REST API and the MCP endpoint."""

from __future__ import annotations

import hmac
from collections.abc import Mapping

from talentrag.config import Settings
from talentrag.errors import AuthenticationRequired, PermissionDenied


def tenant_for(settings: Settings, headers: Mapping[str, str]) -> str:
    """The tenant of the request's key (Bearer or X-API-Key); the default tenant without keys."""
    if not settings.api_keys:
        return settings.tenant
    authorization = headers.get("authorization", "")
    key = (
        authorization[7:].strip()
        if authorization.lower().startswith("bearer ")
        else headers.get("x-api-key")
    )
    if not key:
        raise AuthenticationRequired("Send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'.")
    for known, tenant in settings.api_keys.items():
        if hmac.compare_digest(known.encode(), key.encode()):
            return tenant
    raise PermissionDenied("This API key is not recognised.")
