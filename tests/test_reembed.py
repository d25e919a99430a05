"""Embedding versions: the configured model is recorded, rows of another model are
flagged and found by keyword only, and `pymem reembed` re-embeds them batch by batch."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from pymem import maintenance
from pymem.embeddings import Embedder
from pymem.errors import InvalidArgumentError
from tests.conftest import Tenant
from tests.sqlapi import call, store_fact, store_rule

OLD_MODEL = "example/old-minilm@v0"
FACTS = [
    ("user", "dentist", "The user's dentist is Dr. Smith on Main Street"),
    ("user", "drink", "The user drinks green tea every morning"),
    ("user", "pet", "The user has a grey cat called Miso"),
]


def flagged(conn: psycopg.Connection[Any]) -> dict[tuple[str, str], int]:
    rows = call(conn, "memory_embedding_status")
    return {(r["tenant_id"], r["memory_type"]): r["memories"] for r in rows if r["flagged"]}


def test_a_model_change_flags_rows_search_skips_them_semantically_and_reembed_clears_the_flags(
    db_dsn: str, as_tenant: Tenant, embedder: Embedder
) -> None:
    assert maintenance.record_embedding_model(db_dsn, OLD_MODEL) is None
    with as_tenant("acme") as conn:
        # stored by a server that ran the old model (same vectors: only the label matters here)
        ids = {p: store_fact(conn, s, p, c, embedder, embedding_model=OLD_MODEL) for s, p, c in FACTS}
        rule = store_rule(conn, "Always run the tests before committing", embedder, embedding_model=OLD_MODEL)
        assert conn.execute("select pymem.memory_embedding_model()").fetchone() == (OLD_MODEL,)
        assert flagged(conn) == {}
    with as_tenant("globex") as conn:
        store_fact(conn, "user", "dentist", "The user's dentist is Dr. Jones", embedder, embedding_model=OLD_MODEL)

    # the server starts with another model: every row of the old one is flagged
    assert maintenance.record_embedding_model(db_dsn, embedder.model_id) == OLD_MODEL
    assert maintenance.record_embedding_model(db_dsn, embedder.model_id) == embedder.model_id  # no change
    query = "who is my dentist"
    with as_tenant("acme") as conn:
        assert flagged(conn) == {("acme", "fact"): 3, ("acme", "rule"): 1}  # RLS: acme's rows only
        vector = embedder.embed(query)
        semantic = call(conn, "memory_search", query=query, query_embedding=vector, mode="semantic")
        assert semantic == []
        hybrid = call(conn, "memory_search", query="dentist", query_embedding=vector, bump_references=False)
        assert [r["memory_id"] for r in hybrid] == [ids["dentist"]]
        assert hybrid[0]["semantic_rank"] is None and hybrid[0]["keyword_rank"] == 1

    progress: list[tuple[int, int]] = []
    summary = maintenance.reembed(db_dsn, embedder, batch=2, progress=lambda d, t, _w: progress.append((d, t)))
    assert (summary.flagged, summary.reembedded, summary.tenants) == (5, 5, 2)
    assert summary.previous_model_id == embedder.model_id  # recorded by the server start above
    assert progress[0] == (0, 5) and progress[-1] == (5, 5) and len(progress) == 4  # acme 2+2, globex 1

    with as_tenant("acme") as conn:
        assert flagged(conn) == {}
        models = conn.execute(
            "select distinct embedding_model from pymem.facts union select embedding_model from pymem.rules"
        )
        assert models.fetchall() == [(embedder.model_id,)]
        semantic = call(conn, "memory_search", query=query, query_embedding=vector, mode="semantic", limit=1)
        assert [r["memory_id"] for r in semantic] == [ids["dentist"]]
        assert call(conn, "memory_get", type="rule", id=rule)[0]["memory_id"] == rule
    # nothing left: a second run re-embeds nothing
    assert maintenance.reembed(db_dsn, embedder).reembedded == 0


def test_only_the_configured_model_may_be_written_and_only_operators_configure_it(
    db_dsn: str, as_tenant: Tenant, embedder: Embedder
) -> None:
    maintenance.record_embedding_model(db_dsn, embedder.model_id)
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "drink", "The user drinks green tea", embedder)
    with pytest.raises(psycopg.Error, match="is not the configured model"), as_tenant("acme") as conn:
        call(conn, "memory_set_embedding", type="fact", id=fact, embedding=embedder.embed("x"), embedding_model="other")
    with pytest.raises(psycopg.errors.InsufficientPrivilege), as_tenant("acme") as conn:
        conn.execute("select * from pymem_private.set_embedding_model('other')")
    with pytest.raises(psycopg.errors.InsufficientPrivilege), as_tenant("acme") as conn:
        conn.execute("select * from pymem_private.embedding_config")
    with pytest.raises(InvalidArgumentError, match="model_id"):
        maintenance.record_embedding_model(db_dsn, " ")


def test_a_bad_batch_is_refused_by_sql_before_the_model_is_recorded(
    db_dsn: str, as_tenant: Tenant, embedder: Embedder
) -> None:
    maintenance.record_embedding_model(db_dsn, OLD_MODEL)
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "drink", "The user drinks green tea", embedder, embedding_model=OLD_MODEL)
    for batch in (0, 1001):
        with pytest.raises(InvalidArgumentError) as caught:
            maintenance.reembed(db_dsn, embedder, batch=batch)
        assert str(caught.value) == f"batch must be between 1 and 1000, not {batch}"
        assert isinstance(caught.value.__cause__, psycopg.Error) and caught.value.__cause__.sqlstate == "PM002"
    with as_tenant("acme") as conn:
        # nothing changed: the old model is still the configured one and the fact keeps its embedding
        assert conn.execute("select pymem.memory_embedding_model()").fetchone() == (OLD_MODEL,)
        assert conn.execute("select embedding_model from pymem.facts where id = %s", (fact,)).fetchone() == (OLD_MODEL,)
    # what reembed plans for a new model: the tenant's one memory of another model
    with psycopg.connect(db_dsn) as conn:
        plan = call(conn, "memory_reembed_plan", model_id=embedder.model_id, batch=10)
        assert plan == [{"tenant_id": "acme", "memories": 1}]
        assert call(conn, "memory_reembed_plan", model_id=embedder.model_id, tenants=["globex"]) == []
