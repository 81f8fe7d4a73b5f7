"""Experience from what a CV supports: roles, totals, level and the reason (hand-written CVs)."""

from datetime import date

import pytest

from talentrag.domain import ExperienceLevel
from talentrag.ingestion.cv_parser import parse_cv
from talentrag.ingestion.experience import skill_duration
from talentrag.vocabulary import Vocabulary

AS_OF = date(2026, 11, 1)

SKILL_LINES = """Rohit Verma
Having 6.5+ years of experience in Java development.

SKILL DETAILS
Java - Experience - 96 months
Spring Boot - Experience - 60 months
Python- Exprience - 24 months
Hibernate : 3 years

WORK EXPERIENCE
Software Engineer — Infosys, Pune | Jan 2020 to Till Date

EDUCATION
B.E. Computer Science (2015-2019)
"""

EDUCATION_RANGES = """Meera Pillai

EDUCATION
MSc Physics, Kerala University, 2016 - 2018
BSc Physics, Kerala University, 2013 - 2016

EXPERIENCE
Lab Assistant — St. Mary's College | Aug 2024 - present
"""

INTERN_AND_PART_TIME = """Priya Shah

PROFESSIONAL EXPERIENCE
Data Analyst — Brightcart, Mumbai | Aug 2023 - Present
- Dashboards in Power BI.

Data Analyst Intern — Brightcart, Mumbai | Jan 2023 - Jul 2023
Teaching Assistant (part-time, 10 h/week) — City College | 2020 - 2023
"""

OVERLAPS = """Ana Costa

EXPERIENCE
Staff Nurse, ICU — General Hospital | Jan 2016 - Present
Staff Nurse, Cardiac ICU — Heart Institute | Mar 2020 - Dec 2022
"""

ONLY_INTERNSHIPS = """Kiran Rao
Fresh graduate, B.E. Mechanical (2022-2026)

INTERNSHIPS
Design Intern — Sahyadri Auto, Pune
Jan 2026 to Jun 2026 (6 months)
Summer Intern — Tejas Works, Pune
May 2025 to Jun 2025 (2 months)
"""

STATED_ONLY = """Imran Sheikh
Experience:- 1 Year 3 Months

SKILLS
Excel, Tally
"""

TOO_MANY_STATED = """Ravi Das
Accountant with experience of 30 years in audit.

EDUCATION
B.Com, 2018 - 2021
"""

LINKEDIN = """Experience

Lattice Insurance
Senior Scrum Master
February 2022 - Present (4 years 10 months)
London

Pemberton Bank
Recruiting Assistant (part-time, 20 hrs/week)
June 2020 - April 2021 (11 months)
"""


def test_skill_detail_lines_are_skill_years_not_roles(vocabulary: Vocabulary):
    parsed = parse_cv(SKILL_LINES, vocabulary, AS_OF)
    assert [r.title for r in parsed.roles] == ["Software Engineer"]
    assert parsed.skill_years["Java"] == 8.0 and parsed.skill_years["Python"] == 2.0
    assert parsed.skill_years["Hibernate"] == 3.0
    assert 6.7 < parsed.years < 6.9  # Jan 2020 - Nov 2026; the 96 months are Java's, not a role
    assert parsed.level is ExperienceLevel.SENIOR
    assert any(span.use == "skill_years" for span in parsed.experience_spans)


def test_skill_duration_needs_a_known_skill(vocabulary: Vocabulary):
    assert skill_duration("Kotlin - Experience - 60 months", vocabulary) == ("Kotlin", 5.0)
    assert skill_duration("Notice period - 2 months", vocabulary) is None


def test_education_ranges_never_count(vocabulary: Vocabulary):
    parsed = parse_cv(EDUCATION_RANGES, vocabulary, AS_OF)
    assert len(parsed.roles) == 1 and 2.1 < parsed.years < 2.3
    assert parsed.level is ExperienceLevel.JUNIOR


