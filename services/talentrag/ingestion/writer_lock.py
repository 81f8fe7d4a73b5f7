"""One writer per data directory: an in-process lock plus a lock file.

LightRAG's file storage lives in memory and is flushed whole, so a second process
writing the same files would be overwritten by the first one's next flush. The
server holds the lock for its whole life; the CLI takes it per command.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from talentrag.errors import Busy

WAIT_FOR_WRITER_S = 0.8
"""How long a write waits for another process's: a second writer is told at once."""
WAIT_TO_HOLD_S = 5.0


class WriterLock:
    """Serialises writes within a process and excludes other processes."""

    def __init__(self, path: Path, wait_s: float = WAIT_FOR_WRITER_S):
        self.path = path
        self.wait_s = wait_s
        self._file_lock = FileLock(str(path), thread_local=False)
        self._lock = asyncio.Lock()
        self.held = False
        """True while ``hold`` makes this process the data directory's writer."""

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[None]:
        """Held for one write; raises ``Busy`` when another process holds the file."""
        async with self._lock:
            await self._acquire(self.wait_s)
            try:
                yield
            finally:
                self._file_lock.release()

    async def hold(self) -> None:
        """Keep this process the only writer until ``release`` (``talentrag serve`` does)."""
        await self._acquire(WAIT_TO_HOLD_S)
        self.held = True

    def release(self) -> None:
        """Let other processes write again after ``hold``."""
        self.held = False
        self._file_lock.release()

    def ensure_free(self) -> None:
        """Raise ``Busy`` now if another process writes here (checked before serving)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._file_lock.acquire(timeout=1)
        except Timeout as exc:
            raise self._busy() from exc
        self._file_lock.release()

    async def _acquire(self, timeout: float) -> None:
        try:
            await asyncio.to_thread(self._file_lock.acquire, timeout=timeout)
        except Timeout as exc:
            raise self._busy() from exc

    def _busy(self) -> Busy:
        return Busy(
            f"another process is writing to this data directory ({self.path.parent}); "
            "if `talentrag serve` runs on it, send writes to its API (POST /v1/ingest-jobs) "
            "or stop it, otherwise retry when the other write has finished"
        )
