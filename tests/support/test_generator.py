"""The synthetic corpus: deterministic, truth exactly matching the text, varied, fast.

The checks re-derive the truth from the text with their own matcher and date
parser written from the contracts (vocabulary format, interval conventions), so
a generator bug cannot hide behind shared code. The matcher reads as a person
does: a spelling is one phrase, so a list separator, a line break or a sentence
end between two words ends it ("AWS, Security" is two items, not "AWS Security"),
and e-mail addresses are not skill text. The same checks hold for the committed
sample corpus that `make run` loads.
"""

from __future__ import annotations

import ast
import json
import re
import time
from collections import Counter
from datetime import date
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

import pytest
import yaml

from tests.support.generator import DEFAULT_VOCABULARY, generate_corpus, main

AS_OF = date(2026, 11, 1)
ROOT = Path(__file__).parents[2]
COMMITTED = ROOT / "services" / "talentrag" / "sample_data" / "corpus"
GENERATOR = Path(__file__).with_name("generator")
TOKEN = re.compile(r"(?<![^\W_])\.[^\W_]+|[^\W_]+(?:\+\+|\+|#)?")
CUE = re.compile(
    r"\b(?:no|not|learning|interested|keen|would like|looking to|eager|studying)\b", re.I
)
EMAIL = re.compile(r"\S+@\S+")
# What may stand between two words of one spelling ("CI/CD", "front-end", "W&B", "VB.NET").
JOINER = re.compile(r"|[ ]|[-./&']| & |' ")
SUFFIX = re.compile(r"\s*\((?:currently )?learning\)")
MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
POINT = r"(?:[A-Z][a-z]+ \d{4}|\d{2}/\d{4}|\d{4})"
RANGE = re.compile(
    rf"(?<![\d/])({POINT})\s*(?:–|-|to)\s*({POINT}|present|current|now)(?![\d/])", re.I
)

