"""Butler settings in the database: pymem.butler_settings under forced RLS, memory_butler_configure /
memory_butler_settings / memory_butler_remove, the functions that read them (memory_recall's weights,
memory_store_episode's TTL), butler.toml files synced into a tenant, and `pymem butler sync | show`."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pymem import butlers
from pymem.client import MemoryClient
from pymem.embeddings import Embedder
from pymem.errors import InvalidArgumentError
from pymem.result_schemas import ButlerSettings
from tests.conftest import AppConnect, Tenant, connect_as
from tests.sqlapi import call, call_one, store_episode, store_fact, store_rule
from tests.test_cli import base_env, run_cli

Row = dict[str, Any]
SETTINGS = (
    "scope",
    "w_relevance",
    "w_importance",
    "w_recency",
    "w_confidence",
    "episode_ttl",
    "context_token_budget",
    "quota_system",
    "quota_project",
    "quota_history",
    "quota_knowledge",
    "max_system",
    "max_project",
    "max_history",
    "max_knowledge",
    "source",
    "min_relevance",
    "min_focus",
    "floor_bypass",
)
DEFAULTS: Row = {
    "w_relevance": 0.4,
    "w_importance": 0.3,
    "w_recency": 0.2,
    "w_confidence": 0.1,
    "episode_ttl": timedelta(days=7),
    "context_token_budget": 3000,
    "quota_system": 0.15,
    "quota_project": 0.25,
    "quota_history": 0.2,
    "quota_knowledge": 0.4,
    "max_system": 10,
    "max_project": 10,
    "max_history": 10,
    "max_knowledge": 20,
    "source": None,
    "min_relevance": None,
    "min_focus": None,
    "floor_bypass": None,
}
HEALTH: Row = {
    "scope": "wellbeing",
    "w_relevance": 0.6,
    "w_importance": 0.2,
    "w_recency": 0.1,
    "w_confidence": 0.3,
    "episode_ttl_days": 2.5,
    "context_token_budget": 1200,
    "quota_system": 0.1,
    "quota_project": 0.3,
    "quota_history": 0.25,
    "quota_knowledge": 0.3,
    "max_system": 4,
    "max_project": 5,
    "max_history": 0,
    "max_knowledge": 6,
    "source": "/etc/butlers/health/butler.toml",
    "min_relevance": 0.05,
    "min_focus": 0.3,
    "floor_bypass": 0.5,
}


def configure(conn: psycopg.Connection[Any], butler: str, **settings: Any) -> Row:
    return call_one(conn, "memory_butler_configure", butler=butler, **settings)


def settings_of(row: Row) -> Row:
    return {k: row[k] for k in SETTINGS}


def expected(butler: str, **settings: Any) -> Row:
    """What memory_butler_configure(butler, **settings) keeps: the arguments, else the defaults."""
    row = {"scope": butler, **DEFAULTS, **{k: v for k, v in settings.items() if k != "episode_ttl_days"}}
    if "episode_ttl_days" in settings:
        row["episode_ttl"] = timedelta(days=settings["episode_ttl_days"])
    return row


def all_settings(conn: psycopg.Connection[Any]) -> list[Row]:
    return [{"butler": r["butler"], **settings_of(r)} for r in call(conn, "memory_butler_settings")]


# Configure, read, remove


def test_configure_settings_remove_round_trip(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        written = configure(conn, "health", **HEALTH)
        in_force = call_one(conn, "memory_butler_settings", name="health")
        configure(conn, "finance")  # every argument left out: the defaults, scope = the butler's name
        listed = all_settings(conn)
        stored = conn.execute("select tenant_id, butler from pymem.butler_settings order by butler").fetchall()
    assert settings_of(written) == expected("health", **HEALTH)
    assert written["tenant_id"] == "acme" and written["butler"] == "health" and written["updated_at"] is not None
    assert in_force["configured"] is True and settings_of(in_force) == expected("health", **HEALTH)
    assert in_force["updated_at"] == written["updated_at"]
    assert listed == [
        {"butler": "finance", **expected("finance")},
        {"butler": "health", **expected("health", **HEALTH)},
    ]
    assert stored == [("acme", "finance"), ("acme", "health")]

    with as_tenant("acme") as conn:
        # configuring again sets every setting: what is left out goes back to its default (no merge)
        again = configure(conn, "health", w_relevance=2)
        assert settings_of(again) == expected("health", w_relevance=2)
        assert conn.execute("select count(*) from pymem.butler_settings").fetchone() == (2,)
        assert call_one(conn, "memory_butler_remove", butler="health") == {"memory_butler_remove": True}
        assert call_one(conn, "memory_butler_remove", butler="health") == {"memory_butler_remove": False}
        assert call_one(conn, "memory_butler_remove", butler="never") == {"memory_butler_remove": False}
        removed = call_one(conn, "memory_butler_settings", name="health")
        left = all_settings(conn)
    assert removed["configured"] is False and removed["updated_at"] is None
    assert removed["butler"] == "health" and settings_of(removed) == expected("health")
    assert left == [{"butler": "finance", **expected("finance")}]


def test_the_typed_client_round_trip(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        client = MemoryClient(conn)
        written = client.butler_configure(butler="health", scope="wellbeing", episode_ttl_days=1, max_system=0)
        (read,) = client.butler_settings(name="health")
        every = client.butler_settings()
        with pytest.raises(TypeError, match="unknown butler settings: w_typo"):
            client.butler_configure(butler="health", w_typo=1)
        assert client.butler_remove(butler="health") is True
        assert client.butler_remove(butler="health") is False
        (default,) = client.butler_settings(name="health")
    assert isinstance(written, ButlerSettings) and written == read and every == [read]
    assert read.scope == "wellbeing" and read.episode_ttl == timedelta(days=1) and read.max_system == 0
    assert read.max_knowledge == 20 and read.configured is True
    assert default.configured is False and default.scope == "health" and default.updated_at is None


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"scope": ""}, "scope must be a non-empty text"),
        ({"scope": "x" * 201}, "scope is too long"),
        ({"w_relevance": -0.1}, "score_weights.relevance must be between 0 and 1000"),
        ({"w_relevance": float("nan")}, "score_weights.relevance must be between 0 and 1000"),
        ({"w_importance": 1000.5}, "score_weights.importance must be between 0 and 1000"),
        ({"w_recency": None}, "score_weights.recency must be between 0 and 1000"),
        ({"w_confidence": -1}, "score_weights.confidence must be between 0 and 1000"),
        ({"w_relevance": 0, "w_importance": 0, "w_recency": 0, "w_confidence": 0}, "score_weights must not all be 0"),
        ({"episode_ttl_days": 0}, "episode_ttl_days must be > 0 and <= 36500"),
        ({"episode_ttl_days": -2}, "episode_ttl_days must be > 0 and <= 36500"),
        ({"episode_ttl_days": 36500.5}, "episode_ttl_days must be > 0 and <= 36500"),
        ({"episode_ttl_days": float("nan")}, "episode_ttl_days must be > 0 and <= 36500"),
        ({"episode_ttl_days": None}, "episode_ttl_days must be > 0 and <= 36500"),
        ({"context_token_budget": 0}, "context.token_budget must be between 1 and 100000"),
        ({"context_token_budget": 100_001}, "context.token_budget must be between 1 and 100000"),
        ({"context_token_budget": None}, "context.token_budget must be between 1 and 100000"),
        ({"quota_system": 1.01}, "context.quotas.system must be between 0 and 1"),
        ({"quota_project": -0.1}, "context.quotas.project must be between 0 and 1"),
        ({"quota_history": float("nan")}, "context.quotas.history must be between 0 and 1"),
        ({"quota_knowledge": None}, "context.quotas.knowledge must be between 0 and 1"),
        (
            {"quota_knowledge": 0.5},
            "context.quotas must sum to at most 1, not 1.100000"
            " (system 0.15 + project 0.25 + history 0.2 + knowledge 0.5)",
        ),
        ({"quota_system": 0.4, "quota_project": 0.4, "quota_history": 0.4}, "context.quotas must sum to at most 1"),
        ({"max_system": -1}, "context.max_items.system must be between 0 and 1000"),
        ({"max_project": 1001}, "context.max_items.project must be between 0 and 1000"),
        ({"max_history": None}, "context.max_items.history must be between 0 and 1000"),
        ({"max_knowledge": 5000}, "context.max_items.knowledge must be between 0 and 1000"),
        ({"min_relevance": 1.5}, "min_relevance must be between 0 and 1"),
        ({"min_relevance": -0.01}, "min_relevance must be between 0 and 1"),
        ({"min_relevance": float("nan")}, "min_relevance must be between 0 and 1"),
        ({"min_focus": 1.5}, "min_focus must be between 0 and 1"),
        ({"min_focus": -0.01}, "min_focus must be between 0 and 1"),
        ({"floor_bypass": 1.01}, "floor_bypass must be between 0 and 1"),
        ({"floor_bypass": float("nan")}, "floor_bypass must be between 0 and 1"),
    ],
)
def test_each_range_error_names_its_key_and_writes_nothing(
    as_tenant: Tenant, arguments: dict[str, Any], message: str
) -> None:
    with as_tenant("acme") as conn:
        before = configure(conn, "health", **HEALTH)
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        configure(conn, "health", **arguments)
    assert caught.value.sqlstate == "PM002"
    assert message in str(caught.value)
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        configure(conn, "finance", **arguments)
    assert caught.value.sqlstate == "PM002"
    with as_tenant("acme") as conn:
        # the row that was there is unchanged, and no new row was written
        assert all_settings(conn) == [{"butler": "health", **settings_of(before)}]


def test_quotas_may_sum_to_exactly_one_and_limits_may_be_zero(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        row = configure(
            conn,
            "health",
            quota_system=0.1,
            quota_project=0.5,
            quota_history=0.2,
            quota_knowledge=0.2,
            max_project=0,
            w_relevance=1000,
        )
        bounds = configure(conn, "finance", episode_ttl_days=36500, context_token_budget=100_000, max_knowledge=1000)
    assert (row["quota_system"], row["quota_project"], row["quota_history"], row["quota_knowledge"]) == (
        0.1,
        0.5,
        0.2,
        0.2,
    )
    assert row["max_project"] == 0 and bounds["max_knowledge"] == 1000
    assert bounds["episode_ttl"] == timedelta(days=36500) and bounds["context_token_budget"] == 100_000


@pytest.mark.parametrize(
    ("butler", "message"),
    [
        ("", "butler must be a non-empty text"),
        (None, "butler must be a non-empty text"),
        ("x" * 101, "butler is too long"),
        ("../etc", "invalid butler name"),
        ("a/b", "invalid butler name"),
        (".hidden", "invalid butler name"),
        ("a..b", "invalid butler name"),
        ("sp ace", "invalid butler name"),
    ],
)
def test_butler_names_are_file_names(as_tenant: Tenant, butler: str | None, message: str) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        configure(conn, butler)  # type: ignore[arg-type]
    assert caught.value.sqlstate == "PM002"
    assert message in str(caught.value)


def test_the_butler_functions_need_a_tenant(app: psycopg.Connection[Any]) -> None:
    for function, arguments in [
        ("memory_butler_configure", {"butler": "health"}),
        ("memory_butler_remove", {"butler": "health"}),
        ("memory_butler_settings", {}),
        ("memory_butler_settings", {"name": "health"}),
    ]:
        with pytest.raises(psycopg.Error) as caught, app.transaction():
            call(app, function, **arguments)
        assert caught.value.sqlstate == "PM001", function


# Row-level security


@pytest.fixture
def two_tenants(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        configure(conn, "health", **HEALTH)
        configure(conn, "acme-only", w_relevance=5)
    with as_tenant("globex") as conn:
        configure(conn, "health", w_importance=9)


def test_a_tenant_sees_and_changes_only_its_own_settings(two_tenants: None, as_tenant: Tenant) -> None:
    with as_tenant("globex") as conn:
        assert [r["butler"] for r in all_settings(conn)] == ["health"]
        assert call_one(conn, "memory_butler_settings", name="health")["w_importance"] == 9
        # acme's butler is, for globex, one without settings
        assert call_one(conn, "memory_butler_settings", name="acme-only")["configured"] is False
        assert call_one(conn, "memory_butler_remove", butler="acme-only") == {"memory_butler_remove": False}
        configure(conn, "health", w_importance=7)  # globex's own row, not acme's
        assert conn.execute("select distinct tenant_id from pymem.butler_settings").fetchall() == [("globex",)]
        assert (
            conn.execute("update pymem.butler_settings set w_relevance = 99 where butler = 'acme-only'").rowcount == 0
        )
        assert conn.execute("select pymem_private.delete_butler_settings('acme-only')").fetchone() == (False,)
    with as_tenant("acme") as conn:
        rows = all_settings(conn)
    assert rows == [
        {"butler": "acme-only", **expected("acme-only", w_relevance=5)},
        {"butler": "health", **expected("health", **HEALTH)},
    ]


@pytest.mark.parametrize(
    "statement",
    [
        "insert into pymem.butler_settings select * from pymem_private.butler_defaults('acme', 'intruder')",
        "update pymem.butler_settings set tenant_id = 'acme' where butler = 'health'",
    ],
)
def test_a_tenant_cannot_write_into_another(two_tenants: None, as_tenant: Tenant, statement: str) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as caught, as_tenant("globex") as conn:
        conn.execute(statement)
    # RLS WITH CHECK; tenant_id is no column pymem_app may UPDATE at all
    assert "row-level security" in str(caught.value) or "permission denied for table" in str(caught.value)
    with as_tenant("acme") as conn:
        assert [r["butler"] for r in all_settings(conn)] == ["acme-only", "health"]


def test_an_unset_tenant_sees_nothing(two_tenants: None, app: psycopg.Connection[Any]) -> None:
    assert app.execute("select count(*) from pymem.butler_settings").fetchone() == (0,)
    with pytest.raises(psycopg.Error) as caught:
        app.execute("insert into pymem.butler_settings select * from pymem_private.butler_defaults('acme', 'x')")
    assert caught.value.sqlstate == "42501"
    assert app.execute("update pymem.butler_settings set w_relevance = 1").rowcount == 0
    with pytest.raises(psycopg.Error) as caught:
        app.execute("select pymem_private.delete_butler_settings('health')")
    assert caught.value.sqlstate == "PM001"


def test_a_bound_analyst_reads_its_tenants_settings(
    two_tenants: None,
    make_login: Any,
    db_dsn: str,
) -> None:
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn:
        listed = conn.execute("select butler, w_relevance from memory_butler_settings()").fetchall()
        one = conn.execute("select configured, scope, w_importance from memory_butler_settings('health')").fetchone()
        table = conn.execute("select tenant_id, butler from pymem.butler_settings order by butler").fetchall()
    assert listed == [("acme-only", 5.0), ("health", 0.6)]
    assert one == (True, "wellbeing", 0.2)
    assert table == [("acme", "acme-only"), ("acme", "health")]


@pytest.mark.parametrize(
    "statement",
    [
        "select * from memory_butler_configure(butler => 'health', w_relevance => 9)",
        "select * from memory_butler_configure(butler => 'new')",
        "select memory_butler_remove('health')",
        "insert into pymem.butler_settings select * from pymem_private.butler_defaults('acme', 'new')",
        "update pymem.butler_settings set w_relevance = 9",
        "delete from pymem.butler_settings",
    ],
)
def test_a_bound_analyst_cannot_write_settings(
    two_tenants: None,
    as_tenant: Tenant,
    make_login: Any,
    db_dsn: str,
    statement: str,
) -> None:
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute(statement)
    assert caught.value.sqlstate == "42501"
    with as_tenant("acme") as conn:
        assert all_settings(conn) == [
            {"butler": "acme-only", **expected("acme-only", w_relevance=5)},
            {"butler": "health", **expected("health", **HEALTH)},
        ]


# The functions that read the settings


def test_recall_uses_the_weights_of_the_butler_its_scope_names(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        for n in range(4):
            store_fact(conn, f"meal{n}", "diet", f"diet fact number {n}", importance=2 + 2 * n, scope="health")
        store_rule(conn, "diet rule for health", scope="health")
        defaults = call(conn, "memory_recall", topic="diet", scope="health")
        configure(conn, "health", w_relevance=0, w_importance=1, w_recency=0, w_confidence=0)
        by_butler = call(conn, "memory_recall", topic="diet", scope="health")
        explicit = call(conn, "memory_recall", topic="diet", scope="health", w_relevance=1, w_importance=0, w_recency=0)
        partial = call(conn, "memory_recall", topic="diet", scope="health", w_relevance=1)
        unscoped = call(conn, "memory_recall", topic="diet")
        other = call(conn, "memory_recall", topic="diet", scope="finance")
    assert len(by_butler) == 5
    for row in defaults + unscoped + other:  # no butler 'finance', no scope: 0.4/0.3/0.2/0.1
        composite = (
            0.4 * row["relevance"] + 0.3 * row["importance"] + 0.2 * row["recency"] + 0.1 * row["effective_confidence"]
        )
        assert row["score"] == pytest.approx(composite)
    # the butler's weights: the importance alone
    assert [r["score"] for r in by_butler] == pytest.approx([0.8, 0.6, 0.5, 0.4, 0.2])
    assert [r["score"] for r in by_butler] == pytest.approx([r["importance"] for r in by_butler])
    # explicit weights override it, each one apart: w_confidence left NULL is still the butler's 0
    for row in explicit:
        assert row["score"] == pytest.approx(row["relevance"])
    for row in partial:
        assert row["score"] == pytest.approx((row["relevance"] + row["importance"]) / 2)


def test_recall_and_context_use_the_relevance_floor_of_the_butler(as_tenant: Tenant) -> None:
    """A butler's min_relevance is the floor of memory_recall with its scope and of its memory_context; NULL is the
    relevance model's default floor; an explicit min_relevance overrides it."""
    diet = "The user follows a vegetarian diet"
    dog = "The dog is on a diet since March"
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "diet", diet)
        store_fact(conn, "dog", "diet", dog)

        def recalled(**arguments: Any) -> set[str]:
            rows = call(conn, "memory_recall", topic="vegetarian diet", scope="health", **arguments)
            return {r["content"] for r in rows}

        def in_context() -> set[str]:
            rows = call(conn, "memory_context_candidates", trigger_prompt="vegetarian diet", butler="health")
            return {r["content"] for r in rows if r["memory_type"] == "fact"}

        unconfigured = recalled()
        configure(conn, "health")  # min_relevance NULL: the model's floor
        assert recalled() == unconfigured
        configure(conn, "health", min_relevance=0)
        assert recalled() == in_context() == {diet, dog}
        configure(conn, "health", min_relevance=1)  # no relevance reaches 1
        assert recalled() == in_context() == set()
        assert recalled(min_relevance=0) == {diet, dog}
        # another butler (unconfigured): the model's floor
        finance = {r["content"] for r in call(conn, "memory_recall", topic="vegetarian diet", scope="finance")}
        assert finance == unconfigured
        assert call_one(conn, "memory_butler_settings", name="health")["min_relevance"] == 1


