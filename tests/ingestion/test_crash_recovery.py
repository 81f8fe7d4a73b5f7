"""Kill a real ingest process mid-batch; every candidate must be fully in or fully out."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from talentrag.config import Settings
from talentrag.domain import DocumentType
from talentrag.graph_schema import document_node, level_node
from talentrag.runtime import open_knowledge_base
from tests.conftest import AS_OF

FIXTURES = Path(__file__).parent.parent / "fixtures" / "corpus"
COPIES = 8
BATCH = 8


def _corpus(folder: Path) -> int:
    folder.mkdir()
    n = 0
    for path in sorted(FIXTURES.glob("*")):
        if path.name.startswith("jd-"):
            continue
        for i in range(COPIES):
            text = path.read_text() + f"\nReference number {i}.\n"
            (folder / f"{path.stem}-{i}{path.suffix}").write_text(text)
            n += 1
    return n


def _ingest_command(corpus: Path, data_dir: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "talentrag.cli",
        "ingest",
        str(corpus),
        "--data-dir",
        str(data_dir),
        "--quiet",
        "--as-of",
        AS_OF.isoformat(),
    ]


def _status_counts(db: Path) -> dict[str, int]:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.1) as connection:
            return dict(
                connection.execute(
                    "SELECT status, COUNT(*) FROM documents GROUP BY status"
                ).fetchall()
            )
    except sqlite3.Error:
        return {}


def _kill_when_a_later_batch_is_pending(process: subprocess.Popen, db: Path) -> dict[str, int]:
    deadline = time.monotonic() + 180
    while process.poll() is None and time.monotonic() < deadline:
        counts = _status_counts(db)
        if counts.get("active", 0) >= BATCH and counts.get("pending", 0) > 0:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
            return counts
        time.sleep(0.005)
    raise AssertionError(f"never saw a pending batch to interrupt (exit {process.poll()})")


async def _assert_consistent(settings: Settings, expect_all: int | None = None) -> set[str]:
    """Every active candidate is whole in LightRAG; returns the active ids."""
    async with open_knowledge_base(settings, as_of=AS_OF) as kb:
        records = await kb.store.list_documents("default", limit=10_000)
        rag = await kb.graph.rag("default")
        graph = rag.chunk_entity_relation_graph
        for record in records:
            node = document_node(DocumentType.CV, record.id)
            edges = {t if s == node else s for s, t in await graph.get_node_edges(node) or []}
            assert edges == set(record.skill_names()) | {level_node(record.level.value)}, record.id
            chunks = [await rag.text_chunks.get_by_id(c.chunk_id) for c in record.chunks]
            assert all(chunks), record.id
        if expect_all is not None:
            assert len(records) == expect_all
            nodes = await graph.get_all_nodes()
            assert sorted(n["id"] for n in nodes if n.get("entity_type") == "candidate") == sorted(
                document_node(DocumentType.CV, r.id) for r in records
            )
            assert (await kb.store.summary("default")).unfinished == []
        return {r.id for r in records}


async def test_killed_ingest_leaves_whole_candidates_and_the_next_run_completes(tmp_path: Path):
    total = _corpus(tmp_path / "cvs")
    settings = Settings(data_dir=tmp_path / "kb", ingest_batch_size=BATCH)
    env = os.environ | {"TALENTRAG_INGEST_BATCH_SIZE": str(BATCH), "TALENTRAG_EMBEDDER": "minilm"}
    command = _ingest_command(tmp_path / "cvs", settings.data_dir)

    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = _kill_when_a_later_batch_is_pending(process, settings.data_dir / "candidates.sqlite3")
    assert process.returncode == -signal.SIGKILL
    print(f"\nkilled with {seen} rows")

    visible = await _assert_consistent(settings)
    assert BATCH <= len(visible) < total  # the interrupted batch is invisible, earlier ones whole
    pending = _status_counts(settings.data_dir / "candidates.sqlite3").get("pending", 0)
    assert pending > 0

    # The next run first completes the interrupted batch, then skips what is done.
    rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    done = len(visible) + pending
    assert (
        f"{total} files: {total - done} ingested, 0 updated, {done} skipped, 0 failed"
        in rerun.stdout
    )
    await _assert_consistent(settings, expect_all=total)
