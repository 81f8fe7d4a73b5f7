"""A CV's career: dated (or duration-only) roles, the years they add up to, the level.

Dates follow the conventions documented in talentrag.ingestion.dates: a month-year
start is the first of that month, a month-year end is inclusive (first of the next
month), a bare year means July 1, "present" means the as-of date. Years in the
current field are the union of that field's role intervals in days / 365.25, and
the level comes from talentrag.policy.levels.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from datetime import date

from talentrag.ingestion.dates import union_years
from talentrag.policy.levels import JUNIOR_BELOW_YEARS, SENIOR_ABOVE_YEARS, level_for_years

MARGIN = 0.3  # every CV stays this far (in years) from the level thresholds
GAP = MARGIN + 0.1  # how far inside its band a CV's target years fall
YEAR_BANDS = {
    "junior": (GAP, JUNIOR_BELOW_YEARS - GAP),
    "mid": (JUNIOR_BELOW_YEARS + GAP, SENIOR_ABOVE_YEARS - GAP),
    "senior": (SENIOR_ABOVE_YEARS + GAP, 20.0),
}
DURATION_YEARS = {"junior": (1, 2), "mid": (4, 5), "senior": (7, 15)}
MONTHS_SHORT = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTHS_LONG = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
DATE_KINDS = ("short", "short", "long", "numeric", "year")
DASHES = (" – ", " – ", " - ", "–", " to ")
PRESENT = ("present", "Present", "Present", "current", "Current", "now")
MAX_ATTEMPTS = 50


def level_for(years: float) -> str:
    """The level (junior, mid, senior) that ``years`` in the current field earn."""
    return level_for_years(years).value


def clear_of_thresholds(years: float) -> bool:
    """Far enough from the level thresholds that month rounding cannot flip the level."""
    return all(abs(years - t) >= MARGIN for t in (JUNIOR_BELOW_YEARS, SENIOR_ABOVE_YEARS))


def month_index(day: date) -> int:
    """Months since year 0 (a month as one integer)."""
    return day.year * 12 + day.month - 1


def month_start(index: int) -> date:
    """The first day of month ``index``."""
    return date(index // 12, index % 12 + 1, 1)


def add_years(day: date, years: int) -> date:
    """``day`` moved by whole years (29 February becomes the 28th)."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


@dataclass(frozen=True)
class DateStyle:
    """How one CV writes its dates."""

    kind: str
    dash: str
    present: str

    def month(self, index: int, kind: str) -> str:
        """Month ``index`` as 'Mar 2021', 'March 2021' or '03/2021'."""
        year, month = divmod(index, 12)
        if kind == "long":
            return f"{MONTHS_LONG[month]} {year}"
        if kind == "numeric":
            return f"{month + 1:02d}/{year}"
        return f"{MONTHS_SHORT[month]} {year}"


@dataclass(frozen=True)
class Span:
    """A planned role in month indices: [start, end) and whether it is ongoing."""

    start: int
    end: int
    present: bool
    field: str
    side: bool = False


@dataclass
class Role:
    """A role as written: its dates text and the interval that text means."""

    field: str
    start: date
    end: date
    dates: str
    months: int  # months of the field's experience before this role (for its title)
    present: bool = False
    side: bool = False
    title: str = ""
    company: str = ""
    city: str = ""
    bullets: list[str] = dataclasses.field(default_factory=list)

    def truth(self) -> dict[str, str]:
        """The role's ground-truth record."""
        return {
            "title": self.title,
            "company": self.company,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "field": self.field,
        }


@dataclass
class Career:
    """The roles of one CV (latest first) and the years in its current field."""

    roles: list[Role]
    years: float
    stated_years: int | None = None  # undated careers: the whole years the summary states

    @property
    def level(self) -> str:
        """The CV's level by its years."""
        return level_for(self.years)


def plan_career(
    rng: random.Random,
    level: str,
    fields: tuple[str, str | None],
    as_of: date,
    undated: bool = False,
) -> Career:
    """Roles for a CV of ``level`` in ``fields`` (current, previous or None)."""
    if undated:
        return _undated_career(rng, level, fields[0], as_of)
    return _DatedCareer(rng, level, fields, as_of).plan()


