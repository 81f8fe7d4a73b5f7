"""Analysis is linear in the text: time per analysed KB stays flat from 10 KB to 5 MB.

Ratios measured in one run (CPU time, best of a few), so a slow or busy machine
changes both sides alike. Inputs are the shapes that were quadratic: one skills line
listing thousands of skills, and one long line with no breaks.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import date

from talentrag.domain import DocumentType
from talentrag.ingestion.analyze import analyze_document
from talentrag.policy.limits import MAX_ANALYSED_CHARS
from talentrag.vocabulary import Vocabulary

ORDINARY = (
    "Senior engineer at Acme, Jan 2019 - present. Built services in Python and Go on "
    "Kubernetes; no commercial Java experience; currently learning Rust. Led a team of 4.\n"
)


def _per_kb(text: str, vocabulary: Vocabulary, runs: int = 2) -> float:
    def once() -> float:
        started = time.process_time()
        analyze_document(
            text,
            document_id="x",
            source_file="x.txt",
            document_type=DocumentType.CV,
            vocabulary=vocabulary,
            as_of=date(2026, 11, 1),
        )
        return time.process_time() - started

    analysed_kb = min(len(text), MAX_ANALYSED_CHARS) / 1024
    return min(once() for _ in range(runs)) / analysed_kb


def _sized(unit: Callable[[int], str], size: int) -> str:
    text, i = "Jane Doe\n", 0
    while len(text) < size:
        text += unit(i)
        i += 1
    return text


def test_time_per_kb_is_flat_from_10kb_to_5mb(vocabulary: Vocabulary):
    names = list(vocabulary.skills)
    rng = random.Random(7)
    baseline = _per_kb(_sized(lambda _: ORDINARY, 10 * 1024), vocabulary, runs=3)
    cases = {
        "5 MB of ordinary CV text": _sized(lambda _: ORDINARY, 5 * 1024 * 1024),
        "50,000 comma-separated skills": "Jane Doe\nSkills: "
        + ", ".join(rng.choice(names) for _ in range(50_000)),
        "one 1 MB line": "Jane Doe\n" + " ".join(rng.choice(names) for _ in range(100_000)),
    }
    for label, text in cases.items():
        ratio = _per_kb(text, vocabulary, runs=1) / baseline
        assert ratio < 4, f"{label}: {ratio:.1f}x the time per KB of a 10 KB CV"


def test_evidence_is_a_bounded_passage_around_the_mention(vocabulary: Vocabulary):
    line = "Jane Doe\nSkills: " + ", ".join(["Python", "Go", "Docker"] * 2000) + ", Kubernetes."
    record = analyze_document(
        line,
        document_id="x",
        source_file="x.txt",
        document_type=DocumentType.CV,
        vocabulary=vocabulary,
        as_of=date(2026, 11, 1),
    ).record
    for held in record.skills:
        for evidence in held.evidence:
            assert len(evidence.text) <= 300
            assert line[evidence.start : evidence.end] == evidence.text
    kubernetes = next(h for h in record.skills if h.skill == "Kubernetes")
    assert "Kubernetes" in kubernetes.evidence[0].text
