"""Structure of a CV: name, sections, dated roles, years in the current field, level.

Years decide the level (junior < 3, mid 3-6, senior > 6). A career changer's
earlier roles in another field do not count: the current field is the field of
the most recent role, and only roles in that field add up. A title such as
"Senior" decides only when no dates or durations are given.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date

from talentrag.domain import ExperienceLevel, Role
from talentrag.ingestion.dates import (
    DateRange,
    experience_claims,
    find_date_ranges,
    parse_duration_years,
    union_years,
)
from talentrag.ingestion.skills import find_mentions
from talentrag.policy.levels import level_for_years
from talentrag.vocabulary.vocabulary import Vocabulary

# Words that make a short heading-like line a section heading ("Education & Qualifications",
# "Licences & Certifications", "PROFESSIONAL EXPERIENCE"). Plural forms on purpose: a
# role line such as "Project Manager" is not the "Projects" section.
SECTION_KEYWORDS = {
    "experience": ["experience", "employment", "work history", "career history", "career"],
    "education": ["education", "qualifications", "academic"],
    "certifications": ["certifications", "certificates", "licences", "licenses"],
    "skills": ["skills", "competencies", "tech stack", "toolkit", "expertise"],
    "projects": ["projects"],
    "summary": ["summary", "profile", "about me", "about", "objective", "overview"],
    "other": [
        "languages",
        "interests",
        "hobbies",
        "references",
        "publications",
        "volunteering",
        "awards",
        "personal details",
        "contact",
    ],
}
_KEYWORD_ORDER = [(kind, word) for kind, words in SECTION_KEYWORDS.items() for word in words]
# A role given by duration only: "(3 years)", "3 years in total: ...", "... | 3 years", "2 yrs".
_DURATION_ROLE = re.compile(
    r"\(\s*\d|\bin total\b|^\W*\d{1,2}\s*(?:years?|yrs?|months?)\b|\d\s*(?:years?|yrs?|months?)\W*$",
    re.IGNORECASE,
)
_INLINE_LABEL = re.compile(r"^\s*[*_]*([A-Za-z &/]{3,40}?)[*_]*\s*:\s*\S")
_MARKDOWN_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_NAME_LINE = re.compile(r"^[A-ZÀ-Þ][\w'’.-]*(?:\s+[A-ZÀ-Þ][\w'’.-]*){1,3}$")
_NAME_FIELD = re.compile(r"^\s*(?:full\s+)?name\s*[:\-]\s*(.+)$", re.IGNORECASE)
_SENIOR_TITLE = re.compile(
    r"\b(senior|sr\.?|lead|principal|staff|head|chief|director)\b", re.IGNORECASE
)
_JUNIOR_TITLE = re.compile(
    r"\b(junior|jr\.?|intern|trainee|graduate|apprentice|entry[- ]level)\b", re.IGNORECASE
)
_TITLE_SPLIT = re.compile(r"\s*(?:\||,|—|–| - | at | @ |\(|\))\s*")


@dataclass
class Section:
    """A span of the CV under one heading; ``kind`` is a key of ``SECTION_KEYWORDS`` or 'header'."""

    kind: str
    heading: str
    start: int
    end: int


@dataclass
class ParsedCV:
    """What the structure of a CV says: name, roles, years and level."""

    name: str | None
    sections: list[Section]
    roles: list[Role]
    years: float | None
    current_field: str | None
    level: ExperienceLevel | None
    level_source: str | None
    name_span: tuple[int, int] | None = None


def _lines(text: str) -> list[tuple[int, int, str]]:
    out, offset = [], 0
    for line in text.splitlines(keepends=True):
        out.append((offset, offset + len(line.rstrip("\r\n")), line.rstrip("\r\n")))
        offset += len(line)
    return out


def _section_kind(label: str) -> str | None:
    words = f" {' '.join(re.findall(r'[a-z]+', label.lower()))} "
    for kind, keyword in _KEYWORD_ORDER:
        if f" {keyword} " in words:
            return kind
    return None


def _heading_kind(line: str) -> tuple[str, str] | None:
    """A heading line: short, no digits, naming a section (markdown, bold, caps or plain)."""
    markdown = _MARKDOWN_HEADING.match(line)
    candidate = (markdown.group(1) if markdown else line).strip().strip("*_:= ").strip()
    if not candidate or len(candidate.split()) > 5 or re.search(r"[\d|@,.;—–]| - | at ", candidate):
        return None  # role lines ("### Engineer, Acme | 2019") stay inside their section
    kind = _section_kind(candidate)
    return (kind, candidate) if kind else None


def _inline_label(line: str) -> str | None:
    """'Education: BSc ..., 2019' is a one-line section of its own."""
    match = _INLINE_LABEL.match(line)
    return _section_kind(match.group(1)) if match else None


def split_sections(text: str) -> list[Section]:
    """Sections by their headings; text before the first heading is the 'header'.

    An inline label line ("Skills: Python, Go") is a section of one line, after which
    the surrounding section resumes.
    """
    sections: list[Section] = []
    current = Section("header", "", 0, len(text))
    for start, end, line in _lines(text):
        found = _heading_kind(line)
        inline = None if found else _inline_label(line)
        if found is None and inline is None:
            continue
        current.end = start
        sections.append(current)
        if found:
            current = Section(found[0], found[1], start, len(text))
        elif inline is not None:
            sections.append(Section(inline, line.split(":", 1)[0].strip(" *_"), start, end))
            current = Section(current.kind, current.heading, end, len(text))
    sections.append(current)
    return [s for s in sections if s.end > s.start]


def find_name(text: str) -> tuple[str, tuple[int, int]] | None:
    """The name: a 'Name:' field or the first non-empty line when it looks like one."""
    lines = [entry for entry in _lines(text) if entry[2].strip()][:8]
    for start, _end, line in lines:
        field_match = _NAME_FIELD.match(line)
        if field_match:
            value = field_match.group(1).strip()
            offset = start + field_match.start(1)
            return value, (offset, offset + len(value))
    if lines:
        start, _end, line = lines[0]
        markdown = _MARKDOWN_HEADING.match(line)
        value = (markdown.group(1) if markdown else line).strip().strip("*_")
        if _NAME_LINE.match(value) and _heading_kind(value) is None:
            offset = text.index(value, start)
            return value, (offset, offset + len(value))
    return None


def _title_part(text: str) -> str:
    parts = [p.strip(" *_#-:·") for p in _TITLE_SPLIT.split(text) if p.strip(" *_#-:·")]
    return parts[0] if parts else ""


def _looks_like_title(text: str, vocabulary: Vocabulary) -> bool:
    return bool(text) and (
        vocabulary.title_field(text) is not None
        or bool(_SENIOR_TITLE.search(text) or _JUNIOR_TITLE.search(text))
    )


def _role_title(
    text: str, section_start: int, draft: _RoleDraft, vocabulary: Vocabulary
) -> tuple[str, int]:
    """The role's title and where its block starts.

    The title sits on the date line ("Engineer, Acme | 2019 - 2021") or, when the
    dates have a line of their own ("*2020 - now · Madrid*"), on the line above.
    """
    line = draft.line
    if draft.date_range is not None:
        line = line[: draft.date_range.match_start] + " " + line[draft.date_range.match_end :]
    on_line = _title_part(line)
    above_text = text[section_start : draft.line_start].rstrip()
    above_line = above_text.splitlines()[-1] if above_text else ""
    above = _title_part(above_line)
    use_line = (
        bool(on_line)
        and on_line[0].isalpha()
        and (_looks_like_title(on_line, vocabulary) or not _looks_like_title(above, vocabulary))
    )
    if use_line or not above or _heading_kind(above_line):
        return on_line, draft.line_start
    return above, section_start + len(above_text) - len(above_line)


def _role_field(title: str, block: str, vocabulary: Vocabulary) -> str | None:
    by_title = vocabulary.title_field(title)
    if by_title:
        return by_title
    fields = Counter(vocabulary.field_of_skill(m.skill) for m in find_mentions(block, vocabulary))
    fields.pop("general", None)
    return fields.most_common(1)[0][0] if fields else None


@dataclass
class _RoleDraft:
    line_start: int
    line_end: int
    line: str
    date_range: DateRange | None
    duration: float | None


def _role_drafts(text: str, start: int, end: int, as_of: date) -> list[_RoleDraft]:
    drafts = []
    for line_start, line_end, line in _lines(text[start:end]):
        abs_start = start + line_start
        ranges = find_date_ranges(line, as_of)
        if ranges:
            drafts.append(_RoleDraft(abs_start, start + line_end, line, ranges[0], None))
            continue
        duration = parse_duration_years(line) if _DURATION_ROLE.search(line) else None
        if duration is not None and not experience_claims(line):
            drafts.append(_RoleDraft(abs_start, start + line_end, line, None, duration))
    return drafts


def extract_roles(
    text: str, sections: list[Section], vocabulary: Vocabulary, as_of: date
) -> list[Role]:
    """Roles from dated or duration lines of the experience sections, with titles and fields."""
    experience = [s for s in sections if s.kind == "experience"]
    if not experience:  # no headings: any dated line outside education counts
        experience = [
            s for s in sections if s.kind not in {"education", "certifications", "projects"}
        ]
    roles: list[Role] = []
    for section in experience:
        drafts = _role_drafts(text, section.start, section.end, as_of)
        titled = [_role_title(text, section.start, draft, vocabulary) for draft in drafts]
        for index, (draft, (title, block_start)) in enumerate(zip(drafts, titled, strict=True)):
            block_end = titled[index + 1][1] if index + 1 < len(drafts) else section.end
            block = text[block_start:block_end]
            dates = draft.date_range
            years = dates.years if dates else (draft.duration or 0.0)
            roles.append(
                Role(
                    title=title[:120],
                    start=dates.start if dates else None,
                    end=dates.end if dates else None,
                    years=round(years, 2),
                    field=_role_field(title, block, vocabulary),
                )
            )
    return roles


def current_field_years(roles: list[Role]) -> tuple[str | None, float | None]:
    """The latest role's field and the years spent in it, overlaps counted once."""
    if not roles:
        return None, None
    dated = [r for r in roles if r.end is not None]
    latest = max(dated, key=lambda r: (r.end, r.start)) if dated else roles[0]
    current = latest.field
    same_field = [r for r in roles if r.field in (current, None) or current is None]
    spans = [(r.start, r.end) for r in same_field if r.start and r.end]
    years = union_years(spans) + sum(r.years for r in same_field if r.start is None)
    return current, round(years, 2)


def parse_cv(text: str, vocabulary: Vocabulary, as_of: date) -> ParsedCV:
    """Name, sections, roles, years and level of a CV; titles decide only without years."""
    sections = split_sections(text)
    found_name = find_name(text)
    roles = extract_roles(text, sections, vocabulary, as_of)
    field_name, years = current_field_years(roles)
    if years is None or years == 0:
        claims = experience_claims(text)
        if claims:
            years = max(claims)
    level, source = None, None
    if years:
        level, source = level_for_years(years), "years"
    else:
        level, source = _level_from_titles([r.title for r in roles] + [text[:200]]), "title"
    return ParsedCV(
        name=found_name[0] if found_name else None,
        sections=sections,
        roles=roles,
        years=years,
        current_field=field_name,
        level=level,
        level_source=source,
        name_span=found_name[1] if found_name else None,
    )


def _level_from_titles(titles: list[str]) -> ExperienceLevel:
    for title in titles:
        if _SENIOR_TITLE.search(title):
            return ExperienceLevel.SENIOR
        if _JUNIOR_TITLE.search(title):
            return ExperienceLevel.JUNIOR
    return ExperienceLevel.MID
