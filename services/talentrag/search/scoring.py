"""Per-candidate skill matching, labels, the match score and the ranking (docs/scoring.md).

For each requested skill a candidate is ``matched`` (the skill, an alias, a skill that
implies it, a skill of its family when it is a broad term, or its name in the CV's
text), ``partial`` (only a related skill stands in, or a broad term's family shows in a
single skill) or ``missing``.

credit(s)   accept(s, h) x held_confidence(h) for the held skill h chosen for s: the
            best full match, else the best stand-in (factors in policy/credits.py)
depth(s)    0.5 strength + 0.3 years + 0.2 recency of h, each in [0, 1]
points(s)   credit(s) x (0.7 + 0.3 depth(s));  0 when missing
R, P        mean points over required, preferred skills
match_score R (no preferred skills), else 0.8 R + 0.2 P

Ranking: coverage first (required skills matched, then required skills matched or
partial, then preferred skills matched), then match_score, then candidate id. A candidate *qualifies* when every required skill is
matched or partial.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from talentrag.domain import CandidateProfile, MatchKind, SkillHolding, SkillStrength
from talentrag.policy.credits import (
    COURSE_ONLY_IS_PARTIAL,
    DEPTH_SHARE,
    DEPTH_WEIGHTS,
    FAMILY_SKILLS_FOR_MATCH,
    FULL_MATCH_KINDS,
    RECENT_YEARS,
    REQUIRED_WEIGHT,
    STALE_AFTER_YEARS,
    STRENGTH_WEIGHT,
    TEXT_CREDIT,
    UNKNOWN_STRENGTH_WEIGHT,
    YEARS_FOR_FULL_DEPTH,
)
from talentrag.search.models import SkillMatchDetail
from talentrag.search.query import RequestedSkill


class MatchStatus(StrEnum):
    """How one requested skill is met by one candidate."""

    MATCHED = "matched"
    PARTIAL = "partial"


@dataclass(frozen=True, slots=True)
class Credit:
    """The credit one candidate earns for one requested skill, and from which held skill."""

    requested: RequestedSkill
    skill: str  # the held skill that earned it (the requested one for a text match)
    kind: MatchKind  # how the held skill meets the request
    confidence: float
    depth: float
    points: float
    family_held: int = 0  # for a broad term: how many skills of its family the candidate holds
    course_only: bool = False  # only a course or certificate shows the held skill

    @property
    def status(self) -> MatchStatus:
        """Matched by the skill itself, its name in the text, or its family shown broadly
        enough; otherwise a stand-in, or a course alone: partial."""
        if self.course_only:
            return MatchStatus.PARTIAL
        if self.kind is MatchKind.NARROWER and self.family_held < FAMILY_SKILLS_FOR_MATCH:
            return MatchStatus.PARTIAL
        return MatchStatus.MATCHED if self.kind in FULL_MATCH_KINDS else MatchStatus.PARTIAL


@dataclass
class CandidateMatch:
    """How one candidate meets the request: credits, missing skills, score and ranking inputs."""

    profile: CandidateProfile
    credits: list[Credit]
    missing: list[RequestedSkill]
    score: float
    required_matched: int
    required_covered: int
    preferred_matched: int

    @property
    def qualifies(self) -> bool:
        """True when every required skill is matched or partial."""
        return not any(s.required for s in self.missing)

    @property
    def matches_all(self) -> bool:
        """True when every required skill is matched (none only partial)."""
        return self.qualifies and self.required_matched == self.required_covered

    def rank_key(self) -> tuple[int, int, int, float, str]:
        """Sort key: coverage (required matched, required matched or partial, preferred
        matched), then the score, which within equal coverage is the evidence's depth."""
        return (
            -self.required_matched,
            -self.required_covered,
            -self.preferred_matched,
            -self.score,
            self.profile.id,
        )

    @property
    def details(self) -> list[SkillMatchDetail]:
        """For the answer only: built for the top candidates, not the whole pool."""
        return [_detail(c, self.profile.skills.get(c.skill)) for c in self.credits]


def depth(holding: SkillHolding | None, this_year: int) -> float:
    """How strongly a CV shows a held skill: where, for how long, how recently (0..1)."""
    if holding is None:  # a text match: no analysis says how the CV uses it
        return 0.0
    strength = STRENGTH_WEIGHT[holding.strength] if holding.strength else UNKNOWN_STRENGTH_WEIGHT
    years = min(holding.years or 0.0, YEARS_FOR_FULL_DEPTH) / YEARS_FOR_FULL_DEPTH
    recency = 0.0
    if holding.last_used is not None:
        ago = max(0, this_year - holding.last_used - RECENT_YEARS)
        recency = max(0.0, 1 - ago / (STALE_AFTER_YEARS - RECENT_YEARS))
    w_strength, w_years, w_recency = DEPTH_WEIGHTS
    return round(w_strength * strength + w_years * years + w_recency * recency, 4)


