"""memory_get, memory_confirm, memory_mark_helpful / memory_mark_harmful, memory_forget and
memory_stats (the SQL side of the tools), and the audit events each state change writes."""

from __future__ import annotations

import datetime as dt
import threading
import uuid
from typing import Any

import psycopg
import pytest

from tests.conftest import AppConnect, Tenant
from tests.plans import explain, served_by_index, tenant_partition
from tests.sqlapi import ago, call, call_one, store_episode, store_fact, store_rule
from tests.test_recall import recall
from tests.test_search import search

TYPES = ["episode", "fact", "rule"]


def store(conn: psycopg.Connection[Any], kind: str, content: str = "diet memory", **arguments: Any) -> Any:
    if kind == "fact":
        return store_fact(conn, "user", "diet", content, **arguments)
    if kind == "rule":
        return store_rule(conn, content, **arguments)
    return store_episode(conn, content, "health", **arguments)


def events(conn: psycopg.Connection[Any], memory_id: Any) -> list[tuple[Any, ...]]:
    return conn.execute(
        "select operation, from_state, to_state, details from pymem.memory_events where memory_id = %s order by id",
        (memory_id,),
    ).fetchall()


# memory_get


def test_get_specific_fact(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "diet", "The user is vegan", tags=["food"], importance=7)
    with as_tenant("acme") as conn:
        row = call_one(conn, "memory_get", type="fact", id=fact_id)
        stamp = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
        stored = conn.execute("select reference_count from pymem.facts where id = %s", (fact_id,)).fetchone()
    assert (row["memory_type"], row["memory_id"], row["content"], row["state"]) == (
        "fact",
        fact_id,
        "The user is vegan",
        "active",
    )
    assert (row["reference_count"], row["last_referenced_at"]) == (1, stamp)
    assert stored == (1,)
    record = row["record"]
    assert record["subject"] == "user" and record["predicate"] == "diet" and record["tags"] == ["food"]
    assert record["importance"] == 7 and record["reference_count"] == 1 and record["has_embedding"] is False
    assert "embedding" not in record and "search_vector" not in record
    assert row["effective_confidence"] == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("kind", TYPES)
def test_get_every_type_in_every_state(as_tenant: Tenant, kind: str) -> None:
    with as_tenant("acme") as conn:
        memory_id = store(conn, kind)
        assert call_one(conn, "memory_get", type=kind, id=memory_id)["state"] == (
            "candidate" if kind == "rule" else "active"
        )
        call(conn, "memory_forget", type=kind, id=memory_id)
        row = call_one(conn, "memory_get", type=kind, id=memory_id)
    assert row["state"] == ("retracted" if kind == "fact" else "forgotten")
    assert row["reference_count"] == 2
    assert (row["effective_confidence"] is None) == (kind == "episode")


@pytest.mark.parametrize("kind", TYPES)
def test_get_nonexistent_memory(as_tenant: Tenant, kind: str) -> None:
    missing = uuid.uuid4()
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_get", type=kind, id=missing)
    assert caught.value.sqlstate == "PM003"
    assert str(caught.value).startswith(f"{kind} {missing} not found")


def test_get_with_the_wrong_type_is_not_found(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "diet", "vegan")
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_get", type="rule", id=fact_id)
    assert caught.value.sqlstate == "PM003"


@pytest.mark.parametrize(
    ("arguments", "sqlstate", "message"),
    [
        ({"type": "memo", "id": uuid.uuid4()}, "PM002", "invalid type 'memo'"),
        ({"type": None, "id": uuid.uuid4()}, "PM002", "invalid type NULL"),
        ({"type": "fact", "id": None}, "PM003", "fact NULL not found"),
    ],
)
def test_get_validates_its_arguments(as_tenant: Tenant, arguments: dict[str, Any], sqlstate: str, message: str) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_get", **arguments)
    assert caught.value.sqlstate == sqlstate
    assert message in str(caught.value)


# memory_confirm


@pytest.mark.parametrize("kind", ["fact", "rule"])
def test_confirm_resets_the_decay_clock(as_tenant: Tenant, kind: str) -> None:
    with as_tenant("acme") as conn:
        memory_id = store(conn, kind, observed_at=ago(60))
    with as_tenant("acme") as conn:
        row = call_one(conn, "memory_confirm", type=kind, id=memory_id)
        stamp = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
        stored = conn.execute(f"select confidence, last_confirmed_at from pymem.{kind}s").fetchone()
        trail = events(conn, memory_id)
    confidence = 1.0 if kind == "fact" else 0.5
    assert stored == (confidence, stamp)
    assert row["last_confirmed_at"] == stamp
    assert row["effective_confidence"] == row["confidence"] == confidence  # no decay
    assert row["previous_effective_confidence"] == pytest.approx(confidence * 2.718281828 ** (-0.008 * 60), rel=1e-4)
    assert trail[-1][:3] == ("confirm", trail[-1][1], trail[-1][1])


