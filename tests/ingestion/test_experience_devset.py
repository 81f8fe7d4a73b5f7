"""Years and level against the hand-written dev set's truth (tests/devset/truth, cv only).

Run with -s to see the figures and every miss:
    PYTHONPATH=$PWD/services pytest -q -s tests/ingestion/test_experience_devset.py
"""

from __future__ import annotations

from pathlib import Path

import yaml

from talentrag.ingestion.cv_parser import parse_cv
from talentrag.ingestion.readers import read_document
from talentrag.vocabulary import Vocabulary
from tests.conftest import AS_OF

DEVSET = Path(__file__).resolve().parents[1] / "devset"


def test_level_accuracy_and_years_on_the_devset(vocabulary: Vocabulary):
    total = levels_right = years_close = 0
    misses = []
    for path in sorted((DEVSET / "truth").glob("*.yaml")):
        truth = yaml.safe_load(path.read_text(encoding="utf-8"))
        if truth.get("document_type") != "cv":
            continue
        parsed = parse_cv(
            read_document(DEVSET / "documents" / truth["document"]), vocabulary, AS_OF
        )
        level = parsed.level.value if parsed.level else None
        expected_years, years = truth.get("years"), parsed.years
        close = (expected_years is None) == (years is None) and (
            years is None or abs(years - expected_years) <= 1
        )
        total += 1
        levels_right += level == truth.get("level")
        years_close += close
        if level != truth.get("level") or not close:
            misses.append(f"{path.stem}: {years} {level} (truth {expected_years} {truth['level']})")
    print(
        f"\ndevset CVs {total}: level accuracy {levels_right / total:.3f}, years within 1 y "
        f"{years_close}/{total}\n" + "\n".join(misses)
    )
    assert levels_right / total >= 0.97
    assert years_close / total >= 0.85
