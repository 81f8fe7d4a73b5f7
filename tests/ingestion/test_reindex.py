"""Re-analysis of stored documents after a vocabulary change, on the real stores.

A vocabulary that learns a new skill must reach CVs stored before it: ``reindex``
re-analyses them from their stored text, batch by batch, atomically in the candidate
store and in LightRAG; a run that fails or is cut off loses nothing and the next run
completes it.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import yaml

from talentrag.application import StaleAnalysis, TalentService
from talentrag.config import Settings
from talentrag.domain import DocumentType, MatchKind
from talentrag.embeddings import HashingEmbedder
from talentrag.errors import WriteFailed
from talentrag.gateways.base import GraphWrite
from talentrag.graph_schema import document_node, level_node
from talentrag.ingestion.analysis_version import analysis_version
from talentrag.ingestion.pipeline import Outcome, SourceDocument, UnfinishedWrites
from talentrag.runtime import KnowledgeBase, open_knowledge_base
from talentrag.search import SearchRequest
from talentrag.vocabulary import load_vocabulary
from talentrag.vocabulary.vocabulary import default_vocabulary_path
from tests.conftest import AS_OF

NEW_SKILL = "Quillsmith CAD"  # made up, so no vocabulary has it before the test adds it

CVS = {
    "ada": "Ada Lovelace\nSoftware Engineer, Jan 2015 - Present\nSkills: Python, Kubernetes.\n",
    "bea": "Bea Brandt\nMechanical Engineer, Jan 2012 - Present\nSkills: AutoCAD, Quillsmith.\n",
    "cem": "Cem Yilmaz\nCivil Engineer, Mar 2019 - Present\nTools: Quillsmith, AutoCAD.\n",
    "dan": "Dan Okafor\nDesign Engineer, Jun 2010 - Present\nSkills: Quillsmith, SolidWorks.\n",
    "eva": "Eva Lind\nDraughtsman, Feb 2021 - Present\nSkills: Quillsmith, AutoCAD.\n",
}


def write_vocabularies(folder: Path) -> tuple[Path, Path]:
    """The packaged vocabulary (v1) and the same plus one new skill with an alias (v2)."""
    folder.mkdir(parents=True, exist_ok=True)
    packaged = default_vocabulary_path()
    for path in packaged.parent.iterdir():
        if path.is_file():
            shutil.copy(path, folder / path.name)
    data = yaml.safe_load(packaged.read_text())
    category = next(s["category"] for s in data["skills"] if s["name"] == "AutoCAD")
    data["skills"].append(
        {
            "name": NEW_SKILL,
            "category": category,
            "description": "A drafting tool.",
            "aliases": ["Quillsmith"],
        }
    )
    new = folder / "skills-v2.yaml"
    new.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return folder / packaged.name, new


@pytest.fixture(scope="module")
def vocabularies(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return write_vocabularies(tmp_path_factory.mktemp("vocabulary"))


@asynccontextmanager
async def opened(
    data_dir: Path, vocabulary: Path, batch_size: int = 50, **settings: object
) -> AsyncIterator[KnowledgeBase]:
    config = Settings(
        data_dir=data_dir,
        embedder="hashing",
        ingest_batch_size=batch_size,
        ingest_workers=0,
        vocabulary_path=vocabulary,
        **settings,  # type: ignore[arg-type]
    )
    async with open_knowledge_base(config, as_of=AS_OF, embedder=HashingEmbedder(64)) as kb:
        yield kb


async def _ingest(kb: KnowledgeBase, cvs: dict[str, str], **names: str) -> None:
    sources = [SourceDocument(text, i, f"{i}.txt", name=names.get(i)) for i, text in cvs.items()]
    await kb.ingestor.ingest_documents("default", sources)


async def _graph_edges(kb: KnowledgeBase, document_id: str) -> set[str]:
    rag = await kb.graph.rag("default")
    node = document_node(DocumentType.CV, document_id)
    edges = await rag.chunk_entity_relation_graph.get_node_edges(node) or []
    return {t if s == node else s for s, t in edges}


async def _assert_whole(kb: KnowledgeBase, ids: list[str]) -> None:
    """Every id is active, and LightRAG holds exactly its stored skills, level and chunks."""
    rag = await kb.graph.rag("default")
    for document_id in ids:
        record = await kb.store.get("default", document_id)
        assert record is not None, document_id
        expected = set(record.skill_names()) | {level_node(record.level.value)}
        assert await _graph_edges(kb, document_id) == expected, document_id
        assert all([await rag.text_chunks.get_by_id(c.chunk_id) for c in record.chunks])


async def _match_kinds(kb: KnowledgeBase, skill: str) -> dict[str, MatchKind]:
    response = await kb.search.search(SearchRequest(required_skills=[skill], top_k=10), "default")
    return {c.candidate_id: c.skill_matches[0].kind for c in response.candidates}


async def _search(kb: KnowledgeBase, skill: str) -> list[str]:
    response = await kb.search.search(SearchRequest(required_skills=[skill], top_k=10), "default")
    return [c.candidate_id for c in response.candidates]


async def test_a_new_vocabulary_reaches_stored_cvs_through_reindex(tmp_path: Path, vocabularies):
    old, new = vocabularies
    cvs = {i: CVS[i] for i in ("ada", "bea")}
    async with opened(tmp_path / "kb", old) as kb:
        await _ingest(kb, cvs, ada="Ada King (ATS name)")
        assert (await kb.store.get("default", "bea")).skill_names() == [
            "AutoCAD",
            "Mechanical Engineering",
        ]

    async with opened(tmp_path / "kb", new) as kb:
        assert await kb.ingestor.stale_count("default") == 2
        # stored under the old vocabulary: found only because the text names it
        assert await _match_kinds(kb, NEW_SKILL) == {"bea": MatchKind.TEXT}

        report = await kb.ingestor.reindex("default")

        assert (report.total, report.reanalysed, report.changed, report.failed) == (2, 2, 1, [])
        bea = await kb.store.get("default", "bea")
        assert NEW_SKILL in bea.skill_names()
        assert NEW_SKILL in await _graph_edges(kb, "bea")
        assert await _match_kinds(kb, NEW_SKILL) == {"bea": MatchKind.ALIAS}  # now held
        ada = await kb.store.get("default", "ada")
        assert ada.name == "Ada King (ATS name)"  # a name the caller gave survives
        assert set(ada.skill_names()) >= {"Python", "Kubernetes"}
        await _assert_whole(kb, list(cvs))
        stamps = {v.analysis for v in (await kb.store.versions("default", list(cvs))).values()}
        assert stamps == {kb.ingestor.analysis}
        assert await kb.ingestor.stale_count("default") == 0
        again = await kb.ingestor.reindex("default")
        assert (again.total, again.reanalysed) == (0, 0)


async def test_an_unchanged_cv_ingested_again_under_a_new_vocabulary_is_updated(
    tmp_path: Path, vocabularies
):
    old, new = vocabularies
    async with opened(tmp_path / "kb", old) as kb:
        await _ingest(kb, {"bea": CVS["bea"]})
    async with opened(tmp_path / "kb", new) as kb:
        source = [SourceDocument(CVS["bea"], "bea", "bea.txt")]
        (updated,) = await kb.ingestor.ingest_documents("default", source)
        (skipped,) = await kb.ingestor.ingest_documents("default", source)
        assert (updated.outcome, skipped.outcome) == (Outcome.UPDATED, Outcome.SKIPPED)
        assert NEW_SKILL in (await kb.store.get("default", "bea")).skill_names()


class FailingWrites:
    """Fails chosen LightRAG writes (counted from 1) half-way, in front of the real graph."""

    def __init__(self, kb: KnowledgeBase, failing: set[int]):
        self.calls = 0
        self.failing = failing
        self._write: Callable[[str, GraphWrite], Awaitable[None]] = kb.graph.write
        kb.ingestor.graph.write = self.write  # type: ignore[method-assign]

    async def write(self, tenant: str, write: GraphWrite) -> None:
        self.calls += 1
        if self.calls in self.failing:
            # a half-applied write: the old documents are removed, the insert breaks
            await self._write(tenant, GraphWrite(remove_entities=write.remove_entities))
            raise ValueError("the graph refused the write")
        await self._write(tenant, write)


async def test_a_failed_batch_is_undone_and_the_next_run_continues(tmp_path: Path, vocabularies):
    old, new = vocabularies
    async with opened(tmp_path / "kb", old) as kb:
        await _ingest(kb, CVS)
    async with opened(tmp_path / "kb", new, batch_size=2) as kb:
        FailingWrites(kb, failing={2})  # the second batch: bea's batch is done, cem's fails

        with pytest.raises(WriteFailed, match="undone; nothing changed"):
            await kb.ingestor.reindex("default")

        await _assert_whole(kb, list(CVS))  # every candidate visible and whole
        records = await kb.store.get_many("default", list(CVS))
        assert [i for i, r in sorted(records.items()) if NEW_SKILL in r.skill_names()] == ["bea"]
        assert await kb.ingestor.stale_count("default") == 3  # the undone batch is stale again
        assert (await kb.store.summary("default")).unfinished == []

        report = await kb.ingestor.reindex("default")

        assert (report.total, report.reanalysed, report.failed) == (3, 3, [])
        await _assert_whole(kb, list(CVS))
        records = await kb.store.get_many("default", list(CVS))
        assert all(NEW_SKILL in records[i].skill_names() for i in CVS if i != "ada")
        assert await _search(kb, NEW_SKILL) == sorted(i for i in CVS if i != "ada")


async def test_a_run_cut_off_mid_batch_is_completed_by_the_next(tmp_path: Path, vocabularies):
    old, new = vocabularies
    async with opened(tmp_path / "kb", old) as kb:
        await _ingest(kb, CVS)
    async with opened(tmp_path / "kb", new, batch_size=2) as kb:
        FailingWrites(kb, failing={2, 3})  # the second batch's write and its undo

        with pytest.raises(UnfinishedWrites):
            await kb.ingestor.reindex("default")
        assert (await kb.store.summary("default")).unfinished == ["cem", "dan"]
        unfinished = await kb.store.unfinished("default")
        assert all(w.previous is not None for w in unfinished)  # the old versions are kept

    async with opened(tmp_path / "kb", new, batch_size=2) as kb:  # as after a restart
        report = await kb.ingestor.reindex("default")
        # the cut-off batch is completed first, so this run only does the last one
        assert (report.total, report.reanalysed) == (1, 1)
        await _assert_whole(kb, list(CVS))
        assert await kb.ingestor.stale_count("default") == 0
        assert (await kb.store.summary("default")).unfinished == []


async def test_a_document_the_analyser_fails_on_keeps_its_version(
    tmp_path: Path, vocabularies, monkeypatch: pytest.MonkeyPatch
):
    old, new = vocabularies
    async with opened(tmp_path / "kb", old) as kb:
        await _ingest(kb, CVS)
    async with opened(tmp_path / "kb", new, batch_size=2) as kb:
        analyze = kb.pool.analyze

        async def broken_on_cem(text: str, **kwargs):  # type: ignore[no-untyped-def]
            if kwargs["document_id"] == "cem":
                raise RuntimeError("analyser bug")
            return await analyze(text, **kwargs)

        monkeypatch.setattr(kb.pool, "analyze", broken_on_cem)
        report = await kb.ingestor.reindex("default")

        assert [(f.document_id, f.outcome) for f in report.failed] == [("cem", Outcome.FAILED)]
        assert "analysis failed (RuntimeError)" in report.failed[0].reason
        assert (report.total, report.reanalysed) == (5, 4)
        assert NEW_SKILL not in (await kb.store.get("default", "cem")).skill_names()
        await _assert_whole(kb, list(CVS))
        assert await kb.ingestor.stale_count("default") == 1  # the next run retries it

        monkeypatch.setattr(kb.pool, "analyze", analyze)
        assert (await kb.ingestor.reindex("default")).reanalysed == 1
        assert NEW_SKILL in (await kb.store.get("default", "cem")).skill_names()


async def test_start_up_reanalyses_every_tenant_or_refuses(tmp_path: Path, vocabularies):
    old, new = vocabularies
    async with opened(tmp_path / "kb", old) as kb:
        await _ingest(kb, {"bea": CVS["bea"]})
        await kb.ingestor.ingest_documents("acme", [SourceDocument(CVS["cem"], "cem", "cem.txt")])

    async with opened(tmp_path / "kb", new, reindex_on_start=False) as kb:
        service = TalentService(kb)
        assert await service.stale_analysis() == {"acme": 1, "default": 1}
        with pytest.raises(StaleAnalysis, match="talentrag reindex --all-tenants") as refused:
            await service.bring_analysis_up_to_date()
        assert refused.value.exit_code == 2

    async with opened(tmp_path / "kb", new) as kb:
        service = TalentService(kb)
        reports = await service.bring_analysis_up_to_date()
        assert [(r.tenant, r.reanalysed, r.changed) for r in reports] == [
            ("acme", 1, 1),
            ("default", 1, 1),
        ]
        assert await service.stale_analysis() == {}
        assert NEW_SKILL in (await kb.store.get("acme", "cem")).skill_names()
        assert await service.bring_analysis_up_to_date() == []


KILL_BATCH = 8
KILL_COPIES = 8


def _counts(db: Path, stamp: str) -> tuple[int, int]:
    """(active rows at ``stamp``, pending rows), read while the reindex process writes."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.1) as connection:
            ((done, pending),) = connection.execute(
                "SELECT SUM(status='active' AND analysis=?), SUM(status='pending') FROM documents",
                [stamp],
            ).fetchall()
            return done or 0, pending or 0
    except sqlite3.Error:
        return 0, 0


