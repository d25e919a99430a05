"""memory_recall: composite scoring of facts and rules, scope, effective confidence, bumping and
point-in-time recall."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import psycopg
import pytest

from pymem.embeddings import Embedder
from tests.conftest import Tenant
from tests.sqlapi import ago, call, call_one, store_episode, store_fact, store_rule
from tests.test_search import DISTRACTORS

Row = dict[str, Any]


def recall(conn: psycopg.Connection[Any], topic: str, embedder: Embedder | None = None, **arguments: Any) -> Any:
    if embedder is not None:
        arguments.setdefault("query_embedding", embedder.embed(topic))
    return call(conn, "memory_recall", topic=topic, **arguments)


def composite(row: Row, weights: tuple[float, float, float, float] = (0.4, 0.3, 0.2, 0.1)) -> float:
    parts = (row["relevance"], row["importance"], row["recency"], row["effective_confidence"])
    return sum(w * p for w, p in zip(weights, parts, strict=True)) / sum(weights)


def now(conn: psycopg.Connection[Any]) -> Any:
    return conn.execute("select now()").fetchone()[0]  # type: ignore[index]


def test_recall_returns_composite_scored_facts_and_rules(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        for subject, predicate, content in DISTRACTORS:
            store_fact(conn, subject, predicate, content, embedder)
        fact = store_fact(
            conn, "user", "diet", "The user is lactose intolerant", embedder, importance=8, scope="health"
        )
        rule = store_rule(conn, "Offer oat milk instead of dairy to lactose intolerant users", embedder, scope="health")
        store_episode(conn, "User said dairy makes them ill; lactose intolerant", "health", embedder)
        # the composite score over every candidate (the relevance floor is tested in test_relevance.py)
        rows = recall(conn, "user dietary needs", embedder, scope="health", min_relevance=0)
    assert {r["memory_type"] for r in rows} <= {"fact", "rule"}
    assert {fact, rule} <= {r["memory_id"] for r in rows}
    assert rows[0]["memory_id"] == fact
    for row in rows:
        for component in ("relevance", "importance", "recency", "effective_confidence", "score"):
            assert 0 <= row[component] <= 1, (component, row)
        assert row["score"] == pytest.approx(composite(row))
        assert row["search_mode"] == "hybrid"
    by_id = {r["memory_id"]: r for r in rows}
    assert by_id[fact]["importance"] == 0.8
    assert by_id[rule]["importance"] == 0.5  # rules have no importance: they count as 5 of 10
    assert by_id[rule]["maturity"] == "candidate" and by_id[fact]["validity"] == "active"
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)


def test_relevance_is_the_logistic_model_of_the_rows_own_evidence(as_tenant: Tenant, embedder: Embedder) -> None:
    """recall's relevance is a probability computed from the row's own evidence (its cosine to the topic, how far
    that stands above the tenant's background, the share of the topic's words it holds) by the model in force: not
    a rank, nor a score over the query's best row (which made the best row 1.0). The expected value is computed
    here from the model's coefficients and evidence measured apart (the embedder's cosine, PostgreSQL's own
    English lexemes), in a tenant of seven facts, where every fact is found by both legs and the background
    (the 30th nearest memory's cosine) is 0."""
    topic = "where does the user live"
    with as_tenant("acme") as conn:
        for subject, predicate, content in DISTRACTORS:
            store_fact(conn, subject, predicate, content, embedder)
        model = call_one(conn, "memory_relevance_model", variant="hybrid")
        rows = recall(conn, topic, embedder, limit=len(DISTRACTORS), min_relevance=0)
        english = "select tsvector_to_array(to_tsvector('english', %s))"
        topic_lexemes = conn.execute(english, (topic,)).fetchone()[0]  # type: ignore[index]
        stored = conn.execute("select id, tsvector_to_array(search_vector) from pymem.facts").fetchall()
    row_lexemes = {memory_id: set(lexemes) for memory_id, lexemes in stored}
    coefficient = dict(zip(["intercept", *model["features"]], model["coefficients"], strict=True))
    # the shipped model reads absolute evidence only: nothing relative to the query's best row, no rank, no BM25
    # (whose scale follows the tenant's size)
    for relative in ("semantic_gap", "semantic_log_rank", "keyword_score", "keyword_share", "keyword_log_rank"):
        assert coefficient[relative] == 0, relative
    query = embedder.embed(topic)
    assert len(rows) == len(DISTRACTORS)
    for row in rows:
        cosine = max(0.0, float(np.dot(query, embedder.embed(row["content"]))))  # unit vectors
        overlap = len(set(topic_lexemes) & row_lexemes[row["memory_id"]]) / len(set(topic_lexemes))
        evidence = {
            "semantic_score": cosine,
            "semantic_found": 1.0,
            "keyword_found": 1.0,  # every fact holds "user"
            "fuzzy_score": 0.0,  # the trigram and ILIKE tiers run only for CJK or when full text finds nothing
            "lexical_overlap": overlap,
            "semantic_lift": cosine - 0.0,  # background 0: fewer than 30 memories
        }
        logit = coefficient["intercept"] + sum(coefficient[name] * value for name, value in evidence.items())
        assert row["relevance"] == pytest.approx(1 / (1 + math.exp(-logit)), abs=1e-4), row["content"]
    by_content = {r["content"]: r["relevance"] for r in rows}
    assert max(by_content, key=by_content.__getitem__) == "The user lives in Berlin with two cats"
    assert max(by_content.values()) < 1.0


def test_high_importance_recent_fact_ranks_above_low_importance_old_fact(as_tenant: Tenant, embedder: Embedder) -> None:
    content = "The user takes vitamin D every morning"
    with as_tenant("acme") as conn:  # the important one is older, so it loses every tie of relevance
        important = store_fact(conn, "user", "supplement", content, embedder, importance=9.0)
    with as_tenant("acme") as conn:
        trivial = store_fact(conn, "user", "habit", content, embedder, importance=2.0)
        # the important one was last read a day ago, the trivial one 30 days ago
        for memory_id, days in ((important, 1), (trivial, 30)):
            call(
                conn, "memory_touch_references", memory_types=["fact"], memory_ids=[memory_id], referenced_at=ago(days)
            )
    with as_tenant("acme") as conn:
        rows = recall(conn, "vitamin D", embedder)
    assert [r["memory_id"] for r in rows] == [important, trivial]
    first, second = rows
    assert abs(first["relevance"] - second["relevance"]) < 0.02
    assert first["effective_confidence"] == pytest.approx(second["effective_confidence"])
    assert first["recency"] == pytest.approx(math.exp(-math.log(2) * 1 / 30), rel=1e-4)
    assert second["recency"] == pytest.approx(0.5, rel=1e-4)
    assert (first["importance"], second["importance"]) == (0.9, 0.2)


def test_recency_falls_back_to_created_at_and_has_a_half_life(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "diet", "diet vegan", observed_at=ago(10))
        call(conn, "memory_confirm", type="fact", id=fact_id)  # confirmed now: no decay of confidence
    with as_tenant("acme") as conn:
        (row,) = recall(conn, "diet", bump_references=False)
        (short,) = recall(conn, "diet", recency_half_life_days=10)
    assert row["memory_id"] == fact_id
    assert row["recency"] == pytest.approx(2 ** (-10 / 30), rel=1e-4)
    assert short["recency"] == pytest.approx(0.5, rel=1e-4)


def test_custom_weights_change_the_ranking(as_tenant: Tenant, embedder: Embedder) -> None:
    # importance first: with the default weights a calibrated relevance (0.87 against 0.0006) decides
    weights = {"w_relevance": 0.1, "w_importance": 0.7, "w_recency": 0.1, "w_confidence": 0.1}
    with as_tenant("acme") as conn:
        for subject, predicate, content in DISTRACTORS:
            store_fact(conn, subject, predicate, content, embedder, importance=1)
        relevant = store_fact(conn, "user", "allergy", "The user is allergic to peanuts", embedder, importance=1)
        important = store_fact(conn, "user", "blood", "The user's blood type is O negative", embedder, importance=10)
        # the composite alone (no relevance floor): relevance wins by default, importance with the custom weights
        default = recall(conn, "peanut allergy", embedder, bump_references=False, min_relevance=0)
        custom = recall(conn, "peanut allergy", embedder, bump_references=False, min_relevance=0, **weights)
        floored = recall(conn, "peanut allergy", embedder, bump_references=False, **weights)
    assert default[0]["memory_id"] == relevant
    assert custom[0]["memory_id"] == important
    # with the relevance floor, the important but unrelated blood type is not recalled, whatever the weights
    assert floored[0]["memory_id"] == relevant and important not in {r["memory_id"] for r in floored}
    for row in custom:
        assert row["score"] == pytest.approx(composite(row, (0.1, 0.7, 0.1, 0.1)))


def test_weights_need_not_sum_to_one(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "diet", "diet vegan", importance=7)
        (scaled,) = recall(conn, "diet", w_relevance=4, w_importance=3, w_recency=2, w_confidence=1)
        (plain,) = recall(conn, "diet")
    assert scaled["score"] == pytest.approx(plain["score"], rel=1e-6)


def test_butler_scoped_recall_returns_global_and_butler_memories(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        for scope in ("global", "health", "general"):
            store_fact(conn, f"user-{scope}", "diet", f"diet fact {scope}", scope=scope)
            store_rule(conn, f"diet rule {scope}", scope=scope)
        scoped = recall(conn, "diet", scope="health")
        unscoped = recall(conn, "diet")
    assert sorted(r["content"] for r in scoped) == [
        "diet fact global",
        "diet fact health",
        "diet rule global",
        "diet rule health",
    ]
    assert {r["memory_scope"] for r in unscoped} == {"global", "health", "general"}
    assert len(unscoped) == 6


def test_recall_never_returns_episodes(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        store_episode(conn, "User said they are on a vegan diet", "health", embedder)
        assert recall(conn, "vegan diet", embedder) == []


@pytest.fixture
def fading_fact(as_tenant: Tenant) -> Any:
    # standard permanence decays 0.008/day: observed 237.14 days ago, 1 * exp(-0.008 * 237.14) = 0.15
    with as_tenant("acme") as conn:
        return store_fact(conn, "user", "diet", "diet: avoids gluten", observed_at=ago(237.14))


def test_fading_memory_excluded_from_default_recall(as_tenant: Tenant, fading_fact: Any) -> None:
    with as_tenant("acme") as conn:
        assert recall(conn, "diet") == []
        assert recall(conn, "diet", min_confidence=0.15) == []


def test_fading_memory_included_with_explicit_threshold(as_tenant: Tenant, fading_fact: Any) -> None:
    with as_tenant("acme") as conn:
        (row,) = recall(conn, "diet", min_confidence=0)
    assert row["memory_id"] == fading_fact
    assert row["effective_confidence"] == pytest.approx(0.15, abs=1e-4)
    assert row["confidence"] == 1.0


def test_effective_confidence_helper(app: psycopg.Connection[Any]) -> None:
    row = app.execute(
        "select pymem.memory_effective_confidence(0.8, 0.03, now() - interval '10 days', now()),"
        " pymem.memory_effective_confidence(0.8, 0, now() - interval '1000 days', now()),"
        " pymem.memory_recency(now() - interval '30 days', now() - interval '90 days', now())"
    ).fetchone()
    assert row == pytest.approx((0.8 * math.exp(-0.3), 0.8, 0.5))


def test_recall_bumps_reference_metadata(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "diet", "diet vegan")
        other = store_fact(conn, "user", "city", "lives in Berlin")
        # read three times, five days ago
        call(conn, "memory_touch_references", memory_types=["fact"] * 3, memory_ids=[fact_id] * 3, referenced_at=ago(5))
    with as_tenant("acme") as conn:
        (row,) = recall(conn, "diet")
        stamp = now(conn)
    assert (row["reference_count"], row["last_referenced_at"]) == (4, stamp)
    with as_tenant("acme") as conn:
        stored = conn.execute(
            "select id, reference_count, last_referenced_at from pymem.facts order by reference_count"
        ).fetchall()
    assert stored == [(other, 0, None), (fact_id, 4, stamp)]


def test_recall_as_of_answers_with_what_was_believed_then(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        first = store_fact(conn, "user", "diet", "diet: vegetarian")
    with as_tenant("acme") as conn:
        while_first = now(conn)
    with as_tenant("acme") as conn:
        second = store_fact(conn, "user", "diet", "diet: vegan")
        rule = store_rule(conn, "diet rule: suggest lentils")
    with as_tenant("acme") as conn:
        while_second = now(conn)
    with as_tenant("acme") as conn:
        call(conn, "memory_forget", type="fact", id=second)
        call(conn, "memory_forget", type="rule", id=rule)
    with as_tenant("acme") as conn:
        assert [r["memory_id"] for r in recall(conn, "diet", as_of=while_first)] == [first]
        then = recall(conn, "diet", as_of=while_second)
        assert {r["memory_id"] for r in then} == {second, rule}
        assert recall(conn, "diet") == []
        counts = conn.execute("select sum(reference_count) from pymem.facts").fetchone()
    assert counts == (0,)  # as_of reads history: it bumps nothing
    assert {r["validity"] for r in then if r["memory_type"] == "fact"} == {"retracted"}


def test_keyword_recall_without_embedding(as_tenant: Tenant) -> None:
    notices: list[str] = []
    with as_tenant("acme") as conn:
        conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
        store_fact(conn, "user", "diet", "The user follows a vegan diet")
        store_fact(conn, "user", "sport", "The user's diet before races is pasta, a big diet change")
        rows = recall(conn, "diet", min_relevance=0)
        searched = {
            r["memory_id"]: r["relevance"]
            for r in call(conn, "memory_search", query="diet", types=["fact"], limit=30, bump_references=False)
        }
        keyword_model = conn.execute("select features, coefficients from pymem.memory_relevance_model('keyword')")
        names, coefficients = keyword_model.fetchone()  # type: ignore[misc]
    assert {r["search_mode"] for r in rows} == {"keyword"}
    assert len(rows) == 2
    # the keyword variant of the relevance model: the semantic evidence is absent, not zero
    assert coefficients[1 + names.index("semantic_score")] == 0.0
    for row in rows:
        assert row["relevance"] == pytest.approx(searched[row["memory_id"]])
    assert notices[0] == "no query_embedding: hybrid search runs as keyword search"


BAD_RECALLS = [
    ({"topic": " "}, "topic must be a non-empty text"),
    ({"topic": "x", "limit": 1001}, "limit must be between 1 and 1000"),
    ({"topic": "x", "w_relevance": -0.1}, "w_relevance must be between 0 and 1000"),
    ({"topic": "x", "w_relevance": 0, "w_importance": 0, "w_recency": 0, "w_confidence": 0}, "must not all be 0"),
    ({"topic": "x", "min_confidence": -1}, "min_confidence must be between 0 and 1"),
    ({"topic": "x", "recency_half_life_days": 0}, "recency_half_life_days must be between"),
    ({"topic": "x", "mode": "magic"}, "invalid mode 'magic'"),
    ({"topic": "x", "candidates": 0}, "candidates must be between 1 and 1000"),
]


@pytest.mark.parametrize(("arguments", "message"), BAD_RECALLS)
def test_bad_recall_arguments_get_a_clear_error(as_tenant: Tenant, arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_recall", **arguments)
    assert caught.value.sqlstate == "PM002"
    assert message in str(caught.value)


def test_as_of_in_the_future_is_rejected(as_tenant: Tenant) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        conn.execute("select * from pymem.memory_recall(topic => 'x', as_of => now() + interval '1 day')")
    assert caught.value.sqlstate == "PM002"
    assert "as_of must not be in the future" in str(caught.value)


def test_recall_is_one_call_for_an_analyst(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "diet", "The user is vegan", scope="health")
        row = conn.execute(
            "select memory_type, content from pymem.memory_recall(topic => 'diet', scope => 'health')"
        ).fetchall()
        assert row == [("fact", "The user is vegan")]
        assert call_one(conn, "memory_stats")["facts_active"] == 1


def test_equal_composite_scores_tie_on_created_at_then_id(as_tenant: Tenant, embedder: Embedder) -> None:
    # weighted relevance is score-based, so identical memories get identical composite scores
    with as_tenant("acme") as conn:
        older = store_fact(conn, "user", "p", "The user drinks green tea", embedder)
    with as_tenant("acme") as conn:
        same_time = sorted(store_fact(conn, "user", f"p{i}", "The user drinks green tea", embedder) for i in range(3))
    with as_tenant("acme") as conn:
        rows = recall(conn, "green tea", embedder, mode="weighted", bump_references=False)
        again = recall(conn, "green tea", embedder, mode="weighted", bump_references=False)
    assert len({r["score"] for r in rows[:3]}) == 1  # stored in one transaction: the very same score
    assert rows[3]["score"] == pytest.approx(rows[0]["score"])  # older by milliseconds: recency a hair lower
    assert [r["memory_id"] for r in rows] == [*same_time, older]
    assert [r["memory_id"] for r in again] == [r["memory_id"] for r in rows]
