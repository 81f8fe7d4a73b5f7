"""The LightRAG Server gateway's error paths and payload handling, with respx."""

from __future__ import annotations

import httpx
import pytest
import respx

from talentrag.gateways.base import GatewayError, GatewayUnavailable, RetrievalQuery
from talentrag.gateways.remote import RemoteLightRAG

URL = "http://lightrag.test"
QUERY = RetrievalQuery(
    query="Find candidates with Kubernetes experience",
    ll_keywords=["Kubernetes"],
    hl_keywords=["has skill Kubernetes"],
)
PAYLOAD = {
    "status": "success",
    "data": {
        "entities": [
            {
                "entity_name": "Kubernetes",
                "entity_type": "skill",
                "description": "d",
                "file_path": "a.md",
            }
        ],
        "relationships": [
            {
                "src_id": "Candidate a",
                "tgt_id": "Kubernetes",
                "description": "d",
                "keywords": "k",
                "weight": 2.0,
            }
        ],
        "chunks": [{"content": "a.md [0:10]\nK8s", "file_path": "a.md", "chunk_id": "chunk-1"}],
    },
}


def _gateway(**kwargs) -> RemoteLightRAG:
    return RemoteLightRAG(URL, "secret", backoff_s=0.0, **kwargs)


@respx.mock
async def test_retrieve_sends_keywords_and_api_key():
    route = respx.post(f"{URL}/query/data").mock(return_value=httpx.Response(200, json=PAYLOAD))
    retrieval = await _gateway().retrieve("default", QUERY)
    sent = route.calls.last.request
    assert sent.headers["X-API-Key"] == "secret"
    body = httpx.Request("POST", URL, content=sent.content).read()
    assert b'"ll_keywords":["Kubernetes"]' in body.replace(
        b" ", b""
    ) and b'"mode":"hybrid"' in body.replace(b" ", b"")
    assert retrieval.entities[0].name == "Kubernetes"


@respx.mock
async def test_retries_503_then_succeeds():
    route = respx.post(f"{URL}/query/data").mock(
        side_effect=[httpx.Response(503), httpx.Response(502), httpx.Response(200, json=PAYLOAD)]
    )
    retrieval = await _gateway(retries=2).retrieve("default", QUERY)
    assert route.call_count == 3 and retrieval.entities


@respx.mock
@pytest.mark.parametrize(
    "failure",
    [
        httpx.ConnectError("connection refused"),
        httpx.ReadTimeout("slow"),
        httpx.ConnectTimeout("slow"),
        httpx.Response(504),
    ],
    ids=["refused", "read-timeout", "connect-timeout", "504"],
)
async def test_unreachable_server_is_unavailable_after_bounded_retries(failure):
    route = respx.post(f"{URL}/query/data")
    route.mock(return_value=failure) if isinstance(failure, httpx.Response) else route.mock(
        side_effect=failure
    )
    with pytest.raises(GatewayUnavailable, match="after 3 attempts"):
        await _gateway(retries=2).retrieve("default", QUERY)
    assert route.call_count == 3


@respx.mock
@pytest.mark.parametrize(
    ("response", "message"),
    [
        (httpx.Response(403, json={"detail": "bad key"}), "TALENTRAG_LIGHTRAG_API_KEY"),
        (httpx.Response(500, text="boom"), "answered 500"),
        (httpx.Response(200, text="<html>"), "malformed JSON"),
        (httpx.Response(200, json=["not", "an", "object"]), "without a data object"),
        (
            httpx.Response(200, json={"data": {"entities": [{"no_name": 1}]}}),
            "malformed /query/data",
        ),
    ],
    ids=["403", "500", "html", "list", "entity-without-name"],
)
async def test_bad_answers_are_gateway_errors_without_retry(response, message):
    route = respx.post(f"{URL}/query/data").mock(return_value=response)
    with pytest.raises(GatewayError, match=message) as info:
        await _gateway().retrieve("default", QUERY)
    assert not isinstance(info.value, GatewayUnavailable)
    assert route.call_count == 1


@respx.mock
async def test_ready_checks_health():
    respx.get(f"{URL}/health").mock(return_value=httpx.Response(200, json={"status": "healthy"}))
    await _gateway().ready("default")
    respx.get(f"{URL}/health").mock(side_effect=httpx.ConnectError("refused"))
    with pytest.raises(GatewayUnavailable):
        await _gateway(retries=0).ready("default")


@respx.mock
async def test_a_stalled_server_is_unavailable_within_one_deadline_for_every_client():
    import asyncio
    import time

    async def stall(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)
        return httpx.Response(200, json=PAYLOAD)

    respx.post(f"{URL}/query/data").mock(side_effect=stall)
    gateway = _gateway(read_timeout_s=0.5, retries=2, max_concurrency=8)
    started = time.monotonic()
    outcomes = await asyncio.gather(
        *(gateway.retrieve("default", QUERY) for _ in range(16)), return_exceptions=True
    )
    waited = time.monotonic() - started
    assert all(isinstance(o, GatewayUnavailable) for o in outcomes)
    assert "within 0.5 s" in str(outcomes[0]) and waited < 5  # not 3 attempts x 8-slot queue
    await gateway.close()
