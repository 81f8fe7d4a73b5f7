from collections import Counter
from pathlib import Path

import pytest
import yaml

from talentrag.vocabulary import (
    Vocabulary,
    VocabularyError,
    default_vocabulary_path,
    load_vocabulary,
)
from talentrag.vocabulary.tokens import tokenize
from talentrag.vocabulary.vocabulary import number_variants

PROFESSIONS = ["nursing", "accounting", "sales", "teaching", "logistics"]
TECH = ["software", "data_ml", "cloud_devops", "security", "mobile", "qa", "embedded"]


def test_vocabulary_is_large_and_covers_tech_and_other_professions(vocabulary: Vocabulary):
    per_category = Counter(spec.category for spec in vocabulary.skills.values())
    print(f"\nvocabulary: {len(vocabulary.skills)} skills; {dict(per_category)}")
    assert len(vocabulary.skills) >= 500
    for category in TECH + PROFESSIONS:
        assert per_category[category] >= 10, category


@pytest.mark.parametrize(
    ("spelling", "skill"),
    [
        ("K8s", "Kubernetes"),
        ("k8s", "Kubernetes"),
        ("kube", "Kubernetes"),
        ("Postgres", "PostgreSQL"),
        ("psql", "PostgreSQL"),
        ("GCP", "Google Cloud Platform"),
        ("JS", "JavaScript"),
        ("ES6", "JavaScript"),
        ("TS", "TypeScript"),
        ("Golang", "Go"),
        ("RoR", "Ruby on Rails"),
        ("sklearn", "scikit-learn"),
        ("TF", "TensorFlow"),
        ("ML", "Machine Learning"),
        ("CI/CD", "CI/CD"),
        ("IaC", "Infrastructure as Code"),
        ("EKS", "Amazon EKS"),
        ("GKE", "Google Kubernetes Engine"),
        ("Helm charts", "Helm"),
        ("PSM II", "Professional Scrum Master"),  # Scrum.org's, not the Scrum Alliance's
        ("Certified Scrum Master", "Certified ScrumMaster"),
        # a curated skill takes over ESCO's name for the same thing
        ("programmable logic controller", "PLC Programming"),
        ("operate a forklift", "Forklift Operation"),
        ("blood sampling", "Phlebotomy"),
        ("stock valuation", "Inventory Accounting"),
        ("accounting entries", "General Ledger"),
        ("licensing agreements", "IP Licensing"),
        ("English Language Teaching", "ESL Teaching"),
        ("offer negotiation", "Offer Negotiation"),  # a recruiter's, not Negotiation
        ("OSHA 30", "OSHA Outreach Training"),
        ("MOS Expert", "Microsoft Office Specialist"),
        ("Paediatric first aid", "Paediatric First Aid"),
        ("requirement gathering", "Requirements Gathering"),
        ("Carpentries", "Software Carpentry"),  # workshops, not woodwork
        ("ServSafe Food Handler", "ServSafe"),
        ("vendor payments", "Accounts Payable"),
        ("diabetes self-management education", "Diabetes Education"),
    ],
)
def test_aliases(vocabulary: Vocabulary, spelling: str, skill: str):
    from talentrag.vocabulary.tokens import token_key

    assert vocabulary.surfaces[token_key(spelling)][0].skill == skill


@pytest.mark.parametrize(
    ("skill", "implied"),
    [
        ("Amazon EKS", {"Kubernetes", "AWS"}),
        ("Google Kubernetes Engine", {"Kubernetes", "Google Cloud Platform"}),
        ("Helm", {"Kubernetes"}),
        ("Django", {"Python"}),
        ("Ruby on Rails", {"Ruby"}),
    ],
)
def test_implications(vocabulary: Vocabulary, skill: str, implied: set[str]):
    assert implied <= set(vocabulary.implied_closure[skill])


def test_related_is_symmetric(vocabulary: Vocabulary):
    assert "Kubernetes" in vocabulary.related_map["Container Orchestration"]
    assert "Container Orchestration" in vocabulary.related_map["Kubernetes"]
    assert "Machine Learning" in vocabulary.related_map["Deep Learning"]


def _write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "skills.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def _base() -> dict:
    return {
        "version": 1,
        "fields": {"technology": {"label": "Tech", "titles": ["engineer"]}},
        "categories": {"software": {"label": "Software", "field": "technology"}},
        "skills": [
            {"name": "Python", "category": "software", "description": "A language."},
            {
                "name": "Django",
                "category": "software",
                "description": "A framework.",
                "implies": ["Python"],
            },
        ],
    }


