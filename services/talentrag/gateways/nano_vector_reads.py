"""LightRAG's NanoVectorDB storage whose queries do not wait for a write's flush, and
a NanoVectorDB client whose query does not sort every vector.

LightRAG embeds buffered vectors and saves the whole vector file while holding the
storage lock, and every query takes that lock to reach the client: a search sent
during an ingest waited for the embedding and the save (seconds). A query only
reads the in-memory client, which the flush changes synchronously between awaits,
so it may go ahead. Another process's writes are picked up by reopening the
workspace (``EmbeddedLightRAG.refresh``), not by LightRAG's reload flag. The files
are unchanged: a data directory works with either class.

nano-vectordb ranks a query by sorting the scores of every vector (``np.argsort``),
a third of an embedded retrieval at 10K CVs; ``TopKNanoVectorDB`` selects the top k
with ``np.argpartition`` and sorts only those.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from lightrag.kg.nano_vector_db_impl import NanoVectorDBStorage
from nano_vectordb import NanoVectorDB
from nano_vectordb.dbs import f_METRICS, normalize

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


class TopKNanoVectorDB(NanoVectorDB):  # type: ignore[misc]  # nano-vectordb is untyped
    """NanoVectorDB whose cosine query selects the top k instead of sorting all scores.

    The same rows as nano-vectordb's own query, best first; rows of equal score come in
    storage order (nano-vectordb's unstable sort leaves their order unspecified).
    """

    _NanoVectorDB__storage: dict[str, Any]  # nano-vectordb's own (name-mangled) state

    def _cosine_query(
        self,
        query: Any,
        top_k: int,
        better_than_threshold: float | None,
        filter_lambda: Any = None,
    ) -> list[dict[str, Any]]:
        if filter_lambda is not None:
            return list(super()._cosine_query(query, top_k, better_than_threshold, filter_lambda))
        storage = self._NanoVectorDB__storage
        scores = np.dot(storage["matrix"], normalize(np.asarray(query)))
        k = min(top_k, len(scores))
        if k <= 0:
            return []
        kth = scores[np.argpartition(scores, len(scores) - k)[len(scores) - k :]].min()
        above = np.flatnonzero(scores > kth)
        top = np.concatenate([above, np.flatnonzero(scores == kth)[: k - len(above)]])
        best_first = top[np.lexsort((top, -scores[top]))]  # a stable sort's first k
        results = []
        for row in best_first:
            if better_than_threshold is not None and scores[row] < better_than_threshold:
                break
            results.append({**storage["data"][row], f_METRICS: scores[row]})
        return results
