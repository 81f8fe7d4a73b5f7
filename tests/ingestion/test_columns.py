from talentrag.ingestion.columns import untangle_columns
from talentrag.ingestion.readers import clean_text

TWO_COLUMNS = """\
MARTA LINDQVIST
SKILLS                       EXPERIENCE
Xero, Sage 50                Bookkeeper, Fjord Accounting (2019 - present)
Payroll (PAYE)               - Prepared the monthly accounts and
VAT returns                  reconciled the bank feeds for 30 small
                             clients, mostly cafes and builders.
LANGUAGES                    - Moved the payroll of six clients from
English, Swedish             spreadsheets to Xero, with the owners'
Norwegian (basic)            sign-off at each step.

Referees on request.
"""


def test_two_columns_are_read_one_after_the_other():
    text = untangle_columns(TWO_COLUMNS)
    assert text.index("VAT returns") < text.index("EXPERIENCE") < text.index("Referees")
    # each column's sentence is whole again, and the skill list no longer runs into it
    assert "Prepared the monthly accounts and\nreconciled the bank feeds for 30 small" in text
    assert "Payroll (PAYE)\nVAT returns\n\nLANGUAGES\nEnglish, Swedish\nNorwegian" in text
    assert text.startswith("MARTA LINDQVIST\n")
    assert sorted(text.split()) == sorted(TWO_COLUMNS.split())  # nothing lost


def test_a_label_and_value_layout_stays_as_it_is():
    europass = """\
WORK EXPERIENCE
03/2020 - Present            Site Engineer
                             Harbour Works Ltd, Gdansk
                             Supervised formwork and concrete pours.
09/2017 - 02/2020            Junior Engineer
                             Vistula Build, Torun
EDUCATION
2013 - 2017                  BSc Civil Engineering
"""
    assert untangle_columns(europass) == europass


def test_a_table_stays_as_it_is():
    table = """\
Skill          Level          Years
Python         advanced       6
SQL            advanced       6
Airflow        intermediate   2
"""
    assert untangle_columns(table) == table


def test_clean_text_stores_the_reading_order():
    assert clean_text(TWO_COLUMNS) == untangle_columns(TWO_COLUMNS)


def test_a_heading_one_space_after_a_long_left_side_starts_the_right_column():
    text = (
        "JON ARKWRIGHT                   PROFILE\n"
        "Quantity Surveyor               Surveyor who prices schools and clinics for\n"
        "Leeds LS6                       councils and housing trusts, and who writes\n"
        "CONTACT                         the cost plans and the final accounts too.\n"
        "portfolio: jonarkwright.example EXPERIENCE\n"
        "SKILLS                          Senior Quantity Surveyor, Brook & Hale\n"
        "CostX                           May 2021 - present\n"
        "NRM2                            - Cost plans for six schools, from concept to\n"
        "Excel                             tender, and the valuations on site.\n"
    )
    untangled = untangle_columns(text)
    right = untangled[untangled.index("PROFILE") :]
    assert "EXPERIENCE\nSenior Quantity Surveyor, Brook & Hale" in right
    assert "portfolio: jonarkwright.example\n" in untangled