def test_recall_uses_the_focus_check_of_the_butler(as_tenant: Tenant, embedder: Embedder) -> None:
    """A butler's min_focus is the focus check of memory_recall with its scope (NULL: the default; 0: off; an
    explicit min_focus overrides it): a butler whose topics are tasks can keep what bears on them by inference."""
    facts = {"The user is allergic to peanuts", "The user lives in Berlin"}
    topic = "What car does the user drive?"
    with as_tenant("acme") as conn:
        for n, content in enumerate(sorted(facts)):
            store_fact(conn, "user", f"fact{n}", content, embedder)
        focus = conn.execute("select pymem.memory_query_focus(%s)", (topic,)).fetchone()[0]

        def recalled(**arguments: Any) -> set[str]:
            rows = call(
                conn,
                "memory_recall",
                topic=topic,
                scope="chef",
                query_embedding=embedder.embed(topic),
                focus_embedding=embedder.embed(focus),
                min_relevance=0.001,
                **arguments,
            )
            return {r["content"] for r in rows}

        assert recalled() == set()  # the default check
        configure(conn, "chef", min_focus=0)
        assert recalled() == facts
        assert recalled(min_focus=0.225) == set()
        configure(conn, "chef", min_focus=0.225)
        assert recalled() == set()
        assert call_one(conn, "memory_butler_settings", name="chef")["min_focus"] == 0.225


