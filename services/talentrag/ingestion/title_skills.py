"""The profession a role's title names is a skill its holder practised; so is what some
section headings name ("Grants").

"Staff Nurse", "Head Chef", "Senior Accountant": a CV rarely lists Nursing, Cooking or
Accounting among its skills, yet that is what a recruiter searches for. A role in the
CV's own experience (never its education) whose title holds one of the words in
``experience.yaml``'s ``title_skills`` shows the skill at the strength of a role, with
the title line as evidence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from talentrag.domain import HeldSkill, MatchKind, Role, SkillStrength
from talentrag.ingestion.cv_parser import Section
from talentrag.ingestion.experience_words import alternation, experience_words
from talentrag.ingestion.skills import (
    SkillExtraction,
    add_implied,
    hold,
    passage,
    sentence_span,
)
from talentrag.vocabulary.vocabulary import Vocabulary


@cache
def _title_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple(
        (skill, re.compile(rf"(?<!\w)(?:{alternation(words)})(?!\w)", re.IGNORECASE))
        for skill, words in experience_words().title_skills.items()
    )


def _title_mentions(role: Role, text: str) -> list[tuple[str, int, int]]:
    """(skill, start, end) of each profession the role's title names, found in its text."""
    if role.kind == "education" or role.block_start is None or role.block_end is None:
        return []
    found = []
    for skill, pattern in _title_patterns():
        if pattern.search(role.title) and (
            where := pattern.search(text, role.block_start, role.block_end)
        ):
            found.append((skill, where.start(), where.end()))
    return found


def add_heading_skills(
    extraction: SkillExtraction,
    sections: Sequence[Section],
    text: str,
    vocabulary: Vocabulary,
    source_file: str,
) -> None:
    """Hold the skills that sections' headings show (``heading_skills``): a "Grants"
    section listing grants won is grant writing. The heading and the first line under it
    are the evidence; an empty section shows nothing."""
    wanted = {
        word.casefold(): skill
        for skill, words in experience_words().heading_skills.items()
        for word in words
        if skill in vocabulary.skills
    }
    held = {h.skill: h for h in extraction.held}
    for section in sections:
        skill = wanted.get(" ".join(section.heading.casefold().split()))
        first_line = text[section.body : section.end].strip().split("\n", 1)[0].strip()
        if skill is None or len(first_line) < _LEAST_ITEM:
            continue
        start = section.start
        end = text.index(first_line, section.body) + len(first_line)
        mention = (start, start + len(section.heading))
        _hold_as_role(extraction, held, vocabulary, skill, mention, (start, end), text, source_file)
    _settle(extraction, held, vocabulary)


_LEAST_ITEM = 12  # "2023 – 2028   NIH R01 (PI)": an item, not a stray word


def add_title_skills(
    extraction: SkillExtraction,
    roles: list[Role],
    text: str,
    vocabulary: Vocabulary,
    source_file: str,
) -> None:
    """Hold the professions the roles' titles name (skills the vocabulary lacks are
    ignored: a custom vocabulary need not have them)."""
    held = {h.skill: h for h in extraction.held}
    for role in roles:
        for skill, start, end in _title_mentions(role, text):
            if skill not in vocabulary.skills:
                continue
            sentence = sentence_span(text, start, end)
            _hold_as_role(
                extraction, held, vocabulary, skill, (start, end), sentence, text, source_file
            )
    _settle(extraction, held, vocabulary)


def _hold_as_role(
    extraction: SkillExtraction,
    held: dict[str, HeldSkill],
    vocabulary: Vocabulary,
    skill: str,
    mention: tuple[int, int],
    sentence: tuple[int, int],
    text: str,
    source_file: str,
) -> None:
    """Hold ``skill`` at the strength of a role, the words at ``mention`` as evidence."""
    evidence = passage(text, mention, sentence, skill, source_file)
    evidence.strength = SkillStrength.ROLE
    written = text[mention[0] : mention[1]]
    hold(held, vocabulary, skill, written, MatchKind.ALIAS, evidence, SkillStrength.ROLE)
    extraction.positions.setdefault(skill, []).append(mention[0])


def _settle(
    extraction: SkillExtraction, held: dict[str, HeldSkill], vocabulary: Vocabulary
) -> None:
    """Write ``held`` back with the skills it implies; a held skill is no rejected one."""
    add_implied(held, vocabulary)
    extraction.held = sorted(held.values(), key=lambda h: h.skill)
    extraction.rejected = [r for r in extraction.rejected if r.skill not in held]
