"""Read a recruiter's free-text query or a job description into a structured request.

One function serves both: a one-line query ("senior python developer with kubernetes,
terraform a plus") and a pasted or stored job description with headings. No LLM; the
cue words are data (``data/request_cues.yaml``, validated on load).

How it reads a text:

1. **Layout.** One short line (up to 300 characters) is a query: all of it is a skill context,
   level words count anywhere, and lower-case spellings ("go", "excel") count as the
   skill. A longer text is a document: headings ("Requirements", "Nice to have",
   "What we offer") and labels opening a line or sentence ("Preferred: Kafka") split it
   into sections, and the first lines may hold the job's title. Requirements sections,
   the title and labels are a skill context (a short name such as C or Go counts there
   as in a CV's skills list); company blurb and benefits never give skills.
2. **Skills** are found by ingestion's own matcher (``find_mentions``: vocabulary
   spellings, longest first, with its abbreviation and name vetoes); profession words
   ("nurse", "accountant") stand for the profession's broad skill in the vocabulary.
3. **Required or preferred.** Everything asked for is required unless its section is a
   preferences section or a cue scoped to its clause or list says otherwise ("X a plus",
   "ideally X"). Negations and "we will teach you X" rule a skill out. Alternatives
   ("Go or Python") cannot all be required: they become preferred. A skill both
   required and preferred is required. When a document has a requirements section
   naming skills, skills named only in its duties ("What you'll do") are left out.
4. **Levels** come from level words only (senior, lead, graduate, "mid or senior"), never
   from years: a minimum of 3 years does not exclude a senior.
5. **Years.** ``min_years`` is the largest lower bound among the required statements
   ("3-5 years" gives 3; "6+ years, including 3+ years of Kubernetes" gives 6), because
   every requirement must hold at once. Years attached to one skill ("3 years of
   Python") count too: nobody has 3 years of Python at work with less than 3 years of
   experience. Years in a preference ("ideally 8+ years") are not a minimum.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from talentrag.domain import ExperienceLevel
from talentrag.errors import ConfigurationError
from talentrag.ingestion.dates import number_value
from talentrag.ingestion.experience_words import experience_words
from talentrag.ingestion.intervals import merge_intervals
from talentrag.ingestion.readers import clean_text
from talentrag.ingestion.skills import find_candidates, find_mentions
from talentrag.policy.levels import BANDS_TEXT, level_for_years
from talentrag.vocabulary.tokens import TOKEN
from talentrag.vocabulary.vocabulary import Vocabulary

HeadingKind = Literal["required", "preferred", "duties", "ignored", "title", "excluded"]
CueKind = Literal["preferred", "excluded"]
_LEVEL_ORDER = (ExperienceLevel.JUNIOR, ExperienceLevel.MID, ExperienceLevel.SENIOR)


@dataclass(frozen=True)
class ParsedRequest:
    """What a query or job description asks for, in the vocabulary's names.

    ``notes`` say in a few words what was read or set aside and why, so the caller
    can echo the request back and a recruiter can correct it.
    """

    required_skills: list[str]
    preferred_skills: list[str]
    experience_levels: list[ExperienceLevel]
    min_years: float | None
    notes: list[str]
    excluded_skills: list[str] = field(default_factory=list)
    """A query's ruled-out skills ("java developer, not php"): nobody holding them is
    wanted. A job description's "Not required: Go" only says Go is not needed."""


# -- the cue file ---------------------------------------------------------------------


class RequestCueError(ConfigurationError):
    """The request cue file is unreadable or breaks a rule; the message names each problem."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CueRuleSpec(_Strict):
    """One group of triggers sharing a category, direction, reach and scope."""

    category: CueKind
    direction: Literal["forward", "backward"]
    reach: Literal["list", "clause"]
    max_tokens: int = Field(ge=0, le=30)
    triggers: list[str] = Field(min_length=1)


class HeadingsSpec(_Strict):
    """Heading and label phrases by what their section's content means."""

    required: list[str] = Field(min_length=1)
    preferred: list[str] = Field(min_length=1)
    duties: list[str] = Field(min_length=1)
    ignored: list[str] = Field(min_length=1)
    title: list[str] = Field(min_length=1)
    excluded: list[str] = Field(min_length=1)


class LevelPhrases(_Strict):
    """Level phrases for each band."""

    junior: list[str] = Field(min_length=1)
    mid: list[str] = Field(min_length=1)
    senior: list[str] = Field(min_length=1)


class LevelsSpec(_Strict):
    """Level words for queries and titles, and the stricter phrases for a document's body."""

    query: LevelPhrases
    document: LevelPhrases


class YearsSpec(_Strict):
    """Units of a years figure and the words that make a figure no experience."""

    units: list[str] = Field(min_length=1)
    not_after: list[str] = Field(min_length=1)
    not_before: list[str] = Field(min_length=1)