VOCABULARY = """
version: 1
fields:
  technology: {label: Tech, titles: [engineer, developer, tester, analyst, scientist, devops]}
  healthcare: {label: Health, titles: [nurse]}
  finance: {label: Finance, titles: [accountant, auditor, controller]}
  sales: {label: Sales, titles: [sales, account executive, account manager]}
  education: {label: Education, titles: [teacher, lecturer, teaching assistant]}
  logistics: {label: Logistics, titles: [logistics, warehouse, dispatcher, fleet, transport]}
  general: {label: General, titles: []}
categories:
  software: {label: Software engineering, field: technology}
  data_ml: {label: Data and machine learning, field: technology}
  cloud_devops: {label: Cloud and DevOps, field: technology}
  databases: {label: Databases, field: technology}
  mobile: {label: Mobile, field: technology}
  qa: {label: Testing, field: technology}
  security: {label: Security, field: technology}
  embedded: {label: Embedded, field: technology}
  nursing: {label: Nursing, field: healthcare}
  accounting: {label: Accounting, field: finance}
  sales: {label: Sales, field: sales}
  teaching: {label: Teaching, field: education}
  logistics: {label: Logistics, field: logistics}
  professional: {label: Professional, field: general}
skills:
  - {name: Python, category: software, description: d, aliases: [Python 3]}
  - {name: Java, category: software, description: d}
  - {name: JavaScript, category: software, description: d, aliases: [JS]}
  - {name: TypeScript, category: software, description: d, aliases: [TS], implies: [JavaScript]}
  - {name: Go, category: software, description: d, aliases: [Golang], exact_case: [Go]}
  - {name: C, category: software, description: d, exact_case: [C]}
  - {name: C++, category: software, description: d, aliases: [cpp]}
  - {name: Ruby on Rails, category: software, description: d, aliases: [RoR, Rails]}
  - {name: Node.js, category: software, description: d, aliases: [NodeJS], implies: [JavaScript]}
  - {name: React, category: software, description: d, aliases: [ReactJS], implies: [JavaScript]}
  - {name: Django, category: software, description: d, implies: [Python]}
  - {name: Git, category: software, description: d}
  - {name: PostgreSQL, category: databases, description: d, aliases: [Postgres]}
  - {name: Redis, category: databases, description: d}
  - {name: Docker, category: cloud_devops, description: d, related: [Kubernetes]}
  - {name: Kubernetes, category: cloud_devops, description: d, aliases: [K8s],
     related: [Container Orchestration]}
  - {name: Container Orchestration, category: cloud_devops, description: d}
  - {name: Amazon EKS, category: cloud_devops, description: d, aliases: [EKS],
     implies: [Kubernetes, AWS]}
  - {name: Helm, category: cloud_devops, description: d, aliases: [Helm charts],
     implies: [Kubernetes]}
  - {name: AWS, category: cloud_devops, description: d, aliases: [Amazon Web Services]}
  - {name: Terraform, category: cloud_devops, description: d}
  - {name: Apache Spark, category: data_ml, description: d, aliases: [Spark]}
  - {name: PySpark, category: data_ml, description: d, implies: [Apache Spark, Python]}
  - {name: Databricks, category: data_ml, description: d, implies: [Apache Spark]}
  - {name: scikit-learn, category: data_ml, description: d, aliases: [sklearn],
     implies: [Machine Learning, Python]}
  - {name: Machine Learning, category: data_ml, description: d, aliases: [ML],
     exact_case: [ML]}
  - {name: R, category: data_ml, description: d, exact_case: [R]}
  - {name: Swift, category: mobile, description: d, exact_case: [Swift]}
  - {name: Kotlin, category: mobile, description: d}
  - {name: Flutter, category: mobile, description: d}
  - {name: Selenium, category: qa, description: d}
  - {name: Cypress, category: qa, description: d}
  - {name: Penetration Testing, category: security, description: d, aliases: [pentesting]}
  - {name: OWASP, category: security, description: d}
  - {name: RTOS, category: embedded, description: d, aliases: [FreeRTOS]}
  - {name: Embedded C, category: embedded, description: d, implies: [C]}
  - {name: Wound Care, category: nursing, description: d}
  - {name: Triage, category: nursing, description: d}
  - {name: IV Therapy, category: nursing, description: d}
  - {name: Medication Administration, category: nursing, description: d}
  - {name: Bookkeeping, category: accounting, description: d}
  - {name: IFRS, category: accounting, description: d}
  - {name: Xero, category: accounting, description: d}
  - {name: Payroll, category: accounting, description: d}
  - {name: Salesforce, category: sales, description: d, aliases: [SFDC]}
  - {name: Cold Calling, category: sales, description: d}
  - {name: Lead Generation, category: sales, description: d}
  - {name: Lesson Planning, category: teaching, description: d}
  - {name: Classroom Management, category: teaching, description: d}
  - {name: Safeguarding, category: teaching, description: d}
  - {name: Inventory Management, category: logistics, description: d}
  - {name: Route Planning, category: logistics, description: d}
  - {name: Forklift Operation, category: logistics, description: d}
  - {name: Communication, category: professional, description: d}
  - {name: Microsoft Excel, category: professional, description: d, aliases: [Excel]}
  - {name: Jira, category: professional, description: d}
  - {name: Leadership, category: professional, description: d}
  - {name: Agile, category: professional, description: d, aliases: [Scrum]}
"""


class Scanner:
    """Leftmost-longest token n-gram matching of vocabulary spellings (the contract)."""

    def __init__(self, path: Path):
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        self.surfaces: dict[tuple[str, ...], list[tuple[str, str | None]]] = {}
        self.implies: dict[str, list[str]] = {}
        self.names: dict[str, tuple[str, ...]] = {}
        for spec in raw["skills"]:
            exact = set(spec.get("exact_case") or [])
            # never matched in free text; in_field spellings only in some CVs: the
            # generator treats both as filler
            context_only = {*(spec.get("needs_context") or []), *(spec.get("in_field") or [])}
            self.implies[spec["name"]] = list(spec.get("implies") or [])
            for text in [spec["name"], *(spec.get("aliases") or [])]:
                if text in context_only:
                    continue
                entry = (spec["name"], text if text in exact else None)
                self.surfaces.setdefault(self.key(text), []).append(entry)
            self.names[spec["name"]] = self.key(spec["name"])
        self.width = max(map(len, self.surfaces))

    @staticmethod
    def key(text: str) -> tuple[str, ...]:
        return tuple(t.casefold() for t in TOKEN.findall(text))

    def mentions(self, text: str) -> list[tuple[str, int, int, str]]:
        """(skill, start, end, written) for every mention outside e-mail addresses."""
        text = EMAIL.sub(lambda m: " " * len(m.group()), text)
        tokens = list(TOKEN.finditer(text))
        out, i = [], 0
        while i < len(tokens):
            width = self._match(tokens, i, out)
            i += width or 1
        return out

    def _match(self, tokens: list[re.Match[str]], i: int, out: list) -> int:
        for width in range(min(self.width, len(tokens) - i), 0, -1):
            window = tokens[i : i + width]
            if not joined(window):
                continue
            for skill, exact in self.surfaces.get(tuple(t.group().casefold() for t in window), []):
                written = [t.group() for t in window]
                if exact is None or written == TOKEN.findall(exact):
                    start, end = window[0].start(), window[-1].end()
                    out.append((skill, start, end, text_of(window)))
                    return width
        return 0

    def closure(self, names: set[str]) -> set[str]:
        seen, stack = set(), list(names)
        while stack:
            name = stack.pop()
            if name not in seen:
                seen.add(name)
                stack.extend(self.implies.get(name, []))
        return seen


