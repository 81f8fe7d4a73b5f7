"""Find skill mentions in document text and decide which ones the author holds, and how.

Matching is by token n-grams against the vocabulary (longest spelling wins, never
across a comma, a bracket or a line break other than a wrapped line's), so it is exact
about provenance: every mention has its character offsets and the sentence it stands in.

Three steps follow, all driven by the cue file (``data/context_cues.yaml``):

1. Short or everyday names (C, R, Go, Excel, IPS, and every ``exact_case`` spelling)
   count only in a skill context: a skills section, a list with other skills, or a
   phrase such as "programming in C". Abbreviations and names never count ("H.S.C.",
   "R&D", "C/O", "Go-live", "A C Patil College", "IPS Academy").
2. ConText: a trigger governs the skills in its scope (direction, reach, words, and
   clause terminators) and marks them negated, aspirational, held by someone else, a
   project's domain, or course-only.
3. Each held skill gets the strongest place it is shown: a role, a skills list, the
   summary, or a course.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rapidfuzz.distance import OSA

from talentrag.domain import (
    STRENGTH_RANK,
    Evidence,
    HeldSkill,
    MatchKind,
    RejectedMention,
    SkillStrength,
)
from talentrag.ingestion.context import NOT_HELD, ContextCues, Cue, CueCategory, default_cues
from talentrag.ingestion.experience_words import education_cue_pattern, experience_words
from talentrag.ingestion.intervals import merge_intervals
from talentrag.policy.credits import HELD_CONFIDENCE
from talentrag.policy.limits import MAX_EVIDENCE, MAX_EVIDENCE_CHARS
from talentrag.vocabulary.tokens import TOKEN, Token, tokenize
from talentrag.vocabulary.vocabulary import MISSPELLING_MIN_LETTERS, Surface, Vocabulary

# A spelling never spans these: "Java, Script" is not JavaScript, nor is a line break,
# but for a wrapped line (PDF text: "... rate loading, night\naudit.").
_HARD_GAP = re.compile(r"[,;:|\r•·()\[\]{}]|\n(?![ \t]*[a-z])")
# Punctuation that may sit between two skills of one list on a line.
_LIST_PUNCTUATION = frozenset(" \t,;/|·•&+()[]*–—-")
# Clause breaks; the cue file adds its terminator words ("but", "however", ...).
# A full stop ends a clause only when followed by a space ("express.js" does not).
# A line break followed by a lower-case word is a wrapped line (PDF text), not a break.
# A period closing a degree's abbreviation ("an M.Sc. in Transport Planning") ends no clause.
_ABBREVIATION_END = (
    r"(?<!\b[A-Z]\.[A-Za-z])(?<!\b[A-Z]\.[A-Za-z]{2})(?<!\b[A-Z]\.[A-Za-z]{3})(?<!\b[A-Z]\.[A-Za-z]{4})"
    r"(?<!\bPh\.D)"
)
# A line break ends nothing after a word that cannot end a clause: a wrapped line ("kept by
# the municipality's\nGIS team in ArcGIS", two-column PDF text).
_CONTINUING_WORDS = ["the", "a", "an", "by", "of", "to", "and", "or", "with", "for", "in",
                     "our", "their", "my", "its", "'s", "’s"]  # fmt: skip
_WRAPPED = "".join(rf"(?<!\b{word})" for word in _CONTINUING_WORDS)
_CLAUSE_PUNCTUATION = re.compile(rf"{_ABBREVIATION_END}[.!?](?=\s|$)|;|{_WRAPPED}\n(?!\s*[a-z])")
_SENTENCE_END = re.compile(rf"(?<=[.!?])\s+(?=[A-Z0-9\"'(])|{_WRAPPED}\n(?![ \t]*[a-z])")
# Short spellings: at most this many characters make a one-token name ambiguous.
_SHORT = 2
# An alias written as an acronym of at most this many letters (IPS, ECS) may be a name.
_ACRONYM = 4
_CUES_CHECKED = 8  # nearest cues tried per mention and direction: keeps analysis linear

_SECTION_STRENGTH = {
    "experience": SkillStrength.ROLE,
    "earlier_career": SkillStrength.ROLE,
    "projects": SkillStrength.ROLE,
    "skills": SkillStrength.SKILLS_LIST,
    "other": SkillStrength.SKILLS_LIST,
    "summary": SkillStrength.SUMMARY,
    "header": SkillStrength.SUMMARY,
    "education": SkillStrength.COURSE,
    "certifications": SkillStrength.COURSE,
}


class SectionLike(Protocol):
    """A span of a document under one heading (``cv_parser.Section``)."""

    kind: str
    start: int
    end: int

    @property
    def body(self) -> int:
        """Where the text after the heading starts (``start`` for a section without one)."""
        ...


@dataclass(frozen=True)
class Mention:
    """One vocabulary spelling found in the text, with its offsets and canonical skill.

    ``ambiguous`` spellings (short or everyday) need a skill context; ``as_written`` is
    False when an exact-case spelling was written in another case ("excel");
    ``needs_context`` spellings (everyday words such as "Nursing") count only in a
    skills section; ``in_field`` spellings ("sourcing") only in a CV of the skill's field.
    """

    skill: str
    start: int
    end: int
    surface: str
    is_alias: bool
    ambiguous: bool = False
    as_written: bool = True
    needs_context: bool = False
    in_field: bool = False


@dataclass
class SkillExtraction:
    """A document's skills split into held ones and rejected mentions (with reasons)."""

    held: list[HeldSkill]
    rejected: list[RejectedMention]
    positions: dict[str, list[int]] = field(default_factory=dict)
    """Held skill -> offsets of the mentions that made it held (an implied skill: those
    of the skills implying it); ``skill_depth`` reads them against the roles."""


# -- 1. candidates -------------------------------------------------------------------


def _candidates(
    text: str, vocabulary: Vocabulary, skip: Sequence[tuple[int, int]]
) -> tuple[list[Token], list[Mention]]:
    """Every vocabulary spelling (longest first) outside ``skip``, and the text's tokens."""
    tokens = tokenize(text)
    folded = [t.text.casefold() for t in tokens]
    reach = _reach(text, tokens, vocabulary.max_surface_tokens)
    skipped = _Spans(skip)
    found: list[Mention] = []
    placed: list[tuple[int, int]] = []  # each found mention's first token and width
    platform: tuple[tuple[str, ...], int] | None = None  # whose brackets are open, read to
    i = 0
    while i < len(tokens):
        match = _longest_match(text, tokens, folded, i, reach[i], vocabulary)
        if match is None and platform:
            platform = _still_open(text, platform, tokens[i].start)
            if platform:
                match = _qualified_match(tokens, folded, i, reach[i], vocabulary, platform[0])
        if match is None:
            match = _misspelt(tokens[i], folded[i], vocabulary)
        if match is None:
            i += 1
            continue
        mention, width = match
        if not skipped.contains(mention.start):
            found.append(mention)
            placed.append((i, width))
            opened = _OPEN_BRACKET.match(text, mention.end)
            if opened:
                platform = (tuple(folded[i : i + width]), opened.end())
        i += width
    elided = _elided(text, tokens, folded, placed, vocabulary)
    found += [m for m in elided if not skipped.contains(m.start)]
    return tokens, sorted(found, key=lambda m: m.start) if elided else found


