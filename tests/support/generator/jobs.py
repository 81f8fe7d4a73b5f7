"""Job descriptions (required and nice-to-have skills) and company pages (a company's stack).

Their truth is what they were written to ask for: the required skills and any
skill the title names, with everything those imply, and separately the
nice-to-have ones.
"""

from __future__ import annotations

import random
from typing import Any

from tests.support.generator.plan import LEVEL_WEIGHTS
from tests.support.generator.text import ascii_slug, natural_list, with_article
from tests.support.generator.vocabulary import TECH, Speller
from tests.support.generator.wordlists import LEVELS, Tables, draw_pool

REQUIRED_YEARS_FROM = {"junior": 1, "mid": 3, "senior": 5}


class JobBuilder:
    """Writes one job advert or company page for a profile of the tables."""

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
        """``count`` skills of the profile (only its own field's for a company's ``stack``)."""
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
        """A job description's text and truth."""
        rng, lists = self.rng, self.t.lists
        level = rng.choices(LEVELS, weights=LEVEL_WEIGHTS)[0]
        title, named = rng.choice(self.profile.titles[level])
        required, held = self._draw(rng.randint(4, 8), set())
        held |= self.vocab.closure(named)  # "Python Developer" requires Python
        nice, nice_closure = self._draw(rng.randint(1, 3), held)
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
        low = REQUIRED_YEARS_FROM[level]
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
            return _markdown_job(ctx, intro, duties, required, nice, offers)
        return _plain_job(ctx, intro, duties, required, nice, offers)

    def company_page(self) -> tuple[str, dict[str, Any]]:
        """A company page's text and truth (its stack)."""
        rng, pages = self.rng, self.t.lists["company"]
        stack, held = self._draw(rng.randint(3, 7), set(), stack=True)
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
        lines = [
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
        truth = {"document_type": "company_page", "name": self.company, "skills": sorted(held)}
        return "\n".join(lines) + "\n", truth


def _markdown_job(
    ctx: dict[str, Any],
    intro: str,
    duties: list[str],
    required: list[str],
    nice: list[str],
    offers: list[str],
) -> str:
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
    return "\n".join(lines) + "\n"


def _plain_job(
    ctx: dict[str, Any],
    intro: str,
    duties: list[str],
    required: list[str],
    nice: list[str],
    offers: list[str],
) -> str:
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


def make_job(tables: Tables, seed: int, index: int) -> tuple[str, str, dict[str, Any]]:
    """(file stem, text, truth) of job document ``index``; every 4th is a company page."""
    page = index % 4 == 0
    builder = JobBuilder(tables, random.Random(f"{seed}:job:{index}"), page)
    text, truth = builder.company_page() if page else builder.job()
    stem = f"company-{ascii_slug(builder.company, '-')}-{index:03d}" if page else f"jd-{index:03d}"
    base: dict[str, Any] = {
        "mentioned_not_held": [],
        "years": None,
        "level": None,
        "field": builder.field,
    }
    return stem, text, {**truth, **base, "roles": []}
