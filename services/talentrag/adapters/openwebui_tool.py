"""
title: talentrag candidate search
author: talentrag
version: 0.2.0
license: Apache-2.0
requirements: aiohttp
description: Find candidates in a talentrag knowledge base by skills, a recruiter's words or a job description, with matched, partial and missing skills and CV evidence.
"""

# Paste this whole file into OpenWebUI: Workspace -> Tools -> "+" (see docs/openwebui.md).
# It only talks to the talentrag HTTP API; it imports nothing from talentrag.

from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from pydantic import BaseModel, Field

Emitter = Callable[[dict[str, Any]], Awaitable[None]]
MAX_DOCUMENTS_SHOWN = 100


class Tools:
    """The OpenWebUI tool: candidate search through the talentrag HTTP API."""

    class Valves(BaseModel):
        """Settings an OpenWebUI admin edits: where the service is and how to call it."""

        service_url: str = Field(
            "http://talentrag:8000", description="Base URL of the talentrag HTTP API."
        )
        api_key: str = Field(
            "", description="talentrag API key (leave empty when the service has no keys)."
        )
        default_top_k: int = Field(
            5, ge=1, le=50, description="Candidates to return when the model does not say."
        )
        timeout_s: float = Field(30.0, gt=0, description="Seconds to wait for the service.")
        always_blind: bool = Field(
            False,
            description="Fair screening: never show names, contact details or file names, "
            "whatever the model asks.",
        )

    def __init__(self) -> None:
        self.valves = self.Valves()

    async def search_candidates_by_skills(
        self,
        required_skills: list[str] | None = None,
        preferred_skills: list[str] | None = None,
        experience_level: str | None = None,
        top_k: int | None = None,
        query: str | None = None,
        job_description_id: str | None = None,
        job_description_text: str | None = None,
        min_years: float | None = None,
        exclude_skills: list[str] | None = None,
        include_partial: bool | None = None,
        cursor: str | None = None,
        blind: bool | None = None,
        __event_emitter__: Emitter | None = None,
    ) -> str:
        """
        Find candidates for a role, ranked, with the skills each has, has only partly (a related skill stands in) or lacks, and CV evidence.
        Give required_skills, or the recruiter's words as query, or a job description (job_description_id from list_job_descriptions, or job_description_text).
        Use it for questions like "who has Kubernetes and AWS, mid or senior, Terraform a plus, no PHP?".
        :param required_skills: Skills every candidate must have, e.g. ["Kubernetes", "AWS"]. Aliases such as "K8s" work. Leave empty when giving query or a job description.
        :param preferred_skills: Nice-to-have skills that rank holders higher, e.g. ["Terraform"]. Optional.
        :param experience_level: junior, mid or senior, or several such as "mid or senior" (the service decides levels from years in the field). Leave empty for any level.
        :param top_k: How many candidates to return, 1 to 50. Leave empty for the default.
        :param query: The recruiter's request in their own words, e.g. "senior python developer with kubernetes, terraform a plus". Read into skills, level and years; other arguments given win.
        :param job_description_id: Id of a stored job description (from list_job_descriptions) to find candidates for.
        :param job_description_text: A job description pasted by the user, to find candidates for.
        :param min_years: Only candidates with at least this many years of experience, e.g. 5.
        :param exclude_skills: Leave out everyone who has any of these skills, e.g. ["PHP"].
        :param include_partial: true to also list candidates who lack a required skill but have a related one (shown in the Partial column). Leave empty for the default (no for skills, yes for query or a job description).
        :param cursor: To see more candidates of the same search: the cursor given at the end of the previous answer, with the same other arguments.
        :param blind: true to hide names, contact details and file names (fair screening). Leave empty for the default.
        """
        await _status(__event_emitter__, "Searching candidates in talentrag...", done=False)
        arguments = {
            "required_skills": _as_list(required_skills),
            "preferred_skills": _as_list(preferred_skills),
            "exclude_skills": _as_list(exclude_skills),
            "experience_level": experience_level or None,
            "min_years": min_years,
            "query": query or None,
            "job_description_id": job_description_id or None,
            "job_description_text": job_description_text or None,
            "include_partial": include_partial,
            "cursor": cursor or None,
            "blind": True if self.valves.always_blind else blind,
            "top_k": top_k or self.valves.default_top_k,
        }
        body = {key: value for key, value in arguments.items() if value not in (None, [])}
        try:
            result = await self._call("POST", "/v1/candidates/search", body=body)
        except TalentragError as exc:
            await _status(__event_emitter__, "talentrag search failed", done=True)
            return f"talentrag could not search: {exc}"
        count = len(result.get("candidates", []))
        await _status(
            __event_emitter__, f"Found {count} candidate{'s' if count != 1 else ''}", done=True
        )
        read_text = bool(query or job_description_id or job_description_text)
        return render_markdown(result, read_text=read_text)

    async def list_job_descriptions(self, __event_emitter__: Emitter | None = None) -> str:
        """
        List the job descriptions (and job profiles, company pages) stored in talentrag, with their ids, names and the skills they name.
        Use it to find the job_description_id for a role before searching candidates for it, e.g. "who fits our platform engineer opening?".
        """
        await _status(__event_emitter__, "Listing job descriptions in talentrag...", done=False)
        try:
            page = await self._call(
                "GET", "/v1/documents", params={"limit": str(MAX_DOCUMENTS_SHOWN)}
            )
        except TalentragError as exc:
            await _status(__event_emitter__, "talentrag listing failed", done=True)
            return f"talentrag could not list documents: {exc}"
        documents = page.get("data") or []
        await _status(__event_emitter__, f"Found {len(documents)} documents", done=True)
        return render_documents(documents, more=bool(page.get("has_more")))

    async def _call(
        self,
        method: str,
        path: str,
        *,
        body: dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.valves.api_key}"} if self.valves.api_key else {}
        url = self.valves.service_url.rstrip("/") + path
        timeout = aiohttp.ClientTimeout(total=self.valves.timeout_s)
        try:
            async with (
                aiohttp.ClientSession(timeout=timeout) as session,
                session.request(method, url, json=body, params=params, headers=headers) as response,
            ):
                payload = await response.json(content_type=None)
                if response.status >= 400:
                    detail = payload.get("detail") if isinstance(payload, dict) else None
                    raise TalentragError(f"{response.status}: {detail or 'request failed'}")
                if not isinstance(payload, dict):
                    raise TalentragError("the service sent an answer that is not a JSON object")
                return payload
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise TalentragError(
                f"service at {self.valves.service_url} is unreachable ({type(exc).__name__})"
            ) from exc
        except ValueError as exc:
            raise TalentragError("the service sent an answer that is not JSON") from exc


