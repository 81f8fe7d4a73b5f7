"""Per-candidate skill matching and the match score (documented in docs/scoring.md).

credit(s)   best over the candidate's held skills h accepted for requested skill s:
            accept(s, h) x held_confidence(h)    (the factors live in policy/credits.py)
            accept: 1.0 same skill, 0.9 a skill implying it or of its family (a broad
            term), 0.5 a related skill
            a skill nobody holds: 0.5 when the CV's text names it (full-text index)
            held_confidence: 1.0 written exactly, 0.95 as an alias, 0.9 implied (EKS -> Kubernetes)
R           mean credit over required skills
P           mean credit over preferred skills
match_score = R                      when no preferred skills are given
            = 0.8 R + 0.2 P          otherwise
A candidate *qualifies* with some credit for EVERY required skill. When at least one
candidate qualifies, the answer lists qualifying candidates first and fills up with
candidates that match only some required skills (listed in missing_skills); when none
qualifies, the answer is empty with a hint.
Ranking: number of required skills matched, then match_score, then evidence (mentions
of matched required skills), then candidate id.
"""

from __future__ import annotations

from dataclasses import dataclass

from talentrag.domain import CandidateProfile, MatchKind, SkillHolding
from talentrag.policy.credits import REQUIRED_WEIGHT, TEXT_CREDIT
from talentrag.search.models import SkillMatchDetail
from talentrag.search.query import RequestedSkill


@dataclass(frozen=True, slots=True)
class Credit:
    """The best credit one candidate earns for one requested skill."""

    requested: RequestedSkill
    skill: str  # the held skill that earned it
    confidence: float


@dataclass
class CandidateMatch:
    """How one candidate meets the request: credits, missing skills, score and ranking inputs."""

    profile: CandidateProfile
    credits: list[Credit]
    missing: list[RequestedSkill]
    score: float
    required_matched: int
    evidence_mentions: int

    @property
    def qualifies(self) -> bool:
        """True when every required skill earned some credit."""
        return not any(s.required for s in self.missing)

    def rank_key(self) -> tuple[int, float, int, str]:
        """Sort key: more required skills matched, higher score, more evidence, then id."""
        return (-self.required_matched, -self.score, -self.evidence_mentions, self.profile.id)

    @property
    def details(self) -> list[SkillMatchDetail]:
        """For the answer only: built for the top candidates, not the whole pool."""
        return [_detail(c, self.profile.skills.get(c.skill)) for c in self.credits]


def _best_credit(
    requested: RequestedSkill, held: dict[str, SkillHolding], candidate_id: str
) -> Credit | None:
    best_confidence, best_skill = -1.0, ""
    for skill, accepted in requested.accepts.items():
        holding = held.get(skill)
        if holding is not None and accepted.confidence * holding.confidence > best_confidence:
            best_confidence, best_skill = accepted.confidence * holding.confidence, skill
    if best_skill:
        return Credit(requested, best_skill, round(best_confidence, 3))
    if candidate_id in requested.found_in_text:  # nobody holds it; this CV's text names it
        return Credit(requested, requested.canonical, TEXT_CREDIT)
    return None


def _detail(credit: Credit, holding: SkillHolding | None) -> SkillMatchDetail:
    if holding is None:  # found in the text only
        return SkillMatchDetail(
            requested=credit.requested.requested,
            skill=credit.skill,
            kind=MatchKind.TEXT,
            confidence=credit.confidence,
            required=credit.requested.required,
        )
    accepted = credit.requested.accepts[credit.skill]
    # the same skill: report how the CV evidences it; otherwise how it relates
    kind = holding.kind if accepted.kind in (MatchKind.EXACT, MatchKind.ALIAS) else accepted.kind
    return SkillMatchDetail(
        requested=credit.requested.requested,
        skill=credit.skill,
        kind=kind,
        confidence=credit.confidence,
        required=credit.requested.required,
    )


def match_candidate(profile: CandidateProfile, requested: list[RequestedSkill]) -> CandidateMatch:
    """Best credit per requested skill and the match score (docs/scoring.md)."""
    held = profile.skills
    credits, missing = [], []
    for skill in requested:
        credit = _best_credit(skill, held, profile.id)
        if credit is None:
            missing.append(skill)
        else:
            credits.append(credit)
    required = [c for c in credits if c.requested.required]
    preferred = [c for c in credits if not c.requested.required]
    n_required = sum(s.required for s in requested)
    n_preferred = len(requested) - n_required
    r = sum(c.confidence for c in required) / n_required if n_required else 0.0
    score = (
        r
        if not n_preferred
        else REQUIRED_WEIGHT * r
        + (1 - REQUIRED_WEIGHT) * sum(c.confidence for c in preferred) / n_preferred
    )
    return CandidateMatch(
        profile=profile,
        credits=credits,
        missing=missing,
        score=round(min(1.0, score), 4),
        required_matched=len(required),
        evidence_mentions=sum(held[c.skill].mentions for c in required if c.skill in held),
    )
