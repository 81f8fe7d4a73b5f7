"""The skill vocabulary: loading, validation and look-ups.

The data lives in ``data/skills.yaml`` (curated by hand) and the files it includes
(``data/esco.json``, generated from ESCO by ``make vocabulary-esco``); the format is in
docs/vocabulary.md, so recruiters can extend it without touching code. Loading
validates everything and reports each problem with the skill it concerns.

Merging a generated file never overrides the curated one: a generated skill whose name
is a curated spelling, or whose ESCO id a curated skill names (the curated one replaces
it), is left out, and a generated alias that is a curated spelling, a
generated name, or claimed by two generated skills is dropped (never re-pointed).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from talentrag.errors import ConfigurationError
from talentrag.vocabulary.tokens import TOKEN, token_key


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


# Changes whenever a loader rule changes what a vocabulary file means (merging, dropping),
# so ``Vocabulary.version`` changes with it even when no data file did.
LOADER_RULES = "6"  # 3: a curated skill naming an ESCO id replaces that concept; 4: number
# variants; 5: in_field spellings; 6: patterns


class SkillSpec(BaseModel):
    """One skill as the YAML defines it: spellings, description and links."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    name: str = Field(min_length=1)
    category: str
    description: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    exact_case: list[str] = Field(default_factory=list)
    needs_context: list[str] = Field(default_factory=list)
    in_field: list[str] = Field(default_factory=list)
    patterns: list[str] = Field(default_factory=list)
    implies: list[str] = Field(default_factory=list)
    related: list[str] = Field(default_factory=list)
    broader: list[str] = Field(default_factory=list)
    esco: str | None = None


class VocabularyFile(BaseModel):
    """The whole YAML file, before the cross-reference checks."""

    model_config = ConfigDict(extra="forbid")
    version: int
    release: str = "unreleased"
    include: list[str] = Field(default_factory=list)
    fields: dict[str, FieldSpec]
    categories: dict[str, CategorySpec]
    skills: list[SkillSpec]


class GeneratedFile(BaseModel):
    """A generated skills file (``include``d by the YAML): provenance plus skills."""

    model_config = ConfigDict(extra="forbid")
    format: int
    source: str
    stamp: str = Field(min_length=1)
    esco_version: str | None = None
    notice: str | None = None
    input: dict[str, str] = Field(default_factory=dict)
    generated_by: str = ""
    skills: list[SkillSpec]


@dataclass(frozen=True)
class LoadReport:
    """What merging the generated files left out, for logs and tests."""

    sources: dict[str, int]
    dropped_skills: int
    dropped_aliases: int


MISSPELLING_MIN_LETTERS = 8
"""Shorter names are left alone: one edit from a short name is too often another word."""


class Surface(NamedTuple):
    """One spelling of a skill as the matcher sees it (a tuple: ~30,000 are built per load)."""

    skill: str
    text: str
    is_alias: bool
    exact_case: bool
    in_field: bool = False


