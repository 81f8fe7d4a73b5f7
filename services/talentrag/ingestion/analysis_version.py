"""The analysis version: which vocabulary and which analyser produced a stored record.

Every stored document carries the stamp it was analysed under. When the stamp of the
running code differs (a new vocabulary, or an analyser change), the stored records are
out of date: ``talentrag reindex`` re-analyses them from their stored text, and the
server does so at start-up. Re-ingesting an unchanged file re-analyses it too.
"""

from __future__ import annotations

from talentrag.vocabulary.vocabulary import Vocabulary

ANALYSER_VERSION = "30"
"""Bump whenever a change to text cleaning, CV parsing, dates, skill extraction or record
building can change what a stored document's record would be. The vocabulary's own
version is part of the stamp already: editing the vocabulary needs no bump here."""


def analysis_version(vocabulary: Vocabulary) -> str:
    """The stamp stored with each record: analyser version and vocabulary version."""
    return f"analyser-{ANALYSER_VERSION}/{vocabulary.version}"
