"""Free-text queries and job descriptions read into a structured request (issue 12, item 4).

Every expected outcome below was decided by reading the text, as a recruiter would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from talentrag.domain import ExperienceLevel
from talentrag.ingestion.readers import read_document
from talentrag.search.request_text import (
    ParsedRequest,
    RequestCueError,
    default_request_cues,
    load_request_cues,
    parse_request_text,
)
from talentrag.vocabulary import Vocabulary
from talentrag.vocabulary.vocabulary import CategorySpec, FieldSpec, SkillSpec

ROOT = Path(__file__).parents[2]
TRUTH = Path(__file__).parent / "request_text_truth"
JUNIOR, MID, SENIOR = ExperienceLevel.JUNIOR, ExperienceLevel.MID, ExperienceLevel.SENIOR


@dataclass(frozen=True)
class Case:
    text: str
    required: list[str]
    preferred: list[str] = field(default_factory=list)
    levels: list[ExperienceLevel] = field(default_factory=list)
    min_years: float | None = None


QUERIES = [
    # the issue's own examples
    Case(
        "senior python developer with kubernetes, terraform a plus",
        ["Python", "Kubernetes"],
        ["Terraform"],
        [SENIOR],
    ),
    Case("nurse with ICU experience", ["Nursing", "Critical Care Nursing"]),
    Case(
        "mid or senior java engineer, 5+ years, spring boot",
        ["Java", "Spring Boot"],
        levels=[MID, SENIOR],
        min_years=5,
    ),
    Case("accountant with IFRS; SAP nice to have", ["Accounting", "IFRS"], ["SAP ERP"]),
    # recruiters type in lower case: short names still count in a query
    Case("go developer with grpc, c and r", ["Go", "gRPC", "C", "R"]),
    Case("excel and power bi reporting analyst", ["Microsoft Excel", "Power BI"]),
    # negation and alternatives
    Case("java developer, not php", ["Java"]),
    Case("python or java developer", [], ["Python", "Java"]),
    Case(
        "devops engineer with aws, gcp or azure a plus",
        ["DevOps"],
        ["AWS", "Google Cloud Platform", "Microsoft Azure"],
    ),
    # a comma ends a backward cue's list unless "and"/"or" joins it
    Case("python, kubernetes, docker a plus", ["Python", "Kubernetes"], ["Docker"]),
    Case(
        "Must have: Python, AWS. Nice to have: Terraform, Ansible",
        ["Python", "AWS"],
        ["Terraform", "Ansible"],
    ),
    Case("react developer, ideally typescript and graphql", ["React"], ["TypeScript", "GraphQL"]),
    Case("rust engineer; bonus points for webassembly", ["Rust"], ["WebAssembly"]),
    Case("Data analyst: SQL, Tableau; bonus if dbt", ["SQL", "Tableau"], ["dbt"]),
    Case("react, typescript. graphql nice-to-have", ["React", "TypeScript"], ["GraphQL"]),
    # examples stand for a kind: any one will do; a change of connector ends the list
    Case(
        "experience with cloud platforms such as AWS or GCP, and python",
        ["Cloud Computing", "Python"],
        ["AWS", "Google Cloud Platform"],
    ),
    # levels
    Case(
        "lead data engineer with spark and airflow",
        ["Apache Spark", "Apache Airflow"],
        levels=[SENIOR],
    ),
    Case("graduate accountant", ["Accounting"], levels=[JUNIOR]),
    Case("staff nurse", ["Nursing"]),
    Case("staff software engineer, golang", ["Go"], levels=[SENIOR]),
    Case("entry-level marketing assistant", ["Marketing"], levels=[JUNIOR]),
    Case("mid-to-senior react developer", ["React"], levels=[MID, SENIOR]),
    Case("teacher with phonics, graduate degree required", ["Teaching", "Phonics"]),
    Case("sales development rep for lead generation", ["Sales", "Lead Generation"]),
    # years
    Case("3-5 years python", ["Python"], min_years=3),
    Case("minimum of two years accounting", ["Accounting"], min_years=2),
    Case("at least 3 years of Python, ideally Django", ["Python"], ["Django"], min_years=3),
    Case("python developer, 3+ years, ideally 8+ years", ["Python"], min_years=3),
    Case("junior java developer, up to 2 years", ["Java"], levels=[JUNIOR]),
    Case("java developer, 500 years", ["Java"]),
    # professions and their broad skills
    Case("HR manager with payroll experience", ["Human Resources Management", "Payroll"]),
    Case("software engineer", ["Software Engineering"]),
    Case("software engineer with java", ["Java"]),
    Case(
        "registered nurse, BLS and ACLS, no agency staff",
        ["Registered Nurse", "Basic Life Support", "Advanced Cardiac Life Support"],
    ),
]


@pytest.mark.parametrize("case", QUERIES, ids=[c.text for c in QUERIES])
def test_queries(case: Case, vocabulary: Vocabulary) -> None:
    parsed = parse_request_text(case.text, vocabulary)
    assert _outcome(parsed) == (
        case.required,
        case.preferred,
        case.levels,
        case.min_years,
    ), parsed.notes


def _outcome(
    parsed: ParsedRequest,
) -> tuple[list[str], list[str], list[ExperienceLevel], float | None]:
    return (
        parsed.required_skills,
        parsed.preferred_skills,
        parsed.experience_levels,
        parsed.min_years,
    )


HEADED_JD = """\
Senior Backend Engineer (Python)
Acme Robotics · Remote-friendly · Full-time

