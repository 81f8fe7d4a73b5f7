"""The five CV layouts: plain text, Markdown, key-value, compact prose, Markdown with bold labels.

A layout only arranges what sections.py wrote; it adds headings, labels,
contact lines and bullet marks, none of which spell a skill.
"""

from __future__ import annotations

import random

from tests.support.generator.sections import CvDoc
from tests.support.generator.timeline import Role

LAYOUTS = {
    "plain": ".txt",
    "markdown": ".md",
    "keyvalue": ".txt",
    "compact": ".txt",
    "markdown_bold": ".md",
}
"""Layout name -> file extension."""


def _skill_items(doc: CvDoc) -> list[str]:
    return [*doc.skills, doc.suffix] if doc.suffix else list(doc.skills)


def _role_lines_plain(role: Role, rng: random.Random) -> list[str]:
    head = rng.choice(
        (
            f"{role.title}, {role.company}, {role.city}\n{role.dates}",
            f"{role.title} | {role.company} | {role.dates}",
            f"{role.company} ({role.city})\n{role.title}, {role.dates}",
        )
    )
    mark = rng.choice(("- ", "• ", "* "))
    return [head, *(mark + b for b in role.bullets), ""]


def _education_line(entry: tuple[str, str, str]) -> str:
    degree, school, dates = entry
    return f"{degree}, {school}, {dates}"


def _extra_plain(doc: CvDoc, caps: bool) -> list[str]:
    """Optional sections (certifications, projects, languages, interests, goals)."""
    lines: list[str] = []
    sections = (
        ("certifications", doc.certifications),
        ("projects", doc.projects),
        ("languages", doc.languages),
        ("interests", doc.interests),
        ("goals", doc.goals),
    )
    for key, items in sections:
        if items:
            heading = doc.headings[key]
            lines += [heading.upper() if caps else f"{heading}:", *(f"- {i}" for i in items), ""]
    return lines


def render_plain(doc: CvDoc, rng: random.Random) -> str:
    """Plain text with UPPERCASE headings."""
    h = {k: v.upper() for k, v in doc.headings.items()}
    lines = [doc.name]
    if doc.headline:
        lines.append(doc.headline)
    lines += [
        f"{doc.email} | {doc.phone} | {doc.city}",
        "",
        h["summary"],
        " ".join(doc.summary),
        "",
        h["experience"],
    ]
    for role in doc.roles:
        lines += _role_lines_plain(role, rng)
    lines.append(h["skills"])
    if rng.random() < 0.5 and len(doc.groups) > 1:
        lines += [f"{label}: {', '.join(items)}" for label, items in doc.groups]
        if doc.suffix:
            lines[-1] += f", {doc.suffix}"
    else:
        lines.append(rng.choice((", ", " · ", " | ")).join(_skill_items(doc)))
    if doc.learning:
        lines.append(doc.learning)
    lines += ["", h["education"], *(_education_line(e) for e in doc.education), ""]
    return "\n".join(lines + _extra_plain(doc, caps=True)).rstrip() + "\n"


def render_markdown(doc: CvDoc, rng: random.Random) -> str:
    """Markdown with # name, ## sections, ### roles and bullet lists."""
    h = doc.headings
    lines = [f"# {doc.name}", ""]
    if doc.headline:
        lines += [f"**{doc.headline}**", ""]
    lines += [
        f"{doc.email} · {doc.phone} · {doc.city}",
        "",
        f"## {h['summary']}",
        "",
        " ".join(doc.summary),
        "",
        f"## {h['experience']}",
        "",
    ]
    for role in doc.roles:
        lines += [f"### {role.title} — {role.company}", f"*{role.dates} · {role.city}*", ""]
        lines += [f"- {b}" for b in role.bullets] + [""]
    lines += [f"## {h['skills']}", ""]
    if rng.random() < 0.5:
        lines += [f"- {item}" for item in _skill_items(doc)]
    else:
        lines += [f"- **{label}:** {', '.join(items)}" for label, items in doc.groups]
        if doc.suffix:
            lines[-1] += f", {doc.suffix}"
    if doc.learning:
        lines.append(f"- {doc.learning}")
    lines += ["", f"## {h['education']}", ""]
    lines += [f"- **{d}**, {s} ({dates})" for d, s, dates in doc.education] + [""]
    for key in ("certifications", "projects", "languages", "interests", "goals"):
        items = getattr(doc, key)
        if items:
            lines += [f"## {h[key]}", "", *(f"- {i}" for i in items), ""]
    return "\n".join(lines).rstrip() + "\n"


