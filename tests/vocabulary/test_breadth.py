"""The vocabulary at real-world breadth: curated skills plus ESCO, merged and validated on load."""

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

from talentrag.ingestion.skills import extract_skills
from talentrag.vocabulary import (
    SkillNormalizer,
    Vocabulary,
    VocabularyError,
    default_vocabulary_path,
    load_vocabulary,
)

DATA = default_vocabulary_path().parent
PROFESSION_FIELDS = [
    "technology",
    "engineering",
    "healthcare",
    "finance",
    "legal",
    "hr",
    "sales",
    "marketing",
    "education",
    "hospitality",
    "logistics",
    "manufacturing",
    "construction",
    "public_sector",
]


def test_at_least_five_thousand_skills_across_the_professions(vocabulary: Vocabulary):
    per_field = Counter(vocabulary.field_of_skill(name) for name in vocabulary.skills)
    aliases = sum(len(spec.aliases) for spec in vocabulary.skills.values())
    print(f"\n{len(vocabulary.skills)} skills, {aliases} aliases; {dict(per_field.most_common())}")
    assert len(vocabulary.skills) >= 5000
    for field in PROFESSION_FIELDS:
        assert per_field[field] >= 40, field


def test_esco_notice_and_provenance_ship_with_the_data(vocabulary: Vocabulary):
    notice = (DATA / "ESCO-NOTICE.md").read_text(encoding="utf-8")
    assert "European Commission" in notice and "2011/833/EU" in notice and "v1.2.0" in notice
    header = json.loads((DATA / "esco.json").read_text(encoding="utf-8"))
    assert header["notice"] == "ESCO-NOTICE.md" and header["esco_version"] == "1.2.0"
    esco = [spec for spec in vocabulary.skills.values() if spec.esco]
    from_esco = [spec for spec in esco if spec.name not in vocabulary.curated]
    assert len(from_esco) >= 5000
    # a few curated skills stand in for ESCO concepts with odd names ("Chinese Standard")
    # or with labels the generator's segmenter cut short ("business" for "business
    # intelligence"); ESCO stays the source of most
    assert len(esco) - len(from_esco) < 60


def test_version_names_release_esco_stamp_and_content(vocabulary: Vocabulary):
    release, esco, fingerprint = vocabulary.version.split("+")
    assert release == vocabulary.release and esco.startswith("esco-1.2.0-build")
    assert fingerprint == vocabulary.fingerprint and len(fingerprint) == 16


@pytest.mark.parametrize(
    ("spelling", "skill"),
    [
        ("SolidWorks", "SolidWorks"),
        ("solid works", "SolidWorks"),
        ("Solidity", "Solidity"),
        ("AutoCAD", "AutoCAD"),
        ("Oracle", "Oracle Database"),
        ("Informatica PowerCenter", "Informatica"),
        ("JSP", "JSP"),
        ("servlets", "Java Servlets"),
        ("Unix", "Unix"),
        ("SharePoint", "Microsoft SharePoint"),
        ("Photoshop", "Adobe Photoshop"),
        ("Sqoop", "Apache Sqoop"),
        ("CATIA", "CATIA"),
        ("Tally ERP 9", "Tally ERP"),
        ("SAP ABAP", "SAP ABAP"),
        ("STAAD.Pro", "STAAD Pro"),
        ("ANSYS", "ANSYS"),
        ("HACCP", "HACCP"),
        ("CDL", "Commercial Driver's License"),
        ("Talent Acquisition", "Recruitment"),
        ("civil engineering", "Civil Engineering"),
        ("Litigation", "Litigation"),
        ("Accounting", "Accounting"),
        ("Sales", "Sales"),
        ("Teaching", "Teaching"),
        ("Nursing", "Nursing"),
        ("Fitness Training", "Fitness Training"),
        # named tools, protocols and practices of stop 30's curated additions
        ("OSPF", "OSPF"),
        ("QGIS", "QGIS"),
        ("Studio 5000", "Studio 5000"),
        ("RNA-seq", "RNA-seq"),
        ("CNC milling", "CNC Milling"),
        ("Intune", "Microsoft Intune"),
        ("Procore", "Procore"),
        ("Media Relations", "Media Relations"),
        ("Datix", "Datix"),
        ("BAPIs", "BAPI"),
        ("SmartForms", "SAP Smart Forms"),
        ("SQL Server Agent", "SQL Server Agent"),
        ("Always On Availability Groups", "SQL Server Always On"),
        ("RMAN", "Oracle RMAN"),
        ("Smoke Testing", "Smoke Testing"),
        ("Page Object Model", "Page Object Model"),
        ("ETAP", "ETAP"),
    ],
)
def test_real_resume_skills_resolve(vocabulary: Vocabulary, spelling: str, skill: str):
    found = vocabulary.lookup(spelling)
    assert found is not None and found.skill == skill


