"""Load caches beside LightRAG's storage files, which stay the source of truth.

Parsing LightRAG's GraphML and nano-vectordb JSON files was most of a cold start at
10K CVs (docs/benchmarks/profiling.md). A sidecar holds the same in-memory state as a
pickle, next to the file it was made from (``<file>.talentrag-cache``), and names that
file's size, modification time and inode: a sidecar of any other version of the file
is never read. It is written atomically, with a CRC of its payload; a missing, stale,
corrupt or unreadable sidecar means reading the real file, as LightRAG would. A
LightRAG Server or an older talentrag reads the real files and ignores sidecars.

A sidecar is a pickle: whoever can write the data directory could make the service run
code. The data directory is the service's own (its SQLite store and LightRAG's files
are there too); do not point talentrag at a data directory you do not trust.
"""

from __future__ import annotations

import json
import logging
import mmap
import os
import pickle
import platform
import zlib
from pathlib import Path
from typing import IO, Any

from lightrag.file_atomic import atomic_write, reap_orphan_tmp_files

log = logging.getLogger(__name__)

SUFFIX = ".talentrag-cache"
FORMAT = 1
"""Bumped with any change to what a sidecar holds or how it is laid out."""
_HEADER_BYTES = 4096
"""The header (JSON, padded with spaces) precedes the payload, so it can be checked
before the payload is read."""

SourceKey = tuple[int, int, int]
"""The source file's size, modification time (ns) and inode: LightRAG replaces its files
(a new inode) and never rewrites one in place."""


def source_key(path: Path) -> SourceKey | None:
    """What identifies this version of ``path`` (None when there is no file)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_size, stat.st_mtime_ns, stat.st_ino)


def sidecar_path(path: Path) -> Path:
    """Where the sidecar of ``path`` lives."""
    return path.with_name(path.name + SUFFIX)


def _header(kind: str, key: SourceKey, libraries: dict[str, str]) -> dict[str, Any]:
    """What a sidecar must match besides its payload's CRC: the format, what it holds,
    the source version and the libraries whose objects it pickles."""
    return {
        "format": FORMAT,
        "kind": kind,
        "source": list(key),
        "python": platform.python_version(),
        "libraries": libraries,
    }


def read(path: Path, kind: str, libraries: dict[str, str]) -> Any | None:
    """The state the sidecar of ``path`` holds, or None unless it was made from the very
    file now at ``path`` by this format and these library versions, and is intact."""
    key = source_key(path)
    sidecar = sidecar_path(path)
    if key is None or not sidecar.is_file():
        return None
    try:
        return _read(sidecar, _header(kind, key, libraries))
    except Exception:  # any damage means "no sidecar": the real file is read instead
        log.warning("ignoring the unreadable load cache %s", sidecar, exc_info=True)
        return None


def _read(sidecar: Path, expected: dict[str, Any]) -> Any | None:
    with sidecar.open("rb") as file:
        header = json.loads(file.read(_HEADER_BYTES))
        if {name: header.get(name) for name in expected} != expected:
            return None  # another version of the file, or of the libraries
        with (
            mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as mapped,
            memoryview(mapped)[_HEADER_BYTES:] as payload,
        ):
            if len(payload) != header["length"] or zlib.crc32(payload) != header["crc32"]:
                log.warning("ignoring the damaged load cache %s", sidecar)
                return None
            return pickle.loads(payload)


class _Checksummed:
    """A file that counts and checksums what is written to it (pickle streams in
    frames, so the payload is never held in memory whole)."""

    def __init__(self, file: IO[bytes]):
        self.file = file
        self.length = 0
        self.crc32 = 0

    def write(self, data: bytes | pickle.PickleBuffer) -> int:
        view = memoryview(data)  # large arrays come as pickle buffers
        self.length += view.nbytes
        self.crc32 = zlib.crc32(view, self.crc32)
        return self.file.write(view)


def write(path: Path, key: SourceKey, state: Any, kind: str, libraries: dict[str, str]) -> None:
    """Write the sidecar of the version ``key`` of ``path``, holding ``state``.

    Best effort: a sidecar that cannot be written is logged and left out, since the
    real file has been written (or read) already.
    """
    sidecar = sidecar_path(path)
    header = _header(kind, key, libraries)

    def dump(tmp: str) -> None:
        with open(tmp, "wb") as file:
            file.write(b" " * _HEADER_BYTES)
            checksummed = _Checksummed(file)
            pickle.dump(state, checksummed, protocol=pickle.HIGHEST_PROTOCOL)
            encoded = json.dumps(
                header | {"length": checksummed.length, "crc32": checksummed.crc32}
            ).encode()
            file.seek(0)
            file.write(encoded.ljust(_HEADER_BYTES))

    try:
        reap_orphan_tmp_files(str(sidecar))  # left by a process killed while writing one
        atomic_write(str(sidecar), dump)
    except Exception:
        log.warning("could not write the load cache %s", sidecar, exc_info=True)


def remove(path: Path) -> None:
    """Delete the sidecar of ``path`` if there is one (it can no longer be made right)."""
    try:
        os.unlink(sidecar_path(path))
    except FileNotFoundError:
        pass
    except OSError:
        log.warning("could not remove the load cache of %s", path, exc_info=True)
