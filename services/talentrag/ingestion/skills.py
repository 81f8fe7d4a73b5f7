"""Find skill mentions in document text and decide which ones the author holds.

Matching is by token n-grams against the vocabulary (longest spelling wins), so
it is exact about provenance: every mention has its character offsets and the
sentence it stands in. A mention is NOT held when a negation ("no commercial Java
experience") or an aspiration ("currently learning Rust", "interested in ML")
governs it: the cue must open the same clause and the mention must be the first
skill after it or part of a list that follows directly.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from talentrag.domain import Evidence, HeldSkill, MatchKind, RejectedMention
from talentrag.policy.credits import HELD_CONFIDENCE
from talentrag.policy.limits import MAX_EVIDENCE
from talentrag.vocabulary.tokens import Token, tokenize
from talentrag.vocabulary.vocabulary import Vocabulary

MAX_WORDS_BETWEEN_CUE_AND_SKILL = 6
LIST_CONNECTORS = frozenset({"and", "or", "nor", "&", "as", "well", "also", "plus"})

NEGATION = re.compile(r"\b(?:no|not|never|without|lacks?|lacking|none|zero|n't)\b", re.IGNORECASE)
ASPIRATION = re.compile(
    r"\b(?:(?:currently|now|still|am|i'm|started|starting|begun|beginning|recently)\s+"
    r"(?:(?:to|been)\s+)?(?:learn|learning|studying|exploring|picking up)"
    r"|(?:keen|eager|hoping|hope|want|wants|wanting|plan|plans|planning|would like|'d like|"
    r"looking|aim|aiming|aspire|aspiring|excited|motivated|intend|intending)\s+to\s+"
    r"(?:learn|pick up|explore|get into|work with|move into|gain|try|develop|grow|start)"
    r"|interested in|interest in|curious about|self-studying|studying towards|learning)\b",
    re.IGNORECASE,
)
TRAILING_ASPIRATION = re.compile(
    r"\s*[(\[]\s*(?:currently\s+)?(?:learning|studying|in progress|beginner,?\s*learning)\s*[)\]]",
    re.IGNORECASE,
)
# A full stop ends a clause only when followed by a space ("express.js" does not).
CLAUSE_BREAK = re.compile(
    r"[.!?](?=\s|$)|[;\n]|\s[-–—]\s|\b(?:but|however|although|though|whereas|while)\b",
    re.IGNORECASE,
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])|\n")


@dataclass(frozen=True)
class Mention:
    """One vocabulary spelling found in the text, with its offsets and canonical skill."""

    skill: str
    start: int
    end: int
    surface: str
    is_alias: bool


@dataclass
class SkillExtraction:
    """A document's skills split into held ones and rejected (negated or aspirational) ones."""

    held: list[HeldSkill]
    rejected: list[RejectedMention]


def find_mentions(
    text: str, vocabulary: Vocabulary, skip: Sequence[tuple[int, int]] = ()
) -> list[Mention]:
    """Every vocabulary spelling in ``text``, longest first, outside the ``skip`` spans."""
    tokens = tokenize(text)
    folded = [t.text.casefold() for t in tokens]
    mentions: list[Mention] = []
    i = 0
    while i < len(tokens):
        found = _longest_match(tokens, folded, i, vocabulary)
        if found is None:
            i += 1
            continue
        mention, width = found
        if not any(a <= mention.start < b for a, b in skip):
            mentions.append(mention)
        i += width
    return mentions


def _longest_match(
    tokens: list[Token], folded: list[str], i: int, vocabulary: Vocabulary
) -> tuple[Mention, int] | None:
    for width in range(min(vocabulary.max_surface_tokens, len(tokens) - i), 0, -1):
        surfaces = vocabulary.surfaces.get(tuple(folded[i : i + width]))
        if not surfaces:
            continue
        start, end = tokens[i].start, tokens[i + width - 1].end
        written = [t.text for t in tokens[i : i + width]]
        for surface in surfaces:
            if surface.exact_case and [t.text for t in tokenize(surface.text)] != written:
                continue
            return Mention(surface.skill, start, end, surface.text, surface.is_alias), width
    return None


@lru_cache(maxsize=4)
def _sentence_breaks(text: str) -> tuple[list[int], list[int]]:
    """Starts and ends of the sentence breaks, found once per document."""
    breaks = list(SENTENCE_END.finditer(text))
    return [m.start() for m in breaks], [m.end() for m in breaks]


def sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or list line) around a mention, stripped of bullets and spaces."""
    starts, ends = _sentence_breaks(text)
    before = bisect_right(ends, start)
    left = ends[before - 1] if before else 0
    after = bisect_left(starts, end)
    right = starts[after] if after < len(starts) else len(text)
    while left < right and text[left] in " \t-*•·>#|":
        left += 1
    while right > left and text[right - 1] in " \t":
        right -= 1
    return left, right


def _rejection_reason(
    text: str, mention: Mention, mentions: list[Mention], index: int
) -> str | None:
    """'negated' / 'aspirational' when a cue governs this mention, else None."""
    sentence_start, _ = sentence_span(text, mention.start, mention.end)
    clause_start = sentence_start
    for brk in CLAUSE_BREAK.finditer(text, sentence_start, mention.start):
        clause_start = brk.end()
    if TRAILING_ASPIRATION.match(text, mention.end):
        return "aspirational"
    cue = _last_cue(text, clause_start, mention.start, mentions)
    if cue is None:
        return None
    reason, cue_end = cue
    if not _governed(text, cue_end, mention, mentions, index):
        return None
    return reason


def _last_cue(text: str, start: int, end: int, mentions: list[Mention]) -> tuple[str, int] | None:
    def outside_mentions(m: re.Match[str]) -> bool:
        # "(learning)" after a skill qualifies that skill only (TRAILING_ASPIRATION)
        closes_parenthesis = text[m.end() : m.end() + 3].lstrip()[:1] in (")", "]")
        return not closes_parenthesis and not any(x.start <= m.start() < x.end for x in mentions)

    cues = [("negated", m) for m in NEGATION.finditer(text, start, end) if outside_mentions(m)]
    cues += [
        ("aspirational", m) for m in ASPIRATION.finditer(text, start, end) if outside_mentions(m)
    ]
    if not cues:
        return None
    reason, match = max(cues, key=lambda c: c[1].end())
    return reason, match.end()


def _governed(
    text: str, cue_end: int, mention: Mention, mentions: list[Mention], index: int
) -> bool:
    """True when the mention is the first skill after the cue, or in a list right behind it."""
    between = [m for m in mentions[:index] if m.start >= cue_end]
    if not between:
        words = tokenize(text[cue_end : mention.start])
        return len(words) <= MAX_WORDS_BETWEEN_CUE_AND_SKILL
    gaps = [text[cue_end : between[0].start]]
    for left, right in zip([*between], [*between[1:], mention], strict=True):
        gaps.append(text[left.end : right.start])
    if len(tokenize(gaps[0])) > MAX_WORDS_BETWEEN_CUE_AND_SKILL:
        return False
    return all(all(t.text.casefold() in LIST_CONNECTORS for t in tokenize(gap)) for gap in gaps[1:])


def extract_skills(
    text: str, vocabulary: Vocabulary, source_file: str, skip: Sequence[tuple[int, int]] = ()
) -> SkillExtraction:
    """Held skills with evidence (explicit, then implied) and the rejected mentions."""
    mentions = find_mentions(text, vocabulary, skip)
    held: dict[str, HeldSkill] = {}
    rejected: dict[str, RejectedMention] = {}
    for index, mention in enumerate(mentions):
        start, end = sentence_span(text, mention.start, mention.end)
        evidence = Evidence(
            text=text[start:end], source_file=source_file, start=start, end=end, skill=mention.skill
        )
        reason = _rejection_reason(text, mention, mentions, index)
        if reason:
            rejected.setdefault(
                mention.skill,
                RejectedMention(skill=mention.skill, reason=reason, evidence=evidence),
            )
            continue
        _add_held(held, vocabulary, mention, evidence)
    _add_implied(held, vocabulary)
    rejected_only = [r for skill, r in rejected.items() if skill not in held]
    return SkillExtraction(
        held=sorted(held.values(), key=lambda h: h.skill), rejected=rejected_only
    )


def _add_held(
    held: dict[str, HeldSkill], vocabulary: Vocabulary, mention: Mention, evidence: Evidence
) -> None:
    kind = MatchKind.ALIAS if mention.is_alias else MatchKind.EXACT
    current = held.get(mention.skill)
    if current is None:
        held[mention.skill] = HeldSkill(
            skill=mention.skill,
            category=vocabulary.skills[mention.skill].category,
            kind=kind,
            confidence=HELD_CONFIDENCE[kind],
            surface=mention.surface,
            mentions=1,
            evidence=[evidence],
        )
        return
    current.mentions += 1
    if kind is MatchKind.EXACT and current.kind is not MatchKind.EXACT:
        current.kind, current.confidence = kind, HELD_CONFIDENCE[kind]
        current.surface = mention.surface
    if len(current.evidence) < MAX_EVIDENCE and all(
        e.start != evidence.start for e in current.evidence
    ):
        current.evidence.append(evidence)


def _add_implied(held: dict[str, HeldSkill], vocabulary: Vocabulary) -> None:
    for explicit in list(held.values()):
        for implied in vocabulary.implied_closure[explicit.skill]:
            if implied in held:
                continue
            held[implied] = HeldSkill(
                skill=implied,
                category=vocabulary.skills[implied].category,
                kind=MatchKind.IMPLIED,
                confidence=HELD_CONFIDENCE[MatchKind.IMPLIED],
                surface=explicit.skill,
                mentions=0,
                evidence=[e.model_copy(update={"skill": implied}) for e in explicit.evidence[:1]],
            )
