"""How much a held skill counts for a requested one (documented in docs/scoring.md).

Two factors multiply: how the candidate's CV shows the skill (``HELD_CONFIDENCE``:
written exactly, as an alias, or implied by a more specific skill) and how the
held skill relates to the requested one (``ACCEPT_CREDIT``: the same skill, a skill
that implies it, or only a related one).
"""

from __future__ import annotations

from talentrag.domain import MatchKind, SkillStrength

HELD_CONFIDENCE = {MatchKind.EXACT: 1.0, MatchKind.ALIAS: 1.0, MatchKind.IMPLIED: 0.9}
"""Confidence that a CV holds a skill, by how the text showed it. "K8s" is Kubernetes as
surely as "Kubernetes" is (a spelling is not substance); a skill only implied by a more
specific one ("EKS" -> Kubernetes) is a step removed."""

FULL_MATCH_KINDS = frozenset(
    {
        MatchKind.EXACT,
        MatchKind.ALIAS,
        MatchKind.IMPLIED,
        MatchKind.NARROWER,
        MatchKind.SEMANTIC,
        MatchKind.TEXT,
    }
)
"""How a requested skill is met that makes it ``matched``: the skill itself (however
spelled or implied), a skill of its family when it is a broad term, or its own name in
the CV's text. Any other acceptance (``related``) is ``partial``: a stand-in."""

COURSE_ONLY_IS_PARTIAL = True
"""A requested skill the candidate shows only in a course or certificate ("Introduction
to R, 3-day workshop", "AWS Certified Cloud Practitioner") is ``partial``, not
``matched``: a recruiter who asks for a skill means someone who has used it. The holding
still counts (points, depth 0.2 for its strength), and ``include_partial`` shows such
candidates after the full matches."""

IMPLIED_CREDIT = 0.9
"""A requested skill met by a skill that implies it (EKS for Kubernetes)."""

NARROWER_CREDIT = 0.9
"""A broad term met by a skill of its family (Critical Care Nursing for Nursing,
Management Accounting for Accounting): the vocabulary's ``broader`` links."""

FAMILY_SKILLS_FOR_MATCH = 2
"""Family skills a candidate needs for a broad term to be ``matched``; with fewer, the
one family skill is a stand-in (``partial``). An accountant shows several of GAAP,
ledgers, month-end close, reconciliations; a hotel receptionist who reconciles the till,
or a chef who costs menus, shows one."""

TEXT_CREDIT = 0.5
"""A requested skill nobody holds, found only as words in a CV's text (full-text index):
the words are there, but no analysis says how the CV uses them."""

RELATED_CREDIT = 0.5
"""A requested skill met only by a related skill (container orchestration for Kubernetes)."""

REQUIRED_WEIGHT = 0.8
"""Share of the match score from required skills when preferred skills are given."""

SEMANTIC_CONFIDENCE_RANGE = (0.3, 0.85)
"""An embedding-nearest skill never counts as much as a curated alias."""

# -- depth: how strongly a CV shows a matched skill (ranking within equal coverage) -----

STRENGTH_WEIGHT = {
    SkillStrength.ROLE: 1.0,
    SkillStrength.SKILLS_LIST: 0.6,
    SkillStrength.SUMMARY: 0.4,
    SkillStrength.COURSE: 0.2,
}
"""Where the CV shows the skill: used in a role, listed, named in a summary, or learnt in
a course only."""

UNKNOWN_STRENGTH_WEIGHT = 0.5
"""A holding analysed before strengths were recorded, or found only in the text."""

YEARS_FOR_FULL_DEPTH = 5.0
"""Years with a skill past which more years add nothing."""

RECENT_YEARS = 1
"""Used this year or within this many years before: fully recent."""

STALE_AFTER_YEARS = 10
"""Last used this many years ago or more: recency adds nothing."""

DEPTH_WEIGHTS = (0.5, 0.3, 0.2)
"""depth = 0.5 strength + 0.3 years + 0.2 recency, each in [0, 1]."""

DEPTH_SHARE = 0.3
"""Share of a skill's points that depth decides: points = credit x (0.7 + 0.3 depth)."""
