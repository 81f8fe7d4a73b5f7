"""The content of a CV's sections, written from its plan.

Held skills appear only through placeholders ({a}, {b}, {skills}) of templates
that spell no skill themselves; negated skills appear only in the negation
templates of negations.yaml, each in a sentence, line or trailing "(learning)"
of its own. Degrees and certificates naming skills are chosen only when the plan
can hold those skills (CvPlan.adopt).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tests.support.generator.plan import CvPlan
from tests.support.generator.text import natural_list, with_article
from tests.support.generator.timeline import Role
from tests.support.generator.vocabulary import TECH, Speller
from tests.support.generator.wordlists import Bullets

TITLE_MODIFIERS = re.compile(
    r"^(?:Junior|Graduate|Associate|Senior|Lead|Principal|Staff|Intermediate) "
)
NEGATION_PLACEMENTS = ("summary", "summary", "goals", "line", "suffix")


@dataclass
class CvDoc:
    """What a layout renders; written by SectionWriter."""

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
    languages: list[str]  # "Spanish (B2)"
    interests: list[str]
    headings: dict[str, str]

    def spoken(self) -> list[str]:
        """The spoken languages written, by name: held skills the truth records apart."""
        return sorted(language.split(" (", 1)[0] for language in self.languages)


class SectionWriter:
    """Fills a CvDoc from a CvPlan; every held skill is written at least once."""

    def __init__(self, plan: CvPlan):
        self.plan, self.t, self.rng = plan, plan.t, plan.rng
        self.spell = Speller(plan.rng, plan.vocab)
        self.used_templates: set[str] = set()
        self.unplaced: dict[str, list[str]] = {}

    def write(self) -> CvDoc:
        """The CV's content, section by section."""
        plan, rng = self.plan, self.rng
        self.unplaced = {
            "current": self._queue(plan.explicit),
            "previous": self._queue(plan.prev_explicit),
        }
        placement = rng.choice(NEGATION_PLACEMENTS)
        negations = self._negation_sentences() if placement in ("summary", "goals") else []
        summary = self._summary() + (negations if placement == "summary" else [])
        for role in plan.roles:
            role.bullets = self._bullets(role)
        skills, groups = self._skills_section()
        learning, suffix = self._learning(placement)
        return CvDoc(
            name=plan.name,
            email=plan.email,
            phone=plan.phone,
            city=plan.city,
            headline=plan.roles[0].title if rng.random() < 0.4 else None,
            summary=summary,
            roles=plan.roles,
            skills=skills,
            groups=groups,
            learning=learning,
            suffix=suffix,
            goals=negations if placement == "goals" else [],
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
        pool = self.plan.explicit if pool_key == "current" else self.plan.prev_explicit
        return self.rng.choice(pool) if pool else None

    def _template(self, options: Sequence[str]) -> str:
        """A template this CV has not used yet, while there are any."""
        fresh = [t for t in options if t not in self.used_templates]
        template = self.rng.choice(fresh or options)
        self.used_templates.add(template)
        return template

    # summary ----------------------------------------------------------------------------
    def _summary(self) -> list[str]:
        rng, lists, plan = self.rng, self.t.lists, self.plan
        sentences = [self._opener()]
        if plan.prev_profile is not None and rng.random() < 0.7:
            sentences.append(
                rng.choice(lists["career_change"]).format(
                    domain=self._domain(plan.field),
                    prev_domain=self._domain(plan.prev_profile.field),
                )
            )
        names = [n for n in (self._pick("current") for _ in range(rng.randint(1, 3))) if n]
        if names:
            spelled = natural_list(list(dict.fromkeys(self.spell(n) for n in names)))
            sentences.append(rng.choice(lists["skill_sentences"]).format(skills=spelled))
        closers = lists["closers"].get(plan.field) or ()
        if closers and rng.random() < 0.5:
            sentences.append(rng.choice(closers))
        return sentences

    def _opener(self) -> str:
        rng, plan = self.rng, self.plan
        title = plan.roles[0].title
        ctx = {
            "Role": title[:1].upper() + title[1:],
            "role": title,
            "a_role": with_article(title),
            "domain": self._domain(plan.field),
            "focus": rng.choice(plan.profile.focus),
            "city": plan.city,
        }
        template: str = rng.choice(self._openers(ctx, title))
        return template.format(**ctx)

    def _openers(self, ctx: dict[str, str], title: str) -> list[str]:
        """Opening sentences that fit this CV; fills ``ctx`` with the years claim they use."""
        rng, lists, plan = self.rng, self.t.lists, self.plan
        with_years = list(lists["openers_with_years"])
        stated = plan.career.stated_years
        if stated is not None:  # undated roles: the summary states the total
            ctx["years"] = self._years_phrase("exact_years_phrases", stated)
            return [o for o in with_years if "{domain}" in o]
        whole = int(plan.career.years)
        if whole >= 1 and rng.random() < 0.4:
            ctx["years"] = self._years_phrase("years_phrases", whole)
            if plan.prev_profile is not None:  # a career changer says in which field
                return [o for o in with_years if "{domain}" in o]
            return with_years
        if plan.career.level == "junior" and rng.random() < 0.5:
            role = TITLE_MODIFIERS.sub("", title)
            ctx.update(Role=role, role=role, a_role=with_article(role))
            return list(lists["junior_openers"])
        return list(lists["openers"])

    def _years_phrase(self, key: str, years: int) -> str:
        phrase: str = self.rng.choice(self.t.lists[key])
        return phrase.format(y=years, unit="year" if years == 1 else "years")

    def _domain(self, fld: str) -> str:
        return self.rng.choice(self.t.domains.get(fld) or (fld,))

    # experience -------------------------------------------------------------------------
    def _bullets(self, role: Role) -> list[str]:
        rng = self.rng
        pool_key = "current" if role.field == self.plan.field else "previous"
        count = rng.randint(3, 5) if role is self.plan.roles[0] else rng.randint(1, 4)
        book = self.t.bullets.get(role.field) or self.t.bullets[TECH]
        return list(dict.fromkeys(self._bullet(role, pool_key, book) for _ in range(count)))

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

    # skills -----------------------------------------------------------------------------
    def _skills_section(self) -> tuple[list[str], list[tuple[str, list[str]]]]:
        """Every skill not written yet, and some of the others, flat and grouped."""
        rng, plan = self.rng, self.plan
        names = [n for n in plan.explicit if rng.random() < 0.75]
        names += [n for n in plan.prev_explicit if rng.random() < 0.4]
        names += self.unplaced["current"] + self.unplaced["previous"]
        self.unplaced = {"current": [], "previous": []}
        names = list(dict.fromkeys(names)) or [*plan.explicit, *plan.prev_explicit][:1]
        rng.shuffle(names)
        groups: dict[str, list[str]] = {}
        for name in names:
            label = self.t.group_labels.get(plan.vocab.skills[name].category, "Other")
            groups.setdefault(label, []).append(self.spell(name))
        return [self.spell.chosen[n] for n in names], list(groups.items())

    def _negation_sentences(self) -> list[str]:
        lists, rng = self.t.lists, self.rng
        forms = [self.spell(n) for n in self.plan.negated]
        if len(forms) == 2 and rng.random() < 0.5:
            return [rng.choice(lists["neg_pairs"]).format(a=forms[0], b=forms[1])]
        return [rng.choice(lists["neg_sentences"]).format(a=f) for f in forms]

    def _learning(self, placement: str) -> tuple[str | None, str | None]:
        """A 'Learning: ...' line or a trailing 'X (learning)' item, for those placements."""
        if not self.plan.negated or placement in ("summary", "goals"):
            return None, None
        forms = [self.spell(n) for n in self.plan.negated]
        if placement == "suffix" and len(forms) == 1:
            return None, self.rng.choice(self.t.lists["neg_suffixes"]).format(a=forms[0])
        return self.rng.choice(self.t.lists["neg_lines"]).format(list=", ".join(forms)), None

    # education and the rest --------------------------------------------------------------
    def _education(self) -> list[tuple[str, str, str]]:
        """A degree finished before the first job; a career changer may retrain later."""
        plan, rng = self.plan, self.rng
        first = min(plan.roles, key=lambda r: r.start)
        entries = []
        if entry := self._degree(first.field, first.start.year - rng.choice((0, 0, 1))):
            entries.append(entry)
        if plan.prev_profile is not None and plan.field == TECH and rng.random() < 0.5:
            current = min((r for r in plan.roles if r.field == plan.field), key=lambda r: r.start)
            year = current.start.year - rng.choice((0, 1))
            if entry := self._degree(plan.field, year, retrain=True):
                entries.insert(0, entry)
        return entries

    def _degree(
        self, fld: str, end_year: int, retrain: bool = False
    ) -> tuple[str, str, str] | None:
        options = list(self.t.degrees.get(fld, ()))
        if retrain:  # a bootcamp or a one-year master's, not a second bachelor's
            options = [o for o in options if o[0][1] <= 1] or options
        chosen = self.plan.adoptable(options)
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
        rng, plan = self.rng, self.plan
        options = self.t.certs.get(plan.field, [])
        if rng.random() >= 0.3 or not options:
            return []
        low = min(r.start for r in plan.roles if r.field == plan.field).year
        picks: list[str] = []
        for _ in range(rng.randint(1, 2)):
            if (cert := plan.adoptable(options)) and cert not in picks:
                picks.append(cert)
        return [
            rng.choice(("{} ({})", "{}, {}")).format(c, rng.randint(low, plan.as_of.year))
            for c in picks
        ]

    def _projects(self) -> list[str]:
        rng, plan = self.rng, self.plan
        if plan.field != TECH or not plan.explicit or rng.random() >= 0.25:
            return []
        out = []
        for template in rng.sample(self.t.lists["projects"], rng.randint(1, 2)):
            a, b = rng.choice(plan.explicit), rng.choice(plan.explicit)
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