def joined(window: list[re.Match[str]]) -> bool:
    """The tokens form one phrase: no list separator, line break or sentence end between."""
    text = window[0].string
    return all(JOINER.fullmatch(text[a.end() : b.start()]) for a, b in pairwise(window))


def text_of(window: list[re.Match[str]]) -> str:
    return window[0].string[window[0].start() : window[-1].end()]


def point(text: str, end: bool) -> date:
    """A range end point under the parser's conventions."""
    if re.fullmatch(r"\d{4}", text):
        return date(int(text), 7, 1)
    if "/" in text:
        month, year = int(text[:2]), int(text[3:])
    else:
        name, year_text = text.split()
        month, year = MONTHS[name[:3].lower()], int(year_text)
    if end:
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return date(year, month, 1)


def date_ranges(text: str) -> set[tuple[date, date]]:
    out = set()
    for start, end in RANGE.findall(text):
        stop = AS_OF if end.lower() in ("present", "current", "now") else point(end, True)
        out.add((point(start, False), stop))
    return out


def union_years(spans: list[tuple[date, date]]) -> float:
    days, current = 0, None
    for start, end in sorted(spans):
        if current and start <= current[1]:
            current = (current[0], max(current[1], end))
            continue
        if current:
            days += (current[1] - current[0]).days
        current = (start, end)
    if current:
        days += (current[1] - current[0]).days
    return days / 365.25