def test_recall_uses_the_floor_bypass_of_the_butler(as_tenant: Tenant, embedder: Embedder) -> None:
    """A butler's floor_bypass is the cosine at which memory_recall with its scope keeps a memory below the relevance
    floor (NULL: the default, 0.3; 1: off; an explicit floor_bypass overrides it)."""
    school = "The children attend Riverside Primary, a state school near the park."
    topic = "Where do the kids get their education?"
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "school", school, embedder)
        store_fact(conn, "user", "city", "The user lives in Berlin.", embedder)

        def recalled(**arguments: Any) -> set[str]:
            rows = call(
                conn,
                "memory_recall",
                topic=topic,
                scope="teacher",
                query_embedding=embedder.embed(topic),
                min_relevance=0.5,
                **arguments,
            )
            return {r["content"] for r in rows}

        # the school fact says it in other words: a relevance below 0.5, a cosine of 0.44; Berlin is neither
        assert recalled() == {school}
        configure(conn, "teacher", floor_bypass=1)
        assert recalled() == set()
        assert recalled(floor_bypass=0.4) == {school}
        configure(conn, "teacher", floor_bypass=0.45)
        assert recalled() == set()
        assert call_one(conn, "memory_butler_settings", name="teacher")["floor_bypass"] == 0.45


