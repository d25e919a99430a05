"""Calibrated relevance, the relevance floor, the graph leg, the second stage (rerank) and provenance
(sql/functions/112-relevance.sql, 130-candidates.sql, 135-provenance.sql), as pymem_app
against a real PostgreSQL with real MiniLM embeddings."""

from __future__ import annotations

import math
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pymem.embeddings import Embedder
from tests.conftest import Tenant
from tests.sqlapi import call, call_one, store_episode, store_fact, store_rule

MILK = "Can the user drink milk or eat dairy?"


def recall(conn: psycopg.Connection[Any], topic: str, embedder: Embedder, **arguments: Any) -> list[dict[str, Any]]:
    return call(conn, "memory_recall", topic=topic, query_embedding=embedder.embed(topic), **arguments)


def search(conn: psycopg.Connection[Any], query: str, embedder: Embedder, **arguments: Any) -> list[dict[str, Any]]:
    return call(conn, "memory_search", query=query, query_embedding=embedder.embed(query), **arguments)


@pytest.fixture
def demo(as_tenant: Tenant, embedder: Embedder) -> dict[str, Any]:
    """The demo's tenant: three facts, one rule, two episodes."""
    with as_tenant("demo") as conn:
        ids = {
            "dairy": store_fact(
                conn, "user", "diet", "The user is lactose intolerant and avoids dairy.", embedder, importance=8
            ),
            "berlin": store_fact(conn, "user", "city", "The user lives in Berlin.", embedder),
            "colour": store_fact(
                conn, "user", "favourite_colour", "The user's favourite colour is now blue.", embedder
            ),
            "plant_milk": store_rule(
                conn, "Suggest plant-based milk when the user asks for coffee or recipes.", embedder
            ),
        }
        store_episode(conn, "User is planning a trip to Lisbon in May.", "travel", embedder)
        store_episode(conn, "User asked for a dinner recipe without cheese.", "kitchen", embedder)
    return ids


def test_unrelated_memories_are_not_recalled_for_being_important_or_recent(
    as_tenant: Tenant, embedder: Embedder, demo: dict[str, Any]
) -> None:
    """The issue's demo: the dairy fact and the plant-milk rule first and second; "lives in Berlin" and the
    favourite colour are below the floor, however recent; min_relevance => 0 turns the floor off."""
    with as_tenant("demo") as conn:
        rows = recall(conn, MILK, embedder)
        ids = [r["memory_id"] for r in rows]
        assert ids[:2] == [demo["dairy"], demo["plant_milk"]]
        assert demo["berlin"] not in ids and demo["colour"] not in ids
        floor = conn.execute("select default_floor from pymem.memory_relevance_model('hybrid')").fetchone()[0]
        assert all(r["relevance"] >= floor for r in rows)  # none passes by its meaning alone (floor_bypass)
        everything = recall(conn, MILK, embedder, min_relevance=0)
        unrelated = {
            r["memory_id"]: r["relevance"] for r in everything if r["memory_id"] in (demo["berlin"], demo["colour"])
        }
        assert len(unrelated) == 2
        assert all(rel < floor for rel in unrelated.values())
        relevance = {r["memory_id"]: r["relevance"] for r in everything}
        # a probability, not a rank: the third of four is not "0.96 relevant" (it was, by RRF over the best)
        assert max(unrelated.values()) < 0.01
        assert relevance[demo["dairy"]] > 50 * max(unrelated.values())


