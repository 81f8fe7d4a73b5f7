from datetime import date

import pytest

from talentrag.ingestion.dates import (
    find_date_ranges,
    find_season,
    parse_duration_years,
    stated_totals,
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


def test_every_stated_total_in_order():
    text = "Engineer with 8 years of experience; 5+ years’ experience in Go"
    assert [t.years for t in stated_totals(text)] == [
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


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("January 2017 to Till Date", date(2017, 1, 1), AS_OF),
        ("Feb 2017 - till date", date(2017, 2, 1), AS_OF),
        ("Aug 2019 to date", date(2019, 8, 1), AS_OF),
        ("Mar'19 – Jan'21", date(2019, 3, 1), date(2021, 2, 1)),
        ("01/09/2023 – present", date(2023, 9, 1), AS_OF),
        ("15/07/2019 – 15/09/2019", date(2019, 7, 15), date(2019, 9, 16)),
        ("03/01/2017 – aujourd'hui", date(2017, 1, 3), AS_OF),
        ("Oct 2022 â€“ present", date(2022, 10, 1), AS_OF),  # mojibake dash
        ("Mar 2017 –\npresent", date(2017, 3, 1), AS_OF),  # wrapped by a PDF
        ("Jun 2009 – Nov\n2009", date(2009, 6, 1), date(2009, 12, 1)),
    ],
)
def test_real_resume_date_forms(text: str, start: date, end: date):
    (found,) = find_date_ranges(text, AS_OF)
    assert (found.start, found.end) == (start, end)


def test_since_is_open_to_the_as_of_date():
    (found,) = find_date_ranges("Senior Consultant — Acme | Since April 2021", AS_OF)
    assert (found.start, found.end, found.form) == (date(2021, 4, 1), AS_OF, "since")


def test_a_season_is_its_months():
    found = find_season("Summer Associate — Brennan LLP | Summer 2010", AS_OF)
    assert found is not None and (found.start, found.end) == (date(2010, 6, 1), date(2010, 9, 1))


def test_a_date_of_birth_is_not_a_range():
    assert find_date_ranges("DOB: 11-Jun-1993 | Languages: Hindi", AS_OF) == []


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("Having 6+ years of experience in Java", 6.0),
        ("I have total experience of 2 years in Wipro", 2.0),
        ("Experience:- 1 Year 3 Months", 1.25),
        ("Total Experience: 4.5 years", 4.5),
        ("Total 11 years of IT experience.", 11.0),
        ("Chef with 27 years in professional kitchens.", 27.0),
        ("A primary teacher with eight years' experience.", 8.0),
    ],
)
def test_stated_totals(text: str, years: float):
    assert [t.years for t in stated_totals(text)] == [pytest.approx(years)]


def test_no_stated_total_in_a_skill_duration_or_an_aside():
    assert stated_totals("Python- Exprience - 24 months") == []
    assert stated_totals("Before care work I spent six years in retail.") == []


def test_durations_in_words():
    assert parse_duration_years("ten years") == 10.0
