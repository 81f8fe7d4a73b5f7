"""Blind mode: results without who the candidate is, for fair screening.

The name, contact details and source file are withheld; evidence passages have the
name's words, e-mail and web addresses and phone numbers replaced by a mark. The
candidate id, often made from a file name, becomes an opaque reference. Skills, level,
years, scores and the passages' offsets stay, so rankings are the same with or without.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from talentrag.ingestion.analyze import CONTACT_DETAILS
from talentrag.search.models import CandidateResult

WITHHELD = "[withheld]"
_NAME_WORD = re.compile(r"[^\W\d_]{2,}")


def blind_reference(tenant: str, candidate_id: str) -> str:
    """A stable opaque reference for a candidate in blind results."""
    return "blind-" + hashlib.sha256(f"{tenant}\n{candidate_id}".encode()).hexdigest()[:12]


def _identity_pattern(name: str, source_file: str) -> re.Pattern[str] | None:
    """Whole words of the name and of the file's stem ('jordan-kim.txt' -> jordan, kim)."""
    words = {w.casefold() for w in _NAME_WORD.findall(f"{name} {Path(source_file).stem}")}
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"\b(?:{alternatives})\b", re.IGNORECASE)


def scrub(text: str, identity: re.Pattern[str] | None) -> str:
    """The passage with contact details and the candidate's name words withheld."""
    text = CONTACT_DETAILS.sub(WITHHELD, text)
    return identity.sub(WITHHELD, text) if identity else text


def blind(result: CandidateResult, tenant: str, rank: int) -> CandidateResult:
    """The result as a blind screener sees it: 'Candidate <rank>', nothing identifying."""
    identity = _identity_pattern(result.name, result.source_file)
    return result.model_copy(
        update={
            "candidate_id": blind_reference(tenant, result.candidate_id),
            "name": f"Candidate {rank}",
            "source_file": WITHHELD,
            "evidence": [
                e.model_copy(update={"text": scrub(e.text, identity), "source_file": WITHHELD})
                for e in result.evidence
            ],
            "explanation": scrub(result.explanation, identity),
            "duplicates": [blind_reference(tenant, d) for d in result.duplicates],
        }
    )
