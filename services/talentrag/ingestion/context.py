"""Cue lexicons that decide what a skill mention means, kept as data (ConText-style).

``data/context_cues.yaml`` lists triggers by category (negated, aspirational,
other_person, project_domain, course), each with a direction, a reach and a scope in
words, plus clause terminators, pseudo-triggers, list connectors, the phrases that make
a short skill name a skill ("programming in C") and the words that make a capitalised
run a name ("IPS Academy"). This module validates and compiles the file once; the
matcher in ``skills.py`` applies it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from talentrag.errors import ConfigurationError


class CueCategory(StrEnum):
    """What a cue says about the skills it governs."""

    NEGATED = "negated"
    ASPIRATIONAL = "aspirational"
    OTHER_PERSON = "other_person"
    PROJECT_DOMAIN = "project_domain"
    COURSE = "course"


# Categories whose mentions are not held (course is held, only weaker).
NOT_HELD = frozenset(
    {
        CueCategory.NEGATED,
        CueCategory.ASPIRATIONAL,
        CueCategory.OTHER_PERSON,
        CueCategory.PROJECT_DOMAIN,
    }
)


class CueFileError(ConfigurationError):
    """The cue file is unreadable or breaks a rule; the message names each problem."""


class CueRule(BaseModel):
    """One group of triggers sharing a category, direction, reach and scope."""

    model_config = ConfigDict(extra="forbid")
    category: CueCategory
    direction: Literal["forward", "backward"]
    reach: Literal["nearest", "first", "item", "clause", "line"] = "first"
    max_tokens: int = Field(ge=0, le=60)
    triggers: list[str] = Field(min_length=1)


class SkillContextSpec(BaseModel):
    """Phrases right before or after a short skill name that make it a skill."""

    model_config = ConfigDict(extra="forbid")
    before: list[str] = Field(min_length=1)
    loose_before: list[str] = Field(min_length=1)
    after: list[str] = Field(min_length=1)


class DomainOfWorkSpec(BaseModel):
    """Words after a skill of another profession that make it what a built thing was for."""

    model_config = ConfigDict(extra="forbid")
    builder_fields: list[str] = Field(min_length=1)
    things: list[str] = Field(min_length=1)
    seller_fields: list[str] = Field(default_factory=list)
    sold_things: list[str] = Field(default_factory=list)


class CueFile(BaseModel):
    """The whole cue file."""

    model_config = ConfigDict(extra="forbid")
    version: Literal[1]
    lexicon: dict[str, list[str]] = Field(default_factory=dict)
    terminators: list[str] = Field(min_length=1)
    list_connectors: list[str] = Field(min_length=1)
    pseudo: list[str] = Field(default_factory=list)
    skill_context: SkillContextSpec
    proficiency: list[str] = Field(min_length=1)
    org_words: list[str] = Field(min_length=1)
    name_words: list[str] = Field(min_length=1)
    legal_suffixes: list[str] = Field(default_factory=list)
    use_statements: list[str] = Field(default_factory=list)
    study_words: list[str] = Field(min_length=1)
    grade_words: list[str] = Field(min_length=1)
    letter_after: list[str] = Field(min_length=1)
    honorifics: list[str] = Field(min_length=1)
    domain_of_work: DomainOfWorkSpec
    rules: list[CueRule] = Field(min_length=1)


@dataclass(frozen=True)
class Cue:
    """A trigger found in a text, with the rule it belongs to."""

    category: CueCategory
    direction: str
    reach: str
    max_tokens: int
    start: int
    end: int


@dataclass(frozen=True)
class _CompiledRule:
    rule: CueRule
    patterns: tuple[re.Pattern[str], ...]


CUE_GROUP = "cue"
"""A trigger may mark its cue words with ``(?P<cue>...)``: the rest of the trigger must
match around them but is context, not cue ("Supervised six students; two built ...":
the cue is "two built", and it governs its own clause, not the one before)."""


def _rule_patterns(triggers: list[str]) -> tuple[re.Pattern[str], ...]:
    """Plain triggers in one alternation; each marked trigger on its own (a group name
    may occur once per pattern)."""
    marked = [t for t in triggers if f"(?P<{CUE_GROUP}>" in t]
    plain = [t for t in triggers if t not in marked]
    return tuple(_words(group) for group in ([plain] if plain else []) + [[t] for t in marked])


def _cue_span(match: re.Match[str]) -> tuple[int, int]:
    if CUE_GROUP in match.re.groupindex and match.start(CUE_GROUP) != -1:
        return match.span(CUE_GROUP)
    return match.span()


@dataclass(frozen=True)
class ContextCues:
    """The compiled cue file: one pattern per rule and per word list."""

    rules: tuple[_CompiledRule, ...]
    terminator: re.Pattern[str]
    pseudo: re.Pattern[str] | None
    connectors: frozenset[str]
    context_before: re.Pattern[str]
    loose_context_before: re.Pattern[str]
    context_after: re.Pattern[str]
    proficiency_after: re.Pattern[str]
    org_words: frozenset[str]
    org_after: re.Pattern[str]
    name_after: re.Pattern[str]
    suffix_after: re.Pattern[str] | None
    use_statement: re.Pattern[str] | None
    org_before: re.Pattern[str]
    org_word: re.Pattern[str]
    study_word: re.Pattern[str]
    grade_before: re.Pattern[str]
    letter_after: re.Pattern[str]
    honorific_before: re.Pattern[str]
    builder_fields: frozenset[str]
    seller_fields: frozenset[str]
    sold_after: re.Pattern[str] | None
    thing_after: re.Pattern[str]
    thing_before: re.Pattern[str]

    def find(self, text: str) -> list[Cue]:
        """Every trigger in ``text`` outside the pseudo-trigger spans, by end offset."""
        blocked = [m.span() for m in self.pseudo.finditer(text)] if self.pseudo else []
        found = [
            Cue(rule.category, rule.direction, rule.reach, rule.max_tokens, *span)
            for compiled in self.rules
            for rule in (compiled.rule,)
            for pattern in compiled.patterns
            for m in pattern.finditer(text)
            for span in (_cue_span(m),)
            if span[1] > span[0] and not _inside_any(m.span(), blocked)
        ]
        return sorted(_outermost(found), key=lambda c: (c.end, c.start))


def _outermost(cues: list[Cue]) -> list[Cue]:
    """Drop a cue lying inside a longer one of the same direction ("coursework" in
    "(coursework only)"); cues of opposite directions may share words."""
    kept: list[Cue] = []
    reach = {"forward": -1, "backward": -1}
    for cue in sorted(cues, key=lambda c: (c.start, -c.end)):
        if cue.end <= reach[cue.direction]:
            continue
        kept.append(cue)
        reach[cue.direction] = cue.end
    return kept


def _inside_any(span: tuple[int, int], blocked: list[tuple[int, int]]) -> bool:
    # pseudo spans are few per text; a linear scan over a sorted list would also do
    return any(start <= span[0] and span[1] <= end for start, end in blocked) if blocked else False


# Word boundaries that hold whether a phrase starts or ends in a letter or a symbol
# ("client:", "app ("): a letter edge must not touch another letter.
_START = r"(?:(?<!\w)(?=\w)|(?=\W))"
_END = r"(?:(?<=\w)(?!\w)|(?<=\W))"


def _phrases(phrases: list[str]) -> str:
    """One alternation; a space in a phrase matches any run of spaces (PDF text)."""
    ordered = sorted(phrases, key=len, reverse=True)
    return "|".join("(?:" + _spaces_stretched(p) + ")" for p in ordered)


_CLASS_OR_SPACE = re.compile(r"\\.|\[(?:\\.|[^\]\\])*\]| ")


def _spaces_stretched(phrase: str) -> str:
    """A space between words becomes ``\\s+`` and one inside a character class ``\\s``
    ("[- ]" is a hyphen or any space, a PDF's line wrap too, but no plus sign)."""
    return _CLASS_OR_SPACE.sub(_stretch, phrase)


def _stretch(match: re.Match[str]) -> str:
    found = match.group()
    if found == " ":
        return r"\s+"
    return found.replace(" ", r"\s") if found.startswith("[") else found


def _words(phrases: list[str]) -> re.Pattern[str]:
    """Phrases on word boundaries, case-insensitive."""
    return re.compile(rf"{_START}(?:{_phrases(phrases)}){_END}", re.IGNORECASE)


def _ending_with(phrases: list[str]) -> re.Pattern[str]:
    """One of ``phrases`` at the end of a window, then only spaces or a colon."""
    return re.compile(rf"{_START}(?:{_phrases(phrases)})[\s:]*$", re.IGNORECASE)


def _name_ending_in(words: list[str], first: str) -> re.Pattern[str]:
    """Up to four capitalised words (starting with ``first``), then one of ``words``,
    capitalised too: what follows a mention that makes it part of an organisation's name
    ("IPS Academy", "Ruby's Diner"; "our Go services" is no name)."""
    return re.compile(
        rf"(?:['’]s)?(?:[ \t]+{first}[\w&'.-]*){{0,4}}?[ \t]+(?=[A-Z])(?i:{_phrases(words)})(?!\w)"
    )


_LEXICON_NAME = re.compile(r"\{([a-z_]+)\}")


def _with_lexicon(spec: CueFile) -> tuple[CueFile, list[str]]:
    """Triggers with each ``{name}`` replaced by the lexicon's list of that name, and the
    names no list has (a quantifier such as ``{0,3}`` is no name)."""
    alternations = {name: "(?:" + _phrases(words) + ")" for name, words in spec.lexicon.items()}
    unknown: list[str] = []

    def expand(where: str, trigger: str) -> str:
        def word_list(match: re.Match[str]) -> str:
            if match.group(1) not in alternations:
                unknown.append(f"{where}: {{{match.group(1)}}} names no lexicon list")
                return match.group(0)
            return alternations[match.group(1)]

        return _LEXICON_NAME.sub(word_list, trigger)

    rules = [
        rule.model_copy(
            update={"triggers": [expand(f"rules[{i}].triggers", t) for t in rule.triggers]}
        )
        for i, rule in enumerate(spec.rules)
    ]
    return spec.model_copy(update={"rules": rules}), unknown


def _problems(spec: CueFile) -> list[str]:
    problems = []
    lists = {
        "terminators": spec.terminators,
        "pseudo": spec.pseudo,
        "skill_context.before": spec.skill_context.before,
        "skill_context.loose_before": spec.skill_context.loose_before,
        "skill_context.after": spec.skill_context.after,
        "proficiency": spec.proficiency,
        "name_words": spec.name_words,
        "study_words": spec.study_words,
        "grade_words": spec.grade_words,
        "letter_after": spec.letter_after,
        "honorifics": spec.honorifics,
        "domain_of_work.things": spec.domain_of_work.things,
    }
    lists.update({f"rules[{i}].triggers": r.triggers for i, r in enumerate(spec.rules)})
    lists.update({f"lexicon.{name}": words for name, words in spec.lexicon.items()})
    for where, phrases in lists.items():
        for phrase in phrases:
            if not phrase.strip():
                problems.append(f"{where}: empty phrase")
                continue
            try:
                re.compile(phrase)
            except re.error as exc:
                problems.append(f"{where}: {phrase!r} is not a valid pattern ({exc})")
    return problems


def compile_cues(spec: CueFile) -> ContextCues:
    """Compile a validated cue file (raises ``CueFileError`` on a bad pattern)."""
    spec, unknown = _with_lexicon(spec)
    problems = unknown + _problems(spec)
    if problems:
        raise CueFileError(
            "context cues have problems:\n" + "\n".join(f"  - {p}" for p in problems)
        )
    return ContextCues(
        rules=tuple(_CompiledRule(rule, _rule_patterns(rule.triggers)) for rule in spec.rules),
        terminator=_words(spec.terminators),
        pseudo=_words(spec.pseudo) if spec.pseudo else None,
        connectors=frozenset(c.casefold() for c in spec.list_connectors),
        context_before=_ending_with(spec.skill_context.before),
        loose_context_before=_ending_with(spec.skill_context.loose_before),
        context_after=re.compile(
            rf"[\s-]*(?:{_phrases(spec.skill_context.after)}){_END}", re.IGNORECASE
        ),
        # "English: C2 / C2", "German  B1  B2", "Spanish - fluent"
        proficiency_after=re.compile(
            rf"[ \t]*[:\-–(]?[ \t]*(?:{_phrases(spec.proficiency)}){_END}", re.IGNORECASE
        ),
        org_words=frozenset(w.casefold() for w in spec.org_words),
        # "Java House Coffee Roasters & Bakery", "Oracle Financial Services Software Ltd"
        name_after=_name_ending_in(spec.name_words, first="[A-Z&]"),
        # "JAVA DIGITAL, LDA", "Swift Freight, Inc.": a company's legal form after a comma
        suffix_after=re.compile(
            r"(?:[ \t]+[A-Z][\w&'.-]*){0,4}?,[ \t]+(?=[A-Z])"
            rf"(?i:{_phrases(spec.legal_suffixes)})(?!\w)"
        )
        if spec.legal_suffixes
        else None,
        # a sentence that opens by saying the author uses something: "I write all my
        # analysis code in R", "Built the ETL in Airflow"
        use_statement=re.compile(
            rf"[\s\-–•*·>]*(?:I\s+(?:(?:also|mainly|mostly|still|now|daily|regularly)\s+)?)?"
            rf"(?:{_phrases(spec.use_statements)}){_END}",
            re.IGNORECASE,
        )
        if spec.use_statements
        else None,
        # "IPS Academy", "A C Patil College", "Kaveri AI Labs"
        org_after=_name_ending_in(spec.org_words, first="[A-Z]"),
        # an organisation word, "of" or "for", then capitalised words up to the skill:
        # "Board of Secondary Education", "Society for Medical Informatics, Biometry"
        org_before=re.compile(
            rf"(?<!\w)(?i:{_phrases(spec.org_words)})[ \t]+(?:of|for)[ \t]+(?:the[ \t]+)?"
            r"(?:[A-Z][\w&'.-]*,?[ \t]+(?:(?:and|&)[ \t]+)?){0,4}$"
        ),
        org_word=_words(spec.org_words),
        study_word=_words(spec.study_words),
        # "CPR Level C", "Licences: C": a grade word, then spaces or a colon, at the end
        grade_before=re.compile(rf"{_START}(?:{_phrases(spec.grade_words)})[ \t]*:?[ \t]*$", re.I),
        letter_after=re.compile(rf"(?:{_phrases(spec.letter_after)}){_END}", re.IGNORECASE),
        # "Ms. Ruby", "Dr Julia": a capitalised honorific, a dot maybe, spaces, at the end
        honorific_before=re.compile(
            rf"(?<!\w)(?:{_phrases([h.capitalize() for h in spec.honorifics])})\.?[ \t]+$"
        ),
        builder_fields=frozenset(spec.domain_of_work.builder_fields),
        seller_fields=frozenset(spec.domain_of_work.seller_fields),
        # a sold thing later in the clause: "... Data Science with Python and DevOps programs"
        sold_after=re.compile(
            rf"[^.;:\n]{{0,80}}?{_START}(?:{_phrases(spec.domain_of_work.sold_things)}){_END}",
            re.IGNORECASE,
        )
        if spec.domain_of_work.sold_things
        else None,
        # up to two words on the same line, then the thing: "credit-risk and churn models",
        # "Loan Origination & Servicing Platform"
        thing_after=re.compile(
            rf"(?:[ \t-]+[\w'’&]+){{0,3}}?[ \t-]+(?:{_phrases(spec.domain_of_work.things)}){_END}",
            re.IGNORECASE,
        ),
        # the thing, "for", then at most one word: "software for medical devices"
        thing_before=re.compile(
            rf"{_START}(?:{_phrases(spec.domain_of_work.things)})[ \t]+for[ \t]+"
            r"(?:(?:the|a|an|our|their)[ \t]+)?(?:[\w'’-]+[ \t]+)?$",
            re.IGNORECASE,
        ),
    )


def default_cues_path() -> Path:
    """The cue file shipped in the package."""
    return Path(str(resources.files("talentrag.ingestion") / "data" / "context_cues.yaml"))


def load_cues(path: Path | None = None) -> ContextCues:
    """Read, validate and compile a cue file; ``CueFileError`` says what is wrong."""
    path = path or default_cues_path()
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CueFileError(f"cannot read context cues {path}: {exc}") from exc
    try:
        spec = CueFile.model_validate(raw)
    except ValidationError as exc:
        raise CueFileError(f"context cues {path} have the wrong shape:\n{exc}") from exc
    return compile_cues(spec)


@lru_cache(maxsize=1)
def default_cues() -> ContextCues:
    """The shipped cues, loaded once per process."""
    return load_cues()
