"""How much a held skill counts for a requested one (documented in docs/scoring.md).

Two factors multiply: how the candidate's CV shows the skill (``HELD_CONFIDENCE``:
written exactly, as an alias, or implied by a more specific skill) and how the
held skill relates to the requested one (``ACCEPT_CREDIT``: the same skill, a skill
that implies it, or only a related one).
"""

from __future__ import annotations

from talentrag.domain import MatchKind

HELD_CONFIDENCE = {MatchKind.EXACT: 1.0, MatchKind.ALIAS: 0.95, MatchKind.IMPLIED: 0.9}
"""Confidence that a CV holds a skill, by how the text showed it."""

IMPLIED_CREDIT = 0.9
"""A requested skill met by a skill that implies it (EKS for Kubernetes)."""

NARROWER_CREDIT = 0.9
"""A broad term met by a skill of its family (Critical Care Nursing for Nursing,
Management Accounting for Accounting): the vocabulary's ``broader`` links."""

TEXT_CREDIT = 0.5
"""A requested skill nobody holds, found only as words in a CV's text (full-text index):
the words are there, but no analysis says how the CV uses them."""

RELATED_CREDIT = 0.5
"""A requested skill met only by a related skill (container orchestration for Kubernetes)."""

REQUIRED_WEIGHT = 0.8
"""Share of the match score from required skills when preferred skills are given."""

SEMANTIC_CONFIDENCE_RANGE = (0.3, 0.85)
"""An embedding-nearest skill never counts as much as a curated alias."""
