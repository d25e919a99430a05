"""Every SQL API function is bounded to the caller's tenant by RLS: tenant B never sees, bumps,
confirms, rates or forgets tenant A's memories, even by id, and cannot tell that they exist."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from pymem.embeddings import Embedder
from tests.conftest import Tenant, connect_as
from tests.sqlapi import call, call_one, store_episode, store_fact, store_rule
from tests.test_recall import recall
from tests.test_search import search

STATE = (
    "select 'fact', id, reference_count, last_confirmed_at::text, validity from pymem.facts"
    " union all select 'rule', id, reference_count, last_confirmed_at::text,"
    " maturity || success_count || harmful_count || coalesce(forgotten_at::text, '') from pymem.rules"
    " union all select 'episode', id, reference_count, null, coalesce(forgotten_at::text, '') from pymem.episodes"
    " order by 1"
)


@pytest.fixture
def acme(as_tenant: Tenant, embedder: Embedder) -> dict[str, Any]:
    with as_tenant("acme") as conn:
        ids = {
            "fact": store_fact(conn, "user", "diet", "acme: the user is lactose intolerant", embedder, scope="health"),
            "rule": store_rule(conn, "acme: suggest oat milk instead of dairy", embedder, scope="health"),
            "episode": store_episode(conn, "acme: the user felt sick after a latte", "health", embedder),
        }
        state = conn.execute(STATE).fetchall()
    return {"ids": ids, "state": state}


def acme_state(as_tenant: Tenant) -> list[tuple[Any, ...]]:
    with as_tenant("acme") as conn:
        return conn.execute(STATE).fetchall()


CROSS_TENANT_CALLS = [
    *[("memory_get", kind, {"type": kind}) for kind in ("fact", "rule", "episode")],
    *[("memory_confirm", kind, {"type": kind}) for kind in ("fact", "rule")],
    *[
        ("memory_forget", kind, {"type": kind, "reason": "globex wants it gone"})
        for kind in ("fact", "rule", "episode")
    ],
    ("memory_mark_helpful", "rule", {}),
    ("memory_mark_harmful", "rule", {"reason": "globex says so"}),
]


@pytest.mark.parametrize(("function", "kind", "arguments"), CROSS_TENANT_CALLS)
def test_another_tenants_id_is_not_found(
    as_tenant: Tenant, acme: dict[str, Any], function: str, kind: str, arguments: dict[str, Any]
) -> None:
    memory_id = acme["ids"][kind]
    named = dict(arguments)
    named["rule_id" if function.startswith("memory_mark") else "id"] = memory_id
    with pytest.raises(psycopg.Error) as caught, as_tenant("globex") as conn:
        call(conn, function, **named)
    assert caught.value.sqlstate == "PM003"
    # the very message a random id gets: nothing says that the memory exists elsewhere
    assert str(caught.value).splitlines()[0] == f"{kind} {memory_id} not found"
    assert acme_state(as_tenant) == acme["state"]


def test_search_and_recall_never_cross_tenants(as_tenant: Tenant, embedder: Embedder, acme: dict[str, Any]) -> None:
    with as_tenant("globex") as conn:
        own = store_fact(conn, "user", "diet", "globex: the user is lactose intolerant", embedder)
        for mode in ("hybrid", "semantic", "keyword", "weighted"):
            found = search(conn, "lactose intolerant latte dairy", embedder, mode=mode, min_score=0)
            assert {r["memory_id"] for r in found} == {own}, mode
        assert [r["memory_id"] for r in recall(conn, "lactose intolerant", embedder)] == [own]
        assert [r["memory_id"] for r in recall(conn, "lactose intolerant", embedder, scope="health")] == [own]
        stats = call_one(conn, "memory_stats")
    assert (stats["facts_total"], stats["rules_total"], stats["episodes_total"]) == (1, 0, 0)
    assert acme_state(as_tenant) == acme["state"]  # nothing of acme's was bumped


def test_unscoped_retrieval_remains_tenant_bounded(as_tenant: Tenant, embedder: Embedder, acme: dict[str, Any]) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "city", "acme: lactose-free shops in Lisbon", embedder, scope="general")
    with as_tenant("globex") as conn:
        store_fact(conn, "user", "diet", "globex: lactose intolerant too", embedder, scope="general")
    with as_tenant("acme") as conn:
        rows = recall(conn, "lactose", embedder)
    assert {r["memory_scope"] for r in rows} == {"health", "general"}
    assert all(r["content"].startswith("acme:") for r in rows)


def test_every_api_function_needs_a_tenant(app: psycopg.Connection[Any], acme: dict[str, Any]) -> None:
    calls = [
        "select pymem.memory_store_episode(content => 'x', butler => 'b')",
        "select pymem.memory_store_fact(subject => 's', predicate => 'p', content => 'x')",
        "select pymem.memory_store_rule(content => 'x')",
        "select * from pymem.memory_search(query => 'lactose')",
        "select * from pymem.memory_recall(topic => 'lactose')",
        f"select * from pymem.memory_get(type => 'fact', id => '{acme['ids']['fact']}')",
        f"select * from pymem.memory_confirm(type => 'fact', id => '{acme['ids']['fact']}')",
        f"select * from pymem.memory_mark_helpful(rule_id => '{acme['ids']['rule']}')",
        f"select * from pymem.memory_mark_harmful(rule_id => '{acme['ids']['rule']}')",
        f"select * from pymem.memory_forget(type => 'fact', id => '{acme['ids']['fact']}')",
        "select * from pymem.memory_stats()",
    ]
    for statement in calls:
        with pytest.raises(psycopg.Error) as caught:
            app.execute(statement)
        assert caught.value.sqlstate == "PM001", statement


def test_a_bound_analyst_recalls_in_plain_sql(
    as_tenant: Tenant,
    acme: dict[str, Any],
    make_login: Any,
    db_dsn: str,
) -> None:
    with as_tenant("globex") as conn:
        store_fact(conn, "user", "diet", "globex: the user is lactose intolerant", scope="health")
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn:
        rows = conn.execute(
            "select memory_type, content from memory_recall(topic => 'lactose dairy', scope => 'health')"
        ).fetchall()
        searched = conn.execute("select content from memory_search(query => 'latte', \"limit\" => 5)").fetchall()
        stats = conn.execute("select facts_total, rules_total, episodes_total from memory_stats()").fetchone()
        new_fact = conn.execute(
            "select memory_id from memory_store_fact(subject => 'user', predicate => 'city', content => 'Oslo')"
        ).fetchone()
        owner = conn.execute("select tenant_id from pymem.facts where id = %s", new_fact).fetchone()
    assert rows == [
        ("fact", "acme: the user is lactose intolerant"),
        ("rule", "acme: suggest oat milk instead of dairy"),
    ]
    assert searched == [("acme: the user felt sick after a latte",)]
    assert stats == (1, 1, 1)
    assert owner == ("acme",)


def test_an_unbound_analyst_recalls_nothing(
    acme: dict[str, Any],
    make_login: Any,
    db_dsn: str,
) -> None:
    role = make_login(None)
    with connect_as(db_dsn, role) as conn:
        conn.execute("select set_config('pymem.tenant_id', 'acme', false)")
        with pytest.raises(psycopg.Error) as caught:
            conn.execute("select * from pymem.memory_recall(topic => 'lactose')")
    assert caught.value.sqlstate == "PM001"
