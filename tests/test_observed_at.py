"""observed_at: a memory stored now can say when it was observed. It dates the row (created_at, and a fact's or
rule's last confirmation), so recency, decay, as_of and a session's order count from it; the future is refused,
and supersession follows the order of observation."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import psycopg
import pytest
from mcp import Client
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from pymem.embeddings import Embedder
from tests.conftest import Tenant
from tests.mcpclient import call as call_tool
from tests.mcpclient import call_error, stdio_like_server
from tests.sqlapi import ago, call_one, counts, store_episode, store_fact, store_rule
from tests.test_recall import recall


def row(conn: psycopg.Connection[Any], table: str, memory_id: Any) -> dict[str, Any]:
    with conn.cursor(row_factory=dict_row) as cur:
        found = cur.execute(f"select * from pymem.{table} where id = %s", (memory_id,)).fetchone()
    assert found is not None
    return found


def test_observed_at_dates_every_kind_of_memory(as_tenant: Tenant) -> None:
    moment = ago(3)
    with as_tenant("acme") as conn:
        episode = store_episode(conn, "User said the boiler broke", "home", observed_at=moment)
        fact = store_fact(conn, "user", "boiler", "The user's boiler broke", observed_at=moment)
        rule = store_rule(conn, "Ask about the boiler repair", observed_at=moment)
        now = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
        stored = {t: row(conn, t, i) for t, i in (("episodes", episode), ("facts", fact), ("rules", rule))}
    assert {t: r["created_at"] for t, r in stored.items()} == dict.fromkeys(stored, moment)
    assert stored["facts"]["last_confirmed_at"] == stored["rules"]["last_confirmed_at"] == moment
    # an episode is kept for its TTL from when it was stored, however long ago it was said
    assert stored["episodes"]["expires_at"] == now + dt.timedelta(days=7)


def test_an_old_observation_has_decayed_and_is_not_recent(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "diet", "diet: vegan", observed_at=ago(30))
        (found,) = recall(conn, "diet", bump_references=False)
    assert found["recency"] == pytest.approx(0.5, rel=1e-4)  # the default half-life is 30 days
    assert found["effective_confidence"] == pytest.approx(math.exp(-0.008 * 30), rel=1e-4)


def test_without_observed_at_a_memory_is_observed_now(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "diet", "diet: vegan")
        now = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
        assert row(conn, "facts", fact)["created_at"] == now


def test_a_client_clock_a_little_ahead_is_taken_as_now(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        now = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
        fact = store_fact(conn, "user", "diet", "diet: vegan", observed_at=now + dt.timedelta(minutes=2))
        assert row(conn, "facts", fact)["created_at"] == now


@pytest.mark.parametrize("kind", ["episode", "fact", "rule"])
@pytest.mark.parametrize(
    ("moment", "message"),
    [
        (dt.datetime.now(dt.UTC) + dt.timedelta(days=1), "observed_at must not be in the future"),
        ("infinity", "observed_at must be a finite moment"),
        ("-infinity", "observed_at must be a finite moment"),
    ],
)
def test_the_future_and_infinity_are_refused_and_nothing_is_written(
    as_tenant: Tenant, kind: str, moment: Any, message: str
) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        if kind == "episode":
            store_episode(conn, "User said hello", "home", observed_at=moment)
        elif kind == "fact":
            store_fact(conn, "user", "greeting", "User said hello", observed_at=moment)
        else:
            store_rule(conn, "Say hello back", observed_at=moment)
    assert caught.value.sqlstate == "PM002"
    assert message in str(caught.value)
    with as_tenant("acme") as conn:
        assert set(counts(conn).values()) == {0}


def test_a_later_observation_supersedes_from_when_it_was_observed(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        old = store_fact(conn, "user", "city", "The user lives in Leeds", observed_at=ago(20))
        new = call_one(
            conn,
            "memory_store_fact",
            subject="user",
            predicate="city",
            content="The user lives in York",
            observed_at=ago(10),
        )
        moved = row(conn, "facts", new["memory_id"])["created_at"]
        before, after = ago(15), ago(5)
        then = [r["content"] for r in recall(conn, "lives", as_of=before, min_confidence=0)]
        later = [r["content"] for r in recall(conn, "lives", as_of=after, min_confidence=0)]
        superseded = row(conn, "facts", old)
    assert new["supersedes_id"] == old
    assert (superseded["validity"], superseded["invalidated_at"]) == ("superseded", moved)
    assert then == ["The user lives in Leeds"]
    assert later == ["The user lives in York"]


def test_an_observation_older_than_the_active_fact_is_refused(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        current = store_fact(conn, "user", "city", "The user lives in York", observed_at=ago(2))
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        store_fact(conn, "user", "city", "The user lives in Leeds", observed_at=ago(20))
    assert caught.value.sqlstate == "PM002"
    assert "is before the active fact of this subject and predicate" in str(caught.value)
    assert str(current) in (caught.value.diag.message_detail or "")
    with as_tenant("acme") as conn:
        kept = row(conn, "facts", current)
        assert (kept["content"], kept["validity"]) == ("The user lives in York", "active")
        assert counts(conn)["facts"] == 1
        # another predicate of the same subject is not held to that order
        store_fact(conn, "user", "job", "The user is a nurse", observed_at=ago(20))


def test_the_moment_a_fact_stopped_being_believed_never_moves(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        old = store_fact(conn, "user", "city", "Leeds", observed_at=ago(20))
        store_fact(conn, "user", "city", "York", observed_at=ago(10))
        stopped = row(conn, "facts", old)["invalidated_at"]
        conn.execute("update pymem.facts set invalidated_at = now() where id = %s", (old,))
        conn.execute("update pymem.facts set validity = 'retracted', invalidated_at = now() where id = %s", (old,))
        assert row(conn, "facts", old)["invalidated_at"] == stopped


def test_an_episode_observed_earlier_comes_first_in_its_session(as_tenant: Tenant) -> None:
    session = "00000000-0000-4000-8000-000000000001"
    with as_tenant("acme") as conn:
        store_episode(conn, "User: see you tomorrow", "home", session_id=session, observed_at=ago(1))
        store_episode(conn, "User: good morning", "home", session_id=session, observed_at=ago(0.5))
        ordered = conn.execute(
            "select content from pymem.episodes where session_id = %s order by created_at", (session,)
        ).fetchall()
    assert [c for (c,) in ordered] == ["User: see you tomorrow", "User: good morning"]


@pytest.fixture
def server(app_pool: ConnectionPool, embedder: Embedder, tmp_path: Any) -> Any:
    return stdio_like_server(app_pool, embedder, "acme", tmp_path / "butlers")


@pytest.mark.anyio
async def test_the_store_tools_take_observed_at_with_a_time_zone(server: Any, superuser: Any) -> None:
    moment = ago(4).replace(microsecond=0)
    async with Client(server) as client:
        stored = await call_tool(
            client,
            "memory_store_fact",
            subject="user",
            predicate="pet",
            content="User has a cat named Miso",
            observed_at=moment.isoformat(),
        )
        naive = await call_error(
            client,
            "memory_store_episode",
            content="User said hi",
            butler="home",
            observed_at=moment.replace(tzinfo=None).isoformat(),
        )
        future = await call_error(client, "memory_store_rule", content="Greet the cat", observed_at=ago(-2).isoformat())
    created = superuser.execute("select created_at from pymem.facts where id = %s", (stored["memory_id"],)).fetchone()
    assert created == (moment,)
    assert "observed_at" in naive and "timezone" in naive.lower()
    assert "observed_at must not be in the future" in future
