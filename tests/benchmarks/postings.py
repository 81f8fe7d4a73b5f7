"""The postings floor: every holder of every accepted skill scored in memory with numpy.

The least work any ranking of the whole pool does (no I/O, no Python per holder), so a
search's latency is read against it: how far above the floor, not only how fast.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from talentrag.domain import CandidateProfile
from talentrag.policy.credits import FULL_MATCH_KINDS
from talentrag.search.query import RequestedSkill

PREFERRED_WEIGHT = 0.5


class Postings:
    """Per skill: the holders (row numbers) and their confidence, as arrays."""

    def __init__(self, profiles: dict[str, CandidateProfile]):
        ids = sorted(profiles)
        rows: dict[str, list[int]] = defaultdict(list)
        weights: dict[str, list[float]] = defaultdict(list)
        for row, candidate_id in enumerate(ids):
            for skill, held in profiles[candidate_id].skills.items():
                rows[skill].append(row)
                weights[skill].append(held.confidence)
        self.ids = ids
        self.rows = {s: np.asarray(r, dtype=np.int32) for s, r in rows.items()}
        self.weights = {s: np.asarray(w, dtype=np.float32) for s, w in weights.items()}

    def top(self, skills: list[RequestedSkill], k: int = 10) -> list[str]:
        """Candidates holding every required skill (fully), best summed credit first."""
        n = len(self.ids)
        score = np.zeros(n, dtype=np.float32)
        covered = np.zeros(n, dtype=np.int16)
        required = [s for s in skills if s.required]
        for skill in skills:
            best = np.zeros(n, dtype=np.float32)
            for name, accepted in skill.accepts.items():
                if name in self.rows and accepted.kind in FULL_MATCH_KINDS:
                    holders = self.rows[name]
                    best[holders] = np.maximum(
                        best[holders], self.weights[name] * accepted.confidence
                    )
            score += best if skill.required else best * PREFERRED_WEIGHT
            if skill.required:
                covered += best > 0
        score[covered < len(required)] = -1.0
        k = min(k, n)
        if k == 0:
            return []
        top = np.argpartition(-score, k - 1)[:k]
        top = top[np.argsort(-score[top])]
        return [self.ids[i] for i in top if score[i] >= 0]
