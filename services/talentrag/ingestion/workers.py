"""Reading and analysing documents in worker processes, off the event loop.

Extracting text from a PDF and finding skills in a long CV are CPU-bound: on the
event loop they would stall every search the server answers meanwhile. The pool
runs them in separate processes (each loads the vocabulary once); with
``workers=0`` they run in a thread instead, for tests and one-shot tools where
starting processes costs more than it saves.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from talentrag.domain import DocumentType
from talentrag.errors import DocumentError
from talentrag.ingestion.analyze import AnalyzedDocument, analyze_document
from talentrag.ingestion.readers import extract_text, read_document
from talentrag.vocabulary.vocabulary import Vocabulary, load_vocabulary

T = TypeVar("T")

_VOCABULARY: Vocabulary | None = None  # one per worker process, loaded by ``_start_worker``

WORKER_NICENESS = 19
"""Analysis workers yield the CPU to the serving process: on a small machine a bulk
ingest job otherwise takes the cores that searches need (the job, not the search,
is the work that can wait). The lowest priority: at 10 a search's p95 during a job was
2.1x idle, at 19 1.9x, for a job 25% longer (docs/benchmarks/profiling.md)."""


@dataclass(frozen=True)
class Unreadable:
    """A document error carried back from a worker (exceptions with extra fields do not pickle)."""

    reason: str
    message: str

    def error(self) -> DocumentError:
        """The ``DocumentError`` the worker raised."""
        return DocumentError(self.reason, self.message)


def _start_worker(vocabulary_path: Path | None) -> None:
    global _VOCABULARY
    os.nice(WORKER_NICENESS)
    threading.Thread(target=_exit_with_parent, name="talentrag-parent-watch", daemon=True).start()
    _VOCABULARY = load_vocabulary(vocabulary_path)


def _exit_with_parent() -> None:
    """End this worker when the process that started it is gone.

    A server killed outright (kill -9, the OOM killer) never shuts its pool down, and
    its workers would stay behind as orphans holding a vocabulary each (~230 MB).
    """
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()
        os._exit(0)


def _analyze(
    text: str,
    document_id: str,
    source_file: str,
    document_type: DocumentType,
    as_of: date,
    name: str | None,
) -> AnalyzedDocument:
    assert _VOCABULARY is not None, "worker started without a vocabulary"
    return analyze_document(
        text,
        document_id=document_id,
        source_file=source_file,
        document_type=document_type,
        vocabulary=_VOCABULARY,
        as_of=as_of,
        name=name,
    )


def _read(path: Path, max_bytes: int) -> str | Unreadable:
    try:
        return read_document(path, max_bytes)
    except DocumentError as exc:
        return Unreadable(exc.reason, exc.message)


def _extract(data: bytes, filename: str, max_bytes: int) -> str | Unreadable:
    try:
        return extract_text(data, filename, max_bytes)
    except DocumentError as exc:
        return Unreadable(exc.reason, exc.message)


class AnalysisPool:
    """Runs reading and analysis in worker processes (or one thread with ``workers=0``)."""

    def __init__(self, vocabulary: Vocabulary, vocabulary_path: Path | None, workers: int):
        self.vocabulary = vocabulary
        self.vocabulary_path = vocabulary_path
        self.workers = workers
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:  # started on first use: reads need no workers
            if self.workers == 0:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="talentrag-analysis")
            else:
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    # spawn: forking a process with an event loop and threads is unsafe
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(self.vocabulary_path,),
                )
        return self._executor

    async def _run(self, function: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(
            self._pool(), partial(function, *args)
        )

    async def analyze(
        self,
        text: str,
        *,
        document_id: str,
        source_file: str,
        document_type: DocumentType,
        as_of: date,
        name: str | None = None,
    ) -> AnalyzedDocument:
        """Skills, roles, level and chunks of one document."""
        if self.workers == 0:  # the thread shares this process's vocabulary
            thread_result: AnalyzedDocument = await self._run(
                partial(
                    analyze_document,
                    text,
                    document_id=document_id,
                    source_file=source_file,
                    document_type=document_type,
                    vocabulary=self.vocabulary,
                    as_of=as_of,
                    name=name,
                )
            )
            return thread_result
        result: AnalyzedDocument = await self._run(
            _analyze, text, document_id, source_file, document_type, as_of, name
        )
        return result

    async def read(self, path: Path, max_bytes: int) -> str:
        """A file's cleaned text; ``DocumentError`` when it cannot be indexed."""
        return _unwrap(await self._run(_read, path, max_bytes))

    async def extract(self, data: bytes, filename: str, max_bytes: int) -> str:
        """An upload's cleaned text; ``DocumentError`` when it cannot be indexed."""
        return _unwrap(await self._run(_extract, data, filename, max_bytes))

    def close(self) -> None:
        """Stop the workers (running tasks finish first)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def _unwrap(result: str | Unreadable) -> str:
    if isinstance(result, Unreadable):
        raise result.error()
    return result
