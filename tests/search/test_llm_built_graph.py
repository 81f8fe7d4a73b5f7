"""Search over a graph a LightRAG Server built with its own LLM pipeline (generic entity
types, free-form names) beside our real candidate store. The server is mocked.

The ranking reads the store's holdings, so the graph's free-form names ("K8S") neither
add nor hide candidates; the server is asked the query and its failure fails the search."""

from __future__ import annotations

from pathlib import Path

import httpx
import respx

from talentrag.gateways.remote import RemoteLightRAG
from talentrag.runtime import KnowledgeBase
from talentrag.search import SearchRequest, SearchService

URL = "http://lightrag.test"
FIXTURES = Path(__file__).parents[1] / "fixtures" / "corpus"

QUERY_DATA = {
    "status": "success",
    "data": {
        "entities": [
            {"entity_name": "K8S", "entity_type": "technology", "file_path": "jane-doe.md"},
            {"entity_name": "Jane Doe", "entity_type": "person", "file_path": "jane-doe.md"},
            {"entity_name": "Acme GmbH", "entity_type": "organization", "file_path": "jane-doe.md"},
        ],
        "relationships": [
            {
                "src_id": "Jane Doe",
                "tgt_id": "K8S",
                "description": "runs clusters",
                "keywords": "uses",
            }
        ],
        "chunks": [],
    },
}


@respx.mock
async def test_an_llm_built_graph_still_answers_from_the_store(kb: KnowledgeBase):
    await kb.ingestor.ingest_paths(
        [FIXTURES / "jane-doe.md", FIXTURES / "tom-baker.txt"], "default"
    )
    respx.post(f"{URL}/query/data").mock(return_value=httpx.Response(200, json=QUERY_DATA))
    gateway = RemoteLightRAG(URL, backoff_s=0.0)
    service = SearchService(gateway, kb.store, kb.normalizer)

    response = await service.search(SearchRequest(required_skills=["Kubernetes"]))
    await gateway.close()

    assert [c.candidate_id for c in response.candidates] == ["jane-doe"]
    assert any(call.request.url.path == "/query/data" for call in respx.calls)
    assert response.candidates[0].source_file == "jane-doe.md"
