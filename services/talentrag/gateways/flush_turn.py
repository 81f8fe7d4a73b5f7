"""One LightRAG storage flush at a time in this process.

LightRAG flushes all storages of a write together (``asyncio.gather``). The vector
storage compresses every new vector on the event loop (``zlib.compress``, which
releases the GIL for each call) while the graph storage serialises the whole GraphML
file in a worker thread. Running both at once is a GIL convoy: each of the thousands
of compressions waits for the GraphML thread to hand the GIL back, the loop stalls
for seconds and every search waits (a stack sampler showed it: docs/benchmarks/
profiling.md). Taking turns costs the write little and frees the loop.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

_TURNS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


async def in_turn(flush: Callable[[], Awaitable[T]]) -> T:
    """Run one storage's flush when no other flush of this event loop is running."""
    loop = asyncio.get_running_loop()
    turn = _TURNS.get(loop)
    if turn is None:
        turn = _TURNS[loop] = asyncio.Lock()
    async with turn:
        return await flush()
