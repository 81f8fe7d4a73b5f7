"""ASGI guard in front of every route: API keys for /mcp, and the upload limit.

The limit (``Settings.max_upload_bytes`` plus room for multipart framing) is
enforced while the body streams, so a chunked body without Content-Length is cut
off too: the request is answered 413 and the route never runs, so nothing is
written.
"""

from __future__ import annotations

import contextlib

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from talentrag.adapters.auth import caller_for
from talentrag.adapters.http.errors import error_response
from talentrag.config import Settings
from talentrag.errors import PayloadTooLarge, TalentragError

MULTIPART_ALLOWANCE = 64 * 1024


class BodyTooLarge(Exception):
    """Raised inside ``receive`` once the body passes the limit."""


class RequestGuard:
    """Pure ASGI middleware (it must see the body as it streams)."""

    def __init__(self, app: ASGIApp, settings: Settings):
        self.app = app
        self.settings = settings
        self.limit = settings.max_upload_bytes + MULTIPART_ALLOWANCE

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the /mcp key and the declared length, then run the app with the body counted."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            if path.startswith("/mcp"):
                caller_for(self.settings, headers)  # the tools check their own scope
            length = headers.get("content-length", "")
            if length.isdigit() and int(length) > self.limit:
                raise self._too_large()
        except TalentragError as exc:
            await error_response(path, exc)(scope, receive, send)
            return
        await self._call_counting(scope, receive, send)

    async def _call_counting(self, scope: Scope, receive: Receive, send: Send) -> None:
        received = 0
        overflowed = False
        started = False

        async def counting_receive() -> Message:
            nonlocal received, overflowed
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    overflowed = True
                    raise BodyTooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if overflowed:  # whatever the app made of the cut-off body, the answer is 413
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        with contextlib.suppress(BodyTooLarge):
            await self.app(scope, counting_receive, guarded_send)
        if overflowed and not started:
            await error_response(scope["path"], self._too_large())(scope, receive, send)

    def _too_large(self) -> PayloadTooLarge:
        return PayloadTooLarge(
            f"The body exceeds {self.settings.max_upload_bytes} bytes; send a smaller document."
        )
