"""Synthetic CVs, job descriptions and company pages with exact ground truth.

The corpus measures skill extraction (precision/recall, negations) and level
accuracy, so each document is rendered from a plan that *is* its truth: held
skills (with the ``implies`` closure), negated mentions, and dated roles whose
intervals follow the parser's conventions (talentrag.ingestion.dates).

Word lists live in ``data/*.yaml``. Filler that would spell a vocabulary skill
is dropped at load, and every rendered document is re-scanned with the same
token matching as the extractor; a document whose mentions disagree with its
plan is regenerated, so the truth cannot drift from the text.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import re
import time
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from talentrag.ingestion.dates import union_years  # the definition of years, shared with the parser

DATA_DIR = Path(__file__).with_name("data")
DEFAULT_VOCABULARY = Path(__file__).resolve().parents[1] / "vocabulary" / "data" / "skills.yaml"
# The tokeniser of talentrag.vocabulary.tokens, copied so the generator depends
# only on the vocabulary file format (a public contract), not on that module.
TOKEN = re.compile(r"(?<![^\W_])\.[^\W_]+|[^\W_]+(?:\+\+|\+|#)?")
PLACEHOLDER = re.compile(r"\{[^}]*\}")
# Words that could make a nearby held skill read as negated or aspirational.
CUES = re.compile(
    r"\b(?:no|not|never|without|lacks?|lacking|none|zero|\w*n't|learn\w*|studying|exploring|"
    r"interest(?:ed)?\s+in|curious|self-study\w*|(?:keen|eager|hop\w*|want\w*|plan\w*|"
    r"would\s+like|'d\s+like|looking|aim\w*|aspir\w*|excited|motivated|intend\w*)\s+to)\b",
    re.IGNORECASE,
)
LEVELS = ("junior", "mid", "senior")
LEVEL_WEIGHTS = (30, 35, 35)
YEAR_BANDS = {"junior": (0.4, 2.6), "mid": (3.4, 5.6), "senior": (6.4, 20.0)}
DURATION_YEARS = {"junior": (1, 2), "mid": (4, 5), "senior": (7, 15)}
MARGIN = 0.3  # every CV stays this far (in years) from the 3.0 and 6.0 thresholds
TECH, GENERAL = "technology", "general"
MONTHS_SHORT = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTHS_LONG = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
DATE_KINDS = ("short", "short", "long", "numeric", "year")
DASHES = (" – ", " – ", " - ", "–", " to ")
PRESENT = ("present", "Present", "Present", "current", "Current", "now")
LAYOUTS = {
    "plain": ".txt",
    "markdown": ".md",
    "keyvalue": ".txt",
    "compact": ".txt",
    "markdown_bold": ".md",
}
ASCII_FIX = str.maketrans({"ł": "l", "Ł": "L", "ı": "i", "ø": "o", "ß": "ss", "đ": "d"})
MAX_ATTEMPTS = 50
# Where a CV's skills come from: (pool, share of draws); empty pools are skipped.
POOL_SHARES = (
    ("anchors", 0.40),
    ("primary", 0.30),
    ("secondary", 0.10),
    ("general_anchors", 0.12),
    ("general", 0.08),
)
TITLE_MODIFIERS = re.compile(
    r"^(?:Junior|Graduate|Associate|Senior|Lead|Principal|Staff|"
    r"Intermediate) "
)

Mentions = frozenset[str]


# -- vocabulary -----------------------------------------------------------------------


def token_key(text: str) -> tuple[str, ...]:
    return tuple(t.casefold() for t in TOKEN.findall(text))


class Matcher:
    """Longest-first token n-gram matching, as talentrag.ingestion.skills does it."""

    def __init__(self, surfaces: dict[tuple[str, ...], list[tuple[str, tuple[str, ...] | None]]]):
        self.surfaces = surfaces
        widths: dict[str, set[int]] = {}
        for key in surfaces:
            widths.setdefault(key[0], set()).add(len(key))
        # first token -> lengths of the spellings it starts, longest first
        self.widths = {first: sorted(w, reverse=True) for first, w in widths.items()}

    def find(self, text: str) -> list[str]:
        """Canonical skills spelled in ``text``, in order, one per mention."""
        tokens = TOKEN.findall(text)
        folded = [t.casefold() for t in tokens]
        found: list[str] = []
        i = 0
        while i < len(tokens):
            widths = self.widths.get(folded[i])
            i += (self._match(tokens, folded, i, widths, found) if widths else 0) or 1
        return found

    def _match(
        self, tokens: list[str], folded: list[str], i: int, widths: list[int], found: list[str]
    ) -> int:
        for width in widths:
            for skill, exact in self.surfaces.get(tuple(folded[i : i + width]), ()):
                if exact is None or tuple(tokens[i : i + width]) == exact:
                    found.append(skill)
                    return width
        return 0


@dataclass(frozen=True)
class Skill:
    name: str
    category: str
    field: str
    forms: tuple[str, ...]  # spellings safe to write (the name first when usable)
    exact: frozenset[str]  # spellings whose case must be kept
    closure: frozenset[str]  # the skill and everything it implies, transitively
    related: tuple[str, ...]


@dataclass
class Vocab:
    skills: dict[str, Skill]
    field_keywords: dict[str, list[str]]
    category_words: dict[str, tuple[str, ...]]
    category_labels: dict[str, str]
    matcher: Matcher

    def mentions(self, text: str) -> Mentions:
        return frozenset(self.matcher.find(PLACEHOLDER.sub(" , ", text)))

    def title_fields(self, title: str) -> set[str]:
        """Fields whose title keywords occur in ``title`` (as Vocabulary.title_field)."""
        words = f" {' '.join(token_key(title))} "
        return {name for name, kws in self.field_keywords.items() if any(k in words for k in kws)}

    def usable(self, names: Iterable[str]) -> tuple[str, ...]:
        return tuple(sorted(n for n in names if n in self.skills and self.skills[n].forms))

    def resolve(self, spellings: Iterable[str]) -> set[str]:
        """Canonical skills for spellings that each read as exactly one skill."""
        found = (self.matcher.find(text) for text in spellings)
        return {names[0] for names in found if len(names) == 1}

    def closure(self, names: Iterable[str]) -> frozenset[str]:
        return frozenset().union(*(self.skills[n].closure for n in names))


def load_vocab(path: Path) -> Vocab:
    """Read the vocabulary YAML directly: its format is the contract, not its loader."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict) or not raw.get("skills"):
        raise ValueError(f"vocabulary {path} has no skills")
    specs = [s for s in raw["skills"] if isinstance(s, dict) and s.get("name")]
    categories = raw.get("categories") or {}
    names = {s["name"] for s in specs}
    matcher = Matcher(_surfaces(specs))
    implies = {s["name"]: [x for x in s.get("implies") or [] if x in names] for s in specs}
    skills = {s["name"]: _skill(s, categories, matcher, implies, names) for s in specs}
    return Vocab(
        skills=skills,
        field_keywords={
            name: [f" {' '.join(token_key(k))} " for k in (spec or {}).get("titles") or []]
            for name, spec in (raw.get("fields") or {}).items()
        },
        category_words={k: _words(f"{k} {v.get('label', '')}") for k, v in categories.items()},
        category_labels={k: str(v.get("label") or k) for k, v in categories.items()},
        matcher=matcher,
    )


def _surfaces(specs: list[dict[str, Any]]) -> dict[tuple[str, ...], list[tuple[str, Any]]]:
    surfaces: dict[tuple[str, ...], list[tuple[str, Any]]] = {}
    for spec in specs:
        exact_case = set(spec.get("exact_case") or [])
        for text in [spec["name"], *(spec.get("aliases") or [])]:
            exact = tuple(TOKEN.findall(text)) if text in exact_case else None
            if key := token_key(text):
                surfaces.setdefault(key, []).append((spec["name"], exact))
    return surfaces