def test_a_memory_that_says_it_in_other_words_passes_the_floor(as_tenant: Tenant, embedder: Embedder) -> None:
    """Recall keeps exactly the candidates whose relevance reaches the floor or whose cosine to the topic reaches
    floor_bypass (default 0.3; 1 turns it off): "Where do the kids get their education?" shares no word with the
    school fact, and at a floor above its relevance the fact is still recalled by its meaning."""
    facts = {
        "school": "The children attend Riverside Primary, a state school near the park.",
        "city": "The user lives in Berlin.",
        "car": "The user drives a 2015 Volvo estate.",
        "work": "The user works as a nurse at the city hospital.",
    }
    topic = "Where do the kids get their education?"
    vector = embedder.embed(topic)
    with as_tenant("acme") as conn:
        for predicate, content in facts.items():
            store_fact(conn, "user", predicate, content, embedder)
        every = {
            r["content"]: (
                r["relevance"],
                conn.execute(
                    "select 1 - (embedding <=> %s::public.vector) from pymem.facts where id = %s",
                    (str(vector.tolist()), r["memory_id"]),
                ).fetchone()[0],
            )
            for r in recall(conn, topic, embedder, min_relevance=0, bump_references=False)
        }
        assert set(every) == set(facts.values())
        relevance, cosine = every[facts["school"]]
        assert cosine >= 0.3 and relevance < 0.5
        for floor, bypass in ((0.5, None), (0.5, 0.4), (0.5, 1.0), (0.02, None), (0.001, 1.0)):
            got = {r["content"] for r in recall(conn, topic, embedder, min_relevance=floor, floor_bypass=bypass)}
            assert got == {
                content
                for content, (rel, cos) in every.items()
                if rel >= floor or (cos >= (0.3 if bypass is None else bypass) and (bypass or 0.3) < 1)
            }, (floor, bypass)
        assert {r["content"] for r in recall(conn, topic, embedder, min_relevance=0.5)} == {facts["school"]}
        assert recall(conn, topic, embedder, min_relevance=0.5, floor_bypass=1) == []


def test_relevance_is_the_logistic_model_of_the_features(as_tenant: Tenant, embedder: Embedder, demo: Any) -> None:
    """Every search row's relevance is 1/(1+exp(-(c0 + c.x))) of its relevance_features and the coefficients of
    the model in force; the features are named and ordered by memory_relevance_feature_names()."""
    with as_tenant("demo") as conn:
        names, coefficients = conn.execute(
            "select features, coefficients from pymem.memory_relevance_model('hybrid')"
        ).fetchone()
        assert names == conn.execute("select pymem.memory_relevance_feature_names()").fetchone()[0]
        assert len(coefficients) == len(names) + 1
        rows = search(conn, MILK, embedder, bump_references=False)
        assert rows
        for row in rows:
            x = row["relevance_features"]
            z = coefficients[0] + sum(c * v for c, v in zip(coefficients[1:], x, strict=True))
            assert row["relevance"] == pytest.approx(1 / (1 + math.exp(-z)), rel=1e-9)
        best = max(r["semantic_score"] for r in rows)
        # six memories, fewer than 30: the background is 0 (the missing ones count as unrelated)
        assert len(rows) == 6
        for row in rows:
            named = dict(zip(names, row["relevance_features"], strict=True))
            assert named["semantic_score"] == pytest.approx(row["semantic_score"])
            assert named["semantic_found"] == 1.0
            assert named["semantic_gap"] == pytest.approx(row["semantic_score"] - best)
            assert named["semantic_log_rank"] == pytest.approx(math.log(row["semantic_rank"]))
            assert 0.0 <= named["lexical_overlap"] <= 1.0
            assert named["semantic_lift"] == pytest.approx(row["semantic_score"])


def test_semantic_lift_is_over_the_30th_nearest_memory_whatever_the_limit(
    as_tenant: Tenant, embedder: Embedder
) -> None:
    """semantic_lift = cosine - the cosine of the query's 30th nearest candidate: the semantic leg reads 30 deep
    even for a search of 3 rows, so a row's relevance does not depend on the limit asked for."""
    topics = [
        "tennis",
        "the piano",
        "Lisbon",
        "sourdough bread",
        "a vegetarian diet",
        "the dentist",
        "chess",
        "Python",
        "jazz",
        "gardening",
        "Kyoto",
        "running",
        "the cello",
        "oat milk",
        "sushi",
        "hiking",
        "Berlin",
        "painting",
        "the violin",
        "yoga",
        "cycling",
        "Porto",
        "knitting",
        "photography",
        "football",
        "baking",
        "Madrid",
        "Rust",
        "the guitar",
        "swimming",
        "climbing",
        "pottery",
        "Vienna",
        "sailing",
        "opera",
        "the flute",
    ]
    with as_tenant("lift") as conn:
        for number, topic in enumerate(topics):
            store_fact(conn, "user", f"interest_{number}", f"The user is interested in {topic}.", embedder)
        query = "Which instruments does the user play?"
        vector = embedder.embed(query)
        cosines = [
            c
            for (c,) in conn.execute(
                "select 1 - (embedding operator(public.<=>) %s::public.vector) from pymem.facts order by 1 desc",
                (str(list(map(float, vector))),),
            )
        ]
        assert len(cosines) == len(topics) > 30
        few = call(conn, "memory_search", query=query, query_embedding=vector, types=["fact"], mode="semantic", limit=3)
        many = call(
            conn, "memory_search", query=query, query_embedding=vector, types=["fact"], mode="semantic", limit=40
        )
        names = conn.execute("select pymem.memory_relevance_feature_names()").fetchone()[0]
        by_id = {r["memory_id"]: r for r in many}
        for row in few:
            named = dict(zip(names, row["relevance_features"], strict=True))
            assert named["semantic_lift"] == pytest.approx(row["semantic_score"] - cosines[29], abs=1e-6)
            assert row["relevance"] == pytest.approx(by_id[row["memory_id"]]["relevance"])


