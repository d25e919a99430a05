"""Races on the same memories from several connections: eight threads, each with its own pymem_app
connection, 25 operations each, through the SQL API (memory_get, memory_touch_references, memory_mark_helpful,
memory_mark_harmful, memory_store_fact, memory_forget), every operation its own transaction. The counts come
out exact, concurrent stores of one key leave one active fact in one chain, and forget racing feedback or new
facts leaves every memory consistent with its audit trail (tests.test_faults.invariant_violations)."""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import psycopg
import pytest

from pymem.tenancy import tenant_transaction
from tests.conftest import AppConnect, Tenant
from tests.sqlapi import call_one, store_episode, store_fact, store_rule
from tests.test_faults import invariant_violations

THREADS = 8
OPS = 25
T = TypeVar("T")


def race(connect_app: AppConnect, work: Callable[[int, psycopg.Connection[Any]], T]) -> list[T]:
    """work(thread number, its own connection) in THREADS threads released together; their results in order
    (an exception in any thread fails the test)."""
    conns = [connect_app() for _ in range(THREADS)]
    start = threading.Barrier(THREADS, timeout=60)

    def run(i: int) -> T:
        start.wait()
        return work(i, conns[i])

    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(run, range(THREADS)))


def in_acme(conn: psycopg.Connection[Any], function: str, **arguments: Any) -> dict[str, Any]:
    """One call of the SQL API in its own transaction of tenant acme."""
    with tenant_transaction(conn, "acme"):
        return call_one(conn, function, **arguments)


def feedback_events(superuser: psycopg.Connection[Any], rule_id: Any) -> list[tuple[Any, ...]]:
    return superuser.execute(
        "select id, from_state, to_state, (details->>'success_count')::int, (details->>'harmful_count')::int"
        " from pymem.memory_events where memory_id = %s and operation = 'feedback' order by id",
        (rule_id,),
    ).fetchall()


def assert_feedback_replays(events: list[tuple[Any, ...]], success: int, harmful: int, maturity: str) -> None:
    """The rule's feedback events, in the order they were written, are one serial history: each adds exactly one
    outcome to the counts the previous one left, starts at the maturity the previous one ended in, and the last
    ends at the rule's counts and maturity."""
    counts, state = (0, 0), "candidate"
    for _, from_state, to_state, s, h in events:
        assert (s, h) in ((counts[0] + 1, counts[1]), (counts[0], counts[1] + 1)), (counts, s, h)
        assert from_state == state
        counts, state = (s, h), to_state
    assert counts == (success, harmful) and state == maturity


def test_reference_bumps_and_feedback_on_the_same_memories_lose_no_update(
    connect_app: AppConnect, as_tenant: Tenant, superuser: psycopg.Connection[Any]
) -> None:
    """One fact, one rule, one episode; each thread reads them with memory_get (a bump each), forwards replica
    bumps with memory_touch_references (the rule once, the episode twice per call) and gives the rule helpful
    or harmful feedback, in a random order of its own. Every reference_count, success_count, harmful_count and
    applied_count is exactly the number of operations that asked for it; the fact's 200-odd memory_get calls saw
    every count from 1 up exactly once; every harmful reason is kept; the feedback events replay serially."""
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "home", "User lives in Oslo")
        rule = store_rule(conn, "Suggest vegetarian restaurants")
        episode = store_episode(conn, "User asked about night trains", "travel")
    kinds = ["get_fact", "get_rule", "get_episode", "touch", "helpful", "harmful"]

    def work(i: int, conn: psycopg.Connection[Any]) -> tuple[Counter[str], list[int], list[int], list[str]]:
        rng = random.Random(i)
        done: Counter[str] = Counter()
        fact_counts: list[int] = []
        outcomes: list[int] = []
        reasons: list[str] = []
        for k in range(OPS):
            kind = rng.choices(kinds, weights=[3, 2, 2, 2, 3, 1])[0]
            if kind == "get_fact":
                fact_counts.append(in_acme(conn, "memory_get", type="fact", id=fact)["reference_count"])
            elif kind == "get_rule":
                in_acme(conn, "memory_get", type="rule", id=rule)
            elif kind == "get_episode":
                in_acme(conn, "memory_get", type="episode", id=episode)
            elif kind == "touch":
                bumped = in_acme(
                    conn,
                    "memory_touch_references",
                    memory_types=["rule", "episode", "episode"],
                    memory_ids=[rule, episode, episode],
                )
                assert bumped == {"memory_touch_references": 2}
            else:
                if kind == "helpful":
                    row = in_acme(conn, "memory_mark_helpful", rule_id=rule)
                else:
                    reasons.append(f"thread {i} op {k}")
                    row = in_acme(conn, "memory_mark_harmful", rule_id=rule, reason=reasons[-1])
                assert row["applied_count"] == row["success_count"] + row["harmful_count"]
                outcomes.append(row["applied_count"])
            done[kind] += 1
        return done, fact_counts, outcomes, reasons

    results = race(connect_app, work)
    done = sum((r[0] for r in results), Counter[str]())
    assert sum(done.values()) == THREADS * OPS
    fact_counts = sorted(c for r in results for c in r[1])
    outcomes = sorted(o for r in results for o in r[2])
    reasons = {reason for r in results for reason in r[3]}

    row = superuser.execute("select reference_count from pymem.facts where id = %s", (fact,)).fetchone()
    assert row == (done["get_fact"],)
    assert fact_counts == list(range(1, done["get_fact"] + 1))  # each read saw its own count: none was lost
    row = superuser.execute("select reference_count from pymem.episodes where id = %s", (episode,)).fetchone()
    assert row == (done["get_episode"] + 2 * done["touch"],)
    rule_row = superuser.execute(
        "select reference_count, success_count, harmful_count, applied_count, effectiveness_score,"
        " pymem.memory_effectiveness(success_count, harmful_count), maturity,"
        " (select array_agg(r->>'reason') from jsonb_array_elements(metadata->'harmful_reasons') as r)"
        " from pymem.rules where id = %s",
        (rule,),
    ).fetchone()
    assert rule_row is not None
    references, success, harmful, applied, effectiveness, expected, maturity, kept_reasons = rule_row
    assert references == done["get_rule"] + done["touch"]
    assert (success, harmful, applied) == (done["helpful"], done["harmful"], done["helpful"] + done["harmful"])
    assert outcomes == list(range(1, applied + 1))  # each feedback call saw its own counts
    assert effectiveness == pytest.approx(expected)
    assert len(kept_reasons or []) == done["harmful"] and set(kept_reasons or []) == reasons
    events = feedback_events(superuser, rule)
    assert len(events) == applied
    assert_feedback_replays(events, success, harmful, maturity)
    assert invariant_violations(superuser) == {}


