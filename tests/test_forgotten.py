"""Forgotten means forgotten: a forgotten (or superseded) memory never comes back through any path:
search in every mode, with and without the reranking tier, and its graph leg; recall; the context candidates;
as_of after the forget; the janitor's merges; re-embedding. (A replica: tests/test_replica.py; erasure, the hard
purge: tests/test_erasure.py.) As pymem_app, with real MiniLM embeddings."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from pymem import maintenance
from pymem.embeddings import Embedder
from tests.conftest import Tenant
from tests.sqlapi import call, call_one, store_episode, store_fact, store_rule
from tests.test_recall import recall
from tests.test_search import search

MODES = ("hybrid", "semantic", "keyword", "weighted")
QUERIES = ("quokka", "What is the name of the user's cat?", "Where does the user live?", "peanut allergy")


@pytest.fixture
def memories(as_tenant: Tenant, embedder: Embedder) -> dict[str, Any]:
    """Live memories, and their forgotten or superseded neighbours: near-duplicates of the live ones (for the
    janitor), linked to them (for the graph leg), all about the queries above."""
    with as_tenant("acme") as conn:
        ids = {
            "cat": store_fact(conn, "cat", "name", "The user's cat is named Biscuit", embedder),
            "old_cat": store_fact(conn, "cat", "nickname", "The user's cat is named Quokka", embedder),
            "allergy": store_fact(conn, "user", "allergy", "The user is allergic to peanuts", embedder),
            "dup": store_fact(conn, "user", "allergy_note", "The user is allergic to peanuts.", embedder),
            "berlin": store_fact(conn, "user", "city", "The user lives in Berlin, near the quokka enclosure", embedder),
        }
        ids["porto"] = store_fact(conn, "user", "city", "The user lives in Porto", embedder)  # supersedes berlin
        ids["rule"] = store_rule(conn, "Always call the user's cat Quokka", embedder)
        ids["episode"] = store_episode(conn, "User said the cat's old name was Quokka", "general", embedder)
        for target in ("old_cat", "berlin", "dup"):
            conn.execute(
                "insert into pymem.memory_links (source_type, source_id, target_type, target_id, relation)"
                " values ('fact', %s, 'fact', %s, 'related_to')",
                (ids["cat"], ids[target]),
            )
        for kind, key in (("fact", "old_cat"), ("fact", "dup"), ("rule", "rule"), ("episode", "episode")):
            call_one(conn, "memory_forget", type=kind, id=ids[key], reason="the user asked")
    ids["gone"] = {ids[k] for k in ("old_cat", "dup", "berlin", "rule", "episode")}
    return ids


def found_ids(conn: psycopg.Connection[Any], embedder: Embedder, **arguments: Any) -> set[Any]:
    """Every memory id that any search mode, tier and query returns, with the floors down."""
    seen: set[Any] = set()
    for query in QUERIES:
        for mode in MODES:
            for rerank in (False, True):
                rows = search(
                    conn,
                    query,
                    embedder,
                    mode=mode,
                    rerank=rerank,
                    min_confidence=0,
                    min_relevance=0,
                    graph_rrf_weight=5,
                    **arguments,
                )
                seen |= {r["memory_id"] for r in rows}
        seen |= {r["memory_id"] for r in recall(conn, query, embedder, min_relevance=0, **arguments)}
    return seen


def test_no_read_path_returns_a_forgotten_or_superseded_memory(
    memories: dict[str, Any], as_tenant: Tenant, embedder: Embedder
) -> None:
    with as_tenant("acme") as conn:
        seen = found_ids(conn, embedder)
        assert memories["cat"] in seen and memories["porto"] in seen  # the paths do find the live ones
        assert not seen & memories["gone"]
        (after,) = conn.execute("select now()").fetchone()  # type: ignore[misc]  # after the forget committed
        assert not found_ids(conn, embedder, as_of=after) & memories["gone"]
        for query in QUERIES:
            candidates = call(
                conn,
                "memory_context_candidates",
                trigger_prompt=query,
                butler="general",
                query_embedding=embedder.embed(query),
                min_relevance=0,
                knowledge_limit=100,
                history_limit=100,
                system_limit=100,
            )
            assert not {c["memory_id"] for c in candidates} & memories["gone"], query


def test_the_janitor_and_re_embedding_bring_nothing_back(
    memories: dict[str, Any], as_tenant: Tenant, superuser: psycopg.Connection[Any], db_dsn: str, embedder: Embedder
) -> None:
    def states() -> dict[Any, str]:
        with as_tenant("acme") as conn:
            rows = conn.execute(
                "select id, validity from pymem.facts union all"
                " select id, case when forgotten_at is null then 'live' else 'forgotten' end from pymem.rules"
                " union all select id, case when forgotten_at is null then 'live' else 'forgotten' end"
                " from pymem.episodes"
            ).fetchall()
        return {r[0]: r[1] for r in rows}

    before = states()
    assert {before[memories[k]] for k in ("old_cat", "dup")} == {"retracted"} and before[memories["berlin"]] == (
        "superseded"
    )
    # the forgotten near-duplicate of a live fact is no merge candidate, and merges revive nothing
    summary = maintenance.run_janitor(db_dsn, threshold=0.8, check_health=False)
    assert summary.facts_merged == 0
    # re-embedding every memory (as after a model change) re-embeds forgotten rows without reviving them
    superuser.execute("update pymem.facts set embedding = null, embedding_model = null")
    superuser.execute("update pymem.rules set embedding = null, embedding_model = null")
    maintenance.reembed(db_dsn, embedder)
    assert states() == before
    with as_tenant("acme") as conn:
        assert not found_ids(conn, embedder) & memories["gone"]
