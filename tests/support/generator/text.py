"""Small wording helpers shared by CVs and job documents."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

ASCII_FIX = str.maketrans({"ł": "l", "Ł": "L", "ı": "i", "ø": "o", "ß": "ss", "đ": "d"})


def natural_list(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def with_article(text: str) -> str:
    """``text`` with 'a' or 'an' in front."""
    return f"{'an' if text[:1].lower() in 'aeiou' else 'a'} {text}"


def ascii_slug(text: str, sep: str = "") -> str:
    """Lower-case ASCII letters and digits (for emails and file names)."""
    plain = unicodedata.normalize("NFKD", text.translate(ASCII_FIX))
    found = re.findall(r"[a-z0-9]+", plain.encode("ascii", "ignore").decode().lower())
    return sep.join(found) or "x"