def test_internships_and_part_time_are_recorded_but_not_counted(vocabulary: Vocabulary):
    parsed = parse_cv(INTERN_AND_PART_TIME, vocabulary, AS_OF)
    kinds = {r.title: (r.kind, r.counted) for r in parsed.roles}
    assert kinds["Data Analyst"] == ("job", True)
    assert kinds["Data Analyst Intern"] == ("training", False)
    assert kinds["Teaching Assistant"][0] == "part_time"
    assert 3.1 < parsed.years < 3.3 and parsed.level is ExperienceLevel.MID
    assert "training" in parsed.level_reason and "part-time" in parsed.level_reason


def test_overlapping_roles_count_once(vocabulary: Vocabulary):
    parsed = parse_cv(OVERLAPS, vocabulary, AS_OF)
    assert 10.7 < parsed.years < 10.9  # Jan 2016 - Nov 2026, the 2020-2022 job inside it


def test_only_internships_is_junior_with_no_years(vocabulary: Vocabulary):
    parsed = parse_cv(ONLY_INTERNSHIPS, vocabulary, AS_OF)
    assert parsed.years == 0.0 and parsed.level is ExperienceLevel.JUNIOR
    assert parsed.level_source == "training_only" and len(parsed.roles) == 2


def test_a_stated_total_decides_without_dated_roles(vocabulary: Vocabulary):
    parsed = parse_cv(STATED_ONLY, vocabulary, AS_OF)
    assert parsed.years == 1.25 and parsed.level is ExperienceLevel.JUNIOR
    assert parsed.level_source == "stated_total"
    (span,) = parsed.experience_spans
    assert STATED_ONLY[span.start : span.end] == "Experience:- 1 Year 3 Months"


def test_a_stated_total_is_capped_by_the_cv_timeline(vocabulary: Vocabulary):
    parsed = parse_cv(TOO_MANY_STATED, vocabulary, AS_OF)
    assert parsed.years == 8.0  # nothing before 2018: at most 2026 - 2018
    assert "capped" in parsed.level_reason


def test_linkedin_titles_and_part_time_above_the_dates(vocabulary: Vocabulary):
    parsed = parse_cv(LINKEDIN, vocabulary, AS_OF)
    assert [r.title for r in parsed.roles] == [
        "Senior Scrum Master",
        "Recruiting Assistant",
    ]
    assert [r.kind for r in parsed.roles] == ["job", "part_time"]


def test_linkedin_employer_above_the_title_is_no_title(vocabulary: Vocabulary):
    text = (
        "Experience\nBrightleaf Software\nDigital Marketing Manager\n"
        "January 2022 - Present (4 years 11 months)\nLondon, England\n"
        "Pennant Retail\nDigital Marketing Executive\nAugust 2016 - December 2021\nLeicester\n"
    )
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [r.title for r in parsed.roles] == [
        "Digital Marketing Manager",
        "Digital Marketing Executive",
    ]
    assert parsed.level is ExperienceLevel.SENIOR


@pytest.mark.parametrize(
    "text",
    [
        "Sam Reed\nSenior Developer\nPython, Go.",
        "Lucas Pereira\nPROFILE Sales. Door-to-door sales.",
        (  # ages are no length of service
            "Dance Teacher\n\nEXPERIENCE\nWeekend classes for children (6 to 14 yrs) and adults.\n"
            "Piano lessons for pupils aged 8-12 years.\n"
        ),
    ],
)
def test_no_evidence_gives_no_level(vocabulary: Vocabulary, text: str):
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert parsed.level is None and parsed.years is None
    assert parsed.level_reason is not None and "no dated roles" in parsed.level_reason


def test_career_changer_earlier_field_is_not_counted(vocabulary: Vocabulary):
    text = (
        "EXPERIENCE\nHealthcare Assistant, Elderly Care\nCroydon Hospital | January 2024 – present\n\n"
        "Store Supervisor\nBrightway Fashion | March 2017 – December 2023\n"
    )
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert 2.7 < parsed.years < 2.9 and parsed.level is ExperienceLevel.JUNIOR
    assert "another field (retail)" in parsed.level_reason


