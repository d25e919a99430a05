"""`pymem serve` as a real process: stdio servers configured for two tenants, and the
streamable HTTP server with bearer tokens (valid, bad, expired, missing scope, admin and
non-admin as_tenant). The MCP client is the SDK's, talking over a pipe or over HTTP."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import anyio
import httpx2
import psycopg
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from psycopg.conninfo import make_conninfo

from pymem import bearer_tokens, embedded
from pymem.embeddings import MODEL_ID
from pymem_dev.stress import spawn_http_server
from tests.conftest import base_env, migrated_database
from tests.mcpclient import TOOLS, call, call_error

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def served_db(pg_server: embedded.EmbeddedServer) -> Iterator[str]:
    """A database of its own for the server processes of this module (migrated like a fresh install)."""
    with migrated_database(pg_server, "pymem_served") as dsn:
        yield dsn


def pymem_command() -> str:
    found = shutil.which("pymem", path=str(Path(sys.executable).parent))
    assert found, "the pymem console script is not installed in this environment"
    return found


def stdio_params(dsn: str, tenant: str | None, tmp: Path) -> StdioServerParameters:
    # XDG_CONFIG_HOME: no config file, only the environment configures the server
    extra = {"PYMEM_DSN": dsn, "PYMEM_BUTLERS_DIR": str(tmp / "butlers"), "XDG_CONFIG_HOME": str(tmp)}
    if tenant is not None:
        extra["PYMEM_TENANT"] = tenant
    return StdioServerParameters(command=pymem_command(), args=["serve"], env=base_env(**extra))


async def test_two_stdio_servers_for_two_tenants_never_see_each_other(served_db: str, tmp_path: Path) -> None:
    async with (
        Client(stdio_params(served_db, "stdio-one", tmp_path)) as one,
        Client(stdio_params(served_db, "stdio-two", tmp_path)) as two,
    ):
        assert {t.name for t in (await one.list_tools()).tools} == TOOLS
        mine = await call(
            one, "memory_store_fact", subject="user", predicate="secret", content="The vault code is 4711"
        )
        assert mine["tenant_id"] == "stdio-one"
        theirs = await call(
            two, "memory_store_fact", subject="user", predicate="secret", content="The vault code is 9999"
        )
        assert theirs["tenant_id"] == "stdio-two" and theirs["supersedes_id"] is None  # not the other's fact

        seen_by_two = await call(two, "memory_search", query="vault code")
        assert [h["memory_id"] for h in seen_by_two["results"]] == [theirs["memory_id"]]
        recalled_by_one = await call(one, "memory_recall", topic="vault code")
        assert [h["memory_id"] for h in recalled_by_one["results"]] == [mine["memory_id"]]
        assert "not found" in await call_error(two, "memory_get", type="fact", id=mine["memory_id"])
        assert "not found" in await call_error(two, "memory_forget", type="fact", id=mine["memory_id"])
        assert (await call(one, "memory_stats"))["facts_active"] == 1


async def test_a_tenant_argument_is_refused_not_ignored(served_db: str, tmp_path: Path) -> None:
    async with Client(stdio_params(served_db, "stdio-one", tmp_path)) as client:
        for selector in ("tenant", "tenant_id"):
            with pytest.raises(MCPError) as refused:
                await client.call_tool("memory_recall", {"topic": "vault", selector: "stdio-two"})
            assert refused.value.code == -32602 and "tenant" in refused.value.message
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("memory_stats", {"verbose": True})
        assert "verbose" in unknown.value.message
        message = await call_error(client, "memory_stats", as_tenant="stdio-two")
        assert "memory:admin" in message


async def test_the_first_call_runs_with_the_butler_files_written(served_db: str, tmp_path: Path) -> None:
    """`pymem serve` writes its butler files into the tenant beside the MCP handshake, not before it: a first call
    that reaches the database waits for them. Here (without a model, so that the call does not wait for one) the
    very first call stores an episode of a butler whose file says a 2.5-day TTL, while 300 more files are written."""
    for name in ["health", *(f"other-{i:03}" for i in range(300))]:
        butler = tmp_path / "butlers" / name / "butler.toml"
        butler.parent.mkdir(parents=True)
        butler.write_text("episode_ttl_days = 2.5\n")
    params = stdio_params(served_db, "stdio-butlers", tmp_path)
    params.env = {**(params.env or {}), "PYMEM_EMBEDDINGS": "off"}
    async with Client(params) as client:
        stored = await call(client, "memory_store_episode", content="The user takes ibuprofen", butler="health")
    with psycopg.connect(served_db, autocommit=True) as conn:
        row = conn.execute("select expires_at - created_at from pymem.episodes where id = %s", (stored["memory_id"],))
        assert row.fetchone() == (timedelta(days=2.5),)


async def test_a_first_call_that_needs_the_model_loads_it_and_waits(served_db: str, tmp_path: Path) -> None:
    """`pymem serve` loads its embedding model after its first answer, not before it: a first call that needs the
    model starts the load and waits for it. The very first call stores a fact: it is embedded by the model the
    server recorded before serving, and a semantic search finds it."""
    async with Client(stdio_params(served_db, "stdio-model", tmp_path)) as client:
        stored = await call(
            client, "memory_store_fact", subject="user", predicate="painkiller", content="The user takes ibuprofen"
        )
        assert stored["embedded"] is True
        with psycopg.connect(served_db, autocommit=True) as conn:
            row = conn.execute("select embedding_model from pymem.facts where id = %s", (stored["memory_id"],))
            assert row.fetchone() == (MODEL_ID,)
            assert conn.execute("select pymem.memory_embedding_model()").fetchone() == (MODEL_ID,)
        found = await call(client, "memory_search", query="which medicine for back pain", mode="semantic")
        assert [h["memory_id"] for h in found["results"]] == [stored["memory_id"]]


async def test_the_model_loads_after_the_first_answer_without_a_call_that_needs_it(
    served_db: str, tmp_path: Path
) -> None:
    """The first answer (memory_stats) does not wait for the model; the server then loads it in the background, so
    that the first search after a while does not wait for it either: memory_stats says 'ready' soon after, though
    no call has embedded anything."""
    async with Client(stdio_params(served_db, "stdio-warm", tmp_path)) as client:
        first = await call(client, "memory_stats")
        assert first["semantic_search"] in ("loading", "ready") and first["facts_total"] == 0
        with anyio.fail_after(120):
            while (await call(client, "memory_stats"))["semantic_search"] != "ready":
                await anyio.sleep(0.2)


def test_the_server_leaves_logging_set_up_before_it_alone_and_does_not_import_rich() -> None:
    """`pymem serve` sets up logging before it builds the server (pymem.cli.main). The SDK's own set-up, which
    imports rich (25-60 ms before the first answer) for a handler that logging.basicConfig then drops, is skipped
    then, and only then: without a handler on the root logger the SDK sets logging up as it always did."""
    script = """