class ProfessionSpec(_Strict):
    """Words naming a profession, and the vocabulary's broad skill for it."""

    skill: str = Field(min_length=1)
    words: list[str] = Field(min_length=1)
    alone: bool = False


class RequestCueFile(_Strict):
    """The whole cue file."""

    version: Literal[1]
    headings: HeadingsSpec
    terminators: list[str] = Field(min_length=1)
    pseudo: list[str] = Field(default_factory=list)
    rules: list[CueRuleSpec] = Field(min_length=1)
    levels: LevelsSpec
    years: YearsSpec
    boilerplate: list[str] = Field(min_length=1)
    professions: list[ProfessionSpec] = Field(min_length=1)


@dataclass(frozen=True)
class _Rule:
    category: CueKind
    direction: str
    reach: str
    max_tokens: int
    pattern: re.Pattern[str]


@dataclass(frozen=True)
class _Profession:
    skill: str
    alone: bool


@dataclass(frozen=True)
class RequestCues:
    """The compiled cue file."""

    headings: dict[str, HeadingKind]
    longest_heading: int
    terminator: re.Pattern[str]
    pseudo: re.Pattern[str] | None
    rules: tuple[_Rule, ...]
    query_levels: tuple[tuple[ExperienceLevel, re.Pattern[str]], ...]
    document_levels: tuple[tuple[ExperienceLevel, re.Pattern[str]], ...]
    years: re.Pattern[str]
    years_not_after: re.Pattern[str]
    years_not_before: re.Pattern[str]
    boilerplate: re.Pattern[str]
    professions: tuple[_Profession, ...]
    profession_pattern: re.Pattern[str]


# A phrase's edge never splits a word, whether the phrase starts or ends in a letter or
# a symbol ("(preferred)"): one assertion, since an alternation of lookarounds before
# every phrase makes Python's matcher try each phrase at every position (20x slower).
_EDGE = r"(?!(?<=\w)\w)"


def _alternation(phrases: Iterable[str]) -> str:
    ordered = sorted(phrases, key=len, reverse=True)
    return "|".join("(?:" + p.replace(" ", r"\s+") + ")" for p in ordered)


def _words(phrases: Iterable[str]) -> re.Pattern[str]:
    return re.compile(rf"{_EDGE}(?:{_alternation(phrases)}){_EDGE}", re.IGNORECASE)


def _heading_key(text: str) -> str:
    """A heading's words, case-folded, apostrophes unified: "What You’ll Do:" -> "what you'll do"."""
    folded = text.casefold().replace("’", "'").replace("&", " and ")
    return " ".join(re.findall(r"[\w']+", folded))


def _pattern_problems(spec: RequestCueFile) -> list[str]:
    lists: dict[str, list[str]] = {"terminators": spec.terminators, "pseudo": spec.pseudo}
    lists.update({f"rules[{i}].triggers": r.triggers for i, r in enumerate(spec.rules)})
    for mode in ("query", "document"):
        for band in ("junior", "mid", "senior"):
            lists[f"levels.{mode}.{band}"] = getattr(getattr(spec.levels, mode), band)
    lists.update(
        {f"years.{k}": getattr(spec.years, k) for k in ("units", "not_after", "not_before")}
    )
    lists["boilerplate"] = spec.boilerplate
    lists.update({f"professions[{i}].words": p.words for i, p in enumerate(spec.professions)})
    problems = []
    for where, phrases in lists.items():
        for phrase in phrases:
            if not phrase.strip():
                problems.append(f"{where}: empty phrase")
                continue
            try:
                re.compile(phrase)
            except re.error as exc:
                problems.append(f"{where}: {phrase!r} is not a valid pattern ({exc})")
    seen: dict[str, str] = {}
    for kind in HeadingsSpec.model_fields:
        for phrase in getattr(spec.headings, kind):
            key = _heading_key(phrase)
            if not key:
                problems.append(f"headings.{kind}: {phrase!r} has no words")
            elif key in seen and seen[key] != kind:
                problems.append(f"headings.{kind}: {phrase!r} is also under {seen[key]}")
            seen.setdefault(key, kind)
    return problems


def _level_patterns(spec: LevelPhrases) -> tuple[tuple[ExperienceLevel, re.Pattern[str]], ...]:
    return tuple((level, _words(getattr(spec, level.value))) for level in _LEVEL_ORDER)