@pytest.mark.parametrize(
    ("spelling", "skill"),
    [
        ("photogrammetry", "photogrammetry"),
        ("enterprise risk management", "enterprise risk management"),
        ("ERM", "enterprise risk management"),
        ("acute care", "acute care"),
        ("domotic systems", "domotic systems"),
        ("plan menus", "plan menus"),
        ("lay stones", "lay stones"),
        ("geomatics", "geomatics"),
        ("Marathi", "Marathi"),
        ("criminology", "criminology"),
    ],
)
def test_esco_labels_resolve(vocabulary: Vocabulary, spelling: str, skill: str):
    found = vocabulary.lookup(spelling)
    assert found is not None and found.skill == skill
    assert vocabulary.skills[skill].esco


async def test_solidworks_is_never_solidity(vocabulary: Vocabulary, minilm, tmp_path: Path):
    normalizer = SkillNormalizer(vocabulary, minilm, cache_dir=tmp_path)
    for text in ("SolidWorks", "solidworks", "Solid Works"):
        assert (await normalizer.normalize(text)).skill == "SolidWorks"
    held = extract_skills("Tools: SolidWorks, AutoCAD, ANSYS", vocabulary, "cv.txt").held
    assert {"SolidWorks", "AutoCAD", "ANSYS"} <= {h.skill for h in held}
    assert "Solidity" not in {h.skill for h in held}


def test_umbrellas_have_families_as_data(vocabulary: Vocabulary):
    assert "Accounting" in vocabulary.broader_closure["Management Accounting"]
    assert vocabulary.broader_closure["Internal Audit"] == ("Auditing", "Accounting")
    assert {"Internal Audit", "Management Accounting", "Tally ERP"} <= set(
        vocabulary.narrower_closure["Accounting"]
    )
    for umbrella in ("Nursing", "Sales", "Teaching", "Law", "Civil Engineering"):
        assert len(vocabulary.narrower_closure[umbrella]) >= 3, umbrella
    assert "Management Accounting" not in vocabulary.narrower_closure.get("Sales", ())


def test_everyday_words_resolve_but_never_match_free_text(vocabulary: Vocabulary):
    for word in ("Sales", "Teaching", "Accounting", "Nursing", "Urdu", "criminology"):
        found = vocabulary.lookup(word)
        assert found is not None
        assert found.text in vocabulary.skills[found.skill].needs_context
    text = "Our sales grew while teaching assistants covered accounting and a nursing home."
    held = {h.skill for h in extract_skills(text, vocabulary, "cv.txt").held}
    assert not held & {"Sales", "Teaching", "Accounting", "Nursing"}


def test_esco_does_not_flood_ordinary_text(vocabulary: Vocabulary):
    text = (
        "Improved the reliability of our services and kept clear documentation. "
        "Comfortable with tight deadlines. Hobbies: amateur astronomy, geography, "
        "woodworking, travelling and cooking. Kept a 3-vehicle fleet on schedule."
    )
    assert extract_skills(text, vocabulary, "cv.txt").held == []


def test_an_employers_name_and_another_specialty_are_no_skills(vocabulary: Vocabulary):
    text = "Account Executive, Julia Hart Communications - Denver\nClinics: cardiology, orthopedics"
    held = {h.skill for h in extract_skills(text, vocabulary, "cv.txt").held}
    assert not held & {"HART Protocol", "orthodontics"}


def test_sap_objects_a_consultant_specifies_imply_no_abap(vocabulary: Vocabulary):
    text = "Skills: SAP MM, BAPIs, user exits, IDocs\nWrote functional specs for the ABAP team."
    held = {h.skill for h in extract_skills(text, vocabulary, "cv.txt").held}
    assert {"BAPI", "SAP User Exits"} <= held
    assert "SAP ABAP" not in held


