"""PostgreSQL advisory locks, waited for by polling rather than inside the database.

A blocking ``SELECT pg_advisory_lock(k)`` waits inside a transaction, and an open
transaction holds up every ``CREATE INDEX CONCURRENTLY``, which LightRAG runs when it
opens a workspace. A replica opening a workspace under a lock while another replica
waits for that lock would then hang for good: the holder's index build waits for the
waiter's transaction, the waiter for the holder's lock, and PostgreSQL sees no cycle
because the holder's lock and its index build are on different connections. So waiting
happens here, between short ``pg_try_advisory_lock`` statements that never block.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from talentrag.store.pg_schema import Connection

FIRST_RETRY_S = 0.01
LONGEST_RETRY_S = 0.2


async def take_advisory_lock(
    connection: Connection, key: int, *, wait_s: float | None = None
) -> None:
    """Take the session lock ``key`` on ``connection``; ``TimeoutError`` after ``wait_s``
    (``None``: wait as long as it takes)."""
    deadline = None if wait_s is None else time.monotonic() + wait_s
    pause = FIRST_RETRY_S
    while not await connection.fetchval("SELECT pg_try_advisory_lock($1)", key):
        if deadline is not None and time.monotonic() + pause > deadline:
            raise TimeoutError(f"advisory lock {key} still held after {wait_s} s")
        await asyncio.sleep(pause)
        pause = min(pause * 2, LONGEST_RETRY_S)


@asynccontextmanager
async def advisory_lock(
    connection: Connection, key: int, *, wait_s: float | None = None
) -> AsyncIterator[None]:
    """Hold the session lock ``key`` on ``connection`` for the block."""
    await take_advisory_lock(connection, key, wait_s=wait_s)
    try:
        yield
    finally:
        await connection.execute("SELECT pg_advisory_unlock($1)", key)
