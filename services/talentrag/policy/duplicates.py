"""When two CVs count as one person's: the near-duplicate similarity threshold."""

from __future__ import annotations

DUPLICATE_SIMILARITY = 0.5
"""Estimated Jaccard similarity of two CVs' word 5-shingle sets (normalised text) at or
above which they are the same CV ingested twice.

Measured on hand-built pairs (tests/ingestion/test_duplicates.py and the report of
issue 12): the same CV re-formatted (Markdown, re-flowed lines, capitals, bullets),
re-saved with an extra line, with an updated phone number and e-mail, or with one new
bullet scores 0.80-1.00; the same person's CV with a whole new role added scores about
0.7. Different people score at most 0.22, even written from one template (the 200
generated sample CVs, which share a phrase bank, and two bootcamp graduates sharing the
course, the capstone project and the template's sentences), and at most 0.04 across
the hand-written development set (four Europass CVs among them). 0.5 sits in the
middle of that gap, five standard errors of a 128-permutation estimate from either
side. Changing it regroups a CV only when it is written again: bump the analyser
version (ingestion/analysis_version.py) so every CV is re-evaluated.
"""
