from datetime import date

import pytest

from talentrag.domain import ExperienceLevel
from talentrag.ingestion.cv_parser import parse_cv, split_sections
from talentrag.policy.levels import level_for_years
from talentrag.vocabulary import Vocabulary

AS_OF = date(2026, 11, 1)

MARKDOWN_CV = """# Jane Doe
jane@example.com | Berlin

## Summary
Platform engineer.

## Experience
### Senior DevOps Engineer, Acme | Jan 2019 – Present
- Deployed services on EKS with Helm charts.

### Software Engineer, Foo | 2016 - 2018
- Django APIs on Postgres.

## Education
BSc Computer Science, 2010 – 2016
"""

CAREER_CHANGER = """Tom Baker

EXPERIENCE
Junior Software Developer — Startup Ltd — Feb 2024 – Present
Built React front ends in TypeScript.

Secondary School Teacher — Hill School — Sep 2012 – Aug 2023
Lesson planning and classroom management for maths classes.

EDUCATION
PGCE, 2011 – 2012
"""

MISLEADING_TITLE = """Name: Ana Lima
Email: ana@example.com

Work Experience
Senior Developer at Shop Co (Mar 2022 – Present)
Python and Django.
"""


def test_markdown_cv(vocabulary: Vocabulary):
    parsed = parse_cv(MARKDOWN_CV, vocabulary, AS_OF)
    assert parsed.name == "Jane Doe"
    assert [r.title for r in parsed.roles] == ["Senior DevOps Engineer", "Software Engineer"]
    assert parsed.current_field == "technology"
    assert parsed.level is ExperienceLevel.SENIOR
    assert 9.5 < parsed.years < 10.2  # 2019-01..2026-11 plus 2016-07..2018-07; education ignored


def test_career_changer_counts_only_the_new_field(vocabulary: Vocabulary):
    parsed = parse_cv(CAREER_CHANGER, vocabulary, AS_OF)
    assert parsed.name == "Tom Baker"
    assert {r.field for r in parsed.roles} == {"technology", "education"}
    assert parsed.current_field == "technology"
    assert 2.6 < parsed.years < 2.8
    assert parsed.level is ExperienceLevel.JUNIOR


def test_a_teacher_turned_technical_writer_counts_only_the_writing(vocabulary: Vocabulary):
    text = (
        "EXPERIENCE\n"
        "Technical Writer — Lumen Payments — May 2023 – Present\n"
        "API reference and developer guides in Markdown.\n"
        "Science Teacher — Elm Grove Academy — Sep 2010 – Apr 2023\n"
        "Lesson planning and assessment.\n"
    )
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert parsed.current_field == "arts_media"
    assert 3.4 < parsed.years < 3.6 and parsed.level is ExperienceLevel.MID


def test_years_decide_over_a_senior_title(vocabulary: Vocabulary):
    parsed = parse_cv(MISLEADING_TITLE, vocabulary, AS_OF)
    assert parsed.name == "Ana Lima"
    assert parsed.level is ExperienceLevel.MID
    assert parsed.level_source == "roles"


def test_a_title_alone_is_no_evidence_of_level(vocabulary: Vocabulary):
    parsed = parse_cv("Sam Reed\nLead Data Engineer\nSpark, Kafka, Airflow.", vocabulary, AS_OF)
    assert parsed.level is None and parsed.years is None and parsed.level_source is None
    assert parsed.level_reason and parsed.level_reason.startswith("unknown")


def test_summary_claim_when_roles_have_no_dates(vocabulary: Vocabulary):
    parsed = parse_cv(
        "Sam Reed\n\nSUMMARY\nNurse with 4 years of experience in ICU care.", vocabulary, AS_OF
    )
    assert parsed.years == 4.0 and parsed.level is ExperienceLevel.MID


def test_level_thresholds():
    assert level_for_years(2.99) is ExperienceLevel.JUNIOR
    assert level_for_years(3.0) is ExperienceLevel.MID
    assert level_for_years(6.0) is ExperienceLevel.MID
    assert level_for_years(6.01) is ExperienceLevel.SENIOR


def test_sections():
    kinds = [s.kind for s in split_sections(MARKDOWN_CV)]
    assert kinds == ["header", "summary", "experience", "education"]


@pytest.mark.parametrize(
    ("heading", "kind"),
    [
        ("WORK EXPERIENCE", "experience"),
        ("Professional Experience", "experience"),
        ("Employment History", "experience"),
        ("Experience Details", "experience"),
        ("Career Profile", "experience"),
        ("EXPERIENCE SUMMARY", "summary"),
        ("Educational Qualification", "education"),
        ("SKILL DETAILS", "skills"),
        ("Key Skills and Systems", "skills"),  # a DOCX heading without its style
        ("Education & Certifications", "education"),
        ("EXPERIENCIA PROFESIONAL", "experience"),
        ("Werkervaring", "experience"),
        ("EDUCACIÓN", "education"),
        ("Habilidades", "skills"),
        ("RESUMEN PROFESIONAL", "summary"),
        ("REFERENCIAS", "references"),
        ("Referees", "references"),
    ],
)
def test_real_resume_headings(heading: str, kind: str):
    text = f"Asha Rao\n\n{heading}\nsome text\n"
    assert [s.kind for s in split_sections(text)] == ["header", kind]


