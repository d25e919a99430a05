"""PymemStore against the real langgraph package and a real database: the BaseStore contract as LangGraph documents
it (get, put, delete, search with filters, prefixes, queries and pagination, list_namespaces with prefixes,
suffixes, wildcards, depth and pagination, batch order, TTL, non-ASCII), items as pymem memories (supersession,
as_of, forget, what an analyst's memory_recall sees), tenants that never see each other, and a LangGraph graph
whose node reads and writes the store."""

from __future__ import annotations

import time
from typing import Any, TypedDict

import psycopg
import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore, GetOp, InvalidNamespaceError, ListNamespacesOp, PutOp, SearchOp
from psycopg_pool import ConnectionPool

from pymem.embeddings import Embedder
from pymem.integrations.langgraph import AsyncPymemStore, PymemStore, PymemStoreError
from tests.conftest import Tenant, app_dsn_for, connect_as
from tests.sqlapi import call


@pytest.fixture
def store(app_pool: ConnectionPool, embedder: Embedder) -> PymemStore:
    return PymemStore(app_pool, tenant="acme", embedder=embedder)


@pytest.fixture
def other(app_pool: ConnectionPool, embedder: Embedder) -> PymemStore:
    return PymemStore(app_pool, tenant="globex", embedder=embedder)


@pytest.fixture
def filled(store: PymemStore) -> PymemStore:
    store.put(("docs", "user1"), "a", {"text": "The user is vegetarian", "score": 5, "kind": "pref"})
    store.put(("docs", "user1"), "b", {"text": "The user lives in Porto", "score": 2, "kind": "fact"})
    store.put(("docs", "user2"), "c", {"text": "The user drives a Volvo", "score": 4, "kind": "fact"})
    store.put(("docs",), "d", {"text": "Shared notes about trains", "score": 1, "kind": "note"})
    store.put(("documents", "user1"), "e", {"text": "Not under the docs prefix", "score": 9, "kind": "fact"})
    return store


def test_put_get_update_delete(store: PymemStore) -> None:
    assert store.get(("memories", "u1"), "diet") is None
    store.put(("memories", "u1"), "diet", {"text": "vegetarian"})
    first = store.get(("memories", "u1"), "diet")
    assert first is not None and first.value == {"text": "vegetarian"}
    assert (first.namespace, first.key) == (("memories", "u1"), "diet")
    time.sleep(0.01)
    store.put(("memories", "u1"), "diet", {"text": "vegan"})
    second = store.get(("memories", "u1"), "diet")
    assert second is not None and second.value == {"text": "vegan"}
    assert second.created_at == first.created_at and second.updated_at > first.updated_at
    store.delete(("memories", "u1"), "diet")
    assert store.get(("memories", "u1"), "diet") is None
    store.delete(("memories", "u1"), "never-put")  # deleting what is not there is no error


def test_items_are_facts_with_history_an_analyst_can_recall(store: PymemStore, as_tenant: Tenant) -> None:
    store.put(("memories", "u1"), "diet", {"text": "The user is vegetarian"}, index=["text"])
    with as_tenant("acme") as conn:
        before = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
    store.put(("memories", "u1"), "diet", {"text": "The user is vegan"}, index=["text"])
    store.put(("memories", "u1"), "city", {"text": "The user lives in Porto"}, index=["text"])
    store.delete(("memories", "u1"), "city")
    with as_tenant("acme") as conn:
        facts = conn.execute(
            "select subject, predicate, content, validity, scope, source from pymem.facts order by created_at"
        ).fetchall()
        now = [r["content"] for r in call(conn, "memory_recall", topic="vegan", bump_references=False)]
        then = [r["content"] for r in call(conn, "memory_recall", topic="vegetarian", as_of=before)]
    assert facts == [
        ("memories.u1", "diet", "The user is vegetarian", "superseded", "memories.u1", "import"),
        ("memories.u1", "diet", "The user is vegan", "active", "memories.u1", "import"),
        ("memories.u1", "city", "The user lives in Porto", "retracted", "memories.u1", "import"),
    ]
    assert now == ["The user is vegan"]
    assert then == ["The user is vegetarian"]