About us
Acme builds warehouse robots. We are a team of 60 and we love Rust, Elixir and good coffee.

What you'll do
- Build APIs with FastAPI and run them on Kubernetes.
- Keep our Grafana dashboards green.

Requirements
- 5+ years of professional software development.
- Strong Python and PostgreSQL.
- Experience with Docker.

Nice to have
- Terraform, Ansible
- Kafka

What we offer
- Competitive salary, health insurance and 30 days of holiday.
- A Python training budget.
"""


def test_job_description_sections(vocabulary: Vocabulary) -> None:
    parsed = parse_request_text(HEADED_JD, vocabulary)
    # "software development" is the vocabulary's broad Software Engineering
    assert parsed.required_skills == ["Python", "Software Engineering", "PostgreSQL", "Docker"]
    assert parsed.preferred_skills == ["Terraform", "Ansible", "Apache Kafka"]
    assert parsed.experience_levels == [SENIOR]
    assert parsed.min_years == 5
    # duties are not requirements when a requirements section names skills; the
    # company blurb and the benefits never give skills
    assert (
        "named only under 'What you'll do', not asked for: FastAPI, Kubernetes, Grafana"
        in parsed.notes
    )
    assert "skipped 'What we offer'" in parsed.notes


def test_duties_count_when_requirements_name_no_skill(vocabulary: Vocabulary) -> None:
    text = """\
Data Engineer
Responsibilities
- Build batch pipelines in Apache Spark and schedule them with Airflow.
Requirements
- 4+ years of experience.
- A curious mind and clear writing.
"""
    parsed = parse_request_text(text, vocabulary)
    assert parsed.required_skills[-2:] == ["Apache Spark", "Apache Airflow"]
    assert parsed.min_years == 4


def test_negations_and_not_required_section(vocabulary: Vocabulary) -> None:
    text = """\
Platform Engineer
Requirements:
- Kubernetes and Helm in production.
- No Java experience needed.
Not required:
- Go, Rust
We will teach you Terraform. No agencies please.
"""
    parsed = parse_request_text(text, vocabulary)
    assert parsed.required_skills == ["Kubernetes", "Helm"]
    assert parsed.preferred_skills == []
    assert "'Not required' ruled out Go" in parsed.notes


def test_inline_label_opens_a_section_for_its_line(vocabulary: Vocabulary) -> None:
    text = """\
Senior Accountant
Requirements: IFRS, month-end close and financial consolidation.
Preferred: SAP, Power BI.
Benefits: pension and private medical insurance.
"""
    parsed = parse_request_text(text, vocabulary)
    assert parsed.required_skills == [
        "Accounting",
        "IFRS",
        "Month-End Close",
        "Financial Consolidation",
    ]
    assert parsed.preferred_skills == ["SAP ERP", "Power BI"]
    assert parsed.experience_levels == [SENIOR]


PROSE_JD = """\
We are hiring a mid-level Java developer to join our payments squad in Madrid.
You will build services in Java and Spring Boot, and you'll work closely with the Data Science team.
At least 3 years of Java experience is essential; Kotlin is a plus.
We offer private health insurance, a Python training budget and a remote-friendly culture.
"""


def test_prose_without_headings(vocabulary: Vocabulary) -> None:
    parsed = parse_request_text(PROSE_JD, vocabulary)
    assert parsed.required_skills == ["Java", "Spring Boot"]
    assert parsed.preferred_skills == ["Kotlin"]
    assert parsed.experience_levels == [MID]
    assert parsed.min_years == 3


GOOGLE_STYLE_JD = """\
Software Engineer III, Infrastructure

