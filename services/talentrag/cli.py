"""The ``talentrag`` command line: ingest, inspect, summarise, re-analyse.

Thin: it parses arguments, calls the application layer and prints. Every
``talentrag.errors`` error is one line on stderr with its exit code (2 when the
user can fix it), never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import date
from pathlib import Path

from talentrag.startup import collection_paused, pause_collection

with collection_paused():  # see talentrag.startup
    from pydantic import ValidationError
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.table import Column, Table

    from talentrag.application import (
        TalentService,
        expand_paths,
        open_service,
        require_paths,
    )
    from talentrag.config import Settings
    from talentrag.domain import DocumentRecord, DocumentType
    from talentrag.errors import ConfigurationError, InvalidInput, TalentragError
    from talentrag.ingestion.analyze import document_id_for
    from talentrag.ingestion.pipeline import IngestResult, Outcome, ReindexReport
    from talentrag.policy.limits import MAX_TOP_K
    from talentrag.runtime import storage_place, writer_lock
    from talentrag.search import SearchRequest, SearchResponse
    from talentrag.search.models import ResolvedRequest

console = Console()
stderr = Console(stderr=True)


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", type=Path, help="data directory (env TALENTRAG_DATA_DIR)")
    common.add_argument("--tenant", help="tenant / LightRAG workspace (env TALENTRAG_TENANT)")
    common.add_argument("-v", "--verbose", action="store_true", help="debug logging")

    parser = argparse.ArgumentParser(
        prog="talentrag", description="Candidate search over a LightRAG knowledge graph."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    ingest = commands.add_parser(
        "ingest", parents=[common], help="ingest CVs or other documents (files or folders)"
    )
    ingest.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    ingest.add_argument(
        "--document-type",
        default="cv",
        choices=[t.value for t in DocumentType],
        help="type of every document given (default cv; other types are never candidates)",
    )
    ingest.add_argument(
        "--as-of", type=date.fromisoformat, help="date that 'present' means (default today)"
    )
    ingest.add_argument("--quiet", action="store_true", help="no progress bar")
    ingest.add_argument(
        "--id",
        dest="document_id",
        help="store the one file given under this id (your ATS id); replaces that id's document",
    )
    ingest.add_argument(
        "--replace",
        action="store_true",
        help="a file whose name gives the id of a different stored document replaces it "
        "(default: it is stored beside it under the id plus a short hash)",
    )

    candidates = commands.add_parser("candidates", parents=[common], help="list candidate profiles")
    candidates.add_argument("--json", action="store_true", help="print JSON")
    candidates.add_argument("--limit", type=int, default=1000)

    candidate = commands.add_parser(
        "candidate", parents=[common], help="show one candidate with skills and evidence"
    )
    candidate.add_argument("id")
    candidate.add_argument("--json", action="store_true", help="print JSON")

    delete = commands.add_parser(
        "delete", parents=[common], help="delete documents from both stores"
    )
    delete.add_argument("ids", nargs="+")

    commands.add_parser("summary", parents=[common], help="summarise the knowledge base")

    duplicates = commands.add_parser(
        "duplicates",
        parents=[common],
        help="list CVs ingested more than once (the same CV, re-formatted or re-saved)",
    )
    duplicates.add_argument("--json", action="store_true", help="print JSON")

    repair = commands.add_parser(
        "repair", parents=[common], help="complete (or --drop: undo) writes a crash left unfinished"
    )
    repair.add_argument(
        "--drop",
        action="store_true",
        help="undo them instead: replaced documents get their previous version back",
    )

    reindex = commands.add_parser(
        "reindex",
        parents=[common],
        help="re-analyse stored documents after a vocabulary or analyser change (no files read)",
    )
    reindex.add_argument(
        "--all-tenants",
        action="store_true",
        help="every tenant with out-of-date documents (default: --tenant's)",
    )
    reindex.add_argument(
        "--as-of", type=date.fromisoformat, help="date that 'present' means (default today)"
    )
    reindex.add_argument("--quiet", action="store_true", help="no progress bar")

    migrate = commands.add_parser(
        "migrate",
        parents=[common],
        help="copy a data directory (every tenant) into a PostgreSQL database, without "
        "re-embedding; counts are checked",
    )
    migrate.add_argument(
        "--to",
        required=True,
        metavar="URL",
        help="the database, postgresql://user:password@host:5432/dbname",
    )
    migrate.add_argument("--quiet", action="store_true", help="no progress bar")

    search = commands.add_parser(
        "search",
        parents=[common],
        help="rank candidates by skills, a free-text query or a job description",
        description="Say what to find with --required (and --preferred), --query, or a job "
        "description (--job-description-id, --job-description-file); narrow with --level, "
        "--min-years and --exclude.",
    )
    search.add_argument(
        "--required",
        nargs="+",
        default=[],
        metavar="SKILL",
        help="skills every candidate must have (needed unless --query or a job description)",
    )
    search.add_argument(
        "--preferred", nargs="+", default=[], metavar="SKILL", help="nice-to-have skills"
    )
    search.add_argument(
        "--query",
        help="the request in words, e.g. 'senior python developer with kubernetes, "
        "terraform a plus' (options given beside it win)",
    )
    text = search.add_mutually_exclusive_group()
    text.add_argument(
        "--job-description-id",
        metavar="ID",
        help="search for a stored job description (`talentrag documents` lists them)",
    )
    text.add_argument(
        "--job-description-file",
        type=Path,
        metavar="FILE",
        help="search for a job description in a text file (pasted text)",
    )
    search.add_argument(
        "--level",
        action="append",
        metavar="LEVEL",
        help="only these levels: junior, mid, senior; repeat it or write 'mid,senior'",
    )
    search.add_argument(
        "--min-years", type=float, metavar="N", help="only candidates with at least N years"
    )
    search.add_argument(
        "--exclude",
        nargs="+",
        default=[],
        metavar="SKILL",
        help="leave out everyone holding any of these skills",
    )
    search.add_argument(
        "--include-partial",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also list candidates for whom a related skill stands in for a required one "
        "(default: no for --required, yes for --query or a job description)",
    )
    search.add_argument(
        "--top-k", type=int, default=5, help=f"candidates per page (1-{MAX_TOP_K}, default 5)"
    )
    search.add_argument(
        "--cursor", help="the next-page cursor a previous search printed (same other options)"
    )
    search.add_argument(
        "--blind",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="withhold names, contact details and files (default: the tenant's setting)",
    )
    search.add_argument("--json", action="store_true", help="print the JSON the HTTP API returns")

    documents = commands.add_parser(
        "documents",
        parents=[common],
        help="list stored job descriptions and other documents that are not CVs",
    )
    documents.add_argument(
        "--type",
        dest="document_type",
        choices=[t.value for t in DocumentType],
        help="only this type (default: every type but cv)",
    )
    documents.add_argument("--json", action="store_true", help="print JSON")
    documents.add_argument("--limit", type=int, default=1000)

    commands.add_parser(
        "mcp", parents=[common], help="run the MCP server over stdio (for recruiter assistants)"
    )

    serve = commands.add_parser("serve", parents=[common], help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes (default 1); more than 1 needs TALENTRAG_DATABASE_URL",
    )
    return parser


def _settings(args: argparse.Namespace) -> Settings:
    overrides = {}
    if args.data_dir is not None:
        overrides["data_dir"] = args.data_dir
    if args.tenant is not None:
        overrides["tenant"] = args.tenant
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        invalid = InvalidInput.from_validation(exc)
        raise ConfigurationError(f"invalid setting: {invalid.message}") from exc


# -- ingest ---------------------------------------------------------------------------
async def _ingest(args: argparse.Namespace, settings: Settings) -> int:
    require_paths(args.paths)  # before opening anything
    files = expand_paths(args.paths)
    async with open_service(settings, as_of=args.as_of) as service:
        with _progress(args.quiet) as progress:
            task = progress.add_task("ingesting", total=len(files))

            def advance() -> None:
                progress.advance(task)

            job_id, results = await service.ingest_paths(
                settings.tenant,
                args.paths,
                DocumentType(args.document_type),
                progress=advance,
                document_id=args.document_id,
                replace=args.replace,
            )
    _print_ingest_summary(results, named=args.document_id)
    console.print(f"recorded as ingest job {job_id}", highlight=False, style="dim")
    return 1 if results and all(r.outcome is Outcome.FAILED for r in results) else 0


def _progress(quiet: bool) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=stderr,
        disable=quiet,
    )


MAX_DUPLICATES_SHOWN = 10


def _print_ingest_summary(results: list[IngestResult], named: str | None = None) -> None:
    counts = Counter(r.outcome for r in results)
    line = ", ".join(f"{counts[o]} {o.value}" for o in Outcome)
    console.print(f"{len(results)} files: {line}")
    repeats = [r for r in results if r.duplicate_of]
    if repeats:
        console.print(
            f"{len(repeats)} repeat a CV stored earlier (`talentrag duplicates` lists them):",
            highlight=False,
        )
    for result in repeats[:MAX_DUPLICATES_SHOWN]:
        console.print(
            f"  {result.source} is the same CV as {result.duplicate_of}",
            highlight=False,
            soft_wrap=True,
        )
    for result in results:
        if result.outcome is Outcome.FAILED:
            console.print(f"  failed  {result.source}: {result.reason}")
        elif named is not None:
            console.print(f"  {result.source} stored as {named}", highlight=False, soft_wrap=True)
        elif result.document_id and result.document_id != document_id_for(Path(result.source)):
            console.print(
                f"  {result.source} stored as {result.document_id} "
                f"(another file already has the id {document_id_for(Path(result.source))})",
                highlight=False,
                soft_wrap=True,
            )


# -- inspection -----------------------------------------------------------------------
async def _candidates(args: argparse.Namespace, settings: Settings) -> int:
    async with open_service(settings) as service:
        await _warn_if_stale(service, settings.tenant)
        records = (await service.list_candidates(settings.tenant, args.limit)).records
    if args.json:
        print(json.dumps([_profile(r) for r in records], indent=2))
        return 0
    table = Table("id", "name", "level", "years", "source_file", "skills")
    for r in records:
        skills = ", ".join(r.skill_names()[:8]) + (" ..." if len(r.skills) > 8 else "")
        years = f"{r.years:g}" if r.years is not None else "-"
        table.add_row(r.id, r.name, r.level or "-", years, r.source_file, skills)
    console.print(table)
    console.print(f"{len(records)} candidates")
    return 0


def _profile(record: DocumentRecord) -> dict[str, object]:
    return record.model_dump(
        mode="json", include={"id", "name", "source_file", "level", "years", "field"}
    ) | {"skills": record.skill_names()}


async def _candidate(args: argparse.Namespace, settings: Settings) -> int:
    async with open_service(settings) as service:
        await _warn_if_stale(service, settings.tenant)
        record = await service.get_candidate(settings.tenant, args.id)
    if args.json:
        print(record.model_dump_json(indent=2))
        return 0
    console.print(f"[bold]{record.name}[/bold]  ({record.id}, {record.source_file})")
    years = (
        f"{record.years:g} years in {record.field}" if record.years is not None else "years unknown"
    )
    console.print(f"level: {record.level} ({record.level_source}; {years})")
    for role in record.roles:
        console.print(
            f"  role: {role.title} {role.start or ''} - {role.end or ''} ({role.years:g} y, {role.field})"
        )
    table = Table("skill", "kind", "conf", "evidence")
    for held in record.skills:
        ev = held.evidence[0] if held.evidence else None
        table.add_row(
            held.skill,
            held.kind.value,
            f"{held.confidence:.2f}",
            f"[{ev.start}-{ev.end}] {ev.text[:90]}" if ev else "",
        )
    console.print(table)
    for rejected in record.rejected:
        console.print(
            f"  not held ({rejected.reason}): {rejected.skill} — {rejected.evidence.text[:90]}"
        )
    return 0


async def _delete(args: argparse.Namespace, settings: Settings) -> int:
    async with open_service(settings) as service:
        removed = await service.delete(settings.tenant, args.ids)
    missing = sorted(set(args.ids) - set(removed))
    console.print(
        f"deleted {len(removed)}" + (f"; not found: {', '.join(missing)}" if missing else "")
    )
    return 0 if not missing else 1


async def _summary(_args: argparse.Namespace, settings: Settings) -> int:
    async with open_service(settings) as service:
        summary = await service.summary(settings.tenant)
        stale = (await service.stale_analysis(settings.tenant)).get(settings.tenant, 0)
    console.print(f"knowledge base {settings.data_dir} (tenant {settings.tenant})")
    console.print(
        f"  candidates: {summary.candidates}   other documents: {summary.other_documents}"
    )
    levels = ", ".join(f"{k} {v}" for k, v in sorted(summary.by_level.items()))
    console.print(f"  levels: {levels or '-'}")
    console.print(f"  top skills: {', '.join(f'{s} ({n})' for s, n in summary.top_skills) or '-'}")
    if summary.duplicates:
        console.print(
            f"  duplicates: {summary.duplicates} CVs repeat one stored earlier; "
            "`talentrag duplicates` lists them",
            highlight=False,
        )
    if stale:
        console.print(
            f"  out-of-date analysis: {stale} documents were analysed with another vocabulary "
            "or analyser; `talentrag reindex` re-analyses them (the server does at start-up)",
            highlight=False,
        )
    if summary.unfinished:
        shown = ", ".join(summary.unfinished[:10]) + (
            " ..." if len(summary.unfinished) > 10 else ""
        )
        console.print(
            f"  unfinished writes: {len(summary.unfinished)} ({shown}); not visible to searches. "
            "`talentrag repair` completes them, `talentrag repair --drop` undoes them "
            "(start-up and the next write also retry them)",
            highlight=False,
        )
    return 0


async def _duplicates(args: argparse.Namespace, settings: Settings) -> int:
    async with open_service(settings) as service:
        groups = await service.duplicate_groups(settings.tenant)
    if args.json:
        print(json.dumps([[_stored_as(r) for r in group] for group in groups], indent=2))
        return 0
    if not groups:
        console.print(f"no CV is stored more than once in tenant {settings.tenant}")
        return 0
    table = Table("group", "id", "name", "source_file", "stored")
    for number, group in enumerate(groups, 1):
        for position, r in enumerate(group):
            stored = r.created_at.date().isoformat() if r.created_at else "-"
            table.add_row(str(number) if position == 0 else "", r.id, r.name, r.source_file, stored)
        table.add_section()
    console.print(table)
    repeats = sum(len(group) - 1 for group in groups)
    console.print(
        f"{len(groups)} group{'' if len(groups) == 1 else 's'}: {repeats} CVs repeat the first "
        "of their group",
        highlight=False,
    )
    return 0


def _stored_as(record: DocumentRecord) -> dict[str, object]:
    return record.model_dump(mode="json", include={"id", "name", "source_file", "created_at"})


async def _repair(args: argparse.Namespace, settings: Settings) -> int:
    async with open_service(settings) as service:
        ids = await service.repair(settings.tenant, drop=args.drop)
    if not ids:
        console.print(f"no unfinished writes in tenant {settings.tenant}")
    else:
        done = "undone" if args.drop else "completed"
        console.print(f"{len(ids)} unfinished writes {done}: {', '.join(ids)}", highlight=False)
    return 0


async def _reindex(args: argparse.Namespace, settings: Settings) -> int:
    async with open_service(settings, as_of=args.as_of) as service:
        tenants = list(await service.stale_analysis()) if args.all_tenants else [settings.tenant]
        if not tenants:
            console.print("nothing to re-analyse: every document is up to date")
        reports = [await _reindex_tenant(service, tenant, args.quiet) for tenant in tenants]
    return 1 if any(r.failed for r in reports) else 0


async def _reindex_tenant(service: TalentService, tenant: str, quiet: bool) -> ReindexReport:
    """Re-analyse one tenant with a progress bar; print what it did."""
    with _progress(quiet) as progress:
        task = progress.add_task(f"re-analysing {tenant}", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        report = await service.reindex(tenant, advance)
    if not report.total:
        console.print(f"tenant {tenant}: nothing to re-analyse, every document is up to date")
        return report
    console.print(
        f"tenant {tenant}: {report.reanalysed} documents re-analysed "
        f"({report.changed} changed), {len(report.failed)} failed",
        highlight=False,
    )
    for failure in report.failed:
        console.print(f"  failed  {failure.source}: {failure.reason}", highlight=False)
    return report


async def _migrate(args: argparse.Namespace, settings: Settings) -> int:
    from talentrag.migration import migrate

    with _progress(args.quiet) as progress:

        def tenant_progress(tenant: str) -> Callable[[int, int], None]:
            task = progress.add_task(f"copying {tenant}", total=None)
            return lambda done, total: progress.update(task, completed=done, total=total)

        report = await migrate(settings, args.to, tenant_progress)
    for tenant in report.tenants:
        copy = tenant.report
        check = "verified" if tenant.verified else "COUNTS DIFFER"
        console.print(
            f"tenant {copy.tenant}: {copy.copied} documents copied, {copy.skipped} already there; "
            f"{tenant.documents_after} of {copy.total} in the database; graph {tenant.graph_after} "
            f"(data directory {tenant.graph_before}): {check}",
            highlight=False,
            soft_wrap=True,
        )
    console.print(
        f"{report.vectors_reused} distinct vectors copied from the data directory, "
        f"{report.vectors_embedded} embedded again",
        highlight=False,
    )
    if not report.tenants:
        console.print(f"nothing to copy: {settings.data_dir} holds no documents")
    return 0 if report.verified else 1


async def _warn_if_stale(service: TalentService, tenant: str) -> None:
    """One line on stderr when answers come from records of an older analysis."""
    stale = (await service.stale_analysis(tenant)).get(tenant, 0)
    if stale:
        stderr.print(
            f"warning: {stale} documents of tenant {tenant} were analysed with another "
            "vocabulary or analyser; run `talentrag reindex` to bring them up to date",
            highlight=False,
            soft_wrap=True,
        )


def _search_request(args: argparse.Namespace) -> SearchRequest:
    """The options as the one search contract (validated there, like HTTP's body)."""
    text = None
    if args.job_description_file is not None:
        require_paths([args.job_description_file])
        try:
            text = args.job_description_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidInput(
                f"cannot read {args.job_description_file} as UTF-8 text ({type(exc).__name__}); "
                "save the job description as a .txt or .md file"
            ) from exc
    try:
        return SearchRequest.model_validate(
            {
                "required_skills": args.required,
                "preferred_skills": args.preferred,
                "experience_level": ",".join(args.level) if args.level else None,
                "min_years": args.min_years,
                "exclude_skills": args.exclude,
                "query": args.query,
                "job_description_id": args.job_description_id,
                "job_description_text": text,
                "include_partial": args.include_partial,
                "top_k": args.top_k,
                "cursor": args.cursor,
                "blind": args.blind,
            }
        )
    except ValidationError as exc:
        raise InvalidInput.from_validation(exc) from exc


async def _search(args: argparse.Namespace, settings: Settings) -> int:
    request = _search_request(args)
    async with open_service(settings) as service:
        await _warn_if_stale(service, settings.tenant)
        response = await service.search(request, settings.tenant)
    if args.json:
        print(response.model_dump_json(indent=2))
        return 0
    _print_search(response, request.reads_text)
    return 0


def _print_search(response: SearchResponse, read_text: bool) -> None:
    console.print(
        f"query: {response.query}  ({response.total_considered} considered, "
        f"{response.processing_time_ms:.0f} ms)",
        highlight=False,
    )
    resolved = response.resolved_request
    if read_text and resolved is not None:
        console.print(f"read as: {_resolved_text(resolved)}", highlight=False, soft_wrap=True)
        for note in response.request_notes:
            console.print(f"  {note}", highlight=False, soft_wrap=True)
    if response.message:
        console.print(response.message, highlight=False)
    if not response.candidates:
        return
    shown = f"{len(response.candidates)} of {response.total} candidates"
    if response.total_qualifying < response.total:
        shown += f" ({response.total_qualifying} with every required skill matched)"
    console.print(shown, highlight=False)
    headers = ["#", "candidate", "level", "score", "required", "preferred", "partial"]
    headers += ["missing required", "missing preferred"]
    table = Table(*[Column(h, overflow="fold") for h in headers])
    for rank, c in enumerate(response.candidates, 1):
        who = f"{c.name} ({c.candidate_id})"
        if c.duplicates:
            who += f"\nsame person: {', '.join(c.duplicates)}"
        table.add_row(
            str(rank),
            who,
            c.experience_level or "-",
            f"{c.match_score:.2f}",
            ", ".join(c.matched_required_skills),
            ", ".join(c.matched_preferred_skills),
            ", ".join(
                f"{p.requested} ~ {p.stand_in}" + ("" if p.required else " (preferred)")
                for p in c.partial_skills
            ),
            ", ".join(c.missing_skills),
            ", ".join(c.missing_preferred_skills),
        )
    console.print(table)
    for c in response.candidates:
        console.print(f"[bold]{c.candidate_id}[/bold]: {c.explanation}")
        for e in c.evidence:
            console.print(
                f'    {e.skill}: "{e.text[:100]}" ({e.source_file} {e.start}-{e.end})',
                highlight=False,
            )
    if response.next_cursor:
        console.print(
            f"next page: the same options and --cursor {response.next_cursor}",
            highlight=False,
            soft_wrap=True,
        )


def _resolved_text(resolved: ResolvedRequest) -> str:
    parts = [f"required {', '.join(resolved.required_skills)}"]
    if resolved.preferred_skills:
        parts.append(f"preferred {', '.join(resolved.preferred_skills)}")
    if resolved.experience_level:
        parts.append(f"level {' or '.join(level.value for level in resolved.experience_level)}")
    if resolved.min_years is not None:
        parts.append(f"at least {resolved.min_years:g} years")
    if resolved.exclude_skills:
        parts.append(f"excluding {', '.join(resolved.exclude_skills)}")
    return "; ".join(parts)


async def _documents(args: argparse.Namespace, settings: Settings) -> int:
    kind = DocumentType(args.document_type) if args.document_type else None
    async with open_service(settings) as service:
        await _warn_if_stale(service, settings.tenant)
        records = (await service.list_documents(settings.tenant, args.limit, None, kind)).records
    if args.json:
        print(json.dumps([_document(r) for r in records], indent=2))
        return 0
    table = Table("id", "type", "name", "source_file", "skills")
    for r in records:
        skills = ", ".join(r.skill_names()[:8]) + (" ..." if len(r.skills) > 8 else "")
        table.add_row(r.id, r.document_type.value, r.name, r.source_file, skills)
    console.print(table)
    console.print(
        f"{len(records)} documents; search by one with `talentrag search --job-description-id ID`",
        highlight=False,
    )
    return 0


def _document(record: DocumentRecord) -> dict[str, object]:
    return record.model_dump(
        mode="json", include={"id", "document_type", "name", "source_file"}
    ) | {"skills": record.skill_names()}


LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    """The HTTP API in this process, or with ``--workers N`` in N processes (PostgreSQL)."""
    import uvicorn

    from talentrag.adapters.http.nodelay import PROTOCOL as NODELAY_PROTOCOL

    if not settings.api_keys and args.host not in LOOPBACK:
        raise ConfigurationError(
            f"refusing to serve on {args.host} without API keys; set TALENTRAG_API_KEYS "
            '(JSON {"key": "tenant"}) or use --host 127.0.0.1'
        )
    if args.workers < 1:
        raise ConfigurationError("--workers must be 1 or more")
    if args.workers > 1 and not settings.database_url:
        raise ConfigurationError(
            "--workers needs TALENTRAG_DATABASE_URL (postgresql://...): processes share a "
            "database, while a data directory has one writer process"
        )
    if not settings.database_url:  # replicas on PostgreSQL share the database by design
        writer_lock(settings).ensure_free()  # a clear message instead of a failed start
    if args.workers == 1:
        pause_collection()  # until the app is ready to serve (its lifespan resumes it)
        asyncio.run(_serve_here(args, settings))
        return 0
    asyncio.run(_analysis_up_to_date(settings))
    _print_serving(args, settings)
    # each worker process builds its settings from the environment: pass the CLI's own
    os.environ["TALENTRAG_DATA_DIR"] = str(settings.data_dir)
    os.environ["TALENTRAG_TENANT"] = settings.tenant
    uvicorn.run(
        "talentrag.startup:app_from_environment",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=_log_level(args),
        http=NODELAY_PROTOCOL,
    )
    return 0


def _log_level(args: argparse.Namespace) -> str:
    return "info" if args.verbose else "warning"


async def _serve_here(args: argparse.Namespace, settings: Settings) -> None:
    """One server process: the knowledge base is opened once, for the analysis check
    (progress bar, one-line refusal) and then for serving.

    Opening it twice, once to check and once in the app, cost a second vocabulary and
    embedder load at every start. The app's lifespan takes it over and closes it at
    shutdown (uvicorn re-raises SIGTERM after its shutdown, so code after ``serve``
    does not run then); ``opened`` closes it here when the lifespan never ran.
    """
    import uvicorn

    from talentrag.adapters.http import create_app
    from talentrag.adapters.http.nodelay import PROTOCOL as NODELAY_PROTOCOL

    opened = AsyncExitStack()
    try:
        service = await opened.enter_async_context(open_service(settings))
        await _bring_up_to_date(service)
        _print_serving(args, settings)
        app = create_app(settings, opened=_handed_over(opened, service))
        config = uvicorn.Config(
            app, host=args.host, port=args.port, log_level=_log_level(args), http=NODELAY_PROTOCOL
        )
        await uvicorn.Server(config).serve()
    finally:
        await opened.aclose()  # nothing left to close once the lifespan has


@asynccontextmanager
async def _handed_over(
    opened: AsyncExitStack, service: TalentService
) -> AsyncIterator[TalentService]:
    """``service``, already open, closed with ``opened`` when the block exits."""
    async with opened:
        yield service


def _print_serving(args: argparse.Namespace, settings: Settings) -> None:
    url = f"http://{args.host}:{args.port}"
    auth = (
        "API keys required"
        if settings.api_keys
        else "no API keys configured: serving on localhost only"
    )
    processes = f", {args.workers} processes" if args.workers > 1 else ""
    console.print(
        f"talentrag serving {storage_place(settings)} at {url} ({auth}{processes})",
        highlight=False,
    )
    console.print(f"  OpenAPI: {url}/docs   MCP: {url}/mcp", highlight=False)
    header = " -H 'Authorization: Bearer <key>'" if settings.api_keys else ""
    console.print(
        f"  try: curl -s {url}/v1/candidates/search -H 'Content-Type: application/json'{header} "
        """-d '{"required_skills": ["Kubernetes"], "preferred_skills": ["Terraform"], "top_k": 3}'""",
        highlight=False,
        soft_wrap=True,
    )


async def _analysis_up_to_date(settings: Settings) -> None:
    """Before serving: re-analyse out-of-date documents with a progress bar, or refuse.

    The server's start-up does the same (for servers not started here); doing it first
    here shows progress and turns a refusal into one line and an exit code.
    """
    async with open_service(settings) as service:
        await _bring_up_to_date(service)


async def _bring_up_to_date(service: TalentService) -> None:
    await service.bring_analysis_up_to_date(
        lambda tenant: _reindex_tenant(service, tenant, quiet=False)
    )


async def _mcp(_args: argparse.Namespace, settings: Settings) -> int:
    """stdio MCP server: stdout carries the protocol, so nothing else may print there."""
    from talentrag.adapters.mcp import build_mcp_server

    async with open_service(settings) as service:
        await _warn_if_stale(service, settings.tenant)  # stderr: the client's log
        runner = asyncio.create_task(service.run_jobs(), name="ingest-jobs")
        try:
            await build_mcp_server(lambda: service).run_stdio_async()
        finally:
            runner.cancel()
    return 0


COMMANDS = {
    "ingest": _ingest,
    "candidates": _candidates,
    "candidate": _candidate,
    "delete": _delete,
    "summary": _summary,
    "duplicates": _duplicates,
    "repair": _repair,
    "reindex": _reindex,
    "migrate": _migrate,
    "search": _search,
    "documents": _documents,
    "mcp": _mcp,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``talentrag`` command; failures become one line on stderr and an exit code."""
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        if args.command == "serve":  # runs its own event loops (one per worker process)
            return _serve(args, _settings(args))
        return asyncio.run(COMMANDS[args.command](args, _settings(args)))
    except TalentragError as exc:
        stderr.print(f"error: {exc.message}", highlight=False, markup=False, soft_wrap=True)
        return exc.exit_code
    except Exception as exc:  # a bug or an environment problem: one line, details with -v
        logging.getLogger(__name__).debug("unexpected failure", exc_info=True)
        stderr.print(
            f"error: {type(exc).__name__}: {exc} (run with -v for details)",
            markup=False,
            soft_wrap=True,
        )
        return 1
    except KeyboardInterrupt:
        stderr.print(
            "interrupted; `talentrag repair` (or the next write) completes an unfinished batch",
            markup=False,
        )
        return 130


if __name__ == "__main__":
    sys.exit(main())
