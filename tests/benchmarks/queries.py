"""Recruiter-style queries with graded relevance from the generator's ground truth.

Grades (the benchmark issue's definition): 3 = all required + all preferred + right
level, 2 = all required + right level, 1 = some required skill, 0 = none.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from talentrag.ingestion.analyze import document_id_for
from talentrag.vocabulary import Vocabulary

LEVELS = ("junior", "mid", "senior")


@dataclass
class Query:
    qid: str
    required: list[str]  # as a recruiter writes them (aliases included)
    preferred: list[str]
    level: str | None
    canonical_required: list[str]
    canonical_preferred: list[str]
    impossible: bool = False
    grades: dict[str, int] = field(default_factory=dict)

    def request(self, top_k: int) -> dict:
        return {"required_skills": self.required, "preferred_skills": self.preferred,
                "experience_level": self.level, "top_k": top_k}  # fmt: skip


def load_truth(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def grade(truth: dict, query: Query) -> int:
    skills = set(truth["skills"])
    held = [s in skills for s in query.canonical_required]
    level_ok = query.level is None or truth["level"] == query.level
    if all(held) and level_ok:
        return 3 if all(s in skills for s in query.canonical_preferred) else 2
    return 1 if any(held) else 0


def _spelling(skill: str, vocabulary: Vocabulary, rng: random.Random) -> str:
    """Half the time an alias, as recruiters write ("K8s", "Postgres", "sklearn")."""
    aliases = [
        a for a in vocabulary.skills[skill].aliases if a not in vocabulary.skills[skill].exact_case
    ]
    return rng.choice(aliases) if aliases and rng.random() < 0.5 else skill


def make_queries(truth: list[dict], vocabulary: Vocabulary, n: int, seed: int) -> list[Query]:
    rng = random.Random(seed)
    cvs = [t for t in truth if t["document_type"] == "cv" and len(t["skills"]) >= 4]
    queries: list[Query] = []
    while len(queries) < n:
        shape = len(queries) % 6
        anchor = rng.choice(cvs)
        skills = sorted(anchor["skills"])
        if shape == 5:
            query = _impossible(cvs, vocabulary, rng, len(queries))
        else:
            n_required = 1 if shape in (0, 2) else 2
            required = rng.sample(skills, n_required)
            rest = [s for s in skills if s not in required]
            preferred = rng.sample(rest, 1 if shape in (3, 4) else 0)
            level = anchor["level"] if shape in (2, 4) else None
            query = Query(f"q{len(queries):03d}", [_spelling(s, vocabulary, rng) for s in required],
                          [_spelling(s, vocabulary, rng) for s in preferred], level, required, preferred)  # fmt: skip
        query.grades = {document_id_for(Path(t["file"])): g for t in cvs if (g := grade(t, query))}
        if query.impossible or any(g >= 2 for g in query.grades.values()):
            queries.append(query)
    return queries


def _impossible(cvs: list[dict], vocabulary: Vocabulary, rng: random.Random, index: int) -> Query:
    """Two skills from different fields that no candidate holds together."""
    while True:
        a, b = rng.choice(cvs), rng.choice(cvs)
        if a["field"] == b["field"]:
            continue
        pair = [rng.choice(sorted(a["skills"])), rng.choice(sorted(b["skills"]))]
        if pair[0] != pair[1] and not any(set(pair) <= set(t["skills"]) for t in cvs):
            return Query(f"q{index:03d}", pair, [], None, pair, [], impossible=True)
