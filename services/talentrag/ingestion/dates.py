"""Date ranges, durations and stated totals as CVs write them.

Conventions (the sample generator follows the same): a month-year start is the
first of that month and a month-year end is inclusive (first of the next month);
a day-month-year date is that day (an end is inclusive); a bare year means July 1
at either end; "present", "till date", "current", "now" mean the as-of date; a
season ("Summer 2013") covers its months. Years are days / 365.25.

Spans are found with one compiled regex per form, built from the word lists in
``data/experience.yaml`` (month names in several languages, "present" words, dashes
including their mojibake). Once a span is found its fields are unambiguous (month,
year, day), so no general-purpose date parser is run on it: analysis stays linear.
A range may wrap onto the next line once, as text extracted from PDFs does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from talentrag.ingestion.experience_words import alternation, experience_words
from talentrag.ingestion.intervals import merge_intervals

_WORDS = experience_words()
MONTHS = _WORDS.month_table()
_MONTH = rf"(?:{alternation([w for ws in _WORDS.months.values() for w in ws])})\.?"
_SEASON = rf"(?:{alternation(list(_WORDS.seasons))})"
_SP = r"[ \t]*(?:\n[ \t]*)?"  # spaces, at most one line break (PDF wraps)
_YEAR = r"(?:19|20)\d\d"
_DATE = (
    rf"(?:(?P<{{p}}day>[0-3]?\d)[/.\-](?P<{{p}}dmon>0?[1-9]|1[0-2])[/.\-](?P<{{p}}dyear>{_YEAR})"
    rf"|(?:[0-3]?\d(?:st|nd|rd|th)?[ \t\-]+)?(?P<{{p}}mname>{_MONTH})(?:[ \t,\-]*|{_SP})(?P<{{p}}myear>{_YEAR})"
    rf"|(?P<{{p}}aname>{_MONTH})[ \t]*['’`][ \t]*(?P<{{p}}ayy>\d\d)"
    rf"|(?P<{{p}}season>{_SEASON})[ \t]+(?P<{{p}}syear>{_YEAR})"
    rf"|(?P<{{p}}mnum>0?[1-9]|1[0-2])[ \t]*[/.][ \t]*(?P<{{p}}nyear>{_YEAR})"
    rf"|(?P<{{p}}iyear>{_YEAR})[-/.](?P<{{p}}imon>0[1-9]|1[0-2])(?![0-9])"
    rf"|(?P<{{p}}year>{_YEAR}))"
)
_PRESENT = (
    rf"(?P<present>(?:(?:till|to|until|up[ \t]+to)[ \t]+)?(?:{alternation(_WORDS.present)}))"
    r"(?![\w’'])"
)
_RANGE_WORD = rf"(?:{alternation(_WORDS.range_words)})"
DATE_RANGE = re.compile(
    rf"(?<![\d/.\w]){_DATE.format(p='s_')}{_SP}{_RANGE_WORD}{_SP}"
    rf"(?:{_DATE.format(p='e_')}|{_PRESENT})(?![\d/])",
    re.IGNORECASE,
)
SINCE = re.compile(
    rf"(?<!\w)(?:{alternation(_WORDS.since_words)})[ \t]+{_DATE.format(p='s_')}(?![\d/])",
    re.IGNORECASE,
)
_ANY_YEAR = re.compile(r"(?:19|20)\d\d|['’`]\d\d")
_YEARS_WORD = re.compile(r"(?:years?|yrs?)\b", re.IGNORECASE)


def _windows(text: str, anchor: re.Pattern[str], before: int, after: int) -> list[tuple[int, int]]:
    """Merged windows around every anchor: the expensive patterns run only there."""
    windows: list[tuple[int, int]] = []
    for match in anchor.finditer(text):
        start, end = max(0, match.start() - before), min(len(text), match.end() + after)
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], end)
        else:
            windows.append((start, end))
    return windows


def _find(
    pattern: re.Pattern[str], text: str, windows: list[tuple[int, int]]
) -> list[re.Match[str]]:
    return [m for start, end in windows for m in pattern.finditer(text, start, end)]


SEASON_ONLY = re.compile(rf"(?<!\w){_DATE.format(p='s_')}(?![\d/])", re.IGNORECASE)

_NUMBER_WORDS = alternation(list(_WORDS.numbers))
_NUMBER = rf"(?:\d{{1,2}}(?:\.\d{{1,2}})?|(?:{_NUMBER_WORDS})(?:[ \-]plus)?)"
_YEARS_UNIT = r"(?:years?|yrs?)\b"
_MONTHS_UNIT = r"(?:months?|mos?|mths?)\b"
DURATION = re.compile(
    rf"(?P<years>{_NUMBER})[ \t]*\+?[ \t]*{_YEARS_UNIT}(?:[ \t,]*(?:and[ \t]*)?(?P<months>\d{{1,2}})[ \t]*{_MONTHS_UNIT})?"
    rf"|(?P<only_months>\d{{1,3}})[ \t]*\+?[ \t]*{_MONTHS_UNIT}",
    re.IGNORECASE,
)
_EXPERIENCE = rf"(?:{alternation(_WORDS.experience_words)})"
_TOTAL = rf"(?P<years>{_NUMBER})[ \t]*\+?[ \t]*(?:years?|yrs?)(?:[ \t,]*(?:and[ \t]*)?(?P<months>\d{{1,2}})[ \t]*{_MONTHS_UNIT})?"
EXPERIENCE_CLAIM = re.compile(
    # "6+ years of experience", "13 years' post-qualification experience", "11 years of IT experience"
    rf"(?<![\w.]){_TOTAL}(?:'|’)?[ \t]+(?:of[ \t]+)?(?:[\w&/\-]+[ \t]+){{0,3}}?{_EXPERIENCE}\b"
    # "experience of 2 years", "Experience:- 1 Year 3 Months", "Total Experience: 4.5 years"
    rf"|\b{_EXPERIENCE}[ \t]*(?:of|:-|:|-|–|is|=)?[ \t]*(?:about|around|over|nearly|approx\.?)?[ \t]*"
    rf"(?P<years2>{_NUMBER})[ \t]*\+?[ \t]*(?:years?|yrs?)(?:[ \t,]*(?:and[ \t]*)?(?P<months2>\d{{1,2}})[ \t]*{_MONTHS_UNIT})?"
    # "engineer with 21 years in product development", "Seven years shipping iOS apps"
    rf"|(?:\bwith|\bhaving|^|(?<=[.(:•*]))[ \t]*(?:over|more[ \t]+than|nearly|almost)?[ \t]*"
    rf"(?P<years3>{_NUMBER})[ \t]*\+?[ \t]*(?:years?|yrs?)(?:'|’)?[ \t]+(?:[a-z\-]+[ \t]+)?"
    rf"(?:in|of|across|as|shipping|writing|building|working|delivering|leading|teaching)\b",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class DateRange:
    """A 'Jan 2019 - present' style range, resolved to dates, and where it was written.

    ``form`` is 'range' (two ends), 'since' ("since 2015": open to the as-of date) or
    'season' ("Summer 2013": a single season).
    """

    start: date
    end: date
    match_start: int
    match_end: int
    form: str = "range"

    @property
    def years(self) -> float:
        """The range's length in years (days / 365.25), never negative."""
        return max(0.0, (self.end - self.start).days / 365.25)


