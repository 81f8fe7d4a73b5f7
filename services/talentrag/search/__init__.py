"""search_by_skills: query building, LightRAG retrieval, graph completion, scoring."""

from talentrag.search.engine import SearchService
from talentrag.search.models import (
    NO_MATCH_MESSAGE,
    CandidateResult,
    SearchRequest,
    SearchResponse,
    SkillQuery,
)

__all__ = [
    "NO_MATCH_MESSAGE",
    "CandidateResult",
    "SearchRequest",
    "SearchResponse",
    "SearchService",
    "SkillQuery",
]
