"""Map any skill string a recruiter or a graph gives us to canonical skills.

Order of trust: the curated vocabulary (exact name or alias), and only for strings
the vocabulary does not know, embedding nearest neighbours. What a skill implies
and what it is related to is search's business (``search.query``). MiniLM is weak on jargon (cos(K8s, Kubernetes)
= 0.48), so a neighbour is accepted by its rank and its margin over the runner-up,
not by one fixed cosine threshold.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

import numpy as np

from talentrag.domain import MatchKind, SkillMatch
from talentrag.embeddings.base import Embedder
from talentrag.policy.credits import HELD_CONFIDENCE, SEMANTIC_CONFIDENCE_RANGE
from talentrag.vocabulary.vocabulary import Vocabulary

log = logging.getLogger(__name__)
_WORD = re.compile(r"[a-z0-9+#]+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


@dataclass(frozen=True)
class SemanticPolicy:
    """When an embedding neighbour counts as the same skill.

    Accept the best skill when its cosine clears ``floor`` AND it leads the
    runner-up skill by ``margin``; or when it clears ``sure`` regardless.
    """

    floor: float = 0.55
    margin: float = 0.06
    sure: float = 0.80
    max_related: int = 2
    misspelling: float = 0.88
    """Character similarity above which a spelling is a typo of the request ("Kubernets")."""


class SkillNormalizer:
    """Skill strings to canonical skills: the vocabulary first, embeddings as the fallback."""

    def __init__(
        self,
        vocabulary: Vocabulary,
        embedder: Embedder | None = None,
        cache_dir: Path | None = None,
        policy: SemanticPolicy | None = None,
    ):
        self.vocabulary = vocabulary
        self._embedder = embedder
        self._cache_dir = cache_dir
        self.policy = policy or SemanticPolicy()
        self._labels: list[str] = []
        self._label_skills: list[str] = []
        self._label_vectors: np.ndarray | None = None
        self._index_lock = asyncio.Lock()

    # -- vocabulary look-ups (no embeddings) --------------------------------------
    def lookup(self, text: str) -> SkillMatch | None:
        """Exact name or alias, case-insensitively (recruiters type "go" for Go).

        ``needs_context`` spellings ("Sales", "Teaching") resolve here too: they are only
        kept out of matching in free text.
        """
        surface = self.vocabulary.lookup(text)
        if surface is None:
            return None
        kind = MatchKind.ALIAS if surface.is_alias else MatchKind.EXACT
        return SkillMatch(
            skill=surface.skill, kind=kind, confidence=HELD_CONFIDENCE[kind], via=text
        )

    # -- full normalisation ----------------------------------------------------------
    async def normalize(self, text: str) -> SkillMatch | None:
        """The canonical skill ``text`` names; None when nothing is close enough."""
        text = text.strip()
        if not text:
            return None
        return self.lookup(text) or await self.nearest(text)

    async def nearest(self, text: str) -> SkillMatch | None:
        """Embedding fallback judged by rank and margin."""
        if self._embedder is None:
            return None
        ranked = await self.rank_skills(text, top=2)
        if not ranked:
            return None
        (best, best_score), runner_up = ranked[0], ranked[1] if len(ranked) > 1 else ("", 0.0)
        lead = best_score - runner_up[1]
        accepted = (
            best_score >= self.policy.sure
            or (best_score >= self.policy.floor and lead >= self.policy.margin)
        ) and self.same_concept(text, best)
        log.debug(
            "semantic %r -> %s %.3f (lead %.3f) accepted=%s", text, best, best_score, lead, accepted
        )
        if not accepted:
            return None
        low, high = SEMANTIC_CONFIDENCE_RANGE
        confidence = float(np.clip(0.5 + (best_score - self.policy.floor) + lead, low, high))
        return SkillMatch(
            skill=best, kind=MatchKind.SEMANTIC, confidence=round(confidence, 3), via=text
        )

    def same_concept(self, text: str, skill: str) -> bool:
        """Whether ``text`` names ``skill``: a spelling of it plus qualifiers, or a typo of one.

        Embedding neighbours alone are not the same concept: SolidWorks sits next to
        Solidity, "Fitness Training" next to Corporate Training, "Sales" next to Sales
        Operations (a narrower skill). Refused, the request is searched literally.
        """
        asked = _words(text)
        spec = self.vocabulary.skills[skill]
        for spelling in (skill, *spec.aliases):
            words = _words(spelling)
            if words and words <= asked:
                return True
            similarity = SequenceMatcher(None, text.casefold(), spelling.casefold()).ratio()
            if similarity >= self.policy.misspelling:
                return True
        return False

    async def rank_skills(self, text: str, top: int = 5) -> list[tuple[str, float]]:
        """Skills by best cosine of any of their spellings to ``text`` (needs an embedder)."""
        embedder = self._require_embedder()
        vectors = await self._index()
        query = (await embedder.embed([text]))[0]
        scores = vectors @ query
        best: dict[str, float] = {}
        for index in np.argsort(-scores):
            skill = self._label_skills[index]
            if skill not in best:
                best[skill] = float(scores[index])
                if len(best) == top:
                    break
        return list(best.items())

    async def _index(self) -> np.ndarray:
        async with self._index_lock:
            if self._label_vectors is None:
                self._labels, self._label_skills = self._label_table()
                self._label_vectors = await self._load_or_embed(self._labels)
            return self._label_vectors

    def _label_table(self) -> tuple[list[str], list[str]]:
        """Curated skills' spellings only: the thousands of generated (ESCO) skills are
        found by exact look-up, and embedding their ~30,000 spellings would cost minutes
        on first use (MiniLM embeds ~150 labels/s on two cores)."""
        labels, skills = [], []
        for name, spec in self.vocabulary.skills.items():
            if self.vocabulary.curated and name not in self.vocabulary.curated:
                continue
            for text in [name, *spec.aliases]:
                labels.append(text)
                skills.append(name)
        return labels, skills

    def _require_embedder(self) -> Embedder:
        if self._embedder is None:
            raise RuntimeError("this SkillNormalizer has no embedder for semantic look-ups")
        return self._embedder

    async def _load_or_embed(self, labels: list[str]) -> np.ndarray:
        embedder = self._require_embedder()
        cache = None
        if self._cache_dir is not None:
            model = embedder.name.replace("/", "_").replace(":", "_")
            cache = self._cache_dir / f"vocabulary-{self.vocabulary.fingerprint}-{model}.npy"
            if cache.is_file():
                cached: np.ndarray = np.load(cache)
                if cached.shape == (len(labels), embedder.dim):
                    return cached
        vectors = await embedder.embed(labels)
        if cache is not None:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_suffix(".tmp.npy")
            np.save(tmp, vectors)
            tmp.replace(cache)
        return vectors
