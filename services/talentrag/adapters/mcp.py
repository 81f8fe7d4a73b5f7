"""MCP server for recruiter assistants (official `mcp` SDK 2.x, MCPServer).

Tools: search_by_skills, get_candidate, ingest_cv. The same server runs over stdio
(`talentrag mcp`) and Streamable HTTP at /mcp on the REST API's port. Thin: it
parses arguments, calls the application layer, and turns talentrag's errors into
one-sentence tool errors.
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
from talentrag.application import TalentService, TextDocument
from talentrag.config import Scope
from talentrag.domain import DocumentRecord
from talentrag.errors import InvalidInput, TalentragError
from talentrag.policy.levels import BANDS_TEXT
from talentrag.policy.limits import MAX_TOP_K, MIN_TEXT_CHARS
from talentrag.search import SearchRequest, SearchResponse

INSTRUCTIONS = (
    "Search a recruiter's candidate knowledge base by skills. Use search_by_skills with the "
    "must-have skills as required_skills and nice-to-haves as preferred_skills; aliases work "
    "('K8s', 'Postgres', 'sklearn'). Then get_candidate for the full profile and evidence."
)


def _tenant(service: TalentService, ctx: Context, scope: Scope = "read") -> str:
    request = ctx.request_context.request if ctx.request_context else None
    if request is None:  # stdio: the configured tenant, as the local user
        return service.settings.tenant
    return tenant_for(service.settings, request.headers, scope)


def render_search(response: SearchResponse) -> str:
    """What an assistant reads: the message, or one short block per candidate."""
    if not response.candidates:
        return response.message or "No candidates found."
    lines = [f"{len(response.candidates)} candidates for: {response.query}"]
    for rank, c in enumerate(response.candidates, 1):
        lines.append(
            f"{rank}. {c.name} ({c.candidate_id}, {c.experience_level or 'level unknown'}) score {c.match_score:.2f}; "
            f"required: {', '.join(c.matched_required_skills) or '-'}; preferred: {', '.join(c.matched_preferred_skills) or '-'}; "
            f"missing: {', '.join(c.missing_skills) or '-'}"
        )
        lines += [
            f'   "{e.text[:160]}" ({e.source_file} {e.start}-{e.end})' for e in c.evidence[:2]
        ]
    return "\n".join(lines)


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
        title="Search candidates by skills",
        description=(
            "Rank candidates by required and preferred skills, optionally at one experience level. "
            "Returns matched, preferred and missing skills, level, a match score and CV evidence. "
            'Example: {"required_skills": ["Kubernetes", "AWS"], "preferred_skills": ["Terraform"], '
            '"experience_level": "senior", "top_k": 5}. '
            'Example: {"required_skills": ["Python", "Machine Learning"]}.'
        ),
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    async def search_by_skills(
        ctx: Context,
        required_skills: Annotated[
            list[str] | str,
            Field(
                description="Must-have skills (1-20), e.g. ['Python', 'K8s'] "
                "(a comma-separated string works too)."
            ),
        ],
        preferred_skills: Annotated[
            list[str] | str, Field(description="Nice-to-have skills (0-20); holders rank higher.")
        ] = [],  # noqa: B006
        experience_level: Annotated[
            str | None,
            Field(description=f"One of junior, mid or senior: {BANDS_TEXT}. Omit for any level."),
        ] = None,
        top_k: Annotated[
            int, Field(description=f"How many candidates to return (1-{MAX_TOP_K}, default 5).")
        ] = 5,
    ) -> Annotated[CallToolResult, SearchResponse]:
        service = service_of()
        request = SearchRequest.model_validate(
            {
                "required_skills": required_skills,
                "preferred_skills": preferred_skills,
                "experience_level": experience_level,
                "top_k": top_k,
            }
        )
        response = await service.search(request, _tenant(service, ctx))
        return CallToolResult(
            content=[TextContent(type="text", text=render_search(response))],
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
