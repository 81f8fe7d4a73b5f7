"""Near-duplicate signatures and grouping, on hand-written CV texts (no store)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from talentrag.ingestion.duplicates import (
    Change,
    DuplicateIndex,
    Member,
    Signature,
    normalised_words,
    signature,
)
from talentrag.policy.duplicates import DUPLICATE_SIMILARITY

CVS = Path(__file__).parent.parent / "fixtures" / "duplicates"
JORDAN = (CVS / "jordan-kim.txt").read_text()
JORDAN_REFORMATTED = (CVS / "JORDAN.TXT").read_text()  # Markdown, re-flowed, labelled
PRIYA = (CVS / "priya-raman.txt").read_text()  # another graduate, the same bootcamp template
ANNA = (CVS / "europass-anna-nowak.txt").read_text()
LUCA = (CVS / "europass-luca-romano.txt").read_text()  # the same Europass form


def _similarity(a: str, b: str) -> float:
    first, second = signature(a), signature(b)
    assert first is not None and second is not None
    return first.similarity(second)


def test_formatting_case_and_accents_are_not_words():
    text = "# **JORDAN KIM** — Müller\n* Python,  *SQL*  |  [GitHub](github.com/jk)\nＣＶ"
    assert normalised_words(text) == [
        "jordan",
        "kim",
        "muller",
        "python",
        "sql",
        "github",
        "github",
        "com",
        "jk",
        "cv",
    ]


def test_the_same_words_in_another_layout_are_identical():
    plain = "Jordan Kim\nSkills: React, Node.js\nBarista, Blue Fern Coffee (2019 - 2023)"
    markdown = (
        "## JORDAN KIM\n\n* **Skills:** React — Node.js\n\n*Barista*, Blue Fern Coffee\n2019–2023"
    )
    first, second = signature(plain), signature(markdown)
    assert first is not None and second is not None
    assert first.digest == second.digest and first.similarity(second) == 1.0


@pytest.mark.parametrize(
    "copy",
    [
        pytest.param(JORDAN_REFORMATTED, id="reformatted and re-flowed"),
        pytest.param(
            JORDAN.replace("+1 (415) 555-0142", "+1 (628) 555-0177").replace(
                "jordan.kim@example.com", "jordankim.dev@mail.example.org"
            ),
            id="new phone and e-mail",
        ),
        pytest.param(
            JORDAN + "\nCERTIFICATIONS\nAWS Certified Cloud Practitioner (2025)\n", id="extra line"
        ),
        pytest.param(
            JORDAN.replace(
                "- Wrote unit tests",
                "- Added offline maps so routes work without a signal.\n- Wrote unit tests",
            ),
            id="one more bullet",
        ),
        pytest.param(
            JORDAN.replace("PROJECTS\n", "Page 1 of 2\n\nPROJECTS\n") + "\nPage 2 of 2\n",
            id="re-saved as PDF with page footers",
        ),
    ],
)
def test_the_same_cv_edited_or_re_saved_matches(copy: str):
    assert _similarity(JORDAN, copy) >= 0.7  # 0.5 is the threshold: a wide margin


def test_two_people_from_one_template_do_not_match():
    # the same summary sentence, skills lines, team capstone project and headings
    assert _similarity(JORDAN, PRIYA) < 0.35
    # a short form where the Europass labels are half of the words
    assert _similarity(ANNA, LUCA) < 0.1


def test_the_threshold_sits_between_the_measured_sides():
    assert (
        _similarity(JORDAN, PRIYA) < DUPLICATE_SIMILARITY <= _similarity(JORDAN, JORDAN_REFORMATTED)
    )


def test_signatures_round_trip_and_refuse_another_format():
    made = signature(JORDAN)
    assert made is not None
    stored = made.to_bytes()
    read = Signature.from_bytes(stored)
    assert read is not None and read.digest == made.digest and read.similarity(made) == 1.0
    assert Signature.from_bytes(bytes([99]) + stored[1:]) is None  # made another way
    assert Signature.from_bytes(stored[:10]) is None
    assert signature("— • —") is None  # nothing to compare


# -- grouping ---------------------------------------------------------------------------
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _sig(text: str) -> Signature:
    made = signature(text)
    assert made is not None
    return made


def _change(document_id: str, text: str | None, day: int = 0) -> Change:
    return Change(document_id, _sig(text) if text else None, T0 + timedelta(days=day))


def test_duplicates_in_one_batch_group_under_the_earliest():
    index = DuplicateIndex([])
    plan = index.regroup(
        [
            _change("jordan-kim", JORDAN, day=0),
            _change("jordan", JORDAN_REFORMATTED, day=0),  # same time: the id decides
            _change("priya", PRIYA, day=0),
        ]
    )
    assert plan == {"jordan": "jordan", "jordan-kim": "jordan", "priya": None}
    later = index.regroup([_change("jordan-kim-1", JORDAN, day=3)])
    assert later == {"jordan-kim-1": "jordan"}


def test_removing_the_earliest_renames_the_group_and_a_last_member_leaves_it():
    index = DuplicateIndex([])
    index.regroup([_change("b", JORDAN, 1), _change("a", JORDAN_REFORMATTED, 0)])
    index.regroup([_change("c", JORDAN, 2)])
    assert {i: index.group_of(i) for i in "abc"} == {"a": "a", "b": "a", "c": "a"}
    assert index.regroup([_change("a", None)]) == {"a": None, "b": "b", "c": "b"}
    assert index.regroup([_change("b", None)]) == {"b": None, "c": None}


def test_a_changed_cv_leaves_its_group():
    index = DuplicateIndex([])
    index.regroup([_change("j", JORDAN, 0), _change("copy", JORDAN_REFORMATTED, 1)])
    assert index.group_of("copy") == "j"
    assert index.regroup([_change("copy", PRIYA, 1)]) == {"copy": None, "j": None}


def _words(first: int, last: int) -> str:
    return " ".join(f"word{i}" for i in range(first, last))


def test_a_chain_groups_through_its_link_and_breaks_without_it():
    a, b, c = _words(0, 100), _words(20, 120), _words(40, 140)
    assert _similarity(a, b) >= DUPLICATE_SIMILARITY and _similarity(b, c) >= DUPLICATE_SIMILARITY
    assert _similarity(a, c) < DUPLICATE_SIMILARITY
    index = DuplicateIndex([])
    index.regroup([_change("a", a, 0), _change("c", c, 2)])
    assert index.group_of("c") is None
    assert index.regroup([_change("b", b, 1)]) == {"a": "a", "b": "a", "c": "a"}
    assert index.regroup([_change("b", None)]) == {"a": None, "b": None, "c": None}


def test_an_index_built_from_stored_members_keeps_their_groups():
    stored = [
        Member("a", _sig(JORDAN), T0, "a"),
        Member("b", _sig(JORDAN_REFORMATTED), T0 + timedelta(days=1), "a"),
        Member("p", _sig(PRIYA), T0, None),
    ]
    index = DuplicateIndex(stored, generation=7)
    assert len(index) == 3 and index.generation == 7
    assert index.matches("a") == {"b"}
    assert index.regroup([_change("c", JORDAN, 5)]) == {"c": "a"}  # b and a keep theirs
