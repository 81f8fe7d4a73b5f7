"""The skill vocabulary as the generator needs it, read from its YAML file.

The vocabulary file format (names, aliases, exact_case, implies, related,
categories) is a public contract; the generator reads it directly and never
imports the service's loader or extractor. It needs skill names and spellings to
write, and the ``implies`` closure that a held skill brings along.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[3]
DEFAULT_VOCABULARY = ROOT / "services" / "talentrag" / "vocabulary" / "data" / "skills.yaml"
TECH, GENERAL = "technology", "general"

Mentions = frozenset[str]
"""Canonical names of the skills a piece of text was written to spell."""


@dataclass(frozen=True)
class Skill:
    """One vocabulary skill and the spellings the generator may write for it."""

    name: str
    category: str
    field: str
    forms: tuple[str, ...]  # name and aliases no other skill also uses (the name first)
    exact: frozenset[str]  # spellings whose case must be kept
    closure: frozenset[str]  # the skill and everything it implies, transitively
    related: tuple[str, ...]


@dataclass
class Vocab:
    """The skills, their spellings and the words of their categories."""

    skills: dict[str, Skill]
    owners: dict[str, frozenset[str]]  # case-folded spelling -> skills that list it
    category_words: dict[str, tuple[str, ...]]

    def lookup(self, spelling: str) -> str | None:
        """The skill whose name or alias is ``spelling`` (ignoring case), if exactly one."""
        owners = self.owners.get(fold(spelling), frozenset())
        return next(iter(owners)) if len(owners) == 1 else None

    def resolve(self, spellings: Iterable[str]) -> set[str]:
        """Canonical skills for the spellings this vocabulary lists (others are ignored)."""
        return {name for name in map(self.lookup, spellings) if name}

    def usable(self, names: Iterable[str]) -> tuple[str, ...]:
        """The skills among ``names`` that have a spelling to write, sorted."""
        return tuple(sorted(n for n in names if n in self.skills and self.skills[n].forms))

    def closure(self, names: Iterable[str]) -> frozenset[str]:
        """The skills and everything they imply."""
        return frozenset().union(*(self.skills[n].closure for n in names))


def fold(text: str) -> str:
    """A spelling's identity for look-ups: case-folded, runs of spaces collapsed."""
    return " ".join(text.casefold().split())


def words(text: str) -> tuple[str, ...]:
    """Lower-case words of ``text`` (for matching profile keywords to categories)."""
    return tuple(w for w in re.split(r"[^a-z0-9]+", text.lower()) if w)


def has_keyword(found: Iterable[str], keys: Iterable[str]) -> bool:
    """Whole-word match, plural allowed ("database" matches "databases", not "data")."""
    keys = set(keys)
    return any(w in keys or (w.endswith("s") and w[:-1] in keys) for w in found)


def load_vocab(path: Path) -> Vocab:
    """Read the vocabulary YAML file (its format is the contract, not the service's loader)."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict) or not raw.get("skills"):
        raise ValueError(f"vocabulary {path} has no skills")
    specs = [s for s in raw["skills"] if isinstance(s, dict) and s.get("name")]
    categories = raw.get("categories") or {}
    owners = _owners(specs)
    names = {s["name"] for s in specs}
    implies = {s["name"]: [x for x in s.get("implies") or [] if x in names] for s in specs}
    skills = {s["name"]: _skill(s, categories, owners, implies, names) for s in specs}
    return Vocab(
        skills=skills,
        owners={k: frozenset(v) for k, v in owners.items()},
        category_words={k: words(f"{k} {v.get('label', '')}") for k, v in categories.items()},
    )


def _spellings(spec: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys([spec["name"], *(spec.get("aliases") or [])]))


def _owners(specs: list[dict[str, Any]]) -> dict[str, set[str]]:
    owners: dict[str, set[str]] = {}
    for spec in specs:
        for text in _spellings(spec):
            owners.setdefault(fold(text), set()).add(spec["name"])
    return owners


def _skill(
    spec: dict[str, Any],
    categories: dict[str, Any],
    owners: dict[str, set[str]],
    implies: dict[str, list[str]],
    names: set[str],
) -> Skill:
    name, category = spec["name"], str(spec.get("category", ""))
    # never matched in free text, or only in some CVs: never written for a held skill
    context_only = {*(spec.get("needs_context") or []), *(spec.get("in_field") or [])}
    return Skill(
        name=name,
        category=category,
        field=str((categories.get(category) or {}).get("field", GENERAL)),
        forms=tuple(
            t for t in _spellings(spec) if owners[fold(t)] == {name} and t not in context_only
        ),
        exact=frozenset(spec.get("exact_case") or []),
        closure=_closure(name, implies),
        related=tuple(r for r in spec.get("related") or [] if r in names and r != name),
    )


def _closure(name: str, implies: dict[str, list[str]]) -> frozenset[str]:
    seen, stack = {name}, list(implies.get(name, []))
    while stack:
        if (nxt := stack.pop()) not in seen:
            seen.add(nxt)
            stack.extend(implies.get(nxt, []))
    return frozenset(seen)


class Speller:
    """Writes skills as one candidate does: name or alias, sometimes re-cased, then consistent."""

    def __init__(self, rng: random.Random, vocab: Vocab):
        self.rng, self.vocab = rng, vocab
        self.chosen: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        """A spelling of skill ``name``; often the one this candidate used before."""
        rng = self.rng
        if name in self.chosen and rng.random() < 0.6:
            return self.chosen[name]
        skill = self.vocab.skills[name]
        form = skill.forms[0] if rng.random() < 0.5 else rng.choice(skill.forms)
        if form not in skill.exact:
            roll = rng.random()
            if roll < 0.08:
                form = form.lower()
            elif roll < 0.12 and len(form) <= 10:
                form = form.upper()
        self.chosen[name] = form
        return form
