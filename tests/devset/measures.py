"""The development set's measures, one function each, over plain data.

Nothing here opens a knowledge base: ``score.py`` turns stored records and search answers
into ``Extracted`` views and rankings, and these functions compare them with the truth.
Truth skill names are written by a person, so each is first mapped to a canonical name
through the vocabulary; a name the vocabulary does not know is a vocabulary gap, counted
apart, never an error of the extractor.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tests.devset.truth import DocumentTruth

Canonical = Callable[[str], str | None]
"""A person's skill name to the vocabulary's canonical name (None: not in the vocabulary)."""
Implied = Callable[[str], Iterable[str]]
"""The skills the vocabulary says a holder of a skill also holds (Docker -> Containerization)."""


@dataclass(frozen=True)
class Extracted:
    """What the system stored for one CV: held skills (canonical name -> how matched)."""

    id: str
    skills: Mapping[str, str]
    rejected: frozenset[str]
    years: float | None
    level: str | None


@dataclass
class SkillMapping:
    """Truth names to canonical skills, and what a truth holding lets the system claim.

    A claim the vocabulary implies from a skill the reader says is held (SQL from MySQL,
    Git from GitHub) is right: the implication is the vocabulary's, a fact about the
    skills, not a reading of the text. One implied from a skill wrongly held is wrong.
    """

    canonical: Canonical
    implied: Implied = lambda _skill: ()
    _cache: dict[str, str | None] = field(default_factory=dict)

    def __call__(self, name: str) -> str | None:
        """The canonical name of a person's skill name, or None."""
        if name not in self._cache:
            self._cache[name] = self.canonical(name)
        return self._cache[name]

    def names(self, names: Iterable[str]) -> set[str]:
        """The canonical names of those the vocabulary knows."""
        return {c for n in names if (c := self(n)) is not None}

    def held(self, truth: DocumentTruth) -> set[str]:
        """The truth's held skills that the vocabulary knows."""
        return self.names(h.skill for h in truth.held)

    def allowed(self, truth: DocumentTruth) -> set[str]:
        """Held, acceptable, and implied by held: claiming any of these is right."""
        held = self.held(truth)
        implied = {skill for h in held for skill in self.implied(h)}
        return held | implied | self.names(truth.acceptable)


@dataclass(frozen=True)
class Gaps:
    """Truth names the vocabulary does not know: (name -> how many CVs use it)."""

    held: Counter[str]
    other: Counter[str]  # acceptable and not-held terms


def vocabulary_gaps(truths: Mapping[str, DocumentTruth], mapping: SkillMapping) -> Gaps:
    """Count each unknown name once per CV: held skills (they cannot be found) apart."""
    held: Counter[str] = Counter()
    other: Counter[str] = Counter()
    for truth in truths.values():
        held.update({h.skill for h in truth.held if mapping(h.skill) is None})
        names = {*truth.acceptable, *(m.term for m in truth.not_held)}
        other.update({n for n in names if mapping(n) is None})
    return Gaps(held, other)


# -- extracted skills ------------------------------------------------------------------
@dataclass(frozen=True)
class ClaimFigures:
    """Micro precision/recall/F1 of held-skill claims over every CV.

    Precision counts a claim right when the truth holds or accepts the skill; recall
    counts the truth's held skills that were claimed. An acceptable-only skill can make a
    claim right but is not a holding the extractor must find.
    """

    right: list[tuple[str, str]]  # (cv, skill)
    wrong: list[tuple[str, str, str]]  # (cv, skill, how it was matched)
    found: int
    missed: list[tuple[str, str]]  # (cv, truth skill not claimed)

    @property
    def precision(self) -> float:
        """Claims the truth holds or accepts, over all claims."""
        claimed = len(self.right) + len(self.wrong)
        return len(self.right) / claimed if claimed else 0.0

    @property
    def recall(self) -> float:
        """Truth holdings (those the vocabulary knows) that were claimed."""
        held = self.found + len(self.missed)
        return self.found / held if held else 0.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def claims(
    truths: Mapping[str, DocumentTruth], extracted: Mapping[str, Extracted], mapping: SkillMapping
) -> ClaimFigures:
    """Compare each CV's held skills with the truth's held (+ acceptable) skills."""
    right: list[tuple[str, str]] = []
    wrong: list[tuple[str, str, str]] = []
    missed: list[tuple[str, str]] = []
    found = 0
    for cv, truth in sorted(truths.items()):
        held, allowed = mapping.held(truth), mapping.allowed(truth)
        got = extracted[cv].skills
        for skill, kind in sorted(got.items()):
            if skill in allowed:
                right.append((cv, skill))
            else:
                wrong.append((cv, skill, kind))
        found += len(held & got.keys())
        missed += [(cv, skill) for skill in sorted(held - got.keys())]
    return ClaimFigures(right, wrong, found, missed)


