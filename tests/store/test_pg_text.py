"""The words PostgreSQL's full-text index holds, made in Python (talentrag.store.pg_text)."""

from __future__ import annotations

from talentrag.store.pg_text import (
    MAX_POSITION,
    MAX_VECTOR_BYTES,
    phrase_query,
    tsvector_literal,
    words,
)


def test_words_split_on_anything_but_letters_and_digits_without_case_or_accents():
    assert words("React/Node.js, C++ & ÉCOLE_Polytechnique 2019") == [
        "react",
        "node",
        "js",
        "c",
        "ecole",
        "polytechnique",
        "2019",
    ]
    assert words("Straße Москва") == ["strasse", "москва"]


def test_a_tsvector_lists_each_word_once_with_its_positions():
    assert tsvector_literal("Go, go and Python") == "'go':1,2 'and':3 'python':4"
    assert tsvector_literal("") == ""


def test_positions_stop_at_the_last_one_postgresql_keeps():
    literal = tsvector_literal(" ".join(f"w{i}" for i in range(MAX_POSITION + 5)))
    assert literal.endswith(f"'w{MAX_POSITION + 4}':{MAX_POSITION}")


def test_a_huge_text_is_indexed_up_to_the_size_budget():
    text = " ".join(f"word{i:07}" for i in range(200_000))  # 200,000 distinct words
    literal = tsvector_literal(text)
    assert 0 < len(literal.encode()) < 2 * MAX_VECTOR_BYTES
    assert "'word0000000':1" in literal and "word0199999" not in literal


def test_a_phrase_query_puts_its_words_next_to_each_other():
    assert phrase_query("Ruby on Rails") == "'ruby' <-> 'on' <-> 'rails'"
    assert phrase_query("Node.js") == "'node' <-> 'js'"
    assert phrase_query("+#") is None
