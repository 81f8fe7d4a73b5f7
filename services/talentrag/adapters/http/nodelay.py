"""uvicorn's HTTP/1.1 protocol with Nagle's algorithm off on every connection.

asyncio disables Nagle (``TCP_NODELAY``) only on sockets whose listening socket it made
itself. With ``serve --workers N`` uvicorn makes the listening socket (protocol 0), so
no accepted connection had it: an answer written in two parts (head, then body) waited
for the client's delayed ACK, about 40 ms per request.
"""

from __future__ import annotations

import asyncio
import socket

from uvicorn.protocols.http.h11_impl import H11Protocol

PROTOCOL = "talentrag.adapters.http.nodelay:NoDelayH11Protocol"
"""The import string uvicorn's ``http`` setting takes (worker processes import it)."""


class NoDelayH11Protocol(H11Protocol):
    """``H11Protocol`` that sets ``TCP_NODELAY`` on its TCP connection first."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Turn Nagle off, then start the connection as uvicorn does."""
        connection = transport.get_extra_info("socket")
        if connection is not None and connection.family in (socket.AF_INET, socket.AF_INET6):
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
