"""Two-column text put back into reading order.

A CV laid out in two columns (a sidebar of skills and contacts beside the experience)
often reaches us as text whose lines hold a piece of each column, side by side:

    SKILLS                         • Prepared the monthly accounts and
    Xero, Sage 50                  reconciled the bank feeds for 30 clients.

Read line by line, a sentence of one column is cut by words of the other, so a skill
list runs into a sentence and a sentence's cues miss the skills they govern. When a block
of lines is such a layout, each column is given whole, the left one first.

A label-and-value layout (Europass: "01/2019 - Present      Site Engineer") is no such
block: its right side starts a new entry on each labelled line. The sign of two columns
is a right side whose sentence goes on from the line before while the left side holds
something else.
"""

from __future__ import annotations

import re
from collections import Counter

_GAP = re.compile(r"(?<=\S)(?: {3,}|\t+)(?=\S)")
_NARROW_GAP = re.compile(r"(?<=\S)(?: {2,}|\t+)(?=\S)")  # enough where the column is known
_OPEN_END = re.compile(r"(?:,|&|-|\b(?:and|or|of|to|the|a|an|with|for|in|on|at|by|from))$")
_SENTENCE_END = re.compile(r"[.!?:;]$")
MIN_FLOWING_LINES = 3  # lines whose right side goes on from the line before
_SLACK = 2  # columns a right side may start off its block's column


def untangle_columns(text: str) -> str:
    """The text with each two-column block given as its left column, then its right."""
    if "   " not in text and "\t" not in text:
        return text
    lines = text.split("\n")
    column = _right_column(lines)
    if column is None:
        return text
    sides = [_sides(line, column) for line in lines]  # None: the line crosses the column
    out: list[str] = []
    i = 0
    while i < len(lines):
        end = _block_end(sides, i)
        block = [s or ("", "") for s in sides[i:end]]
        if end - i >= MIN_FLOWING_LINES and _flowing(block) >= MIN_FLOWING_LINES:
            out.extend([*_trim([s[0] for s in block]), "", *_trim([s[1] for s in block])])
            i = end
        else:  # a part of it flows no more than the whole
            end = max(end, i + 1)
            out.extend(lines[i:end])
            i = end
    return "\n".join(out)


def _right_column(lines: list[str]) -> int | None:
    """The most common column a line's right side starts at after a wide gap."""
    starts = Counter(gap.end() for line in lines for gap in _GAP.finditer(line))
    if not starts:
        return None
    # columns a character apart are one column (a bullet, a space of justification)
    merged = Counter({c: sum(starts[c + d] for d in range(-_SLACK, _SLACK + 1)) for c in starts})
    column, count = merged.most_common(1)[0]
    return column if count >= MIN_FLOWING_LINES and column >= 12 else None


def _sides(line: str, column: int) -> tuple[str, str] | None:
    """(left, right) of a line of the layout; None when the line crosses the column."""
    if not line.strip():
        return "", ""
    if len(line) - len(line.lstrip()) >= column - _SLACK:
        return "", line.strip()
    gap = next((g for g in _NARROW_GAP.finditer(line) if abs(g.end() - column) <= _SLACK), None)
    if gap is not None:
        return line[: gap.start()].strip(), line[gap.end() :].strip()
    if len(line.rstrip()) < column - _SLACK:
        return line.strip(), ""
    right = line[column:].strip()
    if line[column - 1 : column] == " " and len(right) >= 4 and right.isupper():
        return line[:column].strip(), right  # a long left side one space from a heading
    return None


def _block_end(sides: list[tuple[str, str] | None], start: int) -> int:
    """The end of the layout's lines from ``start``, after its last line with a right side
    (what follows on the left alone, "Referees on request.", reads the same either way)."""
    end = start
    while end < len(sides) and sides[end] is not None:
        end += 1
    while end > start and not (sides[end - 1] or ("", ""))[1]:
        end -= 1
    return end


def _flowing(block: list[tuple[str, str]]) -> int:
    """Lines with a left side whose right side continues the previous line's sentence."""
    count = 0
    previous_right = ""
    for left, right in block:
        if left and right and _continues(previous_right, right):
            count += 1
        previous_right = right
    return count


def _continues(previous: str, current: str) -> bool:
    """Whether ``current`` goes on with the sentence ``previous`` left open."""
    if len(previous.split()) < 3 or _SENTENCE_END.search(previous):
        return False
    if _GAP.search(previous) or _GAP.search(current):
        return False  # a table's cells, not a column of prose
    return current[:1].islower() or _OPEN_END.search(previous) is not None


def _trim(lines: list[str]) -> list[str]:
    """A column's lines without the blank ones at its ends."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return lines[filled[0] : filled[-1] + 1] if filled else []