def test_features_of_a_missing_leg_are_zero_with_its_flag(superuser: psycopg.Connection[Any]) -> None:
    names = superuser.execute("select pymem.memory_relevance_feature_names()").fetchone()[0]
    row = superuser.execute(
        "select pymem.memory_relevance_features(null, null, 0.5, 2, 'fts', 0.7, 0.8, 0.25, 0.3)"
    ).fetchone()[0]
    named = dict(zip(names, row, strict=True))
    assert named["semantic_score"] == named["semantic_found"] == named["semantic_gap"] == 0.0
    assert named["semantic_lift"] == 0.0
    assert named["semantic_log_rank"] == 0.0
    assert named["keyword_found"] == 1.0
    assert named["keyword_share"] == pytest.approx(0.5 / 0.8)
    assert named["keyword_log_rank"] == pytest.approx(math.log(2))
    assert named["lexical_overlap"] == 0.25
    # the logistic function: intercept only, and a clamp that keeps exp() finite
    assert superuser.execute("select pymem.memory_relevance(array[1.0], array[0.0, 2.0])").fetchone()[0] == (
        pytest.approx(1 / (1 + math.exp(-2.0)))
    )
    assert superuser.execute("select pymem.memory_relevance(array[1e6], array[0.0, 1e6])").fetchone()[0] == (
        pytest.approx(1.0)
    )


