"""Years with each held skill and the year it was last used, from the CV's roles.

A skill named in a dated role's text was used for that role's span of time: its years
are the union of those spans (overlaps merged), or the years the CV states for it
("Java - 36 months"), whichever is more; its last use is the end year of the latest
such role. Education is not use. A skill only in a skills list has neither, which is
what ranking should see: a claim, not a record of use.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence

from talentrag.domain import HeldSkill, Role
from talentrag.ingestion.dates import union_years


def _used_in(role: Role, offsets: Sequence[int]) -> bool:
    if role.block_start is None or role.block_end is None:
        return False
    first = bisect_left(offsets, role.block_start)
    return first < len(offsets) and offsets[first] < role.block_end


def add_skill_depth(
    held: Sequence[HeldSkill],
    positions: Mapping[str, Sequence[int]],
    roles: Sequence[Role],
    stated_years: Mapping[str, float],
) -> None:
    """Set ``years`` and ``last_used`` on each held skill (in place)."""
    used_roles = [r for r in roles if r.kind != "education" and r.start and r.end]
    for skill in held:
        offsets = positions.get(skill.skill, ())
        using = [r for r in used_roles if _used_in(r, offsets)]
        from_roles = union_years([(r.start, r.end) for r in using if r.start and r.end])
        years = max(from_roles, stated_years.get(skill.skill, 0.0))
        skill.years = round(years, 2) if years > 0 else None
        skill.last_used = max((r.end.year for r in using if r.end), default=None)
