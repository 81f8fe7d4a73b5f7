"""Full-text terms for PostgreSQL, made in Python so words split as the SQLite index splits them.

PostgreSQL's own parser keeps ``React/Node.js`` as one token (a file path) and ``C++``
as ``c``, and its accent-folding dictionary (``unaccent``) is an extension not every
server has. So the store splits text itself, like SQLite FTS5's ``unicode61
remove_diacritics`` tokenizer: runs of letters and digits, case-folded, diacritics
removed; and writes the ``tsvector`` (word -> positions) and the phrase ``tsquery``
literally. A phrase then matches when its words stand next to each other in that
order, whatever separates them; callers confirm the exact occurrence in the text.

PostgreSQL's limits apply: positions stop at 16,383 (a phrase after the 16,383rd word
is not found, single words still are), a word keeps its first 256 positions, and a
``tsvector`` holds at most 1 MB (words past that budget are not indexed).
"""

from __future__ import annotations

import re

from talentrag.vocabulary.tokens import folded

_WORD = re.compile(r"[^\W_]+")  # letters and digits; the underscore separates, as in FTS5
MAX_POSITION = 16_383
MAX_POSITIONS_PER_WORD = 256
MAX_WORD_BYTES = 2_046  # PostgreSQL refuses longer lexemes
MAX_VECTOR_BYTES = 1_000_000  # below PostgreSQL's 1 MB tsvector limit, with room for headers


def words(text: str) -> list[str]:
    """The text's words as the index holds them: case-folded, diacritics removed."""
    return _WORD.findall(folded(text))


def tsvector_literal(text: str) -> str:
    """The ``tsvector`` of ``text`` in PostgreSQL's input syntax (``'word':1,5 ...``)."""
    positions: dict[str, list[int]] = {}
    size = 0
    for index, word in enumerate(words(text), start=1):
        position = min(index, MAX_POSITION)
        held = positions.get(word)
        if held is None:
            cost = len(word.encode()) + 8  # the entry, its padding and position count
            if cost - 8 > MAX_WORD_BYTES or size + cost > MAX_VECTOR_BYTES:
                continue
            size += cost + 2
            positions[word] = [position]
        elif len(held) < MAX_POSITIONS_PER_WORD and held[-1] != position:
            held.append(position)
            size += 2
    return " ".join(f"'{word}':{','.join(map(str, held))}" for word, held in positions.items())


def phrase_query(phrase: str) -> str | None:
    """A ``tsquery`` matching the phrase's words next to each other, in order; None when
    the phrase has no word."""
    found = words(phrase)
    if not found:
        return None
    return " <-> ".join(f"'{word}'" for word in found)
