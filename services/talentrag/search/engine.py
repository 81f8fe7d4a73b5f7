"""search_by_skills: resolve skills, ask LightRAG, rank every holder, read the page.

The request's skills are resolved through the vocabulary (aliases, implications,
family, related and embedding-nearest skills). LightRAG's hybrid retrieval is asked
the query beside the ranking; the ranking itself reads the candidate store, the
system of record, through an in-memory postings index (``holdings_index``), so its
cost grows with the arrays of the holders, not with Python work per holder. Only the
page's candidates are read whole and matched skill by skill for the answer.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from datetime import date

from talentrag.domain import (
    CandidateProfile,
    DocumentRecord,
    Evidence,
    HeldSkill,
    MatchKind,
    SkillStrength,
)
from talentrag.errors import InvalidInput, NotFound
from talentrag.gateways.base import KnowledgeGraphGateway
from talentrag.policy.credits import FULL_MATCH_KINDS
from talentrag.policy.limits import MAX_EVIDENCE, MAX_TEXT_MATCHES
from talentrag.search.blind import blind
from talentrag.search.holdings_index import HoldingsIndex, IndexView
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
from talentrag.search.ranking import Ranking, rank
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
        self.index = HoldingsIndex(store)

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
        retrieval = asyncio.create_task(self.gateway.retrieve(tenant, query))
        try:
            ranking = await self._rank(tenant, skills, excluded, resolved, request, offset)
            results = await self._results(tenant, ranking.page, skills, excluded)
        except BaseException:
            retrieval.cancel()
            raise
        await retrieval  # LightRAG unreachable fails the search, as it always has
        if request.blind if request.blind is not None else tenant in self.blind_tenants:
            results = [blind(r, tenant, offset + n) for n, r in enumerate(results, 1)]
        more = offset + resolved.top_k < ranking.total
        return SearchResponse(
            query=query.query,
            candidates=results,
            total_considered=ranking.considered,
            total=ranking.total,
            total_qualifying=ranking.qualifying,
            next_cursor=encode_cursor(offset + resolved.top_k, fingerprint) if more else None,
            processing_time_ms=round((time.perf_counter() - started) * 1000, 2),
            message=ranking.message
            if ranking.total
            else self._no_match_message(skills, ranking, resolved),
            resolved_skills=[_resolved(s) for s in skills],
            resolved_request=resolved,
            request_notes=notes,
        )

    async def _rank(
        self,
        tenant: str,
        skills: list[RequestedSkill],
        excluded: Mapping[str, str],
        resolved: ResolvedRequest,
        request: SearchRequest,
        offset: int,
    ) -> Ranking:
        """Every holder of a requested skill (or a stand-in) ranked from the postings index."""
        accepted = {name for s in skills for name in s.accepts}
        view = await self.index.open(tenant, accepted | excluded.keys(), self.today().year)
        found = await self._found_in_text(tenant, skills, view)
        view.number(found.values())
        return rank(view, skills, excluded.keys(), resolved, request.reads_text, offset)

    async def _results(
        self,
        tenant: str,
        page: list[str],
        skills: list[RequestedSkill],
        excluded: Mapping[str, str],
    ) -> list[CandidateResult]:
        """The page's candidates read whole: matched skill by skill, with evidence."""
        wanted = {name for s in skills for name in s.accepts} | excluded.keys()
        profiles, records, duplicates = await asyncio.gather(  # three round trips at once
            self.store.profiles(tenant, page, wanted),
            self.store.get_many(tenant, page),
            self.store.duplicates_of(tenant, page),
        )
        this_year = self.today().year
        return [
            _result(
                match_candidate(profiles[i], skills, this_year),
                records[i],
                skills,
                duplicates.get(i, []),
            )
            for i in page
            if i in records and i in profiles
        ]

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

    # -- skills nobody holds ------------------------------------------------------------
    async def _found_in_text(
        self, tenant: str, skills: list[RequestedSkill], view: IndexView
    ) -> dict[str, CandidateProfile]:
        """For each requested skill no one holds: the CVs whose text names it.

        Records the evidence on the requested skill; returns the profiles of those CVs
        (level, years, duplicate group) for the ranking to number.
        """
        vocabulary = self.normalizer.vocabulary
        for skill in skills:
            if any(len(view.postings.get(name, ())) for name in skill.accepts):
                continue
            for phrase, exact_case in phrases_for(skill, vocabulary):
                texts = await self.store.texts_containing(tenant, phrase, MAX_TEXT_MATCHES)
                for candidate_id, text in texts.items():
                    span = occurrence(text, phrase, exact_case)
                    if span is not None and candidate_id not in skill.found_in_text:
                        skill.found_in_text[candidate_id] = text_evidence(
                            text, span, skill.canonical
                        )
        found = {i for s in skills for i in s.found_in_text}
        profiles = await self.store.profiles(tenant, sorted(found), ()) if found else {}
        for skill in skills:  # a CV deleted meanwhile is not ranked
            skill.found_in_text = {i: e for i, e in skill.found_in_text.items() if i in profiles}
        return profiles

    # -- the empty answer --------------------------------------------------------------
    def _no_match_message(
        self, skills: list[RequestedSkill], ranking: Ranking, request: ResolvedRequest
    ) -> str:
        required = [s for s in skills if s.required]
        unknown = [s.requested for s in required if s.primary is None]
        if unknown:
            return f"{NO_MATCH_MESSAGE} No candidate has '{unknown[0]}' (not a known skill, and nothing similar in the knowledge base)."
        considered = ranking.considered
        if ranking.lacking:
            skill, count = Counter(ranking.lacking).most_common(1)[0]
            return f"{NO_MATCH_MESSAGE} '{skill}' ruled out the most candidates ({count} of {considered} considered lack it)."
        if request.experience_level and considered:
            levels = " or ".join(level.value for level in request.experience_level)
            return f"{NO_MATCH_MESSAGE} Candidates have these skills, but none at {levels} level."
        if request.min_years is not None and considered:
            return f"{NO_MATCH_MESSAGE} Candidates have these skills, but none with {request.min_years:g}+ years."
        return f"{NO_MATCH_MESSAGE} No candidate holds '{required[0].requested}'."


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
            PartialSkill(requested=d.requested, required=d.required, stand_in=d.stand_in or d.skill)
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