def _month_after(year: int, month: int) -> date:
    return date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)


def _two_digit_year(text: str, as_of: date) -> int:
    value = int(text)
    return 2000 + value if 2000 + value <= as_of.year else 1900 + value


def _point(match: re.Match[str], prefix: str, is_end: bool, as_of: date) -> date | None:
    """The date one end of a match names (see the module's conventions)."""
    group = match.groupdict()

    def get(key: str) -> str | None:
        return group.get(prefix + key)

    try:
        if (year := get("dyear")) and (month := get("dmon")) and (day := get("day")):
            point = date(int(year), int(month), int(day))
            return point + timedelta(days=1) if is_end else point
        if (name := get("mname") or get("aname")) and (year := get("myear") or get("ayy")):
            month_number = MONTHS[name.casefold().rstrip(".")]
            full_year = int(year) if len(year) == 4 else _two_digit_year(year, as_of)
            return (
                _month_after(full_year, month_number)
                if is_end
                else date(full_year, month_number, 1)
            )
        if (season := get("season")) and (year := get("syear")):
            first, last = _WORDS.seasons[season.casefold()]
            end_year = int(year) + (1 if last < first else 0)
            return _month_after(end_year, last) if is_end else date(int(year), first, 1)
        for month_key, year_key in (("mnum", "nyear"), ("imon", "iyear")):
            if (month := get(month_key)) and (year := get(year_key)):
                return (
                    _month_after(int(year), int(month))
                    if is_end
                    else date(int(year), int(month), 1)
                )
        if year := get("year"):
            return date(int(year), 7, 1)
    except ValueError:  # 31/02/2020, a day that does not exist
        return None
    return None