def _kill_mid_batch(process: subprocess.Popen, db: Path, stamp: str) -> None:
    deadline = time.monotonic() + 240
    while process.poll() is None and time.monotonic() < deadline:
        done, pending = _counts(db, stamp)
        if done >= KILL_BATCH and pending:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
            return
        time.sleep(0.005)
    raise AssertionError(f"never saw a pending batch to interrupt (exit {process.poll()})")


async def test_a_killed_reindex_loses_nothing_and_the_next_run_completes(
    tmp_path: Path, vocabularies
):
    """SIGKILL a real ``talentrag reindex`` with a batch half-written; then run it again."""
    old, new = vocabularies
    data_dir = tmp_path / "kb"
    cvs = {
        f"{i}-{k}": f"{text}Reference number {k}.\n"
        for i, text in CVS.items()
        for k in range(KILL_COPIES)
    }
    settings = Settings(data_dir=data_dir, vocabulary_path=old, ingest_workers=0)
    async with open_knowledge_base(settings, as_of=AS_OF) as kb:  # MiniLM: slow enough to catch
        await _ingest(kb, cvs)
    stamp = analysis_version(load_vocabulary(new))
    command = [sys.executable, "-m", "talentrag.cli", "reindex", "--data-dir", str(data_dir)]
    command += ["--quiet", "--as-of", AS_OF.isoformat()]
    env = os.environ | {
        "TALENTRAG_VOCABULARY_PATH": str(new),
        "TALENTRAG_INGEST_BATCH_SIZE": str(KILL_BATCH),
        "TALENTRAG_EMBEDDER": "minilm",
    }

    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _kill_mid_batch(process, data_dir / "candidates.sqlite3", stamp)

    later = Settings(data_dir=data_dir, vocabulary_path=new, ingest_workers=0)
    async with open_knowledge_base(later, as_of=AS_OF) as kb:
        active = [r.id for r in await kb.store.list_documents("default", limit=1000)]
        pending = [w.record.id for w in await kb.store.unfinished("default")]
        assert pending and sorted(active + pending) == sorted(cvs)  # nothing lost
        assert all(w.previous is not None for w in await kb.store.unfinished("default"))
        await _assert_whole(kb, active)  # what searches see is whole in both stores
        left = await kb.ingestor.stale_count("default")
        assert 0 < left < len(cvs) - len(pending)

    rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)

    assert rerun.returncode == 0, rerun.stderr
    # the interrupted batch is completed first; the run re-analyses only what was left
    assert f"tenant default: {left} documents re-analysed" in rerun.stdout
    async with open_knowledge_base(later, as_of=AS_OF) as kb:
        await _assert_whole(kb, list(cvs))
        assert await kb.ingestor.stale_count("default") == 0
        holders = await kb.store.get_many("default", list(cvs))
        assert sorted(i for i, r in holders.items() if NEW_SKILL in r.skill_names()) == sorted(
            i for i in cvs if not i.startswith("ada")
        )


def test_the_stamp_names_the_analyser_and_the_vocabulary(vocabularies):
    old, new = vocabularies
    before, after = load_vocabulary(old), load_vocabulary(new)
    assert analysis_version(before).endswith(before.version)
    assert analysis_version(before).startswith("analyser-")
    assert analysis_version(before) != analysis_version(after)