def _misspelt(token: Token, word: str, vocabulary: Vocabulary) -> tuple[Mention, int] | None:
    """A long technology name written with one letter wrong, missing, extra or swapped
    ("Kubernates", "Datstage", "Bootstarp"): real resumes have typos. Never a word that is
    itself part of some spelling, and never one edit from two different skills."""
    if len(word) < MISSPELLING_MIN_LETTERS or not word.isalpha():
        return None
    if word in vocabulary.surface_words:
        return None
    near = {
        surface.skill: surface
        for surface in vocabulary.misspelling_targets.get(word[:2], ())
        if OSA.distance(word, surface.text.casefold(), score_cutoff=1) <= 1
    }
    if len(near) != 1:
        return None
    (surface,) = near.values()
    return Mention(surface.skill, token.start, token.end, token.text, True), 1


_COORDINATION = frozenset({"and", "or", "&"})
# Words that start a clause, not a list item: "in an emergency and I care" is no
# "emergency care".
_CLAUSE_OPENERS = frozenset(
    [
        "i",
        "we",
        "you",
        "he",
        "she",
        "they",
        "it",
        "this",
        "that",
        "a",
        "an",
        "the",
        "to",
        "my",
        "our",
    ]
)


def _elided(
    text: str,
    tokens: list[Token],
    folded: list[str],
    placed: list[tuple[int, int]],
    vocabulary: Vocabulary,
) -> list[Mention]:
    """Skills written with a shared word left out: "Email and SMS marketing" (Email
    Marketing), "unit and integration tests" (unit tests), "accounts payable and
    receivable" (accounts receivable). The mention is the one word written."""
    covered = {k for first, width in placed for k in range(first, first + width)}
    ending_at = {first + width: first for first, width in placed if width >= 2}

    def joined(left: int, right: int) -> bool:  # tokens separated by spaces only
        return not text[tokens[left].end : tokens[right].start].strip()

    found: list[Mention] = []
    for x, z in _coordinated(text, tokens, folded):
        # X and Y head: X takes Y's head ("Email and SMS marketing")
        opens_clause = folded[z] in _CLAUSE_OPENERS
        if x not in covered and not opens_clause and z + 1 < len(tokens) and joined(z, z + 1):
            for width in (1, 2):
                head = tuple(folded[z + 1 : z + 1 + width])
                mention = _elided_mention(vocabulary, (folded[x], *head), tokens[x])
                if mention:
                    found.append(mention)
                    covered.add(x)
                    break
        # modifier head and Z: Z takes the modifier ("accounts payable and receivable")
        first = ending_at.get(x + 1)
        if first is not None and z not in covered:
            mention = _elided_mention(vocabulary, (folded[first], folded[z]), tokens[z])
            if mention:
                found.append(mention)
                covered.add(z)
    return found


def _coordinated(text: str, tokens: list[Token], folded: list[str]) -> list[tuple[int, int]]:
    """Pairs of tokens (x, z) joined by "and", "or", "&" between spaces, or by a slash:
    "payable and receivable", "payable / receivable"."""
    pairs = []
    for k in range(len(tokens) - 1):
        gap = text[tokens[k].end : tokens[k + 1].start]
        if gap.strip() == "/":
            pairs.append((k, k + 1))
        elif (
            k > 0
            and folded[k] in _COORDINATION
            and not gap.strip()
            and not text[tokens[k - 1].end : tokens[k].start].strip()
        ):
            pairs.append((k - 1, k + 1))
    return pairs


def _elided_mention(vocabulary: Vocabulary, key: tuple[str, ...], written: Token) -> Mention | None:
    """A plain spelling (not exact-case, not an everyday word) for ``key``, as a mention."""
    surfaces = vocabulary.surfaces.get(key)
    if not surfaces or surfaces[0].exact_case or len(key[-1]) <= _SHORT:
        return None
    surface = surfaces[0]
    return Mention(
        surface.skill, written.start, written.end, surface.text, True, in_field=surface.in_field
    )


_OPEN_BRACKET = re.compile(r"[ \t]*\(")


def _with_phrases(
    text: str,
    mentions: list[Mention],
    candidates: list[Mention],
    vocabulary: Vocabulary,
    skip: Sequence[tuple[int, int]],
) -> list[Mention]:
    """Add the skills a phrase shows rather than names ("Leading a team of 6 engineers"
    is Leadership): the vocabulary's ``patterns``. The phrase is one mention, so cues
    govern it like any other ("never led a team") and its own words ("teams") are no
    cue; it ends where a skill inside it starts ("a team of 5 Kubernetes engineers").
    A phrase starting inside a spelling already found adds nothing."""
    pattern = vocabulary.phrase_pattern
    if pattern is None:
        return mentions
    taken = _Spans([(c.start, c.end) for c in candidates] + list(skip))
    starts = [m.start for m in mentions]
    phrases = []
    for match in pattern.finditer(text):
        group = match.lastgroup
        if group is None or taken.contains(match.start()):
            continue
        inner = bisect_left(starts, match.start())
        end = min(match.end(), starts[inner]) if inner < len(starts) else match.end()
        surface = text[match.start() : end].rstrip()
        skill = vocabulary.phrase_skills[group]
        phrases.append(Mention(skill, match.start(), match.start() + len(surface), surface, True))
    return sorted([*mentions, *phrases], key=lambda m: m.start) if phrases else mentions


def _still_open(
    text: str, platform: tuple[tuple[str, ...], int], position: int
) -> tuple[tuple[str, ...], int] | None:
    """The platform, read on to ``position``, while its brackets stay open on their line;
    None once they close. Each look reads on from the last, so a long text stays linear."""
    name, read_to = platform
    between = text[read_to:position]
    return None if ")" in between or "\n" in between else (name, position)


def _qualified_match(
    tokens: list[Token],
    folded: list[str],
    i: int,
    reach: int,
    vocabulary: Vocabulary,
    platform: tuple[str, ...],
) -> tuple[Mention, int] | None:
    """A platform's product named without the platform inside its brackets: "Lambda" in
    "AWS (EC2, Lambda)" is AWS Lambda (``Vocabulary.qualified_surfaces``). The platform
    is taken as written, or by its first or last word ("Amazon Web Services", "Microsoft
    Azure")."""
    written = {platform, platform[:1], platform[-1:]}
    for width in range(min(reach, len(tokens) - i), 0, -1):
        for prefix, surface in vocabulary.qualified_surfaces.get(tuple(folded[i : i + width]), ()):
            if prefix in written:
                start, end = tokens[i].start, tokens[i + width - 1].end
                return Mention(surface.skill, start, end, surface.text, True), width
    return None


def _reach(text: str, tokens: list[Token], longest: int) -> list[int]:
    """For each token, how many tokens a spelling starting there may cover (no hard gap)."""
    reach = [1] * len(tokens)
    for k in range(len(tokens) - 2, -1, -1):
        gap = text[tokens[k].end : tokens[k + 1].start + 1]  # with the next word's first letter
        if not _HARD_GAP.search(gap):
            reach[k] = min(longest, reach[k + 1] + 1)
    return reach