def load(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "ground_truth.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def fixture_vocabulary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("vocab") / "skills.yaml"
    path.write_text(VOCABULARY, encoding="utf-8")
    return path


class Corpus(NamedTuple):
    """A corpus on disk, a matcher for its vocabulary and its truth records."""

    out: Path
    scanner: Scanner
    records: list[dict]


_GENERATED: dict[str, Corpus] = {}


def generated_corpus(kind: str, tmp_path_factory: pytest.TempPathFactory, fixture: Path) -> Corpus:
    """300 CVs + 8 job documents on the fixture or the project vocabulary, made once."""
    if kind not in _GENERATED:
        vocabulary = fixture if kind == "fixture" else DEFAULT_VOCABULARY
        out = tmp_path_factory.mktemp(f"corpus-{kind}")
        generate_corpus(out, 300, seed=11, n_job_descriptions=8, vocabulary_path=vocabulary)
        _GENERATED[kind] = Corpus(out, Scanner(vocabulary), load(out))
    return _GENERATED[kind]


@pytest.fixture(scope="module", params=["fixture", "default"])
def generated(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    fixture_vocabulary: Path,
) -> Corpus:
    """A generated corpus on the fixture and on the project vocabulary."""
    return generated_corpus(request.param, tmp_path_factory, fixture_vocabulary)


@pytest.fixture(scope="module", params=["fixture", "default", "committed"])
def corpus(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    fixture_vocabulary: Path,
) -> Corpus:
    """The generated corpora, and the committed sample corpus that `make run` loads
    (written by an earlier version of the generator)."""
    if request.param == "committed":
        return Corpus(COMMITTED, Scanner(DEFAULT_VOCABULARY), load(COMMITTED))
    return generated_corpus(request.param, tmp_path_factory, fixture_vocabulary)


def cvs(records: list[dict]) -> list[dict]:
    return [r for r in records if r["document_type"] == "cv"]


# -- determinism ----------------------------------------------------------------------


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.*"))}


def test_same_seed_same_bytes(tmp_path: Path, fixture_vocabulary: Path) -> None:
    runs = {}
    for name, seed, n, workers in (
        ("a", 5, 120, 1),
        ("b", 5, 120, 1),
        ("parallel", 5, 120, 2),
        ("other_seed", 6, 120, 1),
        ("shorter", 5, 30, 1),
    ):
        generate_corpus(
            tmp_path / name, n, seed=seed, vocabulary_path=fixture_vocabulary, workers=workers
        )
        runs[name] = files(tmp_path / name)
    assert runs["b"] == runs["a"]
    assert runs["parallel"] == runs["a"]
    assert runs["other_seed"] != runs["a"]
    cv_files = [k for k in runs["shorter"] if k.startswith("cvs/")]
    assert len(cv_files) == 30
    assert all(runs["shorter"][k] == runs["a"][k] for k in cv_files)  # independent of the count


# -- truth consistency ------------------------------------------------------------------


def test_truth_records_are_complete(corpus: Corpus) -> None:
    out, _, records = corpus
    assert len(records) == (308 if out != COMMITTED else 205)
    assert len(list(out.rglob("cv-*"))) == len(cvs(records))  # a record for every CV file
    for record in records:
        assert (out / record["file"]).is_file()
        assert set(record) >= {
            "file",
            "document_type",
            "name",
            "skills",
            "mentioned_not_held",
            "years",
            "level",
            "field",
            "roles",
        }
    for record in cvs(records):
        assert 4 <= len(record["skills"]) <= 14
        assert record["skills"] == sorted(record["skills"])
        assert record["languages"] == sorted(record["languages"])
        assert not set(record["skills"]) & set(record["mentioned_not_held"])
        assert record["roles"]


def test_text_spells_exactly_the_truth(corpus: Corpus) -> None:
    """Every mention is held or negated; every held skill is written or implied."""
    out, scanner, records = corpus
    for record in cvs(records):
        text = (out / record["file"]).read_text(encoding="utf-8")
        found = {m[0] for m in scanner.mentions(text)}
        held, negated = set(record["skills"]), set(record["mentioned_not_held"])
        assert found <= held | negated, (record["file"], found - held - negated)
        assert negated <= found, record["file"]
        assert scanner.closure(found & held) == held, (record["file"], held - found)
        assert scanner.closure(held) == held  # the implies closure is applied


def test_negated_mentions_stand_in_their_own_sentences(corpus: Corpus) -> None:
    out, scanner, records = corpus
    for record in cvs(records):
        text = (out / record["file"]).read_text(encoding="utf-8")
        negated = set(record["mentioned_not_held"])
        for line in text.splitlines():
            for sentence in re.split(r"(?<=[.!?])\s+", line):
                check_sentence(sentence, scanner, negated, record["file"])


def check_sentence(sentence: str, scanner: Scanner, negated: set[str], where: str) -> None:
    mentions = scanner.mentions(sentence)
    blanked = sentence
    for skill, start, end, _ in mentions:
        blanked = blanked[:start] + " " * (end - start) + blanked[end:]
        suffix = SUFFIX.match(sentence, end)
        if suffix:  # "Rust (learning)": that item only
            assert skill in negated, (where, sentence)
            blanked = blanked[:end] + " " * (suffix.end() - end) + blanked[suffix.end() :]
    if CUE.search(blanked):
        assert all(m[0] in negated for m in mentions), (where, sentence)
    elif not SUFFIX.search(sentence):
        assert not any(m[0] in negated for m in mentions), (where, sentence)


def test_years_levels_and_roles_follow_the_conventions(corpus: Corpus) -> None:
    out, _, records = corpus
    for record in cvs(records):
        text = (out / record["file"]).read_text(encoding="utf-8")
        years = record["years"]
        assert record["level"] == ("junior" if years < 3 else "mid" if years <= 6 else "senior")
        assert abs(years - 3) >= 0.29 and abs(years - 6) >= 0.29, record["file"]
        spans = [
            (date.fromisoformat(r["start"]), date.fromisoformat(r["end"])) for r in record["roles"]
        ]
        current = [
            s for s, r in zip(spans, record["roles"], strict=True) if r["field"] == record["field"]
        ]
        assert union_years(current) == pytest.approx(years, abs=0.006)
        latest = max(range(len(spans)), key=lambda i: (spans[i][1], spans[i][0]))
        assert record["roles"][latest]["field"] == record["field"]
        written = date_ranges(text)
        if set(spans) & written:
            assert set(spans) <= written, record["file"]
        else:  # undated roles ("3 years"): the summary states the total
            claim = f"{round(years)} year{'' if round(years) == 1 else 's'} of"
            assert claim in text and years == round(years), record["file"]


def test_header_names_the_candidate(corpus: Corpus) -> None:
    out, _, records = corpus
    for record in cvs(records):
        text = (out / record["file"]).read_text(encoding="utf-8")
        first = next(line for line in text.splitlines() if line.strip())
        assert re.sub(r"^(?:# |Name: )", "", first) == record["name"]
        assert "@example.com" in text and "555" in text


def test_job_documents(corpus: Corpus) -> None:
    out, scanner, records = corpus
    jobs = [r for r in records if r["document_type"] != "cv"]
    assert {r["document_type"] for r in jobs} == {"job_description", "company_page"}
    for record in jobs:
        assert record["file"].startswith(("jobs/jd-", "jobs/company-"))
        assert record["level"] is None and record["years"] is None
        text = (out / record["file"]).read_text(encoding="utf-8")
        found = {m[0] for m in scanner.mentions(text)}
        assert found <= set(record["skills"]) | set(record.get("nice_to_have", []))
        assert scanner.closure(found & set(record["skills"])) == set(record["skills"])


# -- variety ----------------------------------------------------------------------------


def test_variety_of_layouts_fields_and_levels(generated: Corpus) -> None:
    records = generated.records
    rows = cvs(records)
    layouts = Counter(r["layout"] for r in rows[:100])
    assert len(layouts) >= 4
    assert {Path(r["file"]).suffix for r in rows[:100]} == {".txt", ".md"}
    shares = Counter(r["level"] for r in rows)
    assert all(shares[level] / len(rows) > 0.2 for level in ("junior", "mid", "senior"))
    assert 0.6 < sum(r["field"] == "technology" for r in rows) / len(rows) < 0.9
    assert 0.25 < sum(bool(r["mentioned_not_held"]) for r in rows) / len(rows) < 0.55
    assert sum(len({x["field"] for x in r["roles"]}) > 1 for r in rows) >= 10  # career changers


def test_aliases_and_case_variants_are_written(generated: Corpus) -> None:
    out, scanner, records = generated
    aliases = recased = 0
    for record in cvs(records)[:100]:
        for skill, _, _, written in scanner.mentions((out / record["file"]).read_text()):
            aliases += scanner.key(written) != scanner.names[skill]
            recased += written in (written.lower(), written.upper()) and written.lower() != (
                written.upper()
            )
    assert aliases > 50 and recased > 10


def test_exact_case_spellings_keep_their_case(tmp_path: Path, fixture_vocabulary: Path) -> None:
    generate_corpus(tmp_path, 300, seed=3, vocabulary_path=fixture_vocabulary)
    texts = " ".join(p.read_text() for p in (tmp_path / "cvs").iterdir())
    tokens = set(TOKEN.findall(texts))
    assert {"Go", "ML", "Swift"} <= tokens
    assert not tokens & {"go", "GO", "ml", "Ml", "swift", "SWIFT", "r"}


# -- scale and CLI --------------------------------------------------------------------------


def test_two_thousand_cvs_quickly(tmp_path: Path, fixture_vocabulary: Path) -> None:
    started = time.perf_counter()
    truth = generate_corpus(tmp_path, 2000, seed=1, vocabulary_path=fixture_vocabulary)
    elapsed = time.perf_counter() - started
    assert len(truth.read_text().splitlines()) == 2005
    assert len(list((tmp_path / "cvs").iterdir())) == 2000
    assert elapsed < 20, elapsed


def test_cli(tmp_path: Path, fixture_vocabulary: Path, capsys: pytest.CaptureFixture) -> None:
    main(
        [
            str(tmp_path),
            "--n",
            "12",
            "--seed",
            "4",
            "--jobs",
            "4",
            "--vocabulary",
            str(fixture_vocabulary),
        ]
    )
    assert "wrote 12 CVs and 4 job documents" in capsys.readouterr().out
    assert len(load(tmp_path)) == 16


# -- independence -----------------------------------------------------------------------


def test_generator_uses_no_extractor_code() -> None:
    """The truth is what the generator wrote: it reads the vocabulary file itself and
    borrows only the level bands and the interval union from the service."""
    allowed = {"talentrag.policy.levels", "talentrag.ingestion.dates"}
    for path in GENERATOR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = {node.module}
            elif isinstance(node, ast.Import):
                modules = {alias.name for alias in node.names}
            else:
                continue
            used = {m for m in modules if m.split(".")[0] == "talentrag"}
            assert used <= allowed, (path.name, used - allowed)
