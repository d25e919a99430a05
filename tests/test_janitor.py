"""The janitor: expired episodes are tombstoned, near-duplicate facts and rules
(> 0.85 cosine-similar, same tenant and scope) are merged into the best one, and a second run
changes nothing. It runs per tenant as pymem_app, so RLS keeps every merge inside one tenant."""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg
import pytest

from pymem import cli, maintenance
from pymem.embeddings import Embedder
from pymem.errors import InvalidArgumentError
from tests.conftest import Tenant
from tests.sqlapi import call, store_episode, store_fact, store_rule

DENTIST = "The user's dentist is Dr. Smith on Main Street"
DENTIST_AGAIN = "User goes to dentist Dr. Smith at Main Street"  # cosine 0.92 with DENTIST
TEA = "The user drinks green tea every morning"
COFFEE = "The user drinks coffee every evening"  # cosine 0.72 with TEA: kept
TESTS_RULE = "Always run the tests before committing"
TESTS_RULE_AGAIN = "Always run the test suite before you commit"  # cosine 0.86


@pytest.fixture
def memories(as_tenant: Tenant, embedder: Embedder) -> dict[str, Any]:
    ids: dict[str, Any] = {}
    with as_tenant("acme") as conn:
        ids["dentist"] = store_fact(conn, "user", "dentist", DENTIST, embedder, confidence=0.9)
        ids["dentist_again"] = store_fact(conn, "user", "dentist_name", DENTIST_AGAIN, embedder, confidence=0.8)
        ids["tea"] = store_fact(conn, "user", "morning_drink", TEA, embedder)
        ids["coffee"] = store_fact(conn, "user", "evening_drink", COFFEE, embedder)
        # the same text in another scope is another memory
        ids["dentist_work"] = store_fact(conn, "office", "dentist", DENTIST, embedder, scope="work")
        ids["rule"] = store_rule(conn, TESTS_RULE, embedder)
        ids["rule_again"] = store_rule(conn, TESTS_RULE_AGAIN, embedder)
        # an episode whose TTL has passed by the time the janitor runs
        ids["old_episode"] = store_episode(
            conn, "We talked about the dentist", "chat", embedder, ttl=dt.timedelta(milliseconds=1)
        )
        ids["new_episode"] = store_episode(conn, "We talked about tea", "chat", embedder)
        # consolidation reads both (nothing to extract): the janitor tombstones an expired episode only after that
        call(conn, "memory_consolidate")
        conn.execute("update pymem.facts set reference_count = 3 where id = %s", (ids["dentist_again"],))
        conn.execute("update pymem.rules set reference_count = 2 where id = %s", (ids["rule"],))
    with as_tenant("globex") as conn:  # globex holds a duplicate of acme's fact: never merged across tenants
        ids["globex_dentist"] = store_fact(conn, "user", "dentist", DENTIST, embedder)
    return ids


