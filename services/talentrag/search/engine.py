"""search_by_skills: resolve skills, ask LightRAG, complete by graph expansion, score, rank.

LightRAG's hybrid retrieval answers the query and tells us which graph nodes stand
for the requested skills (also in graphs a LightRAG Server built with its own LLM,
whose node names we map through the vocabulary). Because one retrieval is cut by
token budgets, the candidate set is completed from the full neighbour lists of
those skill nodes, then joined with the candidate store, the system of record.
"""

from __future__ import annotations

import time
from collections import Counter

from talentrag.domain import (
    CandidateProfile,
    DocumentRecord,
    DocumentType,
    Evidence,
    HeldSkill,
    MatchKind,
)
from talentrag.gateways.base import KnowledgeGraphGateway, Retrieval
from talentrag.graph_schema import PERSON_TYPES, parse_document_node, split_joined
from talentrag.policy.limits import MAX_EVIDENCE, MAX_TEXT_MATCHES
from talentrag.search.models import (
    NO_MATCH_MESSAGE,
    CandidateResult,
    ResolvedSkill,
    SearchRequest,
    SearchResponse,
    SkillMatchDetail,
)
from talentrag.search.query import RequestedSkill, build_retrieval_query, implied_by, resolve_skills
from talentrag.search.scoring import CandidateMatch, match_candidate
from talentrag.search.text_match import occurrence, phrases_for, text_evidence
from talentrag.store.base import CandidateStore
from talentrag.vocabulary import SkillNormalizer


class SearchService:
    """search_by_skills over one gateway and the candidate store."""

    def __init__(
        self,
        gateway: KnowledgeGraphGateway,
        store: CandidateStore,
        normalizer: SkillNormalizer,
        default_tenant: str = "default",
    ):
        self.gateway = gateway
        self.store = store
        self.normalizer = normalizer
        self.default_tenant = default_tenant
        self._implied_by = implied_by(normalizer.vocabulary)

    async def search(self, request: SearchRequest, tenant: str | None = None) -> SearchResponse:
        """Ranked candidates for the request in ``tenant`` (or the request's, or the default)."""
        started = time.perf_counter()
        tenant = tenant or request.tenant or self.default_tenant
        skills = await resolve_skills(
            request.required_skills, request.preferred_skills, self.normalizer, self._implied_by
        )
        query = build_retrieval_query(skills, request.experience_level, request.top_k)
        retrieval = await self.gateway.retrieve(tenant, query)
        profiles = await self._candidate_pool(tenant, skills, retrieval)
        profiles |= await self._found_in_text(tenant, skills, profiles)
        matches = [match_candidate(profile, skills) for profile in profiles.values()]
        pool = [m for m in matches if m.required_matched]
        if request.experience_level:
            pool = [m for m in pool if m.profile.level == request.experience_level]
        qualified = any(m.qualifies for m in pool)
        ranked = sorted(pool, key=CandidateMatch.rank_key)[: request.top_k] if qualified else []
        records = await self.store.get_many(
            tenant, [m.profile.id for m in ranked]
        )  # evidence for the answer only
        message = None if ranked else self._no_match_message(skills, matches, request)
        return SearchResponse(
            query=query.query,
            candidates=[
                _result(m, records[m.profile.id], skills) for m in ranked if m.profile.id in records
            ],
            total_considered=len(matches),
            processing_time_ms=round((time.perf_counter() - started) * 1000, 2),
            message=message,
            resolved_skills=[_resolved(s) for s in skills],
        )

    # -- candidate pool ----------------------------------------------------------------
    async def _candidate_pool(
        self, tenant: str, skills: list[RequestedSkill], retrieval: Retrieval
    ) -> dict[str, CandidateProfile]:
        accepted = {name for s in skills for name in s.accepts}
        nodes = accepted | self._skill_nodes_in(retrieval, skills)
        neighbours = await self.gateway.neighbours(tenant, sorted(nodes))
        ids: set[str] = set()
        files: set[str] = set()
        for adjacent in neighbours.values():
            for neighbour in adjacent:
                self._collect(
                    neighbour.name, neighbour.entity_type, neighbour.file_path, ids, files
                )
        for entity in retrieval.entities:
            self._collect(entity.name, entity.entity_type, entity.file_path, ids, files)
        if files:
            ids |= await self.store.ids_for_source_files(tenant, sorted(files))
        return await self.store.profiles(tenant, sorted(ids), accepted)

    async def _found_in_text(
        self, tenant: str, skills: list[RequestedSkill], pool: dict[str, CandidateProfile]
    ) -> dict[str, CandidateProfile]:
        """For each requested skill no one in the pool holds: the CVs whose text names it.

        Records the evidence on the requested skill; returns the profiles of CVs not
        already in the pool.
        """
        vocabulary = self.normalizer.vocabulary
        for skill in skills:
            if any(skill.accepts.keys() & p.skills.keys() for p in pool.values()):
                continue
            for phrase, exact_case in phrases_for(skill, vocabulary):
                texts = await self.store.texts_containing(tenant, phrase, MAX_TEXT_MATCHES)
                for candidate_id, text in texts.items():
                    span = occurrence(text, phrase, exact_case)
                    if span is not None and candidate_id not in skill.found_in_text:
                        skill.found_in_text[candidate_id] = text_evidence(
                            text, span, skill.canonical
                        )
        new = {i for s in skills for i in s.found_in_text} - pool.keys()
        accepted = {name for s in skills for name in s.accepts}
        return await self.store.profiles(tenant, sorted(new), accepted) if new else {}

    def _skill_nodes_in(self, retrieval: Retrieval, skills: list[RequestedSkill]) -> set[str]:
        """Retrieved entity names that map to an accepted skill (LLM-built graphs name them freely)."""
        accepted = {name for s in skills for name in s.accepts}
        found = set()
        for entity in retrieval.entities:
            match = self.normalizer.lookup(entity.name)
            if match and match.skill in accepted and entity.name != match.skill:
                found.add(entity.name)
        return found

    def _collect(
        self, name: str, entity_type: str, file_path: str, ids: set[str], files: set[str]
    ) -> None:
        kind = entity_type.lower()
        ours = parse_document_node(name)
        if ours is not None and ours[0] is DocumentType.CV and kind in ("candidate", ""):
            ids.add(ours[1])
        elif kind in PERSON_TYPES and file_path:
            files.update(split_joined(file_path))

    # -- the empty answer --------------------------------------------------------------
    def _no_match_message(
        self, skills: list[RequestedSkill], matches: list[CandidateMatch], request: SearchRequest
    ) -> str:
        required = [s for s in skills if s.required]
        unknown = [s.requested for s in required if s.primary is None]
        if unknown:
            return f"{NO_MATCH_MESSAGE} No candidate has '{unknown[0]}' (not a known skill, and nothing similar in the knowledge base)."
        ruled_out = Counter(s.requested for m in matches for s in m.missing if s.required)
        if ruled_out:
            skill, count = ruled_out.most_common(1)[0]
            return f"{NO_MATCH_MESSAGE} '{skill}' ruled out the most candidates ({count} of {len(matches)} considered lack it)."
        if request.experience_level and matches:
            return f"{NO_MATCH_MESSAGE} Candidates have these skills, but none at {request.experience_level.value} level."
        return f"{NO_MATCH_MESSAGE} No candidate holds '{required[0].requested}'."


