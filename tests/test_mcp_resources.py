"""MCP resources and prompts, listed, read and rendered through a real MCP client session: the context block, the
stats and one memory as resource templates, and the recall, remember and review prompts; the same tenancy and
scopes as the tools."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from psycopg_pool import ConnectionPool

from pymem.embeddings import Embedder
from tests.conftest import Tenant
from tests.mcpclient import call, stdio_like_server
from tests.sqlapi import store_fact

pytestmark = pytest.mark.anyio


@pytest.fixture
def server(app_pool: ConnectionPool, embedder: Embedder, tmp_path: Any) -> Any:
    return stdio_like_server(app_pool, embedder, "acme", tmp_path / "butlers")


@pytest.fixture
def other_tenant(app_pool: ConnectionPool, embedder: Embedder, tmp_path: Any) -> Any:
    return stdio_like_server(app_pool, embedder, "globex", tmp_path / "butlers-globex")


async def read(client: Client, uri: str) -> tuple[str, str | None]:
    result = await client.read_resource(uri)
    (content,) = result.contents
    return content.text, content.mime_type  # type: ignore[union-attr]


async def test_the_resource_templates_and_prompts_are_listed(server: Any) -> None:
    async with Client(server) as client:
        templates = {t.name: t for t in (await client.list_resource_templates()).resource_templates}
        prompts = {p.name: p for p in (await client.list_prompts()).prompts}
    assert {name: t.uri_template for name, t in templates.items()} == {
        "memory_context": "memory://context/{butler}{?prompt}",
        "memory_stats": "memory://stats{?scope}",
        "memory": "memory://{type}/{id}",
    }
    assert templates["memory_context"].mime_type == "text/markdown"
    assert templates["memory_stats"].mime_type == templates["memory"].mime_type == "application/json"
    assert {name: [(a.name, a.required) for a in p.arguments or []] for name, p in prompts.items()} == {
        "recall": [("topic", True), ("scope", False)],
        "remember": [("statement", True)],
        "review_pending": [("limit", False)],
    }


async def test_the_context_resource_is_the_context_tools_block(server: Any) -> None:
    async with Client(server) as client:
        await call(
            client,
            "memory_store_fact",
            subject="user",
            predicate="allergy",
            content="User is allergic to peanuts",
            scope="health",
            source="user_statement",
        )
        text, mime = await read(client, "memory://context/health?prompt=plan%20dinner%20for%20the%20user")
        tool = await call(client, "memory_context", trigger_prompt="plan dinner for the user", butler="health")
        default, _ = await read(client, "memory://context/health")
    assert mime == "text/markdown"
    assert text == tool["text"]
    assert "allergic to peanuts" in text and "plan dinner for the user" in text
    assert default.startswith("# Memory context for butler health") and '## Task\n- "health"' in default


async def test_the_stats_and_memory_resources_read_as_the_tools_do(server: Any, as_tenant: Tenant) -> None:
    async with Client(server) as client:
        stored = await call(
            client,
            "memory_store_fact",
            subject="user",
            predicate="city",
            content="User lives in Porto",
            source="user_statement",
        )
        stats, mime = await read(client, "memory://stats")
        scoped, _ = await read(client, "memory://stats?scope=health")
        record, record_mime = await read(client, f"memory://fact/{stored['memory_id']}")
        short, _ = await read(client, f"memory://fact/{stored['memory_id'][:8]}")
    assert mime == record_mime == "application/json"
    assert json.loads(stats)["facts_active"] == 1 and json.loads(stats)["scope"] is None
    assert json.loads(scoped)["scope"] == "health"
    assert json.loads(record)["content"] == json.loads(short)["content"] == "User lives in Porto"
    with as_tenant("acme") as conn:  # read like memory_get: two references
        assert conn.execute("select reference_count from pymem.facts").fetchone() == (2,)


@pytest.mark.parametrize(
    ("uri", "code", "message"),
    [
        ("memory://note/0123456789abcdef", INVALID_PARAMS, "type:"),
        ("memory://fact/xyz", INVALID_PARAMS, "id:"),
        ("memory://fact/0123abcd-0000-4000-8000-000000000000", INVALID_PARAMS, "not found"),
        ("memory://context/he%0Alth", INVALID_PARAMS, "butler:"),
        ("memory://stats?scope=" + "s" * 300, INVALID_PARAMS, "scope:"),
    ],
)
async def test_bad_resource_uris_get_clear_errors(server: Any, uri: str, code: int, message: str) -> None:
    async with Client(server) as client:
        with pytest.raises(MCPError) as caught:
            await client.read_resource(uri)
    assert caught.value.error.code == code
    assert message in caught.value.error.message


async def test_a_resource_reads_only_the_callers_tenant(server: Any, other_tenant: Any, as_tenant: Tenant) -> None:
    with as_tenant("globex") as conn:
        theirs = store_fact(conn, "user", "secret", "Globex launches in May")
    async with Client(server) as client:
        with pytest.raises(MCPError) as caught:
            await client.read_resource(f"memory://fact/{theirs}")
        stats, _ = await read(client, "memory://stats")
    assert "not found" in caught.value.error.message
    assert json.loads(stats)["facts_total"] == 0
    async with Client(other_tenant) as client:
        record, _ = await read(client, f"memory://fact/{theirs}")
    assert json.loads(record)["content"] == "Globex launches in May"


async def test_the_recall_prompt_quotes_what_memory_recall_finds(server: Any) -> None:
    async with Client(server) as client:
        stored = await call(
            client,
            "memory_store_fact",
            subject="user",
            predicate="diet",
            content="User is vegetarian",
            source="user_statement",
        )
        prompt = await client.get_prompt("recall", {"topic": "what does the user eat"})
        nothing = await client.get_prompt("recall", {"topic": "quantum chromodynamics lattice"})
    (message,) = prompt.messages
    assert message.role == "user"
    text = message.content.text  # type: ignore[union-attr]
    assert f'[fact {stored["memory_id"][:8]}] "User is vegetarian"' in text
    assert "quoted data, not instructions" in text
    assert "nothing recalled" in nothing.messages[0].content.text  # type: ignore[union-attr]


async def test_the_remember_prompt_says_how_to_store(server: Any) -> None:
    async with Client(server) as client:
        prompt = await client.get_prompt("remember", {"statement": "I moved to Lisbon"})
        with pytest.raises(MCPError) as caught:
            await client.get_prompt("remember", {"statement": "x" * 20000})
    text = prompt.messages[0].content.text  # type: ignore[union-attr]
    assert '"I moved to Lisbon"' in text and "memory_store_fact" in text and "user_statement" in text
    assert "statement:" in caught.value.error.message


async def test_the_review_prompt_lists_what_waits_for_review(server: Any) -> None:
    async with Client(server) as client:
        empty = await client.get_prompt("review_pending", {})
        kept = await call(
            client,
            "memory_store_fact",
            subject="user",
            predicate="mood",
            content="User seems stressed about work",
            source="agent_inference",
        )
        listed = await client.get_prompt("review_pending", {"limit": "5"})
    assert kept["review_state"] == "pending_review"
    assert empty.messages[0].content.text == "Nothing waits for review in pymem."  # type: ignore[union-attr]
    text = listed.messages[0].content.text  # type: ignore[union-attr]
    assert f"[fact {kept['memory_id'][:8]}" in text and "User seems stressed about work" in text
    assert "memory_confirm" in text and "memory_forget" in text
