"""Query construction, request validation and the scoring formula (no LightRAG)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from talentrag.domain import (
    CandidateProfile,
    ExperienceLevel,
    MatchKind,
    SkillHolding,
    SkillStrength,
)
from talentrag.search.models import SearchRequest
from talentrag.search.query import (
    build_query_text,
    build_retrieval_query,
    implied_by,
    resolve_skills,
)
from talentrag.search.scoring import depth, match_candidate
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
    assert build_query_text(skills, [ExperienceLevel.SENIOR]) == (
        "Find senior candidates with Python and Machine Learning experience (nice to have: AWS)"
    )
    assert build_query_text(skills[:1], [ExperienceLevel.MID, ExperienceLevel.SENIOR]) == (
        "Find mid or senior candidates with Python experience"
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


THIS_YEAR = 2026


def _held(strength=None, years=None, last_used=None, kind=MatchKind.EXACT, confidence=1.0):
    return SkillHolding(kind, confidence, 1, strength, years, last_used)


def test_depth_weighs_where_how_long_and_how_recently():
    # worked by hand from docs/scoring.md: 0.5 strength + 0.3 years/5 + 0.2 recency
    assert depth(_held(SkillStrength.ROLE, 6.0, 2026), THIS_YEAR) == 1.0
    assert depth(_held(SkillStrength.ROLE, 2.5, 2025), THIS_YEAR) == pytest.approx(0.85)
    assert depth(_held(SkillStrength.SKILLS_LIST), THIS_YEAR) == pytest.approx(0.3)
    assert depth(_held(SkillStrength.COURSE), THIS_YEAR) == pytest.approx(0.1)
    # last used 2016: 10 years ago, 9 past the recent year -> recency 0
    assert depth(_held(SkillStrength.ROLE, 1.0, 2016), THIS_YEAR) == pytest.approx(0.56)
    assert depth(None, THIS_YEAR) == 0.0  # found only in the text


async def test_scoring_formula(normalizer: SkillNormalizer):
    skills = await _resolve(normalizer, ["Kubernetes", "Python"], ["AWS", "Terraform"])
    role = _held(SkillStrength.ROLE, 5.0, 2026)  # depth 1.0 -> points = credit
    listed = _held(SkillStrength.SKILLS_LIST)  # depth 0.3 -> points = credit x 0.79
    full = match_candidate(
        CandidateProfile(
            "full",
            None,
            {"Kubernetes": role, "Python": role, "AWS": role, "Terraform": listed},
        ),
        skills,
        THIS_YEAR,
    )
    assert full.score == pytest.approx(0.8 * 1.0 + 0.2 * (1.0 + 0.79) / 2)
    partial = match_candidate(
        CandidateProfile("partial", None, {"Container Orchestration": role, "Python": role}),
        skills,
        THIS_YEAR,
    )
    assert partial.qualifies and partial.required_matched == 1 and partial.required_covered == 2
    assert partial.score == pytest.approx(0.8 * (0.5 + 1.0) / 2)
    (stand_in,) = [d for d in partial.details if d.status == "partial"]
    assert (stand_in.requested, stand_in.stand_in) == ("Kubernetes", "Container Orchestration")
    assert [s.requested for s in partial.missing] == ["AWS", "Terraform"]
    missing = match_candidate(
        CandidateProfile("missing", None, {"Python": role}), skills, THIS_YEAR
    )
    assert not missing.qualifies and missing.required_matched == 1
    ranked = sorted([missing, partial, full], key=lambda m: m.rank_key())
    assert [m.profile.id for m in ranked] == ["full", "partial", "missing"]


async def test_a_full_match_beats_a_stronger_stand_in(normalizer: SkillNormalizer):
    (kubernetes,) = await _resolve(normalizer, ["Kubernetes"])
    both = CandidateProfile(
        "c",
        None,
        {
            "Container Orchestration": _held(SkillStrength.ROLE, 8.0, 2026),
            "Kubernetes": _held(SkillStrength.SKILLS_LIST),
        },
    )
    (detail,) = match_candidate(both, [kubernetes], THIS_YEAR).details
    assert detail.status == "matched" and detail.skill == "Kubernetes"


async def test_a_skill_shown_only_by_a_course_is_partial(normalizer: SkillNormalizer):
    (kubernetes,) = await _resolve(normalizer, ["Kubernetes"])
    certified = CandidateProfile("c", None, {"Kubernetes": _held(SkillStrength.COURSE)})
    match = match_candidate(certified, [kubernetes], THIS_YEAR)
    (detail,) = match.details
    assert detail.status == "partial" and detail.stand_in == "Kubernetes (course only)"
    assert match.qualifies and not match.matches_all  # shown only with include_partial
    used = CandidateProfile("u", None, {"Kubernetes": _held(SkillStrength.SKILLS_LIST)})
    ranked = sorted(
        [match, match_candidate(used, [kubernetes], THIS_YEAR)], key=lambda m: m.rank_key()
    )
    assert [m.profile.id for m in ranked] == ["u", "c"]


async def test_equal_coverage_ranks_by_evidence_years_and_recency(normalizer: SkillNormalizer):
    skills = await _resolve(normalizer, ["Kubernetes"])
    senior = CandidateProfile(
        "b-senior", None, {"Kubernetes": _held(SkillStrength.ROLE, 7.0, 2026)}
    )
    listed = CandidateProfile("a-listed", None, {"Kubernetes": _held(SkillStrength.SKILLS_LIST)})
    certified = CandidateProfile("a-certified", None, {"Kubernetes": _held(SkillStrength.COURSE)})
    long_ago = CandidateProfile(
        "a-long-ago", None, {"Kubernetes": _held(SkillStrength.ROLE, 2.0, 2012)}
    )
    matches = [match_candidate(p, skills, THIS_YEAR) for p in (certified, listed, long_ago, senior)]
    ranked = [m.profile.id for m in sorted(matches, key=lambda m: m.rank_key())]
    assert ranked == ["b-senior", "a-long-ago", "a-listed", "a-certified"]


async def test_an_alias_counts_as_much_as_the_name(normalizer: SkillNormalizer):
    skills = await _resolve(normalizer, ["Kubernetes"])
    alias = match_candidate(
        CandidateProfile("k8s", None, {"Kubernetes": _held(kind=MatchKind.ALIAS)}),
        skills,
        THIS_YEAR,
    )
    exact = match_candidate(
        CandidateProfile("kubernetes", None, {"Kubernetes": _held()}), skills, THIS_YEAR
    )
    assert alias.score == exact.score


async def test_no_preferred_means_score_is_required_coverage(normalizer: SkillNormalizer):
    skills = await _resolve(normalizer, ["Kubernetes"])
    role = _held(SkillStrength.ROLE, 5.0, 2026)
    eks = match_candidate(
        CandidateProfile(
            "c",
            None,
            {
                "Amazon EKS": role,
                "Kubernetes": _held(SkillStrength.ROLE, 5.0, 2026, MatchKind.IMPLIED, 0.9),
            },
        ),
        skills,
        THIS_YEAR,
    )
    assert eks.score == pytest.approx(0.9) and eks.details[0].kind is MatchKind.IMPLIED


def test_ties_break_by_id(vocabulary: Vocabulary):
    from talentrag.search.scoring import CandidateMatch

    a = CandidateMatch(_record({}, "b"), [], [], 0.5, 1, 1, 0)
    b = CandidateMatch(_record({}, "a"), [], [], 0.5, 1, 1, 0)
    assert sorted([a, b], key=CandidateMatch.rank_key)[0].profile.id == "a"


@pytest.mark.parametrize(
    ("payload", "field", "rule"),
    [
        ({"required_skills": ["  "]}, "required_skills", "is empty"),
        ({"required_skills": [f"s{i}" for i in range(21)]}, "required_skills", "at most 20"),
        ({"required_skills": ["a"], "min_years": -1}, "min_years", "greater than or equal to 0"),
        ({"required_skills": ["a"], "exclude_skills": [""]}, "exclude_skills", "is empty"),
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


@pytest.mark.parametrize(
    ("payload", "rule"),
    [
        ({"required_skills": []}, "give required_skills, a free-text query, or a job description"),
        ({"preferred_skills": ["AWS"]}, "give required_skills"),
        (
            {"job_description_id": "jd-1", "job_description_text": "We need Python"},
            "not both",
        ),
    ],
)
def test_a_request_needs_something_to_search_for(payload, rule):
    with pytest.raises(ValidationError) as info:
        SearchRequest(**payload)
    assert rule in str(info.value)


@pytest.mark.parametrize(
    ("written", "levels"),
    [
        ("senior", ["senior"]),
        ("Mid or Senior", ["mid", "senior"]),
        ("junior, mid", ["junior", "mid"]),
        (["mid", "senior", "mid"], ["mid", "senior"]),
        ("", None),
    ],
)
def test_one_level_or_several(written, levels):
    request = SearchRequest(required_skills=["Python"], experience_level=written)
    assert request.experience_level == levels


def test_skills_are_trimmed_and_deduplicated():
    request = SearchRequest(
        required_skills=[" Python ", "python", "Go  lang"], preferred_skills=["AWS", "aws"]
    )
    assert request.required_skills == ["Python", "Go lang"] and request.preferred_skills == ["AWS"]