def test_concurrent_stores_of_one_key_leave_one_active_fact_in_one_chain(
    connect_app: AppConnect, superuser: psycopg.Connection[Any]
) -> None:
    """200 memory_store_fact calls on two keys from eight connections (each also reading back, with
    memory_get, a fact it stored): per key exactly one fact is active, the facts form one supersedes chain in
    the order they were written (each supersedes the one written just before it, as its call returned; no fork,
    no gap), with one 'supersedes' link per step, and the audit trail replays to every fact's validity."""
    keys = ["home", "employer"]

    def work(i: int, conn: psycopg.Connection[Any]) -> list[tuple[str, Any, Any]]:
        rng = random.Random(100 + i)
        stored = []
        for k in range(OPS):
            key = rng.choice(keys)
            row = in_acme(
                conn, "memory_store_fact", subject="user", predicate=key, content=f"User's {key}, version {i}.{k}"
            )
            assert row["review_state"] == "approved"
            stored.append((key, row["memory_id"], row["supersedes_id"]))
            if rng.random() < 0.3:
                in_acme(conn, "memory_get", type="fact", id=stored[rng.randrange(len(stored))][1])
        return stored

    stored = [s for thread in race(connect_app, work) for s in thread]
    returned = {memory_id: supersedes for _, memory_id, supersedes in stored}
    for key in keys:
        chain = superuser.execute(
            "select f.id, f.supersedes_id, f.validity from pymem.facts as f"
            " join pymem.memory_events as e on e.tenant_id = f.tenant_id and e.memory_type = 'fact'"
            "  and e.memory_id = f.id and e.operation = 'insert'"
            " where f.tenant_id = 'acme' and f.predicate = %s order by e.id",
            (key,),
        ).fetchall()
        assert len(chain) == sum(1 for s in stored if s[0] == key)
        assert [c[1] for c in chain] == [None] + [c[0] for c in chain[:-1]]
        assert [c[2] for c in chain] == ["superseded"] * (len(chain) - 1) + ["active"]
        assert all(returned[c[0]] == c[1] for c in chain)
        links = superuser.execute(
            "select count(*) from pymem.memory_links as l join pymem.facts as f on f.id = l.source_id"
            " where l.relation = 'supersedes' and f.predicate = %s",
            (key,),
        ).fetchone()
        assert links == (len(chain) - 1,)
    assert invariant_violations(superuser) == {}


