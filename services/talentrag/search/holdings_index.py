"""The ranking index: each skill's holders as arrays, in memory, per tenant.

Search ranks every holder of the requested skills (``search/ranking.py``). Loading and
scoring each holder as a Python object costs O(holders) of I/O and interpreter time on
every search: about 23,000 holders of Python at 100K CVs. Here a skill's holders are
read from the store once, as arrays (row, confidence, depth) plus per-candidate facts
(level, years, duplicate group), and kept up to date: every committed write, from any
process or replica, moves the tenant's store generation and logs the candidates it
touched, and each search first re-reads the candidates written since its index's
generation (``CandidateStore.changes_since``). So a search never ranks from data older
than what was committed before it began, and a write costs the index the few
candidates it touched, not every holder of their skills.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

import numpy as np
from cachetools import LRUCache

from talentrag.domain import CandidateProfile, ExperienceLevel, SkillHolding
from talentrag.search.scoring import course_only, depth
from talentrag.store.base import CandidateStore, StoreChanges

LEVEL_CODES = {level: code for code, level in enumerate(ExperienceLevel)}
"""An experience level as a small integer; -1 is unknown."""

MAX_CACHED_POSTINGS = 4_000_000
"""Held skills kept in memory per tenant (about 20 bytes each), least recently used
skills dropped first; a dropped skill is read again from the store when next asked for."""

MAX_CACHED_TENANTS = 64
"""Tenants whose postings are kept; the least recently searched is dropped first."""

MAX_REFRESHED_CANDIDATES = 2_000
"""Candidates written since the index's generation that a search re-reads one by one;
after more (a bulk load between two searches), it reads the skills it needs whole."""


@dataclass(frozen=True)
class SkillPostings:
    """One skill's holders: tenant-wide row numbers, held confidence, depth, and whether
    only a course or certificate shows it (policy/credits.COURSE_ONLY_IS_PARTIAL)."""

    rows: np.ndarray
    confidence: np.ndarray
    depth: np.ndarray
    course_only: np.ndarray

    def __len__(self) -> int:
        return len(self.rows)

    @classmethod
    def of(cls, held: list[tuple[int, SkillHolding]], year: int) -> SkillPostings:
        """The postings of (row, holding) pairs, depths as of ``year``."""
        return cls(
            np.fromiter((row for row, _ in held), np.int32, len(held)),
            np.fromiter((h.confidence for _, h in held), np.float64, len(held)),
            np.fromiter((depth(h, year) for _, h in held), np.float64, len(held)),
            np.fromiter((course_only(h) for _, h in held), np.bool_, len(held)),
        )

    def patched(self, dropped: np.ndarray, added: SkillPostings | None) -> SkillPostings:
        """These postings less the rows marked in ``dropped`` (a mask over every row),
        plus ``added``; ``self`` when neither changes anything."""
        keep = ~dropped[self.rows]
        if added is None and keep.all():
            return self
        parts = [(self.rows[keep], self.confidence[keep], self.depth[keep], self.course_only[keep])]
        if added is not None:
            parts.append((added.rows, added.confidence, added.depth, added.course_only))
        return SkillPostings(*(np.concatenate([part[i] for part in parts]) for i in range(4)))


@dataclass(frozen=True)
class CandidateFacts:
    """What the filters and one-per-person rule read of each candidate, by row."""

    level: np.ndarray  # int8 code (LEVEL_CODES), -1 unknown
    years: np.ndarray  # float64, NaN unknown
    group: np.ndarray  # int32 duplicate-group code, -1 in none


@dataclass
class TenantPostings:
    """One tenant's loaded postings, valid for one store generation and one year."""

    generation: int
    year: int
    ids: list[str] = field(default_factory=list)
    row_of: dict[str, int] = field(default_factory=dict)
    postings: LRUCache[str, SkillPostings] = field(
        default_factory=lambda: LRUCache(MAX_CACHED_POSTINGS, getsizeof=len)
    )
    _group_codes: dict[str, int] = field(default_factory=dict)
    loading: asyncio.Lock = field(default_factory=asyncio.Lock)
    _fact_parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=lambda: [(np.empty(0, np.int8), np.empty(0), np.empty(0, np.int32))]
    )
    _facts: CandidateFacts | None = None

    def facts(self) -> CandidateFacts:
        """Facts for every row numbered so far (joined again only after new rows)."""
        if self._facts is None or len(self._facts.level) != len(self.ids):
            self._facts = CandidateFacts(
                *(np.concatenate([part[i] for part in self._fact_parts]) for i in range(3))
            )
            self._fact_parts = [(self._facts.level, self._facts.years, self._facts.group)]
        return self._facts

    def number(self, profiles: Iterable[CandidateProfile]) -> None:
        """Give rows to candidates not numbered yet, recording their facts."""
        new = [p for p in profiles if p.id not in self.row_of]
        for profile in new:
            self.row_of[profile.id] = len(self.ids)
            self.ids.append(profile.id)
        self._fact_parts.append(
            (
                np.fromiter((_level_code(p) for p in new), np.int8, len(new)),
                np.fromiter((_years(p) for p in new), np.float64, len(new)),
                np.fromiter((self._group_code(p) for p in new), np.int32, len(new)),
            )
        )

    def add_skills(
        self, skills: Collection[str], holders: Iterable[CandidateProfile]
    ) -> dict[str, SkillPostings]:
        """Record and return the postings of ``skills`` from their holders' profiles
        (numbered already)."""
        held: dict[str, list[tuple[int, SkillHolding]]] = {skill: [] for skill in skills}
        for profile in holders:
            row = self.row_of[profile.id]
            for skill, holding in profile.skills.items():
                if skill in held:
                    held[skill].append((row, holding))
        loaded = {skill: SkillPostings.of(pairs, self.year) for skill, pairs in held.items()}
        self.postings.update(loaded)
        return loaded

    def refresh(self, changes: StoreChanges, profiles: dict[str, CandidateProfile]) -> None:
        """Bring every loaded skill to ``changes.generation``: the changed candidates'
        rows leave all postings and return, with their facts, from their ``profiles``
        as now stored (a deleted candidate has none)."""
        self.number(profiles.values())
        rows = np.fromiter((self.row_of[i] for i in changes.ids if i in self.row_of), np.int32)
        self._set_facts(rows, [profiles.get(self.ids[row]) for row in rows])
        dropped = np.zeros(len(self.ids), bool)
        dropped[rows] = True
        held: dict[str, list[tuple[int, SkillHolding]]] = {}
        for profile in profiles.values():
            for skill, holding in profile.skills.items():
                held.setdefault(skill, []).append((self.row_of[profile.id], holding))
        # Rebuilt least recently used first, so the cache keeps its order.
        old, self.postings = self.postings, LRUCache(MAX_CACHED_POSTINGS, getsizeof=len)
        while old:
            skill, postings = old.popitem()
            added = SkillPostings.of(held[skill], self.year) if skill in held else None
            self.postings[skill] = postings.patched(dropped, added)
        self.generation = changes.generation

    def _set_facts(self, rows: np.ndarray, profiles: list[CandidateProfile | None]) -> None:
        """Replace the facts of ``rows`` (unknown for a candidate no longer stored); new
        arrays, so a search ranking from the old ones is not changed under it."""
        if not len(rows):
            return
        facts = self.facts()
        level, years, group = facts.level.copy(), facts.years.copy(), facts.group.copy()
        level[rows] = [_level_code(p) if p else -1 for p in profiles]
        years[rows] = [_years(p) if p else math.nan for p in profiles]
        group[rows] = [self._group_code(p) if p else -1 for p in profiles]
        self._facts = CandidateFacts(level, years, group)
        self._fact_parts = [(level, years, group)]

    def _group_code(self, profile: CandidateProfile) -> int:
        if profile.duplicate_group is None:
            return -1
        return self._group_codes.setdefault(profile.duplicate_group, len(self._group_codes))