def test_a_first_name_is_no_assay(vocabulary: Vocabulary):
    text = "Elisa Romano\nSkills: ELISA, Western blot, cell culture\nElisa worked in Turin."
    held = extract_skills(text, vocabulary, "cv.txt").held
    assert [h.surface for h in held if h.skill == "ELISA"] == ["ELISA"]


def test_a_vendor_name_is_no_skill_of_its_own(vocabulary: Vocabulary):
    """ESCO's run-together labels once cut "IBM WebSphere" to a skill named "IBM"."""
    text = (
        "Skills: IBM Maximo, Apache Kafka, THC Hydra, Global Payroll\n"
        "Raised work orders in IBM Maximo and read the Apache logs."
    )
    held = {h.skill for h in extract_skills(text, vocabulary, "cv.txt").held}
    assert not held & {"IBM", "Apache", "THC", "Global"}
    assert "THC Hydra" in held
    held = {
        h.skill
        for h in extract_skills("SAP data arrives as flat files.", vocabulary, "cv.txt").held
    }
    assert "SAP Data" not in held  # ESCO's "SAP Data Services", cut in two


def test_a_warehouse_schema_and_an_apps_logging_are_no_other_skills(vocabulary: Vocabulary):
    text = (
        "EXPERIENCE\nETL Developer (2019 - present)\n"
        "Skills: Star and Snowflake schema, error handling, logging, SSIS\n"
    )
    held = {
        h.skill for h in extract_skills(text, vocabulary, "cv.txt", home_field="technology").held
    }
    assert "Data Modeling" in held
    assert not held & {"Snowflake", "logging"}


# ---------------------------------------------------------------------------- merging rules
def _curated(tmp_path: Path, include: list[str], **extra: object) -> Path:
    data = {
        "version": 1,
        "release": "test-1",
        "include": include,
        "fields": {"technology": {"label": "Tech", "titles": ["engineer"]}},
        "categories": {"software": {"label": "Software", "field": "technology"}},
        "skills": [
            {"name": "Python", "category": "software", "description": "A language."},
            {
                "name": "Django",
                "category": "software",
                "description": "A framework.",
                "aliases": ["Django framework"],
                "implies": ["Python"],
            },
        ],
        **extra,
    }
    path = tmp_path / "skills.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def _generated(tmp_path: Path, skills: list[dict], **extra: object) -> None:
    data = {"format": 1, "source": "test", "stamp": "gen-1", "skills": skills, **extra}
    (tmp_path / "gen.json").write_text(json.dumps(data))


def _skill(name: str, *aliases: str) -> dict:
    return {"name": name, "category": "software", "description": "x.", "aliases": list(aliases)}


def test_generated_skills_merge_and_curated_wins(tmp_path: Path):
    _generated(
        tmp_path,
        [
            _skill("python"),  # a curated name: the generated skill is left out
            _skill("web scraping", "django framework", "scraping", "crawling"),
            _skill("web crawling", "crawling", "spidering"),
        ],
    )
    vocabulary = load_vocabulary(_curated(tmp_path, ["gen.json"]))
    assert vocabulary.skills["Python"].description == "A language."
    assert "python" not in vocabulary.skills
    # "django framework" is curated, "crawling" is claimed twice: both dropped, not re-pointed
    assert vocabulary.skills["web scraping"].aliases == ["scraping"]
    assert vocabulary.skills["web crawling"].aliases == ["spidering"]
    assert vocabulary.lookup("crawling") is None
    assert vocabulary.lookup("django framework").skill == "Django"
    assert vocabulary.report.dropped_skills == 1 and vocabulary.report.dropped_aliases == 3
    assert vocabulary.curated == {"Python", "Django"}
    assert vocabulary.version.startswith("test-1+gen-1+")


