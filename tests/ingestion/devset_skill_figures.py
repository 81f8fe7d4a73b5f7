"""Skill figures on the hand-written development set (tests/devset): a measuring script.

Run from a worktree:
    PYTHONPATH=$PWD/services:$PWD /work/main/.venv/bin/python -m tests.ingestion.devset_skill_figures [-v]

For every CV truth file it analyses the document with the real vocabulary and reports
claim precision (held skills that truth lists as held or acceptable), recall of truth's
held skills, strength agreement, and context errors (truth ``not_held`` terms the code
holds). Truth names are written by a person: they are mapped through the vocabulary's
look-up; names it does not know are reported apart and count in neither figure.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import yaml

from talentrag.domain import DocumentType, HeldSkill, MatchKind
from talentrag.ingestion.analyze import analyze_document
from talentrag.ingestion.readers import read_document
from talentrag.vocabulary.vocabulary import Vocabulary, load_vocabulary

DEVSET = Path(__file__).resolve().parents[1] / "devset"


@dataclass
class Figures:
    """Counts summed over the set, with examples of each kind of miss."""

    claimed: int = 0
    claimed_right: int = 0
    explicit: int = 0
    explicit_right: int = 0
    truth_held: int = 0
    found: int = 0
    strength_right: int = 0
    context_errors: list[str] = field(default_factory=list)
    false_claims: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    unmapped: Counter[str] = field(default_factory=Counter)
    strength_pairs: Counter[tuple[str, str]] = field(default_factory=Counter)


def _canonical(vocabulary: Vocabulary, name: str) -> str | None:
    surface = vocabulary.lookup(name)
    return surface.skill if surface else vocabulary.canonical(name)


def _strength(skill: HeldSkill) -> str:
    return str(getattr(skill, "strength", None) or "-")


def measure(vocabulary: Vocabulary, figures: Figures, truth_path: Path) -> None:
    truth = yaml.safe_load(truth_path.read_text())
    if truth.get("held") is None:
        return
    doc = truth["document"]
    text = read_document(DEVSET / "documents" / doc)
    analysed = analyze_document(
        text,
        document_id=truth_path.stem,
        source_file=doc,
        document_type=DocumentType(truth.get("document_type", "cv")),
        vocabulary=vocabulary,
        as_of=date(2026, 11, 1),
    )
    held = {s.skill: s for s in analysed.record.skills}
    truth_held: dict[str, str] = {}
    for entry in truth["held"]:
        name = _canonical(vocabulary, entry["skill"])
        if name is None:
            figures.unmapped[entry["skill"]] += 1
        else:
            truth_held[name] = entry.get("strength", "")
    fine = set(truth_held)
    for term in truth.get("acceptable") or []:
        name = _canonical(vocabulary, term)
        if name:
            fine.add(name)
    figures.truth_held += len(truth_held)
    for name, strength in truth_held.items():
        if name in held:
            figures.found += 1
            got = _strength(held[name])
            figures.strength_pairs[(strength, got)] += 1
            figures.strength_right += got == strength
        else:
            figures.missed.append(f"{doc}: {name}")
    for name, skill in held.items():
        figures.claimed += 1
        explicit = skill.kind is not MatchKind.IMPLIED
        figures.explicit += explicit
        if name in fine:
            figures.claimed_right += 1
            figures.explicit_right += explicit
        else:
            via = skill.surface if skill.kind is MatchKind.IMPLIED else repr(skill.surface)
            where = skill.evidence[0].text[:90] if skill.evidence else ""
            figures.false_claims.append(f"{doc}: {name} <- {via} | {where}")
    seen: set[str] = set()
    for entry in truth.get("not_held") or []:
        name = _canonical(vocabulary, str(entry["term"]))
        if name is None or name in fine or name in seen:
            continue
        seen.add(name)
        if name in held:
            where = held[name].evidence[0].text[:90] if held[name].evidence else ""
            figures.context_errors.append(f"{doc}: {name} ({entry['reason']}) | {where}")


def main(argv: list[str]) -> None:
    vocabulary = load_vocabulary()
    figures = Figures()
    for truth_path in sorted((DEVSET / "truth").glob("*.yaml")):
        measure(vocabulary, figures, truth_path)
    precision = figures.claimed_right / max(1, figures.claimed)
    recall = figures.found / max(1, figures.truth_held)
    print(
        f"claim precision {precision:.4f} ({figures.claimed_right}/{figures.claimed}), "
        f"explicit-claim precision {figures.explicit_right / max(1, figures.explicit):.4f} "
        f"({figures.explicit_right}/{figures.explicit}), "
        f"recall {recall:.4f} ({figures.found}/{figures.truth_held}), "
        f"strength agreement {figures.strength_right}/{figures.found}, "
        f"context errors {len(figures.context_errors)}, "
        f"unmapped truth names {sum(figures.unmapped.values())}"
    )
    if "-v" in argv:
        for title, rows in (
            ("context errors", figures.context_errors),
            ("false claims", figures.false_claims),
            ("missed", figures.missed),
        ):
            print(f"\n== {title} ({len(rows)})")
            print("\n".join(rows))
        print("\n== strength (truth, code)")
        for pair, count in figures.strength_pairs.most_common():
            print(f"{pair}: {count}")
        print("\n== unmapped truth names")
        print(", ".join(f"{n} x{c}" if c > 1 else n for n, c in figures.unmapped.most_common()))


if __name__ == "__main__":
    main(sys.argv[1:])