def _skill(
    spec: dict[str, Any],
    categories: dict[str, Any],
    matcher: Matcher,
    implies: dict[str, list[str]],
    names: set[str],
) -> Skill:
    name, category = spec["name"], str(spec.get("category", ""))
    texts = dict.fromkeys([name, *(spec.get("aliases") or [])])
    forms = tuple(t for t in texts if _is_clear_spelling(t, name, matcher))
    return Skill(
        name=name,
        category=category,
        field=str((categories.get(category) or {}).get("field", GENERAL)),
        forms=forms,
        exact=frozenset(spec.get("exact_case") or []),
        closure=_closure(name, implies),
        related=tuple(r for r in spec.get("related") or [] if r in names and r != name),
    )


def _is_clear_spelling(text: str, name: str, matcher: Matcher) -> bool:
    """Owned by this skill alone and read back as exactly this skill."""
    owners = {skill for skill, _ in matcher.surfaces.get(token_key(text), ())}
    return owners == {name} and matcher.find(text) == [name]


def _closure(name: str, implies: dict[str, list[str]]) -> frozenset[str]:
    seen, stack = {name}, list(implies.get(name, []))
    while stack:
        if (nxt := stack.pop()) not in seen:
            seen.add(nxt)
            stack.extend(implies.get(nxt, []))
    return frozenset(seen)


def _words(text: str) -> tuple[str, ...]:
    return tuple(w for w in re.split(r"[^a-z0-9]+", text.lower()) if w)


# -- word lists -----------------------------------------------------------------------


@dataclass(frozen=True)
class Profile:
    key: str
    field: str
    anchors: tuple[str, ...]  # the profile's common skills
    primary: tuple[str, ...]  # skills of the profile's own categories, and the anchors
    secondary: tuple[str, ...]  # other skills of the same field
    titles: dict[str, list[tuple[str, Mentions]]]
    focus: tuple[str, ...]


@dataclass(frozen=True)
class Bullets:
    single: tuple[str, ...]
    pair: tuple[str, ...]
    plain: tuple[str, ...]
    keyed: tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...]