def _longest_match(
    text: str,
    tokens: list[Token],
    folded: list[str],
    i: int,
    reach: int,
    vocabulary: Vocabulary,
) -> tuple[Mention, int] | None:
    for width in range(min(reach, len(tokens) - i), 0, -1):
        key = tuple(folded[i : i + width])
        surfaces = vocabulary.surfaces.get(key)
        context_only = not surfaces
        surfaces = surfaces or vocabulary.context_surfaces.get(key)
        if not surfaces or _split_by_slash(text, tokens, folded, i, width, surfaces, vocabulary):
            continue
        written = [t.text for t in tokens[i : i + width]]
        surface = next(
            (s for s in surfaces if [t.text for t in tokenize(s.text)] == written), surfaces[0]
        )
        if _plural_of_shorter_acronym(surface.text, written[-1]):
            continue
        as_written = not surface.exact_case or [t.text for t in tokenize(surface.text)] == written
        mention = Mention(
            surface.skill,
            tokens[i].start,
            tokens[i + width - 1].end,
            surface.text,
            surface.is_alias,
            ambiguous=context_only or _ambiguous(surface, key),
            as_written=as_written,
            needs_context=context_only,
            in_field=surface.in_field,
        )
        return mention, width
    return None


def _plural_of_shorter_acronym(spelling: str, written: str) -> bool:
    """ "ACLs" is the plural of ACL, not ACLS (Advanced Cardiac Life Support): an acronym
    ending in S matches a word whose S alone is lower case only as that plural."""
    last = (spelling.split() or [spelling])[-1]
    return (
        len(last) >= 3
        and last.isupper()
        and last.endswith("S")
        and written.endswith("s")
        and written[:-1].isupper()
        and len(written) == len(last)
    )


def _split_by_slash(
    text: str,
    tokens: list[Token],
    folded: list[str],
    i: int,
    width: int,
    surfaces: list[Surface],
    vocabulary: Vocabulary,
) -> bool:
    """A slash in the text where the spelling has none parts two items when each side is
    a spelling of its own: "Excel / VBA" and "Excel/VBA" are Excel and VBA, not the alias
    "Excel VBA"; "Lock-out/tag-out" and "CI/CD" stay whole."""
    if width == 1 or any("/" in s.text for s in surfaces):
        return False
    for j in range(i, i + width - 1):
        if "/" in text[tokens[j].end : tokens[j + 1].start]:
            left, right = tuple(folded[i : j + 1]), tuple(folded[j + 1 : i + width])
            return vocabulary.spells_a_skill(left) and vocabulary.spells_a_skill(right)
    return False


def _ambiguous(surface: Surface, key: tuple[str, ...]) -> bool:
    """Short names and exact-case (everyday-word) names need a skill context."""
    return surface.exact_case or (len(key) == 1 and len(key[0]) <= _SHORT)


class _FieldJudge:
    """What a CV's own profession changes about a mention (``foreign``)."""

    def __init__(self, vocabulary: Vocabulary, home_field: str | None):
        self.vocabulary = vocabulary
        self.home_field = home_field
        words = experience_words()
        self.related = [*words.related_fields, *words.shared_skill_fields]

    def foreign(self, mention: Mention) -> bool:
        """An acronym alias of another profession's skill needs a skill context: in an HR
        officer's "administration on JPA" (the army's Joint Personnel Administration)
        it is no Java persistence API."""
        if self.home_field is None or not _acronym(mention):
            return False
        field = self.vocabulary.field_of_skill(mention.skill)
        if field in (self.home_field, "general"):
            return False
        return not any({field, self.home_field} <= set(group) for group in self.related)

    def same_field(self, mention: Mention, other: Mention) -> bool:
        """Whether two skills belong to one profession."""
        field_of = self.vocabulary.field_of_skill
        return field_of(mention.skill) == field_of(other.skill)


def _acronym(mention: Mention) -> bool:
    """An alias written as a short acronym (IPS, ECS): it may be a company's initials."""
    letters = re.sub(r"[^\w]", "", mention.surface)  # "W.B", "W&B"
    return mention.is_alias and len(letters) <= _ACRONYM and letters.isalpha() and letters.isupper()


class _Spans:
    """Character spans (merged) with an O(log n) membership test."""

    def __init__(self, spans: Sequence[tuple[int, int]]):
        merged = merge_intervals(list(spans))
        self.starts = [s for s, _ in merged]
        self.ends = [e for _, e in merged]

    def contains(self, position: int) -> bool:
        index = bisect_right(self.starts, position) - 1
        return index >= 0 and position < self.ends[index]


# -- 2. skill context for ambiguous names ------------------------------------------------


class _Sections:
    """Section kinds by offset (binary search)."""

    def __init__(self, sections: Sequence[SectionLike] | None):
        ordered = sorted(sections or [], key=lambda s: s.start)
        self.starts = [s.start for s in ordered]
        self.items = ordered
        kinds = {s.kind for s in ordered}
        self.headed = bool(kinds - {"header"})

    def at(self, position: int) -> SectionLike | None:
        index = bisect_right(self.starts, position) - 1
        if index >= 0 and position < self.items[index].end:
            return self.items[index]
        return None

    def in_heading(self, position: int) -> bool:
        """True inside a section's heading line ("SOFTWARE", "Teaching")."""
        section = self.at(position)
        return section is not None and position < section.body

    def kind_at(self, position: int) -> str | None:
        section = self.at(position)
        return section.kind if section else None

    def lists_skills(self, position: int) -> bool:
        """A skills section; a languages section is one (``experience.yaml`` headings)."""
        return self.kind_at(position) == "skills"


_EXPANSION_WORD = re.compile(r"[A-Za-z][\w'’-]*")
_LINKING_WORDS = frozenset({"of", "for", "and", "the", "in", "on", "de", "&"})


def _spelled_out_otherwise(
    text: str, mention: Mention, vocabulary: Vocabulary, org_word: re.Pattern[str]
) -> str | None:
    """Why an acronym in brackets right after the words it stands for is no skill, when
    they name another skill or an organisation: "Crew Resource Management (CRM)",
    "International Public School (IPS)" (not "Amazon Web Services (AWS)")."""
    if not _acronym(mention):
        return None
    before = text[max(0, mention.start - 100) : mention.start].rstrip(" \t")
    if not before.endswith("("):
        return None
    words = _EXPANSION_WORD.findall(before.split("\n")[-1])
    letters = re.sub(r"[^A-Za-z]", "", mention.surface).casefold()
    significant = [i for i, w in enumerate(words) if w.casefold() not in _LINKING_WORDS]
    if len(significant) < len(letters):
        return None
    first = significant[-len(letters)]
    initials = "".join(words[i][0] for i in significant[-len(letters) :]).casefold()
    if initials != letters:
        return None
    expansion = " ".join(words[first:])
    surface = vocabulary.lookup(expansion)
    if surface is not None:  # the words name a skill: the acronym is that one
        return None if surface.skill == mention.skill else "abbreviation"
    if org_word.search(expansion):  # an organisation's initials
        return "employer_or_school_name"
    return None