# -- context ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ContextFigures:
    """Mentions the truth says must not count, which the system holds anyway."""

    errors: list[tuple[str, str, str]]  # (cv, skill, reason)
    checked: int  # not-held mentions whose term the vocabulary knows
    rejected: int  # of those, how many the system recorded as rejected

    @property
    def by_reason(self) -> Counter[str]:
        """Errors per reason (other_person, negated, abbreviation ...)."""
        return Counter(reason for _, _, reason in self.errors)


def context_errors(
    truths: Mapping[str, DocumentTruth], extracted: Mapping[str, Extracted], mapping: SkillMapping
) -> ContextFigures:
    """A not-held term is an error when the system holds it and the truth does not.

    The same skill may be held elsewhere in the CV (a manager who also coded Java): then
    holding it is right, and the truth lists it as held or acceptable.
    """
    errors: list[tuple[str, str, str]] = []
    checked = rejected = 0
    for cv, truth in sorted(truths.items()):
        allowed, got = mapping.allowed(truth), extracted[cv]
        seen: set[str] = set()
        for mention in truth.not_held:
            skill = mapping(mention.term)
            if skill is None:
                continue
            checked += 1
            rejected += skill in got.rejected
            if skill in got.skills and skill not in allowed and skill not in seen:
                seen.add(skill)
                errors.append((cv, skill, mention.reason))
    return ContextFigures(errors, checked, rejected)


# -- experience ------------------------------------------------------------------------
@dataclass(frozen=True)
class LevelFigures:
    """Level agreement (an unknown truth level must be answered unknown) and years error."""

    correct: int
    wrong: list[tuple[str, str | None, str | None]]  # (cv, truth, system)
    years_errors: list[tuple[str, float]]  # (cv, |system - truth|) where both are known
    years_missing: list[str]  # truth has years, the system has none

    @property
    def accuracy(self) -> float:
        """Share of CVs whose level (or unknown) matches."""
        total = self.correct + len(self.wrong)
        return self.correct / total if total else 0.0

    @property
    def years_mae(self) -> float:
        """Mean absolute years error over CVs where both sides give years."""
        errors = [e for _, e in self.years_errors]
        return sum(errors) / len(errors) if errors else 0.0


def levels(truths: Mapping[str, DocumentTruth], extracted: Mapping[str, Extracted]) -> LevelFigures:
    """Compare each CV's level and years with the reader's."""
    correct = 0
    wrong: list[tuple[str, str | None, str | None]] = []
    years_errors: list[tuple[str, float]] = []
    missing: list[str] = []
    for cv, truth in sorted(truths.items()):
        got = extracted[cv]
        expected = truth.level.value if truth.level else None
        if got.level == expected:
            correct += 1
        else:
            wrong.append((cv, expected, got.level))
        if truth.years is not None and got.years is None:
            missing.append(cv)
        elif truth.years is not None and got.years is not None:
            years_errors.append((cv, abs(got.years - truth.years)))
    return LevelFigures(correct, wrong, years_errors, missing)


# -- short skill names -----------------------------------------------------------------
def false_holders(
    names: Sequence[str],
    truths: Mapping[str, DocumentTruth],
    extracted: Mapping[str, Extracted],
    mapping: SkillMapping,
) -> dict[str, tuple[int, list[str]]]:
    """For each short skill (C, R, Go): how many CVs hold it, and those whose truth does not."""
    result: dict[str, tuple[int, list[str]]] = {}
    for name in names:
        skill = mapping.canonical(name)
        if skill is None:
            continue
        holders = sorted(cv for cv in truths if skill in extracted[cv].skills)
        false = [cv for cv in holders if skill not in mapping.allowed(truths[cv])]
        result[name] = (len(holders), false)
    return result