def test_confirm_episode_rejected(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        episode_id = store_episode(conn, "hello", "general")
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_confirm", type="episode", id=episode_id)
    assert caught.value.sqlstate == "PM002"
    assert "episodes cannot be confirmed" in str(caught.value)


def test_confirm_refuses_memories_no_longer_believed(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        old = store_fact(conn, "user", "diet", "vegetarian")
        store_fact(conn, "user", "diet", "vegan")
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_confirm", type="fact", id=old)
    assert caught.value.sqlstate == "PM002"
    assert "it is superseded" in str(caught.value)


def test_confirm_unknown_id_is_not_found(as_tenant: Tenant) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_confirm", type="rule", id=uuid.uuid4())
    assert caught.value.sqlstate == "PM003"


def test_a_confirmed_fading_fact_is_recalled_again(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "diet", "diet: avoids gluten", observed_at=ago(300))
    with as_tenant("acme") as conn:
        assert recall(conn, "diet") == []
        assert call_one(conn, "memory_stats")["facts_fading"] == 1
        call(conn, "memory_confirm", type="fact", id=fact_id)
        assert [r["memory_id"] for r in recall(conn, "diet")] == [fact_id]
        assert call_one(conn, "memory_stats")["facts_fading"] == 0


# memory_mark_helpful / memory_mark_harmful


def set_counts(superuser: psycopg.Connection[Any], rule_id: Any, maturity: str, success: int, harmful: int) -> None:
    superuser.execute(
        "update pymem.rules set maturity = %s, success_count = %s, harmful_count = %s, applied_count = %s,"
        " confidence = pymem.memory_rule_confidence(%s), last_confirmed_at = now() - interval '30 days'"
        " where id = %s",
        (maturity, success, harmful, success + harmful, maturity, rule_id),
    )


def test_mark_rule_helpful_increments_counts(as_tenant: Tenant, superuser: psycopg.Connection[Any]) -> None:
    with as_tenant("acme") as conn:
        rule_id = store_rule(conn, "Always confirm before sending messages")
    set_counts(superuser, rule_id, "candidate", 4, 3)
    with as_tenant("acme") as conn:
        row = call_one(conn, "memory_mark_helpful", rule_id=rule_id)
        stamp = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
        stored = conn.execute("select last_applied_at, last_confirmed_at from pymem.rules").fetchone()
    assert (row["success_count"], row["harmful_count"], row["applied_count"]) == (5, 3, 8)
    assert row["effectiveness_score"] == pytest.approx(5 / (5 + 12 + 0.01))
    assert row["maturity"] == row["previous_maturity"] == "candidate"  # 5 successes but effectiveness < 0.6
    assert stored == (stamp, stamp)  # helpful evidence restarts the decay clock


def test_mark_rule_harmful_with_reason(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        rule_id = store_rule(conn, "Always reply in French")
        call(conn, "memory_mark_helpful", rule_id=rule_id)
        row = call_one(conn, "memory_mark_harmful", rule_id=rule_id, reason="caused incorrect response")
        metadata = conn.execute("select metadata from pymem.rules").fetchone()[0]  # type: ignore[index]
        trail = events(conn, rule_id)
    assert (row["success_count"], row["harmful_count"], row["applied_count"]) == (1, 1, 2)
    assert row["effectiveness_score"] == pytest.approx(1 / (1 + 4 * 1 + 0.01))
    assert [r["reason"] for r in metadata["harmful_reasons"]] == ["caused incorrect response"]
    feedback = [e for e in trail if e[0] == "feedback"]
    assert [e[3]["feedback"] for e in feedback] == ["helpful", "harmful"]
    assert feedback[1][3]["reason"] == "caused incorrect response"


@pytest.mark.parametrize(
    ("maturity", "success", "harmful", "feedback", "expected", "confidence"),
    [
        ("candidate", 4, 0, "helpful", "established", 0.75),  # 5 successes, effectiveness 1.0 >= 0.6
        ("candidate", 4, 1, "helpful", "candidate", 0.5),  # effectiveness 5/9 < 0.6
        ("established", 14, 0, "helpful", "proven", 0.9),  # 15 successes, effectiveness >= 0.8
        ("established", 14, 1, "helpful", "established", 0.75),  # 15/19 < 0.8
        ("proven", 20, 1, "harmful", "established", 0.75),  # 20/28 < 0.8
        ("proven", 40, 1, "harmful", "proven", 0.9),  # 40/48 still >= 0.8
        ("established", 6, 0, "harmful", "candidate", 0.5),  # 6/10 = 0.599.. < 0.6
        ("candidate", 1, 2, "harmful", "anti_pattern", 0.75),  # 3 harmful, 1/13 < 0.3: inverted
        ("established", 5, 2, "harmful", "anti_pattern", 0.75),  # 5/17 < 0.3
        ("anti_pattern", 1, 3, "helpful", "anti_pattern", 0.75),  # terminal
    ],
)
def test_maturity_moves_on_evidence(
    as_tenant: Tenant,
    superuser: psycopg.Connection[Any],
    maturity: str,
    success: int,
    harmful: int,
    feedback: str,
    expected: str,
    confidence: float,
) -> None:
    with as_tenant("acme") as conn:
        rule_id = store_rule(conn, "a rule")
    set_counts(superuser, rule_id, maturity, success, harmful)
    with as_tenant("acme") as conn:
        row = call_one(conn, f"memory_mark_{feedback}", rule_id=rule_id)
        trail = events(conn, rule_id)
    assert (row["previous_maturity"], row["maturity"], row["confidence"]) == (maturity, expected, confidence)
    assert trail[-1][:3] == ("feedback", maturity, expected)


def test_feedback_on_a_missing_or_forgotten_rule(as_tenant: Tenant) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_mark_helpful", rule_id=uuid.uuid4())
    assert caught.value.sqlstate == "PM003"
    with as_tenant("acme") as conn:
        rule_id = store_rule(conn, "a rule")
        call(conn, "memory_forget", type="rule", id=rule_id)
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_mark_harmful", rule_id=rule_id, reason="x")
    assert caught.value.sqlstate == "PM002"
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_mark_harmful", rule_id=rule_id, reason="x" * 2001)
    assert caught.value.sqlstate == "PM002"


def test_concurrent_feedback_loses_no_update(connect_app: AppConnect, as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        rule_id = store_rule(conn, "a rule")
    errors: list[BaseException] = []

    def worker(feedback: str) -> None:
        try:
            with connect_app() as conn:
                for _ in range(10):
                    with conn.transaction():
                        conn.execute("select set_config('pymem.tenant_id', 'acme', true)")
                        conn.execute(f"select * from pymem.memory_mark_{feedback}(%s)", (rule_id,))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(f,)) for f in ("helpful", "helpful", "harmful", "helpful")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with as_tenant("acme") as conn:
        row = conn.execute(
            "select success_count, harmful_count, applied_count, effectiveness_score from pymem.rules"
        ).fetchone()
        feedback_events = conn.execute(
            "select count(*) from pymem.memory_events where operation = 'feedback'"
        ).fetchone()
    assert row is not None and row[:3] == (30, 10, 40)
    assert row[3] == pytest.approx(30 / (30 + 40 + 0.01))
    assert feedback_events == (40,)


# memory_forget


def test_forget_a_fact(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "diet", "The user is vegan")
        assert [r["memory_id"] for r in recall(conn, "vegan")] == [fact_id]
        row = call_one(conn, "memory_forget", type="fact", id=fact_id, reason="user asked")
        stamp = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
        assert (row["previous_state"], row["state"], row["forgotten_at"]) == ("active", "retracted", stamp)
        assert conn.execute("select validity, invalidated_at from pymem.facts").fetchone() == ("retracted", stamp)
        assert recall(conn, "vegan") == []
        assert search(conn, "vegan", mode="keyword") == []


def test_forget_operation_emits_audit_event(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "diet", "The user is vegan")
        call(conn, "memory_forget", type="fact", id=fact_id, reason="user asked")
        trail = events(conn, fact_id)
        reason = conn.execute(
            "select details ->> 'reason' from pymem.memory_events order by id desc limit 1"
        ).fetchone()
    assert [e[:3] for e in trail] == [("insert", None, "active"), ("update", "active", "retracted")]
    assert reason == ("user asked",)


@pytest.mark.parametrize("kind", ["rule", "episode"])
def test_forget_tombstones_rules_and_episodes(as_tenant: Tenant, kind: str) -> None:
    with as_tenant("acme") as conn:
        memory_id = store(conn, kind, "vegan memory")
        row = call_one(conn, "memory_forget", type=kind, id=memory_id)
        again = call_one(conn, "memory_forget", type=kind, id=memory_id)
        still_there = conn.execute(f"select count(*) from pymem.{kind}s where forgotten_at is not null").fetchone()
        trail = events(conn, memory_id)
        found = search(conn, "vegan", mode="keyword") + recall(conn, "vegan")
    assert row["state"] == "forgotten" and row["forgotten_at"] is not None
    assert again == {**row, "previous_state": "forgotten"}  # forgetting twice changes nothing
    assert still_there == (1,)
    assert trail[-1][1:3] == (row["previous_state"], "forgotten")
    assert len(trail) == 2
    assert found == []


def test_forgotten_is_accepted_as_an_alias_of_retracted(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "diet", "vegan")
        conn.execute("update pymem.facts set validity = 'forgotten' where id = %s", (fact_id,))
        assert conn.execute("select validity from pymem.facts").fetchone() == ("retracted",)
        assert call_one(conn, "memory_forget", type="fact", id=fact_id)["previous_state"] == "retracted"


def test_forget_unknown_id_is_not_found(as_tenant: Tenant) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_forget", type="episode", id=uuid.uuid4())
    assert caught.value.sqlstate == "PM003"


# memory_stats


def test_stats_counts_and_health(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "diet", "vegetarian")  # superseded next
        store_fact(conn, "user", "diet", "vegan", scope="health")
        retracted = store_fact(conn, "user", "city", "Berlin", scope="general")
        call(conn, "memory_forget", type="fact", id=retracted)
        store_fact(conn, "user", "car", "Volvo", scope="general")
        store_fact(conn, "user", "pet", "a cat", observed_at=ago(400))
        for scope in ("health", "general"):
            store_rule(conn, f"rule {scope}", scope=scope)
        forgotten_rule = store_rule(conn, "forgotten rule")
        call(conn, "memory_forget", type="rule", id=forgotten_rule)
        store_episode(conn, "old", "health", observed_at=ago(2))
        store_episode(conn, "new", "health")
        store_episode(conn, "expired", "general", ttl=dt.timedelta(milliseconds=1))  # expired by the stats call
    with as_tenant("acme") as conn:
        everything = call_one(conn, "memory_stats")
        health = call_one(conn, "memory_stats", scope="health")
    assert {k: v for k, v in everything.items() if not k.startswith("episode_backlog")} == {
        "facts_total": 5,
        "facts_active": 3,
        "facts_fading": 1,
        "facts_superseded": 1,
        "facts_retracted": 1,
        "facts_expired": 0,
        "rules_total": 3,
        "rules_candidate": 2,
        "rules_established": 0,
        "rules_proven": 0,
        "rules_anti_pattern": 0,
        "rules_forgotten": 1,
        "episodes_total": 3,
        "episodes_unconsolidated": 2,
        "episodes_expired": 1,
        "episodes_forgotten": 0,
        "unembedded": 3 + 2 + 2,
        "embedding_models": [],
        "facts_pending_review": 0,
        "rules_pending_review": 0,
        # the embedding worker's queue: those, and the expired episode it still holds until the janitor forgets it
        "embedding_waiting": 3 + 2 + 2 + 1,
        "embedding_failed": 0,
    }
    assert dt.timedelta(days=2) <= everything["episode_backlog_age"] < dt.timedelta(days=2, minutes=5)
    assert (health["facts_total"], health["facts_active"], health["rules_total"], health["episodes_total"]) == (
        3,
        2,
        2,
        2,
    )
    assert health["episode_backlog_age"] == everything["episode_backlog_age"]


def test_stats_with_scope(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        for scope in ("global", "health", "general"):
            store_fact(conn, f"user-{scope}", "diet", "x", scope=scope)
            store_rule(conn, f"rule {scope}", scope=scope)
            store_episode(conn, f"episode {scope}", scope)
        health = call_one(conn, "memory_stats", scope="health")
        everything = call_one(conn, "memory_stats")
    assert (health["facts_total"], health["rules_total"], health["episodes_total"]) == (2, 2, 1)
    assert (everything["facts_total"], everything["rules_total"], everything["episodes_total"]) == (3, 3, 3)


# memory_stats's passes over each table, as the function writes them (sql/functions/190-stats.sql): the columns
# counted, for a tenant and a scope; and its count of rows without an embedding
STATS_PASSES = {
    "facts_stats_idx": "select f.embedding_model, count(*), count(*) filter (where f.validity = 'active'"
    " and pymem_private.decayed_confidence(f.confidence, f.decay_rate, f.last_confirmed_at, now()) < 0.2)"
    " from pymem.facts as f where f.tenant_id = 'acme' and f.scope in ('global', 'health') group by 1",
    "rules_stats_idx": "select r.embedding_model, count(*) filter (where r.forgotten_at is null"
    " and r.review_state = 'approved' and r.maturity = 'proven') from pymem.rules as r"
    " where r.tenant_id = 'acme' and r.scope in ('global', 'health') group by 1",
    "episodes_stats_idx": "select e.embedding_model, count(*) filter (where e.forgotten_at is null"
    " and (e.expires_at is null or e.expires_at > now()) and not e.consolidated), min(e.created_at)"
    " from pymem.episodes as e where e.tenant_id = 'acme' and e.butler = 'health' group by 1",
    "facts_unembedded_idx": "select count(*) from pymem.facts as f where f.tenant_id = 'acme'"
    " and f.embedding is null and f.validity = 'active' and f.scope in ('global', 'health')",
    "episodes_unembedded_idx": "select count(*) from pymem.episodes as e where e.tenant_id = 'acme'"
    " and e.embedding is null and e.forgotten_at is null and e.butler = 'health'",
}


def test_stats_reads_indexes_not_rows(as_tenant: Tenant, superuser: psycopg.Connection[Any]) -> None:
    """As pymem_app (row-level security on), memory_stats's passes are index-only scans of the covering
    *_stats_idx (migration 0033: the rows' text and vectors are not read) and its count of rows without an
    embedding reads the partial *_unembedded_idx."""
    with as_tenant("acme") as conn, conn.cursor() as cur:
        cur.executemany(
            "insert into pymem.facts (subject, predicate, content, scope) values (%s, %s, %s, %s)",
            [("s", f"p{i}", f"note {i}", "health" if i % 2 else "global") for i in range(2000)],
        )
        cur.executemany(
            "insert into pymem.rules (content, scope) values (%s, %s)", [(f"rule {i}", "health") for i in range(500)]
        )
        cur.executemany(
            "insert into pymem.episodes (content, butler) values (%s, %s)",
            [(f"episode {i}", "health") for i in range(2000)],
        )
    superuser.execute("vacuum analyze pymem.facts, pymem.rules, pymem.episodes")
    with as_tenant("acme") as conn:
        conn.execute("set local enable_seqscan = off")
        conn.execute("set local enable_bitmapscan = off")
        # bound to the tenant by a value, as memory_stats's passes are: each plan reads the tenant's partition only
        plans = {index: explain(conn, query) for index, query in STATS_PASSES.items()}
        stats = call_one(conn, "memory_stats", scope="health")
    for index, plan in plans.items():
        scan = "Index Only Scan" if index.endswith("_stats_idx") else "Index Scan"
        partition = tenant_partition(superuser, "pymem." + index.split("_", 1)[0], "acme")
        served_by_index(superuser, plan, partition, f"pymem.{index}", node_types={scan})
    assert (stats["facts_total"], stats["rules_total"], stats["episodes_total"]) == (2000, 500, 2000)
    assert stats["unembedded"] == 2000 + 500 + 2000


def test_stats_of_an_empty_tenant(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        row = call_one(conn, "memory_stats")
    assert row["facts_total"] == row["episodes_total"] == row["unembedded"] == 0
    assert row["episode_backlog_age"] is None and row["embedding_models"] == []


# The audit trail


def test_every_state_change_appends_an_event(as_tenant: Tenant, superuser: psycopg.Connection[Any]) -> None:
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "diet", "vegetarian")
        newer = store_fact(conn, "user", "diet", "vegan")
        call(conn, "memory_confirm", type="fact", id=newer)
        rule = store_rule(conn, "a rule")
    set_counts(superuser, rule, "candidate", 4, 0)
    with as_tenant("acme") as conn:
        call(conn, "memory_mark_helpful", rule_id=rule)  # promotes to established
        call(conn, "memory_forget", type="fact", id=newer)
        call(conn, "memory_forget", type="rule", id=rule)
        trail = conn.execute(
            "select memory_id, memory_type, operation, from_state, to_state from pymem.memory_events"
            " where operation <> 'update' or from_state is distinct from to_state order by id"
        ).fetchall()
    assert [t for t in trail if t[0] == fact] == [
        (fact, "fact", "insert", None, "active"),
        (fact, "fact", "update", "active", "superseded"),
    ]
    assert [t[2:] for t in trail if t[0] == newer] == [
        ("insert", None, "active"),
        ("confirm", "active", "active"),
        ("update", "active", "retracted"),
    ]
    rule_trail = [t[2:] for t in trail if t[0] == rule]
    assert rule_trail[0] == ("insert", None, "candidate")
    assert ("feedback", "candidate", "established") in rule_trail
    assert rule_trail[-1][2] == "forgotten"