def _abbreviation(text: str, start: int, end: int) -> bool:
    """Initials and joined abbreviations: H.S.C., R. K., R&D, C/O, Go-live, A C Patil,
    HVAC/R."""
    after, before = text[end : end + 3], text[max(0, start - 3) : start]
    if after[:1] == "." and (
        after[1:2].isalpha() or (end - start == 1 and not _ends_a_line_of_words(text, start, end))
    ):
        return True
    if before[-1:] == "." and before[-2:-1].isalpha():
        return True
    if (after[:1] == "&" and after[1:2].isalpha()) or (
        before[-1:] == "&" and before[-2:-1].isalpha()
    ):
        return True
    if re.match(r"/[A-Za-z](?![\w+#])", after) or re.search(r"(?<![\w+#])[A-Za-z]/$", before):
        return True
    if end - start == 1 and re.search(r"(?<![\w/])[A-Z]{3,}/$", text[max(0, start - 8) : start]):
        return True  # "HVAC/R" (refrigeration), not "Python/R"
    if (after[:1] == "-" and after[1:2].isalpha()) or (
        before[-1:] == "-" and before[-2:-1].isalpha()
    ):
        return True
    if end - start == 1:  # a run of single capitals: "A C Patil", "R K Electricals"
        return bool(
            re.search(r"(?:^|[^\w])[A-Z] $", text[max(0, start - 3) : start])
            or re.match(r" [A-Z](?!\w)", after)
        )
    return False


def _ends_a_line_of_words(text: str, start: int, end: int) -> bool:
    """A single letter after a lower-case word, its dot ending the line: "Wrote the
    drivers in C." is the language, "Shri R. Kumar" an initial."""
    return bool(
        re.match(r"\.[ \t]*(?:\r?\n|$)", text[end : end + 4])
        and re.search(r"[a-z][ \t]$", text[max(0, start - 2) : start])
    )


_WEB_ADDRESS = re.compile(r"\.(?:com|org|net|io|dev|ai|co|me|app)\b|\.[a-z]{2,6}/", re.IGNORECASE)


def _web_address(text: str, mention: Mention) -> bool:
    """A host name is no skill: "github.com/jane", "jane.dev"."""
    return (
        bool(_WEB_ADDRESS.match(text, mention.end))
        or text[mention.start - 1 : mention.start] == "@"
    )


def _line_start(text: str, position: int, reach: int = 200) -> int:
    """Where ``position``'s line starts, looking back at most ``reach`` characters: every
    look-back is bounded, so a 200 KB line without breaks stays linear."""
    window = max(0, position - reach)
    return text.rfind("\n", window, position) + 1 or window


_DEGREE_SIGNS = frozenset("°º˚")

# Sections whose every mention is no skill of the author's, and why.
_SECTION_VETO: dict[str | None, str] = {
    "references": "other_person",  # a referee's name and title: "Ruby Chen, Head of Sales"
    "interests": "hobby",  # "HOBBIES / pottery, sailing"
}


# A word and a hyphen right before a lower-case spelling: the spelling is the tail of a
# compound ("roll-rate analysis" is no Rate Analysis, "after-sales" no Sales).
_COMPOUND_HEAD = re.compile(r"(?<![\w-])[^\W\d_]{2,}-$")


def _veto(
    text: str, mention: Mention, sections: _Sections, cues: ContextCues, vocabulary: Vocabulary
) -> str | None:
    """Why a mention can never be a skill here, if it cannot: a web address, a section's
    heading, an organisation's name; for a short or everyday name, also an abbreviation, or
    an acronym spelled out just before as something else ("Crew Resource Management (CRM)")."""
    if _web_address(text, mention):
        return "web_address"
    if _COMPOUND_HEAD.search(text, max(0, mention.start - 40), mention.start) and (
        text[mention.start].islower()
    ):
        return "part_of_compound"  # "roll-rate analysis", "Techno-commercial negotiation"
    if sections.in_heading(mention.start):
        return "no_skill_context"  # "SOFTWARE" heads a list; it is no item of it
    if section_veto := _SECTION_VETO.get(sections.kind_at(mention.start)):
        return section_veto
    before = text[_line_start(text, mention.start, 80) : mention.start]
    if text[mention.start].isupper() and cues.honorific_before.search(before[-12:]):
        return "other_person"  # a person's name: "Reporting to Ms. Ruby D'Costa"
    if text[mention.start].isupper() and (
        cues.org_before.search(before)
        or cues.name_after.match(text, mention.end)
        or (cues.suffix_after is not None and cues.suffix_after.match(text, mention.end))
    ):
        return "employer_or_school_name"
    if not (mention.ambiguous or _acronym(mention)):
        return None
    if mention.surface.casefold() in cues.org_words or cues.org_after.match(text, mention.end):
        return "employer_or_school_name"
    if _abbreviation(text, mention.start, mention.end):
        return "abbreviation"
    if len(mention.surface) == 1 and cues.grade_before.search(before[-20:]):
        return "abbreviation"  # a grade or class: "CPR Level C", "Licences: C (car)"
    if len(mention.surface) == 1 and cues.letter_after.match(text, mention.end):
        return "abbreviation"  # a musical key, a case name: "scales in C major", "R v Smith"
    if len(mention.surface) == 1 and before[-1:] in _DEGREE_SIGNS:
        return "abbreviation"  # a temperature: "kept at 21 °C"
    return _spelled_out_otherwise(text, mention, vocabulary, cues.org_word)


def _field_screen(
    text: str,
    mentions: list[Mention],
    sections: _Sections,
    cues: ContextCues,
    vocabulary: Vocabulary,
    home_field: str | None,
) -> tuple[list[Mention], list[tuple[Mention, str]]]:
    """Split off mentions of skills outside the holder's field that show no skill: a
    spelling that names the skill only in its own profession ("sourcing" is a recruiter's
    Candidate Sourcing, a buyer's purchasing), the subject of a degree (an SAP consultant's
    "B.E. (Mechanical Engineering)"; a civil engineer's "B.E. (Civil Engineering)" stays,
    as a course), and the domain of a built thing (a developer's "billing modules")."""
    kept: list[Mention] = []
    subjects: list[tuple[Mention, str]] = []
    for mention in mentions:
        field = vocabulary.field_of_skill(mention.skill)
        if field == home_field:
            kept.append(mention)
        elif mention.in_field:
            subjects.append((mention, "other_field"))
        elif home_field is None:
            kept.append(mention)
        elif sections.kind_at(mention.start) == "education" and _degree_subject(
            text, mention, cues
        ):
            subjects.append((mention, "degree_subject"))
        elif (
            home_field in cues.builder_fields
            and field not in _MEANS_OF_WORK
            and not sections.lists_skills(mention.start)
            and _domain_of_work(text, mention, cues)
        ) or (
            home_field in cues.seller_fields
            and not sections.lists_skills(mention.start)
            and _sold(text, mention, cues)
        ):
            subjects.append((mention, str(CueCategory.PROJECT_DOMAIN)))
        else:
            kept.append(mention)
    return kept, subjects


_MEANS_OF_WORK = frozenset({"technology", "general"})  # what anyone builds with, not for


