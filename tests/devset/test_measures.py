"""The measures on small cases whose figures were worked out by hand."""

from __future__ import annotations

import math

import pytest

from tests.devset.measures import (
    Extracted,
    SkillMapping,
    claims,
    context_errors,
    false_holders,
    levels,
    mean_figures,
    rank_figures,
    vocabulary_gaps,
)
from tests.devset.score import BM25Baseline
from tests.devset.truth import DocumentTruth, load_devset

KNOWN = {"python": "Python", "py": "Python", "docker": "Docker", "git": "Git", "java": "Java",
         "containerization": "Containerization", "c": "C", "kubernetes": "Kubernetes"}  # fmt: skip
IMPLIES = {"Docker": ("Containerization",)}


def mapping() -> SkillMapping:
    return SkillMapping(lambda name: KNOWN.get(name.casefold()), lambda s: IMPLIES.get(s, ()))


def truth(**fields: object) -> DocumentTruth:
    return DocumentTruth.model_validate({"document": "x.txt", "document_type": "cv", **fields})


def got(*skills: str, rejected: tuple[str, ...] = (), years=None, level=None) -> Extracted:
    return Extracted("x", dict.fromkeys(skills, "exact"), frozenset(rejected), years, level)


def test_claims_count_acceptable_and_implied_as_right_but_recall_only_held():
    t = truth(
        held=[
            {"skill": "py", "strength": "role"},
            {"skill": "Docker", "strength": "role"},
            {"skill": "Fortran IV", "strength": "role"},
        ],
        acceptable=["Git"],
    )
    # Python held, Git acceptable, Containerization implied by the truth's Docker: right.
    # Java: wrong. Docker: missed. Fortran IV is not in the vocabulary: not scored.
    figures = claims({"x": t}, {"x": got("Python", "Git", "Containerization", "Java")}, mapping())
    assert figures.precision == 3 / 4
    assert figures.recall == 1 / 2
    assert figures.f1 == pytest.approx(2 * 0.75 * 0.5 / 1.25)
    assert figures.wrong == [("x", "Java", "exact")]
    assert figures.missed == [("x", "Docker")]


def test_an_implied_claim_is_wrong_when_the_truth_does_not_hold_what_implies_it():
    figures = claims({"x": truth()}, {"x": got("Containerization")}, mapping())
    assert figures.precision == 0.0


def test_vocabulary_gaps_count_each_unknown_name_once_per_cv():
    t = truth(
        held=[{"skill": "Fortran IV", "strength": "role"}, {"skill": "Python", "strength": "role"}],
        acceptable=["Fortran IV", "Stakeholder Wrangling"],
    )
    gaps = vocabulary_gaps({"a": t, "b": t}, mapping())
    assert dict(gaps.held) == {"Fortran IV": 2}
    assert dict(gaps.other) == {"Fortran IV": 2, "Stakeholder Wrangling": 2}


def test_context_errors_are_held_not_held_terms_the_truth_does_not_hold_otherwise():
    t = truth(
        held=[{"skill": "Python", "strength": "role"}],
        acceptable=["Kubernetes"],
        not_held=[
            {"term": "Java", "text": "hired Java engineers", "reason": "other_person"},
            {"term": "Kubernetes", "text": "no hands-on Kubernetes", "reason": "negated"},
            {"term": "C", "text": "H.S.C.", "reason": "abbreviation"},
        ],
    )
    figures = context_errors(
        {"x": t}, {"x": got("Python", "Java", "Kubernetes", rejected=("C",))}, mapping()
    )
    assert figures.errors == [("x", "Java", "other_person")]
    assert figures.checked == 3
    assert figures.rejected == 1


def test_levels_unknown_must_stay_unknown_and_years_error_is_absolute():
    truths = {
        "a": truth(level="senior", years=8.0),
        "b": truth(level=None, years=None),
        "c": truth(level="mid", years=4.0),
        "d": truth(level="junior", years=1.0),
    }
    extracted = {
        "a": got(level="senior", years=10.0),
        "b": got(level="mid", years=3.0),
        "c": got(level="mid", years=3.5),
        "d": got(level="junior"),
    }
    figures = levels(truths, extracted)
    assert figures.accuracy == 3 / 4
    assert figures.wrong == [("b", None, "mid")]
    assert figures.years_mae == pytest.approx((2.0 + 0.5) / 2)
    assert figures.years_missing == ["d"]


def test_false_holders_of_a_short_skill():
    truths = {"a": truth(held=[{"skill": "C", "strength": "role"}]), "b": truth()}
    result = false_holders(["C", "Go"], truths, {"a": got("C"), "b": got("C")}, mapping())
    assert result == {"C": (2, ["b"])}  # Go is not in this vocabulary: not reported


def test_rank_figures_by_hand():
    f = rank_figures(["a", "x", "b"], ["a", "b", "c"], k=10)
    assert f.precision == pytest.approx(2 / 3)
    assert f.recall == pytest.approx(2 / 3)
    ideal = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert f.ndcg == pytest.approx((1 + 1 / math.log2(4)) / ideal)
    assert not f.empty


def test_rank_figures_cut_at_k_and_empty_answers():
    assert rank_figures(["x", "a"], ["a"], k=1).precision == 0.0
    empty = rank_figures([], ["a"])
    assert empty.empty and empty.precision == 0.0 and empty.recall == 0.0
    nothing_to_find = rank_figures([], [])
    assert not nothing_to_find.empty


def test_mean_figures_weigh_each_query_alike():
    means = mean_figures([rank_figures(["a"], ["a"]), rank_figures([], ["b"])])
    assert (means.precision, means.recall, means.empty, means.queries) == (0.5, 0.5, 1, 2)


def test_bm25_answers_only_documents_sharing_a_query_word():
    bm25 = BM25Baseline(
        {
            "kube": "Ran Kubernetes clusters on AWS with Terraform.",
            "java": "Java developer, Spring Boot and Kafka.",
            "chef": "Head chef, menu planning and HACCP.",
        }
    )
    assert bm25.rank(["Kubernetes", "Terraform"]) == ["kube"]
    assert bm25.rank(["Spring Boot", "Kubernetes"])[0] == "java"
    assert bm25.rank(["C"]) == []  # one-letter tokens are not indexed
    assert bm25.rank(["Fortran"]) == []


def test_the_devset_judges_queries_within_one_annotators_cvs():
    devset = load_devset()
    assert len(devset.cvs) >= 80 and devset.queries
    for query in devset.queries:
        for doc_id in query.relevant:
            assert doc_id in devset.cvs, (query.id, doc_id)
            assert devset.documents[doc_id].annotator == query.annotator, (query.id, doc_id)