def course_only(holding: SkillHolding) -> bool:
    """Whether a course or certificate is all that shows a held skill: partial, not matched
    (``COURSE_ONLY_IS_PARTIAL``)."""
    return COURSE_ONLY_IS_PARTIAL and holding.strength is SkillStrength.COURSE


def points(confidence: float, skill_depth: float) -> float:
    """One requested skill's points from the credit earned and the held skill's depth."""
    return round(confidence * (1 - DEPTH_SHARE + DEPTH_SHARE * skill_depth), 4)


def match_score(
    required_points: float, preferred_points: float, n_required: int, n_preferred: int
) -> float:
    """The match score from the summed points of the required and the preferred skills.

    Points are summed left to right in request order, in ``match_candidate`` and in the
    vectorised ranking, so both give the same float to the last bit.
    """
    r = required_points / n_required if n_required else 0.0
    if not n_preferred:
        return round(min(1.0, r), 4)
    score = REQUIRED_WEIGHT * r + (1 - REQUIRED_WEIGHT) * preferred_points / n_preferred
    return round(min(1.0, score), 4)


def _best_credit(
    requested: RequestedSkill, held: dict[str, SkillHolding], candidate_id: str, this_year: int
) -> Credit | None:
    """The best full match, else the best stand-in, else the text, else None."""
    best: tuple[bool, float, float] | None = None
    chosen: tuple[str, MatchKind, float, float] | None = None
    for skill, accepted in requested.accepts.items():
        holding = held.get(skill)
        if holding is None:
            continue
        confidence = accepted.confidence * holding.confidence
        skill_depth = depth(holding, this_year)
        full = accepted.kind in FULL_MATCH_KINDS and not course_only(holding)
        key = (full, confidence, skill_depth)
        if best is None or key > best:
            best, chosen = key, (skill, accepted.kind, confidence, skill_depth)
    if chosen is not None:
        skill, kind, confidence, skill_depth = chosen
        family = sum(
            m.kind is MatchKind.NARROWER and name in held for name, m in requested.accepts.items()
        )
        return Credit(
            requested,
            skill,
            kind,
            round(confidence, 3),
            skill_depth,
            points(confidence, skill_depth),
            family,
            course_only(held[skill]),
        )
    if candidate_id in requested.found_in_text:  # nobody holds it; this CV's text names it
        return Credit(
            requested,
            requested.canonical,
            MatchKind.TEXT,
            TEXT_CREDIT,
            0.0,
            points(TEXT_CREDIT, 0),
        )
    return None


def _detail(credit: Credit, holding: SkillHolding | None) -> SkillMatchDetail:
    requested = credit.requested
    if holding is None:  # found in the text only
        kind = MatchKind.TEXT
    elif credit.kind in (MatchKind.EXACT, MatchKind.ALIAS):
        kind = holding.kind  # the same skill: report how the CV evidences it
    else:
        kind = credit.kind  # otherwise how the held skill relates
    partial = credit.status is MatchStatus.PARTIAL
    return SkillMatchDetail(
        requested=requested.requested,
        skill=credit.skill,
        kind=kind,
        status=credit.status.value,
        stand_in=(f"{credit.skill} (course only)" if credit.course_only else credit.skill)
        if partial
        else None,
        confidence=credit.confidence,
        required=requested.required,
        strength=holding.strength if holding else None,
        years=holding.years if holding else None,
        last_used=holding.last_used if holding else None,
        depth=credit.depth,
        points=credit.points,
    )


def match_candidate(
    profile: CandidateProfile, requested: list[RequestedSkill], this_year: int
) -> CandidateMatch:
    """Credit per requested skill, the match score and the ranking inputs (docs/scoring.md)."""
    credits, missing = [], []
    for skill in requested:
        credit = _best_credit(skill, profile.skills, profile.id, this_year)
        if credit is None:
            missing.append(skill)
        else:
            credits.append(credit)
    required = [c for c in credits if c.requested.required]
    preferred = [c for c in credits if not c.requested.required]
    n_required = sum(s.required for s in requested)
    required_points = preferred_points = 0.0
    for credit in credits:  # left to right, as the vectorised ranking adds them
        if credit.requested.required:
            required_points += credit.points
        else:
            preferred_points += credit.points
    score = match_score(required_points, preferred_points, n_required, len(requested) - n_required)
    return CandidateMatch(
        profile=profile,
        credits=credits,
        missing=missing,
        score=score,
        required_matched=sum(c.status is MatchStatus.MATCHED for c in required),
        required_covered=len(required),
        preferred_matched=sum(c.status is MatchStatus.MATCHED for c in preferred),
    )
