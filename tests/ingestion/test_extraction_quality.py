"""Skill extraction and level accuracy on a labelled generated corpus, ingested for real.

The labels are what the generator chose to write (tests/support/generator), not a
reading of the text, so every miss below is the extractor's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from talentrag.domain import DocumentType
from talentrag.ingestion.analyze import document_id_for
from talentrag.runtime import KnowledgeBase
from tests.conftest import AS_OF
from tests.support.generator import generate_corpus

N_CVS = 320


@pytest.fixture
async def labelled(kb: KnowledgeBase, tmp_path: Path) -> list[dict]:
    truth_path = generate_corpus(
        tmp_path / "corpus", N_CVS, seed=7, n_job_descriptions=4, as_of=AS_OF
    )
    kb.ingestor.batch_size = 400
    results = await kb.ingestor.ingest_paths([tmp_path / "corpus" / "cvs"], "default")
    await kb.ingestor.ingest_paths(
        [tmp_path / "corpus" / "jobs"], "default", DocumentType.JOB_DESCRIPTION
    )
    assert all(r.outcome.value == "ingested" for r in results)
    return [json.loads(line) for line in truth_path.read_text().splitlines()]


async def test_skill_precision_recall_and_level_accuracy(kb: KnowledgeBase, labelled: list[dict]):
    cvs = [t for t in labelled if t["document_type"] == "cv"]
    records = await kb.store.get_many("default", [document_id_for(Path(t["file"])) for t in cvs])
    true_positive = predicted_total = truth_total = levels_right = negated_leaks = 0
    for truth in cvs:
        record = records[document_id_for(Path(truth["file"]))]
        predicted = set(record.skill_names())
        expected = {*truth["skills"], *truth["languages"]}
        true_positive += len(predicted & expected)
        predicted_total += len(predicted)
        truth_total += len(expected)
        levels_right += record.level == truth["level"]
        negated_leaks += len(predicted & set(truth["mentioned_not_held"]))
    precision, recall = true_positive / predicted_total, true_positive / truth_total
    accuracy = levels_right / len(cvs)
    negated = sum(len(t["mentioned_not_held"]) for t in cvs)
    print(
        f"\nextraction on {len(cvs)} generated CVs: precision {precision:.4f}, recall {recall:.4f}, "
        f"level accuracy {accuracy:.4f}, negated/aspirational mentions held {negated_leaks} of {negated}"
    )
    assert precision >= 0.95
    assert recall >= 0.95
    assert accuracy >= 0.9
    assert negated_leaks == 0


async def test_job_documents_never_become_candidates(kb: KnowledgeBase, labelled: list[dict]):
    candidates = {r.id for r in await kb.store.list_documents("default", limit=10_000)}
    jobs = [t for t in labelled if t["document_type"] != "cv"]
    assert jobs and not candidates & {document_id_for(Path(t["file"])) for t in jobs}
    assert len(candidates) == N_CVS
