"""What one CV will say: its person, field, held and negated skills, career and titles.

The plan is the CV's ground truth. Held skills are the skills the CV writes as
held (with everything they imply) plus those named by a title, degree or
certificate it chose; negated skills are those it will write only in negated or
aspirational phrasing. Nothing is read back from the rendered text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from datetime import date
from functools import cache
from typing import Any, TypeVar

import yaml

from tests.support.generator.text import ascii_slug
from tests.support.generator.timeline import Career, Role, level_for, plan_career
from tests.support.generator.vocabulary import ROOT, TECH, Mentions
from tests.support.generator.wordlists import LEVELS, Profile, Tables, draw_pool

LEVEL_WEIGHTS = (30, 35, 35)
MAX_HELD = 14
T = TypeVar("T")


class CvPlan:
    """Chooses a CV's person, field, skills, negations, career and titles."""

    def __init__(self, tables: Tables, rng: random.Random, as_of: date):
        self.t, self.rng, self.as_of = tables, rng, as_of
        self.vocab = tables.vocab
        self.held: set[str] = set()
        self.negated: list[str] = []

    def make(self) -> None:
        """Plan everything but the wording (sections.py writes that)."""
        self._person()
        rng, t = self.rng, self.t
        fields = list(t.field_weights)
        self.field = rng.choices(fields, weights=[t.field_weights[f] for f in fields])[0]
        self.profile = t.profiles[rng.choice(t.field_profiles[self.field])]
        self.prev_profile = self._previous_profile()
        level = rng.choices(LEVELS, weights=LEVEL_WEIGHTS)[0]
        undated = self.prev_profile is None and rng.random() < 0.05
        self._choose_skills()
        self._choose_negated()
        prev_field = self.prev_profile.field if self.prev_profile else None
        self.career: Career = plan_career(rng, level, (self.field, prev_field), self.as_of, undated)
        self._assign_titles()

    @property
    def roles(self) -> list[Role]:
        """The roles, latest first."""
        return self.career.roles

    # person ---------------------------------------------------------------------------
    def _person(self) -> None:
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
        self.city = rng.choice(self.t.lists["cities"])

    # skills ---------------------------------------------------------------------------
    def _previous_profile(self) -> Profile | None:
        """A career changer's former profile (one CV in ten)."""
        if self.rng.random() >= 0.10:
            return None
        others = [f for f in self.t.field_profiles if f != self.field]
        if self.field != TECH:
            others = [f for f in others if f != TECH] or others
        return self.t.profiles[self.rng.choice(self.t.field_profiles[self.rng.choice(others)])]

    def _choose_skills(self) -> None:
        rng, skills = self.rng, self.vocab.skills
        target = rng.randint(4, 12)  # titles, degrees and implied skills add more
        previous = self.prev_profile
        self.prev_explicit = self._draw(previous, rng.randint(1, 3), MAX_HELD) if previous else []
        self.explicit = self._draw(self.profile, MAX_HELD, max(target, len(self.held) + 3))
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
        """Write ``name`` as held, if it fits under MAX_HELD with what it implies."""
        skill = self.vocab.skills[name]
        if name in self.held or not skill.forms:
            return
        if len(self.held | skill.closure) <= MAX_HELD:
            into.append(name)
            self.held |= skill.closure

    def _fill_minimum(self) -> None:
        pool = [*self.profile.primary, *self.profile.secondary, *self.t.general]
        for _ in range(100):
            if len(self.held) >= 4:
                return
            self._take(self.rng.choice(pool), self.explicit)

    def _choose_negated(self) -> None:
        """Skills the CV mentions only as not held or wished for (two CVs in five)."""
        if self.rng.random() >= 0.4:
            return
        profile = self.profile
        # a sales representative does not wish to learn "Sales": a reader holds what the
        # profession's own titles name
        titled = " ".join(t.lower() for level in profile.titles.values() for t, _ in level)
        named = _skills_titles_name(titled)  # "Staff Nurse" holds Nursing
        for _ in range(1 if self.rng.random() < 0.65 else 2):
            source = profile.anchors if self.rng.random() < 0.5 else profile.primary
            for options in (source, profile.primary, profile.secondary):
                pool = [
                    s
                    for s in options
                    if s not in self.held
                    and s not in self.negated
                    and s.lower() not in titled
                    and s not in named
                ]
                if pool:
                    self.negated.append(self.rng.choice(pool))
                    break

    def adopt(self, mentions: Mentions) -> bool:
        """Hold what a title, degree or certificate names, if the plan stays valid."""
        if mentions <= self.held:
            return True
        closure = self.vocab.closure(mentions)
        if closure & set(self.negated) or len(self.held | closure) > MAX_HELD:
            return False
        self.held |= closure
        return True

    def adoptable(self, options: Sequence[tuple[T, Mentions]]) -> T | None:
        """A random option whose skills the candidate holds or can take on."""
        for value, mentions in self.rng.sample(options, len(options)):
            if self.adopt(mentions):
                return value
        return None

    # titles and companies -------------------------------------------------------------
    def _assign_titles(self) -> None:
        rng, lists = self.rng, self.t.lists
        used: set[str] = set()
        for index, role in enumerate(self.roles):
            profile = self.profile if role.field == self.field else self.prev_profile
            assert profile is not None  # a role outside the current field is a former one
            role.title = self._title(profile, self._title_level(role, index == 0))
            role.company = self._company(role, used)
            role.city = self.city if rng.random() < 0.7 else rng.choice(lists["cities"])

    def _title_level(self, role: Role, latest: bool) -> str:
        if not latest:
            return level_for(role.months / 12)
        if self.rng.random() < 0.10:  # a title that misleads; years decide the level
            return {"junior": "senior", "mid": "senior", "senior": "mid"}[self.career.level]
        return self.career.level

    def _title(self, profile: Profile, level: str) -> str:
        title = self.adoptable(profile.titles[level])
        assert title is not None, "every level has a title naming no skill (wordlists.py)"
        return title

    def _company(self, role: Role, used: set[str]) -> str:
        if role.side:
            return self.rng.choice(("Self-employed", "Freelance", "Contract work"))
        companies = self.t.lists["companies"].get(role.field) or self.t.lists["companies"][TECH]
        company = ""
        for _ in range(10):
            company = self.rng.choice(companies)
            if company not in used:
                break
        used.add(company)
        return company

    # truth ------------------------------------------------------------------------------
    def truth(self) -> dict[str, Any]:
        """The CV's ground truth: exactly what the plan chose to write."""
        return {
            "document_type": "cv",
            "name": self.name,
            "skills": sorted(self.held),
            "mentioned_not_held": sorted(self.negated),
            "years": round(self.career.years, 2),
            "level": self.career.level,
            "field": self.field,
            "roles": [r.truth() for r in self.roles],
        }


@cache
def _title_skills() -> dict[str, list[str]]:
    """The title words of the service's data file, read as data (no extractor code)."""
    path = ROOT / "services" / "talentrag" / "ingestion" / "data" / "experience.yaml"
    loaded: dict[str, list[str]] = yaml.safe_load(path.read_text(encoding="utf-8"))["title_skills"]
    return loaded


def _skills_titles_name(titles: str) -> set[str]:
    """The skills a reader holds from these job titles (experience.yaml's title_skills):
    a nurse is never written as wishing to learn Nursing."""
    words = _title_skills()
    return {
        skill
        for skill, spellings in words.items()
        if any(re.search(rf"(?<!\w){re.escape(w.lower())}(?!\w)", titles) for w in spellings)
    }
