"""memory_store_episode / memory_store_fact / memory_store_rule (the SQL side of the store tools)."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg.types.json import Jsonb

from pymem.embeddings import Embedder
from tests.conftest import Tenant
from tests.sqlapi import call_one, counts, store_episode, store_fact, store_rule


def test_store_episode_with_defaults(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        episode_id = store_episode(conn, "User asked about recipes", "general")
        row = conn.execute(
            "select content, butler, importance, expires_at - created_at, consolidated, search_vector::text,"
            " embedding is null from pymem.episodes where id = %s",
            (episode_id,),
        ).fetchone()
    assert isinstance(episode_id, uuid.UUID)
    assert row == (
        "User asked about recipes",
        "general",
        5.0,
        dt.timedelta(days=7),
        False,
        "'ask':2A 'recip':4A 'user':1A",
        True,
    )


def test_store_episode_with_custom_importance(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        episode_id = store_episode(conn, "User revealed severe allergy", "health", importance=9.0)
        assert conn.execute("select importance from pymem.episodes where id = %s", (episode_id,)).fetchone() == (9.0,)


def test_store_episode_with_session_and_ttl(as_tenant: Tenant) -> None:
    session = uuid.uuid4()
    with as_tenant("acme") as conn:
        episode_id = store_episode(conn, "hello", "general", session_id=session, ttl=dt.timedelta(hours=1))
        row = conn.execute(
            "select session_id, expires_at - created_at from pymem.episodes where id = %s", (episode_id,)
        ).fetchone()
    assert row == (session, dt.timedelta(hours=1))


def test_store_writes_the_embedding_its_model_and_token_count(as_tenant: Tenant, embedder: Embedder) -> None:
    text = "User experiences nausea after dairy"
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "symptom", text, embedder)
        row = conn.execute(
            "select embedding, embedding_model, token_count from pymem.facts where id = %s", (fact_id,)
        ).fetchone()
    assert row is not None
    np.testing.assert_allclose(row[0].to_numpy(), embedder.embed(text), atol=1e-6)
    assert row[1:] == (embedder.model_id, embedder.count_tokens(text))


def test_store_fact_with_supersession(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        first = store_fact(conn, "user", "favorite_color", "green")
        second = store_fact(conn, "user", "favorite_color", "blue")
        rows = conn.execute("select id, validity, supersedes_id from pymem.facts order by created_at").fetchall()
        link = conn.execute("select source_id, target_id, relation from pymem.memory_links").fetchall()
    assert rows == [(first, "superseded", None), (second, "active", first)]
    assert link == [(second, first, "supersedes")]


def test_store_fact_with_permanence_mapping(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "name", "John", permanence="permanent")
        assert conn.execute("select decay_rate from pymem.facts where id = %s", (fact_id,)).fetchone() == (0.0,)


def test_store_fact_defaults_scope_tags_and_provenance(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        episode_id = store_episode(conn, "User said she is vegan", "health")
        fact_id = store_fact(
            conn,
            "user",
            "diet",
            "vegan",
            scope="health",
            tags=["diet", "food", "diet"],
            source_butler="health",
            source_episode_id=episode_id,
            importance=8,
        )
        row = conn.execute(
            "select importance, permanence, decay_rate, scope, tags, confidence, source_butler, source_episode_id"
            " from pymem.facts where id = %s",
            (fact_id,),
        ).fetchone()
        link = conn.execute("select source_id, target_id, relation from pymem.memory_links").fetchall()
    assert row == (8.0, "standard", 0.008, "health", ["diet", "food"], 1.0, "health", episode_id)
    assert link == [(fact_id, episode_id, "derived_from")]


def test_store_new_rule(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        rule_id = store_rule(conn, "Always confirm before sending messages", scope="global")
        row = conn.execute(
            "select maturity, confidence, scope, success_count, harmful_count, applied_count, effectiveness_score"
            " from pymem.rules where id = %s",
            (rule_id,),
        ).fetchone()
    assert isinstance(rule_id, uuid.UUID)
    assert row == ("candidate", 0.5, "global", 0, 0, 0, 0.0)


def test_every_store_appends_an_event(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        store_episode(conn, "e", "general")
        store_fact(conn, "user", "city", "Berlin")
        store_fact(conn, "user", "city", "Lisbon")
        store_rule(conn, "r")
        events = conn.execute(
            "select memory_type, operation, from_state, to_state from pymem.memory_events order by id"
        ).fetchall()
    assert events == [
        ("episode", "insert", None, "active"),
        ("fact", "insert", None, "active"),
        ("fact", "update", "active", "superseded"),
        ("fact", "insert", None, "active"),
        ("rule", "insert", None, "candidate"),
    ]


ZERO = np.zeros(384, dtype=np.float32)
SHORT = np.ones(3, dtype=np.float32)
UNIT = np.ones(384, dtype=np.float32) / np.sqrt(384)

BAD_CALLS = [
    ("memory_store_episode", {"content": "", "butler": "general"}, "content must be a non-empty text"),
    ("memory_store_episode", {"content": "x", "butler": " "}, "butler must be a non-empty text"),
    ("memory_store_episode", {"content": "x", "butler": "b", "importance": 11.0}, "importance must be between 0"),
    ("memory_store_episode", {"content": "x", "butler": "b", "ttl": dt.timedelta(0)}, "ttl must be a positive"),
    ("memory_store_episode", {"content": "x", "butler": "b", "embedding": SHORT}, "must have 384 dimensions"),
    ("memory_store_episode", {"content": "x", "butler": "b", "embedding": ZERO, "embedding_model": "m"}, "zero vector"),
    ("memory_store_episode", {"content": "x", "butler": "b", "embedding": UNIT}, "embedding_model (required"),
    ("memory_store_episode", {"content": "x", "butler": "b", "token_count": -1}, "token_count must be >= 0"),
    ("memory_store_fact", {"subject": "", "predicate": "p", "content": "c"}, "subject must be a non-empty"),
    ("memory_store_fact", {"subject": "s", "predicate": None, "content": "c"}, "predicate must be a non-empty"),
    ("memory_store_fact", {"subject": "s", "predicate": "p", "content": "c", "permanence": "forever"}, "permanence"),
    ("memory_store_fact", {"subject": "s", "predicate": "p", "content": "c", "confidence": 1.5}, "confidence must"),
    ("memory_store_fact", {"subject": "s", "predicate": "p", "content": "c", "importance": -1.0}, "importance must"),
    ("memory_store_fact", {"subject": "s", "predicate": "p", "content": "c", "scope": ""}, "scope must"),
    ("memory_store_fact", {"subject": "s", "predicate": "p", "content": "c", "tags": ["a", " "]}, "blank tags"),
    ("memory_store_fact", {"subject": "s", "predicate": "p", "content": "c", "metadata": Jsonb([1])}, "JSON object"),
    ("memory_store_fact", {"subject": "s", "predicate": "p", "content": "x" * 100_001}, "content is too long"),
    ("memory_store_rule", {"content": " "}, "content must be a non-empty text"),
    ("memory_store_rule", {"content": "r", "permanence": "eternal"}, "permanence"),
    ("memory_store_rule", {"content": "r", "tags": [None]}, "NULL or blank tags"),
]


@pytest.mark.parametrize(("function", "arguments", "message"), BAD_CALLS)
def test_bad_input_gets_a_clear_error_and_writes_nothing(
    as_tenant: Tenant, function: str, arguments: dict[str, Any], message: str
) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "s", "p", "the fact that a bad store must not supersede")
        before = counts(conn)
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call_one(conn, function, **arguments)
    assert caught.value.sqlstate == "PM002", caught.value
    assert message in str(caught.value)
    with as_tenant("acme") as conn:
        assert counts(conn) == before
        assert conn.execute("select validity from pymem.facts").fetchall() == [("active",)]


def test_an_unknown_source_episode_is_not_found_and_writes_nothing(as_tenant: Tenant) -> None:
    with as_tenant("globex") as conn:
        foreign_episode = store_episode(conn, "globex's episode", "general")
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        store_fact(conn, "user", "diet", "vegan", source_episode_id=foreign_episode)
    assert caught.value.sqlstate == "PM003"
    assert f"episode {foreign_episode} not found" in str(caught.value)
    with as_tenant("acme") as conn:
        assert set(counts(conn).values()) == {0}


def test_storing_needs_a_tenant(app: psycopg.Connection[Any]) -> None:
    with pytest.raises(psycopg.Error) as caught:
        app.execute("select pymem.memory_store_rule(content => 'r')")
    assert caught.value.sqlstate == "PM001"
