"""The word lists of ``data/*.yaml``, prepared once per vocabulary.

Filler (names, places, bullets, summaries ...) is written to spell no skill of
the project vocabulary; tests/support/test_generator.py checks the generated
text. The few fixed texts that do name a skill (titles such as "Python
Developer", degrees, certificates) mark each skill spelling in angle brackets:
``"<Python> Developer"``. The generator holds exactly the marked skills when it
writes such a text, and leaves the text out when the vocabulary in use lacks one.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tests.support.generator.vocabulary import (
    GENERAL,
    TECH,
    Mentions,
    Vocab,
    has_keyword,
    load_vocab,
)

DATA_DIR = Path(__file__).with_name("data")
DATA_FILES = (
    "names",
    "places",
    "profiles",
    "bullets",
    "summaries",
    "negations",
    "sections",
    "jobs",
)
LEVELS = ("junior", "mid", "senior")
MARK = re.compile(r"<([^<>]+)>")
# Where a CV's skills come from: (pool, share of draws); empty pools are skipped.
POOL_SHARES = (
    ("anchors", 0.40),
    ("primary", 0.30),
    ("secondary", 0.10),
    ("general_anchors", 0.12),
    ("general", 0.08),
)
Marked = list[tuple[str, Mentions]]


@dataclass(frozen=True)
class Profile:
    """A kind of candidate: field, skill pools, titles by level and work focus."""

    key: str
    field: str
    anchors: tuple[str, ...]  # the profile's common skills
    primary: tuple[str, ...]  # skills of the profile's own categories, and the anchors
    secondary: tuple[str, ...]  # other skills of the same field
    titles: dict[str, Marked]
    focus: tuple[str, ...]


@dataclass(frozen=True)
class Bullets:
    """Experience bullet templates of one field."""

    single: tuple[str, ...]
    pair: tuple[str, ...]
    plain: tuple[str, ...]
    keyed: tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...]


@dataclass
class Tables:
    """Everything prepared once per vocabulary, so a document costs well under 1 ms."""

    vocab: Vocab
    profiles: dict[str, Profile]
    field_profiles: dict[str, tuple[str, ...]]
    field_weights: dict[str, float]
    domains: dict[str, tuple[str, ...]]
    cultures: list[tuple[tuple[str, ...], tuple[str, ...]]]
    lists: dict[str, Any]
    bullets: dict[str, Bullets]
    degrees: dict[str, list[tuple[tuple[str, int], Mentions]]]
    certs: dict[str, Marked]
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
            self.template_cache[key] = self._templates(role_field, spec.category, spec.field)
        return self.template_cache[key]

    def _templates(
        self, role_field: str, category: str, skill_field: str
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        book = self.bullets.get(role_field) or self.bullets[TECH]
        found = self.vocab.category_words.get(category, ())
        single, pair = list(book.single), list(book.pair)
        for keys, keyed_single, keyed_pair in book.keyed:
            if has_keyword(found, keys):
                single, pair = [*keyed_single, *single], [*keyed_pair, *pair]
        if skill_field == GENERAL or skill_field != role_field:
            single = list(self.bullets[GENERAL].single)
        return tuple(single), tuple(pair)


def marked(text: str, vocab: Vocab) -> tuple[str, Mentions] | None:
    """``text`` without its <skill> marks and the skills marked, or None if one is unknown."""
    names = [vocab.lookup(m) for m in MARK.findall(text)]
    if not all(names):
        return None
    return MARK.sub(r"\1", text), frozenset(n for n in names if n)


def marked_list(texts: Iterable[str], vocab: Vocab) -> Marked:
    """The texts this vocabulary can write, each with the skills it names."""
    return [m for m in (marked(t, vocab) for t in texts) if m is not None]


def draw_pool(tables: Tables, profile: Profile, rng: random.Random) -> tuple[str, ...]:
    """One of the profile's skill pools, picked by POOL_SHARES (may be empty)."""
    general_key = profile.field if profile.field == TECH else "other"
    pools = {
        "anchors": profile.anchors,
        "primary": profile.primary,
        "secondary": profile.secondary,
        "general_anchors": tables.general_anchors.get(general_key, ()),
        "general": tables.general,
    }
    roll = rng.random()
    for name, share in POOL_SHARES:
        if roll < share:
            return pools[name]
        roll -= share
    return pools["general"]


def _load_yaml(name: str) -> Any:
    return yaml.safe_load((DATA_DIR / f"{name}.yaml").read_text(encoding="utf-8"))