import logging, sys
configured = sys.argv[1] == "configured"
if configured:
    logging.basicConfig(level=logging.WARNING, format="pymem: %(message)s")
from pymem.embeddings import EmbeddingService
from pymem.mcp_server import ServerOptions, build_server
from pymem.pool import make_pool
pool = make_pool("dbname=none", open=False)
build_server(ServerOptions(pool=pool, embeddings=EmbeddingService(None), stdio_tenant="t"))
handlers = [type(h).__name__ for h in logging.getLogger().handlers]
print("rich" in sys.modules, handlers)
"""
    outputs = {
        how: subprocess.run(
            [sys.executable, "-c", script, how], env=base_env(), capture_output=True, text=True, timeout=120, check=True
        ).stdout.strip()
        for how in ("configured", "not configured")
    }
    assert outputs == {"configured": "False ['StreamHandler']", "not configured": "True ['RichHandler']"}


def test_stdio_without_a_tenant_refuses_to_start(served_db: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [pymem_command(), "serve"],
        env=base_env(PYMEM_DSN=served_db, XDG_CONFIG_HOME=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode != 0
    assert "PYMEM_TENANT" in result.stderr


@pytest.fixture(scope="module")
def http_server(served_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with spawn_http_server(base_env(PYMEM_DSN=served_db), tmp_path_factory.mktemp("http")) as server:
        yield server.url


@asynccontextmanager
async def http_client(url: str, token: str | None) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=120) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield client


async def post_initialize(url: str, token: str | None) -> httpx2.Response:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    body: dict[str, Any] = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }
    async with httpx2.AsyncClient(timeout=30) as http:
        return await http.post(url, json=body, headers=headers)


async def test_http_refuses_missing_bad_and_expired_tokens(http_server: str, served_db: str) -> None:
    assert (await post_initialize(http_server, None)).status_code == 401
    assert (await post_initialize(http_server, "pmt_not-a-real-token")).status_code == 401
    expired = bearer_tokens.create_token(served_db, "http-a", expires_in=timedelta(milliseconds=300))
    await anyio.sleep(0.4)  # the token's real lifetime runs out
    assert (await post_initialize(http_server, expired.token)).status_code == 401
    revoked = bearer_tokens.create_token(served_db, "http-a")
    bearer_tokens.revoke_token(served_db, revoked.id)
    assert (await post_initialize(http_server, revoked.token)).status_code == 401


async def test_http_refuses_a_token_without_the_read_scope_with_403(http_server: str, served_db: str) -> None:
    token = "pmt_" + "w" * 43
    with psycopg.connect(served_db, autocommit=True) as conn:
        conn.execute(
            "select pymem_private.token_issue(%s, %s, array['memory:write'], null, 'write only')",
            ("http-a", bearer_tokens.hash_token(token)),
        )
    assert (await post_initialize(http_server, token)).status_code == 403


async def test_http_tokens_bind_the_tenant_and_scopes(http_server: str, served_db: str) -> None:
    writer = bearer_tokens.create_token(served_db, "http-a")
    reader = bearer_tokens.create_token(served_db, "http-a", read_only=True)
    other = bearer_tokens.create_token(served_db, "http-b")
    async with http_client(http_server, writer.token) as client:
        assert {t.name for t in (await client.list_tools()).tools} == TOOLS
        stored = await call(
            client, "memory_store_fact", subject="user", predicate="home", content="User lives in Bergen"
        )
        assert stored["tenant_id"] == "http-a"
    async with http_client(http_server, reader.token) as client:
        found = await call(client, "memory_search", query="Bergen")
        assert [h["memory_id"] for h in found["results"]] == [stored["memory_id"]]
        message = await call_error(client, "memory_forget", type="fact", id=stored["memory_id"])
        assert "memory:write" in message
    async with http_client(http_server, other.token) as client:
        assert (await call(client, "memory_search", query="Bergen"))["results"] == []
        assert "memory:admin" in await call_error(client, "memory_search", query="Bergen", as_tenant="http-a")


async def test_http_resources_and_prompts_follow_the_tokens_tenant(http_server: str, served_db: str) -> None:
    owner = bearer_tokens.create_token(served_db, "http-r")
    other = bearer_tokens.create_token(served_db, "http-s")
    async with http_client(http_server, owner.token) as client:
        stored = await call(
            client, "memory_store_fact", subject="user", predicate="pet", content="User has a parrot called Kiwi"
        )
        record = await client.read_resource(f"memory://fact/{stored['memory_id']}")
        prompt = await client.get_prompt("recall", {"topic": "the user's parrot"})
    assert json.loads(record.contents[0].text)["content"] == "User has a parrot called Kiwi"  # type: ignore[union-attr]
    assert "Kiwi" in prompt.messages[0].content.text  # type: ignore[union-attr]
    async with http_client(http_server, other.token) as client:
        with pytest.raises(MCPError) as caught:
            await client.read_resource(f"memory://fact/{stored['memory_id']}")
        stats = await client.read_resource("memory://stats")
    assert "not found" in caught.value.error.message
    assert json.loads(stats.contents[0].text)["facts_total"] == 0  # type: ignore[union-attr]


async def test_http_admin_reaches_another_tenant_only_with_as_tenant_and_is_audited(
    http_server: str, served_db: str
) -> None:
    owner = bearer_tokens.create_token(served_db, "http-c")
    admin = bearer_tokens.create_token(served_db, "ops", admin=True)
    async with http_client(http_server, owner.token) as client:
        stored = await call(
            client, "memory_store_fact", subject="user", predicate="plan", content="User is on the gold plan"
        )
    async with http_client(http_server, admin.token) as client:
        own = await call(client, "memory_search", query="gold plan")
        assert own["results"] == []  # without as_tenant the admin is in its own tenant
        theirs = await call(client, "memory_search", query="gold plan", as_tenant="http-c")
        assert [h["memory_id"] for h in theirs["results"]] == [stored["memory_id"]]
        fixed = await call(
            client,
            "memory_store_fact",
            subject="user",
            predicate="plan",
            content="User is on the silver plan",
            as_tenant="http-c",
        )
        assert fixed["tenant_id"] == "http-c" and fixed["supersedes_id"] == stored["memory_id"]
    with psycopg.connect(make_conninfo(served_db), autocommit=True) as conn:
        events = conn.execute(
            "select tenant_id, details->>'admin_tenant', details->>'as_tenant', session_role"
            " from pymem.memory_events where operation = 'admin_elevation' and tenant_id = 'http-c'"
        ).fetchall()
    assert len(events) == 2
    assert {e[:3] for e in events} == {("http-c", "ops", "http-c")}


async def test_http_limits_a_token_to_32_open_sessions_by_default(http_server: str, served_db: str) -> None:
    """One token once opened 200 sessions in 0.76 s. By default a token holds 32
    (PYMEM_MAX_SESSIONS_PER_TOKEN); the 33rd initialize is answered 429 saying so, another token's is served."""
    greedy = bearer_tokens.create_token(served_db, "http-greedy", read_only=True).token
    opened = [(await post_initialize(http_server, greedy)).status_code for _ in range(32)]
    assert opened == [200] * 32
    refused = await post_initialize(http_server, greedy)
    assert refused.status_code == 429 and "PYMEM_MAX_SESSIONS_PER_TOKEN=32" in refused.json()["error"]["message"]
    other = bearer_tokens.create_token(served_db, "http-modest").token
    assert (await post_initialize(http_server, other)).status_code == 200


