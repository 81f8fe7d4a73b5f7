"""Query construction, request validation and the scoring formula (no LightRAG)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from talentrag.domain import CandidateProfile, ExperienceLevel, MatchKind, SkillHolding
from talentrag.search.models import SearchRequest
from talentrag.search.query import (
    build_query_text,
    build_retrieval_query,
    implied_by,
    resolve_skills,
)
from talentrag.search.scoring import match_candidate
from talentrag.vocabulary import SkillNormalizer, Vocabulary


@pytest.fixture(scope="module")
def normalizer(vocabulary: Vocabulary) -> SkillNormalizer:
    return SkillNormalizer(vocabulary)  # no embedder: vocabulary only


async def _resolve(normalizer: SkillNormalizer, required: list[str], preferred: list[str] = ()):
    return await resolve_skills(
        required, list(preferred), normalizer, implied_by(normalizer.vocabulary)
    )


async def test_query_text_uses_canonical_names(normalizer: SkillNormalizer):
    skills = await _resolve(normalizer, ["python", "ML"], ["aws"])
    assert build_query_text(skills, ExperienceLevel.SENIOR) == (
        "Find senior candidates with Python and Machine Learning experience (nice to have: AWS)"
    )
    assert build_query_text(skills[:1], None) == "Find candidates with Python experience"


async def test_keywords_mean_no_llm_is_needed(normalizer: SkillNormalizer):
    query = build_retrieval_query(await _resolve(normalizer, ["K8s"], ["Terraform"]), None, 5)
    assert query.ll_keywords == ["Kubernetes", "Terraform"]
    assert query.hl_keywords and query.mode == "hybrid"


async def test_accepted_skills_for_kubernetes(normalizer: SkillNormalizer):
    (kubernetes,) = await _resolve(normalizer, ["Kubernetes"])
    accepts = kubernetes.accepts
    assert accepts["Kubernetes"].confidence == 1.0
    assert (
        accepts["Amazon EKS"].kind is MatchKind.IMPLIED
        and accepts["Helm"].kind is MatchKind.IMPLIED
    )
    assert (
        accepts["Container Orchestration"].kind is MatchKind.RELATED
        and accepts["Container Orchestration"].confidence == 0.5
    )


async def test_unknown_skill_keeps_its_wording(normalizer: SkillNormalizer):
    (unknown,) = await _resolve(normalizer, ["Quantum Basket Weaving"])
    assert (
        unknown.primary is None
        and unknown.accepts == {}
        and unknown.canonical == "Quantum Basket Weaving"
    )


def _record(skills: dict[str, tuple[MatchKind, float]], cid: str = "c1") -> CandidateProfile:
    return CandidateProfile(cid, None, {s: SkillHolding(k, c, 2) for s, (k, c) in skills.items()})


async def test_scoring_formula(normalizer: SkillNormalizer):
    skills = await _resolve(normalizer, ["Kubernetes", "Python"], ["AWS", "Terraform"])
    full = match_candidate(
        _record(
            {
                "Kubernetes": (MatchKind.EXACT, 1.0),
                "Python": (MatchKind.EXACT, 1.0),
                "AWS": (MatchKind.EXACT, 1.0),
                "Terraform": (MatchKind.ALIAS, 0.95),
            }
        ),
        skills,
    )
    assert full.score == pytest.approx(0.8 * 1.0 + 0.2 * (1.0 + 0.95) / 2)
    partial = match_candidate(
        _record(
            {"Container Orchestration": (MatchKind.EXACT, 1.0), "Python": (MatchKind.EXACT, 1.0)}
        ),
        skills,
    )
    assert partial.qualifies and partial.required_matched == 2
    assert partial.score == pytest.approx(0.8 * (0.5 + 1.0) / 2)
    assert [s.requested for s in partial.missing] == ["AWS", "Terraform"]
    missing = match_candidate(_record({"Python": (MatchKind.EXACT, 1.0)}), skills)
    assert not missing.qualifies and missing.required_matched == 1
    ranked = sorted([partial, full], key=lambda m: m.rank_key())
    assert ranked[0] is full


async def test_no_preferred_means_score_is_required_coverage(normalizer: SkillNormalizer):
    skills = await _resolve(normalizer, ["Kubernetes"])
    eks = match_candidate(
        _record({"Amazon EKS": (MatchKind.ALIAS, 0.95), "Kubernetes": (MatchKind.IMPLIED, 0.9)}),
        skills,
    )
    assert eks.score == pytest.approx(0.9) and eks.details[0].kind is MatchKind.IMPLIED


def test_ties_break_by_id(vocabulary: Vocabulary):
    from talentrag.search.scoring import CandidateMatch

    a = CandidateMatch(_record({}, "b"), [], [], 0.5, 1, 2)
    b = CandidateMatch(_record({}, "a"), [], [], 0.5, 1, 2)
    assert sorted([a, b], key=CandidateMatch.rank_key)[0].profile.id == "a"


@pytest.mark.parametrize(
    ("payload", "field", "rule"),
    [
        ({"required_skills": []}, "required_skills", "1 to 20"),
        ({"required_skills": ["  "]}, "required_skills", "is empty"),
        ({"required_skills": [f"s{i}" for i in range(21)]}, "required_skills", "1 to 20"),
        (
            {"required_skills": ["a"], "preferred_skills": [f"s{i}" for i in range(21)]},
            "preferred_skills",
            "at most 20",
        ),
        ({"required_skills": ["a"], "top_k": 0}, "top_k", "greater than or equal to 1"),
        ({"required_skills": ["a"], "top_k": 51}, "top_k", "less than or equal to 50"),
        ({"required_skills": ["a"], "experience_level": "guru"}, "experience_level", "junior"),
        ({"required_skills": ["a"], "tenant": "Not OK"}, "tenant", "invalid"),
        ({"required_skills": ["a"], "colour": "red"}, "colour", "Extra inputs"),
    ],
)
def test_request_errors_name_the_field_and_rule(payload, field, rule):
    with pytest.raises(ValidationError) as info:
        SearchRequest(**payload)
    (error,) = info.value.errors()
    assert error["loc"][0] == field and rule in error["msg"]


def test_skills_are_trimmed_and_deduplicated():
    request = SearchRequest(
        required_skills=[" Python ", "python", "Go  lang"], preferred_skills=["AWS", "aws"]
    )
    assert request.required_skills == ["Python", "Go lang"] and request.preferred_skills == ["AWS"]