def _plausible(start: date | None, end: date | None, as_of: date) -> bool:
    return (
        start is not None and end is not None and date(1950, 1, 1) <= start < end and start <= as_of
    )


def find_date_ranges(text: str, as_of: date, *, since: bool = True) -> list[DateRange]:
    """Every plausible range in ``text``, in order; ends are capped at ``as_of``.

    With ``since``, "since April 2021" / "from 2015" alone (no end) is a range to
    ``as_of`` when no two-ended range covers it. Future starts and inverted ranges
    are dropped.
    """
    ranges: list[DateRange] = []
    windows = _windows(text, _ANY_YEAR, 60, 90)
    for match in _find(DATE_RANGE, text, windows):
        start = _point(match, "s_", False, as_of)
        end = as_of if match.group("present") else _point(match, "e_", True, as_of)
        if _plausible(start, end, as_of):
            assert start is not None and end is not None
            ranges.append(DateRange(start, min(end, as_of), match.start(), match.end()))
    if since:
        taken = [(r.match_start, r.match_end) for r in ranges]
        for match in _find(SINCE, text, windows):
            if any(s <= match.start() < e or s < match.end() <= e for s, e in taken):
                continue
            start = _point(match, "s_", False, as_of)
            if _plausible(start, as_of, as_of):
                assert start is not None
                ranges.append(DateRange(start, as_of, match.start(), match.end(), "since"))
    return sorted(ranges, key=lambda r: r.match_start)


def find_season(text: str, as_of: date) -> DateRange | None:
    """A lone season date ("Summer 2013"): internships are often dated so."""
    for match in SEASON_ONLY.finditer(text):
        if match.group("s_season"):
            start, end = _point(match, "s_", False, as_of), _point(match, "s_", True, as_of)
            if _plausible(start, end, as_of):
                assert start is not None and end is not None
                return DateRange(start, min(end, as_of), match.start(), match.end(), "season")
    return None


def number_value(text: str) -> float:
    """'7' -> 7.0, '4.5' -> 4.5, 'eight' -> 8.0, 'Twenty-plus' -> 20.0."""
    word = re.split(r"[ \-]plus", text.casefold())[0].strip()
    return float(_WORDS.numbers[word]) if word in _WORDS.numbers else float(word)


def _years_of(years: str | None, months: str | None) -> float:
    return (number_value(years) if years else 0.0) + (int(months) / 12 if months else 0.0)


def parse_duration_years(text: str) -> float | None:
    """'3 years', '2 yrs 6 months', '18 months', 'ten years' -> years."""
    match = DURATION.search(text)
    if not match:
        return None
    if match.group("only_months"):
        return int(match.group("only_months")) / 12
    return _years_of(match.group("years"), match.group("months"))


@dataclass(frozen=True)
class StatedTotal:
    """A CV's own statement of its experience ("6+ years of experience") and where it is."""

    years: float
    start: int
    end: int


def stated_totals(text: str) -> list[StatedTotal]:
    """Every statement of total experience in ``text``, in order."""
    found = []
    for match in _find(EXPERIENCE_CLAIM, text, _windows(text, _YEARS_WORD, 80, 90)):
        for years_key, months_key in (("years", "months"), ("years2", "months2"), ("years3", None)):
            if match.group(years_key):
                months = match.group(months_key) if months_key else None
                found.append(StatedTotal(_years_of(match.group(years_key), months), *match.span()))
                break
    return [t for t in found if 0 < t.years < 60]


def union_years(spans: list[tuple[date, date]]) -> float:
    """Length of the union of intervals (overlapping roles count once)."""
    total_days = sum((end - start).days for start, end in merge_intervals(spans))
    return total_days / 365.25
