"""Structure of a CV: name, sections, and the experience they support.

Section headings are words from ``data/experience.yaml`` (exact phrases for plain
lines, a phrase plus up to two words for lines marked as headings, and ALL-CAPS
headings run together with the text around them). Years and level are decided in
``talentrag.ingestion.experience``: years decide the level (junior < 3, mid 3-6,
senior > 6); without any supporting date, duration or stated total the level is
unknown (None), never guessed from a title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from talentrag.domain import ExperienceLevel, ExperienceSpan, Role
from talentrag.ingestion.experience import (
    Experience,
    RoleFinding,
    analyse_experience,
    names_a_job,
    role_section_kind,
)
from talentrag.ingestion.experience_words import experience_words
from talentrag.vocabulary.tokens import folded
from talentrag.vocabulary.vocabulary import Vocabulary

_HEADINGS = {
    " ".join(re.findall(r"[\w'’]+", phrase.casefold().replace("&", " and "))): kind
    for kind, phrases in experience_words().sections.items()
    for phrase in phrases
}
# An ALL-CAPS heading run into the text around it: "JMeterPROFESSIONAL EXPERIENCETest ...",
# "...@example.com SUMMARY Structural welder ...".
_EMBEDDED_HEADING = re.compile(
    r"(?:(?<=[a-z0-9.)%:•\]])|(?<=[a-z0-9.)%:•\]][ \t])|(?<=\S[ \t]{2}))("
    + "|".join(
        re.escape(phrase.upper()).replace(r"\ ", r"[ \t]+")
        for phrase in sorted(_HEADINGS, key=len, reverse=True)
        if len(phrase) >= 6
    )
    + r")(?=[A-Z][a-z.]|[ \t]+[A-Z(•]|•|â€¢|$)",
    re.MULTILINE,
)
_CAPS_RUN = re.compile(r"[A-Z]{4}")
# A heading of two words or more set off by two spaces on each side in a run-together line,
# in any case: scraped job-board resumes ("Lucknow, U.P.  Education Details  2019 to 2022").
_SPACED_HEADING = re.compile(
    r"(?<=\S[ \t]{2})("
    + "|".join(
        re.escape(phrase).replace(r"\ ", r"[ \t]+")
        for phrase in sorted(_HEADINGS, key=len, reverse=True)
        if " " in phrase
    )
    + r")(?=[ \t]{2,}\S)",
    re.IGNORECASE,
)
# The headings of job-board resume exports, written as the export writes them, start a
# section anywhere in a line that lost its line breaks ("... (basic knowledge) Education
# Details June 2010 to May 2014 B.E ...").
_EXPORT_HEADING = re.compile(
    r"(?:(?<=\S )|^)(Education Details|Skill Details|Company Details)(?= +\S)"
)
# "Skills: Python", and a label whose list runs on in bullets: "Skills * Solidity * Truffle",
# "Technical Skills • Big Data: Hadoop" (a one-line CV of the kind scraped from job boards)
_INLINE_LABEL = re.compile(r"^\s*[*_]*([A-Za-z &/]{3,40}?)[*_]*(?:\s*:|[ \t]+[*•·▪●■➢][ \t])\s*\S")
_FIELD_SEPARATOR = re.compile(r"[ \t]+[|·•][ \t]+")
_MARKDOWN_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_NAME_LINE = re.compile(r"^[A-ZÀ-Þ][\w'’.-]*(?:\s+[A-ZÀ-Þ][\w'’.-]*){1,3}$")
# "Name: ...", "Full name - ...", Europass's "Surname / First name: Bianchi Marco"
_NAME_FIELD = re.compile(
    r"^\s*(?:(?:sur|last\s+|family\s+)name\s*/\s*)?(?:full\s+|first\s+|given\s+)?name\s*[:\-]\s*(.+)$",
    re.IGNORECASE,
)


@dataclass
class Section:
    """A span of the CV under one heading; ``kind`` is a section kind of
    ``data/experience.yaml`` or 'header'. ``body`` is where the text after the heading starts."""

    kind: str
    heading: str
    start: int
    end: int
    body: int = -1

    def __post_init__(self) -> None:
        if self.body < 0:
            self.body = self.start


@dataclass
class ParsedCV:
    """What the structure of a CV says: name, roles, years, level and why."""

    name: str | None
    sections: list[Section]
    roles: list[Role]
    years: float | None
    current_field: str | None
    level: ExperienceLevel | None
    level_source: str | None
    name_span: tuple[int, int] | None = None
    level_reason: str | None = None
    experience_spans: list[ExperienceSpan] = field(default_factory=list)
    skill_years: dict[str, float] = field(default_factory=dict)


def _lines(text: str) -> list[tuple[int, int, str]]:
    out, offset = [], 0
    for line in text.splitlines(keepends=True):
        out.append((offset, offset + len(line.rstrip("\r\n")), line.rstrip("\r\n")))
        offset += len(line)
    return out


def _section_kind(label: str, *, loose: bool = False) -> str | None:
    """The section a heading names; the longest heading phrase wins.

    A plain line must be exactly a heading phrase ("Employment History"); a line that
    is marked as a heading (capitals, '#', a trailing colon) may add two words
    ("PROFESSIONAL WORK EXPERIENCE (SELECTED)").
    """
    words = " ".join(re.findall(r"[\w'’]+", label.casefold().replace("&", " and ")))
    if not words:
        return None
    if words in _HEADINGS:
        return _HEADINGS[words]
    if not loose:
        return None
    padded, count = f" {words} ", len(words.split())
    hits = [
        (len(phrase), kind)
        for phrase, kind in _HEADINGS.items()
        if f" {phrase} " in padded and count - len(phrase.split()) <= 2
    ]
    return max(hits)[1] if hits else None


def _heading_kind(line: str) -> tuple[str, str] | None:
    """A heading line: short, no digits, naming a section (markdown, bold, caps or plain)."""
    markdown = _MARKDOWN_HEADING.match(line)
    candidate = (markdown.group(1) if markdown else line).strip().strip("*_:= ").strip()
    if not candidate or len(candidate.split()) > 5 or re.search(r"[\d|@,.;—–]| - | at ", candidate):
        return None  # role lines ("### Engineer, Acme | 2019") stay inside their section
    marked = bool(markdown) or candidate.isupper() or line.rstrip().endswith(":")
    if not marked and candidate[0].islower():
        return None  # a wrapped line ("  training and go-live support"), not a heading
    kind = _section_kind(candidate, loose=marked) or _joined_heading_kind(candidate)
    if not kind and (glossed := _GLOSSED.fullmatch(candidate)):
        kind = _section_kind(glossed["name"], loose=glossed["name"].isupper() or marked)
        kind = kind or _section_kind(glossed["gloss"])
    return (kind, candidate) if kind else None


# A heading with its translation in brackets: "EXPERIENCIA LABORAL (Work experience)",
# "EDUCACIÓN (Education)".
_GLOSSED = re.compile(r"(?P<name>[^()]+?)\s*\((?P<gloss>[^()]+)\)")


def _joined_heading_kind(candidate: str) -> str | None:
    """A plain heading that joins a section's name to another ("Key Skills and Systems",
    "Education & Certifications", as a DOCX heading reads without its style): the kind
    of the first name. Only with "and"/"&", so "Education Officer" stays a title."""
    parts = re.split(r"\s+(?:and|&)\s+", candidate, maxsplit=1)
    if len(parts) != 2 or not parts[1] or names_a_job(parts[1]):
        return None  # "Education and Outreach Officer" is a job title
    return _section_kind(parts[0])


def _inline_label(line: str) -> tuple[str, str] | None:
    """'Education: BSc ..., 2019' is a one-line section of its own: (kind, label)."""
    match = _INLINE_LABEL.match(line)
    kind = _section_kind(match.group(1)) if match else None
    return (kind, match.group(1)) if kind and match else None


def _label_end(line: str, label: str) -> int:
    """Where an inline label ends: a heading before it is the label's own words."""
    return line.find(label) + len(label)


