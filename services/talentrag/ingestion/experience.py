"""Years of experience and level from what a CV supports, with the reason and the spans used.

Decisions (see also ``talentrag.policy.levels``):

- Roles come only from experience sections (all non-education sections when a CV
  has no headings). A dated line whose header names a degree is education.
- Internships, placements, apprenticeships, co-ops, summer jobs and volunteering are
  ``training``; part-time roles (``part-time``, "20 h/week", bank, PRN) are
  ``part_time`` (also "12h/week", a student job). Both are recorded as roles but never
  counted toward years: a reader judging seniority counts full-time work. A "Career
  break" or "Sabbatical" line is ``career_break``: a gap, recorded, never counted.
- Years are the union of the counted roles in the current field (the latest role's
  field), so overlapping roles count once and an earlier career does not count. Jobs
  under a heading such as "Previous Career" are ``earlier_career``: the CV says so.
- A range nested inside another role's range in the same section (a project, a
  promotion) is part of that role, not a role of its own.
- Without counted roles, the CV's own stated total ("6+ years of experience",
  "Experience:- 1 Year 3 Months") decides, capped by the CV's own timeline (no more
  years than since the earliest date it mentions outside a date of birth).
- Only internships or part-time work: 0 years, junior. Nothing at all: level None;
  a job title alone ("Senior Developer") is not evidence of years.
- Per-skill durations ("Python- Exprience - 24 months", "Java : 3 years") are years
  with that skill, never roles and never a total.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from itertools import pairwise

from talentrag.domain import ExperienceLevel
from talentrag.ingestion.dates import (
    DURATION,
    DateRange,
    StatedTotal,
    find_date_ranges,
    find_season,
    parse_duration_years,
    stated_totals,
    union_years,
)
from talentrag.ingestion.experience_words import (
    alternation,
    education_cue_pattern,
    experience_words,
)
from talentrag.ingestion.skills import find_mentions
from talentrag.policy.levels import level_for_years
from talentrag.vocabulary.vocabulary import Vocabulary

_WORDS = experience_words()


def _header_cue(words: list[str], before: str = "") -> re.Pattern[str]:
    """One of ``words`` as a whole word in a role's header, ``before`` allowed ahead of it."""
    return re.compile(rf"(?<![\w-]){before}(?:{alternation(words)})(?![\w-])", re.I)


