"""Consolidation on its own (pymem.consolidation_worker): a conversation left alone past its episodes' TTL is
consolidated, not lost. The worker's schedule runs on a clock the test moves, not by waiting; the episodes' TTL is
the product's own parameter (a millisecond), so they are long expired when the janitor and the worker look."""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg
import pytest

from pymem import maintenance
from pymem.consolidation_worker import ConsolidationWorker, episodes_stored
from tests.conftest import Tenant
from tests.sqlapi import call, store_episode

CHAT = [
    "User: My name is Jonas and I work as a carpenter in Leipzig.",
    "User: I have a dog named Pixel and I am allergic to cats.",
]


class Clock:
    """Seconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def facts(conn: psycopg.Connection[Any]) -> set[tuple[str, str]]:
    return {(p, v) for p, v in conn.execute("select predicate, validity from pymem.facts").fetchall()}


def test_a_chat_left_alone_past_its_ttl_is_consolidated_not_lost(db_dsn: str, as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        episodes = [store_episode(conn, text, "chat", ttl=dt.timedelta(milliseconds=1)) for text in CHAT]
    # the janitor comes first: the episodes are expired, but consolidation has not read them, so they stay
    assert maintenance.run_janitor(db_dsn, check_health=False).episodes_expired == 0
    with as_tenant("acme") as conn:
        assert conn.execute("select count(*) from pymem.episodes where forgotten_at is null").fetchone() == (2,)
        assert facts(conn) == set()

    clock = Clock()
    worker = ConsolidationWorker(dsn=db_dsn, embedder=None, interval=600, clock=clock)
    worker._last_check = clock()  # as after a run: the next one is due on the schedule
    clock.now += 599
    assert worker.due() is None
    clock.now += 1200  # two intervals later
    assert worker.due() == "schedule"
    summary = worker.work("schedule")
    assert (summary.tenants, summary.episodes, summary.facts) == (1, 2, 4)
    assert worker.since_last() == 0 and worker.due() != "schedule"

    with as_tenant("acme") as conn:
        assert facts(conn) == {
            ("name", "active"),
            ("works_as", "active"),
            ("pet:dog", "active"),
            ("allergy:cats", "active"),
        }
        derived = call(conn, "memory_derived_from", episodes=episodes)
        assert {row["episode_id"] for row in derived} == set(episodes)
    # read by consolidation, the expired episodes are tombstoned now; what was drawn from them stays
    assert maintenance.run_janitor(db_dsn, check_health=False).episodes_expired == 2
    with as_tenant("acme") as conn:
        assert [call(conn, "memory_get", type="episode", id=e)[0]["state"] for e in episodes] == ["forgotten"] * 2
        assert {v for _, v in facts(conn)} == {"active"}
        assert call(conn, "memory_consolidation_plan") == []


def test_episodes_stored_bring_the_next_run_forward(db_dsn: str, as_tenant: Tenant) -> None:
    """Episodes any client stores count (PostgreSQL's statistics); below the threshold nothing is due until the
    schedule says so."""
    clock = Clock()
    worker = ConsolidationWorker(dsn=db_dsn, embedder=None, interval=3600, episodes=3, clock=clock)
    worker.work("start")
    assert worker.due() is None
    with as_tenant("acme") as conn:
        for n in range(3):
            store_episode(conn, f"User: note {n}", "chat")
        conn.execute("select pg_stat_force_next_flush()")
    with as_tenant("acme") as conn:  # a new transaction: the statistics of the last one are flushed at its end
        conn.execute("select 1")
    for _ in range(50):
        if episodes_stored(db_dsn) - worker._last_stored >= 3:
            break
        with psycopg.connect(db_dsn) as conn:
            conn.execute("select pg_sleep(0.1)")
    assert worker.due() == "3 episodes stored"
    assert worker.work("3 episodes stored").episodes == 3
    assert worker.due() is None


def test_the_worker_refuses_a_schedule_that_cannot_run(db_dsn: str) -> None:
    for options in ({"interval": 0}, {"episodes": 0}, {"poll": 0}, {"delay": -1}):
        with pytest.raises(ValueError):
            ConsolidationWorker(dsn=db_dsn, embedder=None, **options)