def compile_request_cues(spec: RequestCueFile) -> RequestCues:
    """Compile a validated cue file (``RequestCueError`` on a bad pattern or heading)."""
    problems = _pattern_problems(spec)
    if problems:
        raise RequestCueError(
            "request cues have problems:\n" + "\n".join(f"  - {p}" for p in problems)
        )
    headings: dict[str, HeadingKind] = {}
    for kind in ("required", "preferred", "duties", "ignored", "title", "excluded"):
        for phrase in getattr(spec.headings, kind):
            headings[_heading_key(phrase)] = kind
    numbers = "|".join(sorted(experience_words().numbers, key=len, reverse=True))
    number = rf"(?:\d+(?:\.\d+)?|{numbers})"
    years = re.compile(
        r"(?<![\w.])(?:(?:at\s+least|a\s+minimum\s+of|minimum\s+of|minimum|min\.?|over|more\s+than"
        r"|no\s+less\s+than|not\s+less\s+than|no\s+fewer\s+than)\s+)?"
        rf"(?P<low>{number})(?:\s*(?:-|–|—|to)\s*(?P<high>{number}))?\s*\+?\s*"
        rf"(?:{_alternation(spec.years.units)})(?![\w])(?:\s*\+|\s+or\s+more|\s+plus)?",
        re.IGNORECASE,
    )
    return RequestCues(
        headings=headings,
        longest_heading=max(len(k.split()) for k in headings),
        terminator=_words(spec.terminators),
        pseudo=_words(spec.pseudo) if spec.pseudo else None,
        rules=tuple(
            _Rule(r.category, r.direction, r.reach, r.max_tokens, _words(r.triggers))
            for r in spec.rules
        ),
        query_levels=_level_patterns(spec.levels.query),
        document_levels=_level_patterns(spec.levels.document),
        years=years,
        years_not_after=re.compile(
            rf"[\s'’]*(?:of\s+)?(?:{_alternation(spec.years.not_after)}){_EDGE}", re.IGNORECASE
        ),
        years_not_before=re.compile(
            rf"{_EDGE}(?:{_alternation(spec.years.not_before)})[\s:]*$", re.IGNORECASE
        ),
        boilerplate=_words(spec.boilerplate),
        professions=tuple(_Profession(p.skill, p.alone) for p in spec.professions),
        profession_pattern=re.compile(
            _EDGE
            + "(?:"
            + "|".join(
                rf"(?P<p{i}>{_alternation(p.words)})" for i, p in enumerate(spec.professions)
            )
            + ")"
            + _EDGE,
            re.IGNORECASE,
        ),
    )


def default_request_cues_path() -> Path:
    """The cue file shipped in the package."""
    return Path(str(resources.files("talentrag.search") / "data" / "request_cues.yaml"))


def load_request_cues(path: Path | None = None) -> RequestCues:
    """Read, validate and compile a cue file; ``RequestCueError`` says what is wrong."""
    path = path or default_request_cues_path()
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise RequestCueError(f"cannot read request cues {path}: {exc}") from exc
    try:
        spec = RequestCueFile.model_validate(raw)
    except ValidationError as exc:
        raise RequestCueError(f"request cues {path} have the wrong shape:\n{exc}") from exc
    return compile_request_cues(spec)


@lru_cache(maxsize=1)
def default_request_cues() -> RequestCues:
    """The shipped cues, loaded once per process."""
    return load_request_cues()


# -- 1. layout: sections, labels, title ---------------------------------------------------

# What a section's content is for a request.
Role = Literal["required", "preferred", "mentioned", "ignored", "excluded"]


@dataclass
class _Zone:
    """A stretch of the text under one heading or label."""

    kind: str  # a HeadingKind, or query / body / preamble / other
    start: int
    end: int
    heading: str = ""
    inline: bool = False  # a label's line ("Location: Leeds"), not a section

    @property
    def explicit(self) -> bool:
        """Content whose meaning a heading, a label or the query form states."""
        return self.kind in ("query", "title", "required", "preferred", "excluded")


@dataclass
class _Section:
    """A zone as ingestion's matcher sees it (``skills.SectionLike``)."""

    kind: str
    start: int
    end: int

    @property
    def body(self) -> int:
        """A zone has no heading line of its own."""
        return self.start


_MARKDOWN_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_LABEL = re.compile(
    r"(?:^|(?<=[.;!?·|])|(?<=[.;!?·|]\s))\s*[*_]*(?P<label>[A-Za-z][A-Za-z '’/&-]{1,45}?)[*_]*"
    r"\s*:(?:[*_]*\s*|$)"
)
_TITLE_LINES = 3  # the job's title is one of the first lines before any heading
_TITLE_WORDS = 14


def _lines(text: str) -> list[tuple[int, int, str]]:
    out, offset = [], 0
    for line in text.split("\n"):
        out.append((offset, offset + len(line), line))
        offset += len(line) + 1
    return out