class _DatedCareer:
    """Dated roles: current-field roles inside the level's year band, earlier ones before."""

    def __init__(self, rng: random.Random, level: str, fields: tuple[str, str | None], as_of: date):
        self.rng, self.level, self.as_of = rng, level, as_of
        self.field, self.prev_field = fields
        self.now = month_index(as_of)
        self.style = DateStyle(rng.choice(DATE_KINDS), rng.choice(DASHES), rng.choice(PRESENT))

    def plan(self) -> Career:
        for _ in range(MAX_ATTEMPTS):
            spans = self._current_spans()
            spans += self._previous_spans(min(s.start for s in spans))
            firsts = {
                f: min(s.start for s in spans if s.field == f) for f in {s.field for s in spans}
            }
            roles = [self._role(span, firsts[span.field]) for span in spans]
            years = union_years([(r.start, r.end) for r in roles if r.field == self.field])
            if clear_of_thresholds(years):
                break
        roles.sort(key=lambda r: (r.end, r.start), reverse=True)
        return Career(roles, years)

    def _current_spans(self) -> list[Span]:
        rng = self.rng
        low, high = YEAR_BANDS[self.level]
        target = low + (high - low) * rng.random() ** (1.6 if self.level == "senior" else 1)
        months = max(4, round(target * 12))
        parts = self._split(months, self._role_count(months))
        present = rng.random() < 0.88
        end = self.now if present else self.now - rng.randint(1, 6)
        spans = []
        for i, part in enumerate(parts):
            spans.append(Span(end - part, end, present and i == 0, self.field))
            end -= part + self._gap()
        return spans + self._side_span(spans)

    def _gap(self) -> int:
        """Months between a role and the one before it; negative when they overlap."""
        roll = self.rng.random()
        if roll < 0.25:
            return self.rng.randint(1, 9)
        return -self.rng.randint(1, 2) if roll < 0.35 else 0

    def _role_count(self, months: int) -> int:
        most = max(1, min(5, months // 10))
        low = 2 if self.level == "senior" else 1
        return self.rng.randint(min(low, most), min(most, 2 if self.level == "junior" else 5))

    def _split(self, months: int, count: int) -> list[int]:
        weights = [0.5 + self.rng.random() for _ in range(count)]
        parts = [max(3, round(months * w / sum(weights))) for w in weights]
        parts[-1] = max(3, parts[-1] + months - sum(parts))
        return parts

    def _side_span(self, spans: list[Span]) -> list[Span]:
        """Occasionally a freelance role nested inside a long one (the union ignores it)."""
        long = [s for s in spans if s.end - s.start >= 24]
        if not long or self.rng.random() >= 0.06:
            return []
        host = self.rng.choice(long)
        start = host.start + self.rng.randint(3, host.end - host.start - 12)
        length = self.rng.randint(4, host.end - start - 3)
        return [Span(start, start + length, False, self.field, side=True)]

    def _previous_spans(self, first_start: int) -> list[Span]:
        if self.prev_field is None:
            return []
        end, spans = first_start - self.rng.choice((0, 0, 2, 5, 9)), []
        for _ in range(self.rng.randint(1, 2)):
            length = self.rng.randint(12, 84)
            spans.append(Span(end - length, end, False, self.prev_field))
            end -= length + self.rng.choice((0, 0, 3))
        return spans

    def _role(self, span: Span, field_start: int) -> Role:
        kind = self.style.kind if self.rng.random() < 0.85 else self.rng.choice(DATE_KINDS)
        if kind == "year" and not self._year_ok(span):
            kind = "short"
        text, start, end = self._render_span(span, kind)
        return Role(
            field=span.field,
            start=start,
            end=end,
            dates=text,
            months=span.start - field_start,
            present=span.present,
            side=span.side,
        )

    def _year_ok(self, span: Span) -> bool:
        """A bare-year range still means this span (July 1 to July 1)."""
        start_year = span.start // 12
        if span.present:
            return date(start_year, 7, 1) < self.as_of
        return (span.end - 1) // 12 > start_year

    def _render_span(self, span: Span, kind: str) -> tuple[str, date, date]:
        style = self.style
        if kind == "year":
            start_year, end_year = span.start // 12, (span.end - 1) // 12
            end, end_text = (
                (self.as_of, style.present)
                if span.present
                else (date(end_year, 7, 1), str(end_year))
            )
            return f"{start_year}{style.dash}{end_text}", date(start_year, 7, 1), end
        start_text, start = style.month(span.start, kind), month_start(span.start)
        if span.present:
            return f"{start_text}{style.dash}{style.present}", start, self.as_of
        end_text = style.month(span.end - 1, kind)
        return f"{start_text}{style.dash}{end_text}", start, month_start(span.end)


def _undated_career(rng: random.Random, level: str, fld: str, as_of: date) -> Career:
    """Undated roles ("3 years"), whole years back from as_of; the summary states the sum."""
    total = rng.randint(*DURATION_YEARS[level])
    parts = _split_years(rng, total)
    end, roles, done = as_of, [], total
    unit = rng.choice(("{n} {u}", "{n} {u}", "{n} {u} in total"))
    for i, years in enumerate(parts):
        done -= years
        start = add_years(end, -years)
        text = unit.format(n=years, u="year" if years == 1 else rng.choice(("years", "yrs")))
        roles.append(Role(fld, start, end, text, months=done * 12, present=i == 0))
        end = start
    return Career(roles, union_years([(r.start, r.end) for r in roles]), stated_years=total)


def _split_years(rng: random.Random, total: int) -> list[int]:
    count = rng.randint(1, min(3, total))
    cuts = sorted(rng.sample(range(1, total), count - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