def test_a_learning_label_is_not_a_section():
    text = "Ravi Iyer\n\nSKILLS\nPython, SQL\nCurrently learning: Rust\n"
    assert [s.kind for s in split_sections(text)] == ["header", "skills"]


def test_a_label_whose_list_runs_on_in_bullets_is_a_one_line_section():
    text = "Asha Rao\nSkills * Solidity * Truffle\nData Scientist * Acme\nEducation Details\nB.E.\n"
    sections = split_sections(text)
    assert [(s.kind, s.heading) for s in sections] == [
        ("header", ""),
        ("skills", "Skills"),
        ("header", ""),
        ("education", "Education Details"),
    ]


def test_a_wrapped_line_is_not_a_heading():
    text = (
        "EXPERIENCE\nERP Consultant, Norte Sistemas | 2020 - present\n"
        "- Workshops, configuration, key-user\n  training and hypercare\n- Data migration\n"
    )
    assert [s.kind for s in split_sections(text)] == ["experience"]


def test_a_job_title_line_is_not_a_heading():
    text = "EXPERIENCE\nTeaching Assistant\nCustomer Service\nBayside School | 2019 - 2021\n"
    assert [s.kind for s in split_sections(text)] == ["experience"]
    text = "EXPERIENCE\nEducation and Outreach Officer\nCity Museum | 2019 - 2021\n"
    assert [s.kind for s in split_sections(text)] == ["experience"]


def test_headings_run_into_the_text_split_sections():
    text = "Name\nJava, JMeterPROFESSIONAL EXPERIENCETest Engineer, Acme  Feb 2022 - till dateEDUCATIONB.Tech (2017-2021)"
    sections = split_sections(text)
    assert [s.kind for s in sections] == ["header", "experience", "education"]
    assert text[sections[1].start :].startswith("Test Engineer")


def test_a_job_board_export_that_lost_its_line_breaks_keeps_its_sections(vocabulary: Vocabulary):
    text = (
        "Skills * Excel * Tally ERP * GST returns Education Details June 2011 to May 2014"
        " B.Com Nagpur University Skill Details Tally- Exprience - 60 months Company Details"
        " company - Sai Traders description - Accountant, Nagpur - March 2016 to till date."
        " Prepared GST returns and monthly MIS.\n"
    )
    kinds = [s.kind for s in split_sections(text)]
    assert kinds == ["skills", "education", "skills", "experience"]
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [r.kind for r in parsed.roles] == ["job"]  # the B.Com's dates are no job
    assert 10.5 < parsed.years < 10.8 and parsed.level is ExperienceLevel.SENIOR


def test_a_job_board_export_heading_may_open_a_line(vocabulary: Vocabulary):
    text = (
        "Skills * Tally ERP * GST Education Details 2012 to 2015 B.Com Nagpur University\n"
        "Company Details company - Mehta & Sons description - Working as Accountant from"
        " April 2021 to Till Date. * Monthly GST returns.\n"
    )
    assert [s.kind for s in split_sections(text)] == ["skills", "education", "experience"]
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [r.kind for r in parsed.roles] == ["job"]
    assert parsed.level is ExperienceLevel.MID


@pytest.mark.parametrize(
    "description",
    [
        "Independent practice since March 2018 at the Sessions Court, Nagpur.",
        "Since March 2018 handling GST filings for 40 clients.",
    ],
)
def test_a_job_board_description_dates_its_role_without_a_title(
    vocabulary: Vocabulary, description: str
):
    text = f"Company Details company - Rao Chambers description - {description} * Drafting.\n"
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [(r.kind, r.start) for r in parsed.roles] == [("job", date(2018, 3, 1))]
    assert parsed.level is ExperienceLevel.SENIOR


def test_summer_season_jobs_are_not_counted(vocabulary: Vocabulary):
    text = (
        "EXPERIENCE\n"
        "Solar Technician - Sunfield Energy - 03/2023 - current\n"
        "Inverter checks and panel cleaning.\n"
        "07/2018 - 08/2021 (summer seasons only)\n"
        "Lifeguard - Costa Pools\n"
    )
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [r.kind for r in parsed.roles] == ["job", "part_time"]
    assert parsed.level is ExperienceLevel.MID


def test_title_case_headings_set_off_by_two_spaces_split_a_run_together_line():
    text = (
        "Ravi Kumar  Store Manager  ravi@example.com  Pune  Education Details  2015 to 2018"
        " B.Com Pune University  Skill Details  Retail- Exprience - 60 months  Company Details"
        "  company - Apex Retail  description - Store Manager, Jan 2019 to Till Date.\n"
    )
    kinds = [(s.kind, s.heading) for s in split_sections(text)]
    assert kinds == [
        ("header", ""),
        ("education", "Education Details"),
        ("skills", "Skill Details"),
        ("experience", "Company Details"),
    ]
    text = "Ravi Kumar\nSUMMARY\nI led work experience days for schools.\n"
    assert [s.kind for s in split_sections(text)] == ["header", "summary"]
