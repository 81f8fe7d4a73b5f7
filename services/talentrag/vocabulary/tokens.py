"""The one tokeniser shared by vocabulary aliases and CV text.

Aliases and text must be split the same way or a listed spelling could never
match: runs of letters/digits, a trailing ``+``/``#`` kept (C++, C#), a leading
``.`` kept when it starts a word (.NET), cut where an ALL-CAPS run of four letters or
more meets other letters (a heading run into the text). Everything else separates tokens, so
"CI/CD" == "CI CD" and "Node.js" == "node js".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

# A word also ends where an ALL-CAPS run of four or more letters meets it: text from a
# PDF often loses the line break around a heading ("JMeterPROFESSIONAL EXPERIENCETest
# Engineer", "OBJECTIVESeeking a position"). Aliases split the same way ("FreeRTOS" is
# "Free RTOS"), so every spelling still matches itself.
_CAPS_EDGE = r"(?<=[a-z])(?=[A-Z]{4})|(?<=[A-Z]{4})(?=[A-Z][a-z])"
TOKEN = re.compile(rf"(?<![^\W_])\.[^\W_]+|[^\W_](?:(?!{_CAPS_EDGE})[^\W_])*(?:\+\+|\+|#)?")


class Token(NamedTuple):
    """A token and its character offsets in the text it came from."""

    text: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """Split ``text`` by the shared rules, keeping offsets for evidence."""
    return [Token(m.group(), m.start(), m.end()) for m in TOKEN.finditer(text)]


@lru_cache(maxsize=1 << 17)
def token_key(text: str) -> tuple[str, ...]:
    """Case-folded token sequence: the identity of an alias (cached: loading the
    vocabulary asks for each of its ~30,000 spellings several times)."""
    return tuple(token.casefold() for token in TOKEN.findall(text))


def folded(text: str) -> str:
    """Case-folded with diacritics removed ("José Núñez" -> "jose nunez"): how names and
    full-text words are compared."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