def render_keyvalue(doc: CvDoc, rng: random.Random) -> str:
    """'Name: X' header block, then labelled sections."""
    h = doc.headings
    lines = [
        f"Name: {doc.name}",
        f"Email: {doc.email}",
        f"Phone: {doc.phone}",
        f"Location: {doc.city}",
    ]
    if doc.headline:
        lines.append(f"Title: {doc.headline}")
    lines += ["", f"{h['summary']}:", " ".join(doc.summary), "", f"{h['experience']}:"]
    for role in doc.roles:
        lines.append(f"* {role.dates}: {role.title} at {role.company} ({role.city})")
        lines += [f"  - {b}" for b in role.bullets]
    lines += ["", f"{h['skills']}: {', '.join(_skill_items(doc))}"]
    if doc.learning:
        lines.append(doc.learning)
    lines += ["", f"{h['education']}:", *(f"* {_education_line(e)}" for e in doc.education), ""]
    return "\n".join(lines + _extra_plain(doc, caps=False)).rstrip() + "\n"


def render_compact(doc: CvDoc, rng: random.Random) -> str:
    """A short one: contact line, a Skills: line and experience as prose paragraphs."""
    lines = [doc.name, f"{doc.city} · {doc.email} · {doc.phone}", ""]
    lines += [f"Skills: {', '.join(_skill_items(doc))}"]
    if doc.learning:
        lines.append(doc.learning)
    lines += ["", " ".join(doc.summary), ""]
    for role in doc.roles:
        head = rng.choice(
            (
                f"{role.title} at {role.company}, {role.city} ({role.dates}).",
                f"{role.dates}: {role.title}, {role.company}.",
            )
        )
        lines += [" ".join([head, *role.bullets]), ""]
    education = "; ".join(f"{d}, {s} ({dates})" for d, s, dates in doc.education)
    if education:
        lines += [f"Education: {education}.", ""]
    for key in ("certifications", "languages", "projects", "interests", "goals"):
        items = getattr(doc, key)
        if items:
            joined = " ".join(items) if key in ("projects", "goals") else ", ".join(items)
            lines.append(f"{doc.headings[key]}: {joined}")
    return "\n".join(lines).rstrip() + "\n"


def render_markdown_bold(doc: CvDoc, rng: random.Random) -> str:
    """Markdown with bold labels instead of headings."""
    h = doc.headings
    lines = [
        f"# {doc.name}",
        "",
        f"**Email:** {doc.email}  ",
        f"**Phone:** {doc.phone}  ",
        f"**Location:** {doc.city}",
        "",
        f"**{h['summary']}**",
        "",
        " ".join(doc.summary),
        "",
        f"**{h['experience']}**",
        "",
    ]
    for role in doc.roles:
        lines += [f"**{role.title}**, {role.company}, {role.city} | {role.dates}", ""]
        lines += [f"* {b}" for b in role.bullets] + [""]
    lines += [f"**{h['skills']}:** {', '.join(_skill_items(doc))}", ""]
    if doc.learning:
        lines += [doc.learning, ""]
    lines += [f"**{h['education']}**", ""]
    lines += [f"* {_education_line(e)}" for e in doc.education] + [""]
    for key in ("certifications", "projects", "languages", "interests", "goals"):
        items = getattr(doc, key)
        if items:
            lines += [f"**{h[key]}**", "", *(f"* {i}" for i in items), ""]
    return "\n".join(lines).rstrip() + "\n"


RENDERERS = {
    "plain": render_plain,
    "markdown": render_markdown,
    "keyvalue": render_keyvalue,
    "compact": render_compact,
    "markdown_bold": render_markdown_bold,
}
