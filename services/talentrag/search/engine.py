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
from collections.abc import Callable, Collection, Mapping
from datetime import date

from talentrag.domain import (
    CandidateProfile,
    DocumentRecord,
    DocumentType,
    Evidence,
    HeldSkill,
    MatchKind,
    SkillStrength,
)
from talentrag.errors import InvalidInput, NotFound
from talentrag.gateways.base import KnowledgeGraphGateway, Retrieval
from talentrag.graph_schema import PERSON_TYPES, parse_document_node, split_joined
from talentrag.policy.credits import FULL_MATCH_KINDS
from talentrag.policy.limits import MAX_EVIDENCE, MAX_TEXT_MATCHES
from talentrag.search.blind import blind
from talentrag.search.models import (
    NO_MATCH_MESSAGE,
    CandidateResult,
    PartialSkill,
    ResolvedRequest,
    ResolvedSkill,
    SearchRequest,
    SearchResponse,
    SkillMatchDetail,
)
from talentrag.search.paging import decode_cursor, encode_cursor, request_fingerprint
from talentrag.search.query import RequestedSkill, build_retrieval_query, implied_by, resolve_skills
from talentrag.search.request_text import ParsedRequest, parse_request_text
from talentrag.search.scoring import CandidateMatch, MatchStatus, match_candidate
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
        *,
        blind_tenants: Collection[str] = (),
        today: Callable[[], date] = date.today,
    ):
        self.gateway = gateway
        self.store = store
        self.normalizer = normalizer
        self.default_tenant = default_tenant
        self.blind_tenants = frozenset(blind_tenants)
        self.today = today
        self._implied_by = implied_by(normalizer.vocabulary)

    async def search(self, request: SearchRequest, tenant: str | None = None) -> SearchResponse:
        """One page of ranked candidates for the request in ``tenant`` (or the request's, or
        the default)."""
        started = time.perf_counter()
        tenant = tenant or request.tenant or self.default_tenant
        resolved, notes = await self._structured(request, tenant)
        fingerprint = request_fingerprint(resolved.model_dump_json(exclude={"top_k"}))
        offset = decode_cursor(request.cursor, fingerprint) if request.cursor else 0
        skills = await resolve_skills(
            resolved.required_skills,
            resolved.preferred_skills,
            self.normalizer,
            self._implied_by,
        )
        excluded = await self._excluded(resolved.exclude_skills)
        query = build_retrieval_query(skills, resolved.experience_level, resolved.top_k)
        retrieval = await self.gateway.retrieve(tenant, query)
        profiles = await self._candidate_pool(tenant, skills, retrieval, excluded)
        profiles |= await self._found_in_text(tenant, skills, profiles, excluded)
        this_year = self.today().year
        matches = [
            match_candidate(p, skills, this_year)
            for p in profiles.values()
            if not excluded.keys() & p.skills.keys()
        ]
        listed = [m for m in matches if m.required_covered and _passes(m, resolved)]
        ranked, message = _answer(listed, skills, resolved.include_partial, request.reads_text)
        ranked, duplicates = await self._one_per_person(tenant, ranked)
        qualifying = sum(m.matches_all for m in ranked)
        page = ranked[offset : offset + resolved.top_k]
        records = await self.store.get_many(tenant, [m.profile.id for m in page])
        results = [
            _result(m, records[m.profile.id], skills, duplicates.get(m.profile.id, []))
            for m in page
            if m.profile.id in records
        ]
        if request.blind if request.blind is not None else tenant in self.blind_tenants:
            results = [blind(r, tenant, offset + n) for n, r in enumerate(results, 1)]
        more = offset + resolved.top_k < len(ranked)
        return SearchResponse(
            query=query.query,
            candidates=results,
            total_considered=len(matches),
            total=len(ranked),
            total_qualifying=qualifying,
            next_cursor=encode_cursor(offset + resolved.top_k, fingerprint) if more else None,
            processing_time_ms=round((time.perf_counter() - started) * 1000, 2),
            message=message if ranked else self._no_match_message(skills, matches, resolved),
            resolved_skills=[_resolved(s) for s in skills],
            resolved_request=resolved,
            request_notes=notes,
        )

    async def _one_per_person(
        self, tenant: str, ranked: list[CandidateMatch]
    ) -> tuple[list[CandidateMatch], dict[str, list[str]]]:
        """Near-duplicate CVs of one person: the best-ranked record stays, at its place;
        the others leave the list and are named in its ``duplicates``."""
        duplicates = await self.store.duplicates_of(tenant, [m.profile.id for m in ranked])
        kept: list[CandidateMatch] = []
        seen: set[str] = set()
        for match in ranked:
            if match.profile.id not in seen:
                kept.append(match)
                seen.add(match.profile.id)
                seen.update(duplicates.get(match.profile.id, ()))
        return kept, duplicates

    # -- the structured request ----------------------------------------------------------
    async def _structured(
        self, request: SearchRequest, tenant: str
    ) -> tuple[ResolvedRequest, list[str]]:
        """The request's own fields, completed from its query or job description."""
        parsed: ParsedRequest | None = None
        if request.reads_text:
            parsed = parse_request_text(
                await self._request_text(request, tenant), self.normalizer.vocabulary
            )
        resolved = ResolvedRequest(
            required_skills=request.required_skills or (parsed.required_skills if parsed else []),
            preferred_skills=request.preferred_skills
            or (parsed.preferred_skills if parsed else []),
            experience_level=request.experience_level
            or (parsed.experience_levels or None if parsed else None),
            min_years=request.min_years
            if request.min_years is not None
            else (parsed.min_years if parsed else None),
            exclude_skills=request.exclude_skills or (parsed.excluded_skills if parsed else []),
            include_partial=request.include_partial
            if request.include_partial is not None
            else request.reads_text,
            top_k=request.top_k,
        )
        if not resolved.required_skills:
            source = "job description" if not request.query else "query"
            raise InvalidInput(
                f"the {source} names no skill the vocabulary knows; give required_skills "
                "(e.g. ['Python']) or reword it",
                errors=[
                    {
                        "field": "query" if request.query else "job_description",
                        "message": "no known skill found",
                    }
                ],
            )
        return resolved, parsed.notes if parsed else []

    async def _request_text(self, request: SearchRequest, tenant: str) -> str:
        if request.query:
            return request.query
        if request.job_description_text:
            return request.job_description_text
        document_id = str(request.job_description_id)
        record = await self.store.get(tenant, document_id)
        text = await self.store.text_of(tenant, document_id) if record else None
        if record is None or text is None:
            raise NotFound(f"no job description '{document_id}' in tenant '{tenant}'")
        if record.is_candidate:
            raise InvalidInput(
                f"'{document_id}' is a CV, not a job description; pass a job description's id"
            )
        return text

    async def _excluded(self, exclude: list[str]) -> dict[str, str]:
        """Canonical skills whose holders are left out -> the excluded skill they stand for:
        the skill, and skills implying it or of its family (not merely related ones)."""
        resolved = await resolve_skills(exclude, [], self.normalizer, self._implied_by)
        return {
            name: skill.requested
            for skill in resolved
            for name, accepted in skill.accepts.items()
            if accepted.kind in FULL_MATCH_KINDS
        }

    # -- candidate pool ----------------------------------------------------------------
    async def _candidate_pool(
        self,
        tenant: str,
        skills: list[RequestedSkill],
        retrieval: Retrieval,
        excluded: Mapping[str, str],
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
        profiles = await self.store.profiles(tenant, sorted(ids), accepted | excluded.keys())
        # A candidate LightRAG retrieved who holds none of the accepted skills cannot match;
        # which of them it retrieves is the vector index's tie-breaking, not the request's.
        return {i: p for i, p in profiles.items() if p.skills.keys() & accepted}

    async def _found_in_text(
        self,
        tenant: str,
        skills: list[RequestedSkill],
        pool: dict[str, CandidateProfile],
        excluded: Mapping[str, str],
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
        wanted = {name for s in skills for name in s.accepts} | excluded.keys()
        return await self.store.profiles(tenant, sorted(new), wanted) if new else {}

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
        self, skills: list[RequestedSkill], matches: list[CandidateMatch], request: ResolvedRequest
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
            levels = " or ".join(level.value for level in request.experience_level)
            return f"{NO_MATCH_MESSAGE} Candidates have these skills, but none at {levels} level."
        if request.min_years is not None and matches:
            return f"{NO_MATCH_MESSAGE} Candidates have these skills, but none with {request.min_years:g}+ years."
        return f"{NO_MATCH_MESSAGE} No candidate holds '{required[0].requested}'."


def _answer(
    listed: list[CandidateMatch],
    skills: list[RequestedSkill],
    include_partial: bool,
    reads_text: bool,
) -> tuple[list[CandidateMatch], str | None]:
    """Who is listed, best first, and what the answer says about it.

    Candidates with every required skill matched, when there are any (with those for
    whom related skills stand in after them, if asked); else those for whom related
    skills stand in; else, for a wish list read from text (a JD's eight requirements),
    whoever has the most of it. Otherwise nobody: the caller explains why.
    """
    full = [m for m in listed if m.matches_all]
    covered = [m for m in listed if m.qualifies]
    n_required = sum(s.required for s in skills)
    if full:
        return sorted(covered if include_partial else full, key=CandidateMatch.rank_key), None
    if covered:
        return sorted(covered, key=CandidateMatch.rank_key), (
            "No candidate has every required skill; for these, related skills stand in "
            "(see partial_skills)."
        )
    if reads_text and listed:
        return sorted(listed, key=CandidateMatch.rank_key), (
            f"No candidate has all {n_required} required skills; these have the most. Edit "
            "resolved_request (fewer required skills) and send it back to narrow the search."
        )
    return [], None


def _passes(match: CandidateMatch, request: ResolvedRequest) -> bool:
    """The level and years filters (a candidate of unknown level or years fails them)."""
    profile = match.profile
    if request.experience_level and profile.level not in request.experience_level:
        return False
    return request.min_years is None or (
        profile.years is not None and profile.years >= request.min_years
    )


def _resolved(skill: RequestedSkill) -> ResolvedSkill:
    return ResolvedSkill(
        requested=skill.requested,
        required=skill.required,
        skill=skill.primary.skill if skill.primary else None,
        how=skill.primary.kind if skill.primary else None,
        accepts=len(skill.accepts),
        found_in_text=len(skill.found_in_text),
        family=sorted(n for n, m in skill.accepts.items() if m.kind is MatchKind.NARROWER),
    )


def _result(
    match: CandidateMatch,
    record: DocumentRecord,
    skills: list[RequestedSkill],
    duplicates: list[str],
) -> CandidateResult:
    details = match.details
    full = {d.requested for d in details if d.status == MatchStatus.MATCHED.value}
    return CandidateResult(
        candidate_id=record.id,
        name=record.name,
        source_file=record.source_file,
        experience_level=record.level,
        years_experience=record.years,
        match_score=match.score,
        matched_required_skills=[
            d.requested for d in details if d.required and d.requested in full
        ],
        matched_preferred_skills=[
            d.requested for d in details if not d.required and d.requested in full
        ],
        partial_skills=[
            PartialSkill(requested=d.requested, required=d.required, stand_in=d.skill)
            for d in details
            if d.requested not in full
        ],
        missing_skills=[s.requested for s in match.missing if s.required],
        missing_preferred_skills=[s.requested for s in match.missing if not s.required],
        skill_matches=details,
        evidence=_evidence(details, record, skills),
        explanation=_explanation(details, record, skills),
        duplicates=duplicates,
    )


def _evidence(
    details: list[SkillMatchDetail], record: DocumentRecord, skills: list[RequestedSkill]
) -> list[Evidence]:
    """Up to three passages, one per skill, no passage twice: required full matches
    first, then by points; each skill's strongest passage (a role's before a list's).

    A skill whose own passage is already shown may be proved by a skill that implies
    it ("Deployed services on EKS" proves Kubernetes).
    """
    held = {h.skill: h for h in record.skills}
    by_request = {s.requested: s for s in skills}
    passages: list[Evidence] = []
    seen: set[tuple[int, int]] = set()
    for detail in sorted(details, key=lambda d: (not d.required, d.status != "matched", -d.points)):
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
        if detail.status != MatchStatus.MATCHED.value:
            parts.append(f"{detail.requested} (partial: {detail.skill} stands in)")
            continue
        how = detail.kind.value
        if detail.skill != canonical[detail.requested]:
            how += f" via {detail.skill}"
        elif detail.requested != detail.skill:
            how = f"{detail.skill}, {how}"
        if detail.strength:
            how += f", in {_STRENGTH_WORDS[detail.strength]}"
        if detail.years:
            how += f", {detail.years:g} y"
        parts.append(f"{detail.requested} ({how})")
    level = record.level.value if record.level else "unknown level"
    years = f", {record.years:g} years" if record.years is not None else ""
    required = sum(d.required and d.status == "matched" for d in details)
    preferred = sum(not d.required and d.status == "matched" for d in details)
    summary = f"Matches {required}/{n_required} required"
    if n_preferred:
        summary += f" and {preferred}/{n_preferred} preferred"
    return f"{summary} skills: {', '.join(parts) or 'none'}; {level}{years}."


_STRENGTH_WORDS = {
    SkillStrength.ROLE: "a role",
    SkillStrength.SKILLS_LIST: "a skills list",
    SkillStrength.SUMMARY: "the summary",
    SkillStrength.COURSE: "a course",
}