def _heading(line: str, cues: RequestCues) -> tuple[str, str] | None:
    """(kind, label) when a line is a heading: a known phrase, or a marked short line."""
    markdown = _MARKDOWN_HEADING.match(line)
    candidate = (markdown.group(1) if markdown else line).strip().strip("*_:=# ").strip()
    key = _heading_key(candidate)
    if not key or len(key.split()) > cues.longest_heading + 2:
        return None
    stripped = line.strip()
    marked = (
        bool(markdown)
        or stripped.startswith(("**", "__"))
        or stripped.endswith(":")
        or (candidate.isupper() and len(candidate) > 3)
    )
    kind: str | None = cues.headings.get(key)
    if kind is None and marked:
        kind = _loose_heading(key, cues)
        if kind is None and len(key.split()) <= 6 and not re.search(r"\d|[,.;|·]", candidate):
            kind = "other"
    if kind == "title":
        kind = "duties"  # a standalone "The role" heads a description, not a title
    return (kind, candidate) if kind else None


def _loose_heading(key: str, cues: RequestCues) -> str | None:
    """A marked heading may add two words to a phrase ("Required Qualifications (US)")."""
    padded, count = f" {key} ", len(key.split())
    hits = [
        (len(phrase), kind)
        for phrase, kind in cues.headings.items()
        if f" {phrase} " in padded and count - len(phrase.split()) <= 2
    ]
    return max(hits)[1] if hits else None


def _labels(line: str, cues: RequestCues) -> list[tuple[int, str, str]]:
    """Labels in a line: (offset, kind, label), for known phrases only."""
    found: list[tuple[int, str, str]] = []
    for match in _LABEL.finditer(line):
        label = match.group("label").strip()
        kind = cues.headings.get(_heading_key(label))
        if kind:
            found.append((match.start("label"), kind, label))
    return found


def _title_line(line: str, vocabulary: Vocabulary, cues: RequestCues) -> bool:
    """The job's title: a short line naming a profession or a level."""
    words = TOKEN.findall(line)
    if not words or len(words) > _TITLE_WORDS or cues.boilerplate.search(line):
        return False
    return vocabulary.title_field(line) is not None or any(
        p.search(line) for _, p in cues.query_levels
    )


def _layout(text: str, vocabulary: Vocabulary, cues: RequestCues, query: bool) -> list[_Zone]:
    """The text as consecutive zones (labels split lines; headings start sections)."""
    lines = _lines(text)
    headings = {start: _heading(line, cues) for start, _, line in lines} if not query else {}
    headed = any(h and h[0] != "other" for h in headings.values())
    base = _Zone("query" if query else "preamble" if headed else "body", 0, len(text))
    zones: list[_Zone] = []

    def switch(zone: _Zone) -> None:
        if zones and zones[-1].start == zone.start:
            zones.pop()
        zones.append(zone)

    switch(_Zone(base.kind, 0, len(text)))
    known_heading_seen, nonempty = False, 0
    for start, end, line in lines:
        if not line.strip():
            continue
        nonempty += 1
        heading = headings.get(start)
        title = (
            not query
            and not known_heading_seen
            and nonempty <= _TITLE_LINES
            and not any(z.kind == "title" for z in zones)
            and _title_line(_MARKDOWN_HEADING.sub(r"\1", line), vocabulary, cues)
        )
        if heading and not title:
            base = _Zone(heading[0], start, len(text), heading[1])
            known_heading_seen |= heading[0] != "other"
            switch(base)
            continue
        labels = _labels(line, cues)
        if title and not labels:
            switch(_Zone("title", start, end))
        for offset, kind, label in labels:
            switch(_Zone(kind, start + offset, end, label, inline=True))
        if title or labels:
            switch(_Zone(base.kind, end, len(text), base.heading))
    for zone, following in pairwise(zones):
        zone.end = following.start
    zones[-1].end = len(text)
    return [z for z in zones if z.end > z.start]


# -- 2. skills ----------------------------------------------------------------------------


@dataclass
class _Found:
    """A skill asked for at one place of the text."""

    skill: str
    start: int
    end: int
    written: str
    profession: _Profession | None = None
    role: Role = "required"
    cue: str = ""  # the cue that changed the role, for the notes


def _recased(text: str, vocabulary: Vocabulary) -> str:
    """A query with each spelling written as the vocabulary writes it ("go" -> "Go"):
    recruiters type in lower case, so a query's case says nothing."""
    chars = list(text)
    for candidate in find_candidates(text, vocabulary):
        width = candidate.end - candidate.start
        if not candidate.as_written and len(candidate.surface) == width:
            chars[candidate.start : candidate.end] = candidate.surface
    return "".join(chars)


_SKILL_CONTEXT = frozenset({"query", "title", "required", "preferred", "excluded"})
_ASKING = frozenset({"required", "preferred", "excluded"})  # roles whose cues matter


