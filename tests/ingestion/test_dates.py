from datetime import date

import pytest

from talentrag.ingestion.dates import (
    experience_claims,
    find_date_ranges,
    parse_duration_years,
    union_years,
)

AS_OF = date(2026, 11, 1)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("Jan 2016 – Mar 2021", date(2016, 1, 1), date(2021, 4, 1)),
        ("January 2016 - March 2021", date(2016, 1, 1), date(2021, 4, 1)),
        ("01/2016 – 03/2021", date(2016, 1, 1), date(2021, 4, 1)),
        ("2019–present", date(2019, 7, 1), AS_OF),
        ("2019 - Present", date(2019, 7, 1), AS_OF),
        ("Mar 2018 to current", date(2018, 3, 1), AS_OF),
        ("2016 – 2019", date(2016, 7, 1), date(2019, 7, 1)),
        ("Sept 2020 — Dec 2022", date(2020, 9, 1), date(2023, 1, 1)),
        ("2021-03 - 2022-05", date(2021, 3, 1), date(2022, 6, 1)),
    ],
)
def test_date_ranges(text: str, start: date, end: date):
    (found,) = find_date_ranges(f"Engineer, Acme | {text}", AS_OF)
    assert (found.start, found.end) == (start, end)


def test_future_and_inverted_ranges_are_ignored():
    assert find_date_ranges("2028 - 2030", AS_OF) == []
    assert find_date_ranges("2021 - 2019", AS_OF) == []


@pytest.mark.parametrize(
    ("text", "years"), [("(3 years)", 3.0), ("2 yrs 6 months", 2.5), ("18 months", 1.5)]
)
def test_durations(text: str, years: float):
    assert parse_duration_years(text) == pytest.approx(years)


def test_experience_claims():
    assert experience_claims("Engineer with 8 years of experience; 5+ years’ experience in Go") == [
        8.0,
        5.0,
    ]


def test_overlapping_roles_count_once():
    spans = [
        (date(2016, 1, 1), date(2020, 1, 1)),
        (date(2018, 1, 1), date(2021, 1, 1)),
        (date(2023, 1, 1), date(2024, 1, 1)),
    ]
    assert union_years(spans) == pytest.approx(
        (date(2021, 1, 1) - date(2016, 1, 1)).days / 365.25 + 1, abs=0.01
    )


def test_ranges_do_not_cross_lines():
    (found,) = find_date_ranges("Led a team of 5.\n\n2015–2019 Engineer", AS_OF)
    assert found.start == date(2015, 7, 1)
