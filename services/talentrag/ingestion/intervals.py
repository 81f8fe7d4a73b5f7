"""Merging overlapping intervals: role dates (years of experience) and character spans."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T", bound=Any)


def merge_intervals(intervals: list[tuple[T, T]]) -> list[tuple[T, T]]:
    """Sorted, disjoint intervals covering the same points (touching ones join)."""
    merged: list[tuple[T, T]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
