"""Nagle's algorithm is off on connections to a listening socket uvicorn made itself
(what ``serve --workers N`` runs on), with real sockets and a real event loop."""

from __future__ import annotations

import asyncio
import socket

from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from talentrag.adapters.http.nodelay import NoDelayH11Protocol


async def _accepted_nodelay(protocol: type[H11Protocol]) -> int:
    """TCP_NODELAY of a connection accepted on a socket made as uvicorn makes it."""
    listener = socket.socket(family=socket.AF_INET)  # protocol 0, as Config.bind_socket
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    client = socket.create_connection(listener.getsockname())
    accepted, _ = listener.accept()
    config = Config(app=lambda scope, receive, send: None, http="h11")
    config.load()
    transport, _ = await asyncio.get_running_loop().connect_accepted_socket(
        lambda: protocol(config=config, server_state=ServerState(), app_state={}), accepted
    )
    try:
        return accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        transport.close()
        client.close()
        listener.close()


async def test_connections_to_uvicorns_own_socket_have_nagle_off():
    assert await _accepted_nodelay(H11Protocol) == 0  # why the subclass exists
    assert await _accepted_nodelay(NoDelayH11Protocol) != 0
