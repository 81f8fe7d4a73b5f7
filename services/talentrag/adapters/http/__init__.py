"""The HTTP API (FastAPI)."""

from talentrag.adapters.http.app import create_app

__all__ = ["create_app"]