def _skills(
    text: str, zones: list[_Zone], vocabulary: Vocabulary, cues: RequestCues, query: bool
) -> list[_Found]:
    """Vocabulary mentions and profession words, in the order written."""
    sections = [
        _Section("skills" if z.kind in _SKILL_CONTEXT else "experience", z.start, z.end)
        for z in zones
    ]
    matched = _blanked(_recased(text, vocabulary) if query else text, zones)
    found = [
        _Found(m.skill, m.start, m.end, text[m.start : m.end])
        for m in find_mentions(matched, vocabulary, sections=sections)
    ]
    found += _listed_words(matched, found, zones, vocabulary)
    taken = _SpanSet((f.start, f.end) for f in found)
    for match in cues.profession_pattern.finditer(matched):
        profession = next(
            p for i, p in enumerate(cues.professions) if match.group(f"p{i}") is not None
        )
        start, end = match.span()
        if profession.skill in vocabulary.skills and not taken.overlaps(start, end):
            found.append(_Found(profession.skill, start, end, text[start:end], profession))
    return sorted(found, key=lambda f: f.start)


def _blanked(text: str, zones: list[_Zone]) -> str:
    """The text with its ignored sections (benefits, company blurb) blanked, offsets kept:
    they never give skills, and the matcher's time grows with the text it reads."""
    pieces, last = [], 0
    for zone in zones:
        if zone.kind == "ignored":
            pieces += [text[last : zone.start], re.sub(r"[^\n]", " ", text[zone.start : zone.end])]
            last = zone.end
    return "".join([*pieces, text[last:]])


def _listed_words(
    text: str, found: list[_Found], zones: list[_Zone], vocabulary: Vocabulary
) -> list[_Found]:
    """Everyday-word skills ("French", "Marketing") listed with a skill where skills are
    asked for: "Fluent Spanish or French". The CV matcher takes them only as whole items
    of a skills list; a requirement joins them to other skills."""
    taken = sorted((f.start, f.end) for f in found)
    starts, ends = [s for s, _ in taken], [e for _, e in taken]
    occupied = _SpanSet(taken)
    out = []
    for zone in zones:
        if zone.kind not in _SKILL_CONTEXT:
            continue
        for candidate in find_candidates(text[zone.start : zone.end], vocabulary):
            start, end = zone.start + candidate.start, zone.start + candidate.end
            if not candidate.needs_context or occupied.overlaps(start, end):
                continue
            before = bisect_right(ends, start) - 1
            after = bisect_left(starts, end)
            gaps = ([text[ends[before] : start]] if before >= 0 else []) + (
                [text[end : starts[after]]] if after < len(starts) else []
            )
            if any(_LIST_GAP.match(gap) and _SEPARATED.search(gap) for gap in gaps):
                out.append(_Found(candidate.skill, start, end, text[start:end]))
    return out


class _SpanSet:
    """Character spans, merged, with an O(log n) overlap test."""

    def __init__(self, spans: Iterable[tuple[int, int]]):
        merged = merge_intervals(list(spans))
        self.starts = [s for s, _ in merged]
        self.ends = [e for _, e in merged]

    def overlaps(self, start: int, end: int) -> bool:
        index = bisect_right(self.ends, start)
        return index < len(self.starts) and self.starts[index] < end


# -- 3. roles: sections, cues, alternatives ------------------------------------------------

_CLAUSE_BREAK = re.compile(r"[.!?](?=\s|$)|;|\n")
_COMMA_BREAK = re.compile(r"[,;.!?](?=\s|$)|\n")
_LIST_GAP = re.compile(r"^(?:[\s,/&+|·•()\[\]*-]|\band\b|\bor\b|\bas well as\b)*$", re.IGNORECASE)
_SEPARATED = re.compile(r"[,/&]|\band\b|\bor\b", re.IGNORECASE)
_OR_GAP = re.compile(r"^\s*,?\s*(?:\band/or\b|\bor\b)\s*$", re.IGNORECASE)
_COMMA_GAP = re.compile(r"^\s*,\s*$")
_CONNECTOR = re.compile(r"\b(?:and|or)\b", re.IGNORECASE)


@dataclass(frozen=True)
class _Cue:
    rule: _Rule
    start: int
    end: int
    text: str


class _Clauses:
    """Clause numbers by offset: breaks at sentence ends, terminators and zone starts."""

    def __init__(self, text: str, zones: list[_Zone], cues: RequestCues, pattern: re.Pattern[str]):
        breaks = [m.start() for m in pattern.finditer(text)]
        breaks += [m.start() for m in cues.terminator.finditer(text)]
        breaks += [z.start for z in zones]
        self.breaks = sorted(set(breaks))

    def of(self, position: int) -> int:
        return bisect_right(self.breaks, position)