def test_a_butler_file_sets_the_floor() -> None:
    assert butlers.parse_butler("health", "min_relevance = 0.05\n").settings == {"min_relevance": 0.05}
    assert butlers.parse_butler("health", "min_focus = 0\n").settings == {"min_focus": 0.0}
    assert butlers.parse_butler("health", "floor_bypass = 1\n").settings == {"floor_bypass": 1.0}
    with pytest.raises(InvalidArgumentError, match="min_relevance must be a number"):
        butlers.parse_butler("health", 'min_relevance = "low"\n')


def test_another_tenants_butler_weights_do_not_apply(as_tenant: Tenant) -> None:
    with as_tenant("globex") as conn:
        configure(conn, "health", w_relevance=0, w_importance=1, w_recency=0, w_confidence=0)
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "diet", "diet fact", importance=9, scope="health")
        (row,) = call(conn, "memory_recall", topic="diet", scope="health")
    assert row["score"] != pytest.approx(row["importance"])
    assert row["score"] == pytest.approx(
        0.4 * row["relevance"] + 0.3 * row["importance"] + 0.2 * row["recency"] + 0.1 * row["effective_confidence"]
    )


def test_store_episode_uses_the_butlers_ttl(as_tenant: Tenant) -> None:
    with as_tenant("globex") as conn:
        configure(conn, "health", episode_ttl_days=30)  # another tenant's: no effect on acme
    with as_tenant("acme") as conn:
        before = store_episode(conn, "before any settings", "health")
        configure(conn, "health", episode_ttl_days=2.5)
        health = call_one(conn, "memory_store_episode", content="a health episode", butler="health")
        explicit = store_episode(conn, "explicit ttl", "health", ttl=timedelta(hours=3))
        other = store_episode(conn, "another butler", "finance")
        now = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
        lifetimes = dict(conn.execute("select id, expires_at - created_at from pymem.episodes").fetchall())
    assert health["expires_at"] == now + timedelta(days=2.5)  # expires_at = now() + the butler's TTL
    assert lifetimes == {
        before: timedelta(days=7),
        health["memory_id"]: timedelta(days=2.5),
        explicit: timedelta(hours=3),
        other: timedelta(days=7),
    }


