"""The schema's behaviour (permanence, supersession, RLS, embeddings, audit), run as pymem_app under RLS."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import numpy as np
import psycopg
import pytest
from mcp import Client
from psycopg import errors
from psycopg_pool import ConnectionPool

from pymem import migrate
from pymem.embeddings import DIMENSIONS, MODEL_ID, Embedder
from pymem.errors import IncompatibleDatabaseError
from pymem.token_counts import length_floor
from tests.conftest import ALL_TABLES, TEST_PARTITIONS, Tenant
from tests.mcpclient import call, stdio_like_server
from tests.plans import explain, served_by_index, tenant_partition

PERMANENCE = {"permanent": 0.0, "stable": 0.002, "standard": 0.008, "volatile": 0.03, "ephemeral": 0.1}


def insert_fact(conn: psycopg.Connection[Any], subject: str, predicate: str, content: str, **cols: Any) -> Any:
    names = ["subject", "predicate", "content", *cols]
    values = [subject, predicate, content, *cols.values()]
    query = "insert into pymem.facts ({}) values ({}) returning id".format(
        ", ".join(names), ", ".join(["%s"] * len(names))
    )
    row = conn.execute(query, values).fetchone()
    assert row is not None
    return row[0]


# Requirement: Episodes table stores raw observations


def test_episode_created_with_defaults(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        row = conn.execute(
            "insert into pymem.episodes (butler, content) values ('health', 'slept badly')"
            " returning importance, consolidated, reference_count, expires_at - now(), tenant_id,"
            " created_at, metadata, forgotten_at"
        ).fetchone()
    assert row is not None
    importance, consolidated, reference_count, ttl, tenant, created_at, metadata, forgotten_at = row
    assert (importance, consolidated, reference_count) == (5.0, False, 0)
    assert ttl == timedelta(days=7)
    assert tenant == "acme"
    assert created_at is not None and metadata == {} and forgotten_at is None


@pytest.mark.anyio
async def test_episode_embedding_generated_at_write_time(
    app_pool: ConnectionPool, embedder: Embedder, as_tenant: Tenant
) -> None:
    """Stored the way an agent stores it (the memory_store_episode tool, through a real MCP client):
    the row holds the content's own 384-d MiniLM vector, its model id, its token count and a tsvector."""
    content = "User experiences nausea after dairy"
    async with Client(stdio_like_server(app_pool, embedder, "acme")) as client:
        stored = await call(client, "memory_store_episode", content=content, butler="health")
    assert stored["embedded"] is True
    with as_tenant("acme") as conn:
        row = conn.execute(
            "select vector_dims(embedding), embedding, embedding_model, token_count, search_vector::text"
            " from pymem.episodes where id = %s",
            (stored["memory_id"],),
        ).fetchone()
    assert row is not None
    dims, stored_vector, model, tokens, search_vector = row
    assert dims == DIMENSIONS == 384
    vector = stored_vector.to_numpy()
    assert np.isclose(np.linalg.norm(vector), 1.0, atol=1e-4)
    # an embedding of the content made here, apart from the write path: the same vector ...
    assert float(np.dot(vector, embedder.embed(content))) >= 0.9999
    # ... and not just any MiniLM vector (another text is far from it)
    assert float(np.dot(vector, embedder.embed("The user is planning a trip to Lisbon"))) < 0.5
    assert model == MODEL_ID
    # user experiences nausea after dairy: 5 MiniLM tokens, never fewer than a quarter of its 35 characters
    assert tokens == max(5, length_floor(content)) == 9
    assert "'nausea'" in search_vector and "'dairi'" in search_vector


def test_embedding_must_name_its_model(as_tenant: Tenant, embedder: Embedder) -> None:
    with pytest.raises(errors.CheckViolation, match="embedding_model"), as_tenant("acme") as conn:
        conn.execute(
            "insert into pymem.episodes (butler, content, embedding) values ('health', 'x', %s)",
            (embedder.embed("x"),),
        )


def test_embedding_has_384_dimensions(as_tenant: Tenant) -> None:
    with pytest.raises(errors.DataException, match="expected 384 dimensions"), as_tenant("acme") as conn:
        conn.execute(
            "insert into pymem.episodes (butler, content, embedding, embedding_model) values ('h', 'x', %s, 'm')",
            (np.ones(10, dtype=np.float32),),
        )