def test_a_laboratory_career_does_not_count_for_a_data_engineer(vocabulary: Vocabulary):
    text = (
        "EXPERIENCE\nData Engineer, Finch Analytics | 09/2022 - present\n\n"
        "Laboratory Technician, Polpharma QC | 06/2014 - 12/2021\n"
    )
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert 4.0 < parsed.years < 4.3 and parsed.level is ExperienceLevel.MID


@pytest.mark.parametrize(
    "text",
    [
        "EMPLOYMENT\nBiology Teacher, Harrow Park School | 2022 – present\n\n"
        "PREVIOUS CAREER\nMicrobiology Technician, Delmont Foods | 2012 – 2021\n"
        "Ran plate counts and PCR assays.\n",
        "Dana Whitfield  dana@example.com  WORK HISTORY  Biology Teacher, Harrow Park School "
        "2022 – present  "
        "EARLIER CAREER  Microbiology Technician, Delmont Foods 2012 – 2021 Ran plate counts.",
    ],
)
def test_a_career_the_cv_calls_earlier_is_not_counted(vocabulary: Vocabulary, text: str):
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert 4.2 < parsed.years < 5.0 and parsed.level is ExperienceLevel.MID
    earlier = [r for r in parsed.roles if r.kind == "earlier_career"]
    assert [r.title for r in earlier] == ["Microbiology Technician"]
    assert earlier[0].counted is False
    assert "earlier-career" in parsed.level_reason


@pytest.mark.parametrize(
    ("text", "years"),
    [
        (
            "EXPERIENCE\nQA Engineer, Lumen Apps | March 2024 - present\n"
            "Sabbatical - May 2022 to February 2024\nTravelled and cared for family.\n"
            "QA Engineer, Tessel Labs | June 2020 - April 2022\n",
            (4.3, 4.7),
        ),
        (
            "EXPERIENCE\nData Analyst, Corvo | Jan 2025 - present\n"
            "Job search - Mar 2024 to Dec 2024\n"
            "Data Analyst, Brill | Jan 2023 - Feb 2024\n",
            (2.9, 3.1),
        ),
    ],
)
def test_time_out_of_work_is_a_gap_not_a_role(
    vocabulary: Vocabulary, text: str, years: tuple[float, float]
):
    parsed = parse_cv(text, vocabulary, AS_OF)
    gap = [r for r in parsed.roles if r.kind == "career_break"]
    assert len(gap) == 1 and gap[0].counted is False
    assert [r.kind for r in parsed.roles if not r.counted] == ["career_break"]
    assert years[0] < parsed.years < years[1] and parsed.level is ExperienceLevel.MID


@pytest.mark.parametrize(
    "header",
    [
        "Student developer, 16h/week — City College IT desk (Sep 2017 – Jun 2021)",
        "Bijbaan — Supermarkt Vos, Leiden (Sep 2017 – Jun 2021)",
    ],
)
def test_hours_a_week_and_student_jobs_are_part_time(vocabulary: Vocabulary, header: str):
    text = f"EXPERIENCE\nBackend Developer, Qbit | Jan 2022 - present\n{header}\n"
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [r.kind for r in parsed.roles] == ["job", "part_time"]
    assert parsed.level is ExperienceLevel.MID


def test_a_spanish_open_end_runs_to_today(vocabulary: Vocabulary):
    text = "EXPERIENCIA PROFESIONAL\nAnalista de Datos, Grupo Sol\nFeb 2023 – a la fecha\n"
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [(r.start, r.end) for r in parsed.roles] == [(date(2023, 2, 1), AS_OF)]


