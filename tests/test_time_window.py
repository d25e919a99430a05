"""pymem.memory_time_window (sql/functions/132-time-window.sql): the period a question's time expression names,
relative to the moment it is asked, as pymem_app (RLS plays no part: it reads no table)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest

from pymem.embeddings import Embedder
from tests.conftest import Tenant
from tests.sqlapi import ago, call, store_episode

WEDNESDAY = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)
SATURDAY = datetime(2026, 6, 13, 12, 0, tzinfo=UTC)


def window(conn: psycopg.Connection[Any], query: str, at: datetime = WEDNESDAY) -> tuple[str, str, str] | None:
    row = conn.execute(
        "select starts::date::text, ends::date::text, expression from pymem.memory_time_window(%s, %s)", (query, at)
    ).fetchone()
    return None if row is None else (row[0], row[1], row[2])


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What did I cook last week?", ("2026-06-01", "2026-06-08", "last week")),
        ("what did we talk about yesterday", ("2026-06-09", "2026-06-10", "yesterday")),
        ("the day before yesterday", ("2026-06-08", "2026-06-09", "the day before yesterday")),
        ("Where was I two weeks ago?", ("2026-05-24", "2026-05-31", "two weeks ago")),
        ("a couple of days ago", ("2026-06-08", "2026-06-09", "a couple of days ago")),
        ("3 days ago", ("2026-06-07", "2026-06-08", "3 days ago")),
        ("Who visited last weekend?", ("2026-06-06", "2026-06-08", "last weekend")),
        ("what did I do last Tuesday", ("2026-06-09", "2026-06-10", "last tuesday")),
        ("What was I worried about in March?", ("2026-03-01", "2026-04-01", "march")),
        ("What happened in December?", ("2025-12-01", "2026-01-01", "december")),  # the latest December
        ("my plans for March 2025", ("2025-03-01", "2025-04-01", "march 2025")),
        ("What did I start in May?", ("2026-05-01", "2026-06-01", "may")),
        ("earlier this month", ("2026-06-01", "2026-06-11", "earlier this month")),  # so far
        ("last month", ("2026-05-01", "2026-06-01", "last month")),
        ("in 2025", ("2025-01-01", "2026-01-01", "in 2025")),
        ("the appointment on 2026-05-05", ("2026-05-05", "2026-05-06", "2026-05-05")),
    ],
)
def test_a_time_expression_names_its_period(as_tenant: Tenant, query: str, expected: tuple[str, str, str]) -> None:
    with as_tenant("acme") as conn:
        assert window(conn, query) == expected


@pytest.mark.parametrize(
    "query",
    ["What is my dog's name?", "May I ask what my dog is called?", "the 2026-02-30 meeting", "", "x" * 10001],
)
def test_no_time_expression_no_period(as_tenant: Tenant, query: str) -> None:
    """The verb "may", an impossible date, nothing at all, or a text over the limit: no row, never an error."""
    with as_tenant("acme") as conn:
        assert window(conn, query) is None


def test_last_weekend_on_a_weekend_is_the_one_before(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        assert window(conn, "last weekend", SATURDAY) == ("2026-06-06", "2026-06-08", "last weekend")
        assert window(conn, "this weekend", SATURDAY) == ("2026-06-13", "2026-06-15", "this weekend")


def test_without_a_moment_it_is_relative_to_now(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        row = conn.execute(
            "select starts = current_date - 1, ends = current_date from pymem.memory_time_window('yesterday')"
        ).fetchone()
    assert row == (True, True)


def test_search_lifts_the_memories_of_the_period_a_query_names(as_tenant: Tenant, embedder: Embedder) -> None:
    """memory_search multiplies the score of a memory created in the query's period by 1 + time_boost (0.5 by
    default): of two episodes alike, the one of last week comes first for "last week", the other without the
    expression or with time_boost 0."""
    with as_tenant("acme") as conn:
        old = store_episode(conn, "User: I cooked a risotto with mushrooms", "chat", embedder, observed_at=ago(30))
        recent = store_episode(conn, "User: I cooked a mushroom risotto", "chat", embedder, observed_at=ago(7))

        def search(query: str, **options: Any) -> list[dict[str, Any]]:
            return call(conn, "memory_search", query=query, query_embedding=embedder.embed(query), **options)

        week = search("what did I cook last week")
        plain = search("what did I cook with mushrooms")
        off = search("what did I cook last week", time_boost=0)
        with pytest.raises(psycopg.Error, match="time_boost must be between 0 and 10"), conn.transaction():
            search("x", time_boost=-1)
    assert [r["memory_id"] for r in week] == [recent, old]
    assert [r["in_time_window"] for r in week] == [True, False]
    assert not any(r["in_time_window"] for r in plain + off)
    assert week[0]["score"] == pytest.approx(1.5 * off[[r["memory_id"] for r in off].index(recent)]["score"])
