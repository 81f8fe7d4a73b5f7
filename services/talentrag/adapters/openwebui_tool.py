"""
title: talentrag candidate search
author: talentrag
version: 0.1.0
license: Apache-2.0
requirements: aiohttp
description: Find candidates by skills in a talentrag knowledge base, with matched and missing skills and CV evidence.
"""

# Paste this whole file into OpenWebUI: Workspace -> Tools -> "+" (see docs/openwebui.md).
# It only talks to the talentrag HTTP API; it imports nothing from talentrag.

from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from pydantic import BaseModel, Field

LEVELS = ("junior", "mid", "senior")


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

    def __init__(self) -> None:
        self.valves = self.Valves()

    async def search_candidates_by_skills(
        self,
        required_skills: list[str],
        preferred_skills: list[str] | None = None,
        experience_level: str | None = None,
        top_k: int | None = None,
        __event_emitter__: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
    ) -> str:
        """
        Find candidates who have the required skills, ranked by match, with the skills they miss and CV evidence.
        Use it for questions like "who has Kubernetes and AWS, senior, Terraform a plus?".
        :param required_skills: Skills every candidate must have, e.g. ["Kubernetes", "AWS"]. Aliases such as "K8s" work.
        :param preferred_skills: Nice-to-have skills that rank holders higher, e.g. ["Terraform"]. Optional.
                :param experience_level: One of junior, mid or senior (the service decides levels from years in the field). Leave empty for any level.
        :param top_k: How many candidates to return, 1 to 50. Leave empty for the default.
        """
        await _status(__event_emitter__, "Searching candidates in talentrag...", done=False)
        level = (experience_level or "").strip().lower() or None
        if level is not None and level not in LEVELS:
            await _status(__event_emitter__, "Invalid experience level", done=True)
            return f"experience_level must be one of {', '.join(LEVELS)} (or empty), not '{experience_level}'."
        body = {
            "required_skills": _as_list(required_skills),
            "preferred_skills": _as_list(preferred_skills or []),
            "experience_level": level,
            "top_k": top_k or self.valves.default_top_k,
        }
        try:
            result = await self._post("/v1/candidates/search", body)
        except TalentragError as exc:
            await _status(__event_emitter__, "talentrag search failed", done=True)
            return f"talentrag could not search: {exc}"
        count = len(result.get("candidates", []))
        await _status(
            __event_emitter__, f"Found {count} candidate{'s' if count != 1 else ''}", done=True
        )
        return render_markdown(result)

    async def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.valves.api_key}"} if self.valves.api_key else {}
        url = self.valves.service_url.rstrip("/") + path
        timeout = aiohttp.ClientTimeout(total=self.valves.timeout_s)
        try:
            async with (
                aiohttp.ClientSession(timeout=timeout) as session,
                session.post(url, json=body, headers=headers) as response,
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


def _as_list(value: list[str] | str) -> list[str]:
    """Models sometimes send "Kubernetes, AWS" where a list is asked for."""
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


def render_markdown(result: dict[str, Any]) -> str:
    """A table of candidates, then evidence quotes; the service's message when none match."""
    candidates = result.get("candidates") or []
    if not candidates:
        return result.get("message") or "No candidates found."
    lines = [
        f"**{result.get('query', 'Search')}** ({len(candidates)} shown of {result.get('total_considered', '?')} considered)",
        "",
        "| # | Candidate | Level | Score | Required matched | Preferred matched | Missing |",
        "|---|---|---|---|---|---|---|",
    ]
    for rank, c in enumerate(candidates, 1):
        years = f", {c['years_experience']:g} y" if c.get("years_experience") is not None else ""
        lines.append(
            f"| {rank} | {c['name']} (`{c['candidate_id']}`) | {c.get('experience_level') or '-'}{years} | "
            f"{c['match_score']:.2f} | {_cell(c['matched_required_skills'])} | {_cell(c['matched_preferred_skills'])} | "
            f"{_cell(c['missing_skills'])} |"
        )
    lines.append("")
    for c in candidates:
        lines.append(f"**{c['name']}**: {c.get('explanation', '')}")
        for evidence in c.get("evidence", []):
            quote = evidence["text"].replace("\n", " ")[:240]
            lines.append(
                f"> {quote}  \n> ({evidence.get('skill') or 'evidence'}, {evidence['source_file']} {evidence['start']}-{evidence['end']})"
            )
        lines.append("")
    return "\n".join(lines).rstrip()
