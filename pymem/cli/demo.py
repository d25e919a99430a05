"""`make demo`: an agent's session with pymem, through a real MCP client session.

Starts (and migrates) the embedded database, builds the MCP server as `pymem serve` does for
tenant "demo", connects the SDK's client to it, and plays what an agent would do: store
episodes and facts, supersede one, store a rule and give it feedback, store an inference (kept
for review) and a speculation (refused), consolidate the episodes into facts, search, recall, and
build the memory block for a system prompt with memory_context.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

import anyio
from mcp import Client

from pymem import butlers
from pymem.config import Settings
from pymem.database import open_database
from pymem.embeddings import EmbeddingService, embedder_from_settings
from pymem.mcp_server import ServerOptions, build_server
from pymem.pool import make_pool
from pymem.tenancy import tenant_transaction

TENANT = "demo"
EPISODES = [
    ("health", "User said they felt bloated after a latte this morning."),
    ("health", "User asked for a dinner recipe without cheese."),
    ("travel", "User is planning a trip to Lisbon in May."),
    ("health", "User: I'm allergic to peanuts btw, found out the hard way last year"),
]
FACTS: list[dict[str, Any]] = [
    {"subject": "user", "predicate": "favorite_color", "content": "The user's favourite colour is green."},
    {
        "subject": "user",
        "predicate": "diet",
        "content": "The user is lactose intolerant and avoids dairy.",
        "permanence": "stable",
        "scope": "health",
        "importance": 8.0,
    },
    {"subject": "user", "predicate": "home_city", "content": "The user lives in Berlin.", "permanence": "stable"},
    {"subject": "user", "predicate": "favorite_color", "content": "The user's favourite colour is now blue."},
]
RULE = {"content": "Suggest plant-based milk when the user asks for coffee or recipes.", "scope": "health"}
# grounded ingestion: an inference without a citation waits for review; speculation is refused
INFERRED = {
    "subject": "user",
    "predicate": "cuisine",
    "content": "The user prefers Italian food.",
    "source": "agent_inference",
}
SPECULATION = {
    "subject": "user",
    "predicate": "job",
    "content": "The user might be a nurse.",
    "source": "agent_inference",
}
TOPIC = "Can the user drink milk or eat dairy?"
SEARCH = "Lisbon trip"
PROMPT = "Help the user plan tonight's dinner"


def _show(out: TextIO, tool: str, arguments: dict[str, Any]) -> None:
    shown = ", ".join(f"{k}={v!r}" for k, v in arguments.items())
    print(f"> {tool}({shown[:110]}{'...' if len(shown) > 110 else ''})", file=out)


async def _refused(client: Client, out: TextIO, tool: str, **arguments: Any) -> str:
    """The error text of a call that must fail (a refused store)."""
    _show(out, tool, arguments)
    result = await client.call_tool(tool, arguments)
    if not result.is_error:
        raise RuntimeError(f"{tool} should have been refused, returned {result.structured_content}")
    return " ".join(getattr(part, "text", "") for part in result.content)


async def _call(client: Client, out: TextIO, tool: str, **arguments: Any) -> dict[str, Any]:
    _show(out, tool, arguments)
    result = await client.call_tool(tool, arguments)
    if result.is_error:
        raise RuntimeError(f"{tool} failed: {result.content}")
    content: dict[str, Any] | None = result.structured_content
    assert content is not None
    return content


async def session(client: Client, out: TextIO) -> None:
    tools = (await client.list_tools()).tools
    print(f"Connected: {len(tools)} tools ({', '.join(t.name for t in tools)})\n", file=out)

    for butler, content in EPISODES:
        await _call(client, out, "memory_store_episode", content=content, butler=butler)
    first_color = ""
    for fact in FACTS:
        stored = await _call(client, out, "memory_store_fact", **fact)
        if fact["predicate"] == "favorite_color" and not first_color:
            first_color = stored["memory_id"]
        if stored["supersedes_id"]:
            print(f"  superseded {stored['supersedes_id']} (same subject and predicate)", file=out)
    rule = await _call(client, out, "memory_store_rule", **RULE)
    feedback = await _call(client, out, "memory_mark_helpful", rule_id=rule["memory_id"])
    print(f"  rule maturity {feedback['maturity']}, effectiveness {feedback['effectiveness_score']:.2f}", file=out)
    old = await _call(client, out, "memory_get", type="fact", id=first_color)
    print(f"  the first colour fact is now {old['state']!r}: {old['content']}", file=out)

    print(file=out)
    inferred = await _call(client, out, "memory_store_fact", **INFERRED)
    print(f"  {inferred['review_state']}: {inferred['review_reason']}", file=out)
    print(f"  error: {await _refused(client, out, 'memory_store_fact', **SPECULATION)}", file=out)

    print(file=out)
    consolidated = await _call(client, out, "memory_consolidate")
    print(
        f"  {consolidated['extractor']} extractor: {consolidated['episodes']} episodes consolidated into"
        f" {consolidated['facts']} fact(s) and {consolidated['rules']} rule(s), each citing its episode",
        file=out,
    )
    derived = await _call(client, out, "memory_search", query="allergic to peanuts", types=["fact"], limit=1)
    for hit in derived["results"]:
        print(f"  {hit['content']} (source episode {hit['source_episode_id']})", file=out)

    print(file=out)
    found = await _call(client, out, "memory_search", query=SEARCH, limit=3)
    print("  score (RRF)  relevance", file=out)
    for hit in found["results"]:
        print(
            f"  {hit['score']:.4f}       {hit['relevance']:.3f}      {hit['memory_type']:<7} {hit['content']}", file=out
        )

    print(file=out)
    recalled = await _call(client, out, "memory_recall", topic=TOPIC, limit=4)
    print("  score = 0.4 relevance + 0.3 importance + 0.2 recency + 0.1 confidence", file=out)
    for hit in recalled["results"]:
        parts = (
            f"0.4*{hit['relevance']:.2f} + 0.3*{hit['importance']:.2f} + 0.2*{hit['recency']:.2f}"
            f" + 0.1*{hit['effective_confidence']:.2f}"
        )
        print(f"  {hit['score']:.3f} = {parts}  {hit['memory_type']:<4} {hit['content']}", file=out)
    everything = await _call(client, out, "memory_recall", topic=TOPIC, limit=4, min_relevance=0)
    recalled_ids = {hit["memory_id"] for hit in recalled["results"]}
    for hit in everything["results"]:
        if hit["memory_id"] not in recalled_ids:
            # left out by the relevance floor or by the focus check (the demo's topic names the user, a subject)
            print(
                f"  not recalled (floor or focus check), relevance {hit['relevance']:.4f}: {hit['content']}", file=out
            )

    print(file=out)
    block = await _call(client, out, "memory_context", trigger_prompt=PROMPT, butler="health", token_budget=400)
    print(f"  {block['token_count']} of {block['token_budget']} tokens:\n", file=out)
    for line in block["text"].splitlines():
        print(f"    {line}", file=out)

    print(file=out)
    stats = await _call(client, out, "memory_stats")
    print(
        f"  facts {stats['facts_active']} active, {stats['facts_superseded']} superseded; rules"
        f" {stats['rules_candidate']} candidate; {stats['facts_pending_review']} fact kept for review; episodes"
        f" {stats['episodes_unconsolidated']} unconsolidated; semantic search {stats['semantic_search']}",
        file=out,
    )


def run(out: TextIO = sys.stdout, settings: Settings | None = None) -> None:
    started = time.perf_counter()
    settings = settings or Settings.from_env()
    embedder = embedder_from_settings(settings)
    print("Starting the database and migrating it ...", file=out)
    db = open_database(settings)
    pool = make_pool(db.app_dsn, open=False)
    pool.open(wait=True)
    try:
        with pool.connection() as conn, tenant_transaction(conn, TENANT, actor="pymem-demo"):
            # a fresh start for the demo tenant only (pymem_app deletes through pymem_private.delete_memories)
            conn.execute(
                "select pymem_private.delete_memories(array_agg(m.t), array_agg(m.i)) from ("
                " select 'fact', f.id from pymem.facts as f union all select 'rule', r.id from pymem.rules as r"
                " union all select 'episode', e.id from pymem.episodes as e) as m (t, i)"
            )
        server = build_server(
            ServerOptions(
                pool=pool,
                embeddings=EmbeddingService(embedder),
                stdio_tenant=TENANT,
                butlers_dir=butlers.butlers_dir(),
                owns_pool=False,
            )
        )
        model = embedder.model_id if embedder is not None else "off (keyword search only)"
        print(f"MCP server for tenant {TENANT!r}; embeddings: {model}\n", file=out)

        async def main() -> None:
            async with Client(server) as client:
                await session(client, out)

        anyio.run(main)
    finally:
        pool.close()
    print(
        f"\nDone in {time.perf_counter() - started:.1f}s. Explore it in SQL, bound to the tenant:\n"
        f'  psql "$(.venv/bin/pymem db url --tenant {TENANT})" -c "select memory_type, score, content'
        " from memory_recall(topic => 'diet')\"\n"
        "Or point an MCP client at `pymem serve` (docs/agents.md).",
        file=out,
    )