def _labelled_fields(start: int, line: str) -> list[tuple[int, int, str, str]]:
    """'Date of Birth: 09-11-2000 | Languages Known: Tamil, English | Nationality: Indian':
    each field whose label names a section is a one-field section of its own."""
    breaks = []
    edges = [0, *(e for m in _FIELD_SEPARATOR.finditer(line) for e in m.span()), len(line)]
    for field_start, field_end in zip(edges[::2], edges[1::2], strict=True):
        field = line[field_start:field_end]
        inline = _inline_label(field)
        if inline is not None:
            kind, label = inline
            breaks.append((start + field_start, start + field_end, f"inline:{kind}", label))
    return breaks


def _breaks(start: int, line: str) -> list[tuple[int, int, str, str]]:
    """Where sections start on one line: (offset, heading end, kind, heading)."""
    found = _heading_kind(line)
    if found:
        return [(start, start + len(line), found[0], found[1])]
    breaks = []
    inline = _inline_label(line)
    if inline is not None:
        kind, label = inline
        breaks.append((start, start + len(line), f"inline:{kind}", label))
    elif _INLINE_LABEL.match(line) and _FIELD_SEPARATOR.search(line):
        breaks.extend(_labelled_fields(start, line))
    embedded_matches = list(_EMBEDDED_HEADING.finditer(line)) if _CAPS_RUN.search(line) else []
    taken = {m.start() for m in embedded_matches}
    spaced = [m for m in _SPACED_HEADING.finditer(line) if m.start() not in taken]
    taken |= {m.start() for m in spaced}
    spaced += [m for m in _EXPORT_HEADING.finditer(line) if m.start() not in taken]
    for match in sorted(embedded_matches + spaced, key=lambda m: m.start()):
        embedded = _section_kind(match.group(1))
        if embedded and not (inline and match.start() < _label_end(line, inline[1])):
            breaks.append((start + match.end(), start + match.end(), embedded, match.group(1)))
    return breaks