@pytest.mark.parametrize(
    ("text", "level"),
    [
        (  # an ERP functional consultant who was an accountant
            "EXPERIENCE\nFunctional Consultant, Norte Sistemas | Jan 2022 - present\n"
            "General Accountant, Sol Foods | Jan 2012 - Dec 2021\n",
            ExperienceLevel.MID,
        ),
        (  # an events coordinator who was a teacher
            "EXPERIENCE\nEvents Coordinator, Harbour Conference Centre | 03/2024 - present\n"
            "Geography Teacher, Westfield Middle School | 08/2015 - 02/2024\n",
            ExperienceLevel.JUNIOR,
        ),
        (  # a loan officer who was a teacher
            "EXPERIENCE\nMortgage Loan Officer, Fenwick Bank | Jan 2022 - present\n"
            "Fourth Grade Teacher, Elm School | 2012 - 2021\n",
            ExperienceLevel.MID,
        ),
        (  # an aircraft technician who worked in a warehouse
            "EXPERIENCE\nLine Maintenance Technician, SkyJet | Jan 2022 - present\n"
            "Warehouse Associate, Corda Logistics | 2012 - 2021\n",
            ExperienceLevel.MID,
        ),
        (  # a museum collections assistant who was a barista
            "EXPERIENCE\nCollections Assistant, Harbour Museum | Jan 2022 - present\n"
            "Barista, Bean There Cafe | 2012 - 2021\n",
            ExperienceLevel.MID,
        ),
        (  # a dental nurse who was a bank's customer adviser
            "EXPERIENCE\nDental Nurse, Riverside Dental | Jan 2025 - present\n"
            "Banking Associate, Northgate Bank | 2012 - 2021\n",
            ExperienceLevel.JUNIOR,
        ),
        (  # a wine waiter who taught physics
            "EXPERIENCE\nHead Sommelier, Quayside Brasserie | Jan 2024 - present\n"
            "Physics Teacher, Hillcrest College | 2012 - 2023\n",
            ExperienceLevel.JUNIOR,
        ),
        (  # an airline first officer who planned aircraft maintenance
            "EXPERIENCE\nFirst Officer, Coastal Air | Jan 2022 - present\n"
            "Maintenance Planning Engineer, Aerotec | 2012 - 2020\n",
            ExperienceLevel.MID,
        ),
        (  # a town planner who sold insurance
            "EXPERIENCE\nSenior Town Planner, Lakeside Council | Jan 2022 - present\n"
            "Insurance Sales Executive, Mutual Shield | 2012 - 2021\n",
            ExperienceLevel.MID,
        ),
        (  # a product designer who ran a print shop's prepress
            "EXPERIENCE\nProduct Designer, Quill Apps | Mar 2022 - present\n"
            "Prepress Operator, Sunrise Offset Printers | 2012 - 2022\n",
            ExperienceLevel.MID,
        ),
        (  # a tennis coach who was a shop cashier
            "EXPERIENCE\nTennis Coach, Lakeside Racquet Club | Mar 2024 - present\n"
            "Cashier, Daily Needs Mart | 2014 - 2024\n",
            ExperienceLevel.JUNIOR,
        ),
        (  # a product manager who answered customers' tickets
            "EXPERIENCE\nProduct Manager, Tallyho Apps | Mar 2023 - present\n"
            "Customer Support Specialist, Tallyho Apps | 2014 - 2023\n",
            ExperienceLevel.MID,
        ),
    ],
)
def test_a_career_change_counts_only_the_new_field(
    vocabulary: Vocabulary, text: str, level: ExperienceLevel
):
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert parsed.level is level
    assert parsed.years is not None and parsed.years < 5
    assert [r.counted for r in parsed.roles] == [True, False]


def test_an_earlier_career_alone_gives_no_level(vocabulary: Vocabulary):
    text = (
        "EXPERIENCE\nBiology Teacher, Harrow Park School\n\n"
        "PREVIOUS CAREER\nMicrobiology Technician, Delmont Foods | 2012 – 2021\n"
    )
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert parsed.level is None and parsed.years is None
    assert "current career" in parsed.level_reason


def test_every_counted_role_span_points_at_its_dates(vocabulary: Vocabulary):
    parsed = parse_cv(INTERN_AND_PART_TIME, vocabulary, AS_OF)
    counted = [s for s in parsed.experience_spans if s.use == "role"]
    assert [INTERN_AND_PART_TIME[s.start : s.end] for s in counted] == ["Aug 2023 - Present"]


