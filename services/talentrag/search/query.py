"""From the recruiter's skill strings to canonical skills, credit tables and a LightRAG query.

Every requested skill is resolved through the vocabulary (K8s -> Kubernetes); the
recruiter's wording is kept for the answer. A requested skill accepts a set of
canonical skills, each with the credit a holder earns:
the skill itself (full), skills that imply it (EKS for Kubernetes), the skills of its
family when it is a broad term (Critical Care Nursing for Nursing), and related skills
(container orchestration for Kubernetes: partial).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from talentrag.domain import Evidence, ExperienceLevel, MatchKind, SkillMatch
from talentrag.gateways.base import RetrievalQuery
from talentrag.policy.credits import IMPLIED_CREDIT, NARROWER_CREDIT, RELATED_CREDIT
from talentrag.vocabulary import SkillNormalizer, Vocabulary


@dataclass
class RequestedSkill:
    """One skill of the request, as written, resolved, and with the skills that count for it."""

    requested: str
    required: bool
    primary: SkillMatch | None
    accepts: dict[str, SkillMatch] = field(default_factory=dict)
    found_in_text: dict[str, Evidence] = field(default_factory=dict)
    """When nobody holds the skill: candidate id -> where the CV's text names it."""

    @property
    def canonical(self) -> str:
        """The vocabulary's name for the skill, or the recruiter's wording when unresolved."""
        return self.primary.skill if self.primary else self.requested


def implied_by(vocabulary: Vocabulary) -> dict[str, set[str]]:
    """Reverse of the implication closure: skill -> the skills whose holders hold it."""
    reverse: dict[str, set[str]] = {name: set() for name in vocabulary.skills}
    for skill, implied in vocabulary.implied_closure.items():
        for target in implied:
            reverse[target].add(skill)
    return reverse


def acceptable_skills(
    primary: SkillMatch, vocabulary: Vocabulary, reverse: dict[str, set[str]]
) -> dict[str, SkillMatch]:
    """Canonical skills that count for ``primary``, with the credit each earns."""
    target = primary.skill
    scale = primary.confidence if primary.kind is MatchKind.SEMANTIC else 1.0
    accepts = {target: primary.model_copy(update={"confidence": scale})}
    for source in sorted(reverse.get(target, ())):
        accepts.setdefault(
            source,
            SkillMatch(
                skill=source, kind=MatchKind.IMPLIED, confidence=IMPLIED_CREDIT * scale, via=target
            ),
        )
    for narrower in vocabulary.narrower_closure.get(target, ()):
        accepts.setdefault(
            narrower,
            SkillMatch(
                skill=narrower,
                kind=MatchKind.NARROWER,
                confidence=NARROWER_CREDIT * scale,
                via=target,
            ),
        )
    for related in vocabulary.related_map.get(target, ()):
        accepts.setdefault(
            related,
            SkillMatch(
                skill=related, kind=MatchKind.RELATED, confidence=RELATED_CREDIT * scale, via=target
            ),
        )
    return accepts


async def resolve_skills(
    required: list[str],
    preferred: list[str],
    normalizer: SkillNormalizer,
    reverse: dict[str, set[str]],
) -> list[RequestedSkill]:
    """Required, then preferred skills, each resolved with the skills that count for it."""
    resolved = []
    for texts, is_required in ((required, True), (preferred, False)):
        for text in texts:
            primary = await normalizer.normalize(text)
            accepts = acceptable_skills(primary, normalizer.vocabulary, reverse) if primary else {}
            resolved.append(RequestedSkill(text, is_required, primary, accepts))
    return resolved


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def build_query_text(skills: list[RequestedSkill], levels: list[ExperienceLevel] | None) -> str:
    """'Find senior candidates with Python and Machine Learning experience (nice to have: AWS)'."""
    required = [s.canonical for s in skills if s.required]
    preferred = [s.canonical for s in skills if not s.required]
    who = f"{' or '.join(level.value for level in levels)} candidates" if levels else "candidates"
    text = f"Find {who} with {_join(required)} experience"
    if preferred:
        text += f" (nice to have: {', '.join(preferred)})"
    return text


def build_retrieval_query(
    skills: list[RequestedSkill], levels: list[ExperienceLevel] | None, top_k: int
) -> RetrievalQuery:
    """The query plus keywords: with keywords given, LightRAG calls no LLM."""
    names = [s.canonical for s in skills]
    return RetrievalQuery(
        query=build_query_text(skills, levels),
        ll_keywords=names,
        hl_keywords=[f"has skill {name}" for name in names],
        top_k=max(10, min(40, top_k * 2)),
        chunk_top_k=5,
    )