@dataclass
class Vocabulary:
    """A validated vocabulary with look-up tables for matching and ranking.

    ``surfaces`` are the spellings the matcher may find in free text;
    ``context_surfaces`` are the ``needs_context`` spellings (everyday words such as
    "Sales" or "cooking"): a look-up resolves them, free text never matches them.
    """

    skills: dict[str, SkillSpec]
    fields: dict[str, FieldSpec]
    categories: dict[str, CategorySpec]
    fingerprint: str
    release: str = "unreleased"
    stamps: tuple[str, ...] = ()
    curated: frozenset[str] = frozenset()
    report: LoadReport | None = None
    surfaces: dict[tuple[str, ...], list[Surface]] = field(default_factory=dict)
    context_surfaces: dict[tuple[str, ...], list[Surface]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._by_folded_name = {name.casefold(): name for name in self.skills}
        for spec in self.skills.values():
            name, exact, context = spec.name, spec.exact_case, spec.needs_context
            for text in [name, *spec.aliases]:
                surface = Surface(name, text, text != name, text in exact, text in spec.in_field)
                table = self.context_surfaces if context and text in context else self.surfaces
                table.setdefault(token_key(text), []).append(surface)
        self._add_number_variants()

    def _add_number_variants(self) -> None:
        """The other grammatical number of each curated spelling ("pricing negotiations",
        "a design system"), where no spelling already claims it. Exact-case and everyday
        spellings get none: their case or context is what makes them safe."""
        variants: dict[tuple[str, ...], Surface] = {}
        for name in sorted(self.curated):
            spec = self.skills[name]
            plain = {name, *spec.aliases} - {*spec.exact_case, *spec.needs_context, *spec.in_field}
            for text in sorted(plain):
                for variant in number_variants(text):
                    key = token_key(variant)
                    if not self.spells_a_skill(key):
                        variants.setdefault(key, Surface(name, variant, True, False))
        for key, surface in variants.items():
            self.surfaces[key] = [surface]

    @property
    def version(self) -> str:
        """Release, generated-data stamps and content fingerprint: store it, compare it."""
        return "+".join([self.release, *self.stamps, self.fingerprint])

    def spells_a_skill(self, key: tuple[str, ...]) -> bool:
        """Whether these folded tokens are some skill's spelling, ``needs_context`` ones
        included."""
        return key in self.surfaces or key in self.context_surfaces

    def lookup(self, text: str) -> Surface | None:
        """The skill a spelling names (any case), including ``needs_context`` spellings;
        not an ``in_field`` spelling: asked alone, "forecasting" is no sales skill."""
        key = token_key(text)
        found = self.surfaces.get(key) or self.context_surfaces.get(key)
        return found[0] if found and not found[0].in_field else None

    # -- look-ups ---------------------------------------------------------------
    def canonical(self, name: str) -> str | None:
        """The canonical spelling of a canonical name given in any case."""
        return self._by_folded_name.get(name.casefold())

    def field_of_skill(self, skill: str) -> str:
        """The profession of a skill's category."""
        return self.categories[self.skills[skill].category].field

    @cached_property
    def misspelling_targets(self) -> dict[str, list[Surface]]:
        """Long one-word technology spellings that match freely, by their first two letters:
        a word one edit from one of them ("Kubernates", "Datstage") is that skill misspelt.
        Only technology: its names are rarely everyday words, so a near miss is a typo,
        not another word ("Costing" is one letter from "posting")."""
        targets: dict[str, list[Surface]] = {}
        for key, found in self.surfaces.items():
            word = key[0]
            if len(key) != 1 or len(word) < MISSPELLING_MIN_LETTERS or not word.isalpha():
                continue
            surface = found[0]
            if surface.exact_case or surface.in_field:
                continue
            if self.field_of_skill(surface.skill) == "technology":
                targets.setdefault(word[:2], []).append(surface)
        return targets

    @cached_property
    def surface_words(self) -> frozenset[str]:
        """Every word of every spelling: such a word is never read as a misspelling."""
        return frozenset(
            word
            for table in (self.surfaces, self.context_surfaces)
            for key in table
            for word in key
        )

    @cached_property
    def phrase_skills(self) -> dict[str, str]:
        """Group name in ``phrase_pattern`` -> the skill whose ``patterns`` it holds."""
        with_patterns = [name for name, spec in self.skills.items() if spec.patterns]
        return {f"p{i}": name for i, name in enumerate(with_patterns)}

    @cached_property
    def phrase_pattern(self) -> re.Pattern[str] | None:
        """The skills' ``patterns`` as one case-insensitive alternation, a group per
        skill (``phrase_skills`` names them): "Leading a team of 6" is Leadership."""
        groups = [
            f"(?P<{group}>{'|'.join(self.skills[name].patterns)})"
            for group, name in self.phrase_skills.items()
        ]
        if not groups:
            return None
        return re.compile(rf"(?<!\w)(?:{'|'.join(groups)})(?!\w)", re.IGNORECASE)

    @cached_property
    def max_surface_tokens(self) -> int:
        """Tokens in the longest spelling: how far the matcher looks ahead."""
        return max((len(key) for key in self.surfaces), default=1)

    @cached_property
    def implied_closure(self) -> dict[str, tuple[str, ...]]:
        """Every skill a holder of each skill also holds (transitively)."""
        return {name: _closure(name, lambda s: self.skills[s].implies) for name in self.skills}

    @cached_property
    def broader_closure(self) -> dict[str, tuple[str, ...]]:
        """Every umbrella above each skill (``broader``, transitively), nearest first."""
        return {name: _closure(name, lambda s: self.skills[s].broader) for name in self.skills}

    @cached_property
    def narrower_closure(self) -> dict[str, tuple[str, ...]]:
        """Every skill under each umbrella (the family a profession word stands for)."""
        narrower: dict[str, list[str]] = {}
        for name, above in self.broader_closure.items():
            for umbrella in above:
                narrower.setdefault(umbrella, []).append(name)
        return {name: tuple(sorted(found)) for name, found in narrower.items()}

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
    def qualified_surfaces(self) -> dict[tuple[str, ...], list[tuple[tuple[str, ...], Surface]]]:
        """Names that are a curated skill only inside its platform's brackets: "Lambda" in
        "AWS (EC2, Lambda)" is AWS Lambda, and nothing alone. Key: the name's tokens;
        value: (the platform's tokens, as the skill's spelling starts, and the surface)."""
        qualified: dict[tuple[str, ...], list[tuple[tuple[str, ...], Surface]]] = {}
        for name in sorted(self.curated):
            spec = self.skills[name]
            for text in [name, *spec.aliases]:
                if text in spec.exact_case:
                    continue
                tokens = TOKEN.findall(text)
                for cut in range(1, len(tokens)):
                    rest = tuple(t.casefold() for t in tokens[cut:])
                    if self.spells_a_skill(rest):
                        continue
                    prefix = tuple(t.casefold() for t in tokens[:cut])
                    entry = (prefix, Surface(name, " ".join(tokens[cut:]), True, False))
                    if entry not in qualified.setdefault(rest, []):
                        qualified[rest].append(entry)
        return qualified

    @cached_property
    def _title_keywords(self) -> list[tuple[str, str]]:
        """(field, " normalised keyword ") pairs, tokenised once rather than per title."""
        return [
            (name, f" {' '.join(token_key(keyword))} ")
            for name, spec in self.fields.items()
            for keyword in spec.titles
        ]

    def title_field(self, title: str) -> str | None:
        """The field whose title keywords occur in a job title, if exactly one does.

        When several fields match, the longest keyword decides if it is one field's
        alone: "Civil Engineer" is engineering although "engineer" is technology's too.
        """
        key = token_key(title)
        words = f" {' '.join(key)} "
        singular = f" {' '.join(map(_singular, key))} "  # "Harcourt Lane Solicitors"
        hits = [
            (len(keyword), name)
            for name, keyword in self._title_keywords
            if keyword in words or keyword in singular
        ]
        if not hits:
            return None
        longest = max(length for length, _ in hits)
        fields = {name for length, name in hits if length == longest}
        return fields.pop() if len(fields) == 1 else None

    def describe(self, skill: str) -> str:
        """A one-paragraph text for embeddings and graph entities."""
        spec = self.skills[skill]
        text = f"{spec.name}: {spec.description}"
        if spec.aliases:
            text += f" Also written as {', '.join(spec.aliases)}."
        return text


_SINGULAR_ENDINGS = ("ss", "us", "is")
# Plurals are made only of abstract nouns and acronyms ("negotiations", "REST APIs"): a
# plural person noun names a firm or a team ("Rao & Co., Chartered Accountants"), and a
# brand's plural is another word ("Canva", "canvas").
_ABSTRACT_ENDINGS = ("tion", "sion", "ment", "ance", "ence", "ity", "ship")


def _singular(word: str) -> str:
    """A lower-case word without a plural's "s" ("solicitors"; not "class", "campus")."""
    plural = len(word) > 4 and word.endswith("s") and not word.endswith(_SINGULAR_ENDINGS)
    return word[:-1] if plural else word


def number_variants(text: str) -> list[str]:
    """``text`` with its last word in the other grammatical number, for plain English
    spellings: "Negotiation" -> "Negotiations", "REST API" -> "REST APIs"; "Design
    Systems" -> "Design System" (plural to singular only for names of two words or more:
    "Rails" is no "Rail")."""
    words = TOKEN.findall(text)
    if not words or not words[-1].isalpha() or not words[-1].isascii() or len(words[-1]) < 3:
        return []
    last = words[-1]
    head = text[: text.rfind(last)]
    lower = last.casefold()
    if lower.endswith("s") and not lower.endswith(_SINGULAR_ENDINGS):
        if len(words) > 1 and len(last) >= 4:
            return [head + (last[:-3] + "y" if lower.endswith("ies") else last[:-1])]
        return []
    if last.isupper() or lower.endswith(_ABSTRACT_ENDINGS):
        return [head + last + "s"]
    return []


def _closure(name: str, step: Callable[[str], list[str]]) -> tuple[str, ...]:
    seen: list[str] = []
    stack = list(step(name))
    while stack:
        nxt = stack.pop(0)
        if nxt not in seen:
            seen.append(nxt)
            stack.extend(step(nxt))
    return tuple(seen)


def default_vocabulary_path() -> Path:
    """The ``skills.yaml`` shipped in the package."""
    return Path(str(resources.files("talentrag.vocabulary") / "data" / "skills.yaml"))


def load_vocabulary(path: Path | None = None) -> Vocabulary:
    """Read and validate a vocabulary and its includes; ``VocabularyError`` lists every problem."""
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
    _raise_problems(path, list(_rule_problems(parsed)))
    digest = hashlib.sha256(LOADER_RULES.encode() + raw_bytes)
    skills = {s.name: s for s in parsed.skills}
    stamps: list[str] = []
    sources = {"curated": len(skills)}
    dropped_skills = dropped_aliases = 0
    for name in parsed.include:
        included_path, included_bytes, generated = _read_generated(path, name)
        digest.update(included_bytes)
        _raise_problems(included_path, list(_generated_problems(generated, parsed)))
        merged, dropped = _merge(skills, generated.skills)
        sources[generated.stamp] = len(merged)
        dropped_skills += len(generated.skills) - len(merged)
        dropped_aliases += dropped
        skills.update((spec.name, spec) for spec in merged)
        stamps.append(generated.stamp)
    return Vocabulary(
        skills=skills,
        fields=parsed.fields,
        categories=parsed.categories,
        fingerprint=digest.hexdigest()[:16],
        release=parsed.release,
        stamps=tuple(stamps),
        curated=frozenset(s.name for s in parsed.skills),
        report=LoadReport(sources, dropped_skills, dropped_aliases),
    )


def _raise_problems(path: Path, problems: list[str]) -> None:
    if problems:
        listed = "\n".join(f"  - {p}" for p in problems[:50])
        raise VocabularyError(f"vocabulary {path} has {len(problems)} problem(s):\n{listed}")


def _read_generated(path: Path, name: str) -> tuple[Path, bytes, GeneratedFile]:
    """An included file, next to the YAML or else in the package's data folder."""
    candidates = [path.parent / name, default_vocabulary_path().parent / name]
    included = next((c for c in candidates if c.is_file()), candidates[0])
    try:
        data = included.read_bytes()
        raw = json.loads(data)
    except OSError as exc:
        raise VocabularyError(
            f"cannot read vocabulary {included} (included by {path}): {exc}"
        ) from exc
    except ValueError as exc:
        raise VocabularyError(f"vocabulary {included} is not valid JSON: {exc}") from exc
    try:
        return included, data, GeneratedFile.model_validate(raw)
    except ValidationError as exc:
        raise VocabularyError(
            f"vocabulary {included} has the wrong shape:\n{_pydantic_problems(exc, raw)}"
        ) from exc


def _generated_problems(generated: GeneratedFile, curated: VocabularyFile) -> Iterable[str]:
    """Rules for a generated file: its own names unique, known categories, no links."""
    if generated.format != 1:
        yield f"format must be 1, got {generated.format}"
    names: dict[tuple[str, ...], str] = {}
    for spec in generated.skills:
        where = f"skill {spec.name!r}"
        key = token_key(spec.name)
        if not key:
            yield f"{where}: name has no letters or digits"
        elif key in names:
            yield f"{where}: same name as skill {names[key]!r} in the same file"
        names.setdefault(key, spec.name)
        if spec.category not in curated.categories:
            yield f"{where}: unknown category {spec.category!r}"
        if spec.implies or spec.related or spec.broader:
            yield f"{where}: generated skills carry no implies, related or broader links"
        spellings = [spec.name, *spec.aliases]
        if spec.in_field or spec.patterns:
            yield f"{where}: generated skills carry no in_field spellings or patterns"
        for list_name in ("exact_case", "needs_context"):
            for text in getattr(spec, list_name):
                if text not in spellings:
                    yield f"{where}: {list_name} entry {text!r} is neither the name nor an alias"


def _merge(skills: dict[str, SkillSpec], generated: list[SkillSpec]) -> tuple[list[SkillSpec], int]:
    """The generated skills that fit beside ``skills``, and how many aliases were dropped."""
    taken = {token_key(t) for spec in skills.values() for t in [spec.name, *spec.aliases]}
    replaced = {spec.esco for spec in skills.values() if spec.esco}
    kept = [
        spec
        for spec in generated
        if token_key(spec.name) not in taken and (spec.esco is None or spec.esco not in replaced)
    ]
    names = {token_key(spec.name) for spec in kept}
    claims = Counter(
        key
        for spec in kept
        for key in {token_key(a) for a in spec.aliases} - {token_key(spec.name)}
    )
    merged, dropped = [], 0
    for spec in kept:
        aliases = [
            a
            for a in spec.aliases
            if (key := token_key(a)) and key not in taken and key not in names and claims[key] == 1
        ]
        aliases = list(dict.fromkeys(aliases))
        dropped += len(spec.aliases) - len(aliases)
        if len(aliases) != len(spec.aliases):
            spellings = {spec.name, *aliases}
            spec = spec.model_copy(
                update={
                    "aliases": aliases,
                    "exact_case": [t for t in spec.exact_case if t in spellings],
                    "needs_context": [t for t in spec.needs_context if t in spellings],
                }
            )
        merged.append(spec)
    return merged, dropped


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
    for list_name in (
        "aliases",
        "exact_case",
        "needs_context",
        "in_field",
        "patterns",
        "implies",
        "related",
        "broader",
    ):
        values = getattr(spec, list_name)
        if len(set(values)) != len(values):
            yield f"{where}: duplicate entries in {list_name}"
        if any(not v.strip() for v in values):
            yield f"{where}: empty string in {list_name}"
    for pattern in spec.patterns:
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            yield f"{where}: pattern {pattern!r} is not a valid regular expression ({exc})"
            continue
        if compiled.groups:
            yield f"{where}: pattern {pattern!r} has a capturing group; write (?:...)"
    for list_name in ("exact_case", "needs_context", "in_field"):
        for text in getattr(spec, list_name):
            if text not in [spec.name, *spec.aliases]:
                yield f"{where}: {list_name} entry {text!r} is neither the name nor an alias"
    for list_name in ("implies", "related", "broader"):
        for target in getattr(spec, list_name):
            if target == spec.name:
                yield f"{where}: {list_name} lists the skill itself"
            elif target not in names:
                yield f"{where}: {list_name} names unknown skill {target!r}"
    overlap = set(spec.broader) & set(spec.related)
    if overlap:
        yield f"{where}: {sorted(overlap)} listed in both broader and related"


def _cycle_problems(vocab: VocabularyFile) -> Iterable[str]:
    for link in ("implies", "broader"):
        yield from _link_cycles(vocab, link)


def _link_cycles(vocab: VocabularyFile, link: str) -> Iterable[str]:
    graph = {s.name: [t for t in getattr(s, link) if t != s.name] for s in vocab.skills}
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
            yield f"{link} has a cycle: {cycle}"