def test_forget_racing_feedback_and_new_facts_leaves_every_memory_consistent(
    connect_app: AppConnect, as_tenant: Tenant, superuser: psycopg.Connection[Any]
) -> None:
    """Four rules take feedback from eight connections while two threads at once forget each of them; the
    same threads store facts of one key and forget facts just stored, racing the supersession. For each rule:
    its counts are exactly the feedback calls that succeeded, every call that failed failed because the rule
    was forgotten (PM002), and wrote nothing, no feedback event comes after its forgetting, and of the two
    forget calls exactly one forgot it (one transition, one event). For the facts: at most one is active, the
    last one written is active unless it was forgotten, every forgotten fact was forgotten by exactly one call,
    and the audit trail replays to every memory's state."""
    with as_tenant("acme") as conn:
        rules = [store_rule(conn, f"Rule number {n}") for n in range(4)]
    lock = threading.Lock()
    facts: list[Any] = []
    together = [threading.Barrier(2, timeout=60) for _ in rules]  # the two threads forgetting a rule start at once

    def work(i: int, conn: psycopg.Connection[Any]) -> dict[str, Any]:
        try:
            return steps(i, conn)
        except BaseException:
            for barrier in together:  # a thread that fails does not leave its partner waiting
                barrier.abort()
            raise

    def steps(i: int, conn: psycopg.Connection[Any]) -> dict[str, Any]:
        rng = random.Random(200 + i)
        seen: dict[str, Any] = {"feedback": Counter(), "refused": Counter(), "forgot": [], "retracted": []}
        for k in range(OPS):
            if k == 10:  # threads i and i + 4 forget rule i % 4 at the same moment
                together[i % 4].wait()
                row = in_acme(conn, "memory_forget", type="rule", id=rules[i % 4], reason=f"thread {i}")
                seen["forgot"].append((rules[i % 4], row["previous_state"], row["state"]))
                continue
            kind = rng.choices(["helpful", "harmful", "store", "forget_fact"], weights=[4, 2, 2, 1])[0]
            if kind in ("helpful", "harmful"):
                target = rng.choice(rules)
                try:
                    in_acme(conn, f"memory_mark_{kind}", rule_id=target)
                    seen["feedback"][(target, kind)] += 1
                except psycopg.Error as exc:
                    assert exc.sqlstate == "PM002" and "is forgotten and takes no feedback" in str(exc), exc
                    seen["refused"][target] += 1
            elif kind == "store":
                row = in_acme(
                    conn, "memory_store_fact", subject="user", predicate="plan", content=f"User's plan {i}.{k}"
                )
                with lock:
                    facts.append(row["memory_id"])
            else:
                with lock:
                    target = facts[-1 - rng.randrange(min(3, len(facts)))] if facts else None
                if target is not None:
                    row = in_acme(conn, "memory_forget", type="fact", id=target)
                    assert row["state"] == "retracted"
                    if row["previous_state"] != "retracted":
                        seen["retracted"].append(target)
        return seen

    results = race(connect_app, work)
    feedback = sum((r["feedback"] for r in results), Counter[tuple[Any, str]]())
    refused = sum((r["refused"] for r in results), Counter[Any]())
    forgot = [f for r in results for f in r["forgot"]]
    for rule in rules:
        row = superuser.execute(
            "select success_count, harmful_count, applied_count, forgotten_at is not null, maturity"
            " from pymem.rules where id = %s",
            (rule,),
        ).fetchone()
        assert row is not None
        success, harmful, applied, forgotten, maturity = row
        assert (success, harmful) == (feedback[(rule, "helpful")], feedback[(rule, "harmful")])
        assert applied == success + harmful and forgotten
        calls = [(before, after) for r, before, after in forgot if r == rule]
        assert len(calls) == 2 and all(after == "forgotten" for _, after in calls)
        assert sum(1 for before, _ in calls if before != "forgotten") == 1, calls  # one of them forgot it
        transitions = superuser.execute(
            "select id, from_state from pymem.memory_events where memory_id = %s and to_state = 'forgotten'",
            (rule,),
        ).fetchall()
        assert len(transitions) == 1 and transitions[0][1] == maturity
        events = feedback_events(superuser, rule)
        assert len(events) == applied
        assert all(event[0] < transitions[0][0] for event in events)  # no feedback after the forgetting
        assert_feedback_replays(events, success, harmful, maturity)
    assert sum(refused.values()) > 0, "no feedback raced a forgotten rule"

    retracted = [t for r in results for t in r["retracted"]]
    assert len(retracted) == len(set(retracted))  # each fact forgotten by one call only
    rows = superuser.execute(
        "select f.id, f.validity,"
        " (select count(*) from pymem.memory_events as e where e.memory_id = f.id and e.to_state = 'retracted')"
        " from pymem.facts as f"
        " join pymem.memory_events as i on i.memory_id = f.id and i.operation = 'insert'"
        " where f.predicate = 'plan' order by i.id"
    ).fetchall()
    assert sorted(r[0] for r in rows) == sorted(facts)
    assert sorted(r[0] for r in rows if r[1] == "retracted") == sorted(retracted)
    assert all(r[2] == (1 if r[1] == "retracted" else 0) for r in rows)
    assert [r[1] for r in rows].count("active") <= 1
    assert rows[-1][1] in ("active", "retracted")
    assert all(r[1] in ("superseded", "retracted") for r in rows[:-1])
    assert invariant_violations(superuser) == {}