@dataclass
class Tables:
    """Everything precomputed once per vocabulary, so a document costs well under 1 ms."""

    vocab: Vocab
    profiles: dict[str, Profile]
    field_profiles: dict[str, tuple[str, ...]]
    field_weights: dict[str, float]
    domains: dict[str, tuple[str, ...]]
    cultures: list[tuple[tuple[str, ...], tuple[str, ...]]]
    lists: dict[str, Any]
    bullets: dict[str, Bullets]
    degrees: dict[str, list[tuple[str, int, Mentions]]]
    certs: dict[str, list[tuple[str, Mentions]]]
    general: tuple[str, ...]
    general_anchors: dict[str, tuple[str, ...]]
    group_labels: dict[str, str]
    template_cache: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = field(
        default_factory=dict
    )

    def templates(self, role_field: str, skill: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(single, pair) bullet templates fitting ``skill`` in a role of ``role_field``."""
        spec = self.vocab.skills[skill]
        key = (role_field, spec.category)
        if key not in self.template_cache:
            self.template_cache[key] = self._templates(role_field, spec)
        return self.template_cache[key]

    def _templates(self, role_field: str, spec: Skill) -> tuple[tuple[str, ...], tuple[str, ...]]:
        book = self.bullets.get(role_field) or self.bullets[TECH]
        words = self.vocab.category_words.get(spec.category, ())
        single, pair = list(book.single), list(book.pair)
        for keys, keyed_single, keyed_pair in book.keyed:
            if has_keyword(words, keys):
                single, pair = [*keyed_single, *single], [*keyed_pair, *pair]
        if spec.field == GENERAL or spec.field != role_field:
            single = list(self.bullets[GENERAL].single)
        return tuple(single), tuple(pair)


class Cleaner:
    """Drops filler that would add an unplanned skill or a negation cue."""

    def __init__(self, vocab: Vocab):
        self.vocab = vocab

    def plain(self, texts: Iterable[str]) -> tuple[str, ...]:
        return tuple(t for t in texts if not CUES.search(t) and not self.vocab.mentions(t))

    def no_skills(self, texts: Iterable[str]) -> tuple[str, ...]:
        return tuple(t for t in texts if not self.vocab.mentions(t))

    def conditional(self, texts: Iterable[str]) -> list[tuple[str, Mentions]]:
        """Text with the skills it spells: usable only by holders of all of them."""
        return [(t, self.vocab.mentions(t)) for t in texts if not CUES.search(t)]


def _load_yaml(name: str) -> Any:
    return yaml.safe_load((DATA_DIR / f"{name}.yaml").read_text(encoding="utf-8"))


def build_tables(vocab: Vocab) -> Tables:
    data = {
        name: _load_yaml(name)
        for name in (
            "names",
            "places",
            "profiles",
            "bullets",
            "summaries",
            "negations",
            "sections",
            "jobs",
        )
    }
    clean = Cleaner(vocab)
    profiles = _profiles(data["profiles"], vocab, clean)
    general = vocab.usable(n for n, s in vocab.skills.items() if s.field == GENERAL)
    field_profiles = _field_profiles(profiles, general)
    weights = data["profiles"]["field_weights"]
    return Tables(
        vocab=vocab,
        profiles=profiles,
        field_profiles=field_profiles,
        field_weights={f: float(w) for f, w in weights.items() if f in field_profiles},
        domains={f: clean.plain(v) for f, v in data["profiles"]["domains"].items()},
        cultures=_cultures(data["names"], clean),
        lists=_lists(data, clean),
        bullets={f: _bullets(spec, clean) for f, spec in data["bullets"].items()},
        degrees={f: _degrees(v, clean) for f, v in data["sections"]["degrees"].items()},
        certs={f: clean.conditional(v) for f, v in data["sections"]["certifications"].items()},
        general=general,
        general_anchors={
            f: vocab.usable(vocab.resolve(names))
            for f, names in data["profiles"]["general_anchors"].items()
        },
        group_labels=_group_labels(vocab),
    )


def _profiles(spec: dict[str, Any], vocab: Vocab, clean: Cleaner) -> dict[str, Profile]:
    out = {}
    for key, prof in spec["profiles"].items():
        fld = prof["field"]
        own = vocab.usable(n for n, s in vocab.skills.items() if s.field == fld)
        anchors = vocab.usable(vocab.resolve(prof.get("anchors") or []))
        keys = tuple(prof.get("keywords") or ())
        primary = {*anchors, *(n for n in own if _category_matches(vocab, n, keys))}
        if fld != TECH:
            primary |= set(own)
        titles = {
            lvl: _titles(names, vocab, fld, clean)
            for lvl, names in _raw_titles(prof, spec["modifiers"]).items()
        }
        out[key] = Profile(
            key,
            fld,
            anchors,
            tuple(sorted(primary)),
            tuple(sorted(set(own) - primary)),
            titles,
            clean.plain(prof.get("focus") or []),
        )
    return out


def has_keyword(words: Iterable[str], keys: Iterable[str]) -> bool:
    """Whole-word match, plural allowed ("database" matches "databases", not "data")."""
    keys = set(keys)
    return any(w in keys or (w.endswith("s") and w[:-1] in keys) for w in words)


def _category_matches(vocab: Vocab, skill: str, keys: Sequence[str]) -> bool:
    return has_keyword(vocab.category_words.get(vocab.skills[skill].category, ()), keys)


def _raw_titles(prof: dict[str, Any], modifiers: dict[str, list[str]]) -> dict[str, list[str]]:
    if "levels" in prof:
        return {lvl: list(prof["levels"][lvl]) for lvl in LEVELS}
    return {lvl: [m.format(t=b) for b in prof["titles"] for m in modifiers[lvl]] for lvl in LEVELS}


def _titles(names: list[str], vocab: Vocab, fld: str, clean: Cleaner) -> list[tuple[str, Mentions]]:
    """Titles the parser would place in ``fld`` by the vocabulary's title keywords."""
    if vocab.field_keywords.get(fld):
        placed = [n for n in names if vocab.title_fields(n) == {fld}]
        names = placed or names
    return clean.conditional(names)


def _field_profiles(
    profiles: dict[str, Profile], general: tuple[str, ...]
) -> dict[str, tuple[str, ...]]:
    """Fields with enough skills to write a CV, and the profiles they offer."""
    out: dict[str, list[str]] = {}
    for key, prof in profiles.items():
        if len(prof.primary) + len(prof.secondary) + len(general) >= 6 and prof.primary:
            out.setdefault(prof.field, []).append(key)
    if TECH not in out:
        raise ValueError("the vocabulary has too few technology skills to write CVs")
    return {f: tuple(v) for f, v in out.items()}


def _cultures(spec: dict[str, Any], clean: Cleaner) -> list[tuple[tuple[str, ...], ...]]:
    cultures = [
        (clean.plain(c["first"]), clean.plain(c["last"])) for c in spec["cultures"].values()
    ]
    return [c for c in cultures if c[0] and c[1]]


def _lists(data: dict[str, Any], clean: Cleaner) -> dict[str, Any]:
    places, summaries, negations = data["places"], data["summaries"], data["negations"]
    sections, jobs = data["sections"], data["jobs"]
    out: dict[str, Any] = {
        k: clean.plain(places[k])
        for k in ("cities", "universities", "languages", "language_levels", "hobbies")
    }
    out["companies"] = {f: clean.plain(v) for f, v in places["companies"].items()}
    out["bootcamps"] = clean.plain(sections["bootcamp_schools"])
    out["headings"] = {k: clean.plain(v) for k, v in sections["headings"].items()}
    out["projects"] = clean.plain(sections["projects"])
    for key in (
        "years_phrases",
        "exact_years_phrases",
        "openers_with_years",
        "openers",
        "junior_openers",
        "skill_sentences",
        "career_change",
    ):
        out[key] = clean.plain(summaries[key])
    out["closers"] = {f: clean.plain(v) for f, v in summaries["closers"].items()}
    for key in ("sentences", "pairs", "suffixes", "lines"):
        out[f"neg_{key}"] = clean.no_skills(negations[key])
    for key in (
        "teams",
        "intros",
        "about",
        "responsibilities",
        "requirements",
        "nice_to_have",
        "offers",
    ):
        out[f"jd_{key}"] = clean.plain(jobs[key])
    out["company"] = {k: clean.plain(v) for k, v in jobs["company_pages"].items()}
    _check_lists(out)
    if not any("{domain}" in o for o in out["openers_with_years"]):
        raise ValueError("summaries.yaml: no opener with {domain} left after filtering")
    return out


def _check_lists(lists: dict[str, Any], where: str = "") -> None:
    """Fail loudly when filtering against the vocabulary emptied a word list."""
    for key, value in lists.items():
        if isinstance(value, dict):
            _check_lists(value, f"{where}{key}.")
        elif not value:
            raise ValueError(f"word list {where}{key} has no entry left that spells no skill")


def _bullets(spec: dict[str, Any], clean: Cleaner) -> Bullets:
    keyed = tuple(
        (
            tuple(k.lower() for k in g["keys"]),
            clean.plain(g.get("skill") or []),
            clean.plain(g.get("pair") or []),
        )
        for g in spec.get("by_keyword") or []
    )
    return Bullets(
        clean.plain(spec.get("skill") or []),
        clean.plain(spec.get("pair") or []),
        clean.plain(spec.get("plain") or []),
        keyed,
    )


def _degrees(entries: list[list[Any]], clean: Cleaner) -> list[tuple[str, int, Mentions]]:
    lengths = {str(name): int(years) for name, years in entries}
    return [(name, lengths[name], m) for name, m in clean.conditional(lengths)]


def _group_labels(vocab: Vocab) -> dict[str, str]:
    """Category labels usable as skill-group headings (those spelling no skill)."""
    return {k: label for k, label in vocab.category_labels.items() if not vocab.mentions(label)}


_TABLES: dict[tuple[str, int], Tables] = {}


def tables_for(path: Path) -> Tables:
    """Tables for a vocabulary file, cached while the file is unchanged."""
    key = (str(path.resolve()), path.stat().st_mtime_ns)
    if key not in _TABLES:
        _TABLES.clear()
        _TABLES[key] = build_tables(load_vocab(path))
    return _TABLES[key]


# -- dates ----------------------------------------------------------------------------


def month_index(day: date) -> int:
    return day.year * 12 + day.month - 1


def month_start(index: int) -> date:
    return date(index // 12, index % 12 + 1, 1)


def add_years(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def level_for(years: float) -> str:
    return "junior" if years < 3 else "mid" if years <= 6 else "senior"


@dataclass(frozen=True)
class DateStyle:
    kind: str
    dash: str
    present: str

    def month(self, index: int, kind: str) -> str:
        year, month = divmod(index, 12)
        if kind == "long":
            return f"{MONTHS_LONG[month]} {year}"
        if kind == "numeric":
            return f"{month + 1:02d}/{year}"
        return f"{MONTHS_SHORT[month]} {year}"


@dataclass(frozen=True)
class Span:
    """A planned role in month indices: [start, end) and whether it is ongoing."""

    start: int
    end: int
    present: bool
    field: str
    side: bool = False


@dataclass
class Role:
    title: str
    company: str
    city: str
    field: str
    start: date
    end: date
    dates: str
    months: int  # months of the field's experience before this role (for its title)
    present: bool = False
    side: bool = False
    bullets: list[str] = field(default_factory=list)

    def truth(self) -> dict[str, str]:
        return {
            "title": self.title,
            "company": self.company,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "field": self.field,
        }


# -- a CV -----------------------------------------------------------------------------


@dataclass
class CvDoc:
    """What a layout renders; built by CvBuilder."""

    name: str
    email: str
    phone: str
    city: str
    headline: str | None
    summary: list[str]
    roles: list[Role]
    skills: list[str]
    groups: list[tuple[str, list[str]]]
    learning: str | None  # "Learning: Rust, Go"
    suffix: str | None  # "Rust (learning)", last item of the skills list
    goals: list[str]
    education: list[tuple[str, str, str]]
    certifications: list[str]
    projects: list[str]
    languages: list[str]
    interests: list[str]
    headings: dict[str, str]


class Speller:
    """Writes skills as this candidate does: name or alias, sometimes re-cased."""

    def __init__(self, rng: random.Random, vocab: Vocab):
        self.rng, self.vocab = rng, vocab
        self.chosen: dict[str, str] = {}

    def __call__(self, name: str) -> str:
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


def draw_pool(tables: Tables, profile: Profile, rng: random.Random) -> tuple[str, ...]:
    """One of the profile's skill pools, picked by POOL_SHARES (may be empty)."""
    roll, pools = (
        rng.random(),
        {
            "anchors": profile.anchors,
            "primary": profile.primary,
            "secondary": profile.secondary,
            "general_anchors": tables.general_anchors.get(
                profile.field if profile.field == TECH else "other", ()
            ),
            "general": tables.general,
        },
    )
    for name, share in POOL_SHARES:
        if roll < share:
            return pools[name]
        roll -= share
    return pools["general"]


def natural_list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def with_article(text: str) -> str:
    return f"{'an' if text[:1].lower() in 'aeiou' else 'a'} {text}"


class CvBuilder:
    """Plans one CV (field, skills, negations, career) and fills a CvDoc from the plan."""

    def __init__(self, tables: Tables, rng: random.Random, as_of: date):
        self.t, self.rng, self.as_of = tables, rng, as_of
        self.vocab = tables.vocab
        self.spell = Speller(rng, tables.vocab)
        self.now = month_index(as_of)
        self.unplaced: dict[str, list[str]] = {}
        self.used_templates: set[str] = set()

    # plan ---------------------------------------------------------------------------
    def plan(self) -> None:
        rng, t = self.rng, self.t
        fields = list(t.field_weights)
        self.field = rng.choices(fields, weights=[t.field_weights[f] for f in fields])[0]
        self.profile = t.profiles[rng.choice(t.field_profiles[self.field])]
        self.prev_profile = self._previous_profile()
        self.level = rng.choices(LEVELS, weights=LEVEL_WEIGHTS)[0]
        self.duration_only = self.prev_profile is None and rng.random() < 0.05
        self._choose_skills()
        self._choose_negated()
        if self.duration_only:
            self._duration_timeline()
        else:
            self._dated_timeline()
        self.cv_level = level_for(self.years)
        self._assign_titles()

    def _previous_profile(self) -> Profile | None:
        if self.rng.random() >= 0.10:
            return None
        others = [f for f in self.t.field_profiles if f != self.field]
        if self.field != TECH:
            others = [f for f in others if f != TECH] or others
        return self.t.profiles[self.rng.choice(self.t.field_profiles[self.rng.choice(others)])]

    def _choose_skills(self) -> None:
        rng, skills = self.rng, self.vocab.skills
        target = rng.randint(4, 12)  # titles, degrees and implied skills add more
        self.held: set[str] = set()
        previous = self.prev_profile
        self.prev_explicit = self._draw(previous, rng.randint(1, 3), 14) if previous else []
        self.explicit = self._draw(self.profile, 14, max(target, len(self.held) + 3))
        holder = next((s for s in self.explicit if skills[s].related), None)
        if holder and rng.random() < 0.15:
            self._take(rng.choice(skills[holder].related), self.explicit)
        self._fill_minimum()
        for name in sorted(self.held - set(self.explicit) - set(self.prev_explicit)):
            if skills[name].forms and rng.random() < 0.25:
                self.explicit.append(name)  # an implied skill written out as well

    def _draw(self, profile: Profile, picks: int, held_target: int) -> list[str]:
        """Up to ``picks`` skills, mostly of the profile's own, until enough are held."""
        chosen: list[str] = []
        for _ in range(60):
            if len(chosen) >= picks or len(self.held) >= held_target:
                break
            if pool := draw_pool(self.t, profile, self.rng):
                self._take(self.rng.choice(pool), chosen)
        return chosen

    def _take(self, name: str, into: list[str]) -> None:
        closure = self.vocab.skills[name].closure
        if name in self.held or not self.vocab.skills[name].forms:
            return
        if len(self.held | closure) <= 14:
            into.append(name)
            self.held |= closure

    def _adopt(self, mentions: Mentions) -> bool:
        """Hold what a title, degree or certificate spells, if the plan stays valid."""
        if mentions <= self.held:
            return True
        closure = self.vocab.closure(mentions)
        if closure & set(self.negated) or len(self.held | closure) > 14:
            return False
        self.held |= closure
        return True

    def _adoptable(self, options: Sequence[tuple[Any, Mentions]]) -> Any | None:
        """A random option whose skills the candidate holds or can take on."""
        for value, mentions in self.rng.sample(options, len(options)):
            if self._adopt(mentions):
                return value
        return None

    def _fill_minimum(self) -> None:
        pool = [*self.profile.primary, *self.profile.secondary, *self.t.general]
        for _ in range(100):
            if len(self.held) >= 4:
                return
            self._take(self.rng.choice(pool), self.explicit)

    def _choose_negated(self) -> None:
        self.negated: list[str] = []
        if self.rng.random() >= 0.4:
            return
        for _ in range(1 if self.rng.random() < 0.65 else 2):
            source = self.profile.anchors if self.rng.random() < 0.5 else self.profile.primary
            pool = [
                s
                for s in source or self.profile.primary
                if s not in self.held and s not in self.negated
            ]
            if pool:
                self.negated.append(self.rng.choice(pool))

    # career ---------------------------------------------------------------------------
    def _dated_timeline(self) -> None:
        rng = self.rng
        self.style = DateStyle(rng.choice(DATE_KINDS), rng.choice(DASHES), rng.choice(PRESENT))
        for _ in range(MAX_ATTEMPTS):
            spans = self._current_spans()
            spans += self._previous_spans(min(s.start for s in spans))
            firsts = {
                f: min(s.start for s in spans if s.field == f) for f in {s.field for s in spans}
            }
            roles = [self._role(span, firsts[span.field]) for span in spans]
            self.years = union_years((r.start, r.end) for r in roles if r.field == self.field)
            if self.clear_of_thresholds():
                break
        self.roles = sorted(roles, key=lambda r: (r.end, r.start), reverse=True)

    def clear_of_thresholds(self) -> bool:
        """Far enough from 3.0 and 6.0 years that month rounding cannot flip the level."""
        return abs(self.years - 3) >= MARGIN and abs(self.years - 6) >= MARGIN

    def _current_spans(self) -> list[Span]:
        rng = self.rng
        low, high = YEAR_BANDS[self.level]
        target = low + (high - low) * rng.random() ** (1.6 if self.level == "senior" else 1)
        months = max(4, round(target * 12))
        parts = self._split(months, self._role_count(months))
        present = rng.random() < 0.88
        end = self.now if present else self.now - rng.randint(1, 6)
        spans = []
        for i, part in enumerate(parts):
            spans.append(Span(end - part, end, present and i == 0, self.field))
            end -= part + self._gap()
        return spans + self._side_span(spans)

    def _gap(self) -> int:
        """Months between a role and the one before it; negative when they overlap."""
        roll = self.rng.random()
        if roll < 0.25:
            return self.rng.randint(1, 9)
        return -self.rng.randint(1, 2) if roll < 0.35 else 0

    def _role_count(self, months: int) -> int:
        most = max(1, min(5, months // 10))
        low = 2 if self.level == "senior" else 1
        return self.rng.randint(min(low, most), min(most, 2 if self.level == "junior" else 5))

    def _split(self, months: int, count: int) -> list[int]:
        weights = [0.5 + self.rng.random() for _ in range(count)]
        parts = [max(3, round(months * w / sum(weights))) for w in weights]
        parts[-1] = max(3, parts[-1] + months - sum(parts))
        return parts

    def _side_span(self, spans: list[Span]) -> list[Span]:
        """Occasionally a freelance role nested inside a long one (the union ignores it)."""
        long = [s for s in spans if s.end - s.start >= 24]
        if not long or self.rng.random() >= 0.06:
            return []
        host = self.rng.choice(long)
        start = host.start + self.rng.randint(3, host.end - host.start - 12)
        length = self.rng.randint(4, host.end - start - 3)
        return [Span(start, start + length, False, self.field, side=True)]

    def _previous_spans(self, first_start: int) -> list[Span]:
        if self.prev_profile is None:
            return []
        end, spans = first_start - self.rng.choice((0, 0, 2, 5, 9)), []
        for _ in range(self.rng.randint(1, 2)):
            length = self.rng.randint(12, 84)
            spans.append(Span(end - length, end, False, self.prev_profile.field))
            end -= length + self.rng.choice((0, 0, 3))
        return spans

    def _role(self, span: Span, field_start: int) -> Role:
        kind = self.style.kind if self.rng.random() < 0.85 else self.rng.choice(DATE_KINDS)
        if kind == "year" and not self._year_ok(span):
            kind = "short"
        text, start, end = self._render_span(span, kind)
        return Role(
            title="",
            company="",
            city="",
            field=span.field,
            start=start,
            end=end,
            dates=text,
            months=span.start - field_start,
            present=span.present,
            side=span.side,
        )

    def _year_ok(self, span: Span) -> bool:
        start_year = span.start // 12
        if span.present:
            return date(start_year, 7, 1) < self.as_of
        return (span.end - 1) // 12 > start_year

    def _render_span(self, span: Span, kind: str) -> tuple[str, date, date]:
        style = self.style
        if kind == "year":
            start_year, end_year = span.start // 12, (span.end - 1) // 12
            start = date(start_year, 7, 1)
            end, end_text = (
                (self.as_of, style.present)
                if span.present
                else (date(end_year, 7, 1), str(end_year))
            )
            return f"{start_year}{style.dash}{end_text}", start, end
        start_text = style.month(span.start, kind)
        if span.present:
            return f"{start_text}{style.dash}{style.present}", month_start(span.start), self.as_of
        end_text = style.month(span.end - 1, kind)
        return f"{start_text}{style.dash}{end_text}", month_start(span.start), month_start(span.end)

    def _duration_timeline(self) -> None:
        """Undated roles ("3 years"), whole years back from as_of; the summary states the sum."""
        rng = self.rng
        total = rng.randint(*DURATION_YEARS[self.level])
        parts = self._split_years(total)
        end, roles, done = self.as_of, [], sum(parts)
        unit = rng.choice(("{n} {u}", "{n} {u}", "{n} {u} in total"))
        for i, years in enumerate(parts):
            done -= years
            start = add_years(end, -years)
            text = unit.format(n=years, u="year" if years == 1 else rng.choice(("years", "yrs")))
            roles.append(
                Role(
                    title="",
                    company="",
                    city="",
                    field=self.field,
                    start=start,
                    end=end,
                    dates=text,
                    months=done * 12,
                    present=i == 0,
                )
            )
            end = start
        self.roles, self.total_years = roles, total
        self.years = union_years((r.start, r.end) for r in roles)

    def _split_years(self, total: int) -> list[int]:
        count = self.rng.randint(1, min(3, total))
        cuts = sorted(self.rng.sample(range(1, total), count - 1))
        return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]

    # titles and companies -------------------------------------------------------------
    def _assign_titles(self) -> None:
        rng, lists = self.rng, self.t.lists
        city = rng.choice(lists["cities"])
        self.city = city
        used: set[str] = set()
        for index, role in enumerate(self.roles):
            profile = self.profile if role.field == self.field else self.prev_profile
            level = self._title_level(role, index == 0)
            role.title = self._title(profile, level)
            role.company = self._company(role, used)
            role.city = city if rng.random() < 0.7 else rng.choice(lists["cities"])

    def _title_level(self, role: Role, latest: bool) -> str:
        if not latest:
            return level_for(role.months / 12)
        if self.rng.random() < 0.10:  # a title that misleads; years decide the level
            return {"junior": "senior", "mid": "senior", "senior": "mid"}[self.cv_level]
        return self.cv_level

    def _title(self, profile: Profile, level: str) -> str:
        title, mentions = self.rng.choice(profile.titles[level])
        if self._adopt(mentions):
            return title
        return self._adoptable(profile.titles[level]) or profile.key.title()

    def _company(self, role: Role, used: set[str]) -> str:
        if role.side:
            return self.rng.choice(("Self-employed", "Freelance", "Contract work"))
        companies = self.t.lists["companies"].get(role.field) or self.t.lists["companies"][TECH]
        for _ in range(10):
            company = self.rng.choice(companies)
            if company not in used:
                break
        used.add(company)
        return company

    # text -------------------------------------------------------------------------------
    def write(self) -> CvDoc:
        rng = self.rng
        self.unplaced = {
            "current": self._queue(self.explicit),
            "previous": self._queue(self.prev_explicit),
        }
        placement = rng.choice(("summary", "summary", "goals", "line", "suffix"))
        neg_sentences = self._negation_sentences() if placement in ("summary", "goals") else []
        summary = self._summary()
        if placement == "summary":
            summary += neg_sentences
        for role in self.roles:
            role.bullets = self._bullets(role)
        skills, groups = self._skills_section()
        learning, suffix = self._learning(placement)
        return CvDoc(
            name=self.name,
            email=self.email,
            phone=self.phone,
            city=self.city,
            headline=self.roles[0].title if rng.random() < 0.4 else None,
            summary=summary,
            roles=self.roles,
            skills=skills,
            groups=groups,
            learning=learning,
            suffix=suffix,
            goals=neg_sentences if placement == "goals" else [],
            education=self._education(),
            certifications=self._certifications(),
            projects=self._projects(),
            languages=self._languages(),
            interests=self._interests(),
            headings={k: rng.choice(v) for k, v in self.t.lists["headings"].items()},
        )

    def _queue(self, names: list[str]) -> list[str]:
        queue = list(names)
        self.rng.shuffle(queue)
        return queue

    def _pick(self, pool_key: str) -> str | None:
        """A skill to mention: first those not written yet, then any of the pool."""
        queue = self.unplaced[pool_key]
        if queue:
            return queue.pop()
        pool = self.explicit if pool_key == "current" else self.prev_explicit
        return self.rng.choice(pool) if pool else None

    def person(self) -> None:
        rng = self.rng
        first_names, last_names = rng.choice(self.t.cultures)
        if rng.random() < 0.15:
            last_names = rng.choice(self.t.cultures)[1]
        first, last = rng.choice(first_names), rng.choice(last_names)
        self.name = f"{first} {last}"
        a, b = ascii_slug(first), ascii_slug(last)
        local = rng.choice(
            (f"{a}.{b}", f"{a[0]}{b}", f"{a}_{b}", f"{a}.{b}{rng.randint(1, 99)}", f"{b}.{a}")
        )
        self.email = f"{local}@example.com"
        self.phone = rng.choice(
            ("+1 555-01{:02d}", "(555) 555-01{:02d}", "555-01{:02d}", "+1 555 01{:02d}")
        ).format(rng.randint(0, 99))

    def _summary(self) -> list[str]:
        rng, lists = self.rng, self.t.lists
        sentences = [self._opener()]
        if self.prev_profile is not None and rng.random() < 0.7:
            sentences.append(
                rng.choice(lists["career_change"]).format(
                    domain=self._domain(self.field),
                    prev_domain=self._domain(self.prev_profile.field),
                )
            )
        names = [n for n in (self._pick("current") for _ in range(rng.randint(1, 3))) if n]
        if names:
            spelled = natural_list(list(dict.fromkeys(self.spell(n) for n in names)))
            sentences.append(rng.choice(lists["skill_sentences"]).format(skills=spelled))
        closers = lists["closers"].get(self.field) or ()
        if closers and rng.random() < 0.5:
            sentences.append(rng.choice(closers))
        return sentences

    def _opener(self) -> str:
        rng, lists = self.rng, self.t.lists
        title = self.roles[0].title
        ctx = {
            "Role": title[:1].upper() + title[1:],
            "role": title,
            "a_role": with_article(title),
            "domain": self._domain(self.field),
            "focus": rng.choice(self.profile.focus),
            "city": self.city,
        }
        whole = int(self.years) if not self.duration_only else self.total_years
        if self.duration_only:
            phrase = rng.choice(lists["exact_years_phrases"])
            ctx["years"] = phrase.format(y=whole, unit="year" if whole == 1 else "years")
            return rng.choice([o for o in lists["openers_with_years"] if "{domain}" in o]).format(
                **ctx
            )
        if whole >= 1 and rng.random() < 0.4:
            phrase = rng.choice(lists["years_phrases"])
            ctx["years"] = phrase.format(y=whole, unit="year" if whole == 1 else "years")
            openers = lists["openers_with_years"]
            if self.prev_profile is not None:
                openers = [o for o in openers if "{domain}" in o]
            return rng.choice(openers).format(**ctx)
        if self.cv_level == "junior" and rng.random() < 0.5:
            role = TITLE_MODIFIERS.sub("", title)
            ctx.update(Role=role, role=role, a_role=with_article(role))
            return rng.choice(lists["junior_openers"]).format(**ctx)
        return rng.choice(lists["openers"]).format(**ctx)

    def _domain(self, fld: str) -> str:
        return self.rng.choice(self.t.domains.get(fld) or (fld,))

    def _bullets(self, role: Role) -> list[str]:
        rng = self.rng
        pool_key = "current" if role.field == self.field else "previous"
        count = rng.randint(3, 5) if role is self.roles[0] else rng.randint(1, 4)
        book = self.t.bullets.get(role.field) or self.t.bullets[TECH]
        bullets = [self._bullet(role, pool_key, book) for _ in range(count)]
        return list(dict.fromkeys(bullets))

    def _bullet(self, role: Role, pool_key: str, book: Bullets) -> str:
        rng = self.rng
        numbers = {"pct": rng.randint(10, 60), "n": rng.randint(2, 40), "team": rng.randint(3, 12)}
        roll = rng.random()
        first = self._pick(pool_key) if roll < 0.72 else None
        if first is None:
            return self._template(book.plain).format(**numbers)
        single, pair = self.t.templates(role.field, first)
        second = self._pick(pool_key) if roll >= 0.58 and pair else None
        if second is None or second == first:
            return self._template(single).format(a=self.spell(first), **numbers)
        return self._template(pair).format(a=self.spell(first), b=self.spell(second), **numbers)

    def _template(self, options: Sequence[str]) -> str:
        """A template this CV has not used yet, while there are any."""
        fresh = [t for t in options if t not in self.used_templates]
        template = self.rng.choice(fresh or options)
        self.used_templates.add(template)
        return template

    def _skills_section(self) -> tuple[list[str], list[tuple[str, list[str]]]]:
        rng = self.rng
        names = [n for n in self.explicit if rng.random() < 0.75]
        names += [n for n in self.prev_explicit if rng.random() < 0.4]
        names += self.unplaced["current"] + self.unplaced["previous"]
        self.unplaced = {"current": [], "previous": []}
        names = list(dict.fromkeys(names)) or [*self.explicit, *self.prev_explicit][:1]
        rng.shuffle(names)
        groups: dict[str, list[str]] = {}
        for name in names:
            label = self.t.group_labels.get(self.vocab.skills[name].category, "Other")
            groups.setdefault(label, []).append(self.spell(name))
        return [self.spell.chosen[n] for n in names], list(groups.items())

    def _negation_sentences(self) -> list[str]:
        lists, rng = self.t.lists, self.rng
        forms = [self.spell(n) for n in self.negated]
        if len(forms) == 2 and rng.random() < 0.5 and lists["neg_pairs"]:
            return [rng.choice(lists["neg_pairs"]).format(a=forms[0], b=forms[1])]
        return [rng.choice(lists["neg_sentences"]).format(a=f) for f in forms]

    def _learning(self, placement: str) -> tuple[str | None, str | None]:
        if not self.negated or placement in ("summary", "goals"):
            return None, None
        forms = [self.spell(n) for n in self.negated]
        if placement == "suffix" and len(forms) == 1:
            return None, self.rng.choice(self.t.lists["neg_suffixes"]).format(a=forms[0])
        return self.rng.choice(self.t.lists["neg_lines"]).format(list=", ".join(forms)), None

    def _education(self) -> list[tuple[str, str, str]]:
        """A degree finished before the first job; a career changer may retrain later."""
        first = min(self.roles, key=lambda r: r.start)
        entries = []
        if entry := self._degree(first.field, first.start.year - self.rng.choice((0, 0, 1))):
            entries.append(entry)
        if self.prev_profile is not None and self.field == TECH and self.rng.random() < 0.5:
            current = min((r for r in self.roles if r.field == self.field), key=lambda r: r.start)
            year = current.start.year - self.rng.choice((0, 1))
            if entry := self._degree(self.field, year, retrain=True):
                entries.insert(0, entry)
        return entries

    def _degree(
        self, fld: str, end_year: int, retrain: bool = False
    ) -> tuple[str, str, str] | None:
        options = [((d, n), m) for d, n, m in self.t.degrees.get(fld, ())]
        if retrain:  # a bootcamp or a one-year master's, not a second bachelor's
            options = [o for o in options if o[0][1] <= 1] or options
        chosen = self._adoptable(options)
        if chosen is None:
            return None
        degree, length = chosen
        lists = self.t.lists
        school = self.rng.choice(lists["bootcamps"] if length == 0 else lists["universities"])
        return degree, school, self._study_dates(end_year, length)

    def _study_dates(self, end_year: int, length: int) -> str:
        rng = self.rng
        if length == 0 or rng.random() < 0.2:
            return str(end_year)
        dash = rng.choice((" – ", " - ", "–"))
        if rng.random() < 0.3:
            return f"Sep {end_year - length}{dash}Jun {end_year}"
        return f"{end_year - length}{dash}{end_year}"

    def _certifications(self) -> list[str]:
        rng, options = self.rng, list(self.t.certs.get(self.field, ()))
        if rng.random() >= 0.3:
            return []
        low = min(r.start for r in self.roles if r.field == self.field).year
        picks = []
        for _ in range(rng.randint(1, 2)):
            if (cert := self._adoptable(options)) and cert not in picks:
                picks.append(cert)
        return [
            rng.choice(("{} ({})", "{}, {}")).format(c, rng.randint(low, self.as_of.year))
            for c in picks
        ]

    def _projects(self) -> list[str]:
        rng = self.rng
        if self.field != TECH or not self.explicit or rng.random() >= 0.25:
            return []
        out = []
        for template in rng.sample(self.t.lists["projects"], rng.randint(1, 2)):
            a, b = rng.choice(self.explicit), rng.choice(self.explicit)
            if "{b}" in template and a == b:
                continue
            out.append(template.format(a=self.spell(a), b=self.spell(b)))
        return out

    def _languages(self) -> list[str]:
        rng, lists = self.rng, self.t.lists
        if rng.random() >= 0.4:
            return []
        names = rng.sample(lists["languages"], rng.randint(1, 3))
        return [f"{n} ({rng.choice(lists['language_levels'])})" for n in names]

    def _interests(self) -> list[str]:
        if self.rng.random() >= 0.3:
            return []
        return self.rng.sample(self.t.lists["hobbies"], self.rng.randint(2, 4))

    # truth ------------------------------------------------------------------------------
    def truth(self) -> dict[str, Any]:
        return {
            "document_type": "cv",
            "name": self.name,
            "skills": sorted(self.held),
            "mentioned_not_held": sorted(self.negated),
            "years": round(self.years, 2),
            "level": self.cv_level,
            "field": self.field,
            "roles": [r.truth() for r in self.roles],
        }

    def consistent(self, text: str) -> bool:
        """The text spells exactly the planned skills (held or negated), each at least once."""
        if not self.clear_of_thresholds():
            return False
        found = set(self.vocab.matcher.find(text))
        written = set(self.explicit) | set(self.prev_explicit) | set(self.negated)
        return written <= found and found <= self.held | set(self.negated)


def ascii_slug(text: str, sep: str = "") -> str:
    """Lower-case ASCII letters and digits (for emails and file names)."""
    plain = unicodedata.normalize("NFKD", text.translate(ASCII_FIX))
    words = re.findall(r"[a-z0-9]+", plain.encode("ascii", "ignore").decode().lower())
    return sep.join(words) or "x"


# -- layouts --------------------------------------------------------------------------


def _skill_items(doc: CvDoc) -> list[str]:
    return [*doc.skills, doc.suffix] if doc.suffix else list(doc.skills)


def _role_lines_plain(role: Role, rng: random.Random) -> list[str]:
    head = rng.choice(
        (
            f"{role.title}, {role.company}, {role.city}\n{role.dates}",
            f"{role.title} | {role.company} | {role.dates}",
            f"{role.company} ({role.city})\n{role.title}, {role.dates}",
        )
    )
    mark = rng.choice(("- ", "• ", "* "))
    return [head, *(mark + b for b in role.bullets), ""]


def _education_line(entry: tuple[str, str, str]) -> str:
    degree, school, dates = entry
    return f"{degree}, {school}, {dates}"


def _extra_plain(doc: CvDoc, caps: bool) -> list[str]:
    """Optional sections (certifications, projects, languages, interests, goals)."""
    lines: list[str] = []
    sections = (
        ("certifications", doc.certifications),
        ("projects", doc.projects),
        ("languages", doc.languages),
        ("interests", doc.interests),
        ("goals", doc.goals),
    )
    for key, items in sections:
        if items:
            heading = doc.headings[key]
            lines += [heading.upper() if caps else f"{heading}:", *(f"- {i}" for i in items), ""]
    return lines


def render_plain(doc: CvDoc, rng: random.Random) -> str:
    """Plain text with UPPERCASE headings."""
    h = {k: v.upper() for k, v in doc.headings.items()}
    lines = [doc.name]
    if doc.headline:
        lines.append(doc.headline)
    lines += [
        f"{doc.email} | {doc.phone} | {doc.city}",
        "",
        h["summary"],
        " ".join(doc.summary),
        "",
        h["experience"],
    ]
    for role in doc.roles:
        lines += _role_lines_plain(role, rng)
    lines.append(h["skills"])
    if rng.random() < 0.5 and len(doc.groups) > 1:
        lines += [f"{label}: {', '.join(items)}" for label, items in doc.groups]
        if doc.suffix:
            lines[-1] += f", {doc.suffix}"
    else:
        lines.append(rng.choice((", ", " · ", " | ")).join(_skill_items(doc)))
    if doc.learning:
        lines.append(doc.learning)
    lines += ["", h["education"], *(_education_line(e) for e in doc.education), ""]
    return "\n".join(lines + _extra_plain(doc, caps=True)).rstrip() + "\n"


def render_markdown(doc: CvDoc, rng: random.Random) -> str:
    """Markdown with # name, ## sections, ### roles and bullet lists."""
    h = doc.headings
    lines = [f"# {doc.name}", ""]
    if doc.headline:
        lines += [f"**{doc.headline}**", ""]
    lines += [
        f"{doc.email} · {doc.phone} · {doc.city}",
        "",
        f"## {h['summary']}",
        "",
        " ".join(doc.summary),
        "",
        f"## {h['experience']}",
        "",
    ]
    for role in doc.roles:
        lines += [f"### {role.title} — {role.company}", f"*{role.dates} · {role.city}*", ""]
        lines += [f"- {b}" for b in role.bullets] + [""]
    lines += [f"## {h['skills']}", ""]
    if rng.random() < 0.5:
        lines += [f"- {item}" for item in _skill_items(doc)]
    else:
        lines += [f"- **{label}:** {', '.join(items)}" for label, items in doc.groups]
        if doc.suffix:
            lines[-1] += f", {doc.suffix}"
    if doc.learning:
        lines.append(f"- {doc.learning}")
    lines += ["", f"## {h['education']}", ""]
    lines += [f"- **{d}**, {s} ({dates})" for d, s, dates in doc.education] + [""]
    for key in ("certifications", "projects", "languages", "interests", "goals"):
        items = getattr(doc, key)
        if items:
            lines += [f"## {h[key]}", "", *(f"- {i}" for i in items), ""]
    return "\n".join(lines).rstrip() + "\n"


def render_keyvalue(doc: CvDoc, rng: random.Random) -> str:
    """'Name: X' header block, then labelled sections."""
    h = doc.headings
    lines = [
        f"Name: {doc.name}",
        f"Email: {doc.email}",
        f"Phone: {doc.phone}",
        f"Location: {doc.city}",
    ]
    if doc.headline:
        lines.append(f"Title: {doc.headline}")
    lines += ["", f"{h['summary']}:", " ".join(doc.summary), "", f"{h['experience']}:"]
    for role in doc.roles:
        lines.append(f"* {role.dates}: {role.title} at {role.company} ({role.city})")
        lines += [f"  - {b}" for b in role.bullets]
    lines += ["", f"{h['skills']}: {', '.join(_skill_items(doc))}"]
    if doc.learning:
        lines.append(doc.learning)
    lines += ["", f"{h['education']}:", *(f"* {_education_line(e)}" for e in doc.education), ""]
    return "\n".join(lines + _extra_plain(doc, caps=False)).rstrip() + "\n"


def render_compact(doc: CvDoc, rng: random.Random) -> str:
    """A short one: contact line, a Skills: line and experience as prose paragraphs."""
    lines = [doc.name, f"{doc.city} · {doc.email} · {doc.phone}", ""]
    lines += [f"Skills: {', '.join(_skill_items(doc))}"]
    if doc.learning:
        lines.append(doc.learning)
    lines += ["", " ".join(doc.summary), ""]
    for role in doc.roles:
        head = rng.choice(
            (
                f"{role.title} at {role.company}, {role.city} ({role.dates}).",
                f"{role.dates}: {role.title}, {role.company}.",
            )
        )
        lines += [" ".join([head, *role.bullets]), ""]
    education = "; ".join(f"{d}, {s} ({dates})" for d, s, dates in doc.education)
    if education:
        lines += [f"Education: {education}.", ""]
    for key in ("certifications", "languages", "projects", "interests", "goals"):
        items = getattr(doc, key)
        if items:
            joined = " ".join(items) if key in ("projects", "goals") else ", ".join(items)
            lines.append(f"{doc.headings[key]}: {joined}")
    return "\n".join(lines).rstrip() + "\n"


def render_markdown_bold(doc: CvDoc, rng: random.Random) -> str:
    """Markdown with bold labels instead of headings."""
    h = doc.headings
    lines = [
        f"# {doc.name}",
        "",
        f"**Email:** {doc.email}  ",
        f"**Phone:** {doc.phone}  ",
        f"**Location:** {doc.city}",
        "",
        f"**{h['summary']}**",
        "",
        " ".join(doc.summary),
        "",
        f"**{h['experience']}**",
        "",
    ]
    for role in doc.roles:
        lines += [f"**{role.title}**, {role.company}, {role.city} | {role.dates}", ""]
        lines += [f"* {b}" for b in role.bullets] + [""]
    lines += [f"**{h['skills']}:** {', '.join(_skill_items(doc))}", ""]
    if doc.learning:
        lines += [doc.learning, ""]
    lines += [f"**{h['education']}**", ""]
    lines += [f"* {_education_line(e)}" for e in doc.education] + [""]
    for key in ("certifications", "projects", "languages", "interests", "goals"):
        items = getattr(doc, key)
        if items:
            lines += [f"**{h[key]}**", "", *(f"* {i}" for i in items), ""]
    return "\n".join(lines).rstrip() + "\n"


RENDERERS = {
    "plain": render_plain,
    "markdown": render_markdown,
    "keyvalue": render_keyvalue,
    "compact": render_compact,
    "markdown_bold": render_markdown_bold,
}


def make_cv(tables: Tables, seed: int, index: int, as_of: date) -> tuple[str, str, dict[str, Any]]:
    """(extension, text, truth) of CV ``index``; retried until text and plan agree."""
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"{seed}:cv:{index}:{attempt}")
        builder = CvBuilder(tables, rng, as_of)
        builder.person()
        builder.plan()
        layout = rng.choice(tuple(LAYOUTS))
        text = RENDERERS[layout](builder.write(), rng)
        if builder.consistent(text):
            return LAYOUTS[layout], text, {**builder.truth(), "layout": layout}
    raise RuntimeError(f"CV {index}: no consistent rendering in {MAX_ATTEMPTS} attempts")


# -- job descriptions and company pages -----------------------------------------------


class JobBuilder:
    """A job advert (required and nice-to-have skills) or a company page (its stack)."""

    def __init__(self, tables: Tables, rng: random.Random, company_page: bool):
        self.t, self.rng, self.vocab = tables, rng, tables.vocab
        self.spell = Speller(rng, tables.vocab)
        fields = list(tables.field_weights)
        self.field = TECH if rng.random() < 0.8 or company_page else rng.choice(fields)
        self.profile = tables.profiles[rng.choice(tables.field_profiles[self.field])]
        self.company = rng.choice(tables.lists["companies"].get(self.field) or ("Northwind",))
        self.city = rng.choice(tables.lists["cities"])

    def _draw(
        self, count: int, exclude: set[str], stack: bool = False
    ) -> tuple[list[str], set[str]]:
        """``count`` skills of the profile; only its own field's for a company's ``stack``."""
        names: list[str] = []
        closure: set[str] = set()
        for _ in range(count * 5):
            pool = draw_pool(self.t, self.profile, self.rng)
            if stack and pool and self.vocab.skills[pool[0]].field != self.profile.field:
                continue
            if len(names) >= count or not pool:
                continue
            name = self.rng.choice(pool)
            if name not in exclude and name not in closure:
                names.append(name)
                closure |= self.vocab.skills[name].closure
        return names, closure

    def job(self) -> tuple[str, dict[str, Any]]:
        rng, lists = self.rng, self.t.lists
        level = rng.choices(LEVELS, weights=LEVEL_WEIGHTS)[0]
        title, spelled = rng.choice(self.profile.titles[level])
        required, held = self._draw(rng.randint(4, 8), set())
        held |= self.vocab.closure(spelled)  # "Python Developer" requires Python
        nice, nice_closure = self._draw(rng.randint(1, 3), held)
        self.mentioned, self.allowed = [*required, *nice], held | nice_closure
        ctx = {
            "title": title,
            "a_title": with_article(title),
            "company": self.company,
            "city": self.city,
            "team": rng.choice(lists["jd_teams"]),
            "n": rng.randint(2, 40),
            "focus": rng.choice(self.profile.focus),
            "domain": rng.choice(self.t.domains.get(self.field) or (self.field,)),
        }
        text = self._job_text(
            ctx,
            self._requirements(required, level),
            [rng.choice(lists["jd_nice_to_have"]).format(a=self.spell(n)) for n in nice],
        )
        truth = {
            "document_type": "job_description",
            "name": title,
            "skills": sorted(held),
            "nice_to_have": sorted(nice_closure - held),
            "company": self.company,
        }
        return text, truth

    def _requirements(self, names: list[str], level: str) -> list[str]:
        rng, lines = self.rng, []
        low = {"junior": 1, "mid": 3, "senior": 5}[level]
        queue = list(names)
        while queue:
            fits = [t for t in self.t.lists["jd_requirements"] if len(queue) > 1 or "{b}" not in t]
            template = rng.choice(fits)
            a = self.spell(queue.pop())
            b = self.spell(queue.pop()) if "{b}" in template else ""
            lines.append(template.format(a=a, b=b, years=rng.randint(low, low + 2)))
        return lines

    def _job_text(self, ctx: dict[str, Any], required: list[str], nice: list[str]) -> str:
        rng, lists = self.rng, self.t.lists
        intro = " ".join(
            [
                rng.choice(lists["jd_intros"]).format(**ctx),
                rng.choice(lists["jd_about"]).format(**ctx),
            ]
        )
        duties = rng.sample(lists["jd_responsibilities"], 3)
        offers = rng.sample(lists["jd_offers"], 3)
        if rng.random() < 0.5:
            lines = [
                f"# {ctx['title']}",
                "",
                f"**Company:** {ctx['company']} · **Location:** {ctx['city']} (hybrid)",
                "",
                intro,
                "",
                "## What you will do",
                *(f"- {d}" for d in duties),
                "",
                "## Requirements",
                *(f"- {r}" for r in required),
                "",
                "## Nice to have",
                *(f"- {n}" for n in nice),
                "",
                "## What we offer",
                *(f"- {o}" for o in offers),
            ]
        else:
            lines = [
                f"{ctx['title']} – {ctx['company']} ({ctx['city']})",
                "",
                intro,
                "",
                "Responsibilities:",
                *(f"* {d}" for d in duties),
                "",
                "Requirements:",
                *(f"* {r}" for r in required),
                "",
                "Nice to have:",
                *(f"* {n}" for n in nice),
                "",
                "Benefits:",
                *(f"* {o}" for o in offers),
            ]
        return "\n".join(lines) + "\n"

    def company_page(self) -> tuple[str, dict[str, Any]]:
        rng, pages = self.rng, self.t.lists["company"]
        stack, held = self._draw(rng.randint(3, 7), set(), stack=True)
        self.mentioned, self.allowed = stack, held
        ctx = {
            "company": self.company,
            "city": self.city,
            "n": rng.randint(2, 40),
            "focus": rng.choice(self.profile.focus),
        }
        sentences, queue = [], list(stack)
        while queue:
            template = rng.choice(pages["stack"])
            take = min(len(queue), rng.randint(2, 4)) if "{skills}" in template else 1
            forms = [self.spell(queue.pop()) for _ in range(take)]
            sentences.append(template.format(a=forms[0], skills=natural_list(forms)))
        text = (
            "\n".join(
                [
                    f"# {self.company}",
                    "",
                    rng.choice(pages["intro"]).format(**ctx),
                    "",
                    f"## Engineering at {self.company}",
                    "",
                    " ".join(sentences),
                    "",
                    "## How we work",
                    "",
                    " ".join(rng.sample(pages["culture"], 2)).format(**ctx),
                ]
            )
            + "\n"
        )
        truth = {"document_type": "company_page", "name": self.company, "skills": sorted(held)}
        return text, truth

    def consistent(self, text: str) -> bool:
        found = set(self.vocab.matcher.find(text))
        return set(self.mentioned) <= found <= self.allowed


def make_job(tables: Tables, seed: int, index: int) -> tuple[str, str, dict[str, Any]]:
    """(file stem, text, truth) of job document ``index``; every 4th is a company page."""
    for attempt in range(MAX_ATTEMPTS):
        page = index % 4 == 0
        builder = JobBuilder(tables, random.Random(f"{seed}:job:{index}:{attempt}"), page)
        text, truth = builder.company_page() if page else builder.job()
        if builder.consistent(text):
            stem = (
                f"company-{ascii_slug(builder.company, '-')}-{index:03d}"
                if page
                else (f"jd-{index:03d}")
            )
            base = {
                "mentioned_not_held": [],
                "years": None,
                "level": None,
                "field": builder.field,
                "roles": [],
            }
            return stem, text, {**truth, **base}
    raise RuntimeError(f"job document {index}: no consistent rendering")


# -- corpus ---------------------------------------------------------------------------


def generate_corpus(
    out_dir: Path,
    n_cvs: int,
    *,
    seed: int = 42,
    n_job_descriptions: int = 5,
    as_of: date = date(2026, 11, 1),
    vocabulary_path: Path | None = None,
    workers: int = 1,
) -> Path:
    """Write CVs, job documents and ground_truth.jsonl under ``out_dir``; return the truth path.

    Each document has its own RNG seeded from (seed, kind, index), so a corpus is
    reproducible, its first N CVs do not depend on how many were asked for, and
    ``workers`` processes write exactly the same files as one.
    """
    vocabulary = Path(vocabulary_path or DEFAULT_VOCABULARY)
    tables = tables_for(vocabulary)  # fails early; forked workers inherit it
    out_dir = Path(out_dir)
    (out_dir / "cvs").mkdir(parents=True, exist_ok=True)
    (out_dir / "jobs").mkdir(parents=True, exist_ok=True)
    truth_path = out_dir / "ground_truth.jsonl"
    with truth_path.open("w", encoding="utf-8", newline="\n") as truth:
        for lines in _cv_chunks(out_dir, vocabulary, n_cvs, seed, as_of, workers):
            truth.writelines(lines)
        for index in range(1, n_job_descriptions + 1):
            stem, text, record = make_job(tables, seed, index)
            name = f"jobs/{stem}.md"
            _write(out_dir / name, text)
            truth.write(_truth_line(name, record))
    return truth_path


@dataclass(frozen=True)
class Chunk:
    """A run of CV indices [start, stop) written by one task."""

    out_dir: Path
    vocabulary: Path
    seed: int
    as_of: date
    width: int
    start: int
    stop: int


def _cv_chunks(
    out_dir: Path, vocabulary: Path, n_cvs: int, seed: int, as_of: date, workers: int
) -> Iterator[list[str]]:
    """Truth lines of every CV, chunk by chunk in index order, written serially or in parallel."""
    size = min(1000, max(50, n_cvs // (max(1, workers) * 4)))
    width = max(5, len(str(n_cvs)))
    chunks = [
        Chunk(out_dir, vocabulary, seed, as_of, width, start, min(start + size, n_cvs + 1))
        for start in range(1, n_cvs + 1, size)
    ]
    if workers <= 1 or len(chunks) < 2:
        yield from map(_write_chunk, chunks)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        yield from pool.map(_write_chunk, chunks)


def _write_chunk(chunk: Chunk) -> list[str]:
    tables = tables_for(chunk.vocabulary)
    lines = []
    for index in range(chunk.start, chunk.stop):
        ext, text, record = make_cv(tables, chunk.seed, index, chunk.as_of)
        name = f"cvs/cv-{index:0{chunk.width}d}{ext}"
        _write(chunk.out_dir / name, text)
        lines.append(_truth_line(name, record))
    return lines


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def _truth_line(name: str, record: dict[str, Any]) -> str:
    return json.dumps({"file": name, **record}, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write a synthetic CV corpus with ground truth.")
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--n", type=int, default=200, help="number of CVs")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--jobs", type=int, default=5, help="job descriptions / company pages")
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 11, 1))
    parser.add_argument("--vocabulary", type=Path, default=None)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    truth = generate_corpus(
        args.out_dir,
        args.n,
        seed=args.seed,
        n_job_descriptions=args.jobs,
        as_of=args.as_of,
        vocabulary_path=args.vocabulary,
        workers=args.workers,
    )
    print(
        f"wrote {args.n} CVs and {args.jobs} job documents to {args.out_dir} "
        f"(truth: {truth}) in {time.perf_counter() - started:.1f}s"
    )


if __name__ == "__main__":
    main()
