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

from talentrag.domain import Evidence, HeldSkill, MatchKind, RejectedMention
from talentrag.ingestion.intervals import merge_intervals
from talentrag.policy.credits import HELD_CONFIDENCE
from talentrag.policy.limits import MAX_EVIDENCE, MAX_EVIDENCE_CHARS
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
    skipped = _Spans(skip)
    mentions: list[Mention] = []
    i = 0
    while i < len(tokens):
        found = _longest_match(tokens, folded, i, vocabulary)
        if found is None:
            i += 1
            continue
        mention, width = found
        if not skipped.contains(mention.start):
            mentions.append(mention)
        i += width
    return mentions


class _Spans:
    """Character spans (merged) with an O(log n) membership test."""

    def __init__(self, spans: Sequence[tuple[int, int]]):
        merged = merge_intervals(list(spans))
        self.starts = [s for s, _ in merged]
        self.ends = [e for _, e in merged]

    def contains(self, position: int) -> bool:
        index = bisect_right(self.starts, position) - 1
        return index >= 0 and position < self.ends[index]


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


@dataclass(frozen=True)
class _Cue:
    reason: str
    start: int
    end: int


class _Document:
    """Everything the hold/reject decision needs, computed once per document.

    Sentence and clause breaks, cues and the runs of listed skills are found in one
    pass each, so deciding every mention costs a few binary searches: analysis stays
    linear in the text, however many skills a CV lists.
    """

    def __init__(self, text: str, mentions: list[Mention]):
        self.text = text
        self.mentions = mentions
        self.mention_starts = [m.start for m in mentions]
        breaks = list(SENTENCE_END.finditer(text))
        self.sentence_starts = [m.start() for m in breaks]
        self.sentence_ends = [m.end() for m in breaks]
        clauses = list(CLAUSE_BREAK.finditer(text))
        self.clause_ends = [m.end() for m in clauses]
        self.clause_starts = [m.start() for m in clauses]
        self.cues = self._cues()
        self.cue_ends = [c.end for c in self.cues]
        self.list_run_start = self._list_runs()

    def _cues(self) -> list[_Cue]:
        found = [
            _Cue(reason, m.start(), m.end())
            for reason, pattern in (("negated", NEGATION), ("aspirational", ASPIRATION))
            for m in pattern.finditer(self.text)
            if self._outside_mentions(m)
        ]
        return sorted(found, key=lambda c: (c.end, c.start))

    def _outside_mentions(self, match: re.Match[str]) -> bool:
        # "(learning)" after a skill qualifies that skill only (TRAILING_ASPIRATION)
        if self.text[match.end() : match.end() + 3].lstrip()[:1] in (")", "]"):
            return False
        index = bisect_right(self.mention_starts, match.start()) - 1
        return index < 0 or not match.start() < self.mentions[index].end

    def _list_runs(self) -> list[int]:
        """For each mention, the first mention of the list it closes (joined by connectors)."""
        runs: list[int] = []
        for index, mention in enumerate(self.mentions):
            if index and _is_list_gap(self.text[self.mentions[index - 1].end : mention.start]):
                runs.append(runs[-1])
            else:
                runs.append(index)
        return runs

    def sentence_span(self, start: int, end: int) -> tuple[int, int]:
        """The sentence (or list line) around a span, stripped of bullets and spaces."""
        before = bisect_right(self.sentence_ends, start)
        left = self.sentence_ends[before - 1] if before else 0
        after = bisect_left(self.sentence_starts, end)
        right = self.sentence_starts[after] if after < len(self.sentence_starts) else len(self.text)
        while left < right and self.text[left] in " \t-*•·>#|":
            left += 1
        while right > left and self.text[right - 1] in " \t":
            right -= 1
        return left, right

    def clause_start(self, sentence_start: int, position: int) -> int:
        """Where the clause holding ``position`` starts (a break ending at or before it)."""
        index = bisect_right(self.clause_ends, position) - 1
        if index >= 0 and self.clause_starts[index] >= sentence_start:
            return self.clause_ends[index]
        return sentence_start

    def last_cue(self, start: int, end: int) -> _Cue | None:
        """The cue ending last within ``[start, end)``."""
        index = bisect_right(self.cue_ends, end) - 1
        if index >= 0 and self.cues[index].start >= start:
            return self.cues[index]
        return None


def _is_list_gap(gap: str) -> bool:
    return all(t.text.casefold() in LIST_CONNECTORS for t in tokenize(gap))


def sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or list line) around a span of ``text`` (one-off use; see ``_Document``)."""
    return _Document(text, []).sentence_span(start, end)


def evidence_span(
    document: _Document, mention: Mention, sentence: tuple[int, int]
) -> tuple[int, int]:
    """The mention's sentence, cut to at most ``MAX_EVIDENCE_CHARS`` around it at word breaks."""
    left, right = sentence
    if right - left <= MAX_EVIDENCE_CHARS:
        return left, right
    room = max(0, MAX_EVIDENCE_CHARS - (mention.end - mention.start))
    left = max(left, mention.start - room // 3)
    right = min(right, mention.end + room - (mention.start - left))
    text = document.text
    if left < mention.start and not text[left - 1 : left].isspace():
        cut = text.find(" ", left, mention.start)
        left = cut + 1 if cut != -1 else mention.start
    if right > mention.end and not text[right : right + 1].isspace():
        cut = text.rfind(" ", mention.end, right)
        right = cut if cut != -1 else mention.end
    return left, right


def _rejection_reason(document: _Document, index: int, sentence_start: int) -> str | None:
    """'negated' / 'aspirational' when a cue governs this mention, else None."""
    mention = document.mentions[index]
    if TRAILING_ASPIRATION.match(document.text, mention.end):
        return "aspirational"
    clause_start = document.clause_start(sentence_start, mention.start)
    cue = document.last_cue(clause_start, mention.start)
    if cue is None or not _governed(document, cue.end, index):
        return None
    return cue.reason


def _governed(document: _Document, cue_end: int, index: int) -> bool:
    """True when the mention is the first skill after the cue, or in a list right behind it."""
    text, mention = document.text, document.mentions[index]
    first = bisect_left(document.mention_starts, cue_end, 0, index)
    if first == index:  # no skill between the cue and this mention
        return len(tokenize(text[cue_end : mention.start])) <= MAX_WORDS_BETWEEN_CUE_AND_SKILL
    lead = text[cue_end : document.mentions[first].start]
    if len(tokenize(lead)) > MAX_WORDS_BETWEEN_CUE_AND_SKILL:
        return False
    return document.list_run_start[index] <= first


def extract_skills(
    text: str, vocabulary: Vocabulary, source_file: str, skip: Sequence[tuple[int, int]] = ()
) -> SkillExtraction:
    """Held skills with evidence (explicit, then implied) and the rejected mentions."""
    mentions = find_mentions(text, vocabulary, skip)
    document = _Document(text, mentions)
    held: dict[str, HeldSkill] = {}
    rejected: dict[str, RejectedMention] = {}
    for index, mention in enumerate(mentions):
        sentence = document.sentence_span(mention.start, mention.end)
        start, end = evidence_span(document, mention, sentence)
        evidence = Evidence(
            text=text[start:end], source_file=source_file, start=start, end=end, skill=mention.skill
        )
        reason = _rejection_reason(document, index, sentence[0])
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
