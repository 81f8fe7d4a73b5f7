"""The vectorised ranking (``search/ranking.py``) against the scalar matcher it stands for.

Over the sample corpus in a real knowledge base, seeded random requests of every shape
(preferred skills, levels, minimum years, exclusions, stand-ins, later pages) are ranked
twice: by ``rank`` from the postings index, and by ``match_candidate`` on every holder's
profile read from the store, sorted by ``CandidateMatch.rank_key`` with one CV per person.
Pages, counts and scores must agree exactly.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from talentrag.domain import ExperienceLevel
from talentrag.ingestion.pipeline import SourceDocument
from talentrag.runtime import KnowledgeBase
from talentrag.search import SearchRequest, SearchService, holdings_index
from talentrag.search.models import ResolvedRequest
from talentrag.search.query import RequestedSkill, resolve_skills
from talentrag.search.ranking import rank
from talentrag.search.scoring import CandidateMatch, match_candidate
from tests.conftest import AS_OF
from tests.search.conftest import SAMPLE, TENANT

REQUESTS = 80


async def _common_skills(kb: KnowledgeBase, tenant: str = TENANT) -> list[str]:
    """Skills held by at least three sample CVs, most held first."""
    held: Counter[str] = Counter()
    after = None
    while page := await kb.store.list_documents(tenant, limit=500, after_id=after):
        for record in page:
            held.update(s.skill for s in record.skills)
        after = page[-1].id
    return [skill for skill, n in held.most_common() if n >= 3]


def _random_request(rng: random.Random, skills: list[str]) -> ResolvedRequest:
    chosen = rng.sample(skills[:60], rng.randint(1, 4))
    n_required = rng.randint(1, len(chosen))
    levels = list(ExperienceLevel)
    return ResolvedRequest(
        required_skills=chosen[:n_required],
        preferred_skills=chosen[n_required:],
        experience_level=rng.sample(levels, rng.randint(1, 2)) if rng.random() < 0.3 else None,
        min_years=rng.choice([None, None, 2.0, 5.0]),
        exclude_skills=rng.sample(skills[:60], 1) if rng.random() < 0.2 else [],
        include_partial=rng.random() < 0.5,
        top_k=rng.choice([3, 10]),
    )


async def _reference(
    kb: KnowledgeBase,
    tenant: str,
    skills: list[RequestedSkill],
    excluded: set[str],
    request: ResolvedRequest,
) -> list[CandidateMatch]:
    """Every holder matched in Python, listed and ordered as docs/scoring.md says."""
    accepted = {name for s in skills for name in s.accepts}
    holders = await kb.store.holders(tenant, accepted | excluded)
    matches = [
        match_candidate(p, skills, AS_OF.year)
        for p in holders.values()
        if p.skills.keys() & accepted and not p.skills.keys() & excluded
    ]

    def passes(m: CandidateMatch) -> bool:
        level_ok = not request.experience_level or m.profile.level in request.experience_level
        years = m.profile.years
        years_ok = request.min_years is None or (years is not None and years >= request.min_years)
        return bool(m.required_covered) and level_ok and years_ok

    listed = [m for m in matches if passes(m)]
    full = [m for m in listed if m.matches_all]
    covered = [m for m in listed if m.qualifies]
    chosen = (covered if request.include_partial else full) if full else covered
    ranked = sorted(chosen, key=CandidateMatch.rank_key)
    kept, seen = [], set()
    for match in ranked:
        group = match.profile.duplicate_group
        if group is None or group not in seen:
            kept.append(match)
            seen.add(group)
    return kept


async def _compare(
    kb: KnowledgeBase,
    service: SearchService,
    tenant: str,
    requests: list[ResolvedRequest],
    offset: int,
) -> int:
    """Rank each request both ways and require the same answers; return how many listed
    someone."""
    compared = 0
    for request in requests:
        skills = await resolve_skills(
            request.required_skills, request.preferred_skills, kb.normalizer, service._implied_by
        )
        excluded = set(await service._excluded(request.exclude_skills))
        accepted = {name for s in skills for name in s.accepts}
        view = await service.index.open(tenant, accepted | excluded, AS_OF.year)

        ranking = rank(view, skills, excluded, request, False, offset)
        expected = await _reference(kb, tenant, skills, excluded, request)

        page = expected[offset : offset + request.top_k]
        assert ranking.page == [m.profile.id for m in page], request
        assert ranking.total == len(expected)
        assert ranking.qualifying == sum(m.matches_all for m in expected)
        compared += bool(page)
    return compared


async def _random_requests(kb: KnowledgeBase, tenant: str, seed: int) -> list[ResolvedRequest]:
    rng = random.Random(seed)
    common = await _common_skills(kb, tenant)
    return [_random_request(rng, common) for _ in range(REQUESTS)]


@pytest.mark.parametrize("offset", [0, 3])
async def test_rank_agrees_with_match_candidate(sample_kb: KnowledgeBase, offset: int):
    requests = await _random_requests(sample_kb, TENANT, 2026 + offset)
    compared = await _compare(sample_kb, sample_kb.search, TENANT, requests, offset)
    assert compared > REQUESTS // 3  # most requests list someone


async def test_an_index_refreshed_after_writes_ranks_as_one_read_afresh(kb: KnowledgeBase):
    """A reader's loaded postings are patched with the candidates each write touched
    (updated, deleted, added, regrouped as duplicates), not read again, and still rank
    exactly as ``match_candidate`` over the store."""
    files = sorted((SAMPLE / "cvs").iterdir())
    texts = {path.stem: path.read_text() for path in files[:40]}
    await kb.ingestor.ingest_documents(
        "default", [SourceDocument(text, stem, f"{stem}.txt") for stem, text in texts.items()]
    )
    reader = SearchService(kb.gateway, kb.store, kb.normalizer)
    requests = await _random_requests(kb, "default", 1)
    assert await _compare(kb, reader, "default", requests, 0)
    loaded = reader.index._tenants["default"]

    stems = list(texts)
    changed = [  # a new skill and an older start: level, years and holdings move
        SourceDocument(
            texts[stem].replace("Skills:", "Skills: Fortran, Kubernetes,").replace("20", "19", 1),
            stem,
            f"{stem}.txt",
        )
        for stem in stems[:4]
    ]
    added = [SourceDocument(path.read_text(), path.stem, path.name) for path in files[40:44]]
    again = SourceDocument(texts[stems[5]] + "\nReferences on request.\n", "again", "again.txt")
    await kb.ingestor.ingest_documents("default", [*changed, *added, again])
    await kb.ingestor.delete("default", stems[6:9])
    assert (await kb.store.duplicates_of("default", ["again"]))["again"] == [stems[5]]

    assert await _compare(kb, reader, "default", requests, 0)  # the same skills, patched
    assert reader.index._tenants["default"] is loaded  # refreshed, not started afresh
    assert loaded.generation == await kb.store.generation("default")
    fresh = SearchService(kb.gateway, kb.store, kb.normalizer)
    query = SearchRequest(required_skills=["Kubernetes"], top_k=50)
    assert (await reader.search(query)).candidates == (await fresh.search(query)).candidates


async def test_a_write_through_another_service_is_seen(kb: KnowledgeBase):
    """Two services over one store, as two replicas: the reader's cached postings give
    way as soon as the writer commits (the store's generation moved)."""
    reader = SearchService(kb.gateway, kb.store, kb.normalizer)
    query = SearchRequest(required_skills=["Fortran"], top_k=50)
    await kb.ingestor.ingest_documents(
        "default", [SourceDocument("Ada Byrne\nSkills: Fortran, MPI.\n", "ada", "ada.txt")]
    )
    assert [c.candidate_id for c in (await reader.search(query)).candidates] == ["ada"]

    await kb.ingestor.ingest_documents(
        "default", [SourceDocument("Fran Kell\nSkills: Fortran, C.\n", "fran", "fran.txt")]
    )
    assert {c.candidate_id for c in (await reader.search(query)).candidates} == {"ada", "fran"}

    await kb.ingestor.delete("default", ["ada"])
    assert [c.candidate_id for c in (await reader.search(query)).candidates] == ["fran"]


async def test_an_index_behind_by_many_writes_starts_afresh(kb: KnowledgeBase, monkeypatch):
    """More changed candidates than a search re-reads one by one: the index is read
    anew at the store's generation, and answers as before."""
    monkeypatch.setattr(holdings_index, "MAX_REFRESHED_CANDIDATES", 2)
    files = sorted((SAMPLE / "cvs").iterdir())
    documents = [SourceDocument(path.read_text(), path.stem, path.name) for path in files[:36]]
    await kb.ingestor.ingest_documents("default", documents[:30])
    reader = SearchService(kb.gateway, kb.store, kb.normalizer)
    requests = await _random_requests(kb, "default", 3)
    await _compare(kb, reader, "default", requests, 0)
    loaded = reader.index._tenants["default"]

    await kb.ingestor.ingest_documents("default", documents[30:])  # six more: over the bound
    assert await _compare(kb, reader, "default", requests, 0)
    fresh = reader.index._tenants["default"]
    assert fresh is not loaded
    assert fresh.generation == await kb.store.generation("default")