def _level_code(profile: CandidateProfile) -> int:
    return LEVEL_CODES[profile.level] if profile.level else -1


def _years(profile: CandidateProfile) -> float:
    return profile.years if profile.years is not None else math.nan


@dataclass(frozen=True)
class IndexView:
    """What one search ranks from: its skills' postings, held for the whole search (a
    skill the cache drops meanwhile stays here), and the tenant's rows and facts."""

    tenant: TenantPostings
    postings: dict[str, SkillPostings]

    @property
    def ids(self) -> list[str]:
        """Candidate id by row."""
        return self.tenant.ids

    @property
    def row_of(self) -> dict[str, int]:
        """Row by candidate id."""
        return self.tenant.row_of

    def facts(self) -> CandidateFacts:
        """Level, years and duplicate group by row, for every row numbered so far."""
        return self.tenant.facts()

    def number(self, profiles: Iterable[CandidateProfile]) -> None:
        """Give rows to candidates found another way (their CV's text names a skill)."""
        self.tenant.number(profiles)


class HoldingsIndex:
    """Per tenant, the postings of the skills searched so far, refreshed from the store."""

    def __init__(self, store: CandidateStore):
        self.store = store
        self._tenants: LRUCache[str, TenantPostings] = LRUCache(MAX_CACHED_TENANTS)

    async def open(self, tenant: str, skills: Collection[str], year: int) -> IndexView:
        """The postings of ``skills`` in ``tenant``, current as of now."""
        state = await self._current(tenant, year)
        # Taken before any wait: a skill the cache drops meanwhile stays in this view.
        view = {skill: state.postings[skill] for skill in skills if skill in state.postings}
        if len(view) < len(skills):
            # One load per tenant at a time: concurrent searches for the same skill wait
            # for the first instead of each reading its holders.
            async with state.loading:
                view |= {
                    s: state.postings[s] for s in skills if s not in view and s in state.postings
                }
                missing = [s for s in skills if s not in view]
                if missing:
                    view |= await self._load(tenant, state, missing)
        return IndexView(state, view)

    async def _current(self, tenant: str, year: int) -> TenantPostings:
        """The tenant's postings with every write committed so far applied: refreshed
        with the candidates written since, or started afresh when that is not known or
        is too many to re-read one by one."""
        state = self._tenants.get(tenant)
        changes = None
        if state is not None and state.year == year:
            changes = await self.store.changes_since(tenant, state.generation)
            if changes is not None and changes.generation == state.generation:
                return state
            if changes is not None and len(changes.ids) <= MAX_REFRESHED_CANDIDATES:
                async with state.loading:
                    if state.generation < changes.generation:  # not by a search meanwhile
                        profiles = await self.store.profiles(tenant, list(changes.ids))
                        state.refresh(changes, profiles)
                return state
        if changes is not None:  # too many to re-read: the generation is already known
            generation = changes.generation
        else:
            generation = await self.store.generation(tenant)
        state = self._tenants[tenant] = TenantPostings(generation, year)
        return state

    async def _load(
        self, tenant: str, state: TenantPostings, skills: list[str]
    ) -> dict[str, SkillPostings]:
        holders = await self.store.holders(tenant, skills)
        state.number(holders.values())
        return state.add_skills(skills, holders.values())
