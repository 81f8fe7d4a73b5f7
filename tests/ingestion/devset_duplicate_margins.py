"""How far the near-duplicate threshold is from either side: a measuring script.

Run from a worktree:
    PYTHONPATH=$PWD/services:$PWD /work/main/.venv/bin/python -m tests.ingestion.devset_duplicate_margins

Same CV: every development-set document (tests/devset/documents) against copies of itself
edited the ways a CV is re-uploaded (re-formatted as Markdown and re-flowed, re-saved as
a PDF with page footers, a new phone number and e-mail, an extra line, one more bullet,
a whole new role). Different people: every pair of development-set documents, every pair
of the 200 generated sample CVs (one phrase bank), and the hand-written template pairs in
tests/fixtures/duplicates. Prints the lowest similarity per edit and the highest per set
of different people, beside ``DUPLICATE_SIMILARITY``.
"""

from __future__ import annotations

import itertools
import re
import textwrap
from collections.abc import Callable
from pathlib import Path

from talentrag.ingestion.duplicates import Signature, signature
from talentrag.ingestion.readers import read_document
from talentrag.policy.duplicates import DUPLICATE_SIMILARITY

ROOT = Path(__file__).resolve().parents[2]
DEVSET = ROOT / "tests" / "devset" / "documents"
SAMPLE = ROOT / "services" / "talentrag" / "sample_data" / "corpus" / "cvs"
FIXTURES = ROOT / "tests" / "fixtures" / "duplicates"
_PHONE = re.compile(r"\+?\(?\d{2,4}\)?[ .-]?\d{3,4}[ .-]?\d{3,4}\b")
_EMAIL = re.compile(r"\S+@\S+")


def markdown(text: str) -> str:
    """Headings as Markdown, bullets as '*', paragraphs re-flowed at 60 characters."""
    lines = []
    for line in text.splitlines():
        bare = line.strip()
        if bare and bare.isupper() and len(bare) < 40:
            lines.append("## " + bare.title())
        elif bare.startswith(("-", "•", "*")):
            lines.append("* " + bare.lstrip("-•* "))
        else:
            lines.append(line)
    paragraphs = re.split(r"\n\s*\n", "\n".join(lines))
    return "\n\n".join(
        p if p.lstrip().startswith(("#", "*")) else textwrap.fill(p, 60) for p in paragraphs
    )


def pdf_footers(text: str) -> str:
    lines = text.splitlines()
    middle = len(lines) // 2
    return "\n".join([*lines[:middle], "", "Page 1 of 2", "", *lines[middle:], "Page 2 of 2"])


def new_contacts(text: str) -> str:
    changed = _EMAIL.sub("new.address@mail.example.org", _PHONE.sub("+44 7700 900123", text))
    return changed if changed != text else text + "\nPhone: +44 7700 900123\n"


def extra_line(text: str) -> str:
    return text + "\nCertifications: AWS Certified Solutions Architect – Associate (2025)\n"


def one_more_bullet(text: str) -> str:
    lines = text.splitlines()
    at = len(lines) // 3
    bullet = "- Led the move of the reporting stack to a new platform, cutting costs by 20%."
    return "\n".join([*lines[:at], bullet, *lines[at:]])


def new_role(text: str) -> str:
    lines = text.splitlines()
    at = min(len(lines), 6)
    role = [
        "Senior Consultant, Brightwater Partners, London (Jan 2026 - Present)",
        "- Advise clients on the rollout of new processes and tooling across three regions.",
        "- Manage a team of four and report monthly to the partner in charge.",
        "- Introduced a review checklist that halved rework on client deliverables.",
    ]
    return "\n".join([*lines[:at], *role, *lines[at:]])


EDITS: dict[str, Callable[[str], str]] = {
    "markdown, re-flowed": markdown,
    "PDF page footers": pdf_footers,
    "new phone and e-mail": new_contacts,
    "extra line": extra_line,
    "one more bullet": one_more_bullet,
    "a whole new role": new_role,
    "markdown + contacts + line": lambda t: extra_line(new_contacts(markdown(t))),
}


def _signed(text: str) -> Signature:
    made = signature(text)
    assert made is not None
    return made


def _highest(texts: dict[str, str]) -> tuple[float, str, str]:
    signed = {name: _signed(text) for name, text in texts.items()}
    return max(
        (signed[a].similarity(signed[b]), a, b) for a, b in itertools.combinations(signed, 2)
    )


def main() -> None:
    """Print the margins."""
    devset = {p.name: read_document(p) for p in sorted(DEVSET.iterdir())}
    print(f"threshold {DUPLICATE_SIMILARITY}; same CV, lowest over {len(devset)} documents:")
    for name, edit in EDITS.items():
        low = min((_signed(t).similarity(_signed(edit(t))), n) for n, t in devset.items())
        print(f"  {name:28s} {low[0]:.3f}  ({low[1]})")
    print("different people, highest:")
    sample = {p.name: p.read_text() for p in sorted(SAMPLE.iterdir())}
    pairs = {
        "bootcamp template": ("jordan-kim.txt", "priya-raman.txt"),
        "Europass form": ("europass-anna-nowak.txt", "europass-luca-romano.txt"),
    }
    for label, texts in (("development set", devset), ("generated sample CVs", sample)):
        score, a, b = _highest(texts)
        print(f"  {label:28s} {score:.3f}  ({a} / {b})")
    for label, (a, b) in pairs.items():
        score = _signed((FIXTURES / a).read_text()).similarity(_signed((FIXTURES / b).read_text()))
        print(f"  {label:28s} {score:.3f}  ({a} / {b})")


if __name__ == "__main__":
    main()