Minimum qualifications:
Bachelor's degree or equivalent practical experience.
2 years of experience with software development in one or more programming languages (e.g., Java, C++, Go).

Preferred qualifications:
5 years of experience with Kubernetes and distributed systems.

About the job
You'll work on Borg and Kubernetes. The US base salary range is $141,000-$202,000 + bonus + equity.
"""


def test_minimum_and_preferred_qualifications(vocabulary: Vocabulary) -> None:
    parsed = parse_request_text(GOOGLE_STYLE_JD, vocabulary)
    assert parsed.required_skills == ["Software Engineering"]
    assert parsed.preferred_skills == ["Java", "C++", "Go", "Kubernetes", "Distributed Systems"]
    # the 5 years are a preference: only the required 2 years are a minimum
    assert parsed.min_years == 2
    assert "'5 years' is a preference, not a minimum" in parsed.notes
    assert parsed.experience_levels == []


def test_a_long_line_is_a_pasted_job_description(vocabulary: Vocabulary) -> None:
    one_line = " ".join(PROSE_JD.split())
    assert len(one_line) > 300
    parsed = parse_request_text(one_line, vocabulary)
    # read as a document: the benefits sentence gives no Python
    assert _outcome(parsed) == (["Java", "Spring Boot"], ["Kotlin"], [MID], 3)


def test_level_words_in_a_documents_body_need_a_level_phrase(vocabulary: Vocabulary) -> None:
    text = """\
Data Analyst
Requirements
- SQL and Tableau.
- Confident presenting to senior stakeholders and leading workshops.
"""
    parsed = parse_request_text(text, vocabulary)
    assert parsed.experience_levels == []
    assert parsed.required_skills[:2] == ["SQL", "Tableau"]


def test_a_skill_both_required_and_preferred_is_required(vocabulary: Vocabulary) -> None:
    text = """\
Cloud Engineer
Requirements
- AWS and Terraform.
Nice to have
- Terraform Cloud or AWS certifications.
- Python (preferred).
"""
    parsed = parse_request_text(text, vocabulary)
    assert parsed.required_skills == ["AWS", "Terraform"]
    assert "Python" in parsed.preferred_skills
    assert "AWS" not in parsed.preferred_skills
    assert "AWS is both required and preferred: kept required" in parsed.notes


def test_years_outside_requirements_are_not_a_minimum(vocabulary: Vocabulary) -> None:
    text = """\