ROLE_SENTENCES = (  # one run-together line, as scraped job-board resumes are
    "Kiran Desai Store Keeper  WORK EXPERIENCE: (1) Presently working as Store Keeper at Om Sai"
    " Builders, Nashik since 2017. Handling material inward and outward. (2) Worked as Store"
    " Assistant at Patil Constructions, Nashik, 2014 - 2016. Stock registers.  EDUCATION: B.A."
    " - 2013.\n"
)


def test_since_in_a_sentence_that_states_a_job_starts_that_role(vocabulary: Vocabulary):
    parsed = parse_cv(ROLE_SENTENCES, vocabulary, AS_OF)
    starts = sorted(role.start.year for role in parsed.roles if role.start)
    assert starts == [2014, 2017]
    assert parsed.level is ExperienceLevel.SENIOR


def test_since_in_a_sentence_about_a_tool_is_no_role(vocabulary: Vocabulary):
    text = "Jane Roe\n\nEXPERIENCE\nAnalyst, Acme | 2019 - 2021\n- Used Python since 2015 for scripts.\n"
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [role.start.year for role in parsed.roles if role.start] == [2019]


MARKDOWN_CAREER_CHANGE = """## Dana Cole
**Backend Developer** | Austin, TX

## Experience
**Backend Developer** — Northwind Labs, Austin, TX
*Mar 2022 – Present*
- Services in Go and PostgreSQL.

**Sous Chef** — Harbor Grill, Austin, TX
*2014 – 2021*
- Ran the line.
"""


def test_bold_markdown_titles_are_titles_not_bullets(vocabulary: Vocabulary):
    parsed = parse_cv(MARKDOWN_CAREER_CHANGE, vocabulary, AS_OF)
    assert [role.title for role in parsed.roles] == ["Backend Developer", "Sous Chef"]
    assert parsed.level is ExperienceLevel.MID  # the cooking career does not count


def test_payroll_after_an_hr_assistant_post_is_one_line_of_work(vocabulary: Vocabulary):
    text = (
        "EXPERIENCE\nPayroll Officer, Brookline Foods | Jan 2023 - present\n"
        "HR Assistant, Brookline Foods | Jan 2021 - Dec 2022\n"
    )
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [r.counted for r in parsed.roles] == [True, True]
    assert parsed.level is ExperienceLevel.MID


def test_roles_under_an_internships_heading_are_training(vocabulary: Vocabulary):
    text = (
        "WORK EXPERIENCE\nSurveyor, Delta Land Office\nMarch 2023 - present\n\n"
        "INDUSTRIAL TRAINING\nCounty Survey Department, Eastport\nJune 2016 - December 2016\n"
    )
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [(r.kind, r.counted) for r in parsed.roles] == [("job", True), ("training", False)]
    assert parsed.years == 3.67


def test_a_heading_naming_jobs_and_internships_keeps_its_jobs(vocabulary: Vocabulary):
    text = "WORK EXPERIENCE AND INTERNSHIPS\nSurveyor, Delta Land Office\nMarch 2023 - present\n"
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [(r.kind, r.counted) for r in parsed.roles] == [("job", True)]


def test_a_bulleted_role_line_above_its_dates_is_the_header(vocabulary: Vocabulary):
    text = (
        "EXPERIENCE\n"
        "• Swimming Coach – Riverside Aquatics, Dunmore\n  Mar 2024 – current\n"
        "  – Run squad sessions for 40 swimmers aged 9 to 16, with weekly video feedback.\n"
        "• Evening lifeguard (part time, while studying) – Dunmore Leisure Centre\n"
        "  Jan 2021 – Feb 2024\n"
    )
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [(r.title, r.kind) for r in parsed.roles] == [
        ("Swimming Coach", "job"),
        ("Evening lifeguard", "part_time"),
    ]
    assert parsed.level is ExperienceLevel.JUNIOR