def initialize_body(size: int) -> bytes:
    """An initialize request padded (in clientInfo.name) to exactly size bytes."""
    body: dict[str, Any] = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "", "version": "0"}},
    }
    padding = size - len(json.dumps(body).encode())
    body["params"]["clientInfo"]["name"] = "p" * padding
    encoded = json.dumps(body).encode()
    assert len(encoded) == size
    return encoded


async def test_http_refuses_a_body_over_the_cap_with_413_before_parsing_it(http_server: str, served_db: str) -> None:
    """The SDK's own cap is 4 MiB, so 3.3 MB stores once reached the tool and the model. pymem
    serve caps a request body at PYMEM_MAX_REQUEST_BODY (default 2 MiB): past it the answer is 413, whether the
    body declares its length or streams in chunks; up to it the request is served, and a content too long for
    SQL is the tool's own error naming the argument."""
    token = bearer_tokens.create_token(served_db, "http-big").token
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "Authorization": f"Bearer {token}",
    }
    cap = 2 * 1024 * 1024
    oversized = initialize_body(3_300_000)

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(oversized), 64 * 1024):
            yield oversized[start : start + 64 * 1024]

    async with httpx2.AsyncClient(timeout=30) as http:
        assert (await http.post(http_server, content=oversized, headers=headers)).status_code == 413
        assert (await http.post(http_server, content=initialize_body(cap + 1), headers=headers)).status_code == 413
        streamed = await http.post(http_server, content=chunks(), headers=headers)
        assert streamed.status_code == 413 and "content-length" not in streamed.request.headers
        assert (await http.post(http_server, content=initialize_body(cap), headers=headers)).status_code == 200
    async with http_client(http_server, token) as client:
        message = await call_error(client, "memory_store_fact", subject="s", predicate="p", content="x" * 1_500_000)
        assert "content" in message and "at most 100000 characters" in message