def test_embeddings_are_stored_inline(superuser: psycopg.Connection[Any]) -> None:
    rows = superuser.execute(
        "select attrelid::regclass::text, attstorage from pg_attribute join pg_class on oid = attrelid"
        " where attname = 'embedding' and relkind in ('r', 'p') and attrelid::regclass::text like 'pymem.%'"
        " order by 1"
    ).fetchall()
    # and in each partition of the memory tables, where the rows are
    partitions = superuser.execute(
        "select count(*), array_agg(distinct attstorage) from pg_attribute join pg_class on oid = attrelid"
        " where attname = 'embedding' and relkind = 'r' and relispartition"
        " and relnamespace = 'pymem_private'::regnamespace"
    ).fetchone()
    assert partitions == (3 * TEST_PARTITIONS, ["p"])
    assert rows == [
        ("pymem.episodes", "p"),
        ("pymem.facts", "p"),
        ("pymem.rules", "p"),
        ("pymem.second_embeddings", "p"),
    ]


# Requirement: Facts table stores distilled subject-predicate knowledge


def test_fact_created_with_permanent_permanence(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact = insert_fact(conn, "user", "birthday", "born on 3 May", permanence="permanent")
        row = conn.execute("select decay_rate from pymem.facts where id = %s", (fact,)).fetchone()
    assert row == (0.0,)


def test_fact_created_with_default_permanence(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact = insert_fact(conn, "user", "city", "lives in Berlin")
        row = conn.execute(
            "select permanence, decay_rate, importance, confidence, validity, scope, reference_count, tags,"
            " metadata, last_confirmed_at is not null, supersedes_id, source_episode_id"
            " from pymem.facts where id = %s",
            (fact,),
        ).fetchone()
    assert row == ("standard", 0.008, 5.0, 1.0, "active", "global", 0, [], {}, True, None, None)


# Requirement: Rules table stores learned behavioral patterns


def test_new_rule_starts_as_candidate(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        row = conn.execute(
            "insert into pymem.rules (content) values ('Ask before booking flights')"
            " returning maturity, confidence, decay_rate, permanence, effectiveness_score,"
            " applied_count, success_count, harmful_count, scope, tags"
        ).fetchone()
    assert row == ("candidate", 0.5, 0.008, "standard", 0.0, 0, 0, 0, "global", [])


# Requirement: Permanence categories map to decay rates


@pytest.mark.parametrize(("permanence", "rate"), PERMANENCE.items())
def test_permanence_to_decay_rate_mapping(as_tenant: Tenant, permanence: str, rate: float) -> None:
    with as_tenant("acme") as conn:
        insert_fact(conn, "user", f"p_{permanence}", "x", permanence=permanence)
        conn.execute("insert into pymem.rules (content, permanence) values ('r', %s)", (permanence,))
        fact_rate = conn.execute("select decay_rate from pymem.facts").fetchone()
        rule_rate = conn.execute("select decay_rate from pymem.rules").fetchone()
        sql_rate = conn.execute("select pymem.memory_decay_rate(%s)", (permanence,)).fetchone()
    assert fact_rate == rule_rate == sql_rate == (rate,)


def test_decay_rate_follows_a_permanence_change_and_cannot_be_forged(
    as_tenant: Tenant, superuser: psycopg.Connection[Any]
) -> None:
    with as_tenant("acme") as conn:
        fact = insert_fact(conn, "user", "mood", "cheerful", permanence="ephemeral", decay_rate=0.5)
        assert conn.execute("select decay_rate from pymem.facts").fetchone() == (0.1,)
    # tenant roles may UPDATE neither column (column-level grants); the owner's trigger holds
    for column, value in (("permanence", "stable"), ("decay_rate", "0.9")):
        with pytest.raises(psycopg.errors.InsufficientPrivilege), as_tenant("acme") as conn:
            conn.execute(f"update pymem.facts set {column} = %s where id = %s", (value, fact))
    superuser.execute("update pymem.facts set permanence = 'stable' where id = %s", (fact,))
    assert superuser.execute("select decay_rate from pymem.facts").fetchone() == (0.002,)
    superuser.execute("update pymem.facts set decay_rate = 0.9 where id = %s", (fact,))
    assert superuser.execute("select decay_rate from pymem.facts").fetchone() == (0.002,)


@pytest.mark.parametrize("table", ["facts", "rules"])
def test_invalid_permanence_rejected(as_tenant: Tenant, table: str) -> None:
    columns = "subject, predicate, content" if table == "facts" else "content"
    values = "'user', 'x', 'y'" if table == "facts" else "'y'"
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        conn.execute(f"insert into pymem.{table} ({columns}, permanence) values ({values}, 'forever')")
    assert caught.value.sqlstate == "PM002"
    assert caught.value.diag.message_primary == 'invalid permanence "forever"'
    assert "permanent, stable, standard, volatile, ephemeral" in (caught.value.diag.message_detail or "")
    with as_tenant("acme") as conn:
        assert conn.execute(f"select count(*) from pymem.{table}").fetchone() == (0,)


@pytest.mark.parametrize(
    ("statement", "constraint"),
    [
        (
            "insert into pymem.facts (subject, predicate, content, confidence) values ('u','p','c', 1.5)",
            "facts_confidence_range",
        ),
        (
            "insert into pymem.facts (subject, predicate, content, importance) values ('u','p','c', 11)",
            "facts_importance_range",
        ),
        (
            "insert into pymem.facts (subject, predicate, content, validity) values ('u','p','c', 'deleted')",
            "facts_validity_check",
        ),
        ("insert into pymem.facts (subject, predicate, content, tags) values ('u','p','c', '{}')", "facts_tags_array"),
        ("insert into pymem.facts (subject, predicate, content) values ('', 'p', 'c')", "facts_subject_check"),
        ("insert into pymem.rules (content, maturity) values ('r', 'expert')", "rules_maturity_check"),
        ("insert into pymem.episodes (butler, content, importance) values ('b', 'c', -1)", "episodes_importance_range"),
    ],
)
def test_values_outside_the_model_are_rejected(as_tenant: Tenant, statement: str, constraint: str) -> None:
    with pytest.raises(errors.CheckViolation) as caught, as_tenant("acme") as conn:
        conn.execute(statement)
    assert caught.value.diag.constraint_name == constraint


# Requirement: Memory links table tracks provenance and relationships


def test_link_created_between_episode_and_derived_fact(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        episode = conn.execute(
            "insert into pymem.episodes (butler, content) values ('health', 'had a latte, felt sick') returning id"
        ).fetchone()[0]  # type: ignore[index]
        fact = insert_fact(conn, "user", "dairy", "dairy makes the user sick", source_episode_id=episode)
        conn.execute(
            "insert into pymem.memory_links (source_type, source_id, target_type, target_id, relation)"
            " values ('fact', %s, 'episode', %s, 'derived_from')",
            (fact, episode),
        )
        row = conn.execute(
            "select source_type, source_id, target_type, target_id, relation, created_at is not null"
            " from pymem.memory_links"
        ).fetchone()
    assert row == ("fact", fact, "episode", episode, "derived_from", True)


def test_duplicate_link_rejected(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        a = insert_fact(conn, "user", "a", "a")
        b = insert_fact(conn, "user", "b", "b")
        link = (
            "insert into pymem.memory_links (source_type, source_id, target_type, target_id, relation)"
            " values ('fact', %s, 'fact', %s, %s)"
        )
        conn.execute(link, (a, b, "supports"))
    with pytest.raises(errors.UniqueViolation) as caught, as_tenant("acme") as conn:
        conn.execute(link, (a, b, "related_to"))
    assert caught.value.diag.constraint_name == "memory_links_pkey"


@pytest.mark.parametrize("relation", ["derived_from", "supports", "contradicts", "supersedes", "related_to"])
def test_the_five_relations_are_accepted(as_tenant: Tenant, relation: str) -> None:
    with as_tenant("acme") as conn:
        a = insert_fact(conn, "user", "a", "a")
        b = insert_fact(conn, "user", "b", "b")
        conn.execute(
            "insert into pymem.memory_links (source_type, source_id, target_type, target_id, relation)"
            " values ('fact', %s, 'fact', %s, %s)",
            (a, b, relation),
        )
    with as_tenant("acme") as conn:  # committed and read back by the tenant
        rows = conn.execute(
            "select source_id, target_id, relation from pymem.memory_links where source_id = %s", (a,)
        ).fetchall()
    assert rows == [(a, b, relation)]


def test_unknown_relation_rejected(as_tenant: Tenant) -> None:
    with pytest.raises(errors.CheckViolation, match="memory_links_relation_check"), as_tenant("acme") as conn:
        a = insert_fact(conn, "user", "a", "a")
        b = insert_fact(conn, "user", "b", "b")
        conn.execute(
            "insert into pymem.memory_links (source_type, source_id, target_type, target_id, relation)"
            " values ('fact', %s, 'fact', %s, 'causes')",
            (a, b),
        )


def test_link_to_a_missing_memory_rejected(as_tenant: Tenant) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        a = insert_fact(conn, "user", "a", "a")
        conn.execute(
            "insert into pymem.memory_links (source_type, source_id, target_type, target_id, relation)"
            " values ('fact', %s, 'episode', gen_random_uuid(), 'derived_from')",
            (a,),
        )
    assert caught.value.sqlstate == "PM003"


def test_deleting_a_memory_deletes_its_links(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        episode = conn.execute(
            "insert into pymem.episodes (butler, content) values ('b', 'c') returning id"
        ).fetchone()[0]  # type: ignore[index]
        fact = insert_fact(conn, "user", "a", "a", source_episode_id=episode)
        conn.execute(
            "insert into pymem.memory_links (source_type, source_id, target_type, target_id, relation)"
            " values ('fact', %s, 'episode', %s, 'derived_from')",
            (fact, episode),
        )
        conn.execute("select pymem_private.delete_memories(array['episode'], array[%s]::uuid[])", (episode,))
        assert conn.execute("select count(*) from pymem.memory_links").fetchone() == (0,)
        assert conn.execute("select source_episode_id from pymem.facts").fetchone() == (None,)


# Requirement: Database extensions and indexes


def _random_unit_vectors(n: int, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    m = rng.normal(size=(n, DIMENSIONS)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _fill_facts(conn: psycopg.Connection[Any], n: int) -> np.ndarray:
    vectors = _random_unit_vectors(n)
    with conn.cursor() as cur:
        cur.executemany(
            "insert into pymem.facts (subject, predicate, content, embedding, embedding_model)"
            " values (%s, %s, %s, %s, 'random')",
            [(f"s{i}", "p", f"fact number {i}", v) for i, v in enumerate(vectors)],
        )
    return vectors


def _plan(conn: psycopg.Connection[Any], query_vector: np.ndarray) -> dict[str, Any]:
    """The plan of a nearest-neighbour query, run (bound to the tenant by the policy's InitPlan, the tenant's
    partition of pymem.facts is chosen when the plan runs)."""
    query = "select id from pymem.facts order by embedding <=> %s limit 10"
    return explain(conn, query, (query_vector,), analyze=True)


def test_vector_similarity_search_uses_index(as_tenant: Tenant, superuser: psycopg.Connection[Any]) -> None:
    with as_tenant("acme") as conn:
        vectors = _fill_facts(conn, 2000)
    superuser.execute("analyze pymem.facts")
    with as_tenant("acme") as conn:
        plan = _plan(conn, vectors[0])
        top = conn.execute(
            "select subject from pymem.facts order by embedding <=> %s limit 1", (vectors[0],)
        ).fetchone()
    partition = tenant_partition(superuser, "pymem.facts", "acme")
    (served,) = served_by_index(superuser, plan, partition, "pymem.facts_embedding_idx", node_types={"Index Scan"})
    assert top == ("s0",)
    kinds = superuser.execute(
        "select distinct am.amname from pg_class c join pg_am am on am.oid = c.relam"
        " where c.oid in ('pymem.facts_embedding_idx'::regclass, %s::regclass)",
        (f"pymem_private.{served.index}",),
    ).fetchall()
    assert kinds == [("hnsw",)]


def test_ivfflat_is_an_option_chosen_at_migration(superuser: psycopg.Connection[Any], db_dsn: str) -> None:
    name = "pymem_ivfflat_option"
    superuser.execute(f"drop database if exists {name}")
    superuser.execute(f"create database {name}")
    try:
        dsn = psycopg.conninfo.make_conninfo(db_dsn, dbname=name)
        migrate.upgrade(dsn, vector_index="ivfflat")
        with psycopg.connect(psycopg.conninfo.make_conninfo(dsn, user="pymem_app"), autocommit=True) as app:
            from pgvector.psycopg import register_vector

            register_vector(app)
            with app.transaction():
                app.execute("select set_config('pymem.tenant_id', 'acme', true)")
                vectors = _fill_facts(app, 2000)
            with psycopg.connect(dsn, autocommit=True) as su:
                su.execute("analyze pymem.facts")
                definition = su.execute(
                    "select indexdef from pg_indexes where indexname = 'facts_embedding_idx'"
                ).fetchone()
            with app.transaction():
                app.execute("select set_config('pymem.tenant_id', 'acme', true)")
                plan = _plan(app, vectors[0])
                partition = tenant_partition(app, "pymem.facts", "acme")
                (served,) = served_by_index(
                    app, plan, partition, "pymem.facts_embedding_idx", node_types={"Index Scan"}
                )
                kind = app.execute(
                    "select am.amname from pg_class c join pg_am am on am.oid = c.relam where c.oid = %s::regclass",
                    (f"pymem_private.{served.index}",),
                ).fetchone()
        assert definition is not None and "ivfflat" in definition[0] and "lists='20'" in definition[0]
        assert kind == ("ivfflat",)
    finally:
        superuser.execute(f"drop database if exists {name} with (force)")


def test_every_index_but_the_vector_ones_leads_with_tenant(superuser: psycopg.Connection[Any]) -> None:
    rows = superuser.execute(
        """
        select i.indexrelid::regclass::text, a.attname
          from pg_index i
          join pg_class t on t.oid = i.indrelid
          join pg_namespace n on n.oid = t.relnamespace
          join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
         where n.nspname in ('pymem', 'pymem_private') and t.relname not in ('alembic_version', 'role_tenants')
           -- a partition's indexes are its parent's (checked there; test_the_partitions_carry_every_index)
           and not t.relispartition
           -- bearer tokens are found by their hash (or id) before any tenant is known
           and i.indexrelid not in ('pymem_private.api_tokens_pkey'::regclass,
                                    'pymem_private.api_tokens_token_hash_key'::regclass,
                                    -- the embedding worker claims what is due in every tenant, oldest first
                                    'pymem.embedding_queue_due_idx'::regclass)
           -- tables without tenant data: the configured model, relevance models, vector index measurements
           and t.relname not in (
               'embedding_config', 'relevance_models', 'index_health', 'index_rebuilds', 'guard_patterns',
               'guard_models', 'extraction_patterns', 'model_words'
           )
        """
    ).fetchall()
    leading = dict(rows)
    expected_indexes = {
        "pymem.episodes_butler_created_idx",
        "pymem.episodes_expires_idx",
        "pymem.episodes_unconsolidated_idx",
        "pymem.episodes_search_idx",
        "pymem.facts_scope_active_idx",
        "pymem.facts_subject_predicate_idx",
        "pymem.facts_search_idx",
        "pymem.facts_tags_idx",
        "pymem.rules_scope_maturity_idx",
        "pymem.rules_search_idx",
        "pymem.memory_links_target_idx",
        "pymem_private.api_tokens_tenant_idx",
    }
    assert expected_indexes <= set(leading)
    vector = {name for name, column in leading.items() if column == "embedding"}
    assert vector == {
        "pymem.episodes_embedding_idx",
        "pymem.facts_embedding_idx",
        "pymem.rules_embedding_idx",
        "pymem.second_embeddings_embedding_idx",
    }
    assert all(column == "tenant_id" for name, column in leading.items() if name not in vector), leading


def test_foreign_keys_lead_with_tenant(superuser: psycopg.Connection[Any]) -> None:
    rows = superuser.execute(
        """
        select conname, (select array_agg(attname order by k.ord) from unnest(conkey) with ordinality k(num, ord)
                          join pg_attribute on attrelid = conrelid and attnum = k.num)
          from pg_constraint where contype = 'f' and connamespace = 'pymem'::regnamespace
           and conparentid = 0  -- not the copies PostgreSQL keeps per partition of a partitioned table
         order by 1
        """
    ).fetchall()
    assert [name for name, _ in rows] == [
        "facts_source_episode_fkey",
        "facts_supersedes_fkey",
        "rules_source_episode_fkey",
    ]
    assert all(columns[0] == "tenant_id" for _, columns in rows)


def test_a_fact_cannot_reference_an_episode_of_another_tenant(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        episode = conn.execute(
            "insert into pymem.episodes (butler, content) values ('b', 'c') returning id"
        ).fetchone()[0]  # type: ignore[index]
    with pytest.raises(errors.ForeignKeyViolation), as_tenant("globex") as conn:
        insert_fact(conn, "user", "a", "a", source_episode_id=episode)


# Requirement: Alembic migration chain


def test_clean_database_migration(superuser: psycopg.Connection[Any], db_dsn: str) -> None:
    extensions = dict(superuser.execute("select extname, extversion from pg_extension").fetchall())
    assert "vector" in extensions and tuple(map(int, extensions["vector"].split(".")[:2])) >= (0, 8)
    available = superuser.execute("select 1 from pg_available_extensions where name = 'uuid-ossp'").fetchone()
    assert ("uuid-ossp" in extensions) == bool(available)
    tables = {
        r[0]
        for r in superuser.execute(
            "select schemaname || '.' || tablename from pg_tables where schemaname in ('pymem', 'pymem_private')"
        )
    }
    assert tables == ALL_TABLES
    assert migrate.current(db_dsn) == migrate.head() == "0038"
    migrate.upgrade(db_dsn)  # idempotent: the sql/ files re-apply cleanly
    assert migrate.current(db_dsn) == "0038"


def test_migration_runs_against_an_empty_database(superuser: psycopg.Connection[Any], db_dsn: str) -> None:
    name = "pymem_from_empty"
    superuser.execute(f"drop database if exists {name}")
    superuser.execute(f"create database {name}")
    try:
        dsn = psycopg.conninfo.make_conninfo(db_dsn, dbname=name)
        assert migrate.current(dsn) is None
        migrate.upgrade(dsn)
        assert migrate.current(dsn) == migrate.head()
    finally:
        superuser.execute(f"drop database if exists {name} with (force)")


def test_memory_chain_has_its_branch_label() -> None:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(migrate._config())
    base = script.get_revision("0001")
    assert base is not None and base.branch_labels == {"memory"}


def test_an_unknown_vector_index_kind_fails_clearly_and_changes_nothing(
    superuser: psycopg.Connection[Any], db_dsn: str
) -> None:
    name = "pymem_bad_index_kind"
    superuser.execute(f"drop database if exists {name}")
    superuser.execute(f"create database {name}")
    try:
        dsn = psycopg.conninfo.make_conninfo(db_dsn, dbname=name)
        with pytest.raises(ValueError, match="PYMEM_VECTOR_INDEX must be one of"):
            migrate.upgrade(dsn, vector_index="flat")
        assert migrate.current(dsn) is None
        with psycopg.connect(dsn) as conn:
            assert conn.execute("select to_regnamespace('pymem')").fetchone() == (None,)
    finally:
        superuser.execute(f"drop database if exists {name} with (force)")


def test_a_database_of_a_newer_pymem_is_refused_clearly(superuser: psycopg.Connection[Any], db_dsn: str) -> None:
    superuser.execute("update pymem_private.alembic_version set version_num = '9999'")
    with pytest.raises(IncompatibleDatabaseError) as caught:
        migrate.ensure_current(db_dsn)
    assert "schema revision 9999, which this pymem" in str(caught.value) and "newer pymem" in str(caught.value)
    assert superuser.execute("select version_num from pymem_private.alembic_version").fetchone() == ("9999",)
