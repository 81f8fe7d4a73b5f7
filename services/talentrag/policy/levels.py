"""Experience-level bands: junior < 3 years, mid 3-6, senior > 6 (years in the current field).

Ingestion decides a candidate's level with ``level_for_years``; the graph, the API
descriptions, the MCP tool and the benchmarks' generator word the bands with
``BANDS_TEXT`` so the numbers are written once.
"""

from __future__ import annotations

from talentrag.domain import ExperienceLevel

JUNIOR_BELOW_YEARS = 3.0
SENIOR_ABOVE_YEARS = 6.0

BANDS_TEXT = (
    f"junior (under {JUNIOR_BELOW_YEARS:g} years), mid ({JUNIOR_BELOW_YEARS:g}-{SENIOR_ABOVE_YEARS:g}) "
    f"or senior (over {SENIOR_ABOVE_YEARS:g})"
)
"""'junior (under 3 years), mid (3-6) or senior (over 6)'."""


def level_for_years(years: float) -> ExperienceLevel:
    """The level a number of years in the current field earns."""
    if years < JUNIOR_BELOW_YEARS:
        return ExperienceLevel.JUNIOR
    if years <= SENIOR_ABOVE_YEARS:
        return ExperienceLevel.MID
    return ExperienceLevel.SENIOR
