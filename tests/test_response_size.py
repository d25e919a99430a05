"""A search or recall response is bounded in size and holds each memory once. 200 facts of
100 KB recalled with limit=1000 made a 39.9 MB response (every memory as structured content and again as
indented JSON text). Now the results stop at the server's byte limit (PYMEM_MAX_RESULT_BYTES, 1 MiB by default),
the response says how many ranked results were left out, and the text part is a short summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_types import TextContent
from psycopg_pool import ConnectionPool

from pymem.config import DEFAULT_MAX_RESULT_BYTES
from pymem.embeddings import Embedder, EmbeddingService
from pymem.mcp_server import ServerOptions, build_server
from pymem.tool_results import PREVIEW_CHARACTERS, SUMMARY_BYTES
from tests.mcpclient import call

pytestmark = pytest.mark.anyio

FACTS = 30
MARKER = "zebracactus"  # once in each large content, so a response's copies can be counted
FILLER = "The garden beds get compost in spring and mulch in autumn. " * 1_600  # 96,000 characters


def server(pool: ConnectionPool, embedder: Embedder, tmp_path: Path, **options: Any) -> Any:
    return build_server(
        ServerOptions(
            pool=pool,
            embeddings=EmbeddingService(embedder),
            stdio_tenant="acme",
            butlers_dir=tmp_path / "butlers",
            owns_pool=False,
            **options,
        )
    )


def wire_bytes(result: Any) -> int:
    return len(result.model_dump_json(by_alias=True).encode())


async def store_large_facts(client: Client) -> None:
    for n in range(FACTS):
        content = f"Garden note {n} {MARKER}: {FILLER}"
        await call(client, "memory_store_fact", subject="garden", predicate=f"note_{n}", content=content)


@pytest.mark.parametrize("tool", ["memory_search", "memory_recall"])
async def test_a_large_result_set_is_cut_at_the_byte_limit_and_sent_once(
    app_pool: ConnectionPool, embedder: Embedder, tmp_path: Path, tool: str
) -> None:
    limit = 400_000  # bytes: about four of these facts
    async with Client(server(app_pool, embedder, tmp_path, max_result_bytes=limit)) as client:
        await store_large_facts(client)
        arguments: dict[str, Any] = {"limit": 1000}
        if tool == "memory_search":
            arguments.update(query="garden compost", mode="keyword", min_confidence=0)
        else:
            arguments.update(topic="garden compost", min_relevance=0)
        result = await client.call_tool(tool, arguments)
    assert not result.is_error and result.structured_content is not None
    structured = result.structured_content
    kept = len(structured["results"])
    assert 1 <= kept < FACTS
    assert structured["truncated"] is True and structured["left_out"] == FACTS - kept
    assert "PYMEM_MAX_RESULT_BYTES" in structured["note"] and "limit" in structured["note"]
    # bounded: the structured results within the limit, the text a short summary
    assert len(json.dumps(structured["results"], ensure_ascii=False).encode()) <= limit
    (text,) = result.content
    assert isinstance(text, TextContent)
    assert len(text.text.encode()) <= SUMMARY_BYTES and "Truncated:" in text.text
    assert wire_bytes(result) <= limit + SUMMARY_BYTES + 4096
    # each memory once: its marker appears once per returned result in the whole response
    assert result.model_dump_json(by_alias=True).count(MARKER) == kept + text.text.count(MARKER)
    assert text.text.count(MARKER) == kept  # the summary's previews name each result, without its content
    # a preview holds the start of a memory, never more of it
    assert FILLER[:PREVIEW_CHARACTERS] not in text.text


async def test_the_default_limit_is_one_mebibyte(app_pool: ConnectionPool, embedder: Embedder, tmp_path: Path) -> None:
    async with Client(server(app_pool, embedder, tmp_path)) as client:
        await store_large_facts(client)
        result = await client.call_tool(
            "memory_search", {"query": "garden compost", "mode": "keyword", "limit": 1000, "min_confidence": 0}
        )
    structured = result.structured_content
    assert structured is not None and structured["truncated"] is True
    assert 8 <= len(structured["results"]) <= 11  # 1 MiB of ~97 KB results
    assert wire_bytes(result) <= DEFAULT_MAX_RESULT_BYTES + SUMMARY_BYTES + 4096


async def test_a_normal_response_is_whole(app_pool: ConnectionPool, embedder: Embedder, tmp_path: Path) -> None:
    async with Client(server(app_pool, embedder, tmp_path)) as client:
        for n, content in enumerate(["The user likes green tea", "The user drinks green tea at breakfast"]):
            await call(client, "memory_store_fact", subject="user", predicate=f"tea_{n}", content=content)
        found = await call(client, "memory_search", query="green tea", limit=20)
        recalled = await call(client, "memory_recall", topic="green tea", min_relevance=0)
        result = await client.call_tool("memory_search", {"query": "green tea", "limit": 20})
    for response in (found, recalled):
        assert len(response["results"]) == 2
        assert response["truncated"] is False and response["left_out"] == 0 and response["note"] is None
    assert {r["content"] for r in found["results"]} == {
        "The user likes green tea",
        "The user drinks green tea at breakfast",
    }
    assert found["mode"] == "hybrid" and found["query"] == "green tea"
    (text,) = result.content
    assert isinstance(text, TextContent)
    assert text.text.startswith("memory_search: 2 result(s)") and "The user likes green tea" in text.text
