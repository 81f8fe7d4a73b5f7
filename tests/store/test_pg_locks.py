"""Advisory locks on a real PostgreSQL: a replica waiting for a lock must not hold up
the lock holder's ``CREATE INDEX CONCURRENTLY`` (LightRAG runs one when it opens a
workspace, under the schema lock), or both hang for good."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from talentrag.store.pg_locks import advisory_lock, take_advisory_lock

KEY = 4242


async def test_a_waiting_replica_does_not_stall_the_holders_concurrent_index(
    postgres_url: str,
) -> None:
    holder, waiter, builder = [await asyncpg.connect(postgres_url) for _ in range(3)]
    try:
        await builder.execute("CREATE TABLE t (x int)")
        async with advisory_lock(holder, KEY):
            waiting = asyncio.create_task(take_advisory_lock(waiter, KEY))
            await asyncio.sleep(0.1)
            assert not waiting.done()
            # the holder's work: finishes although another session waits for the lock
            await asyncio.wait_for(
                builder.execute("CREATE INDEX CONCURRENTLY t_x ON t (x)"), timeout=20
            )
        await asyncio.wait_for(waiting, timeout=5)  # released: the waiter gets it
        assert await holder.fetchval("SELECT pg_try_advisory_lock($1)", KEY) is False
    finally:
        for connection in (holder, waiter, builder):
            await connection.close()


async def test_a_bounded_wait_gives_up_with_timeout_error(postgres_url: str) -> None:
    holder, waiter = [await asyncpg.connect(postgres_url) for _ in range(2)]
    try:
        async with advisory_lock(holder, KEY):
            with pytest.raises(TimeoutError):
                await take_advisory_lock(waiter, KEY, wait_s=0.3)
    finally:
        await holder.close()
        await waiter.close()
