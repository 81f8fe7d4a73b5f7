"""One writer at a time over PostgreSQL: replicas queue on the advisory lock."""

from __future__ import annotations

import asyncio

import pytest

from talentrag.errors import Busy
from talentrag.ingestion.writer_lock import AdvisoryWriterLock
from talentrag.store.postgres import PostgresCandidateStore


async def test_two_replicas_take_turns_and_a_dead_one_frees_the_lock(postgres_url: str) -> None:
    first, second = PostgresCandidateStore(postgres_url), PostgresCandidateStore(postgres_url)
    await first.open()
    await second.open()
    try:
        lock_a = AdvisoryWriterLock(lambda: first.pool)
        lock_b = AdvisoryWriterLock(lambda: second.pool, wait_s=5)
        order: list[str] = []

        async def write(lock: AdvisoryWriterLock, name: str, hold_s: float) -> None:
            async with lock.writing():
                order.append(f"{name} in")
                await asyncio.sleep(hold_s)
                order.append(f"{name} out")

        task_a = asyncio.create_task(write(lock_a, "a", 0.5))
        await asyncio.sleep(0.1)
        await write(lock_b, "b", 0)
        await task_a
        assert order == ["a in", "a out", "b in", "b out"]  # b waited, then wrote

        impatient = AdvisoryWriterLock(lambda: second.pool, wait_s=0.2)
        holder = asyncio.create_task(write(lock_a, "a", 1.0))
        await asyncio.sleep(0.1)
        with pytest.raises(Busy, match="retry"):
            async with impatient.writing():
                pass
        await holder

        # a replica that dies mid-write (its connections closed) frees the lock at once
        entered = asyncio.Event()

        async def dies() -> None:
            async with lock_a.writing():
                entered.set()
                await asyncio.sleep(60)

        dying = asyncio.create_task(dies())
        await entered.wait()
        first.pool.terminate()
        dying.cancel()
        await asyncio.wait_for(write(lock_b, "b", 0), timeout=5)
    finally:
        await second.close()
        await first.close()