# -- search ----------------------------------------------------------------------------
@dataclass(frozen=True)
class RankFigures:
    """One query's figures at a cut-off."""

    precision: float
    recall: float
    ndcg: float
    empty: bool  # nothing answered although relevant documents exist
    precision_at_5: float = 0.0


def rank_figures(ranked: Sequence[str], relevant: Iterable[str], k: int = 10) -> RankFigures:
    """Precision, recall and binary nDCG of the first ``k`` answers.

    Precision is over the answers given (at most ``k``): a system that returns two right
    candidates and stops scores 1.0, not 0.2; an empty answer scores 0 when relevant
    documents exist. This treats a filtering search and a ranking baseline alike, since
    the baseline is cut to the documents that match at least one query word.
    """
    wanted = set(relevant)
    top = list(ranked[:k])
    hits = [doc in wanted for doc in top]
    dcg = sum(1 / math.log2(i + 2) for i, hit in enumerate(hits) if hit)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(wanted), k)))
    return RankFigures(
        precision=sum(hits) / len(top) if top else 0.0,
        recall=sum(hits) / len(wanted) if wanted else 1.0,
        ndcg=dcg / ideal if ideal else 1.0,
        empty=not top and bool(wanted),
        precision_at_5=sum(hits[:5]) / len(top[:5]) if top else 0.0,
    )


@dataclass(frozen=True)
class SearchFigures:
    """Means over queries, and how many were answered empty."""

    precision: float
    recall: float
    ndcg: float
    empty: int
    queries: int
    precision_at_5: float = 0.0


def mean_figures(per_query: Sequence[RankFigures]) -> SearchFigures:
    """Macro averages: each query weighs the same."""
    n = len(per_query)
    if not n:
        return SearchFigures(0.0, 0.0, 0.0, 0, 0)
    return SearchFigures(
        precision=sum(q.precision for q in per_query) / n,
        recall=sum(q.recall for q in per_query) / n,
        ndcg=sum(q.ndcg for q in per_query) / n,
        empty=sum(q.empty for q in per_query),
        queries=n,
        precision_at_5=sum(q.precision_at_5 for q in per_query) / n,
    )


# -- what answers claim ----------------------------------------------------------------
@dataclass(frozen=True)
class AnswerClaim:
    """One label an answer gave: a returned candidate's status for one required skill."""

    query: str
    cv: str
    skill: str  # the required skill as the query wrote it
    status: str  # matched, partial or missing


@dataclass(frozen=True)
class AnswerFigures:
    """How true the answers' required-skill labels are.

    A ``matched`` label is right when the truth holds or accepts the skill, or holds a
    skill implying it or, for a broad term, one of its family (the vocabulary's links).
    Recall: of the required skills the truth gives a returned candidate, the share
    labelled ``matched``.
    """

    right: list[AnswerClaim]
    wrong: list[AnswerClaim]
    unclaimed: list[AnswerClaim]  # truth holds it, the answer said partial or missing

    @property
    def precision(self) -> float:
        """Matched labels the truth supports, over all matched labels."""
        claimed = len(self.right) + len(self.wrong)
        return len(self.right) / claimed if claimed else 0.0

    @property
    def recall(self) -> float:
        """Truth holdings labelled matched, over all truth holdings among returned skills."""
        held = len(self.right) + len(self.unclaimed)
        return len(self.right) / held if held else 0.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def answer_claims(
    labels: list[AnswerClaim],
    truths: Mapping[str, DocumentTruth],
    mapping: SkillMapping,
    family: Callable[[str], Iterable[str]],
) -> AnswerFigures:
    """Compare each returned candidate's required-skill labels with the truth."""
    right: list[AnswerClaim] = []
    wrong: list[AnswerClaim] = []
    unclaimed: list[AnswerClaim] = []
    for label in labels:
        truth = truths.get(label.cv)
        skill = mapping(label.skill)
        if truth is None or skill is None:
            continue
        allowed = mapping.allowed(truth)
        holds = skill in allowed or bool(set(family(skill)) & mapping.held(truth))
        if label.status == "matched":
            (right if holds else wrong).append(label)
        elif holds:
            unclaimed.append(label)
    return AnswerFigures(right, wrong, unclaimed)
