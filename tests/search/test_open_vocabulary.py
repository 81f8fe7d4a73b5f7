"""Skills outside the vocabulary, and broad terms, on hand-written CVs in a real LightRAG.

Truth written by reading the CVs below: only Mira's CV names Zemax OpticStudio (Tom
mentions optics but not the tool); Ana is an ICU nurse and Ben a ward nurse (both are
nursing, and their titles say so), Dee does critical care nursing under a title that does
not name it, Carl is a chef.
"""

from __future__ import annotations

from talentrag.domain import MatchKind
from talentrag.ingestion.pipeline import SourceDocument
from talentrag.runtime import KnowledgeBase
from talentrag.search.models import SearchRequest

CVS = {
    "mira": "Mira Holm\nOptical Engineer, Lumen Optics, 2019 - present\n"
    "Designed lens assemblies in Zemax OpticStudio and tolerance-tested them.\n",
    "tom": "Tom Berg\nPhysics teacher, 2015 - present\nTaught optics and mechanics to A-level pupils.\n",
    "ana": "Ana Ruiz\nStaff Nurse, ICU, St Mary's Hospital, 2018 - present\n"
    "Critical care nursing for ventilated patients; medication administration.\n",
    "ben": "Ben Ode\nRegistered Nurse, general surgical ward, 2020 - present\n"
    "Wound care and post-operative observations.\n",
    "dee": "Dee Park\nIntensive care unit team member, Royal Infirmary, 2019 - present\n"
    "Critical care nursing: medication administration, proning and arterial lines.\n",
    "carl": "Carl Lind\nHead Chef, 2016 - present\nMenu design, food safety and kitchen management.\n",
}


async def _search(kb: KnowledgeBase, skill: str):
    sources = [SourceDocument(text, cid, f"{cid}.txt") for cid, text in CVS.items()]
    await kb.ingestor.ingest_documents("default", sources)
    return await kb.search.search(SearchRequest(required_skills=[skill], top_k=10), "default")


async def test_a_skill_outside_the_vocabulary_is_found_in_the_cv_text(kb: KnowledgeBase):
    answer = await _search(kb, "Zemax OpticStudio")
    assert [c.candidate_id for c in answer.candidates] == ["mira"]
    (match,) = answer.candidates[0].skill_matches
    assert match.kind is MatchKind.TEXT and match.confidence < 1
    (evidence,) = answer.candidates[0].evidence
    assert "Zemax OpticStudio" in evidence.text
    assert CVS["mira"][evidence.start : evidence.end] == evidence.text  # the stored text
    assert evidence.source_file == "mira.txt"
    (resolved,) = answer.resolved_skills
    assert (resolved.skill, resolved.how, resolved.found_in_text) == (None, None, 1)


async def test_a_broad_term_finds_its_family(kb: KnowledgeBase):
    answer = await _search(kb, "Nursing")
    assert {c.candidate_id for c in answer.candidates} == {"ana", "ben", "dee"}
    matches = {c.candidate_id: c.skill_matches[0] for c in answer.candidates}
    assert matches["dee"].kind is MatchKind.NARROWER and matches["dee"].skill != "Nursing"
    for titled in ("ana", "ben"):  # "Staff Nurse", "Registered Nurse": the title names it
        assert (matches[titled].skill, matches[titled].status) == ("Nursing", "matched")
    (resolved,) = answer.resolved_skills
    assert (resolved.skill, resolved.how) == ("Nursing", MatchKind.EXACT)
    assert resolved.accepts > 10 and resolved.found_in_text == 0
