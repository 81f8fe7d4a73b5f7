"""A role's title names the profession its holder practised (Staff Nurse -> Nursing)."""

from __future__ import annotations

from datetime import date

from talentrag.domain import DocumentType, SkillStrength
from talentrag.ingestion.analyze import analyze_document
from talentrag.ingestion.experience_words import experience_words
from talentrag.vocabulary import Vocabulary

AS_OF = date(2026, 11, 1)

NURSE = """Grace Okafor
Email: grace@example.com

EXPERIENCE
Staff Nurse, City General Hospital | Jan 2018 - Present
- Medication administration and wound care on a 30-bed surgical ward.

Head Chef, The Anchor Inn | 2012 - 2017
- Ran a kitchen of six.

EDUCATION
BSc Nursing, Leeds University, 2014 - 2017
"""

RECRUITER = """Jennifer Walsh

EXPERIENCE
Talent Acquisition Specialist, Acme Health | 2019 - Present
- Hired 180 nurses and 40 accountants for the hospital group.
"""


def _held(text: str, vocabulary: Vocabulary) -> dict:
    record = analyze_document(
        text,
        document_id="cv",
        source_file="cv.txt",
        document_type=DocumentType.CV,
        vocabulary=vocabulary,
        as_of=AS_OF,
    ).record
    return {h.skill: h for h in record.skills}


def test_a_title_holds_its_profession_with_the_title_as_evidence(vocabulary: Vocabulary):
    held = _held(NURSE, vocabulary)
    nursing = held["Nursing"]
    assert nursing.strength is SkillStrength.ROLE
    assert nursing.evidence[0].text.startswith("Staff Nurse")
    assert NURSE[nursing.evidence[0].start : nursing.evidence[0].end] == nursing.evidence[0].text
    assert held["Cooking"].strength is SkillStrength.ROLE
    assert nursing.years and nursing.years > 8  # the dated role's years count for it


SURVEYOR = """Owen Hart

EXPERIENCE
Project Manager (Fit-out), Brookline Interiors | 2021 - Present
- Delivered office fit-outs of up to £4m.

Quantity Surveyor, Brookline Interiors | 2016 - 2021
- Valued monthly applications.
"""


def test_titles_name_project_management_and_quantity_surveying(vocabulary: Vocabulary):
    held = _held(SURVEYOR, vocabulary)
    assert held["Project Management"].strength is SkillStrength.ROLE
    assert held["Quantity Surveying"].strength is SkillStrength.ROLE


def test_other_peoples_professions_in_a_role_are_not_titles(vocabulary: Vocabulary):
    held = _held(RECRUITER, vocabulary)
    assert "Recruitment" in held
    assert not {"Nursing", "Accounting"} & set(held)


def test_every_title_skill_is_in_the_shipped_vocabulary(vocabulary: Vocabulary):
    missing = [s for s in experience_words().title_skills if s not in vocabulary.skills]
    assert missing == []


ACADEMIC = """Maria Lopez
Senior Biostatistician

EXPERIENCE
Senior Biostatistician, Clinical Epidemiology Unit | 2019 - Present
- Design and analysis of clinical trials.

GRANTS
2022 - 2025  Instituto de Salud Carlos III, Proyectos de Investigacion (PI)

HOBBIES
Grant writing retreats are not a hobby.
"""


def test_a_grants_section_shows_grant_writing(vocabulary: Vocabulary):
    held = _held(ACADEMIC, vocabulary)["Grant Writing"]
    assert held.strength is SkillStrength.ROLE
    assert held.evidence[0].text.startswith("GRANTS")
    empty = ACADEMIC.replace(
        "2022 - 2025  Instituto de Salud Carlos III, Proyectos de Investigacion (PI)\n", ""
    )
    assert "Grant Writing" not in _held(
        empty.replace("Grant writing retreats are not a hobby.", ""), vocabulary
    )


def test_a_list_of_awards_received_shows_no_grant_writing(vocabulary: Vocabulary):
    text = "Aisha Rahman\nGRANTS AND AWARDS\n- Defence Science R&D Fund, PhD top-up award (2022)\n"
    assert "Grant Writing" not in _held(text, vocabulary)


def test_every_heading_skill_is_in_the_shipped_vocabulary(vocabulary: Vocabulary):
    missing = [s for s in experience_words().heading_skills if s not in vocabulary.skills]
    assert missing == []
