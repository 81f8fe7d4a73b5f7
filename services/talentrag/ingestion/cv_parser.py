"""Structure of a CV: name, sections, dated roles, years in the current field, level.

Years decide the level (junior < 3, mid 3-6, senior > 6). A career changer's
earlier roles in another field do not count: the current field is the field of
the most recent role, and only roles in that field add up. A title such as
"Senior" decides only when no dates or durations are given.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
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
from talentrag.vocabulary.vocabulary import Vocabulary

SECTION_KINDS = {
    "summary": ["summary", "profile", "about", "about me", "objective", "professional summary", "career objective", "overview"],
    "experience": ["experience", "work experience", "professional experience", "employment", "employment history", "work history", "career history", "career", "relevant experience", "experience history"],
    "education": ["education", "qualifications", "academic background", "education and training", "academic qualifications", "training"],
    "skills": ["skills", "technical skills", "core skills", "key skills", "competencies", "core competencies", "technologies", "tech stack", "skills and tools", "tools", "expertise"],
    "certifications": ["certifications", "certificates", "licenses", "licences", "certifications and licenses", "licenses and certifications"],
    "projects": ["projects", "personal projects", "selected projects", "side projects"],
    "other": ["languages", "interests", "hobbies", "references", "publications", "volunteering", "volunteer experience", "awards", "contact", "personal details"],
}  # fmt: skip
_HEADING_NAMES = {name: kind for kind, names in SECTION_KINDS.items() for name in names}
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
    kind: str
    heading: str
    start: int
    end: int


@dataclass
class ParsedCV:
    name: str | None
    sections: list[Section]
    roles: list[Role]
    years: float | None
    field: str | None
    level: ExperienceLevel | None
    level_source: str | None
    name_span: tuple[int, int] | None = None
    contact_spans: list[tuple[int, int]] = field(default_factory=list)


def level_for_years(years: float) -> ExperienceLevel:
    if years < 3:
        return ExperienceLevel.JUNIOR
    if years <= 6:
        return ExperienceLevel.MID
    return ExperienceLevel.SENIOR


def _lines(text: str) -> list[tuple[int, int, str]]:
    out, offset = [], 0
    for line in text.splitlines(keepends=True):
        out.append((offset, offset + len(line.rstrip("\r\n")), line.rstrip("\r\n")))
        offset += len(line)
    return out


def _heading_kind(line: str) -> tuple[str, str] | None:
    markdown = _MARKDOWN_HEADING.match(line)
    candidate = (markdown.group(1) if markdown else line).strip().strip("*_:= ").strip()
    key = re.sub(r"\s+", " ", candidate.lower().replace("&", "and"))
    if key in _HEADING_NAMES:
        return _HEADING_NAMES[key], candidate
    return None  # unknown headings (e.g. "### Engineer, Acme") stay inside their section


def split_sections(text: str) -> list[Section]:
    """Sections by their headings; text before the first heading is the 'header'."""
    sections: list[Section] = []
    current = Section("header", "", 0, len(text))
    for start, _end, line in _lines(text):
        found = _heading_kind(line)
        if found is None:
            continue
        current.end = start
        sections.append(current)
        current = Section(found[0], found[1], start, len(text))
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


def _role_title(block: str, date_range: DateRange | None, line_text: str) -> str:
    text = line_text
    if date_range is not None:
        text = line_text.replace(line_text[date_range.match_start : date_range.match_end], " ")
    parts = [p.strip(" *_#-:") for p in _TITLE_SPLIT.split(text) if p and p.strip(" *_#-:")]
    return parts[0] if parts else block.strip().splitlines()[0][:80] if block.strip() else ""


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
        duration = parse_duration_years(line) if re.search(r"\(\s*\d", line) else None
        if duration is not None and not experience_claims(line):
            drafts.append(_RoleDraft(abs_start, start + line_end, line, None, duration))
    return drafts


def extract_roles(
    text: str, sections: list[Section], vocabulary: Vocabulary, as_of: date
) -> list[Role]:
    experience = [s for s in sections if s.kind == "experience"]
    if not experience:  # no headings: any dated line outside education counts
        experience = [
            s for s in sections if s.kind not in {"education", "certifications", "projects"}
        ]
    roles: list[Role] = []
    for section in experience:
        drafts = _role_drafts(text, section.start, section.end, as_of)
        for index, draft in enumerate(drafts):
            block_end = drafts[index + 1].line_start if index + 1 < len(drafts) else section.end
            block = text[draft.line_start : block_end]
            local = None
            if draft.date_range is not None:
                local = draft.date_range
            title = _role_title(block, local, draft.line)
            if len(title) < 3:  # dates on their own line: the title is the line above
                above = text[section.start : draft.line_start].rstrip().splitlines()
                title = above[-1].strip(" *_#-") if above else title
            years = local.years if local else (draft.duration or 0.0)
            roles.append(
                Role(
                    title=title[:120],
                    start=local.start if local else None,
                    end=local.end if local else None,
                    years=round(years, 2),
                    field=_role_field(title, block, vocabulary),
                )
            )
    return roles


def current_field_years(roles: list[Role]) -> tuple[str | None, float | None]:
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
        field=field_name,
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