# butler.toml files synced into a tenant


def write(directory: Path, name: str, text: str, *, layout: str = "dir") -> Path:
    path = directory / name / "butler.toml" if layout == "dir" else directory / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_sync_writes_every_file_and_removes_the_settings_of_deleted_files(as_tenant: Tenant, tmp_path: Path) -> None:
    health = write(tmp_path, "health", "scope = 'wellbeing'\n[context]\ntoken_budget = 900\n")
    finance = write(tmp_path, "finance", "score_weights = { relevance = 1 }\n", layout="file")
    with as_tenant("acme") as conn:
        configure(conn, "by-sql", w_importance=2)  # set in SQL (no source): sync leaves it alone
        written = butlers.sync_butlers(MemoryClient(conn), tmp_path)
        first = all_settings(conn)
    assert [w.butler for w in written] == ["finance", "health"]
    assert first == [
        {"butler": "by-sql", **expected("by-sql", w_importance=2)},
        {"butler": "finance", **expected("finance", w_relevance=1, source=str(finance))},
        {"butler": "health", **expected("health", scope="wellbeing", context_token_budget=900, source=str(health))},
    ]
    finance.unlink()
    health.write_text("[context]\ntoken_budget = 800\n")
    with as_tenant("acme") as conn:
        written = butlers.sync_butlers(MemoryClient(conn), tmp_path)
        second = all_settings(conn)
    assert [w.butler for w in written] == ["health"]
    assert second == [
        {"butler": "by-sql", **expected("by-sql", w_importance=2)},
        {"butler": "health", **expected("health", context_token_budget=800, source=str(health))},
    ]
    with as_tenant("globex") as conn:
        assert all_settings(conn) == []  # only the tenant of the transaction


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[context]\ntoken_budget = 0\n", "context.token_budget"),  # SQL's range check, after 'a' was written
        ("[context]\ntoken_budgett = 10\n", "context.token_budgett"),  # Python's check, before any write
    ],
)
def test_sync_is_all_or_nothing(as_tenant: Tenant, tmp_path: Path, text: str, key: str) -> None:
    old = write(tmp_path, "old", "scope = 'old'\n")
    with as_tenant("acme") as conn:
        butlers.sync_butlers(MemoryClient(conn), tmp_path)
        before = all_settings(conn)
    old.unlink()
    write(tmp_path, "a", "scope = 'new'\n")
    bad = write(tmp_path, "b", text)
    with pytest.raises(InvalidArgumentError) as caught, as_tenant("acme") as conn:
        butlers.sync_butlers(MemoryClient(conn), tmp_path)
    assert str(caught.value).startswith(f"{bad}: ") and key in str(caught.value)
    with as_tenant("acme") as conn:
        assert all_settings(conn) == before  # 'a' not written, 'old' not removed
    assert [r["butler"] for r in before] == ["old"]