def test_the_janitor_merges_near_duplicates_tombstones_expired_episodes_and_a_second_run_is_a_no_op(
    db_dsn: str, as_tenant: Tenant, memories: dict[str, Any]
) -> None:
    progress: list[tuple[int, int, str]] = []
    summary = maintenance.run_janitor(db_dsn, progress=lambda d, t, w: progress.append((d, t, w)))
    assert summary.tenants == 2 and summary.episodes_expired == 1
    # acme's 5 facts (a merged loser is still counted as checked) and globex's 1; acme's 2 rules
    assert (summary.facts_checked, summary.facts_merged) == (6, 1)
    assert (summary.rules_checked, summary.rules_merged) == (2, 1)
    assert progress[0][:2] == (0, 8) and progress[-1][:2] == (8, 8)
    assert {r.index_name for r in summary.health} == {f"{t}_embedding_idx" for t in ("episodes", "facts", "rules")}
    assert all(r.healthy for r in summary.health)  # re-checked at the end

    with as_tenant("acme") as conn:
        state = dict(conn.execute("select id, validity from pymem.facts").fetchall())
        # survivor: higher confidence (0.9 > 0.8); the loser's 3 references move to it
        assert state[memories["dentist"]] == "active" and state[memories["dentist_again"]] == "superseded"
        assert state[memories["tea"]] == state[memories["coffee"]] == state[memories["dentist_work"]] == "active"
        assert conn.execute(
            "select reference_count from pymem.facts where id = %s", (memories["dentist"],)
        ).fetchone() == (3,)
        links = conn.execute(
            "select source_type, source_id, target_type, target_id, relation from pymem.memory_links order by 5"
        ).fetchall()
        rules = dict(conn.execute("select id, forgotten_at is not null from pymem.rules").fetchall())
        survivor, loser = (
            (memories["rule"], memories["rule_again"])
            if not rules[memories["rule"]]
            else (memories["rule_again"], memories["rule"])
        )
        assert rules == {survivor: False, loser: True}
        assert links == [
            ("rule", survivor, "rule", loser, "related_to"),
            ("fact", memories["dentist"], "fact", memories["dentist_again"], "supersedes"),
        ]
        events = conn.execute(
            "select memory_id, from_state, to_state, details->>'reason' from pymem.memory_events"
            " where operation = 'update' order by id"
        ).fetchall()
        reasons = {e[0]: (e[1], e[2], e[3]) for e in events}
        assert reasons[memories["old_episode"]] == ("consolidated", "forgotten", "expired (janitor)")
        assert reasons[memories["dentist_again"]][:2] == ("active", "superseded")
        assert reasons[memories["dentist_again"]][2].startswith(f"duplicate of fact {memories['dentist']}")
        assert reasons[loser][:2][1] == "forgotten"
        # retrieval: the duplicate is gone, the expired episode is still readable by id
        found = call(conn, "memory_search", query="dentist Smith", mode="keyword", bump_references=False)
        assert memories["dentist_again"] not in {r["memory_id"] for r in found}
        assert call(conn, "memory_get", type="episode", id=memories["old_episode"])[0]["state"] == "forgotten"
        event_count = conn.execute("select count(*) from pymem.memory_events").fetchone()
    with as_tenant("globex") as conn:
        assert conn.execute("select validity from pymem.facts").fetchall() == [("active",)]

    again = maintenance.run_janitor(db_dsn, check_health=False)
    assert again.changed == 0 and (again.facts_checked, again.rules_checked) == (5, 1)
    with as_tenant("acme") as conn:
        assert conn.execute("select count(*) from pymem.memory_events").fetchone() == event_count


def test_the_janitor_runs_under_the_tenant_policies(db_dsn: str, as_tenant: Tenant, memories: dict[str, Any]) -> None:
    # only acme is given (as an application login would): globex is untouched
    app_dsn = psycopg.conninfo.make_conninfo(db_dsn, user="pymem_app")
    summary = maintenance.run_janitor(app_dsn, tenants=["acme"], check_health=False, admin_tenant="acme")
    assert summary.tenants == 1 and summary.facts_merged == 1
    with as_tenant("acme") as conn:
        # the cross-tenant listing was an elevation, logged in acme's audit trail
        assert conn.execute(
            "select count(*) from pymem.memory_events where operation = 'admin_elevation'"
        ).fetchone() == (1,)
    with pytest.raises(psycopg.errors.InsufficientPrivilege), as_tenant("acme") as conn:
        conn.execute("select * from pymem_private.janitor_work()")
    with pytest.raises(psycopg.Error, match="threshold must be between"), as_tenant("acme") as conn:
        conn.execute("select * from pymem.memory_janitor_dedup('fact', null, 10, 0.1)")


@pytest.mark.parametrize(
    ("arguments", "options", "message"),
    [
        (["--batch", "0"], {"batch": 0}, "batch must be between 1 and 1000, not 0"),
        (["--batch", "1001"], {"batch": 1001}, "batch must be between 1 and 1000, not 1001"),
        (["--threshold", "0.3"], {"threshold": 0.3}, "threshold must be between 0.5 and 1: threshold was 0.3"),
    ],
)
def test_a_bad_batch_or_threshold_is_refused_by_sql_before_anything_changes(
    db_dsn: str,
    as_tenant: Tenant,
    memories: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    options: dict[str, Any],
    message: str,
) -> None:
    def state() -> list[Any]:
        with as_tenant("acme") as conn:
            return [
                conn.execute("select count(*) from pymem.memory_events").fetchone(),
                conn.execute("select id, validity from pymem.facts order by id").fetchall(),
                conn.execute("select id, forgotten_at from pymem.rules order by id").fetchall(),
                conn.execute("select id, forgotten_at from pymem.episodes order by id").fetchall(),
            ]

    before = state()
    monkeypatch.setenv("PYMEM_DSN", db_dsn)
    assert cli.main(["janitor", *arguments]) == 2
    assert capsys.readouterr().err == f"pymem: {message}\n"  # one line: the SQL function's PM002 message
    with pytest.raises(InvalidArgumentError) as caught:
        maintenance.run_janitor(db_dsn, **options)
    assert str(caught.value) == message
    assert isinstance(caught.value.__cause__, psycopg.Error) and caught.value.__cause__.sqlstate == "PM002"
    assert state() == before