def _resolved(skill: RequestedSkill) -> ResolvedSkill:
    return ResolvedSkill(
        requested=skill.requested,
        required=skill.required,
        skill=skill.primary.skill if skill.primary else None,
        how=skill.primary.kind if skill.primary else None,
        accepts=len(skill.accepts),
        found_in_text=len(skill.found_in_text),
    )


def _result(
    match: CandidateMatch, record: DocumentRecord, skills: list[RequestedSkill]
) -> CandidateResult:
    details = match.details
    matched_required = [d.requested for d in details if d.required]
    matched_preferred = [d.requested for d in details if not d.required]
    return CandidateResult(
        candidate_id=record.id,
        name=record.name,
        source_file=record.source_file,
        experience_level=record.level,
        years_experience=record.years,
        match_score=match.score,
        matched_required_skills=matched_required,
        matched_preferred_skills=matched_preferred,
        missing_skills=[s.requested for s in match.missing],
        skill_matches=details,
        evidence=_evidence(details, record, skills),
        explanation=_explanation(details, record, skills),
    )


def _evidence(
    details: list[SkillMatchDetail], record: DocumentRecord, skills: list[RequestedSkill]
) -> list[Evidence]:
    """Up to three passages, required skills first, one per skill, no passage twice.

    A skill whose own passage is already shown may be proved by a skill that implies
    it ("Deployed services on EKS" proves Kubernetes).
    """
    held = {h.skill: h for h in record.skills}
    by_request = {s.requested: s for s in skills}
    passages: list[Evidence] = []
    seen: set[tuple[int, int]] = set()
    for detail in sorted(details, key=lambda d: (not d.required, -d.confidence)):
        candidates = _proofs(detail, by_request[detail.requested], held, record)
        fresh = next((e for e in candidates if (e.start, e.end) not in seen), None)
        if fresh is not None:
            seen.add((fresh.start, fresh.end))
            passages.append(fresh.model_copy(update={"skill": detail.skill}))
        if len(passages) == MAX_EVIDENCE:
            break
    return passages


def _proofs(
    detail: SkillMatchDetail,
    requested: RequestedSkill,
    held: dict[str, HeldSkill],
    record: DocumentRecord,
) -> list[Evidence]:
    """The passages that can prove one match: the held skill's, then those of skills
    implying it; for a skill found only in the text, where the text names it."""
    if detail.kind is MatchKind.TEXT:
        found = requested.found_in_text[record.id]
        return [found.model_copy(update={"source_file": record.source_file})]
    implying = [
        s for s, m in requested.accepts.items() if m.kind is MatchKind.IMPLIED and s in held
    ]
    return held[detail.skill].evidence + [e for s in implying for e in held[s].evidence]


def _explanation(
    details: list[SkillMatchDetail], record: DocumentRecord, skills: list[RequestedSkill]
) -> str:
    n_required = sum(s.required for s in skills)
    n_preferred = len(skills) - n_required
    canonical = {s.requested: s.canonical for s in skills}
    parts = []
    for detail in details:
        how = detail.kind.value
        if detail.skill != canonical[detail.requested]:
            how += f" via {detail.skill}"
        elif detail.requested != detail.skill:
            how = f"{detail.skill}, {how}"
        parts.append(f"{detail.requested} ({how})")
    level = record.level.value if record.level else "unknown level"
    years = f", {record.years:g} years" if record.years is not None else ""
    required = sum(d.required for d in details)
    preferred = len(details) - required
    summary = f"Matches {required}/{n_required} required"
    if n_preferred:
        summary += f" and {preferred}/{n_preferred} preferred"
    return f"{summary} skills: {', '.join(parts) or 'none'}; {level}{years}."
