"""Open vocabulary: a requested skill nobody holds is looked for in the CVs' own words.

The full-text index finds the CVs whose text has the words; here each occurrence is
confirmed (whole words, the vocabulary's capitalisation for spellings such as "Go")
and turned into evidence with offsets into the stored text.
"""

from __future__ import annotations

import re

from talentrag.domain import Evidence
from talentrag.ingestion.skills import evidence_span, sentence_span
from talentrag.search.query import RequestedSkill
from talentrag.vocabulary import Vocabulary

MIN_PHRASE_CHARS = 3
"""Shorter spellings (C, R, Go) are letters and abbreviations far more often than skills."""


def phrases_for(skill: RequestedSkill, vocabulary: Vocabulary) -> list[tuple[str, bool]]:
    """The spellings to look for, each with whether its capitalisation must match.

    The recruiter's words, and for a skill the vocabulary knows, its name and aliases.
    """
    spellings = [skill.requested]
    exact: set[str] = set()
    if skill.primary is not None:
        spec = vocabulary.skills[skill.primary.skill]
        spellings += [spec.name, *spec.aliases]
        exact = set(spec.exact_case)
    found: dict[str, tuple[str, bool]] = {}
    for spelling in spellings:
        spelling = " ".join(spelling.split())
        if len(spelling) >= MIN_PHRASE_CHARS:
            found.setdefault(spelling.casefold(), (spelling, spelling in exact))
    return list(found.values())


def occurrence(text: str, phrase: str, exact_case: bool) -> tuple[int, int] | None:
    """The first whole-word occurrence of ``phrase`` (any spacing between its words)."""
    words = [re.escape(word) for word in phrase.split()]
    pattern = r"(?<![\w+#])" + r"\s+".join(words) + r"(?![\w+#]|-\w)"
    match = re.search(pattern, text, 0 if exact_case else re.IGNORECASE)
    return match.span() if match else None


def text_evidence(text: str, span: tuple[int, int], skill: str) -> Evidence:
    """The sentence or list item around an occurrence, cut to the evidence size as
    ingestion cuts its evidence.

    The source file is filled in when the answer is built, from the candidate's record.
    """
    left, right = evidence_span(text, span, sentence_span(text, *span))
    return Evidence(text=text[left:right], source_file="", start=left, end=right, skill=skill)