def test_search_filters_and_prefixes(filled: PymemStore) -> None:
    def keys(**kwargs: Any) -> list[str]:
        return [item.key for item in filled.search(("docs",), **kwargs)]

    assert keys() == ["d", "c", "b", "a"]  # newest first, whole labels: not ("documents", ...)
    assert [i.key for i in filled.search(("docs", "user1"))] == ["b", "a"]
    assert [i.key for i in filled.search(())] == ["e", "d", "c", "b", "a"]
    assert keys(filter={"kind": "fact"}) == ["c", "b"]
    assert keys(filter={"score": {"$gt": 2}}) == ["c", "a"]
    assert keys(filter={"score": {"$gte": 2, "$lt": 5}}) == ["c", "b"]
    assert keys(filter={"score": {"$lte": 2}}) == ["d", "b"]
    assert keys(filter={"kind": {"$ne": "fact"}}) == ["d", "a"]
    assert keys(filter={"kind": {"$eq": "pref"}, "score": 5}) == ["a"]
    assert keys(filter={"missing": "x"}) == []
    assert keys(limit=2) == ["d", "c"] and keys(limit=2, offset=2) == ["b", "a"] and keys(offset=4) == []
    item = filled.search(("docs", "user1"), filter={"kind": "pref"})[0]
    assert item.score is None and item.value["text"] == "The user is vegetarian"


def test_search_with_a_query_ranks_by_hybrid_search(filled: PymemStore) -> None:
    found = filled.search(("docs",), query="what does the user eat? vegetarian food")
    assert found[0].key == "a" and found[0].score is not None
    scores = [item.score for item in found if item.score is not None]
    assert scores == sorted(scores, reverse=True)
    assert {item.key for item in found} == {"a", "b", "c", "d"}  # every item under the prefix, the best first
    page = filled.search(("docs",), query="vegetarian food", limit=1, offset=1)
    assert len(page) == 1 and page[0].key != "a"
    assert next(i.key for i in filled.search(("docs",), query="Volvo", filter={"kind": "fact"})) == "c"


def test_index_fields_and_index_false(store: PymemStore, as_tenant: Tenant) -> None:
    store.put(("cfg",), "one", {"title": "Kayaking trips", "body": "Paddles and dry bags"}, index=["title"])
    store.put(("cfg",), "two", {"title": "Tax forms", "secret": "zebra"}, index=False)
    with as_tenant("acme") as conn:
        rows = dict(conn.execute("select predicate, content from pymem.facts").fetchall())
        embedded = dict(conn.execute("select predicate, embedding is not null from pymem.facts").fetchall())
    assert rows["one"] == "Kayaking trips"
    assert embedded == {"one": True, "two": False}
    assert store.get(("cfg",), "two").value == {"title": "Tax forms", "secret": "zebra"}  # type: ignore[union-attr]


def test_a_store_indexes_the_fields_of_its_config(app_pool: ConnectionPool, embedder: Embedder) -> None:
    configured = PymemStore(app_pool, tenant="acme", embedder=embedder, index={"fields": ["profile.bio"]})
    configured.put(("people",), "p1", {"profile": {"bio": "Rock climber from Lyon"}, "age": 31})
    (found,) = configured.search(("people",), query="climbing")
    assert found.key == "p1" and found.score is not None