def _domain_of_work(text: str, mention: Mention, cues: ContextCues) -> bool:
    """True when a skill written in lower case names what a built thing was for:
    "billing modules", "Real estate listing portal" (capitalised only as a line's start),
    "software for medical devices"; or when it starts a built thing's capitalised name:
    "Project 3: Loan Origination Platform"."""
    written = text[mention.start : mention.end]
    line_start = _line_start(text, mention.start)
    body = written[1:] if _first_on_line(text, mention.start) else written
    thing = cues.thing_after.match(text, mention.end)
    if any(ch.isupper() for ch in body):
        return thing is not None and re.split(r"[ \t-]+", thing.group())[-1][:1].isupper()
    before = text[max(line_start, mention.start - 80) : mention.start]
    return bool(thing or cues.thing_before.search(before))


_OWNER = re.compile(r"(?<!\w)(?:our|its|their|the company['’]s)(?!\w)", re.IGNORECASE)


def _sold(text: str, mention: Mention, cues: ContextCues) -> bool:
    """True when a seller's sentence names the skill as what their employer sells: "counsel
    students on our Full Stack Development, Data Science with Python and DevOps programs"."""
    if cues.sold_after is None or not cues.sold_after.match(text, mention.end):
        return False
    clause_start = max(
        text.rfind(stop, max(0, mention.start - 120), mention.start) for stop in ".;:\n"
    )
    return _OWNER.search(text, clause_start + 1, mention.start) is not None


def _degree_subject(text: str, mention: Mention, cues: ContextCues) -> bool:
    """True when the mention's line names a degree or a school and nothing studied
    ("coursework", "thesis") stands before the mention on it."""
    line_start = _line_start(text, mention.start)
    line_end = text.find("\n", mention.end, mention.end + 200)
    line = text[line_start : line_end if line_end != -1 else mention.end + 200]
    if cues.study_word.search(text, line_start, mention.start):
        return False
    return bool(education_cue_pattern().search(line) or cues.org_word.search(line))


def _list_gap(gap: str, cues: ContextCues) -> bool:
    """True when ``gap`` only separates items of one list on one line."""
    if "\n" in gap or len(gap) > 40:
        return False
    words = TOKEN.findall(gap)
    if any(t.casefold() not in cues.connectors for t in words):
        return False
    rest = TOKEN.sub("", gap)
    # "EKS node groups" is no list: a list needs a separator, not just a space
    return (bool(words) or bool(rest.strip())) and all(ch in _LIST_PUNCTUATION for ch in rest)


def _screen(
    text: str,
    candidates: list[Mention],
    sections: _Sections,
    cues: ContextCues,
    judge: _FieldJudge,
) -> tuple[list[Mention], list[tuple[Mention, str]]]:
    """Keep the mentions that are skills here; reject the rest with a reason."""
    vetoes = [_veto(text, c, sections, cues, judge.vocabulary) for c in candidates]
    accepted: list[Mention] = []
    rejected: list[tuple[Mention, str]] = []
    for index, mention in enumerate(candidates):
        if not (mention.ambiguous or judge.foreign(mention)) and vetoes[index] is None:
            accepted.append(mention)
            continue
        reason = vetoes[index] or _context_problem(
            text, candidates, vetoes, index, sections, cues, judge
        )
        if reason is None:
            accepted.append(mention)
        elif mention.as_written and not mention.needs_context:
            rejected.append((mention, reason))
    return accepted, rejected


def _context_problem(
    text: str,
    candidates: list[Mention],
    vetoes: list[str | None],
    index: int,
    sections: _Sections,
    cues: ContextCues,
    judge: _FieldJudge,
) -> str | None:
    """None when an ambiguous mention stands in a skill context, else the reason."""
    mention = candidates[index]
    in_skills = sections.lists_skills(mention.start)
    # a credential's acronym in a list of certifications is one: "OSHA 30; TWIC", "CKA"
    listed = in_skills or sections.kind_at(mention.start) == "certifications"
    if mention.needs_context:
        if not in_skills:
            return "no_skill_context"
        if cues.proficiency_after.match(text, mention.end):  # "English: C2", "German  B1"
            return None
        whole = _whole_item(text, mention.start, mention.end)
        labelled = _in_label(text, mention.end) or _row_label(text, mention.start, mention.end)
        return None if whole and not labelled else "no_skill_context"
    if not mention.as_written and len(mention.surface) <= _SHORT:
        return "no_skill_context"
    if _bracketed(text, mention.start) and cues.proficiency_after.fullmatch(mention.surface):
        return "no_skill_context"  # a level: "Arabic (Native or Bilingual)"
    # another case than the vocabulary's counts in a skills list only as a whole item:
    # "Word, excel" is Excel; "Less than 1 year" is no LESS
    if listed and (mention.as_written or _whole_item(text, mention.start, mention.end)):
        return None
    if not mention.as_written and _inner_capital(mention.surface):
        return "no_skill_context"  # "teaching safe lockout/tagout" is no SAFe
    if not mention.as_written and _COUNTED.search(text, max(0, mention.start - 12), mention.start):
        return "no_skill_context"  # "Oracle RAC 2 node" counts nodes: no Node.js
    # another case beside a skill counts when joined to it ("Recruitment and onboarding",
    # "in excel and Power Query") or as a whole item, not as a longer item's tail
    # ("booked for spring · Working at height" is no Spring)
    joined = not (mention.as_written or _whole_item(text, mention.start, mention.end))
    if _listed_with_skills(text, candidates, vetoes, index, cues, judge, joined):
        return None
    window = text[_line_start(text, mention.start, 80) : mention.start]
    if cues.context_before.search(window) or cues.context_after.match(text, mention.end):
        return None
    if mention.as_written and cues.loose_context_before.search(window):
        return None
    return "no_skill_context"


_COUNTED = re.compile(r"(?<![\w.])\d+[ \t-]*$")  # a number right before a word counts things
_ITEM_SEPARATOR = re.compile(r"[,;|•·*▪●■➢]")
# "(learning)" after a skill is no item of its own; "English (C1)" is one
_ITEM_EDGE = re.compile(r"[,;|•·*▪●■➢:/)\[\]\n–—]")
_ITEM_EDGE_AFTER = re.compile(r"[,;|•·*▪●■➢:/(\[\]\n–—]")


def _bracketed(text: str, position: int) -> bool:
    """True when ``position`` is inside an open bracket on its line."""
    return _open_bracket(text, position) != -1


def _open_bracket(text: str, position: int) -> int:
    """Where the bracket still open at ``position`` on its line opened, or -1."""
    line = _line_start(text, position)
    opened = text.rfind("(", line, position)
    return opened if opened > text.rfind(")", line, position) else -1


def _whole_item(text: str, start: int, end: int) -> bool:
    """True when the mention is a whole list item ("Sales, Accounting"), not a word of a
    longer phrase ("Business case development", "Core Data")."""
    before = text[max(0, start - 40) : start]
    edges = list(_ITEM_EDGE.finditer(before))
    lead = before[edges[-1].end() :] if edges else (before if start <= 40 else "x")
    after = text[end : end + 40]
    edge = _ITEM_EDGE_AFTER.search(after)
    tail = after[: edge.start()] if edge else (after if end + 40 >= len(text) else "x")
    return not TOKEN.search(lead) and not TOKEN.search(tail)


def _in_label(text: str, position: int) -> bool:
    """True when ``position`` is inside a line's label ("Digital skills: Word, Excel")."""
    line_end = text.find("\n", position)
    rest = text[position : line_end if line_end != -1 else len(text)]
    item = re.split(r"[,;|•·]", rest, maxsplit=1)[0]
    return ":" in item


