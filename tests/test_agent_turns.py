"""memory_search's agent_turn_weight (migration 0034): an episode that is an assistant's turn of a chat ("Assistant:
...", as the Claude Code hooks store them) scores agent_turn_weight times (0.9 by default) what it would, so the user's
own words come first when both match as well; as pymem_app, through the SQL API and the MCP tool."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from mcp import Client
from psycopg_pool import ConnectionPool

from pymem.embeddings import Embedder
from tests.conftest import Tenant
from tests.mcpclient import call as tool_call
from tests.mcpclient import call_error, stdio_like_server
from tests.sqlapi import ago, call, store_episode, store_fact

QUERY = "sore knee after running"


def _search(conn: psycopg.Connection[Any], embedder: Embedder, **options: Any) -> dict[Any, dict[str, Any]]:
    rows = call(conn, "memory_search", query=QUERY, query_embedding=embedder.embed(QUERY), **options)
    return {r["memory_id"]: r for r in rows}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("User: my knee hurts", "user"),
        ("Assistant: try resting it", "agent"),
        ("  AI:  try resting it", "agent"),
        ("Bot: noted", "agent"),
        ("Maya: I ran 10k", "person"),
        ("Note: buy ice", None),
        ("my knee hurts", None),
        ("Assistant:no space after the colon", None),
        ("", None),
    ],
)
def test_the_speaker_that_opens_a_turn(as_tenant: Tenant, text: str, kind: str | None) -> None:
    with as_tenant("acme") as conn:
        assert conn.execute("select pymem_private.turn_speaker_kind(%s)", (text,)).fetchone() == (kind,)


def test_an_assistant_turn_ranks_below_the_users_that_matches_as_well(as_tenant: Tenant, embedder: Embedder) -> None:
    """Two turns with the same words and the same vector: the assistant's, newer, wins the tie with the weight off
    (ties go to the newer) and comes second by default, its score times 0.9; a named person's turn, an unlabelled
    episode and a fact are never weighed."""
    vector = embedder.embed("sore knee after running")
    with as_tenant("acme") as conn:
        same = {"embedding": vector, "embedding_model": embedder.model_id}
        user = store_episode(conn, "User: sore knee after running", "chat", observed_at=ago(2), **same)
        agent = store_episode(conn, "Assistant: sore knee after running", "chat", observed_at=ago(1), **same)
        others = [
            store_episode(conn, "Maya: my sore knee after running", "chat", embedder),
            store_episode(conn, "a sore knee after running again", "chat", embedder),
            store_fact(conn, "user", "knee", "The user had a sore knee after running", embedder),
        ]
        weighed = _search(conn, embedder)
        off = _search(conn, embedder, agent_turn_weight=1)
        half = _search(conn, embedder, agent_turn_weight=0.5)
    assert list(off).index(agent) < list(off).index(user)
    assert list(weighed).index(user) < list(weighed).index(agent)
    assert weighed[agent]["score"] == pytest.approx(0.9 * off[agent]["score"])
    assert half[agent]["score"] == pytest.approx(0.5 * off[agent]["score"])
    assert weighed[user]["score"] == off[user]["score"]
    for memory in others:
        assert weighed[memory]["score"] == off[memory]["score"]


@pytest.mark.parametrize("weight", [0, 0.001, 1.5, None, float("nan")])
def test_agent_turn_weight_is_checked(as_tenant: Tenant, embedder: Embedder, weight: float | None) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        _search(conn, embedder, agent_turn_weight=weight)
    assert caught.value.sqlstate == "PM002"
    assert "agent_turn_weight must be between 0.01 and 1" in str(caught.value)


def _same_turns(conn: psycopg.Connection[Any], embedder: Embedder) -> tuple[Any, Any]:
    """The user's turn and, newer, the assistant's, with the same words and the same vector."""
    same = {"embedding": embedder.embed(QUERY), "embedding_model": embedder.model_id}
    user = store_episode(conn, f"User: {QUERY}", "chat", observed_at=ago(2), **same)
    agent = store_episode(conn, f"Assistant: {QUERY}", "chat", observed_at=ago(1), **same)
    return user, agent


def test_the_reranker_candidates_are_weighed_as_memory_search_weighs_them(
    as_tenant: Tenant, embedder: Embedder
) -> None:
    """memory_rerank_candidates (stage 1 of a cross-encoder's search) passes agent_turn_weight on: its rows are
    memory_search's with the same weight, and with none given, memory_search's default."""
    with as_tenant("acme") as conn:
        user, agent = _same_turns(conn, embedder)
        vector = embedder.embed(QUERY)
        for weight in (None, 1, 0.5):
            given = {} if weight is None else {"agent_turn_weight": weight}
            searched = call(conn, "memory_search", query=QUERY, query_embedding=vector, bump_references=False, **given)
            proposed = call(conn, "memory_rerank_candidates", query=QUERY, query_embedding=vector, **given)
            assert [(r["memory_id"], r["score"]) for r in proposed] == [(r["memory_id"], r["score"]) for r in searched]
        default = {r["memory_id"]: r["score"] for r in call(conn, "memory_rerank_candidates", query=QUERY)}
        off = {
            r["memory_id"]: r["score"] for r in call(conn, "memory_rerank_candidates", query=QUERY, agent_turn_weight=1)
        }
        with pytest.raises(psycopg.Error) as caught:
            call(conn, "memory_rerank_candidates", query=QUERY, agent_turn_weight=2)
    assert default[agent] == pytest.approx(0.9 * off[agent])
    assert default[user] == off[user]
    assert caught.value.sqlstate == "PM002"


@pytest.mark.anyio
async def test_the_mcp_tool_takes_agent_turn_weight(
    app_pool: ConnectionPool, embedder: Embedder, as_tenant: Tenant
) -> None:
    """Through a real MCP session: by default the user's turn comes first; agent_turn_weight=1 (a question about
    what the assistant said) ranks the assistant's newer turn first; a weight out of range is a tool error that
    names the range."""
    with as_tenant("acme") as conn:
        user, agent = _same_turns(conn, embedder)
    async with Client(stdio_like_server(app_pool, embedder)) as client:
        default = await tool_call(client, "memory_search", query=QUERY, types=["episode"])
        off = await tool_call(client, "memory_search", query=QUERY, types=["episode"], agent_turn_weight=1)
        refused = await call_error(client, "memory_search", query=QUERY, agent_turn_weight=0)
    assert [h["memory_id"] for h in default["results"]] == [str(user), str(agent)]
    assert [h["memory_id"] for h in off["results"]] == [str(agent), str(user)]
    assert default["results"][1]["score"] == pytest.approx(0.9 * off["results"][0]["score"])
    assert "agent_turn_weight must be between 0.01 and 1" in refused
