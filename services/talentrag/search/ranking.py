"""Rank every holder of the requested skills from the postings arrays (``holdings_index``).

The same rules as ``scoring.match_candidate`` (docs/scoring.md), applied to whole
arrays: for each requested skill the best held skill per candidate (a full match
before a stand-in, then confidence, then depth, then the request's order), its status
and points, then coverage, score, filters, the answer's tier and one CV per person.
Points and scores are computed by ``scoring.points`` and ``scoring.match_score`` on the
distinct values, so a candidate's rank key here is the one ``match_candidate`` gives to
the last bit. Only the page is read whole and matched in Python.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

import numpy as np

from talentrag.domain import MatchKind
from talentrag.policy.credits import FAMILY_SKILLS_FOR_MATCH, FULL_MATCH_KINDS, TEXT_CREDIT
from talentrag.search.holdings_index import LEVEL_CODES, IndexView
from talentrag.search.models import ResolvedRequest
from talentrag.search.query import RequestedSkill
from talentrag.search.scoring import match_score, points

WISH_LIST_ANSWER = (
    "No candidate has all {n_required} required skills; these have the most. Edit "
    "resolved_request (fewer required skills) and send it back to narrow the search."
)

PARTIAL_ANSWER = (
    "No candidate has every required skill; for these, related skills stand in "
    "(see partial_skills)."
)


@dataclass
class Ranking:
    """One page of a ranked answer and the counts over the whole pool."""

    page: list[str]
    considered: int
    """Holders of a requested skill (or of a stand-in), those with an excluded skill left out."""
    total: int
    """Listed candidates, one per person."""
    qualifying: int
    """Listed candidates with every required skill matched."""
    message: str | None = None
    lacking: dict[str, int] = field(default_factory=dict)
    """Per required skill (as requested): how many considered candidates lack it."""


@dataclass
class _Credits:
    """One requested skill over the pool: who is covered, who fully, with what points."""

    covered: np.ndarray
    matched: np.ndarray
    points: np.ndarray


def rank(
    view: IndexView,
    skills: list[RequestedSkill],
    excluded: Collection[str],
    request: ResolvedRequest,
    reads_text: bool,
    offset: int,
) -> Ranking:
    """The candidates the request lists, best first: page ``offset`` of ``request.top_k``."""
    pool = _pool(view, skills, excluded)
    n = len(pool)
    place = np.full(len(view.ids), -1, np.int32)  # row -> its place in the pool, -1 outside
    place[pool] = np.arange(n, dtype=np.int32)
    required_matched, required_covered, preferred_matched = (np.zeros(n, np.int32) for _ in "rcp")
    required_points, preferred_points = np.zeros(n), np.zeros(n)
    lacking: dict[str, int] = {}
    for skill in skills:  # in request order, as match_candidate adds the points
        credits = _credits(view, skill, place, n)
        if skill.required:
            required_matched += credits.matched
            required_covered += credits.covered
            required_points += credits.points
            lacking[skill.requested] = n - int(credits.covered.sum())
        else:
            preferred_matched += credits.matched
            preferred_points += credits.points
    n_required = sum(s.required for s in skills)
    qualifies = required_covered == n_required
    listed = (required_covered > 0) & _passes(view, pool, request)
    full = listed & qualifies & (required_matched == required_covered)
    chosen, message = _tier(listed, qualifies & listed, full, request.include_partial, reads_text)
    message = message and message.format(n_required=n_required)
    score = np.zeros(n)  # only the listed are ordered: their scores alone are computed
    score[chosen] = _scores(
        required_points[chosen], preferred_points[chosen], n_required, len(skills) - n_required
    )
    keys = (-score, -preferred_matched, -required_covered, -required_matched)  # lexsort: last first
    groups = view.facts().group[pool]
    page = _page(view, pool, chosen, keys, groups, offset, request.top_k)
    total, qualifying = _one_per_person_counts(chosen, full, groups)
    return Ranking(page, n, total, qualifying, message, {k: v for k, v in lacking.items() if v})


def _pool(view: IndexView, skills: list[RequestedSkill], excluded: Collection[str]) -> np.ndarray:
    """Sorted rows of every holder of an accepted skill or found in the text, less those
    holding an excluded skill (marked in a mask over every row: no sort of the holders)."""
    member = np.zeros(len(view.ids), bool)
    for name in {n for s in skills for n in s.accepts if n in view.postings}:
        member[view.postings[name].rows] = True
    member[[view.row_of[i] for s in skills for i in s.found_in_text]] = True
    for name in excluded:
        if name in view.postings:
            member[view.postings[name].rows] = False
    return np.flatnonzero(member).astype(np.int32)


def _credits(view: IndexView, skill: RequestedSkill, place: np.ndarray, n: int) -> _Credits:
    """For each of the ``n`` pool rows (``place``: row -> place in the pool): the best held
    skill for ``skill`` (scoring._best_credit's order)."""
    local, confidence, depth, full, narrower, order = [], [], [], [], [], []
    for preference, (name, accepted) in enumerate(skill.accepts.items()):
        postings = view.postings.get(name)
        if postings is None or not len(postings):
            continue
        at = place[postings.rows]
        rows = at >= 0
        local.append(at[rows])
        confidence.append(accepted.confidence * postings.confidence[rows])
        depth.append(postings.depth[rows])
        count = int(rows.sum())
        full.append(
            ~postings.course_only[rows]
            if accepted.kind in FULL_MATCH_KINDS
            else np.zeros(count, bool)
        )
        narrower.append(np.full(count, accepted.kind is MatchKind.NARROWER))
        order.append(np.full(count, preference))
    if not local and skill.found_in_text:  # nobody holds it: the CVs whose text names it
        at = place[np.fromiter((view.row_of[i] for i in skill.found_in_text), np.int32)]
        at = at[at >= 0]
        local.append(at)
        confidence.append(np.full(len(at), TEXT_CREDIT))
        depth.append(np.zeros(len(at)))
        full.append(np.ones(len(at), bool))
        narrower.append(np.zeros(len(at), bool))
        order.append(np.zeros(len(at), np.int64))
    covered, matched, earned = np.zeros(n, bool), np.zeros(n, bool), np.zeros(n)
    at, conf, dep, is_full, is_narrower, position = (
        np.concatenate(a) if a else np.zeros(0)
        for a in (local, confidence, depth, full, narrower, order)
    )
    if not len(at):
        return _Credits(covered, matched, earned)
    # Each row's entries in ascending (full, confidence, depth, earliest accepted) order:
    # the last one of each row is its best, as in scoring._best_credit.
    ranked = np.lexsort((-position, dep, conf, is_full.astype(np.int8), at))
    ends = np.r_[at[ranked][1:] != at[ranked][:-1], True]
    best = ranked[ends]
    who = at[best]
    family = np.bincount(at[is_narrower], minlength=n)
    stand_in = is_narrower[best] & (family[who] < FAMILY_SKILLS_FOR_MATCH)
    covered[who] = True
    matched[who] = is_full[best] & ~stand_in
    earned[who] = _apply(points, conf[best], dep[best])
    return _Credits(covered, matched, earned)


def _apply(
    function: Callable[[float, float], float], first: np.ndarray, second: np.ndarray
) -> np.ndarray:
    """``function(a, b)`` for each pair, called once per distinct pair (there are few).

    The pairs are found as complex numbers: a 1-D unique sorts them exactly as the pairs
    would sort, six times faster than ``np.unique(axis=0)`` on a pool of 40,000."""
    if not len(first):
        return np.zeros(0)
    joined = np.empty(len(first), np.complex128)
    joined.real, joined.imag = first, second
    pairs, inverse = np.unique(joined, return_inverse=True)
    values = np.fromiter(
        (function(float(z.real), float(z.imag)) for z in pairs), np.float64, len(pairs)
    )
    return values[inverse.reshape(-1)]


def _scores(
    required: np.ndarray, preferred: np.ndarray, n_required: int, n_preferred: int
) -> np.ndarray:
    return _apply(lambda r, p: match_score(r, p, n_required, n_preferred), required, preferred)


def _passes(view: IndexView, pool: np.ndarray, request: ResolvedRequest) -> np.ndarray:
    """The level and years filters (a candidate of unknown level or years fails them)."""
    facts = view.facts()
    passes = np.ones(len(pool), bool)
    if request.experience_level:
        codes = [LEVEL_CODES[level] for level in request.experience_level]
        passes &= np.isin(facts.level[pool], codes)
    if request.min_years is not None:
        with np.errstate(invalid="ignore"):
            passes &= facts.years[pool] >= request.min_years
    return passes


def _tier(
    listed: np.ndarray,
    covered: np.ndarray,
    full: np.ndarray,
    include_partial: bool,
    reads_text: bool,
) -> tuple[np.ndarray, str | None]:
    """Who is listed and what the answer says about it.

    Candidates with every required skill matched, when there are any (with those for
    whom related skills stand in after them, if asked); else those for whom related
    skills stand in; else, for a wish list read from text (a JD's eight requirements),
    whoever has the most of it. Otherwise nobody: the caller explains why.
    """
    if full.any():
        return np.flatnonzero(covered if include_partial else full), None
    if covered.any():
        return np.flatnonzero(covered), PARTIAL_ANSWER
    if reads_text and listed.any():
        return np.flatnonzero(listed), WISH_LIST_ANSWER
    return np.zeros(0, np.int64), None


def _page(
    view: IndexView,
    pool: np.ndarray,
    chosen: np.ndarray,
    keys: tuple[np.ndarray, ...],
    groups: np.ndarray,
    offset: int,
    top_k: int,
) -> list[str]:
    """Ids of page ``offset`` in rank order, one CV per person (the best-ranked stays).

    The numeric keys order the whole pool in C; only the head that can reach the page
    (widened by every CV that may give way to a duplicate, and by ties at its edge) is
    ordered in Python with the candidate id as the last key.
    """
    if not len(chosen):
        return []
    ordered = chosen[np.lexsort(tuple(key[chosen] for key in keys))]
    head = min(len(ordered), offset + top_k + int((groups[ordered] >= 0).sum()))
    if head < len(ordered):
        edge = np.zeros(len(ordered) - head, bool)
        for key in keys:
            values = key[ordered]
            edge |= values[head:] != values[head - 1]
        ties = np.flatnonzero(edge)
        head = head + int(ties[0]) if len(ties) else len(ordered)
    ids = view.ids
    candidates = [
        (tuple(key[i] for key in reversed(keys)), ids[pool[i]], i) for i in ordered[:head]
    ]
    kept, seen = [], set()
    for _, candidate_id, i in sorted(candidates):
        group = int(groups[i])
        if group < 0 or group not in seen:
            kept.append(candidate_id)
            seen.add(group)
    return kept[offset : offset + top_k]


def _one_per_person_counts(
    chosen: np.ndarray, full: np.ndarray, groups: np.ndarray
) -> tuple[int, int]:
    """Listed and qualifying counts with one CV per person.

    Which CV of a group stays does not change them: within a tier a CV with every
    required skill matched ranks above one with a stand-in, so a group qualifies when
    any of its listed CVs does.
    """
    grouped = groups[chosen] >= 0
    alone = chosen[~grouped]
    together = chosen[grouped]
    total = len(alone) + len(np.unique(groups[together]))
    qualifying = int(full[alone].sum()) + len(np.unique(groups[together][full[together]]))
    return total, qualifying