_TRAINING = _header_cue(_WORDS.training_cues)
_PART_TIME = _header_cue(_WORDS.part_time_cues, before=r"(?:\d+(?:[.,]\d+)?[ \t]*)?")  # "12h/week"
_BREAK = _header_cue(_WORDS.break_cues)
_EDUCATION = education_cue_pattern()
_ROLE_FIELDS = [
    (name, re.compile(rf"(?<!\w)(?:{alternation(words)})(?!\w)", re.I))
    for name, words in _WORDS.role_fields.items()
]
_EXPORT_LABELS = frozenset(word.casefold() for word in _WORDS.export_labels)
_EXPORT_EMPLOYER = re.compile(
    rf"(?<!\w)(?:{alternation(_WORDS.export_labels)})\s*[-–:]\s*(?P<employer>[^,\n]+?)"
    r"(?=\s*,|\s+description\b|\s*[-–]|\s*$)",
    re.IGNORECASE,
)
_ROLE_STATEMENT = re.compile(rf"(?<!\w)(?:{alternation(_WORDS.role_statements)})(?!\w)", re.I)
# where a sentence of a run-together line ends: after . or ;, or at a run of spaces
_SENTENCE_BREAK = re.compile(r"(?<=[.;])\s+|\s{2,}(?=\S)")
_TITLE_WORD = re.compile(rf"(?<!\w)(?:{alternation(_WORDS.title_words)})s?(?!\w)", re.I)
_BULLET = re.compile(r"^\s*(?:[-–—•▪◦●·>]|\*(?=\s)|â€¢)")  # "**Developer**" is bold, not a bullet
_SEPARATORS = re.compile(r"\s*(?:\||,|—|–|â€”|â€“| - | at | @ |\(|\)|:\s)\s*")
_DURATION_ROLE = re.compile(
    r"\(\s*\d|\bin total\b|^\W*\d{1,2}\s*(?:years?|yrs?|months?)\b|\d\s*(?:years?|yrs?|months?)\W*$",
    re.IGNORECASE,
)
# ages, not a role's length: "children (5 to 16 yrs)", "pupils aged 11-14 years"
_AGE_RANGE = re.compile(
    r"\b(?:aged?|ages)\s+\d|\d{1,2}\s*(?:to|-|–)\s*\d{1,2}\s*(?:years?|yrs?)\b", re.IGNORECASE
)
# "Python- Exprience - 24 months", "Java : 3 years", "SharePoint Online – Experience – 72 months"
_SKILL_DURATION = re.compile(
    r"^\W*(?P<skill>[^:|\n]{1,60}?)\s*(?:[-–:|]|â€“)+\s*"
    r"(?:(?:total\s+)?(?:experience|exprience|experiance|exp)\s*(?:[-–:|]|â€“)*\s*)?"
    r"(?P<less>less\s+than\s+)?(?P<duration>\d{1,3}(?:\.\d)?\s*\+?\s*(?:years?|yrs?|months?)(?:\s*(?:and\s*)?\d{1,2}\s*months?)?)"
    r"(?:\s*months?)?\W*$",
    re.IGNORECASE,
)
_DOB = re.compile(
    r"\b(?:date\s+of\s+birth|d\.?o\.?b|born|geburtsdatum|date\s+de\s+naissance)\b", re.I
)
_YEAR_TOKEN = re.compile(r"(?<![\d/.])(?:19[5-9]\d|20\d\d)(?![\d])")
_MAX_HEADER_LINE = 140
# A labelled fact under a role's dates: "Grade Level: GS-0462-08", "Supervisor: M. Quist".
_LABELLED_FACT = re.compile(r"\s*[A-Za-z][\w' /-]{1,30}:\s")
_RANK_WORDS = {
    "senior",
    "sr",
    "junior",
    "jr",
    "lead",
    "principal",
    "staff",
    "head",
    "chief",
    "ii",
    "iii",
    "i",
    "1",
    "2",
    "3",
}
_UNIT_WORD = re.compile(r"\d\s*\+?\s*(?:years?|yrs?|months?|mos?)\b", re.IGNORECASE)