def test_a_minimal_vocabulary_loads(tmp_path: Path):
    assert set(load_vocabulary(_write(tmp_path, _base())).skills) == {"Python", "Django"}


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["skills"][1].update(implies=["Pyhton"]), "unknown skill 'Pyhton'"),
        (lambda d: d["skills"][1].update(category="web"), "unknown category 'web'"),
        (lambda d: d["skills"][1].update(aliases=["python"]), "already used by skill 'Python'"),
        (lambda d: d["skills"][0].update(implies=["Django"]), "cycle"),
        (lambda d: d["skills"][0].update(exact_case=["PY"]), "neither the name nor an alias"),
        (lambda d: d["skills"][0].update(in_field=["py"]), "in_field entry 'py' is neither"),
        (lambda d: d["skills"][0].update(patterns=["wrote (python"]), "not a valid regular"),
        (lambda d: d["skills"][0].update(patterns=["wrote (python)"]), "capturing group"),
        (lambda d: d["skills"][0].pop("description"), "description"),
        (lambda d: d["skills"][0].update(colour="red"), "colour"),
    ],
    ids=[
        "unknown-implied",
        "unknown-category",
        "alias-collision",
        "cycle",
        "exact-case",
        "in-field",
        "bad-pattern",
        "pattern-group",
        "missing",
        "extra",
    ],
)
def test_invalid_vocabularies_name_the_problem(tmp_path: Path, mutate, message: str):
    data = _base()
    mutate(data)
    with pytest.raises(VocabularyError, match=message) as info:
        load_vocabulary(_write(tmp_path, data))
    assert str(tmp_path) in str(info.value)


def test_broken_yaml_is_reported(tmp_path: Path):
    path = tmp_path / "skills.yaml"
    path.write_text("skills: [unclosed")
    with pytest.raises(VocabularyError, match="not valid YAML"):
        load_vocabulary(path)


def test_shipped_file_is_package_data():
    assert default_vocabulary_path().is_file()


@pytest.mark.parametrize(
    ("spelling", "skill"),
    [
        ("negotiations", "Negotiation"),
        ("REST APIs", "REST APIs"),
        ("REST API", "REST APIs"),
        ("design system", "Design Systems"),
    ],
)
def test_the_other_grammatical_number_matches(vocabulary: Vocabulary, spelling: str, skill):
    surface = vocabulary.lookup(spelling)
    assert (surface.skill if surface else None) == skill


@pytest.mark.parametrize(
    ("text", "variants"),
    [
        ("Negotiation", ["Negotiations"]),
        ("REST API", ["REST APIs"]),
        ("Design Systems", ["Design System"]),
        ("Rails", []),  # one word: no singular ("rail")
        ("Chartered Accountant", []),  # a person: "Chartered Accountants" is a firm
        ("Canva", []),  # a brand: "canvas" is another word
        ("Kubernetes", []),
        ("C++", []),
    ],
)
def test_number_variants_are_made_only_where_safe(text: str, variants: list[str]):
    assert number_variants(text) == variants


def test_a_plural_never_takes_another_skills_spelling(vocabulary: Vocabulary):
    assert vocabulary.lookup("Chartered Accountants") is None
    canvas = vocabulary.lookup("canvas")
    assert canvas is None or canvas.skill != "Canva"


def test_a_spelling_for_one_profession_names_no_skill_when_asked_alone(vocabulary: Vocabulary):
    """ "sourcing" is a recruiter's Candidate Sourcing only inside a recruiter's CV."""
    assert vocabulary.lookup("sourcing") is None
    assert vocabulary.lookup("forecasting") is None
    assert vocabulary.lookup("Candidate Sourcing").skill == "Candidate Sourcing"


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("JMeterPROFESSIONAL EXPERIENCETest", ["JMeter", "PROFESSIONAL", "EXPERIENCE", "Test"]),
        ("OBJECTIVESeeking a role", ["OBJECTIVE", "Seeking", "a", "role"]),
        (
            "PostgreSQL, MySQL, iOS, macOS, C++, .NET",
            ["PostgreSQL", "MySQL", "iOS", "macOS", "C++", ".NET"],
        ),
        ("FreeRTOS", ["Free", "RTOS"]),
    ],
)
def test_words_end_where_a_heading_runs_into_them(text: str, tokens: list[str]):
    assert [t.text for t in tokenize(text)] == tokens