_ROW_LABEL_AFTER = re.compile(r"[ \t]*\|[^\n|]*[,;]")


def _row_label(text: str, start: int, end: int) -> bool:
    """True when the mention is the first cell of a table row whose next cell is a list
    ("Technology | Google Classroom; Microsoft Teams"): the row's label, not an item."""
    return _first_on_line(text, start) and _ROW_LABEL_AFTER.match(text, end) is not None


def _first_on_line(text: str, position: int) -> bool:
    """Whether only spaces and bullets stand before ``position`` on its line."""
    return not text[_line_start(text, position) : position].strip(" \t-•*·▪–—>")


def _inner_capital(spelling: str) -> bool:
    """A capital after the first letter of a word ("SAFe", "iOS"): a spelling that only
    its own case makes a name."""
    return any(
        re.search(r"\w[a-z]*[A-Z]", word) and not word.isupper() for word in spelling.split()
    )


def _listed_with_skills(
    text: str,
    candidates: list[Mention],
    vetoes: list[str | None],
    index: int,
    cues: ContextCues,
    judge: _FieldJudge,
    joined: bool = False,
) -> bool:
    """True when a neighbour in the same list is a skill; a one- or two-letter name needs
    one of its own field ("C/C++", not the R of a technician's "HVAC/R"). ``joined``: by a
    connector or a comma, slash or ampersand, not only an item separator ("·", "|")."""
    mention = candidates[index]
    for other in (index - 1, index + 1):
        if not 0 <= other < len(candidates) or vetoes[other]:
            continue
        neighbour = candidates[other]
        if neighbour.needs_context or (neighbour.ambiguous and not neighbour.as_written):
            continue
        if len(mention.surface) <= _SHORT and not judge.same_field(mention, neighbour):
            continue
        left, right = (neighbour, mention) if other < index else (mention, neighbour)
        gap = text[left.end : right.start]
        if _list_gap(gap, cues) and (not joined or _joining(gap, cues)):
            return True
    return False


def _joining(gap: str, cues: ContextCues) -> bool:
    """A list gap that joins two items into one phrase: "and", "or", ",", "/", "&"."""
    return any(ch in ",/&" for ch in gap) or any(
        t.casefold() in cues.connectors for t in TOKEN.findall(gap)
    )


def find_candidates(
    text: str, vocabulary: Vocabulary, skip: Sequence[tuple[int, int]] = ()
) -> list[Mention]:
    """Every vocabulary spelling in ``text``, longest first, before any screening: for
    readers of texts other than CVs (a recruiter's query) that judge context themselves."""
    return _candidates(text, vocabulary, skip)[1]


def find_mentions(
    text: str,
    vocabulary: Vocabulary,
    skip: Sequence[tuple[int, int]] = (),
    sections: Sequence[SectionLike] | None = None,
) -> list[Mention]:
    """Every spelling in ``text`` that is a skill in its place (context not yet judged)."""
    _, candidates = _candidates(text, vocabulary, skip)
    judge = _FieldJudge(vocabulary, None)
    accepted, _ = _screen(text, candidates, _Sections(sections), default_cues(), judge)
    return accepted


# -- 3. ConText: what each mention means -------------------------------------------------


