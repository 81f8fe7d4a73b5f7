"""The skill vocabulary: loading, validation and look-ups.

The data lives in ``data/skills.yaml`` (format in docs/vocabulary.md) so recruiters
can extend it without touching code. Loading validates everything and reports
each problem with the skill it concerns.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from talentrag.errors import ConfigurationError
from talentrag.vocabulary.tokens import token_key


class VocabularyError(ConfigurationError):
    """The vocabulary file is unreadable or breaks a rule; the message lists each problem."""


class FieldSpec(BaseModel):
    """A profession (``fields`` entry) and the job-title words that mark it."""

    model_config = ConfigDict(extra="forbid")
    label: str
    titles: list[str] = Field(default_factory=list)


class CategorySpec(BaseModel):
    """A skill category and the profession it belongs to."""

    model_config = ConfigDict(extra="forbid")
    label: str
    field: str


class SkillSpec(BaseModel):
    """One skill as the YAML defines it: spellings, description and links."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    name: str = Field(min_length=1)
    category: str
    description: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    exact_case: list[str] = Field(default_factory=list)
    implies: list[str] = Field(default_factory=list)
    related: list[str] = Field(default_factory=list)


class VocabularyFile(BaseModel):
    """The whole YAML file, before the cross-reference checks."""

    model_config = ConfigDict(extra="forbid")
    version: int
    fields: dict[str, FieldSpec]
    categories: dict[str, CategorySpec]
    skills: list[SkillSpec]


@dataclass(frozen=True)
class Surface:
    """One spelling of a skill as the matcher sees it."""

    skill: str
    text: str
    is_alias: bool
    exact_case: bool