def test_a_curated_skill_naming_an_esco_id_replaces_that_concept(tmp_path: Path):
    """ESCO names some concepts oddly ('Chinese Standard'): a curated skill with the same
    ESCO id stands in for it, and the odd name is gone."""
    _generated(tmp_path, [{**_skill("Chinese Standard", "Chinese Cantonese"), "esco": "c-1"}])
    path = _curated(tmp_path, ["gen.json"])
    data = yaml.safe_load(path.read_text())
    data["skills"].append(
        {"name": "Mandarin", "category": "software", "description": "x.", "esco": "c-1"}
    )
    path.write_text(yaml.safe_dump(data))
    vocabulary = load_vocabulary(path)
    assert "Chinese Standard" not in vocabulary.skills
    assert vocabulary.lookup("Chinese Cantonese") is None
    assert vocabulary.lookup("Mandarin").skill == "Mandarin"
    assert vocabulary.report.dropped_skills == 1


def test_spoken_languages_have_plain_names(vocabulary: Vocabulary):
    for spelling, skill in [
        ("Dutch", "Dutch"),
        ("Mandarin", "Mandarin"),
        ("Chinese", "Mandarin"),
        ("Punjabi", "Punjabi"),
        ("Polish", "Polish"),
        ("Yoruba", "Yoruba"),
    ]:
        assert vocabulary.lookup(spelling).skill == skill
    assert not {"Chinese Standard", "Dutch from Holland from the Netherlands"} & set(
        vocabulary.skills
    )


def test_a_changed_generated_file_changes_the_version(tmp_path: Path):
    path = _curated(tmp_path, ["gen.json"])
    _generated(tmp_path, [_skill("web scraping")])
    before = load_vocabulary(path).version
    _generated(tmp_path, [_skill("web scraping", "scraping")])
    assert load_vocabulary(path).version != before


@pytest.mark.parametrize(
    ("skills", "extra", "message"),
    [
        ([_skill("web scraping"), _skill("Web  Scraping")], {}, "same name as skill"),
        ([{**_skill("x"), "category": "nope"}], {}, "unknown category 'nope'"),
        ([{**_skill("x"), "implies": ["Python"]}], {}, "no implies, related or broader"),
        ([{**_skill("x", "y"), "needs_context": ["z"]}], {}, "neither the name nor an alias"),
        ([_skill("x")], {"format": 2}, "format must be 1"),
        ([{"name": "x"}], {}, "category"),
    ],
    ids=["duplicate-name", "category", "links", "needs-context", "format", "shape"],
)
def test_invalid_generated_files_name_the_problem(tmp_path: Path, skills, extra, message: str):
    _generated(tmp_path, skills, **extra)
    with pytest.raises(VocabularyError, match=message) as info:
        load_vocabulary(_curated(tmp_path, ["gen.json"]))
    assert "gen.json" in str(info.value)


def test_a_missing_include_is_reported(tmp_path: Path):
    with pytest.raises(VocabularyError, match=r"cannot read vocabulary .*nothing\.json"):
        load_vocabulary(_curated(tmp_path, ["nothing.json"]))


@pytest.mark.parametrize(
    ("broader", "message"),
    [
        (["Pyhton"], "broader names unknown skill 'Pyhton'"),
        (["Django"], "broader lists the skill itself"),
    ],
)
def test_bad_broader_links_are_rejected(tmp_path: Path, broader: list[str], message: str):
    path = _curated(tmp_path, [])
    data = yaml.safe_load(path.read_text())
    data["skills"][1]["broader"] = broader
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(VocabularyError, match=message):
        load_vocabulary(path)


def test_broader_cycles_are_rejected(tmp_path: Path):
    path = _curated(tmp_path, [])
    data = yaml.safe_load(path.read_text())
    data["skills"][0]["broader"] = ["Django"]
    data["skills"][1]["broader"] = ["Python"]
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(VocabularyError, match="broader has a cycle"):
        load_vocabulary(path)


def test_duplicate_curated_names_are_rejected(tmp_path: Path):
    path = _curated(tmp_path, [])
    data = yaml.safe_load(path.read_text())
    data["skills"].append({"name": "python", "category": "software", "description": "Again."})
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(VocabularyError, match="already used by skill 'Python'"):
        load_vocabulary(path)


def test_title_field_prefers_the_longest_keyword(vocabulary: Vocabulary):
    assert vocabulary.title_field("Senior Civil Engineer") == "engineering"
    assert vocabulary.title_field("Backend Engineer") == "technology"
    assert vocabulary.title_field("HR Executive") == "hr"
    assert vocabulary.title_field("Sous Chef") == "hospitality"
