"""Calling the MCP tools the way an agent does, through a real client session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp import Client
from mcp.server import MCPServer
from psycopg_pool import ConnectionPool

from pymem.embeddings import Embedder, EmbeddingService
from pymem.mcp_server import Runtime, ServerOptions, build_server

TOOLS = {
    "memory_store_episode",
    "memory_store_fact",
    "memory_store_rule",
    "memory_search",
    "memory_recall",
    "memory_get",
    "memory_confirm",
    "memory_mark_helpful",
    "memory_mark_harmful",
    "memory_forget",
    "memory_stats",
    "memory_context",
    "memory_consolidate",
}


def stdio_like_server(
    pool: ConnectionPool,
    embedder: Embedder | None,
    tenant: str = "acme",
    butlers_dir: Path | None = None,
    replica_pool: ConnectionPool | None = None,
) -> MCPServer[Runtime]:
    """The server as `pymem serve` builds it for stdio, on a pool the test owns (and, with replica_pool,
    a read replica's pool the test owns: the read tools run there)."""
    return build_server(
        ServerOptions(
            pool=pool,
            embeddings=EmbeddingService(embedder),
            stdio_tenant=tenant,
            butlers_dir=butlers_dir,
            owns_pool=False,
            replica_pool=replica_pool,
        )
    )


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """The structured result of a successful call (fails the test on a tool error)."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, f"{tool} failed: {result.content}"
    assert result.structured_content is not None, f"{tool} returned no structured content"
    return result.structured_content


async def call_error(client: Client, tool: str, **arguments: Any) -> str:
    """The message of a call that must fail as a tool error (is_error, no exception)."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, f"{tool} should have failed, returned {result.structured_content}"
    text = " ".join(getattr(part, "text", "") for part in result.content)
    assert "Traceback" not in text and "select " not in text.lower(), text
    return text
