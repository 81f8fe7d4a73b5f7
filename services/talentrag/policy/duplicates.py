"""When two CVs count as one person's: the near-duplicate similarity threshold."""

from __future__ import annotations

DUPLICATE_SIMILARITY = 0.5
"""Estimated Jaccard similarity of two CVs' 5-word shingle sets (normalised text) at or
above which they are one CV stored twice.

Why 0.5, measured with 128-permutation MinHash by ``python -m
tests.ingestion.devset_duplicate_margins`` (lowest or highest over the 92 development-set
documents unless said):
- the same CV scores 0.72 or more: re-formatted as Markdown and re-flowed 1.0 (0.77 when
  a CV builder also adds "Email:"/"Phone:" labels and spells months out), re-saved with
  page footers 0.87, a new phone number and e-mail 0.84, an extra line 0.93, one more
  bullet 0.84, all of these at once 0.80, a whole new role added 0.72;
- different people score 0.27 or less: two bootcamp graduates on one template sharing the
  summary sentence, skill lines and team capstone project 0.27, the 200 generated sample
  CVs (one phrase bank) at most 0.11, the development set's 4,186 pairs (Europass forms
  among them) at most 0.04.
0.5 leaves about five standard errors of the estimate (0.044) on either side. A new value
applies to a CV when it is next written: bump the analyser version so all are re-evaluated.
"""