def test_list_namespaces(filled: PymemStore) -> None:
    filled.put(("docs", "user1", "drafts"), "f", {"text": "a draft"})
    filled.put(("cache", "v1"), "g", {"text": "cached"})
    assert filled.list_namespaces() == [
        ("cache", "v1"),
        ("docs",),
        ("docs", "user1"),
        ("docs", "user1", "drafts"),
        ("docs", "user2"),
        ("documents", "user1"),
    ]
    assert filled.list_namespaces(prefix=("docs",)) == [
        ("docs",),
        ("docs", "user1"),
        ("docs", "user1", "drafts"),
        ("docs", "user2"),
    ]
    assert filled.list_namespaces(suffix=("user1",)) == [("docs", "user1"), ("documents", "user1")]
    assert filled.list_namespaces(prefix=("*", "user1")) == [
        ("docs", "user1"),
        ("docs", "user1", "drafts"),
        ("documents", "user1"),
    ]
    assert filled.list_namespaces(prefix=("docs",), suffix=("*",)) == filled.list_namespaces(prefix=("docs",))
    assert filled.list_namespaces(max_depth=1) == [("cache",), ("docs",), ("documents",)]
    assert filled.list_namespaces(prefix=("docs",), max_depth=2) == [("docs",), ("docs", "user1"), ("docs", "user2")]
    assert filled.list_namespaces(limit=2) == [("cache", "v1"), ("docs",)]
    assert filled.list_namespaces(limit=2, offset=5) == [("documents", "user1")]
    filled.delete(("cache", "v1"), "g")
    assert ("cache", "v1") not in filled.list_namespaces()


def test_batch_runs_its_operations_in_order(store: PymemStore) -> None:
    results = store.batch(
        [
            PutOp(("b",), "k", {"text": "one"}),
            GetOp(("b",), "k"),
            PutOp(("b",), "k", {"text": "two"}),
            GetOp(("b",), "k"),
            SearchOp(("b",)),
            ListNamespacesOp(),
            PutOp(("b",), "k", None),
            GetOp(("b",), "k"),
        ]
    )
    assert results[0] is None and results[2] is None and results[6] is None
    assert results[1].value == {"text": "one"} and results[3].value == {"text": "two"}  # type: ignore[union-attr]
    assert [i.value for i in results[4]] == [{"text": "two"}]  # type: ignore[union-attr]
    assert results[5] == [("b",)]
    assert results[7] is None


def test_ttl_expires_items_and_reads_refresh_it(app_pool: ConnectionPool, embedder: Embedder) -> None:
    ttl_store = PymemStore(
        app_pool, tenant="acme", embedder=embedder, ttl={"default_ttl": 0.02, "refresh_on_read": True}
    )
    ttl_store.put(("t",), "kept", {"text": "read often"})
    ttl_store.put(("t",), "gone", {"text": "never read"})
    ttl_store.put(("t",), "forever", {"text": "no ttl"}, ttl=None)
    for _ in range(3):  # 0.6 s each: past the 1.2 s TTL of "gone", while each read restarts "kept"'s
        time.sleep(0.6)
        assert ttl_store.get(("t",), "kept") is not None
    assert ttl_store.get(("t",), "gone") is None
    assert [i.key for i in ttl_store.search(("t",))] == ["forever", "kept"]
    assert ("t",) in ttl_store.list_namespaces()
    time.sleep(1.3)  # nothing read "kept": it expires too, and a read that does not refresh does not save it
    assert ttl_store.get(("t",), "kept", refresh_ttl=False) is None
    assert ttl_store.sweep_ttl() == 2
    assert [i.key for i in ttl_store.search(("t",))] == ["forever"]


def test_non_ascii_namespaces_keys_and_values(store: PymemStore) -> None:
    store.put(("用户", "café"), "ключ", {"text": "Der Nutzer mag Käse 🧀", "nested": {"ß": "straße"}})
    item = store.get(("用户", "café"), "ключ")
    assert item is not None and item.value == {"text": "Der Nutzer mag Käse 🧀", "nested": {"ß": "straße"}}
    assert store.list_namespaces(prefix=("用户",)) == [("用户", "café")]
    assert [i.key for i in store.search(("用户",), query="Käse")] == ["ключ"]


def test_namespaces_are_checked(store: PymemStore) -> None:
    with pytest.raises(InvalidNamespaceError):
        store.put(("a.b",), "k", {"x": 1})
    with pytest.raises(InvalidNamespaceError):
        store.put((), "k", {"x": 1})
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("ok", ""), "k", {"x": 1})])
    with pytest.raises(psycopg.Error, match="an item's value must be a JSON object"):
        store.batch([PutOp(("ok",), "k", [1, 2])])  # type: ignore[arg-type]
    with pytest.raises(psycopg.Error, match="unknown filter operator"):
        store.search(("ok",), filter={"x": {"$in": [1]}})
    assert store.list_namespaces() == []  # nothing half written