def test_search_keeps_rrf_order_and_filters_or_reranks_by_relevance(
    as_tenant: Tenant, embedder: Embedder, demo: dict[str, Any]
) -> None:
    with as_tenant("demo") as conn:
        rows = search(conn, MILK, embedder, bump_references=False)
        expected = [
            1 / (60 + (r["semantic_rank"] or len(rows) + 1)) + 1 / (60 + (r["keyword_rank"] or len(rows) + 1))
            for r in rows
        ]
        # the spec's RRF score and order (limit 20: a missing rank counts as 21)
        assert [r["score"] for r in rows] == sorted([r["score"] for r in rows], reverse=True)
        for row in rows:
            s, k = row["semantic_rank"], row["keyword_rank"]
            assert row["score"] == pytest.approx(1 / (60 + (s or 21)) + 1 / (60 + (k or 21)))
        assert len(expected) == len(rows)
        floor = sorted(r["relevance"] for r in rows)[len(rows) // 2]
        kept = search(conn, MILK, embedder, bump_references=False, min_relevance=floor)
        assert [r["memory_id"] for r in kept] == [r["memory_id"] for r in rows if r["relevance"] >= floor]
        assert kept and len(kept) < len(rows)
        reranked = search(conn, MILK, embedder, bump_references=False, rerank=True)
        assert [r["score"] for r in reranked] == pytest.approx([r["relevance"] for r in reranked])
        assert [r["relevance"] for r in reranked] == sorted((r["relevance"] for r in rows), reverse=True)


def test_context_candidates_leave_out_what_is_below_the_floor(
    as_tenant: Tenant, embedder: Embedder, demo: dict[str, Any]
) -> None:
    with as_tenant("demo") as conn:
        rows = call(
            conn,
            "memory_context_candidates",
            trigger_prompt=MILK,
            butler="kitchen",
            query_embedding=embedder.embed(MILK),
        )
        ids = {r["memory_id"] for r in rows}
        assert demo["dairy"] in ids and demo["plant_milk"] in ids
        assert demo["berlin"] not in ids and demo["colour"] not in ids
        everything = call(
            conn,
            "memory_context_candidates",
            trigger_prompt=MILK,
            butler="kitchen",
            query_embedding=embedder.embed(MILK),
            min_relevance=0,
        )
        assert {demo["berlin"], demo["colour"]} <= {r["memory_id"] for r in everything}


@pytest.mark.parametrize(
    ("function", "arguments", "message"),
    [
        ("memory_recall", {"topic": "x", "min_relevance": 1.5}, "min_relevance must be between 0 and 1"),
        ("memory_recall", {"topic": "x", "min_relevance": -0.1}, "min_relevance must be between 0 and 1"),
        ("memory_recall", {"topic": "x", "floor_bypass": 1.5}, "floor_bypass must be between 0 and 1"),
        ("memory_recall", {"topic": "x", "floor_bypass": -0.1}, "floor_bypass must be between 0 and 1"),
        ("memory_search", {"query": "x", "min_relevance": 2}, "min_relevance must be between 0 and 1"),
        ("memory_search", {"query": "x", "graph_rrf_weight": -1}, "graph_rrf_weight must be between 0 and 1000"),
        (
            "memory_search",
            {"query": "x", "semantic_rrf_weight": 0, "keyword_rrf_weight": 0},
            "semantic_rrf_weight and keyword_rrf_weight must not both be 0",
        ),
    ],
)
def test_relevance_arguments_are_validated(
    as_tenant: Tenant, function: str, arguments: dict[str, Any], message: str
) -> None:
    with as_tenant("acme") as conn, pytest.raises(psycopg.Error, match=message) as raised:
        call(conn, function, **arguments)
    assert raised.value.sqlstate == "PM002"


def test_the_model_in_force_is_a_setting_and_only_the_owner_writes_models(
    as_tenant: Tenant, embedder: Embedder, demo: Any, superuser: psycopg.Connection[Any]
) -> None:
    with as_tenant("demo") as conn:
        conn.execute("set local pymem.relevance_model = 'nope'")
        with pytest.raises(psycopg.Error, match="relevance model nope/hybrid does not exist") as raised:
            recall(conn, MILK, embedder)
        assert raised.value.sqlstate == "PM003"
    with as_tenant("demo") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("select * from pymem_private.relevance_models")
    with as_tenant("demo") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("select pymem_private.save_relevance_model('mine', 'hybrid', array[0.0], 0, '{}')")
    # an operator's own model: every row 0.5 relevant (all-zero coefficients), floor 0.6 drops everything but
    # what passes by its meaning (floor_bypass; 1 turns it off)
    with superuser.transaction():
        superuser.execute("set local role pymem_owner")
        superuser.execute(
            "select pymem_private.save_relevance_model('flat', 'hybrid',"
            " array_fill(0.0::float8, array[cardinality(pymem.memory_relevance_feature_names()) + 1]), 0.6, '{}')"
        )
    with as_tenant("demo") as conn:
        conn.execute("set local pymem.relevance_model = 'flat'")
        assert recall(conn, MILK, embedder, floor_bypass=1) == []
        assert {r["relevance"] for r in recall(conn, MILK, embedder)} == {0.5}
        assert {r["relevance"] for r in recall(conn, MILK, embedder, min_relevance=0)} == {0.5}
    # a model fitted on other features is refused, not silently misapplied
    with superuser.transaction():
        superuser.execute("set local role pymem_owner")
        superuser.execute(
            "update pymem_private.relevance_models set features = features[1:8], coefficients = coefficients[1:9]"
            " where name = 'flat'"
        )
    with as_tenant("demo") as conn:
        conn.execute("set local pymem.relevance_model = 'flat'")
        with pytest.raises(psycopg.Error, match="fitted on other features") as raised:
            recall(conn, MILK, embedder)
        assert raised.value.sqlstate == "PM002"


def link(conn: psycopg.Connection[Any], source: tuple[str, Any], target: tuple[str, Any], relation: str) -> None:
    conn.execute(
        "insert into pymem.memory_links (tenant_id, source_type, source_id, target_type, target_id, relation)"
        " values (pymem.current_tenant(), %s, %s, %s, %s, %s)",
        (source[0], source[1], target[0], target[1], relation),
    )


def test_the_graph_leg_finds_linked_memories_and_never_superseded_ones(as_tenant: Tenant, embedder: Embedder) -> None:
    """A memory linked to a relevant one is found through the link even when its own text does not match
    (graph_rank, relevance at least 0.8 x its seed's); a superseded or retracted neighbour never is; a
    contradicts link is not followed; graph_rrf_weight => 0 turns the leg off."""
    with as_tenant("acme") as conn:
        seed = store_fact(conn, "user", "allergy", "The user has a severe peanut allergy.", embedder)
        epipen = store_fact(conn, "user", "kit", "An EpiPen is kept in the blue backpack.", embedder)
        old = store_fact(conn, "user", "kit_old", "The old kit was in the red bag.", embedder)
        contradicting = store_fact(conn, "user", "allergy_doubt", "A cousin thinks it is a tree-nut issue.", embedder)
        unrelated = store_fact(conn, "user", "car", "The user drives a grey Volvo estate.", embedder)
        episode = store_episode(conn, "Paramedic said to carry two injectors.", "health", embedder)
        link(conn, ("fact", epipen), ("fact", seed), "supports")
        link(conn, ("fact", seed), ("episode", episode), "derived_from")
        link(conn, ("fact", old), ("fact", seed), "related_to")
        link(conn, ("fact", contradicting), ("fact", seed), "contradicts")
        call_one(conn, "memory_forget", type="fact", id=old)
        query = "peanut allergy"
        rows = {r["memory_id"]: r for r in search(conn, query, embedder, bump_references=False, min_confidence=0)}
        assert rows[epipen]["graph_rank"] is not None and rows[episode]["graph_rank"] is not None
        assert old not in rows
        assert rows.get(contradicting, {}).get("graph_rank") is None
        assert rows.get(unrelated, {}).get("graph_rank") is None
        assert rows[epipen]["relevance"] >= 0.8 * rows[seed]["relevance"] - 1e-12
        recalled = {r["memory_id"]: r for r in recall(conn, query, embedder)}
        assert epipen in recalled and recalled[epipen]["graph_rank"] is not None
        assert episode not in recalled  # recall is facts and rules
        off = {r["memory_id"]: r for r in search(conn, query, embedder, bump_references=False, graph_rrf_weight=0)}
        assert all(r["graph_rank"] is None for r in off.values())


def test_every_result_carries_its_provenance(
    as_tenant: Tenant, embedder: Embedder, app: psycopg.Connection[Any]
) -> None:
    session = "6f1e1f0e-3c1e-4c55-8d39-5a0a4c0f9a01"
    with as_tenant("acme") as conn:
        conn.execute("select set_config('pymem.actor', 'agent:health-bot', true)")
        source = store_episode(conn, "User said: I am allergic to penicillin.", "health", embedder, session_id=session)
        fact = store_fact(
            conn,
            "user",
            "drug_allergy",
            "The user is allergic to penicillin.",
            embedder,
            source_butler="health",
            source_episode_id=source,
        )
        imported = store_fact(
            conn,
            "user",
            "antibiotic",
            "Penicillin caused a rash in 2019.",
            embedder,
            metadata=Jsonb({"source_path": "notes/2019-04-02.md"}),
        )
        query = "penicillin allergy"
        by_id = {r["memory_id"]: r for r in search(conn, query, embedder, bump_references=False)}
        assert by_id[fact]["source_butler"] == "health"
        assert str(by_id[fact]["session_id"]) == session
        assert by_id[fact]["source_episode_id"] == source
        assert by_id[fact]["stored_by"] == "agent:health-bot"
        assert by_id[source]["source_butler"] == "health" and str(by_id[source]["session_id"]) == session
        assert by_id[imported]["source_path"] == "notes/2019-04-02.md"
        assert all(r["created_at"] is not None for r in by_id.values())
        recalled = {r["memory_id"]: r for r in recall(conn, query, embedder)}
        assert recalled[fact]["stored_by"] == "agent:health-bot"
        assert str(recalled[fact]["session_id"]) == session
        assert recalled[fact]["confidence"] == 1.0