class _Sentences:
    """A text's sentence and list-line breaks, found once; spans around any offset."""

    def __init__(self, text: str):
        self.text = text
        breaks = list(_SENTENCE_END.finditer(text))
        self.starts = [m.start() for m in breaks]
        self.ends = [m.end() for m in breaks]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The sentence (or list line) around a span, stripped of bullets and spaces."""
        before = bisect_right(self.ends, start)
        left = self.ends[before - 1] if before else 0
        after = bisect_left(self.starts, end)
        right = self.starts[after] if after < len(self.starts) else len(self.text)
        while left < right and self.text[left] in " \t-*•·>#|":
            left += 1
        while right > left and self.text[right - 1] in " \t":
            right -= 1
        return left, right


class _Document:
    """Everything the context decision needs, computed once per document.

    Clause breaks, cues and the runs of listed skills are found in one pass each, so
    deciding every mention costs a few binary searches: analysis stays linear in the
    text, however many skills a CV lists.
    """

    def __init__(self, text: str, mentions: list[Mention], tokens: list[Token], cues: ContextCues):
        self.text = text
        self.mentions = mentions
        self.mention_starts = [m.start for m in mentions]
        self.mention_ends = [m.end for m in mentions]
        self.token_starts = [t.start for t in tokens]
        self.sentences = _Sentences(text)
        found = self._usable(cues.find(text))
        in_cue = _Spans([(c.start, c.end) for c in found])  # "clients using" ends nothing
        clauses = sorted(
            [m.span() for m in _CLAUSE_PUNCTUATION.finditer(text)]
            + [m.span() for m in cues.terminator.finditer(text) if not in_cue.contains(m.start())]
        )
        self.clause_starts = [s for s, _ in clauses]
        self.clause_ends = [e for _, e in clauses]
        self.forward = [c for c in found if c.direction == "forward"]
        self.forward_ends = [c.end for c in self.forward]
        self.backward = sorted(
            (c for c in found if c.direction == "backward"), key=lambda c: c.start
        )
        self.backward_starts = [c.start for c in self.backward]
        self.team_names = sorted(
            (c for c in found if c.category is CueCategory.OTHER_PERSON), key=lambda c: c.start
        )
        self.team_name_starts = [c.start for c in self.team_names]
        self.run_start, self.run_end = self._list_runs(cues)

    def _usable(self, cues: list[Cue]) -> list[Cue]:
        """Cues clipped to the text outside mentions ("learning" in "Machine Learning" is
        no cue); a forward cue closing a bracket ("Rust (learning)") governs nothing after."""
        usable = []
        for cue in cues:
            start, end = cue.start, cue.end
            index = bisect_right(self.mention_starts, start) - 1
            if index >= 0 and start < self.mention_ends[index]:
                start = self.mention_ends[index]
            index = bisect_right(self.mention_starts, end - 1) - 1
            if (
                index >= 0
                and self.mention_starts[index] >= start
                and end < self.mention_ends[index]
            ):
                end = self.mention_starts[index]
            if end <= start:
                continue
            if cue.direction == "forward" and self.text[end : end + 3].lstrip()[:1] in (")", "]"):
                continue
            usable.append(Cue(cue.category, cue.direction, cue.reach, cue.max_tokens, start, end))
        return usable

    def _list_runs(self, cues: ContextCues) -> tuple[list[int], list[int]]:
        """For each mention, the first and last mention of the list it stands in."""
        starts: list[int] = []
        for index, mention in enumerate(self.mentions):
            joined = index and _list_gap(
                self.text[self.mentions[index - 1].end : mention.start], cues
            )
            starts.append(starts[-1] if joined else index)
        ends = [0] * len(self.mentions)
        for index in range(len(self.mentions) - 1, -1, -1):
            joined = index + 1 < len(self.mentions) and starts[index + 1] == starts[index]
            ends[index] = ends[index + 1] if joined else index
        return starts, ends

    def words(self, start: int, end: int) -> int:
        """Tokens starting in ``[start, end)``."""
        return bisect_left(self.token_starts, end) - bisect_left(self.token_starts, start)

    def clause_bounds(self, start: int, end: int) -> tuple[int, int]:
        """The clause around a span: from the last break before it to the next after it."""
        index = bisect_right(self.clause_ends, start) - 1
        left = self.clause_ends[index] if index >= 0 else 0
        index = bisect_left(self.clause_starts, end)
        right = self.clause_starts[index] if index < len(self.clause_starts) else len(self.text)
        return left, right

    def sentence_span(self, start: int, end: int) -> tuple[int, int]:
        """The sentence (or list line) around a span, stripped of bullets and spaces."""
        return self.sentences.span(start, end)

    def governing(self, index: int) -> tuple[Cue, int] | None:
        """The cue that governs a mention, and how many words away it stands."""
        mention = self.mentions[index]
        enclosing = self._enclosing_other_person(mention)
        if enclosing is not None:
            return enclosing, 0
        left, right = self.clause_bounds(mention.start, mention.end)
        found = [f for f in (self._forward(index, left), self._backward(index, right)) if f]
        if not found:
            return None
        return min(found, key=lambda f: (f[0].category not in NOT_HELD, f[1]))

    def _enclosing_other_person(self, mention: Mention) -> Cue | None:
        """A cue naming other people with the skill inside it: "by the data engineering
        team", "the QA automation team did": the skill is the team's, not the author's."""
        position = bisect_left(self.team_name_starts, mention.start)
        for cue in self.team_names[max(0, position - _CUES_CHECKED) : position][::-1]:
            if cue.end >= mention.end:  # a longer cue may start before a shorter one inside it
                return cue
        return None

    def _forward(self, index: int, clause_start: int) -> tuple[Cue, int] | None:
        """The nearest cue before the mention that reaches it; a course cue gives way to a
        farther cue that says the skill is not held ("Planning to enrol for the Diploma in
        Arbitration")."""
        mention = self.mentions[index]
        position = bisect_right(self.forward_ends, mention.start) - 1
        nearest: tuple[Cue, int] | None = None
        for cue in self.forward[max(0, position - _CUES_CHECKED + 1) : position + 1][::-1]:
            if cue.start < clause_start and cue.reach != "line":
                continue
            distance = self._forward_distance(cue, index)
            if distance is not None:
                if cue.category in NOT_HELD:
                    return cue, distance
                nearest = nearest or (cue, distance)
        return nearest

    def _forward_distance(self, cue: Cue, index: int) -> int | None:
        mention = self.mentions[index]
        if self._closed_bracket(cue, mention.start):
            return None
        distance = self.words(cue.end, mention.start)
        if cue.reach == "line":  # a label over its line: "Not my area: Rust; iOS/Swift"
            same_line = "\n" not in self.text[cue.end : mention.start]
            return distance if same_line and distance <= cue.max_tokens else None
        first = bisect_left(self.mention_starts, cue.end, 0, index)
        if first == index or (cue.reach == "clause" and distance <= cue.max_tokens):
            return distance if distance <= cue.max_tokens else None
        # the list the cue reaches is governed whole, under "clause" as under "first"
        lead = self.words(cue.end, self.mentions[first].start)
        if cue.reach in ("first", "clause") and lead <= cue.max_tokens:
            return lead if self.run_start[index] <= first else None
        return None

    def _other_item(self, cue: Cue, mention: Mention) -> bool:
        """A cue in brackets qualifies the list item the brackets follow ("Power BI (basic),
        Salesforce CRM (as sponsor; I do not administer it)"): not an item before it."""
        opened = _open_bracket(self.text, cue.start)
        if opened == -1 or opened < mention.end:
            return False
        return _ITEM_SEPARATOR.search(self.text, mention.end, opened) is not None

    def _closed_bracket(self, cue: Cue, position: int) -> bool:
        """A cue inside brackets ("Docker (coursework only), React") ends with them."""
        return _bracketed(self.text, cue.start) and self.text.find(")", cue.end, position) != -1

    def _backward(self, index: int, clause_end: int) -> tuple[Cue, int] | None:
        mention = self.mentions[index]
        position = bisect_left(self.backward_starts, mention.end)
        for cue in self.backward[position : position + _CUES_CHECKED]:
            if cue.start > clause_end:
                break
            distance = self._backward_distance(cue, index)
            if distance is not None:
                return cue, distance
        return None

    def _backward_distance(self, cue: Cue, index: int) -> int | None:
        mention = self.mentions[index]
        if self._other_item(cue, mention):
            return None
        distance = self.words(mention.end, cue.start)
        if cue.reach == "item":  # "Docker / MLOps - no exposure yet", not "Git, Docker - ..."
            if _ITEM_SEPARATOR.search(self.text, mention.end, cue.start) is not None:
                return None
            return distance if distance <= cue.max_tokens else None
        last = bisect_right(self.mention_ends, cue.start, index) - 1
        if last == index or (cue.reach == "clause" and distance <= cue.max_tokens):
            return distance if distance <= cue.max_tokens else None
        # the list the cue reaches is governed whole, under "clause" as under "first"
        tail = self.words(self.mentions[last].end, cue.start)
        if cue.reach in ("first", "clause") and tail <= cue.max_tokens:
            return tail if self.run_end[index] >= last else None
        return None


def sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or list line) around a span of ``text`` (one-off use; see ``_Document``)."""
    return _Sentences(text).span(start, end)


def evidence_span(
    text: str, mention: tuple[int, int], sentence: tuple[int, int]
) -> tuple[int, int]:
    """The mention's sentence, cut to at most ``MAX_EVIDENCE_CHARS`` around it at word breaks."""
    left, right = sentence
    if right - left <= MAX_EVIDENCE_CHARS:
        return left, right
    start, end = mention
    room = max(0, MAX_EVIDENCE_CHARS - (end - start))
    left = max(left, start - room // 3)
    right = min(right, end + room - (start - left))
    if left < start and not text[left - 1 : left].isspace():
        cut = text.find(" ", left, start)
        left = cut + 1 if cut != -1 else start
    if right > end and not text[right : right + 1].isspace():
        cut = text.rfind(" ", end, right)
        right = cut if cut != -1 else end
    return left, right


# -- 4. held skills, strengths, rejected mentions ------------------------------------------


def _stated_use(document: _Document, mention: Mention, cues: ContextCues) -> bool:
    """A sentence in a skills list that says the author uses the skill ("I write all my
    analysis code in R", "Built the nightly ETL in Airflow") shows it used, not listed."""
    if cues.use_statement is None:
        return False
    start, _ = document.sentence_span(mention.start, mention.end)
    return start < mention.start and cues.use_statement.match(document.text, start) is not None


def _strength(sections: _Sections, position: int, course: bool) -> SkillStrength:
    if course:
        return SkillStrength.COURSE
    kind = sections.kind_at(position)
    if kind is None or (kind == "header" and not sections.headed):
        return SkillStrength.ROLE  # no headings: nothing says it is less than a role
    return _SECTION_STRENGTH.get(kind, SkillStrength.SKILLS_LIST)


def extract_skills(
    text: str,
    vocabulary: Vocabulary,
    source_file: str,
    skip: Sequence[tuple[int, int]] = (),
    sections: Sequence[SectionLike] | None = None,
    home_field: str | None = None,
) -> SkillExtraction:
    """Held skills with evidence and strength (explicit, then implied), and the rejected
    mentions with their reasons. ``sections`` (``cv_parser.split_sections``) decide the
    strengths and which lists are skills sections; without them, headings are found here.
    ``home_field``, a CV's current profession, makes degree subjects outside it no skills."""
    if sections is None:
        from talentrag.ingestion.cv_parser import split_sections  # cv_parser imports this module

        sections = split_sections(text)
    cues = default_cues()
    located = _Sections(sections)
    tokens, candidates = _candidates(text, vocabulary, skip)
    mentions, screened_out = _screen(
        text, candidates, located, cues, _FieldJudge(vocabulary, home_field)
    )
    mentions = _with_phrases(text, mentions, candidates, vocabulary, skip)
    mentions, off_field = _field_screen(text, mentions, located, cues, vocabulary, home_field)
    screened_out += off_field
    document = _Document(text, mentions, tokens, cues)
    held: dict[str, HeldSkill] = {}
    rejected: dict[str, RejectedMention] = {}
    positions: dict[str, list[int]] = {}
    for mention, reason in screened_out:
        _add_rejected(rejected, mention, reason, _evidence(document, mention, source_file))
    for mention, category in zip(mentions, _categories(document), strict=True):
        evidence = _evidence(document, mention, source_file)
        if category in NOT_HELD:
            _add_rejected(rejected, mention, str(category), evidence)
            continue
        strength = _strength(located, mention.start, category is CueCategory.COURSE)
        if strength is SkillStrength.SKILLS_LIST and _stated_use(document, mention, cues):
            strength = SkillStrength.ROLE
        evidence.strength = strength
        kind = MatchKind.ALIAS if mention.is_alias else MatchKind.EXACT
        hold(held, vocabulary, mention.skill, mention.surface, kind, evidence, strength)
        positions.setdefault(mention.skill, []).append(mention.start)
    add_implied(held, vocabulary)
    rejected_only = [r for skill, r in rejected.items() if skill not in held]
    return SkillExtraction(
        held=sorted(held.values(), key=lambda h: h.skill),
        rejected=rejected_only,
        positions=_with_implied(positions, held, vocabulary),
    )


def _categories(document: _Document) -> list[CueCategory | None]:
    """What governs each mention. A sentence says one thing of a skill: when a cue marks
    one mention not held, the sentence's other mentions of that skill are not held either
    ("Flutter Forward meetup (attended), planning to learn Flutter next")."""
    categories = [
        governing[0].category if (governing := document.governing(index)) else None
        for index in range(len(document.mentions))
    ]
    if not any(category in NOT_HELD for category in categories):
        return categories  # most documents: no sentence to look up
    keys = [(m.skill, document.sentence_span(m.start, m.end)) for m in document.mentions]
    refused = {
        key: category
        for key, category in zip(keys, categories, strict=True)
        if category in NOT_HELD
    }
    return [
        category if category in NOT_HELD else refused.get(key, category)
        for key, category in zip(keys, categories, strict=True)
    ]


def _with_implied(
    positions: dict[str, list[int]], held: dict[str, HeldSkill], vocabulary: Vocabulary
) -> dict[str, list[int]]:
    """An implied skill is used wherever a skill implying it is mentioned."""
    found = {skill: list(offsets) for skill, offsets in positions.items()}
    for explicit, offsets in positions.items():
        for implied in vocabulary.implied_closure[explicit]:
            if held[implied].kind is MatchKind.IMPLIED:
                found.setdefault(implied, []).extend(offsets)
    return {skill: sorted(offsets) for skill, offsets in found.items()}


def _evidence(document: _Document, mention: Mention, source_file: str) -> Evidence:
    sentence = document.sentence_span(mention.start, mention.end)
    return passage(
        document.text, (mention.start, mention.end), sentence, mention.skill, source_file
    )


def passage(
    text: str, mention: tuple[int, int], sentence: tuple[int, int], skill: str, source_file: str
) -> Evidence:
    """The evidence for a mention: its sentence or list item, bounded (``evidence_span``)."""
    start, end = evidence_span(text, mention, sentence)
    return Evidence(
        text=text[start:end], source_file=source_file, start=start, end=end, skill=skill
    )


def _add_rejected(
    rejected: dict[str, RejectedMention], mention: Mention, reason: str, evidence: Evidence
) -> None:
    rejected.setdefault(
        mention.skill, RejectedMention(skill=mention.skill, reason=reason, evidence=evidence)
    )


def hold(
    held: dict[str, HeldSkill],
    vocabulary: Vocabulary,
    skill: str,
    surface: str,
    kind: MatchKind,
    evidence: Evidence,
    strength: SkillStrength,
) -> None:
    """Count one mention written as ``surface``: the first makes the holding (replacing
    one that was only implied); each later one may raise its strength, prefer an exact
    spelling, and add its passage to the evidence, strongest first."""
    current = held.get(skill)
    if current is None or current.kind is MatchKind.IMPLIED:
        held[skill] = HeldSkill(
            skill=skill,
            category=vocabulary.skills[skill].category,
            kind=kind,
            confidence=HELD_CONFIDENCE[kind],
            surface=surface,
            mentions=1,
            evidence=[evidence],
            strength=strength,
        )
        return
    current.mentions += 1
    if current.strength is None or STRENGTH_RANK[strength] > STRENGTH_RANK[current.strength]:
        current.strength = strength
    if kind is MatchKind.EXACT and current.kind is not MatchKind.EXACT:
        current.kind, current.confidence = kind, HELD_CONFIDENCE[kind]
        current.surface = surface
    if all(e.start != evidence.start for e in current.evidence):
        current.evidence = _strongest_first([*current.evidence, evidence])[:MAX_EVIDENCE]


def _strongest_first(passages: list[Evidence]) -> list[Evidence]:
    """Passages from roles before skills lists, summaries and courses; then in text order."""
    return sorted(
        passages, key=lambda e: (-STRENGTH_RANK[e.strength] if e.strength else 0, e.start)
    )


def add_implied(held: dict[str, HeldSkill], vocabulary: Vocabulary) -> None:
    """Hold what the vocabulary says each held skill implies (Docker -> Containerization)."""
    for explicit in list(held.values()):
        for implied in vocabulary.implied_closure[explicit.skill]:
            current = held.get(implied)
            if current is not None:
                if current.kind is MatchKind.IMPLIED and _stronger(explicit, current):
                    current.strength = explicit.strength
                continue
            held[implied] = HeldSkill(
                skill=implied,
                category=vocabulary.skills[implied].category,
                kind=MatchKind.IMPLIED,
                confidence=HELD_CONFIDENCE[MatchKind.IMPLIED],
                surface=explicit.skill,
                mentions=0,
                evidence=[e.model_copy(update={"skill": implied}) for e in explicit.evidence[:1]],
                strength=explicit.strength,
            )


def _stronger(first: HeldSkill, second: HeldSkill) -> bool:
    if first.strength is None:
        return False
    return second.strength is None or STRENGTH_RANK[first.strength] > STRENGTH_RANK[second.strength]