def split_sections(text: str) -> list[Section]:
    """Sections by their headings; text before the first heading is the 'header'.

    An inline label line ("Skills: Python, Go") is a section of one line, after which
    the surrounding section resumes. A heading run into a line starts its section there.
    """
    sections: list[Section] = []
    current = Section("header", "", 0, len(text))
    for start, _end, line in _lines(text):
        for offset, heading_end, kind, heading in _breaks(start, line):
            current.end = offset
            sections.append(current)
            if kind.startswith("inline:"):
                sections.append(Section(kind.removeprefix("inline:"), heading, offset, heading_end))
                current = Section(current.kind, current.heading, heading_end, len(text))
            else:
                current = Section(kind, heading, offset, len(text), heading_end)
    sections.append(current)
    return [s for s in sections if s.end > s.start]


_WORDS = experience_words()
_TITLE_WORDS = {w.casefold() for w in _WORDS.document_title_words}
_POST_NOMINALS = {w.casefold().replace(".", "") for w in _WORDS.post_nominals}
# what follows a name on its line: "Emma Johansson — Digital Marketing Manager",
# "CARLOS MENDOZA  Certified Welder  Houston, TX", "Ana Lima | Data Engineer"
_AFTER_NAME = re.compile(r"\s+[—–|·•]\s+|\s{2,}|\t|,\s*")
_LOOKUP_TOKENS = re.compile(r"[^\W\d_]{2,}")
_CONTACT = re.compile(r"([\w.+-]+)@[\w-]+\.[\w.]+|linkedin\.com/in/([\w-]+)", re.IGNORECASE)
NAME_LINES = 60
"""How far into a CV a name is looked for when the first line is not one."""