class _Titles:
    """The vocabulary's title-to-field look-up, remembered for one CV (titles repeat)."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self._seen: dict[str, str | None] = {}

    def field(self, text: str) -> str | None:
        if text not in self._seen:
            self._seen[text] = self.vocabulary.title_field(text)
        return self._seen[text]


@dataclass
class RoleFinding:
    """One dated (or duration-only) role and how it was read."""

    title: str
    kind: str  # job, training, part_time, education
    field: str | None
    dates: DateRange | None
    duration: float | None
    span: tuple[int, int]  # the date (or duration) text
    cue: str | None = None  # the word that made it training, part-time or education
    titled: bool = False  # the field came from the title (else from the skills in the block)
    block: tuple[int, int] = (0, 0)  # the role's text: its header lines to the next role's

    @property
    def years(self) -> float:
        """Length in years: the range, else the stated duration."""
        return self.dates.years if self.dates else (self.duration or 0.0)


@dataclass
class Experience:
    """What the CV supports about experience, and why."""

    roles: list[RoleFinding]
    years: float | None
    field: str | None
    level: ExperienceLevel | None
    source: str | None  # roles, stated_total, training_only; None when unknown
    reason: str
    spans: list[tuple[int, int, str]] = dataclasses.field(default_factory=list)
    skill_years: dict[str, float] = dataclasses.field(default_factory=dict)
    stated: list[StatedTotal] = dataclasses.field(default_factory=list)


@dataclass(frozen=True)
class Line:
    """A line of the CV and its offsets."""

    start: int
    end: int
    text: str


def lines_of(text: str, start: int = 0, end: int | None = None) -> list[Line]:
    """The lines of ``text[start:end]`` with offsets into ``text``."""
    out, offset = [], start
    for raw in text[start:end].splitlines(keepends=True):
        body = raw.rstrip("\r\n")
        out.append(Line(offset, offset + len(body), body))
        offset += len(raw)
    return out


# -- per-skill durations ----------------------------------------------------------------
def skill_duration(line: str, vocabulary: Vocabulary) -> tuple[str, float] | None:
    """'Python- Exprience - 24 months' -> ('Python', 2.0); None unless the name is a skill."""
    match = _SKILL_DURATION.match(line)
    if not match or find_date_ranges(line, date.max, since=False):
        return None
    years = parse_duration_years(match.group("duration"))
    if years is None:
        return None
    if match.group("less"):
        years /= 2
    name = match.group("skill").strip(" -–*•\t")
    for candidate in [name, *re.split(r"\s*(?:/|,|\(|\)|&| and )\s*", name)]:
        surface = vocabulary.lookup(candidate.strip()) if candidate.strip() else None
        if surface is not None:
            return surface.skill, round(years, 2)
    return None


def skill_years(text: str, vocabulary: Vocabulary) -> tuple[dict[str, float], list[Line]]:
    """Years per skill from skill-duration lines, and those lines (never roles or totals)."""
    found: dict[str, float] = {}
    used = []
    for line in lines_of(text):
        if (
            len(line.text) > 120
            or not _UNIT_WORD.search(line.text)
            or not DURATION.search(line.text)
        ):
            continue
        hit = skill_duration(line.text, vocabulary)
        if hit:
            found[hit[0]] = max(found.get(hit[0], 0.0), hit[1])
            used.append(line)
    return found, used


# -- roles -------------------------------------------------------------------------------
def _is_header_line(line: Line) -> bool:
    text = line.text.strip()
    return bool(text) and len(text) <= _MAX_HEADER_LINE and not _BULLET.match(line.text)


def _is_bulleted_header(line: Line) -> bool:
    text = _BULLET.sub("", line.text, count=1).strip()
    return bool(text) and len(text) <= _MAX_HEADER_LINE and bool(_BULLET.match(line.text))


def _header_lines(lines: list[Line], index: int, dated: set[int]) -> list[Line]:
    """The date line and the short, non-bullet lines just above it (or below when none);
    with neither, a short bulleted line just above (CVs that bullet each role)."""
    window: list[Line] = []
    for step in (-1, -2, -3):
        i = index + step
        if i < 0 or i in dated or not _is_header_line(lines[i]):
            break
        window.insert(0, lines[i])
    if not window:
        for step in (1, 2):
            i = index + step
            if i >= len(lines) or i in dated or not _is_header_line(lines[i]):
                break
            window.append(lines[i])
    above = index - 1  # "• Personal Trainer – FitZone Gym" above "Apr 2024 – Jan 2025"
    if not window and above >= 0 and above not in dated and _is_bulleted_header(lines[above]):
        window = [lines[above]]
    return (
        [*window, lines[index]]
        if window and window[0].start < lines[index].start
        else [lines[index], *window]
    )


def _clause(text: str, dates: tuple[int, int], line: Line) -> str:
    """The text of a date's own line around it; a very long line (run-together CV) gives
    only its sentence, since the previous sentence belongs to the previous role."""
    before = text[line.start : dates[0]]
    if len(line.text) > _MAX_HEADER_LINE:
        if before.strip():  # "... cutting. Pipe Welder, Gulf Coast Fabricators  Apr 2016 - ..."
            return _SENTENCE_BREAK.split(before.rstrip())[-1]
        return _SENTENCE_BREAK.split(text[dates[1] : line.end].lstrip(" :–-"))[
            0
        ]  # "2019 - now: Title, Co."
    return before + " " + text[dates[1] : line.end]


def _sentence_after(text: str, dates: tuple[int, int], line: Line) -> str:
    """The sentence right after a date on a run-together line, where a job board's export
    may name the role: "description - Jun 2019 to Jan 2024, Customer Care Executive in ..."."""
    if len(line.text) <= _MAX_HEADER_LINE:
        return ""
    return _SENTENCE_BREAK.split(text[dates[1] : line.end].lstrip(" :,–-"))[0]


def _title_after(after: str, titles: _Titles) -> str | None:
    if any(_title_like(part, titles) for part in _text_parts([after])):
        return _title([after], titles)
    return None


def _title_below(lines: list[Line], index: int, dated: set[int], titles: _Titles) -> str | None:
    """A title a few lines under the dates, past labelled facts: a US federal resume's
    "10/2021 – Present / Grade Level: GS-0462-08 / Supervisor: ... / Engine Captain"."""
    for below in range(index + 1, min(index + 5, len(lines))):
        line = lines[below]
        if below in dated or _BULLET.match(line.text) or not line.text.strip():
            return None
        if _LABELLED_FACT.match(line.text) or len(line.text) > _MAX_HEADER_LINE:
            continue
        if any(_title_like(part, titles) for part in _text_parts([line.text])):
            return line.text.strip()
    return None


def _title_beside_employer(text: str, header: str, titles: _Titles) -> str | None:
    """An export's untitled role ("company - Sentinel Shield, Pune description - ...") takes
    the title the same export writes beside that employer elsewhere ("Security Analyst -
    Sentinel Shield", above its "Skill Details")."""
    named = _EXPORT_EMPLOYER.search(header)
    if not named:
        return None
    employer = re.escape(named.group("employer").strip())
    for match in re.finditer(rf"(?P<title>[^\n]{{2,80}}?)\s+[-–]\s+{employer}", text):
        parts = [p for p in _text_parts([match.group("title")]) if _title_like(p, titles)]
        if parts and not _untitled(parts[-1]):
            words = parts[-1].split()  # the export repeats it: "Java Developer Java Developer"
            half = len(words) // 2
            return " ".join(words[:half]) if words[:half] == words[half:] else parts[-1]
    return None


def _text_parts(texts: list[str]) -> list[str]:
    """The parts of header text that may be a title or employer (not dates or durations)."""
    parts = (p.strip(" *_#-:·|.•▪◦●") for text in texts for p in _SEPARATORS.split(text))
    return [
        p
        for p in parts
        if re.search(r"[^\W\d_]{2}", p)
        and not re.fullmatch(rf"(?:{DURATION.pattern}|\W)+", p, re.IGNORECASE)
    ]


def _title_like(part: str, titles: _Titles) -> bool:
    return bool(titles.field(part) or _role_field_hint(part) or _TITLE_WORD.search(part))


def _title(parts: list[str], titles: _Titles) -> str:
    """The header part that names a job: one with a title word first ("Digital Marketing
    Manager" over the employer "Brightleaf Software" above it), else one naming a field."""
    cleaned = _text_parts(parts)
    for part in cleaned:
        if _TITLE_WORD.search(part):
            return part
    for part in cleaned:
        if _title_like(part, titles):
            return part
    return cleaned[0] if cleaned else ""


def _role_field_hint(text: str) -> str | None:
    for name, pattern in _ROLE_FIELDS:
        if pattern.search(text):
            return name
    return None


def _kind(header: str, titles: _Titles) -> tuple[str, str | None]:
    if (match := _EDUCATION.search(header)) and not titles.field(header):
        return "education", match.group(0)
    if match := _BREAK.search(header):
        return "career_break", match.group(0)
    if match := _TRAINING.search(header):
        return "training", match.group(0)
    if match := _PART_TIME.search(header):
        return "part_time", match.group(0)
    return "job", None


def _field(title: str, header: str, block: str, titles: _Titles) -> tuple[str | None, bool]:
    """The role's field and whether its title decided it (else the skills in its block)."""
    for text in (_unranked(title), title, header):
        found = titles.field(text) or _role_field_hint(text)
        if found:
            return found, True
    mentions = find_mentions(block, titles.vocabulary)
    fields = Counter(titles.vocabulary.field_of_skill(m.skill) for m in mentions)
    fields.pop("general", None)
    return (fields.most_common(1)[0][0] if fields else None), False


def _unranked(title: str) -> str:
    """A title without rank words: 'Principal Firmware Engineer' is a firmware title,
    not a school principal's."""
    kept = [w for w in title.split() if w.casefold().strip(".,") not in _RANK_WORDS]
    return " ".join(kept) if kept else title


@dataclass
class _Draft:
    line_index: int
    dates: DateRange | None
    duration: float | None
    span: tuple[int, int]


def _line_at(lines: list[Line], offset: int) -> int:
    return max(0, bisect_right([line.start for line in lines], offset) - 1)


def _drafts(text: str, lines: list[Line], as_of: date, skip: set[int]) -> list[_Draft]:
    """Dated drafts of a section: its ranges (read once over the section), then lone seasons."""
    if not lines:
        return []
    start, end = lines[0].start, lines[-1].end
    drafts: list[_Draft] = []
    for found in find_date_ranges(text[start:end], as_of):
        shifted = DateRange(
            found.start, found.end, start + found.match_start, start + found.match_end, found.form
        )
        index = _line_at(lines, shifted.match_start)
        line = lines[index]
        if line.start in skip or not _role_like(shifted, line):
            continue
        drafts.append(_Draft(index, shifted, None, (shifted.match_start, shifted.match_end)))
    dated = {d.line_index for d in drafts}
    for index, line in enumerate(lines):
        if index in dated or line.start in skip or not _is_header_line(line):
            continue
        if season := find_season(line.text, as_of):
            span = (line.start + season.match_start, line.start + season.match_end)
            shifted = DateRange(season.start, season.end, *span, season.form)
            drafts.append(_Draft(index, shifted, None, span))
    return sorted(drafts, key=lambda d: d.span)


def _sentence_before(line: Line, position: int) -> str:
    """The line's text from the start of the sentence holding ``position`` up to it."""
    return _SENTENCE_BREAK.split(line.text[: position - line.start])[-1]


def names_a_job(text: str) -> bool:
    """Whether ``text`` holds a job-title word ("Officer", "Engineer")."""
    return bool(_TITLE_WORD.search(text))


def _role_like(found: DateRange, line: Line) -> bool:
    """A 'since 2015' counts as a role's dates only on a header line, at its start or end
    or after a separator ("| Since April 2021"), not inside a sentence."""
    if found.form != "since":
        return True
    if _ROLE_STATEMENT.search(_sentence_before(line, found.match_start)):
        return True  # "Working as Accountant at Shree Traders since 2015."
    if not _is_header_line(line):
        return False
    before = line.text[: found.match_start - line.start].rstrip()
    after = line.text[found.match_end - line.start :].strip(" )*_")
    opened = before.rfind("(")
    # a promotion inside the role's brackets: "(...; Senior Firefighter from 2019)"
    if opened > before.rfind(")") and _TITLE_WORD.search(before[opened:]):
        return False
    return not before or before[-1] in "|—–-,(:" or not after


def _duration_drafts(lines: list[Line], skip: set[int]) -> list[_Draft]:
    drafts = []
    for index, line in enumerate(lines):
        if line.start in skip or not _DURATION_ROLE.search(line.text):
            continue
        if _AGE_RANGE.search(line.text):
            continue
        if stated_totals(line.text):
            continue
        duration = parse_duration_years(line.text)
        if duration is not None:
            drafts.append(_Draft(index, None, duration, (line.start, line.end)))
    return drafts


def _drop_nested(drafts: list[_Draft]) -> list[_Draft]:
    """A range inside an earlier-written role's range (a project, a promotion) is that role's."""
    kept: list[_Draft] = []
    for draft in drafts:
        dates = draft.dates
        inside = dates is not None and any(
            k.dates is not None
            and k.dates.form != "season"
            and k.line_index < draft.line_index
            and k.dates.start <= dates.start
            and dates.end <= k.dates.end
            for k in kept
        )
        if not inside:
            kept.append(draft)
    return kept


def section_roles(
    text: str, start: int, end: int, vocabulary: Vocabulary, as_of: date, skip: set[int]
) -> list[RoleFinding]:
    """Roles of one experience section: dated lines (or, with no dates, duration lines)."""
    titles = _Titles(vocabulary)
    lines = lines_of(text, start, end)
    drafts = _drop_nested(_drafts(text, lines, as_of, skip))
    if not drafts:
        drafts = _duration_drafts(lines, skip)
    dated = {d.line_index for d in drafts}
    roles = []
    for number, draft in enumerate(drafts):
        line = lines[draft.line_index]
        header_lines = _header_lines(lines, draft.line_index, dated - {draft.line_index})
        own = _clause(text, draft.span, line) if draft.dates else line.text
        if any(_title_like(part, titles) for part in _text_parts([own])):
            header, title = own, _title([own], titles)  # the title is on the date line
        else:
            others = [h.text for h in header_lines if h is not line]
            header, title = " ".join([*others, own]), _title([*others, own], titles)
        named, after = header, ""
        untitled = not _title_like(title, titles)
        if untitled:
            after = _sentence_after(text, draft.span, line) if draft.dates else ""
            found = (
                _title_after(after, titles)
                or _title_beside_employer(text, header, titles)
                or _title_below(lines, draft.line_index, dated, titles)
            )
            if found:
                title, named = found, f"{header} {found} {after[:80]}"
        following = drafts[number + 1].line_index if number + 1 < len(drafts) else len(lines)
        block_end = lines[following - 1].end if following > 0 else line.end
        block = text[line.start : block_end]
        kind, cue = _kind(header, titles)
        if kind == "job" and after and (read := _kind(after, titles))[0] == "education":
            kind, cue = read  # "EDUCATION 2011 - 2015 Bachelor of Science ..."
        field_name, titled = _field(title, named, block, titles)
        if draft.dates and draft.dates.form == "season" and kind == "job":
            kind, cue = "training", "season"
        roles.append(
            RoleFinding(
                title=title[:120],
                kind=kind,
                field=field_name,
                dates=draft.dates,
                duration=draft.duration,
                span=draft.span,
                cue=cue,
                titled=titled,
                block=(min(h.start for h in header_lines), block_end),
            )
        )
    return _trimmed_blocks(roles)


def _trimmed_blocks(roles: list[RoleFinding]) -> list[RoleFinding]:
    """A role's block ends where the next role's header lines start (its title line
    sits above its dates, at the end of the previous block)."""
    for role, following in pairwise(roles):
        start, end = role.block
        role.block = (start, max(start, min(end, following.block[0])))
    return roles


# -- years and level ---------------------------------------------------------------------
def _latest(roles: list[RoleFinding]) -> RoleFinding:
    dated = [r for r in roles if r.dates is not None]
    if not dated:
        return roles[0]
    return max(
        dated, key=lambda r: (r.dates.end, r.dates.start) if r.dates else (date.min, date.min)
    )


def _other_field(role: RoleFinding, latest: RoleFinding) -> bool:
    """An earlier career: both titles name a field, the fields differ, the work differs."""
    return (
        role.titled
        and latest.titled
        and role.field != latest.field
        and not any({role.field, latest.field} <= set(group) for group in _WORDS.related_fields)
        and not _same_work(role.title, latest.title)
    )


def _untitled(title: str) -> bool:
    """A role read without a title: nothing, or only the label an export put there."""
    return not title.strip() or title.strip().casefold() in _EXPORT_LABELS


def _same_work(title: str, other: str) -> bool:
    """'SAP FICO Consultant' and 'Senior SAP FICO Consultant' are one line of work."""
    words = [set(re.findall(r"[a-z0-9+#]+", t.casefold())) - _RANK_WORDS for t in (title, other)]
    small, large = sorted(words, key=len)
    return bool(small) and small <= large


def _timeline_start(
    text: str, skip_lines: list[Line], education: Sequence[tuple[int, int]], as_of: date
) -> int | None:
    """Where the CV's own history starts: the earliest year of a date range or of an
    education line, outside date-of-birth lines and skill lines. A year named in passing
    ("trained on the new buses in 2024", "card valid to 2028") starts nothing."""
    skipped = {line.start for line in skip_lines}
    lines = [
        line for line in lines_of(text) if line.start not in skipped and not _DOB.search(line.text)
    ]
    years = [found.start.year for line in lines for found in find_date_ranges(line.text, as_of)]
    years += [
        int(m.group(0))
        for line in lines
        if any(start <= line.start < end for start, end in education)
        for m in _YEAR_TOKEN.finditer(line.text)
    ]
    return min(years) if years else None


def _describe(role: RoleFinding, text: str) -> str:
    written = re.sub(r"\s+", " ", text[role.span[0] : role.span[1]])
    return f"{role.title or 'untitled role'} ({written})"


Span = tuple[int, int, str]


def _not_counted_spans(roles: list[RoleFinding]) -> list[Span]:
    return [(*r.span, f"not_counted:{r.kind}") for r in roles]


def _from_roles(
    text: str, roles: list[RoleFinding], jobs: list[RoleFinding], notes: list[str]
) -> Experience:
    """Years are the union of the counted jobs in the latest job's line of work."""
    latest = _latest(jobs)
    counted = [r for r in jobs if not _other_field(r, latest)]
    other = [r for r in jobs if r not in counted]
    notes = notes + [f"{_describe(r, text)} is another field ({r.field})" for r in other]
    dated = [(r.dates.start, r.dates.end) for r in counted if r.dates]
    years = round(union_years(dated) + sum(r.years for r in counted if r.dates is None), 2)
    level = level_for_years(years)
    reason = (
        f"{level.value}: {years:g} y from dated roles"
        + (f" in {latest.field}" if latest.field else "")
        + ", overlaps merged: "
        + "; ".join(_describe(r, text) for r in counted)
    )
    if notes:
        reason += ". Not counted: " + "; ".join(notes)
    spans: list[Span] = [(*r.span, "role") for r in counted]
    spans += _not_counted_spans([r for r in roles if r not in counted])
    return Experience(roles, years, latest.field, level, "roles", reason, sorted(spans))


def _from_stated(
    text: str,
    roles: list[RoleFinding],
    total: StatedTotal,
    notes: list[str],
    first_year: int | None,
    as_of: date,
) -> Experience:
    """The CV's own total, capped by its timeline (no more years than since its first date)."""
    years, note = total.years, ""
    if first_year is not None and years > as_of.year - first_year + 1:
        years = float(as_of.year - first_year)
        note = f", capped at {years:g} y since {first_year}"
    written = re.sub(r"\s+", " ", text[total.start : total.end])
    level = level_for_years(years)
    reason = (
        f"{level.value}: no dated full-time roles; the CV states '{written}' = {years:g} y{note}"
    )
    if notes:
        reason += ". Not counted: " + "; ".join(notes)
    spans: list[Span] = [(total.start, total.end, "stated_total"), *_not_counted_spans(roles)]
    return Experience(roles, round(years, 2), None, level, "stated_total", reason, spans)


def decide(
    text: str,
    roles: list[RoleFinding],
    stated: list[StatedTotal],
    skill_lines: list[Line],
    as_of: date,
    education: Sequence[tuple[int, int]],
) -> Experience:
    """Years, level, source, reason and spans from the roles and stated totals found."""
    jobs = [r for r in roles if r.kind == "job"]
    others = [r for r in roles if r.kind != "job"]
    notes = [f"{_describe(r, text)} is {r.kind.replace('_', '-')}" for r in others]
    if jobs:
        result = _from_roles(text, roles, jobs, notes)
    elif stated:
        first_year = _timeline_start(text, skill_lines, education, as_of)
        result = _from_stated(text, roles, stated[0], notes, first_year, as_of)
    elif any(r.kind not in ("earlier_career", "career_break") for r in others):
        reason = "junior: 0 y of full-time work; only " + "; ".join(notes)
        result = Experience(
            roles,
            0.0,
            None,
            ExperienceLevel.JUNIOR,
            "training_only",
            reason,
            _not_counted_spans(others),
        )
    else:
        reason = "unknown: no dated roles, durations or stated years of experience"
        if notes:  # only an earlier career is dated: the current one has no years
            reason = "unknown: no dated roles in the current career; " + "; ".join(notes)
        result = Experience(roles, None, None, None, None, reason, _not_counted_spans(others))
    result.stated = stated
    return result


def _experience_spans(sections: list[tuple[str, int, int]]) -> list[tuple[int, int, str]]:
    """Experience sections (start, end, kind); a "Project: ..." line inside one opens a
    projects section, and the experience that follows it is the same role's, so the run
    is one span."""
    spans: list[tuple[int, int, str]] = []
    pending: tuple[int, int] | None = None  # projects right after an experience section
    for kind, start, end in sections:
        if kind in _ROLE_SECTIONS:
            if spans and pending is not None and spans[-1][2] == kind:
                spans[-1] = (spans[-1][0], end, kind)
            else:
                spans.append((start, end, kind))
            pending = None
        elif kind == "projects" and spans and spans[-1][1] <= start and pending is None:
            pending = (start, end) if _adjacent(spans[-1][:2], start) else None
        else:
            pending = None
    return spans


def _adjacent(span: tuple[int, int], start: int) -> bool:
    return span[1] >= start - 1


_ROLE_SECTIONS = ("experience", "earlier_career", "internships")
# A heading naming training alone ("INDUSTRIAL TRAINING (SIWES)", "Internships"), not one
# that also names jobs ("Work Experience and Internships").
_JOBS_TOO = re.compile(r"\b(?:work|employment|professional|career|jobs?|and)\b|&", re.I)


def role_section_kind(kind: str, heading: str) -> str:
    """``internships`` for an experience section whose heading names training only: its
    dated roles are recorded as training, not counted (the heading says so, not each role)."""
    if kind == "experience" and _TRAINING.search(heading) and not _JOBS_TOO.search(heading):
        return "internships"
    return kind


def _set_apart(role: RoleFinding, section_kind: str) -> RoleFinding:
    """A job under a heading that sets it apart (an earlier career, internships) is not
    counted."""
    if role.kind != "job":
        return role
    if section_kind == "earlier_career":
        role.kind, role.cue = "earlier_career", "earlier career"
    elif section_kind == "internships":
        role.kind, role.cue = "training", "internships heading"
    return role


# Sections that hold no roles even when a CV has no experience heading.
_NO_ROLES = frozenset(
    {"education", "certifications", "projects", "skills", "other", "interests", "references"}
)


def analyse_experience(
    text: str,
    sections: list[tuple[str, int, int]],
    vocabulary: Vocabulary,
    as_of: date,
) -> Experience:
    """Experience of a CV from its sections (kind, start, end): roles, totals, level."""
    per_skill, skill_lines = skill_years(text, vocabulary)
    skip = {line.start for line in skill_lines}
    experience = _experience_spans(sections)
    if not experience:  # no experience heading: any dated line outside these sections
        experience = [(s, e, "experience") for kind, s, e in sections if kind not in _NO_ROLES]
    roles = [
        _set_apart(role, kind)
        for start, end, kind in experience
        for role in section_roles(text, start, end, vocabulary, as_of, skip)
    ]
    blanked = list(text)
    for line in skill_lines:
        blanked[line.start : line.end] = " " * (line.end - line.start)
    claim_text = "".join(blanked)
    skill_spans = [(s, e) for kind, s, e in sections if kind == "skills"]
    stated = [
        t for t in stated_totals(claim_text) if not any(s <= t.start < e for s, e in skill_spans)
    ]
    education = [(s, e) for kind, s, e in sections if kind == "education"]
    result = decide(text, roles, stated, skill_lines, as_of, education)
    result.skill_years = per_skill
    result.spans += [(line.start, line.end, "skill_years") for line in skill_lines]
    return result