def _as_list(value: list[str] | str | None) -> list[str]:
    """Models sometimes send "Kubernetes, AWS" where a list is asked for, or nothing."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.replace(";", ",").split(",") if part.strip()]
    return list(value)


class TalentragError(Exception):
    """A failed call, phrased for the recruiter."""


async def _status(
    emitter: Callable[[dict[str, Any]], Awaitable[None]] | None, description: str, *, done: bool
) -> None:
    if emitter is not None:
        await emitter({"type": "status", "data": {"description": description, "done": done}})


def _cell(values: list[str]) -> str:
    return ", ".join(values).replace("|", "/") or "-"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _candidate_cell(candidate: dict[str, Any]) -> str:
    cell = f"{candidate['name']} (`{candidate['candidate_id']}`)"
    duplicates = candidate.get("duplicates") or []
    if duplicates:
        cell += f" + same person as {', '.join(f'`{d}`' for d in duplicates)}"
    return cell.replace("|", "/")


def _partial_cell(candidate: dict[str, Any]) -> str:
    """'TypeScript ~ Angular': the requested skill, then the skill that stood in for it."""
    return _cell(
        [
            f"{p['requested']} ~ {p['stand_in']}" + ("" if p.get("required") else " (preferred)")
            for p in candidate.get("partial_skills") or []
        ]
    )


def _resolved_lines(result: dict[str, Any]) -> list[str]:
    """The structured search a query or job description became, to check or correct."""
    resolved = result.get("resolved_request") or {}
    if not resolved:
        return []
    parts = [f"required **{_cell(resolved.get('required_skills') or [])}**"]
    if resolved.get("preferred_skills"):
        parts.append(f"preferred {_cell(resolved['preferred_skills'])}")
    if resolved.get("experience_level"):
        parts.append(f"level {' or '.join(resolved['experience_level'])}")
    if resolved.get("min_years") is not None:
        parts.append(f"at least {resolved['min_years']:g} years")
    if resolved.get("exclude_skills"):
        parts.append(f"excluding {_cell(resolved['exclude_skills'])}")
    lines = [f"Read the request as: {'; '.join(parts)}."]
    notes = result.get("request_notes") or []
    if notes:
        lines.append(f"_({'; '.join(notes)})_")
    return [*lines, ""]


def render_markdown(result: dict[str, Any], *, read_text: bool = False) -> str:
    """A table of candidates (matched, partial and missing skills apart), then evidence
    quotes; the service's message when none match. ``read_text``: the search came from a
    query or job description, so say how it was read."""
    resolved = _resolved_lines(result) if read_text else []
    candidates = result.get("candidates") or []
    if not candidates:
        message = result.get("message") or "No candidates found."
        return "\n".join([message, "", *resolved]).rstrip()
    total = result.get("total", len(candidates))
    summary = f"showing {len(candidates)} of {_plural(total, 'candidate')}"
    qualifying = result.get("total_qualifying", total)
    if qualifying < total:
        summary += f"; {qualifying or 'none'} with every required skill matched"
    preferred = bool((result.get("resolved_request") or {}).get("preferred_skills"))
    columns = ["#", "Candidate", "Level", "Score", "Required matched"]
    columns += ["Preferred matched"] if preferred else []
    columns += ["Partial", "Missing required"] + (["Missing preferred"] if preferred else [])
    lines = [
        f"**{result.get('query', 'Search')}** ({summary})",
        "",
        *([result["message"], ""] if result.get("message") else []),
        *resolved,
        "| " + " | ".join(columns) + " |",
        "|" + "---|" * len(columns),
    ]
    for rank, c in enumerate(candidates, 1):
        years = f", {c['years_experience']:g} y" if c.get("years_experience") is not None else ""
        cells = [
            str(rank),
            _candidate_cell(c),
            f"{c.get('experience_level') or '-'}{years}",
            f"{c['match_score']:.2f}",
            _cell(c["matched_required_skills"]),
        ]
        cells += [_cell(c["matched_preferred_skills"])] if preferred else []
        cells += [_partial_cell(c), _cell(c["missing_skills"])]
        cells += [_cell(c.get("missing_preferred_skills") or [])] if preferred else []
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for c in candidates:
        lines.append(f"**{c['name']}**: {c.get('explanation', '')}")
        for evidence in c.get("evidence", []):
            quote = evidence["text"].replace("\n", " ")[:240]
            lines.append(
                f"> {quote}  \n> ({evidence.get('skill') or 'evidence'}, {evidence['source_file']} {evidence['start']}-{evidence['end']})"
            )
        lines.append("")
    if result.get("next_cursor"):
        lines.append(
            f"More candidates: search again with the same arguments and cursor `{result['next_cursor']}`."
        )
    return "\n".join(lines).rstrip()


def render_documents(documents: list[dict[str, Any]], *, more: bool = False) -> str:
    """Stored job descriptions and other documents, with the id to search by."""
    if not documents:
        return "No job descriptions are stored in talentrag."
    lines = [
        "| Id (job_description_id) | Type | Name | Skills named |",
        "|---|---|---|---|",
    ]
    for d in documents:
        kind = str(d.get("document_type", "")).replace("_", " ")
        name = str(d.get("name", "")).replace("|", "/")
        lines.append(f"| `{d['id']}` | {kind} | {name} | {_cell(d.get('skills') or [])} |")
    if more:
        lines += ["", f"(The first {len(documents)} are shown; more are stored.)"]
    return "\n".join(lines)
