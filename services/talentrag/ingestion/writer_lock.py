"""One writer at a time: a lock file over a data directory, an advisory lock over PostgreSQL.

LightRAG's file storage lives in memory and is flushed whole, so a second process
writing the same files would be overwritten by the first one's next flush: the
server holds the lock file for its whole life; the CLI takes it per command. On
PostgreSQL every replica writes rows, so each write takes the database's advisory
lock for its own duration and replicas take turns.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from filelock import FileLock, Timeout

from talentrag.errors import Busy
from talentrag.store.pg_locks import take_advisory_lock

if TYPE_CHECKING:
    from collections.abc import Callable

    import asyncpg

WAIT_FOR_WRITER_S = 0.8
"""How long a write waits for another process's: a second writer is told at once."""
WAIT_TO_HOLD_S = 5.0
WAIT_FOR_REPLICA_S = 60.0
"""How long a write waits for another replica's on PostgreSQL (they queue, not refuse)."""
ADVISORY_LOCK_KEY = 0x7461_6C65_6E74  # "talent": talentrag's writes in this database


class WriterLock:
    """Serialises writes within a process and excludes other processes (a lock file)."""

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


class AdvisoryWriterLock(WriterLock):
    """Writes take PostgreSQL's session advisory lock: any number of replicas, one writer.

    ``pool`` gives the candidate store's connection pool (opened after this lock is made).
    There is no lifelong hold: a replica that dies mid-write loses its session, and
    with it the lock.
    """

    def __init__(self, pool: Callable[[], asyncpg.Pool], wait_s: float = WAIT_FOR_REPLICA_S):
        self._pool = pool
        self.wait_s = wait_s
        self._lock = asyncio.Lock()
        self.held = False

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[None]:
        """Held for one write; raises ``Busy`` after ``wait_s`` behind other replicas."""
        async with self._lock, self._pool().acquire() as connection:
            try:
                await take_advisory_lock(connection, ADVISORY_LOCK_KEY, wait_s=self.wait_s)
            except TimeoutError as exc:
                raise Busy(
                    f"other replicas kept the database's write lock for {self.wait_s:.0f} s; "
                    "retry when their writes have finished"
                ) from exc
            try:
                yield
            finally:
                await connection.execute("SELECT pg_advisory_unlock($1)", ADVISORY_LOCK_KEY)

    async def hold(self) -> None:
        """Nothing to hold: replicas share the database and lock each write."""

    def release(self) -> None:
        """Nothing was held."""

    def ensure_free(self) -> None:
        """Replicas never exclude each other: always free."""