def test_embeddings_of_another_dimension_get_a_clear_error(app_pool: ConnectionPool) -> None:
    with pytest.raises(PymemStoreError, match="pymem stores 384-d embeddings"):
        PymemStore(app_pool, tenant="acme", index={"dims": 1536, "embed": lambda texts: [[0.0] * 1536 for _ in texts]})
    wrong = PymemStore(app_pool, tenant="acme", index={"embed": lambda texts: [[0.1] * 768 for _ in texts]})
    with pytest.raises(PymemStoreError, match="returned 768-d vectors"):
        wrong.put(("x",), "k", {"text": "hello"})
    custom = PymemStore(app_pool, tenant="acme", index={"embed": lambda texts: [[0.05] * 384 for _ in texts]})
    custom.put(("x",), "k", {"text": "hello"})  # a 384-d function is used as given
    assert custom.get(("x",), "k") is not None


def test_two_tenants_never_see_each_other(filled: PymemStore, other: PymemStore) -> None:
    other.put(("docs", "user1"), "a", {"text": "Globex's own item"})
    assert filled.get(("docs", "user1"), "a").value["text"] == "The user is vegetarian"  # type: ignore[union-attr]
    assert [i.value["text"] for i in other.search(("docs",))] == ["Globex's own item"]
    assert other.list_namespaces() == [("docs", "user1")]
    assert {i.key for i in other.search((), query="vegetarian Porto Volvo")} == {"a"}


def test_a_bound_analyst_needs_no_tenant(make_login: Any, db_dsn: str, embedder: Embedder) -> None:
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn:
        analyst = PymemStore(conn, embedder=embedder)
        analyst.put(("notes",), "k", {"text": "written by the analyst"})
        assert conn.execute("select distinct tenant_id from pymem.facts").fetchall() == [("acme",)]
    with (
        psycopg.connect(app_dsn_for(db_dsn), autocommit=True) as conn,
        pytest.raises(psycopg.Error, match="tenant"),
    ):
        PymemStore(conn, embedder=embedder).get(("notes",), "k")


def test_from_conn_string_and_the_async_store(db_dsn: str, embedder: Embedder) -> None:
    import asyncio

    with PymemStore.from_conn_string(app_dsn_for(db_dsn), tenant="acme") as store:
        store._embedder = embedder  # the session's model, not a second load
        store.put(("s",), "k", {"text": "sync"})

    async def run() -> list[str]:
        async with AsyncPymemStore.from_conn_string(app_dsn_for(db_dsn), tenant="acme") as astore:
            astore._embedder = embedder
            await astore.aput(("s",), "k2", {"text": "async"})
            got = await astore.aget(("s",), "k")
            assert got is not None and got.value == {"text": "sync"}
            return [i.key for i in await astore.asearch(("s",))]

    assert asyncio.run(run()) == ["k2", "k"]


class State(TypedDict):
    user: str
    message: str
    reply: str


def test_a_langgraph_graph_reads_and_writes_the_store(store: PymemStore) -> None:
    """A node that remembers what the user says and answers with what it remembered (no LLM)."""

    def remember(state: State, *, store: BaseStore) -> dict[str, str]:
        namespace = ("memories", state["user"])
        known = [item.value["text"] for item in store.search(namespace, query=state["message"], limit=3)]
        store.put(namespace, f"m{len(store.search(namespace, limit=100))}", {"text": state["message"]})
        return {"reply": "I remember: " + "; ".join(known) if known else "Nice to meet you."}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", END)
    graph = builder.compile(store=store)
    first = graph.invoke({"user": "ana", "message": "I am allergic to peanuts", "reply": ""})
    second = graph.invoke({"user": "ana", "message": "What should I not eat?", "reply": ""})
    third = graph.invoke({"user": "ben", "message": "Hello", "reply": ""})
    assert first["reply"] == "Nice to meet you."
    assert second["reply"] == "I remember: I am allergic to peanuts"
    assert third["reply"] == "Nice to meet you."
    assert store.list_namespaces(prefix=("memories",)) == [("memories", "ana"), ("memories", "ben")]