Junior Nurse
Founded 25 years ago, Riverside Care runs four homes.
Requirements
- Registered Nurse.
Benefits
- Long-service award after 5 years.
"""
    parsed = parse_request_text(text, vocabulary)
    assert parsed.min_years is None
    assert parsed.experience_levels == [JUNIOR]


def test_the_companys_own_years_are_no_minimum(vocabulary: Vocabulary) -> None:
    text = (
        "Logistics Coordinator\n"
        "We have over 20 years of experience in freight. You bring 2+ years with SAP and Excel.\n"
        "Our team has 15 years of history; we offer a pension.\n"
    )
    parsed = parse_request_text(text, vocabulary)
    assert parsed.min_years == 2
    assert parsed.required_skills == ["SAP ERP", "Microsoft Excel"]


def test_notes_say_what_was_read(vocabulary: Vocabulary) -> None:
    parsed = parse_request_text(
        "senior python developer with kubernetes, terraform a plus", vocabulary
    )
    assert parsed.notes == ["'a plus' made preferred: Terraform", "'senior' read as level senior"]
    years = parse_request_text("junior analyst, 4+ years, sql", vocabulary)
    assert any("above the junior band" in n for n in years.notes)


def test_deterministic_and_empty(vocabulary: Vocabulary) -> None:
    assert parse_request_text(HEADED_JD, vocabulary) == parse_request_text(HEADED_JD, vocabulary)
    empty = parse_request_text("   ", vocabulary)
    assert _outcome(empty) == ([], [], [], None)


def test_profession_without_a_vocabulary_skill_is_skipped() -> None:
    small = Vocabulary(
        skills={
            "Python": SkillSpec(name="Python", category="software", description="A language."),
        },
        fields={"technology": FieldSpec(label="Technology")},
        categories={"software": CategorySpec(label="Software", field="technology")},
        fingerprint="test",
    )
    parsed = parse_request_text("nurse who scripts in python", small)
    assert parsed.required_skills == ["Python"]


def test_shipped_professions_name_vocabulary_skills(vocabulary: Vocabulary) -> None:
    missing = [
        p.skill for p in default_request_cues().professions if p.skill not in vocabulary.skills
    ]
    assert missing == []


def test_cue_file_is_validated(tmp_path: Path) -> None:
    shipped = yaml.safe_load(
        (ROOT / "services/talentrag/search/data/request_cues.yaml").read_text()
    )
    shipped["rules"][0]["triggers"].append("(unclosed")
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(shipped))
    with pytest.raises(
        RequestCueError, match=r"rules\[0\]\.triggers: '\(unclosed' is not a valid pattern"
    ):
        load_request_cues(bad)
    shipped["rules"][0]["triggers"].pop()
    shipped["headings"]["ignored"].append("Requirements")
    bad.write_text(yaml.safe_dump(shipped))
    with pytest.raises(RequestCueError, match="'Requirements' is also under required"):
        load_request_cues(bad)
    shipped["headings"]["ignored"].pop()
    shipped["rules"][0]["reach"] = "sentence"
    bad.write_text(yaml.safe_dump(shipped))
    with pytest.raises(RequestCueError, match="wrong shape"):
        load_request_cues(bad)


# -- the truth files: job descriptions read by a person ---------------------------------


@dataclass
class Tally:
    hits: int = 0
    false: int = 0
    missed: int = 0

    def precision(self) -> float:
        return self.hits / (self.hits + self.false) if self.hits + self.false else 1.0

    def recall(self) -> float:
        return self.hits / (self.hits + self.missed) if self.hits + self.missed else 1.0


def measure(vocabulary: Vocabulary) -> tuple[Tally, Tally, int, int, int, list[str]]:
    """Required and preferred skills against the truth files; levels and years exact."""
    required, preferred = Tally(), Tally()
    levels = years = documents = 0
    problems = []
    for path in sorted(TRUTH.glob("*.yaml")):
        truth = yaml.safe_load(path.read_text())
        parsed = parse_request_text(read_document(ROOT / truth["document"]), vocabulary)
        acceptable = set(truth["acceptable"])
        for tally, got, want in (
            (required, set(parsed.required_skills), set(truth["required"])),
            (preferred, set(parsed.preferred_skills), set(truth["preferred"])),
        ):
            tally.hits += len(got & want)
            tally.false += len(got - want - acceptable)
            tally.missed += len(want - got)
            if got - want - acceptable or want - got:
                problems.append(
                    f"{path.stem}: extra {sorted(got - want - acceptable)} missing {sorted(want - got)}"
                )
        levels += [level.value for level in parsed.experience_levels] == truth["levels"]
        years += parsed.min_years == truth["min_years"]
        documents += 1
    return required, preferred, levels, years, documents, problems


def test_truth_files(vocabulary: Vocabulary) -> None:
    for path in TRUTH.glob("*.yaml"):
        truth = yaml.safe_load(path.read_text())
        named = truth["required"] + truth["preferred"] + truth["acceptable"]
        assert [s for s in named if s not in vocabulary.skills] == [], path.name
    required, preferred, levels, years, documents, problems = measure(vocabulary)
    assert documents >= 12
    assert required.precision() >= 0.95 and required.recall() >= 0.95, problems
    assert preferred.precision() >= 0.95 and preferred.recall() >= 0.95, problems
    assert levels == documents and years == documents, problems


def test_a_query_rules_out_skills_a_job_description_only_does_not_need(
    vocabulary: Vocabulary,
) -> None:
    query = parse_request_text("java developer, not php", vocabulary)
    assert query.required_skills == ["Java"] and query.excluded_skills == ["PHP"]
    jd = parse_request_text(
        "Backend Engineer\n\nRequirements\n- Java and Spring Boot\n\nNot required\n- PHP\n",
        vocabulary,
    )
    assert "PHP" not in jd.required_skills and jd.excluded_skills == []
