"""Search over a graph a LightRAG Server built with its own LLM pipeline (generic entity
types, free-form names), joined with our real candidate store. The server is mocked."""

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


def _graph(label: str) -> dict:
    people = {
        "K8S": [("Jane Doe", "jane-doe.md")],
        "Amazon EKS": [("Jane Doe", "jane-doe.md"), ("Ghost", "gone.md")],
    }
    adjacent = people.get(label, [])
    return {
        "nodes": [{"id": label, "properties": {"entity_type": "technology"}}]
        + [{"id": n, "properties": {"entity_type": "person", "file_path": f}} for n, f in adjacent],
        "edges": [
            {"source": n, "target": label, "properties": {"weight": 1.0}} for n, _ in adjacent
        ],
        "is_truncated": False,
    }


@respx.mock
async def test_free_form_names_map_through_the_vocabulary(kb: KnowledgeBase):
    await kb.ingestor.ingest_paths(
        [FIXTURES / "jane-doe.md", FIXTURES / "tom-baker.txt"], "default"
    )
    respx.post(f"{URL}/query/data").mock(return_value=httpx.Response(200, json=QUERY_DATA))
    respx.get(f"{URL}/graphs").mock(
        side_effect=lambda request: httpx.Response(200, json=_graph(request.url.params["label"]))
    )
    gateway = RemoteLightRAG(URL, backoff_s=0.0)
    service = SearchService(gateway, kb.store, kb.normalizer)

    response = await service.search(SearchRequest(required_skills=["Kubernetes"]))
    await gateway.close()

    assert [c.candidate_id for c in response.candidates] == ["jane-doe"]
    labels = {
        call.request.url.params["label"]
        for call in respx.calls
        if call.request.url.path == "/graphs"
    }
    assert "K8S" in labels  # a retrieved node named by the server's LLM, mapped to Kubernetes
    assert response.candidates[0].source_file == "jane-doe.md"