EXPORT_CAREER_CHANGE = (  # a job board's export: the title stands beside the employer, above
    "Skills * Jenkins * Docker Education Details June 2012 to May 2015 B.Com Pune University\n"
    "DevOps Engineer DevOps Engineer - Orbitel Systems Skill Details Jenkins- Exprience - 30 months\n"
    "Company Details company - Orbitel Systems, Pune description - May 2024 to till date. Build"
    " and release pipelines in Jenkins, Docker images for 14 services, on-call for the build farm"
    " and the artifact store. company - Northstar Contact Solutions, Pune description - Jul 2016"
    " to Mar 2024, Customer Support Associate in a non-voice process for an airline: refunds,"
    " rebookings and chat support.\n"
)


def test_an_export_role_takes_its_title_from_beside_its_employer(vocabulary: Vocabulary):
    parsed = parse_cv(EXPORT_CAREER_CHANGE, vocabulary, AS_OF)
    titles = [role.title for role in parsed.roles]
    assert titles[0] == "DevOps Engineer"  # written twice by the export, read once
    assert titles[1].startswith("Customer Support Associate")
    assert [r.counted for r in parsed.roles] == [True, False]  # support is another career
    assert parsed.level is ExperienceLevel.JUNIOR


RUN_TOGETHER_EDUCATION = (
    "WORK EXPERIENCE Programme Officer (M&E), Harambee Aid, Nakuru. March 2023 - to date."
    " - Quarterly indicator reports.\n"
    "EDUCATION 2016 - 2020 Bachelor of Arts in Economics, Rift Valley University. 2012 - 2015"
    " Kenya Certificate of Secondary Education, Nakuru Boys High School.\n"
)


def test_a_run_together_education_heading_is_no_job(vocabulary: Vocabulary):
    parsed = parse_cv(RUN_TOGETHER_EDUCATION, vocabulary, AS_OF)
    assert [(r.kind, r.counted) for r in parsed.roles if r.start and r.start.year == 2016] == [
        ("education", False)
    ]
    assert parsed.years == 3.67  # the programme officer post alone


@pytest.mark.parametrize(
    "header",
    [
        "Trainee in the company's Cloud training programme",
        "Vacation work, Mbeki & Sons Surveyors",
        "INDUSTRIAL ATTACHMENT Rift Valley Water Board",
        "Looked after family: cared for my father after his surgery",
        "CAREER BREAK",
    ],
)
def test_training_and_breaks_written_in_other_words_are_not_counted(
    vocabulary: Vocabulary, header: str
):
    text = f"EXPERIENCE\nSite Engineer, Delta Works | Jan 2024 - present\n{header} | 2019 - 2022\n"
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [r.counted for r in parsed.roles] == [True, False]
    assert parsed.years == 2.83


@pytest.mark.parametrize(
    "line",
    [
        "National Service, Singapore Civil Defence Force | Jan 2016 - Dec 2017",
        "Community service (480 hours), City Library | 2021 - 2022",
        "Federal voluntary service, Red Cross ambulance station | 09/2013 - 08/2014",
        "Park Ranger (seasonal, April to September each year) | 2015 - 2019",
    ],
)
def test_service_years_and_seasonal_work_are_not_counted(vocabulary: Vocabulary, line: str):
    text = f"EXPERIENCE\nPharmacist, Green Cross Pharmacy | Jan 2025 - present\n{line}\n"
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [r.counted for r in parsed.roles] == [True, False]
    assert parsed.level is ExperienceLevel.JUNIOR


FEDERAL_STYLE = """WORK EXPERIENCE

Harbor County Fire District   Eastport, WA
03/2019 - Present
Grade Level: GS-0081-07   Hours per week: 40
Supervisor: J. Ortega, Station Chief, may contact
Fire Captain (Structural Firefighting)
- Lead a four-person engine company.

Harbor County Fire District   Eastport, WA
06/2014 - 02/2019
Hours per week: 40
Firefighter (Paramedic; Senior Firefighter from 2017)
- Engine and ladder company duties.

United States Marine Corps   Camp Lejeune, NC
06/2010 - 05/2014
Rifleman (Lance Corporal).
"""


