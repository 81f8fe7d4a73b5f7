"""MCP server for recruiter assistants (official `mcp` SDK 2.x, MCPServer).

Tools: search_by_skills, get_candidate, list_documents, get_document, ingest_cv. The
same server runs over stdio (`talentrag mcp`) and Streamable HTTP at /mcp on the REST
API's port. Thin: it parses arguments, calls the application layer, and turns
talentrag's errors into one-sentence tool errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, ListToolsResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from talentrag.adapters.auth import tenant_for
from talentrag.adapters.pages import DocumentPage, document_page
from talentrag.application import TalentService, TextDocument
from talentrag.config import Scope
from talentrag.domain import DocumentRecord, DocumentType
from talentrag.errors import InvalidInput, TalentragError
from talentrag.policy.levels import BANDS_TEXT
from talentrag.policy.limits import MAX_TOP_K, MIN_TEXT_CHARS
from talentrag.search import SearchRequest, SearchResponse

INSTRUCTIONS = (
    "Search a recruiter's candidate knowledge base. Use search_by_skills with the must-have "
    "skills as required_skills and nice-to-haves as preferred_skills (aliases work: 'K8s', "
    "'Postgres', 'sklearn'), or pass the recruiter's words as query ('senior python "
    "developer with kubernetes, terraform a plus'), or search for a job description: "
    "list_documents gives stored job descriptions' ids (job_description_id), or paste one "
    "as job_description_text. Narrow with experience_level (one level or several), "
    "min_years and exclude_skills. Results say per skill whether it is matched, partial "
    "(only a related skill stands in, named) or missing; say 'partial' when you report "
    "those. When the answer has a next_cursor, call again with the same arguments and "
    "that cursor for more. Then get_candidate for a full profile and evidence."
)


def _tenant(service: TalentService, ctx: Context, scope: Scope = "read") -> str:
    request = ctx.request_context.request if ctx.request_context else None
    if request is None:  # stdio: the configured tenant, as the local user
        return service.settings.tenant
    return tenant_for(service.settings, request.headers, scope)


def render_search(response: SearchResponse, read_text: bool = False) -> str:
    """What an assistant reads: how a query or job description was read (``read_text``),
    then one short block per candidate with matched, partial and missing skills apart,
    then the next cursor."""
    lines = _request_lines(response) if read_text else []
    if not response.candidates:
        return "\n".join([response.message or "No candidates found.", *lines])
    shown = len(response.candidates)
    header = f"{shown} of {response.total} candidate{'' if response.total == 1 else 's'}"
    if response.total_qualifying < response.total:
        qualifying = response.total_qualifying or "none"
        header += f" ({qualifying} with every required skill matched)"
    lines.insert(0, f"{header} for: {response.query}")
    if response.message:
        lines.insert(1, response.message)
    preferred = bool(response.resolved_request and response.resolved_request.preferred_skills)
    for rank, c in enumerate(response.candidates, 1):
        years = f", {c.years_experience:g} years" if c.years_experience is not None else ""
        lines.append(
            f"{rank}. {c.name} ({c.candidate_id}, {c.experience_level or 'level unknown'}) "
            f"score {c.match_score:.2f}{years}"
        )
        matched = f"   required: {_names(c.matched_required_skills)}"
        if preferred:
            matched += f"; preferred: {_names(c.matched_preferred_skills)}"
        lines.append(matched)
        if c.partial_skills:
            partial = [f"{p.requested} ~ {p.stand_in} (partial)" for p in c.partial_skills]
            lines.append(f"   partial: {', '.join(partial)}")
        missing = [
            f"missing {kind}: {', '.join(names)}"
            for kind, names in (
                ("required", c.missing_skills),
                ("preferred", c.missing_preferred_skills),
            )
            if names
        ]
        if missing:
            lines.append(f"   {'; '.join(missing)}")
        if c.duplicates:
            lines.append(f"   same person as: {', '.join(c.duplicates)} (not listed again)")
        lines += [
            f'   "{e.text[:160]}" ({e.source_file} {e.start}-{e.end})' for e in c.evidence[:2]
        ]
    if response.next_cursor:
        lines.append(
            f'More: call again with the same arguments and cursor "{response.next_cursor}".'
        )
    return "\n".join(lines)


def _names(values: list[str]) -> str:
    return ", ".join(values) or "-"


def _request_lines(response: SearchResponse) -> list[str]:
    """The structured request a query or job description became (when one was read)."""
    resolved = response.resolved_request
    if resolved is None:
        return []
    parts = [f"required {_names(resolved.required_skills)}"]
    if resolved.preferred_skills:
        parts.append(f"preferred {_names(resolved.preferred_skills)}")
    if resolved.experience_level:
        parts.append(f"level {' or '.join(level.value for level in resolved.experience_level)}")
    if resolved.min_years is not None:
        parts.append(f"at least {resolved.min_years:g} years")
    if resolved.exclude_skills:
        parts.append(f"excluding {_names(resolved.exclude_skills)}")
    notes = f" ({'; '.join(response.request_notes)})" if response.request_notes else ""
    return [f"Read as: {'; '.join(parts)}{notes}."]


class TalentragMCPServer(MCPServer):
    """MCPServer that maps talentrag's errors once, for every tool: one sentence each.

    Unknown arguments are refused (as HTTP refuses unknown fields) naming the ones the
    tool takes; schema errors (the SDK's or a request model's) are worded by
    ``InvalidInput.from_validation``; a ``TalentragError`` raised by a tool becomes its
    message. Anything else stays the SDK's generic crash message. Over HTTP, a key
    without the ``write`` scope is not offered the write tools (assistants such as
    OpenWebUI offer the model every listed tool).
    """

    def __init__(self, service_of: Callable[[], TalentService], **kwargs: Any):
        super().__init__(**kwargs)
        self.service_of = service_of

    async def _handle_list_tools(self, ctx: Any, params: Any) -> ListToolsResult:
        result: ListToolsResult = await super()._handle_list_tools(ctx, params)
        if not self._may_write(ctx):
            result.tools = [
                t for t in result.tools if t.annotations is None or t.annotations.read_only_hint
            ]
        return result

    def _may_write(self, ctx: Any) -> bool:
        request = getattr(ctx, "request", None)
        if request is None:  # stdio: the local user
            return True
        try:
            tenant_for(self.service_of().settings, request.headers, "write")
        except TalentragError:
            return False
        return True

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        """Check the argument names, then run the tool with readable errors."""
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            known = sorted(tool.parameters.get("properties", {}))
            unknown = sorted(set(arguments) - set(known))
            if unknown:
                raise ToolError(
                    f"unknown argument '{unknown[0]}'; {name} takes: {', '.join(known)}"
                )
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                cause = InvalidInput.from_validation(cause)
            if isinstance(cause, TalentragError):
                raise ToolError(cause.message) from exc
            raise


def build_mcp_server(service_of: Callable[[], TalentService]) -> MCPServer:
    """An MCP server whose tools call the application returned by ``service_of()``."""
    server = TalentragMCPServer(service_of, name="talentrag", instructions=INSTRUCTIONS)

    @server.tool(
        name="search_by_skills",
        title="Search candidates",
        description=(
            "Rank candidates by required and preferred skills, a free-text query, or a job "
            "description (stored: job_description_id from list_documents; or pasted). Returns, "
            "per candidate, the skills matched, partial (a related skill stands in, named) and "
            "missing (required and preferred apart), level, years, a score and CV evidence; "
            "how a query or job description was read (resolved_request); the total and a "
            "cursor for the next page. "
            'Example: {"required_skills": ["Kubernetes", "AWS"], "preferred_skills": ["Terraform"], '
            '"experience_level": "mid or senior", "min_years": 3, "exclude_skills": ["PHP"]}. '
            'Example: {"query": "senior python developer with kubernetes, terraform a plus"}. '
            'Example: {"job_description_id": "jd-platform-engineer", "top_k": 10}.'
        ),
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    async def search_by_skills(
        ctx: Context,
        required_skills: Annotated[
            list[str] | str,
            Field(
                description="Must-have skills (up to 20), e.g. ['Python', 'K8s'] (a "
                "comma-separated string works too). Needed unless query or a job "
                "description is given."
            ),
        ] = [],  # noqa: B006
        preferred_skills: Annotated[
            list[str] | str, Field(description="Nice-to-have skills (0-20); holders rank higher.")
        ] = [],  # noqa: B006
        experience_level: Annotated[
            list[str] | str | None,
            Field(
                description=f"Levels to return: {BANDS_TEXT}. One ('senior') or several "
                "('mid or senior', ['mid', 'senior']). Omit for any level."
            ),
        ] = None,
        min_years: Annotated[
            float | None, Field(description="Only candidates with at least this many years.")
        ] = None,
        exclude_skills: Annotated[
            list[str] | str,
            Field(description="Nobody holding any of these skills is returned, e.g. ['PHP']."),
        ] = [],  # noqa: B006
        query: Annotated[
            str | None,
            Field(
                description="The recruiter's request in words, e.g. 'senior python developer "
                "with kubernetes, terraform a plus'; read into skills, level and years. "
                "Arguments given beside it win."
            ),
        ] = None,
        job_description_id: Annotated[
            str | None,
            Field(description="Search for a stored job description's requirements (its id)."),
        ] = None,
        job_description_text: Annotated[
            str | None, Field(description="Search for a pasted job description's requirements.")
        ] = None,
        include_partial: Annotated[
            bool | None,
            Field(
                description="true: also list, after those with every required skill, "
                "candidates for whom a related skill stands in (shown as partial). Omit: "
                "no for skills, yes for a query or job description."
            ),
        ] = None,
        top_k: Annotated[
            int, Field(description=f"Candidates per page (1-{MAX_TOP_K}, default 5).")
        ] = 5,
        cursor: Annotated[
            str | None,
            Field(description="next_cursor of the previous answer (same other arguments)."),
        ] = None,
        blind: Annotated[
            bool | None,
            Field(
                description="true: withhold names, contact details and files (fair "
                "screening). Omit for the tenant's default."
            ),
        ] = None,
    ) -> Annotated[CallToolResult, SearchResponse]:
        service = service_of()
        request = SearchRequest.model_validate(
            {
                "required_skills": required_skills,
                "preferred_skills": preferred_skills,
                "experience_level": experience_level,
                "min_years": min_years,
                "exclude_skills": exclude_skills,
                "query": query,
                "job_description_id": job_description_id,
                "job_description_text": job_description_text,
                "include_partial": include_partial,
                "top_k": top_k,
                "cursor": cursor,
                "blind": blind,
            }
        )
        response = await service.search(request, _tenant(service, ctx))
        return CallToolResult(
            content=[TextContent(type="text", text=render_search(response, request.reads_text))],
            structured_content=response.model_dump(mode="json"),
        )

    @server.tool(
        name="get_candidate",
        title="Get a candidate profile",
        description="A candidate's profile: skills with evidence passages, experience level, years, roles. "
        'Example: {"candidate_id": "cv-00042"}.',
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    async def get_candidate(
        ctx: Context,
        candidate_id: Annotated[str, Field(description="The candidate_id from search_by_skills.")],
    ) -> DocumentRecord:
        service = service_of()
        return await service.get_candidate(_tenant(service, ctx), candidate_id)

    @server.tool(
        name="list_documents",
        title="List job descriptions",
        description="Stored job descriptions (and company pages, job profiles) by id, with the "
        "skills they name; never candidates. Pass an id as job_description_id to "
        "search_by_skills. "
        'Example: {"document_type": "job_description", "limit": 20}.',
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    async def list_documents(
        ctx: Context,
        document_type: Annotated[
            DocumentType | None,
            Field(
                description="job_description, company_page or job_profile; omit for all "
                "documents that are not CVs."
            ),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="Page size (1-100).")] = 20,
        cursor: Annotated[
            str | None, Field(description="next_cursor of the previous page.")
        ] = None,
    ) -> DocumentPage:
        service = service_of()
        return await document_page(service, _tenant(service, ctx), limit, cursor, document_type)

    @server.tool(
        name="get_document",
        title="Get a stored document",
        description="A stored document of any type (e.g. a job description from "
        "list_documents): its type, name and the skills it names with passages. "
        'Example: {"document_id": "jd-platform-engineer"}.',
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    async def get_document(
        ctx: Context,
        document_id: Annotated[str, Field(description="The id from list_documents.")],
    ) -> DocumentRecord:
        service = service_of()
        return await service.get_document(_tenant(service, ctx), document_id)

    @server.tool(
        name="ingest_cv",
        title="Add or replace a CV",
        description="Add a CV as plain text, or replace the candidate with the same id. "
        'Example: {"text": "Jane Doe\\nSenior DevOps engineer since 2016: Kubernetes, AWS", "candidate_id": "jane-doe"}.',
        annotations=ToolAnnotations(
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=True,
            open_world_hint=False,
        ),
    )
    async def ingest_cv(
        ctx: Context,
        text: Annotated[
            str, Field(description=f"The CV as plain text (at least {MIN_TEXT_CHARS} characters).")
        ],
        candidate_id: Annotated[
            str, Field(description="Id to store it under; the same id replaces the candidate.")
        ],
        name: Annotated[
            str | None,
            Field(description="The candidate's name if the text does not start with it."),
        ] = None,
        source_file: Annotated[
            str | None, Field(description="File name to cite as evidence source.")
        ] = None,
    ) -> DocumentRecord:
        service = service_of()
        return await service.ingest_text_job(
            _tenant(service, ctx, "write"),
            TextDocument(candidate_id, text, name=name, source_file=source_file),
        )

    return server
