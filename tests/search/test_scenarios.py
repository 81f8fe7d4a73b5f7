"""The story's five scenarios on the sample corpus, real embedded LightRAG, MiniLM.

Expected holders and levels come from the corpus's own truth (ground_truth.jsonl
for the generated CVs, tests/fixtures/showcase_truth.yaml for the hand-written
showcase CVs), never from what the system extracted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from talentrag.domain import MatchKind
from talentrag.ingestion.analyze import document_id_for
from talentrag.runtime import KnowledgeBase
from talentrag.search import NO_MATCH_MESSAGE, SearchRequest
from tests.search.conftest import SAMPLE

FULL = {MatchKind.EXACT, MatchKind.ALIAS, MatchKind.IMPLIED}
SHOWCASE_TRUTH = Path(__file__).parents[1] / "fixtures" / "showcase_truth.yaml"


@dataclass(frozen=True)
class Truth:
    """Who holds which skill and each candidate's level, as the corpus was written."""

    skills: dict[str, frozenset[str]]  # candidate id -> skills (the showcase: asked ones only)
    levels: dict[str, str]

    def holders(self, skill: str) -> set[str]:
        """Candidate ids holding ``skill``."""
        return {cid for cid, skills in self.skills.items() if skill in skills}


@cache
def sample_truth() -> Truth:
    """The generated CVs' ground_truth.jsonl plus the hand-written showcase truth."""
    skills: dict[str, set[str]] = {}
    levels: dict[str, str] = {}
    for line in (SAMPLE / "ground_truth.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["document_type"] == "cv":
            cid = document_id_for(Path(record["file"]))
            skills[cid], levels[cid] = set(record["skills"]), record["level"]
    showcase = yaml.safe_load(SHOWCASE_TRUTH.read_text(encoding="utf-8"))
    for cid, level in showcase["levels"].items():
        skills.setdefault(cid, set())
        levels[cid] = level
    for skill, holders in showcase["holders"].items():
        for cid in holders:
            skills[cid].add(skill)
    return Truth({k: frozenset(v) for k, v in skills.items()}, levels)


async def _search(kb: KnowledgeBase, **kwargs):
    return await kb.search.search(SearchRequest(**kwargs), "sample")


async def test_python_and_machine_learning_senior(sample_kb: KnowledgeBase):
    response = await _search(
        sample_kb,
        required_skills=["Python", "Machine Learning"],
        experience_level="senior",
        top_k=50,
    )
    assert response.query == "Find senior candidates with Python and Machine Learning experience"
    truth = sample_truth()
    both = truth.holders("Python") & truth.holders("Machine Learning")
    senior_both = {cid for cid in both if truth.levels[cid] == "senior"}
    full = [
        c
        for c in response.candidates
        if not c.missing_skills and all(m.kind in FULL for m in c.skill_matches)
    ]
    assert {c.candidate_id for c in full} == senior_both and "hana-ml" in senior_both
    assert response.candidates[: len(full)] == full  # holders of both rank before partial matches
    qualified = [c for c in response.candidates if not c.missing_skills]
    assert response.candidates[: len(qualified)] == qualified  # then those missing a required skill
    for candidate in response.candidates:
        assert candidate.experience_level == "senior"
        record = await sample_kb.store.get("sample", candidate.candidate_id)
        assert (
            1 <= len(candidate.evidence) <= 3
            and candidate.evidence[0].source_file == record.source_file
        )
        assert record.source_file == candidate.source_file


async def test_kubernetes_finds_aliases_and_partial_credit_ranks_below(sample_kb: KnowledgeBase):
    response = await _search(sample_kb, required_skills=["Kubernetes"], top_k=50)
    by_id = {c.candidate_id: c for c in response.candidates}
    for writer in ("priya-k8s", "marco-eks", "sofia-helm"):
        assert writer in by_id, writer
    kinds = {
        cid: by_id[cid].skill_matches[0].kind for cid in ("priya-k8s", "marco-eks", "sofia-helm")
    }
    assert kinds == {
        "priya-k8s": MatchKind.ALIAS,
        "marco-eks": MatchKind.IMPLIED,
        "sofia-helm": MatchKind.IMPLIED,
    }
    # a related skill alone is partial: listed only when asked for, after every full match
    assert "daniel-orchestration" not in by_id
    response = await _search(
        sample_kb, required_skills=["Kubernetes"], top_k=50, include_partial=True
    )
    by_id = {c.candidate_id: c for c in response.candidates}
    partial = by_id["daniel-orchestration"]
    assert partial.skill_matches[0].kind is MatchKind.RELATED and partial.match_score < 0.6
    assert partial.matched_required_skills == [] and partial.missing_skills == []
    assert [(p.requested, p.stand_in) for p in partial.partial_skills] == [
        ("Kubernetes", "Container Orchestration")
    ]
    order = [c.candidate_id for c in response.candidates]
    assert max(order.index(w) for w in ("priya-k8s", "marco-eks", "sofia-helm")) < order.index(
        "daniel-orchestration"
    )
    assert all(c.candidate_id != "jd-001" for c in response.candidates)


async def test_level_filter_returns_only_that_level(sample_kb: KnowledgeBase):
    for level in ("junior", "mid", "senior"):
        response = await _search(
            sample_kb, required_skills=["Python"], experience_level=level, top_k=50
        )
        assert response.candidates, level
        assert {c.experience_level for c in response.candidates} == {level}


async def test_preferred_skills_rank_holders_first(sample_kb: KnowledgeBase):
    response = await _search(
        sample_kb, required_skills=["Python"], preferred_skills=["AWS"], top_k=50
    )
    holds = [bool(c.matched_preferred_skills) for c in response.candidates]
    assert True in holds and False in holds
    assert holds == sorted(holds, reverse=True)  # every AWS holder before every non-holder


async def test_unknown_skill_gives_the_graceful_message(sample_kb: KnowledgeBase):
    response = await _search(sample_kb, required_skills=["NonexistentSkill123"])
    assert response.candidates == []
    assert response.message.startswith(NO_MATCH_MESSAGE)
    assert "NonexistentSkill123" in response.message


async def test_impossible_combination_names_the_skill_that_ruled_most_out(sample_kb: KnowledgeBase):
    response = await _search(sample_kb, required_skills=["Python", "Wound Care"])
    assert response.candidates == []
    assert "'Wound Care' ruled out the most candidates" in response.message


async def test_every_holder_is_considered_not_only_lightrag_top_k(sample_kb: KnowledgeBase):
    holders = sample_truth().holders("Python")
    response = await _search(sample_kb, required_skills=["Python"], top_k=50)
    assert response.total_considered >= len(holders)
    assert len(response.candidates) == min(50, len(holders))


async def test_recruiter_wording_is_kept(sample_kb: KnowledgeBase):
    response = await _search(sample_kb, required_skills=["k8s"], preferred_skills=["golang"])
    assert response.query == "Find candidates with Kubernetes experience (nice to have: Go)"
    top = response.candidates[0]
    assert top.matched_required_skills == ["k8s"]
    assert top.candidate_id == "priya-k8s" and top.matched_preferred_skills == ["golang"]