def test_a_federal_resumes_title_under_its_labelled_facts(vocabulary: Vocabulary):
    parsed = parse_cv(FEDERAL_STYLE, vocabulary, AS_OF)
    titles = [r.title for r in parsed.roles]
    assert titles[0] == "Fire Captain (Structural Firefighting)"
    assert len(parsed.roles) == 3  # "from 2017" inside the brackets is a promotion, no role
    assert [r.counted for r in parsed.roles] == [True, True, False]  # the Marines: military
    assert parsed.years is not None and 12 < parsed.years < 13


GLOSSED_HEADINGS = """Lucía Romero
Contadora / Accountant

EXPERIENCIA PROFESIONAL (Work experience)
Contadora General (Accountant), Grupo Norte | enero 2024 – actual

FORMACIÓN (Education)
Licenciatura en Contaduría, Universidad del Golfo, 2018 – 2022
"""


def test_headings_with_a_translation_in_brackets(vocabulary: Vocabulary):
    parsed = parse_cv(GLOSSED_HEADINGS, vocabulary, AS_OF)
    assert [s.kind for s in parsed.sections] == ["header", "experience", "education"]
    assert [r.counted for r in parsed.roles] == [True]
    assert parsed.level is ExperienceLevel.JUNIOR


def test_a_year_named_in_passing_does_not_cap_a_stated_total(vocabulary: Vocabulary):
    text = (
        "ABOUT ME\nCoach driver with nine years' experience on tours and school runs.\n\n"
        "EXPERIENCE\nCoach Driver, Valley Travel\n- Trained on the new hybrid coaches in 2025.\n\n"
        "LICENCES\n- Driver CPC card valid to 2029\n"
    )
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert parsed.years == 9.0 and parsed.level is ExperienceLevel.SENIOR


@pytest.mark.parametrize(
    ("text", "counted", "level"),
    [
        (  # a months-long switch between careers is no job
            "EXPERIENCE\nData Analyst, Brightwave | March 2024 – Present\n"
            "Career transition | July 2023 – February 2024\n"
            "Science Teacher, Oak Hill School | 2012 – 2023\n",
            [True, False, False],
            ExperienceLevel.JUNIOR,
        ),
        (  # a surgical technologist who moved into device sales
            "EXPERIENCE\nTerritory Sales Manager, OrthoLine | Jan 2023 – Present\n"
            "Surgical Technologist, St Luke's Hospital | 2012 – 2022\n",
            [True, False],
            ExperienceLevel.MID,
        ),
        (  # an engineer's doctorate and postdoc are one career with the job before
            "EXPERIENCE\nPostdoctoral Research Associate, Northfield University | Jan 2024 – present\n"
            "PhD researcher, Northfield University | Jan 2020 – Dec 2023\n"
            "Graduate Civil Engineer, Brook Consulting | Jul 2018 – Dec 2019\n",
            [True, True, True],
            ExperienceLevel.SENIOR,
        ),
        (  # Ab Initio is an ETL tool here, not a pilot's first training
            "EXPERIENCE\nETL Lead, Northgrid | Jan 2022 - Present\n"
            "Ab Initio Developer, Bluepeak | Jun 2016 - Dec 2021\n",
            [True, True],
            ExperienceLevel.SENIOR,
        ),
    ],
)
def test_more_lines_of_work_and_their_years(
    vocabulary: Vocabulary, text: str, counted: list[bool], level: ExperienceLevel
):
    parsed = parse_cv(text, vocabulary, AS_OF)
    assert [r.counted for r in parsed.roles] == counted
    assert parsed.level is level


def test_a_firm_named_in_the_plural_names_its_field(vocabulary: Vocabulary):
    assert vocabulary.title_field("Harcourt Lane Solicitors") == "legal"
    assert vocabulary.title_field("Riverside Accountants") == "finance"