def find_name(text: str) -> tuple[str, tuple[int, int]] | None:
    """The candidate's name and where it stands.

    A 'Name:' field; else the first line that is not the document's title ("CURRICULUM
    VITAE", "Europass"), cut where the headline starts and without letters after the
    name ("Grace N. Okafor, BSN, RN"); else a line whose words are the name in the
    CV's e-mail address or LinkedIn address (LinkedIn's PDF export starts with
    "Contact" and a skills sidebar).
    """
    lines = [entry for entry in _lines(text) if entry[2].strip()][:NAME_LINES]
    for start, _end, line in lines[:8]:
        field_match = _NAME_FIELD.match(line)
        if field_match:
            value = field_match.group(1).strip()
            offset = start + field_match.start(1)
            return value, (offset, offset + len(value))
    first = next((entry for entry in lines if not _is_title(entry[2])), None)
    if first is not None:
        found = _name_in_line(text, first[0], first[2])
        if found:
            return found
    return _name_from_contact(text, lines)


def _is_title(line: str) -> bool:
    words = _LOOKUP_TOKENS.findall(line.casefold())
    return bool(words) and all(w in _TITLE_WORDS for w in words)


def _name_in_line(text: str, start: int, line: str) -> tuple[str, tuple[int, int]] | None:
    """The name a line starts with (after any title words), or None."""
    markdown = _MARKDOWN_HEADING.match(line)
    value = (markdown.group(1) if markdown else line).strip()
    while (word := re.match(r"\s*(\S+)", value)) and _is_title(word.group(1)):
        value = value[word.end() :]  # "PERSONAL INFORMATION    Elena Popescu"
    value = _AFTER_NAME.split(value.strip("*_ "), maxsplit=1)[0].strip("*_ ")
    kept = value.split()
    while len(kept) > 2 and _is_post_nominal(kept[-1]):
        kept.pop()
    value = " ".join(kept)
    if not (_NAME_LINE.match(value) and _heading_kind(value) is None):
        return None
    offset = text.find(value, start)
    return (value, (offset, offset + len(value))) if offset >= 0 else None


def _is_post_nominal(word: str) -> bool:
    return word.strip("()").casefold().replace(".", "") in _POST_NOMINALS


def _name_from_contact(
    text: str, lines: list[tuple[int, int, str]]
) -> tuple[str, tuple[int, int]] | None:
    """A line whose words (two or more) all appear in the e-mail's or LinkedIn's handle."""
    handles = [
        set(_LOOKUP_TOKENS.findall(folded("".join(m.groups(default="")))))
        for m in _CONTACT.finditer(text[: lines[-1][1]] if lines else "")
    ]
    for start, _end, line in lines:
        words = _LOOKUP_TOKENS.findall(folded(line))
        if len(words) >= 2 and any(set(words) <= handle for handle in handles):
            found = _name_in_line(text, start, line)
            if found:
                return found
    return None


def _role(finding: RoleFinding, text: str) -> Role:
    dates = finding.dates
    return Role(
        title=finding.title,
        start=dates.start if dates else None,
        end=dates.end if dates else None,
        years=round(finding.years, 2),
        field=finding.field,
        kind=finding.kind,
        counted=None,
        span_start=finding.span[0],
        span_end=finding.span[1],
        block_start=finding.block[0],
        block_end=finding.block[1],
    )


def _roles(experience: Experience, text: str) -> list[Role]:
    counted = {start for start, _end, use in experience.spans if use == "role"}
    roles = []
    for finding in experience.roles:
        role = _role(finding, text)
        role.counted = finding.span[0] in counted
        roles.append(role)
    return roles


def parse_cv(text: str, vocabulary: Vocabulary, as_of: date) -> ParsedCV:
    """Name, sections, roles, years, level and the reason for the level."""
    sections = split_sections(text)
    found_name = find_name(text)
    experience = analyse_experience(
        text,
        [(role_section_kind(s.kind, s.heading), min(s.body, s.end), s.end) for s in sections],
        vocabulary,
        as_of,
    )
    return ParsedCV(
        name=found_name[0] if found_name else None,
        sections=sections,
        roles=_roles(experience, text),
        years=experience.years,
        current_field=experience.field,
        level=experience.level,
        level_source=experience.source,
        name_span=found_name[1] if found_name else None,
        level_reason=experience.reason,
        experience_spans=[ExperienceSpan(start=s, end=e, use=u) for s, e, u in experience.spans],
        skill_years=experience.skill_years,
    )
