from pathlib import Path

import pytest
import yaml

from talentrag.ingestion.context import CueCategory, CueFileError, default_cues_path, load_cues


def _cue_file(tmp_path: Path, **changes: object) -> Path:
    spec = yaml.safe_load(default_cues_path().read_text(encoding="utf-8"))
    spec.update(changes)
    path = tmp_path / "cues.yaml"
    path.write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    return path


def _rule(trigger: str) -> dict[str, object]:
    return {
        "category": "other_person",
        "direction": "forward",
        "reach": "clause",
        "max_tokens": 8,
        "triggers": [trigger],
    }


def test_a_trigger_may_name_a_lexicon_list(tmp_path: Path):
    path = _cue_file(
        tmp_path,
        lexicon={"people": ["auditors?"], "acts": ["checked"]},
        rules=[_rule("the {people} {acts}")],
    )
    cues = load_cues(path)
    found = cues.find("Then the auditors checked the VAT returns.")
    assert [(c.category, c.start) for c in found] == [(CueCategory.OTHER_PERSON, 5)]
    assert not cues.find("Then the auditor signed the VAT returns.")  # no listed act


def test_an_unknown_lexicon_name_is_a_clear_error(tmp_path: Path):
    path = _cue_file(tmp_path, lexicon={"people": ["auditors?"]}, rules=[_rule("the {staff} did")])
    with pytest.raises(
        CueFileError, match=r"rules\[0\]\.triggers: \{staff\} names no lexicon list"
    ):
        load_cues(path)


def test_a_quantifier_is_no_lexicon_name(tmp_path: Path):
    path = _cue_file(tmp_path, lexicon={}, rules=[_rule(r"(?:\w+\s+){0,3}?team did")])
    assert load_cues(path).find("the data team did")


def test_a_bad_pattern_names_its_place(tmp_path: Path):
    path = _cue_file(tmp_path, rules=[_rule("the (team did")])
    with pytest.raises(CueFileError, match=r"rules\[0\]\.triggers: 'the \(team did'"):
        load_cues(path)


def test_a_space_in_a_trigger_stretches_but_not_inside_a_character_class(tmp_path: Path):
    """Between words a space matches a run of spaces (PDF text); "[- ]" is a hyphen or
    one space of any kind (a PDF's line wrap), never a plus sign."""
    cues = load_cues(_cue_file(tmp_path, rules=[_rule("handed[- ]over to")]))
    assert cues.find("Work handed over  to the vendor.")
    assert cues.find("Work handed-over to the vendor.")
    assert not cues.find("Work handed+over to the vendor.")
    assert cues.find("Work handed\nover to the vendor.")