def _zone_roles(zones: list[_Zone], found: list[_Found]) -> dict[int, Role]:
    """What each zone's skills are: a requirements section with skills leaves duties out."""
    starts = [z.start for z in zones]
    listed = any(zones[bisect_right(starts, f.start) - 1].kind == "required" for f in found)
    fallback: Role = "mentioned" if listed else "required"
    roles: dict[str, Role] = {
        "query": "required",
        "title": "required",
        "required": "required",
        "body": "required",
        "preferred": "preferred",
        "excluded": "excluded",
        "ignored": "ignored",
        "duties": fallback,
        "other": fallback,
        "preamble": "mentioned" if listed else "required",
    }
    return {i: roles[z.kind] for i, z in enumerate(zones)}


def _find_cues(
    text: str, found: list[_Found], cues: RequestCues, active: list[tuple[int, int]]
) -> list[_Cue]:
    """Every cue in the ``active`` spans, outside pseudo-cues ("not only") and skill names."""
    blocked = [
        m.span()
        for s, e in active
        for m in (cues.pseudo.finditer(text, s, e) if cues.pseudo else ())
    ]
    spans = _SpanSet(blocked + [(f.start, f.end) for f in found])
    return [
        _Cue(rule, m.start(), m.end(), m.group())
        for rule in cues.rules
        for s, e in active
        for m in rule.pattern.finditer(text, s, e)
        if m.end() > m.start() and not spans.overlaps(m.start(), m.end())
    ]


def _tokens(text: str) -> int:
    return len(TOKEN.findall(text))


def _governed(text: str, cue: _Cue, found: list[_Found], clauses: _Clauses) -> list[int]:
    """Indexes of the skills a cue governs (its list, or its clause)."""
    clause = clauses.of(cue.start)
    rule = cue.rule
    if rule.direction == "forward":
        side = [
            i for i, f in enumerate(found) if f.start >= cue.end and clauses.of(f.start) == clause
        ]
        distance = _tokens(text[cue.end : found[side[0]].start]) if side else 0
    else:
        side = [
            i for i, f in enumerate(found) if f.end <= cue.start and clauses.of(f.start) == clause
        ][::-1]
        distance = _tokens(text[found[side[0]].end : cue.start]) if side else 0
    if not side or distance > rule.max_tokens:
        return []
    if rule.reach == "clause":
        return side
    return _list_run(text, found, side, backward=rule.direction == "backward")


def _list_run(text: str, found: list[_Found], side: list[int], backward: bool) -> list[int]:
    """The list the nearest skill stands in, walking away from the cue.

    A change of connector ends it ("AWS or GCP, and Python"), and walking back from a
    backward cue a bare comma ends it unless "and"/"or" joined the items before
    ("kubernetes, terraform a plus" governs Terraform only).
    """
    run, seen = [side[0]], set[str]()
    for i in side[1:]:
        left, right = (found[i], found[run[-1]]) if backward else (found[run[-1]], found[i])
        gap = text[left.end : right.start]
        words = {w.casefold() for w in _CONNECTOR.findall(gap)}
        if not _LIST_GAP.match(gap) or (seen and words and words != seen):
            break
        if backward and not words and not seen and _COMMA_GAP.match(gap):
            break
        seen |= words
        run.append(i)
    return run


def _apply_cues(text: str, found: list[_Found], cues: list[_Cue], clauses: _Clauses) -> None:
    """Preferred and excluded cues change the role of the skills they govern."""
    for cue in sorted(cues, key=lambda c: c.rule.category == "excluded"):
        for i in _governed(text, cue, found, clauses):
            item = found[i]
            if cue.rule.category == "excluded" and item.role in ("required", "preferred"):
                item.role, item.cue = "excluded", _squash(cue.text)
            elif cue.rule.category == "preferred" and item.role == "required":
                item.role, item.cue = "preferred", _squash(cue.text)


def _alternatives(text: str, found: list[_Found], notes: _Notes) -> None:
    """Skills offered as alternatives ("Go or Python") cannot all be required: preferred."""
    group: list[int] = []

    def close() -> None:
        skills = list(dict.fromkeys(found[i].skill for i in group))
        joined = any(_OR_GAP.match(text[found[a].end : found[b].start]) for a, b in pairwise(group))
        if joined and len(skills) > 1:
            for i in group:
                if found[i].role == "required":
                    found[i].role = "preferred"
            quoted = _squash(text[found[group[0]].start : found[group[-1]].end])
            notes.add(f"'{quoted}' are alternatives: made preferred ({', '.join(skills)})")

    for i, item in enumerate(found):
        if group:
            gap = text[found[group[-1]].end : item.start]
            if item.role == found[group[-1]].role and (_OR_GAP.match(gap) or _COMMA_GAP.match(gap)):
                group.append(i)
                continue
            close()
        group = [i] if item.role == "required" else []
    if group:
        close()


