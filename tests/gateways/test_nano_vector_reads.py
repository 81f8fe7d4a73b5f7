"""TopKNanoVectorDB answers exactly as nano-vectordb's own query, without sorting all."""

from __future__ import annotations

import numpy as np
import pytest
from nano_vectordb import NanoVectorDB

from talentrag.gateways.nano_vector_reads import TopKNanoVectorDB


def _pair(tmp_path, vectors: np.ndarray) -> tuple[NanoVectorDB, TopKNanoVectorDB]:
    dbs = []
    for cls, name in ((NanoVectorDB, "plain.json"), (TopKNanoVectorDB, "topk.json")):
        db = cls(vectors.shape[1], storage_file=str(tmp_path / name))
        # nano-vectordb's field names; upsert takes the vectors out of the rows
        db.upsert(
            [{"__id__": f"row-{i}", "__vector__": v, "label": i} for i, v in enumerate(vectors)]
        )
        dbs.append(db)
    return dbs[0], dbs[1]


@pytest.mark.parametrize("top_k", [1, 7, 60, 500])
@pytest.mark.parametrize("threshold", [None, 0.2])
def test_the_same_rows_in_the_same_order_as_nano_vectordb(tmp_path, top_k, threshold) -> None:
    rng = np.random.default_rng(11)
    plain, topk = _pair(tmp_path, rng.normal(size=(300, 16)).astype(np.float32))
    for _ in range(20):
        query = rng.normal(size=16).astype(np.float32)
        expected = plain.query(query, top_k=top_k, better_than_threshold=threshold)
        found = topk.query(query, top_k=top_k, better_than_threshold=threshold)
        assert [r["__id__"] for r in found] == [r["__id__"] for r in expected]
        assert [r["__metrics__"] for r in found] == pytest.approx(
            [r["__metrics__"] for r in expected]
        )
        assert all(r["label"] == int(r["__id__"].split("-")[1]) for r in found)


def test_rows_of_equal_score_come_in_storage_order(tmp_path) -> None:
    same = np.tile(np.array([[1.0, 0.0, 0.0]], dtype=np.float32), (5, 1))
    other = np.array([[0.0, 1.0, 0.0], [0.6, 0.8, 0.0]], dtype=np.float32)
    _plain, topk = _pair(tmp_path, np.vstack([other, same]))
    found = topk.query(np.array([1.0, 0.0, 0.0], dtype=np.float32), top_k=4)
    assert [r["__id__"] for r in found] == ["row-2", "row-3", "row-4", "row-5"]


def test_an_empty_storage_answers_nothing(tmp_path) -> None:
    db = TopKNanoVectorDB(4, storage_file=str(tmp_path / "empty.json"))
    assert db.query(np.ones(4, dtype=np.float32), top_k=5) == []