@dataclass
class Vocabulary:
    """A validated vocabulary with look-up tables for matching and ranking."""

    skills: dict[str, SkillSpec]
    fields: dict[str, FieldSpec]
    categories: dict[str, CategorySpec]
    fingerprint: str
    surfaces: dict[tuple[str, ...], list[Surface]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._by_folded_name = {name.casefold(): name for name in self.skills}
        for spec in self.skills.values():
            for text in [spec.name, *spec.aliases]:
                surface = Surface(spec.name, text, text != spec.name, text in spec.exact_case)
                self.surfaces.setdefault(token_key(text), []).append(surface)

    # -- look-ups ---------------------------------------------------------------
    def canonical(self, name: str) -> str | None:
        """The canonical spelling of a canonical name given in any case."""
        return self._by_folded_name.get(name.casefold())

    def field_of_skill(self, skill: str) -> str:
        """The profession of a skill's category."""
        return self.categories[self.skills[skill].category].field

    @cached_property
    def max_surface_tokens(self) -> int:
        """Tokens in the longest spelling: how far the matcher looks ahead."""
        return max((len(key) for key in self.surfaces), default=1)

    @cached_property
    def implied_closure(self) -> dict[str, tuple[str, ...]]:
        """Every skill a holder of each skill also holds (transitively)."""
        closure: dict[str, tuple[str, ...]] = {}
        for name in self.skills:
            seen: list[str] = []
            stack = list(self.skills[name].implies)
            while stack:
                implied = stack.pop(0)
                if implied not in seen:
                    seen.append(implied)
                    stack.extend(self.skills[implied].implies)
            closure[name] = tuple(seen)
        return closure

    @cached_property
    def related_map(self) -> dict[str, tuple[str, ...]]:
        """Partial-credit neighbours; ``related`` is symmetric."""
        related: dict[str, set[str]] = {name: set() for name in self.skills}
        for spec in self.skills.values():
            for other in spec.related:
                related[spec.name].add(other)
                related[other].add(spec.name)
        return {name: tuple(sorted(others)) for name, others in related.items()}

    @cached_property
    def _title_keywords(self) -> list[tuple[str, str]]:
        """(field, " normalised keyword ") pairs, tokenised once rather than per title."""
        return [
            (name, f" {' '.join(token_key(keyword))} ")
            for name, spec in self.fields.items()
            for keyword in spec.titles
        ]

    def title_field(self, title: str) -> str | None:
        """The field whose title keywords occur in a job title, if exactly one does."""
        words = f" {' '.join(token_key(title))} "
        hits = {name for name, keyword in self._title_keywords if keyword in words}
        return hits.pop() if len(hits) == 1 else None

    def describe(self, skill: str) -> str:
        """A one-paragraph text for embeddings and graph entities."""
        spec = self.skills[skill]
        text = f"{spec.name}: {spec.description}"
        if spec.aliases:
            text += f" Also written as {', '.join(spec.aliases)}."
        return text


def default_vocabulary_path() -> Path:
    """The ``skills.yaml`` shipped in the package."""
    return Path(str(resources.files("talentrag.vocabulary") / "data" / "skills.yaml"))


def load_vocabulary(path: Path | None = None) -> Vocabulary:
    """Read and validate a vocabulary; ``VocabularyError`` lists every problem."""
    path = path or default_vocabulary_path()
    try:
        raw_bytes = path.read_bytes()
        # libyaml's safe loader when built in: 0.8 s -> 0.1 s of every start-up
        raw = yaml.load(raw_bytes, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except OSError as exc:
        raise VocabularyError(f"cannot read vocabulary {path}: {exc}") from exc
    except yaml.YAMLError as exc:
        raise VocabularyError(f"vocabulary {path} is not valid YAML: {exc}") from exc
    try:
        parsed = VocabularyFile.model_validate(raw)
    except ValidationError as exc:
        raise VocabularyError(
            f"vocabulary {path} has the wrong shape:\n{_pydantic_problems(exc, raw)}"
        ) from exc
    problems = list(_rule_problems(parsed))
    if problems:
        listed = "\n".join(f"  - {p}" for p in problems[:50])
        raise VocabularyError(f"vocabulary {path} has {len(problems)} problem(s):\n{listed}")
    return Vocabulary(
        skills={s.name: s for s in parsed.skills},
        fields=parsed.fields,
        categories=parsed.categories,
        fingerprint=hashlib.sha256(raw_bytes).hexdigest()[:16],
    )


def _pydantic_problems(exc: ValidationError, raw: object) -> str:
    lines = []
    for error in exc.errors()[:50]:
        loc = error["loc"]
        where = ".".join(str(part) for part in loc)
        if len(loc) >= 2 and loc[0] == "skills" and isinstance(raw, dict):
            with contextlib.suppress(IndexError, KeyError, AttributeError, TypeError):
                where += f" (skill {raw['skills'][loc[1]].get('name')!r})"
        lines.append(f"  - {where}: {error['msg']}")
    return "\n".join(lines)


def _rule_problems(vocab: VocabularyFile) -> Iterable[str]:
    if vocab.version != 1:
        yield f"version must be 1, got {vocab.version}"
    for key, category in vocab.categories.items():
        if category.field not in vocab.fields:
            yield f"category {key!r}: unknown field {category.field!r}"
    names = {s.name for s in vocab.skills}
    owner: dict[tuple[str, ...], str] = {}
    for spec in vocab.skills:
        yield from _skill_problems(spec, vocab, names, owner)
    yield from _cycle_problems(vocab)


def _skill_problems(
    spec: SkillSpec, vocab: VocabularyFile, names: set[str], owner: dict[tuple[str, ...], str]
) -> Iterable[str]:
    where = f"skill {spec.name!r}"
    if spec.category not in vocab.categories:
        yield f"{where}: unknown category {spec.category!r}"
    for text in [spec.name, *spec.aliases]:
        key = token_key(text)
        if not key:
            yield f"{where}: spelling {text!r} has no letters or digits"
            continue
        if key in owner and owner[key] != spec.name:
            yield f"{where}: spelling {text!r} is already used by skill {owner[key]!r}"
        owner.setdefault(key, spec.name)
    for list_name in ("aliases", "exact_case", "implies", "related"):
        values = getattr(spec, list_name)
        if len(set(values)) != len(values):
            yield f"{where}: duplicate entries in {list_name}"
        if any(not v.strip() for v in values):
            yield f"{where}: empty string in {list_name}"
    for text in spec.exact_case:
        if text not in [spec.name, *spec.aliases]:
            yield f"{where}: exact_case entry {text!r} is neither the name nor an alias"
    for list_name in ("implies", "related"):
        for target in getattr(spec, list_name):
            if target == spec.name:
                yield f"{where}: {list_name} lists the skill itself"
            elif target not in names:
                yield f"{where}: {list_name} names unknown skill {target!r}"


def _cycle_problems(vocab: VocabularyFile) -> Iterable[str]:
    graph = {s.name: [t for t in s.implies if t != s.name] for s in vocab.skills}
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done

    def visit(node: str, path: list[str]) -> str | None:
        state[node] = 1
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                return " -> ".join([*path, node, nxt])
            if nxt in graph and state.get(nxt) is None and (found := visit(nxt, [*path, node])):
                return found
        state[node] = 2
        return None

    for name in graph:
        if state.get(name) is None and (cycle := visit(name, [])):
            yield f"implies has a cycle: {cycle}"
