"""Sizes the service accepts and returns, for every adapter alike."""

from __future__ import annotations

import os

MIN_TEXT_CHARS = 20
"""A document needs this many non-blank characters to be worth indexing."""

DEFAULT_MAX_DOCUMENT_BYTES = 10 * 1024 * 1024
"""Default of ``Settings.max_upload_bytes``: the largest file or text accepted."""

MAX_ANALYSED_CHARS = 200_000
"""Characters of a document analysed for skills, dates and chunks (about 60 pages; the
whole text is stored). Bounds the work one request can cause."""

MAX_EVIDENCE = 3
"""Evidence passages kept per held skill, and shown per search result."""

MAX_EVIDENCE_CHARS = 300
"""Longest evidence passage: the mention's sentence, cut around it at word breaks."""

MAX_TOP_K = 50
"""Most candidates one search returns."""

MAX_SKILLS = 20
"""Most required (and, separately, preferred) skills in one search."""

MAX_SKILL_CHARS = 100
"""Longest accepted skill string."""

MAX_QUERY_CHARS = 1000
"""Longest free-text search query."""

MAX_JOB_DESCRIPTION_CHARS = 50_000
"""Longest pasted job description searched for (a long one is about 10,000)."""

MAX_NAME_CHARS = 200
MAX_FILE_NAME_CHARS = 255

MAX_JOB_DOCUMENTS = 1000
"""Documents in one ingest job (a request's body is also bounded by the upload limit)."""

MAX_TEXT_MATCHES = 500
"""CVs a full-text search for one requested skill reads (best BM25 first)."""

GRAPH_WRITE_DOCUMENTS = 50
"""Documents per LightRAG insert. Its merging runs on the event loop (about 4 ms per
document), so a batch is inserted in slices with searches served in between; the
batch stays atomic (a failure undoes every slice)."""


HUB_EDGES_FOR_RETRIEVAL = 200
"""Edges of one node LightRAG's retrieval reads (the heaviest first). A skill held by
23,000 candidates is a hub whose every edge LightRAG's local retrieval would read and
tokenise before its budget cuts; our ranking reads holders from the store, so only the
relations LightRAG returns (which talentrag does not rank by) are bounded."""

HUB_DEGREE_COUNTED = 1_000
"""Edges counted for a node's degree on PostgreSQL: past this, every hub ties. LightRAG
orders retrieved entities and relations by degree; counting a 33,000-edge hub on each
query cost 8 ms at 100K CVs, and talentrag's ranking does not read these degrees."""


def default_ingest_workers() -> int:
    """Analysis processes: one per core but one, which stays free for the event loop (min 1)."""
    return max(1, (os.cpu_count() or 2) - 1)


STATISTICS_AFTER_DOCUMENTS = 500
"""An ingest that writes at least this many documents refreshes the database planner's
statistics when it ends: a freshly filled table is otherwise planned as empty until
autovacuum analyses it (searches several times slower meanwhile)."""