def _boilerplate(text: str, found: list[_Found], zones: list[_Zone], cues: RequestCues) -> None:
    """Skills in company blurb or benefits sentences of unlabelled text are no requirement."""
    starts = [z.start for z in zones]
    blurb = _Blurb(text, cues)
    for item in found:
        if blurb.at(item.start, zones[bisect_right(starts, item.start) - 1]):
            item.role = "ignored"


class _Blurb:
    """Whether a place in unlabelled text stands in a company-blurb or benefits sentence."""

    def __init__(self, text: str, cues: RequestCues):
        self.text, self.cues = text, cues
        self.breaks = [m.end() for m in _CLAUSE_BREAK.finditer(text)]

    def at(self, position: int, zone: _Zone) -> bool:
        if zone.explicit:
            return False
        index = bisect_right(self.breaks, position)
        left = max(self.breaks[index - 1] if index else 0, zone.start)
        right = min(self.breaks[index] if index < len(self.breaks) else len(self.text), zone.end)
        return bool(self.cues.boilerplate.search(self.text, left, right))


# -- 4. levels and years ----------------------------------------------------------------------


def _levels(
    text: str, zones: list[_Zone], roles: dict[int, Role], found: list[_Found], cues: RequestCues
) -> tuple[list[ExperienceLevel], list[str]]:
    """Levels named in the text, in band order, and where each was read."""
    skills = _SpanSet((f.start, f.end) for f in found)  # "Lead Generation" is no level
    seen: dict[ExperienceLevel, str] = {}
    for index, zone in enumerate(zones):
        if roles[index] == "ignored":
            continue
        patterns = cues.query_levels if zone.kind in ("query", "title") else cues.document_levels
        for level, pattern in patterns:
            for match in pattern.finditer(text, zone.start, zone.end):
                if not skills.overlaps(match.start(), match.end()):
                    seen.setdefault(level, match.group())
    levels = [level for level in _LEVEL_ORDER if level in seen]
    return levels, [f"'{_squash(seen[level])}' read as level {level.value}" for level in levels]


_MAX_YEARS = 50  # a longer "experience" is a typo or the company's age, not a requirement


@dataclass(frozen=True)
class _Years:
    low: float
    written: str
    preferred: bool


def _years(
    text: str, zones: list[_Zone], roles: dict[int, Role], cues: RequestCues, rule_cues: list[_Cue]
) -> list[_Years]:
    """Experience figures in the zones that ask for something, with whether they are preferences."""
    segments = _Clauses(text, zones, cues, _COMMA_BREAK)
    preferring = [c for c in rule_cues if c.rule.category == "preferred"]
    blurb = _Blurb(text, cues)
    out = []
    for index, zone in enumerate(zones):
        if roles[index] not in ("required", "preferred"):
            continue
        for match in cues.years.finditer(text, zone.start, zone.end):
            if (
                cues.years_not_after.match(text, match.end())
                or cues.years_not_before.search(
                    text, max(zone.start, match.start() - 40), match.start()
                )
                or blurb.at(match.start(), zone)
            ):
                continue
            segment = segments.of(match.start())
            preferred = roles[index] == "preferred" or any(
                segments.of(c.start) == segment
                and (
                    c.end <= match.start()
                    if c.rule.direction == "forward"
                    else c.start >= match.end()
                )
                for c in preferring
            )
            low = number_value(match.group("low"))
            if 0 < low <= _MAX_YEARS:
                out.append(_Years(low, match.group().strip(), preferred))
    return out


# -- assembly ---------------------------------------------------------------------------------


