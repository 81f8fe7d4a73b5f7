"""LightRAG's NanoVectorDB storage whose queries do not wait for a write's flush.

LightRAG embeds buffered vectors and saves the whole vector file while holding the
storage lock, and every query takes that lock to reach the client: a search sent
during an ingest waited for the embedding and the save (seconds). A query only
reads the in-memory client, which the flush changes synchronously between awaits,
so it may go ahead. Another process's writes are picked up by reopening the
workspace (``EmbeddedLightRAG.refresh``), not by LightRAG's reload flag. The files
are unchanged: a data directory works with either class.
"""

from __future__ import annotations

from typing import Any

from lightrag.kg.nano_vector_db_impl import NanoVectorDBStorage

from talentrag.gateways.flush_turn import in_turn

KIND = "VECTOR_STORAGE"
NAME = "UnblockedNanoVectorDBStorage"


class UnblockedNanoVectorDBStorage(NanoVectorDBStorage):  # type: ignore[misc]  # LightRAG is untyped
    """NanoVectorDBStorage whose reads use the live client without the storage lock."""

    async def _get_client(self) -> Any:
        """The in-memory client, as loaded at start or last flushed by this process."""
        return self._client

    async def index_done_callback(self) -> bool:
        """Flush and save, never while another storage flushes (``flush_turn``)."""
        return bool(await in_turn(super().index_done_callback))
