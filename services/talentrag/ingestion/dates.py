"""Date ranges and durations as CVs write them.

Conventions (the sample generator follows the same): a month-year start is the
first of that month and a month-year end is inclusive (first of the next month);
a bare year means July 1 at either end; "present", "current", "now" mean the
as-of date. Years are days / 365.25.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from talentrag.ingestion.intervals import merge_intervals

MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MONTH_NAME = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_DATE = (
    rf"(?:(?P<{{p}}mname>{_MONTH_NAME})\.?,?[ \t]+(?P<{{p}}myear>(?:19|20)\d\d)"
    rf"|(?P<{{p}}mnum>0?[1-9]|1[0-2])(?:[ \t]*/[ \t]*|\.)(?P<{{p}}nyear>(?:19|20)\d\d)"
    rf"|(?P<{{p}}iyear>(?:19|20)\d\d)-(?P<{{p}}imon>0[1-9]|1[0-2])(?![0-9])"
    rf"|(?P<{{p}}year>(?:19|20)\d\d))"
)
_PRESENT = r"(?P<present>present|current(?:ly)?|now|today|ongoing|to date|date)"
DATE_RANGE = re.compile(
    rf"(?<![\d/]){_DATE.format(p='s_')}[ \t]*(?:–|—|-|−|to|until|till|through)[ \t]*"
    rf"(?:{_DATE.format(p='e_')}|{_PRESENT})(?![\d/])",
    re.IGNORECASE,
)
DURATION = re.compile(
    r"(?P<years>\d{1,2}(?:\.\d)?)\s*\+?\s*(?:years?|yrs?)(?:\s*(?:and\s*)?(?P<months>\d{1,2})\s*(?:months?|mos?))?"
    r"|(?P<only_months>\d{1,3})\s*(?:months?|mos?)\b",
    re.IGNORECASE,
)
EXPERIENCE_CLAIM = re.compile(
    r"(?P<years>\d{1,2}(?:\.\d)?)\s*\+?\s*(?:years?|yrs?)(?:'|’)?\s+(?:of\s+)?(?:professional\s+|commercial\s+|industry\s+|hands-on\s+)?"
    r"(?:experience|expertise|work)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DateRange:
    """A 'Jan 2019 - present' style range, resolved to dates, and where it was written."""

    start: date
    end: date
    match_start: int
    match_end: int

    @property
    def years(self) -> float:
        """The range's length in years (days / 365.25), never negative."""
        return max(0.0, (self.end - self.start).days / 365.25)


def _month_start(year: int, month: int) -> date:
    return date(year, month, 1)


def _month_after(year: int, month: int) -> date:
    return date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)


def _point(match: re.Match[str], prefix: str, is_end: bool) -> date | None:
    group = match.groupdict()
    pairs = [("mname", "myear"), ("mnum", "nyear"), ("imon", "iyear")]
    for month_key, year_key in pairs:
        month_text, year_text = group.get(prefix + month_key), group.get(prefix + year_key)
        if month_text and year_text:
            month = MONTHS[month_text[:3].lower()] if month_key == "mname" else int(month_text)
            year = int(year_text)
            return _month_after(year, month) if is_end else _month_start(year, month)
    if year_text := group.get(prefix + "year"):
        return date(int(year_text), 7, 1)
    return None


def find_date_ranges(text: str, as_of: date) -> list[DateRange]:
    """Every plausible range in ``text``; ends are capped at ``as_of``, future starts dropped."""
    ranges = []
    for match in DATE_RANGE.finditer(text):
        start = _point(match, "s_", is_end=False)
        end = as_of if match.group("present") else _point(match, "e_", is_end=True)
        if start is None or end is None or end < start or start > as_of:
            continue
        ranges.append(DateRange(start, min(end, as_of), match.start(), match.end()))
    return ranges


def parse_duration_years(text: str) -> float | None:
    """'3 years', '2 yrs 6 months', '18 months' -> years."""
    match = DURATION.search(text)
    if not match:
        return None
    if match.group("only_months"):
        return int(match.group("only_months")) / 12
    return float(match.group("years")) + int(match.group("months") or 0) / 12


def experience_claims(text: str) -> list[float]:
    """'8 years of experience' style statements."""
    return [float(m.group("years")) for m in EXPERIENCE_CLAIM.finditer(text)]


def union_years(spans: list[tuple[date, date]]) -> float:
    """Length of the union of intervals (overlapping roles count once)."""
    total_days = sum((end - start).days for start, end in merge_intervals(spans))
    return total_days / 365.25