def test_sync_of_an_empty_directory_removes_the_file_settings_a_missing_one_nothing(
    as_tenant: Tenant, tmp_path: Path
) -> None:
    path = write(tmp_path, "health", "scope = 'x'\n")
    with as_tenant("acme") as conn:
        butlers.sync_butlers(MemoryClient(conn), tmp_path)
        configure(conn, "by-sql")
    with as_tenant("acme") as conn:  # a mistyped directory does not reset every butler
        assert butlers.sync_butlers(MemoryClient(conn), tmp_path / "missing") == []
        assert [r["butler"] for r in all_settings(conn)] == ["by-sql", "health"]
    path.unlink()
    with as_tenant("acme") as conn:
        assert butlers.sync_butlers(MemoryClient(conn), tmp_path) == []
        assert [r["butler"] for r in all_settings(conn)] == ["by-sql"]


def test_a_missing_butlers_directory_is_the_normal_case_and_says_nothing(
    as_tenant: Tenant, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Most users have no butler files: `pymem serve` and `make demo` must not tell them about a directory they
    never asked for. At the command line's default level (warnings) nothing is logged; at debug level it is."""
    missing = tmp_path / "no-such-dir"
    caplog.set_level(logging.WARNING)
    with as_tenant("acme") as conn:
        assert butlers.sync_butlers(MemoryClient(conn), missing) == []
    assert caplog.records == []
    caplog.set_level(logging.DEBUG, logger="pymem.butlers")
    with as_tenant("acme") as conn:
        butlers.sync_butlers(MemoryClient(conn), missing)
    assert [r.levelno for r in caplog.records if "does not exist" in r.getMessage()] == [logging.DEBUG]


# The command line (against this test's database through PYMEM_DSN)


def test_cli_butler_sync_and_show(db_dsn: str, as_tenant: Tenant, tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "health",
        "scope = 'wellbeing'\nepisode_ttl_days = 3.5\nmin_relevance = 0.05\nmin_focus = 0\n"
        "score_weights = { relevance = 0.6, importance = 0.2, recency = 0.1, confidence = 0.1 }\n"
        "[context]\ntoken_budget = 1200\nquotas = { system = 0.1, project = 0.3, history = 0.2, knowledge = 0.4 }\n"
        "max_items = { system = 4, project = 5, history = 0, knowledge = 6 }\n",
    )
    env = base_env(PYMEM_DSN=db_dsn)
    line = (
        "health: scope wellbeing, weights 0.6/0.2/0.1/0.1 (relevance/importance/recency/confidence),"
        " relevance floor 0.05, floor bypass the default, focus check 0, episode TTL 3.5 days, context 1200 tokens,"
        " quotas 0.1/0.3/0.2/0.4 and"
        " max items"
        f" 4/5/0/6 (system/project/history/knowledge) ({path})"
    )
    synced = run_cli("butler", "sync", "--tenant", "acme", "--dir", str(tmp_path), env=env).stdout
    assert synced.splitlines() == [line, f"wrote the settings of 1 butler(s) from {tmp_path} into tenant 'acme'"]
    with as_tenant("acme") as conn:
        row = call_one(conn, "memory_butler_settings", name="health")
    assert settings_of(row) == expected(
        "health",
        scope="wellbeing",
        episode_ttl_days=3.5,
        min_relevance=0.05,
        min_focus=0.0,
        w_relevance=0.6,
        w_importance=0.2,
        w_recency=0.1,
        w_confidence=0.1,
        context_token_budget=1200,
        quota_system=0.1,
        quota_project=0.3,
        quota_history=0.2,
        quota_knowledge=0.4,
        max_system=4,
        max_project=5,
        max_history=0,
        max_knowledge=6,
        source=str(path),
    )
    assert run_cli("butler", "show", "--tenant", "acme", env=env).stdout.splitlines() == [line]
    assert run_cli("butler", "show", "health", "--tenant", "acme", env=env).stdout.splitlines() == [line]
    assert run_cli("butler", "show", "finance", "--tenant", "acme", env=env).stdout.splitlines() == [
        "finance: scope finance, weights 0.4/0.3/0.2/0.1 (relevance/importance/recency/confidence),"
        " relevance floor the model's, floor bypass the default, focus check the default, episode TTL 7 days,"
        " context 3000 tokens, quotas"
        " 0.15/0.25/0.2/0.4 and max items 10/10/10/20"
        " (system/project/history/knowledge) (defaults)"
    ]
    assert run_cli("butler", "show", "--tenant", "globex", env=env).stdout.splitlines() == [
        "no butler settings in tenant 'globex': every butler has the defaults"
    ]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[context]\ntoken_budget = 0\n", "context.token_budget must be between 1 and 100000"),
        ("[context]\nquotas = { knowledge = 0.9 }\n", "context.quotas must sum to at most 1"),
        ("[context]\nquotas = { facts = 0.5 }\n", "unknown key context.quotas.facts"),
        ("score_weights = { relevancy = 1 }\n", "unknown key score_weights.relevancy"),
        ("episode_ttl_days = 'week'\n", "episode_ttl_days must be a number"),
        ("scope = \n", "not valid TOML"),
    ],
)
def test_cli_a_bad_file_is_a_one_line_error(
    db_dsn: str, as_tenant: Tenant, tmp_path: Path, text: str, key: str
) -> None:
    write(tmp_path, "finance", "scope = 'money'\n")
    bad = write(tmp_path, "health", text)
    result = run_cli(
        "butler", "sync", "--tenant", "acme", "--dir", str(tmp_path), env=base_env(PYMEM_DSN=db_dsn), check=False
    )
    assert result.returncode != 0
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"pymem: {bad}: ") and key in line
    with as_tenant("acme") as conn:
        assert all_settings(conn) == []  # finance was not written either