class _Notes:
    """Notes in the order they were made, each once."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, note: str) -> None:
        if note not in self.items:
            self.items.append(note)


def _squash(text: str) -> str:
    return " ".join(text.split()).strip(" *_#:")


def _drop_alone_professions(found: list[_Found], vocabulary: Vocabulary, notes: _Notes) -> None:
    """A title such as "software engineer" asks for its family only when nothing else of it is asked."""
    asked = [f for f in found if f.role in ("required", "preferred")]
    for item in asked:
        if item.profession is None or not item.profession.alone:
            continue
        field_name = vocabulary.field_of_skill(item.skill)
        others = [
            f.skill
            for f in asked
            if f.skill != item.skill and vocabulary.field_of_skill(f.skill) == field_name
        ]
        if others:
            item.role = "ignored"
            notes.add(f"'{item.written}' not read as {item.skill}: the request names {others[0]}")


@dataclass
class _Result:
    required: list[str] = field(default_factory=list)
    preferred: list[str] = field(default_factory=list)


def _collect(found: list[_Found], zones: list[_Zone], notes: _Notes) -> _Result:
    result = _Result()
    for item in found:
        if item.role == "required" and item.skill not in result.required:
            result.required.append(item.skill)
    for item in found:
        if item.role != "preferred" or item.skill in result.preferred:
            continue
        if item.skill in result.required:
            notes.add(f"{item.skill} is both required and preferred: kept required")
        else:
            result.preferred.append(item.skill)
    asked = set(result.required) | set(result.preferred)
    _cue_notes(found, result, notes)
    words: dict[str, dict[str, str]] = {}
    for item in found:
        if item.profession is not None and item.role in ("required", "preferred"):
            words.setdefault(item.skill, {}).setdefault(item.written.casefold(), item.written)
    for skill, written in words.items():
        notes.add(f"{', '.join(repr(w) for w in written.values())} read as {skill}")
    starts = [z.start for z in zones]
    by_heading: dict[str, list[str]] = {}
    for item in found:
        if item.skill in asked:
            continue
        zone = zones[bisect_right(starts, item.start) - 1]
        if item.role == "mentioned":
            by_heading.setdefault(zone.heading or "the introduction", []).append(item.skill)
        elif item.role == "excluded" and zone.kind == "excluded":
            notes.add(f"'{zone.heading}' ruled out {item.skill}")
    for heading, skills in by_heading.items():
        listed = ", ".join(dict.fromkeys(skills))
        notes.add(f"named only under '{_squash(heading)}', not asked for: {listed}")
    return result


def _cue_notes(found: list[_Found], result: _Result, notes: _Notes) -> None:
    """What each cue did, for the skills whose final role it decided."""
    changed: dict[tuple[str, str], list[str]] = {}
    for item in found:
        if not item.cue:
            continue
        if item.role == "preferred" and item.skill in result.preferred:
            changed.setdefault((item.cue, "made preferred"), []).append(item.skill)
        elif item.role == "excluded" and item.skill not in result.required + result.preferred:
            changed.setdefault((item.cue, "ruled out"), []).append(item.skill)
    for (cue, verb), skills in changed.items():
        notes.add(f"'{cue}' {verb}: {', '.join(dict.fromkeys(skills))}")


def _min_years(years: list[_Years], levels: list[ExperienceLevel], notes: _Notes) -> float | None:
    required = [y for y in years if not y.preferred]
    for item in years:
        if item.preferred:
            notes.add(f"'{item.written}' is a preference, not a minimum")
    if not required:
        return None
    minimum = max(y.low for y in required)
    written = next(y.written for y in required if y.low == minimum)
    notes.add(f"'{written}' read as at least {minimum:g} years")
    if len({y.low for y in required}) > 1:
        notes.add(f"several year figures: the largest minimum ({minimum:g}) holds for all")
    band = level_for_years(minimum)
    if levels and _LEVEL_ORDER.index(band) > max(_LEVEL_ORDER.index(level) for level in levels):
        notes.add(f"{minimum:g} years is above the {levels[-1].value} band ({BANDS_TEXT})")
    return minimum


# A longer text on one line is a job description pasted without its line breaks.
_QUERY_CHARS = 300


def parse_request_text(text: str, vocabulary: Vocabulary) -> ParsedRequest:
    """Required and preferred skills, levels and minimum years asked for by ``text``.

    ``text`` is a recruiter's query or a job description; the module docstring says how
    each is read. Deterministic: the same text and vocabulary give the same request.
    """
    cues = default_request_cues()
    text = clean_text(text)
    query = "\n" not in text.strip() and len(text) <= _QUERY_CHARS
    zones = _layout(text, vocabulary, cues, query)
    found = _skills(text, zones, vocabulary, cues, query)
    roles = _zone_roles(zones, found)
    starts = [z.start for z in zones]
    for item in found:
        item.role = roles[bisect_right(starts, item.start) - 1]
    notes = _Notes()
    _boilerplate(text, found, zones, cues)
    active = merge_intervals([(z.start, z.end) for i, z in enumerate(zones) if roles[i] in _ASKING])
    rule_cues = _find_cues(text, found, cues, active)
    _apply_cues(text, found, rule_cues, _Clauses(text, zones, cues, _CLAUSE_BREAK))
    _alternatives(text, found, notes)
    _drop_alone_professions(found, vocabulary, notes)
    result = _collect(found, zones, notes)
    levels, level_notes = _levels(text, zones, roles, found, cues)
    for note in level_notes:
        notes.add(note)
    minimum = _min_years(_years(text, zones, roles, cues, rule_cues), levels, notes)
    for zone in zones:
        if zone.kind == "ignored" and zone.heading and not zone.inline:
            notes.add(f"skipped '{_squash(zone.heading)}'")
    asked = {*result.required, *result.preferred}
    excluded = [f.skill for f in found if query and f.role == "excluded" and f.skill not in asked]
    return ParsedRequest(
        required_skills=result.required,
        preferred_skills=result.preferred,
        experience_levels=levels,
        min_years=minimum,
        notes=notes.items,
        excluded_skills=list(dict.fromkeys(excluded)),
    )