def inspector() -> list[str] | None:
    """The MCP inspector's CLI (an independent client, in Node), when npx can run it (from its
    cache, or fetched from the npm registry)."""
    npx = shutil.which("npx")
    if npx is None:
        return None
    probe = subprocess.run(
        [npx, "--yes", "--prefer-offline", "@modelcontextprotocol/inspector", "--cli", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    return (
        [npx, "--yes", "--prefer-offline", "@modelcontextprotocol/inspector", "--cli"]
        if probe.returncode == 0
        else None
    )


def test_an_independent_client_the_mcp_inspector_cli(served_db: str, tmp_path: Path) -> None:
    command = inspector()
    if command is None:
        pytest.skip("npx or the @modelcontextprotocol/inspector package is not available")
    # keyword-only (no model to load): this test is about the protocol, not the embeddings
    env = ["-e", "PYMEM_TENANT=inspected", "-e", f"PYMEM_DSN={served_db}", "-e", "PYMEM_EMBEDDINGS=off"]
    server = [pymem_command(), "serve"]

    def run(*method: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*command, *env, *server, *method],
            capture_output=True,
            text=True,
            timeout=180,
            env=base_env(XDG_CONFIG_HOME=str(tmp_path)),
            stdin=subprocess.DEVNULL,
        )

    listed = run("--method", "tools/list")
    assert listed.returncode == 0, listed.stderr
    assert {t["name"] for t in json.loads(listed.stdout)["tools"]} == TOOLS
    stored = run(
        "--method",
        "tools/call",
        "--tool-name",
        "memory_store_fact",
        "--tool-arg",
        "subject=user",
        "--tool-arg",
        "predicate=diet",
        "--tool-arg",
        "content=User is vegetarian",
    )
    assert stored.returncode == 0, stored.stderr
    assert json.loads(stored.stdout)["structuredContent"]["tenant_id"] == "inspected"
    refused = run(
        "--method",
        "tools/call",
        "--tool-name",
        "memory_recall",
        "--tool-arg",
        "topic=food",
        "--tool-arg",
        "tenant_id=other",
    )
    assert refused.returncode != 0 and "-32602" in refused.stdout + refused.stderr


async def test_240_concurrent_http_calls_over_four_tenants_return_no_foreign_row(
    http_server: str, served_db: str
) -> None:
    """What a probe of main measured once, kept: four tenants, each with its own token and the same
    memories by subject and wording, 240 concurrent calls (stores, searches, recalls, gets, contexts) through
    one server; every id and tenant_id a call returns is the caller's own."""
    tenants = [f"conc-{n}" for n in range(4)]
    tokens = {t: bearer_tokens.create_token(served_db, t).token for t in tenants}
    owned: dict[str, set[str]] = {t: set() for t in tenants}
    seen: dict[str, list[str]] = {t: [] for t in tenants}
    calls = [0]

    async def session(tenant: str, worker: int) -> None:
        async with http_client(http_server, tokens[tenant]) as client:
            for i in range(20):
                kind = (worker + i) % 4
                if kind == 0:
                    stored = await call(
                        client,
                        "memory_store_fact",
                        subject="user",
                        predicate=f"note {worker} {i}",
                        content=f"The user keeps a private note number {i} about the garden",
                    )
                    assert stored["tenant_id"] == tenant
                    owned[tenant].add(stored["memory_id"])
                elif kind == 1:
                    found = await call(client, "memory_search", query="private note garden", limit=50)
                    seen[tenant] += [h["memory_id"] for h in found["results"]]
                elif kind == 2:
                    found = await call(client, "memory_recall", topic="the user's private notes", min_relevance=0)
                    seen[tenant] += [h["memory_id"] for h in found["results"]]
                else:
                    block = await call(client, "memory_context", trigger_prompt="garden notes", butler="general")
                    seen[tenant] += [item["memory_id"] for item in block["items"]]
                calls[0] += 1

    async with anyio.create_task_group() as group:
        for tenant in tenants:
            for worker in range(3):
                group.start_soon(session, tenant, worker)
    assert calls[0] == 240
    for tenant in tenants:
        assert seen[tenant], tenant  # the reads did find something
        assert set(seen[tenant]) <= owned[tenant], tenant  # and only the tenant's own


async def test_pymem_serve_with_the_second_encoder_records_it_and_its_worker_fills_the_vectors(
    served_db: str, tmp_path: Path
) -> None:
    """PYMEM_SECOND_ENCODER=mpnet-qint8: `pymem serve` records the model, its worker (from 15 s after start) stores
    the second vector of what the tools stored, and the tools answer with the leg on."""
    params = stdio_params(served_db, "stdio-second", tmp_path)
    params.env = {**(params.env or {}), "PYMEM_SECOND_ENCODER": "mpnet-qint8"}
    async with Client(params) as client:
        stored = await call(
            client, "memory_store_fact", subject="ana", predicate="wedding", content="Ana marries in May"
        )
        with psycopg.connect(served_db, autocommit=True) as conn:
            model = conn.execute("select pymem.memory_second_embedding_model()").fetchone()
            row = None
            with anyio.fail_after(90):
                while row is None:
                    await anyio.sleep(1)
                    row = conn.execute(
                        "select embedding_model, vector_dims(embedding) from pymem.second_embeddings where id = %s",
                        (stored["memory_id"],),
                    ).fetchone()
        found = await call(client, "memory_search", query="when is Ana's wedding?", types=["fact"])
    assert model == ("sentence-transformers/all-mpnet-base-v2@qint8",)
    assert row == ("sentence-transformers/all-mpnet-base-v2@qint8", 768)
    assert [h["memory_id"] for h in found["results"]] == [stored["memory_id"]]