def test_cli_an_integer_out_of_sql_range_is_a_one_line_error(db_dsn: str, tmp_path: Path) -> None:
    bad = write(tmp_path, "health", "[context]\ntoken_budget = 10000000000\n")
    result = run_cli(
        "butler", "sync", "--tenant", "acme", "--dir", str(tmp_path), env=base_env(PYMEM_DSN=db_dsn), check=False
    )
    assert result.returncode != 0
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"pymem: {bad}: ") and "context.token_budget" in line


# Concurrency: two sessions configuring the same butler


def blocked_on_a_lock(superuser: psycopg.Connection[Any], pid: int) -> bool:
    row = superuser.execute("select wait_event_type from pg_stat_activity where pid = %s", (pid,)).fetchone()
    return row is not None and row[0] == "Lock"


@pytest.mark.parametrize("existing", [False, True])
def test_two_sessions_configuring_one_butler_leave_one_consistent_row(
    connect_app: AppConnect, superuser: psycopg.Connection[Any], as_tenant: Tenant, existing: bool
) -> None:
    if existing:
        with as_tenant("acme") as conn:
            configure(conn, "health", w_relevance=3)
    first, second = connect_app(), connect_app()
    errors: list[BaseException] = []
    done = threading.Event()

    def configure_second() -> None:
        try:
            with second.transaction():
                second.execute("select set_config('pymem.tenant_id', 'acme', true)")
                configure(second, "health", scope="second", w_relevance=2, max_project=2, episode_ttl_days=2)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            done.set()

    with first.transaction():
        first.execute("select set_config('pymem.tenant_id', 'acme', true)")
        configure(first, "health", scope="first", w_relevance=1, max_project=1, episode_ttl_days=1)
        thread = threading.Thread(target=configure_second)
        thread.start()
        # the second session waits for the first one's row (uncommitted insert or update)
        for _ in range(200):
            if blocked_on_a_lock(superuser, second.info.backend_pid) or done.is_set():
                break
            done.wait(0.05)
        assert not done.is_set() and blocked_on_a_lock(superuser, second.info.backend_pid)
    thread.join(timeout=30)
    assert not thread.is_alive() and errors == []
    with as_tenant("acme") as conn:
        rows = all_settings(conn)
    # the second one's upsert ran last: one row, all of it the second's (no unique violation, no mix)
    assert rows == [
        {"butler": "health", **expected("health", scope="second", w_relevance=2, max_project=2, episode_ttl_days=2)}
    ]