def build_tables(vocab: Vocab) -> Tables:
    """Profiles, word lists and templates for ``vocab``."""
    data = {name: _load_yaml(name) for name in DATA_FILES}
    profiles = _profiles(data["profiles"], vocab)
    general = vocab.usable(n for n, s in vocab.skills.items() if s.field == GENERAL)
    field_profiles = _field_profiles(profiles, general)
    weights = data["profiles"]["field_weights"]
    sections = data["sections"]
    return Tables(
        vocab=vocab,
        profiles=profiles,
        field_profiles=field_profiles,
        field_weights={f: float(w) for f, w in weights.items() if f in field_profiles},
        domains={f: tuple(v) for f, v in data["profiles"]["domains"].items()},
        cultures=[
            (tuple(c["first"]), tuple(c["last"])) for c in data["names"]["cultures"].values()
        ],
        lists=_lists(data),
        bullets={f: _bullets(spec) for f, spec in data["bullets"].items()},
        degrees={f: _degrees(v, vocab) for f, v in sections["degrees"].items()},
        certs={f: marked_list(v, vocab) for f, v in sections["certifications"].items()},
        general=general,
        general_anchors={
            f: vocab.usable(vocab.resolve(names))
            for f, names in data["profiles"]["general_anchors"].items()
        },
        group_labels=dict(sections["skill_groups"]),
    )


def _profiles(spec: dict[str, Any], vocab: Vocab) -> dict[str, Profile]:
    return {
        key: _profile(key, prof, spec["modifiers"], vocab) for key, prof in spec["profiles"].items()
    }


def _profile(
    key: str, prof: dict[str, Any], modifiers: dict[str, list[str]], vocab: Vocab
) -> Profile:
    fld = prof["field"]
    own = vocab.usable(n for n, s in vocab.skills.items() if s.field == fld)
    anchors = vocab.usable(vocab.resolve(prof.get("anchors") or []))
    keys = tuple(prof.get("keywords") or ())
    primary = {*anchors, *(n for n in own if _category_matches(vocab, n, keys))}
    if fld != TECH:
        primary |= set(own)
    titles = {lvl: marked_list(names, vocab) for lvl, names in _raw_titles(prof, modifiers).items()}
    for lvl, options in titles.items():
        if all(mentions for _, mentions in options):
            raise ValueError(f"profiles.yaml: {key} has no {lvl} title that names no skill")
    return Profile(
        key,
        fld,
        anchors,
        tuple(sorted(primary)),
        tuple(sorted(set(own) - primary)),
        titles,
        tuple(prof.get("focus") or ()),
    )


def _category_matches(vocab: Vocab, skill: str, keys: Sequence[str]) -> bool:
    return has_keyword(vocab.category_words.get(vocab.skills[skill].category, ()), keys)


def _raw_titles(prof: dict[str, Any], modifiers: dict[str, list[str]]) -> dict[str, list[str]]:
    if "levels" in prof:
        return {lvl: list(prof["levels"][lvl]) for lvl in LEVELS}
    return {lvl: [m.format(t=b) for b in prof["titles"] for m in modifiers[lvl]] for lvl in LEVELS}


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


def _lists(data: dict[str, Any]) -> dict[str, Any]:
    places, summaries, negations = data["places"], data["summaries"], data["negations"]
    sections, jobs = data["sections"], data["jobs"]
    out: dict[str, Any] = {
        k: tuple(places[k])
        for k in ("cities", "universities", "languages", "language_levels", "hobbies")
    }
    out["companies"] = {f: tuple(v) for f, v in places["companies"].items()}
    out["bootcamps"] = tuple(sections["bootcamp_schools"])
    out["headings"] = {k: tuple(v) for k, v in sections["headings"].items()}
    out["projects"] = tuple(sections["projects"])
    for key, value in summaries.items():
        out[key] = {f: tuple(v) for f, v in value.items()} if key == "closers" else tuple(value)
    for key, value in negations.items():
        out[f"neg_{key}"] = tuple(value)
    for key, value in jobs.items():
        out[f"jd_{key}" if key != "company_pages" else "company"] = (
            {k: tuple(v) for k, v in value.items()} if isinstance(value, dict) else tuple(value)
        )
    return out


def _bullets(spec: dict[str, Any]) -> Bullets:
    keyed = tuple(
        (
            tuple(k.lower() for k in g["keys"]),
            tuple(g.get("skill") or ()),
            tuple(g.get("pair") or ()),
        )
        for g in spec.get("by_keyword") or []
    )
    return Bullets(
        tuple(spec.get("skill") or ()),
        tuple(spec.get("pair") or ()),
        tuple(spec.get("plain") or ()),
        keyed,
    )


def _degrees(entries: list[list[Any]], vocab: Vocab) -> list[tuple[tuple[str, int], Mentions]]:
    """(degree, typical years) with the skills the degree's name spells."""
    out = []
    for text, years in entries:
        if found := marked(str(text), vocab):
            out.append(((found[0], int(years)), found[1]))
    return out


_TABLES: dict[tuple[str, int], Tables] = {}


def tables_for(path: Path) -> Tables:
    """Tables for a vocabulary file, cached while the file is unchanged."""
    key = (str(path.resolve()), path.stat().st_mtime_ns)
    if key not in _TABLES:
        _TABLES.clear()
        _TABLES[key] = build_tables(load_vocab(path))
    return _TABLES[key]
