import pytest

from talentrag.domain import MatchKind
from talentrag.ingestion.skills import extract_skills, find_mentions, sentence_span
from talentrag.vocabulary import Vocabulary


def _held(text: str, vocabulary: Vocabulary) -> set[str]:
    return {h.skill for h in extract_skills(text, vocabulary, "cv.txt").held}


def test_mentions_carry_offsets(vocabulary: Vocabulary):
    text = "Deployed on EKS with Helm charts."
    mentions = find_mentions(text, vocabulary)
    assert [(m.skill, text[m.start : m.end]) for m in mentions] == [
        ("Amazon EKS", "EKS"),
        ("Helm", "Helm charts"),
    ]


def test_evidence_is_the_sentence_with_offsets(vocabulary: Vocabulary):
    text = "Summary line.\n- Built ETL jobs in PySpark. Also wrote Go services."
    held = {h.skill: h for h in extract_skills(text, vocabulary, "cv.txt").held}
    evidence = held["PySpark"].evidence[0]
    assert evidence.text == "Built ETL jobs in PySpark."
    assert text[evidence.start : evidence.end] == evidence.text
    assert evidence.source_file == "cv.txt"
    assert held["Apache Spark"].kind is MatchKind.IMPLIED


@pytest.mark.parametrize(
    ("text", "held", "not_held"),
    [
        ("Strong Python skills but no commercial Java experience.", {"Python"}, {"Java"}),
        ("No commercial experience with Java.", set(), {"Java"}),
        ("Currently learning Rust and Go.", set(), {"Rust", "Go"}),
        ("Interested in machine learning.", set(), {"Machine Learning"}),
        ("Would like to pick up Terraform.", set(), {"Terraform"}),
        ("Not yet worked with Kafka.", set(), {"Kafka"}),
        ("Rust (learning), Python, Docker", {"Python", "Docker"}, {"Rust"}),
        ("Migrated 40 services to Kubernetes without downtime.", {"Kubernetes"}, set()),
        ("Built an e-learning platform with Django.", {"Django", "Python"}, set()),
        ("Machine learning engineer using PyTorch.", {"Machine Learning", "PyTorch"}, set()),
    ],
)
def test_negated_and_aspirational_mentions_are_not_held(
    vocabulary: Vocabulary, text, held, not_held
):
    found = _held(text, vocabulary)
    assert held <= found
    assert not (not_held & found)


def test_exact_case_spellings(vocabulary: Vocabulary):
    assert "Go" in _held("Services written in Go and Python.", vocabulary)
    assert "Go" not in _held("Ready to go the extra mile.", vocabulary)


def test_emails_do_not_produce_skills(vocabulary: Vocabulary):
    extraction = extract_skills(
        "Contact: python.dev@example.com", vocabulary, "cv.txt", skip=[(9, 31)]
    )
    assert extraction.held == []


def test_a_dot_inside_a_skill_name_is_not_a_clause_break(vocabulary: Vocabulary):
    found = _held("Interested in express.js and Laravel.", vocabulary)
    assert "Laravel" not in found


def test_a_mention_opening_a_sentence_gets_only_its_own_sentence():
    text = "Foo bar. Python rocks.\n- Then Go."
    assert text[slice(*sentence_span(text, 9, 15))] == "Python rocks."
    assert text[slice(*sentence_span(text, 0, 3))] == "Foo bar."
    assert text[slice(*sentence_span(text, 30, 32))] == "Then Go."
