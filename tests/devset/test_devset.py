"""The issue's targets on the hand-written development set (figures: tests/devset/score.py).

A target not met yet is marked xfail, strict: the day it is met the test fails until its
marker is removed, so the markers always say what is still missing. Each reason gives the
figure measured when the marker was set.
"""

from __future__ import annotations

from tests.devset.score import TARGETS, Report


def check(report: Report, key: str) -> None:
    target = TARGETS[key]
    assert target.met(report), f"{target.name}: measured {target.figure(report)}"


def test_claim_f1(devset_report: Report) -> None:
    check(devset_report, "claim_f1")


def test_context_errors(devset_report: Report) -> None:
    check(devset_report, "context_errors")


def test_level_accuracy(devset_report: Report) -> None:
    check(devset_report, "level_accuracy")


def test_short_skills_only_where_held(devset_report: Report) -> None:
    check(devset_report, "short_skills")


def test_search_precision_beats_bm25(devset_report: Report) -> None:
    check(devset_report, "precision")


def test_search_recall(devset_report: Report) -> None:
    check(devset_report, "recall")


def test_no_empty_answers(devset_report: Report) -> None:
    check(devset_report, "empty")


def test_answers_label_required_skills_truly(devset_report: Report) -> None:
    check(devset_report, "answer_f1")


def test_search_precision_at_5(devset_report: Report) -> None:
    check(devset_report, "precision_at_5")


def test_search_ndcg(devset_report: Report) -> None:
    check(devset_report, "ndcg")
