"""What every read does after it ranks: the reference bumps (pymem_private.memory_touch_many) and the provenance of
the rows it returns (pymem_private.memory_provenance_many), each one statement for all the rows. As pymem_app,
under row-level security: another tenant's memory is neither bumped nor described."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from tests.conftest import Tenant
from tests.sqlapi import store_episode, store_fact, store_rule

SESSION = "0b9a3c55-4f5e-4f0e-9a55-3d1c2f7e8a10"


def _provenance(conn: psycopg.Connection[Any], tenant: str, refs: list[tuple[str, Any]]) -> dict[Any, tuple[Any, ...]]:
    rows = conn.execute(
        "select id, source_butler, session_id, source_episode_id, source_path, stored_by"
        " from pymem_private.memory_provenance_many(%s, %s, %s)",
        (tenant, [kind for kind, _ in refs], [i for _, i in refs]),
    ).fetchall()
    assert len(rows) == len(refs)  # one row per memory asked, known or not
    return {row[0]: tuple(row[1:]) for row in rows}


def test_provenance_of_every_kind_in_one_call(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        conn.execute("select set_config('pymem.actor', 'agent:planner', true)")
        episode = store_episode(conn, "User: we moved to Lisbon in May.", "travel", session_id=SESSION)
        fact = store_fact(
            conn, "user", "home_city", "The user lives in Lisbon.", source_butler="travel", source_episode_id=episode
        )
        rule = store_rule(
            conn,
            "Quote prices in euros for this user.",
            source_butler="finance",
            metadata=Jsonb({"source_path": "notes/rules.md"}),
        )
        unknown = uuid.uuid4()
        found = _provenance(conn, "acme", [("rule", rule), ("episode", episode), ("fact", fact), ("fact", unknown)])
    assert found[fact] == ("travel", uuid.UUID(SESSION), episode, None, "agent:planner")
    assert found[episode] == ("travel", uuid.UUID(SESSION), None, None, "agent:planner")
    assert found[rule] == ("finance", None, None, "notes/rules.md", "agent:planner")
    assert found[unknown] == (None, None, None, None, None)
    with as_tenant("acme") as conn:  # memory_provenance of one memory is the same
        one = conn.execute(
            "select source_butler, session_id, source_episode_id, source_path, stored_by"
            " from pymem_private.memory_provenance('acme', 'fact', %s)",
            (fact,),
        ).fetchall()
    assert one == [found[fact]]


def test_provenance_of_another_tenants_memory_says_nothing(as_tenant: Tenant) -> None:
    with as_tenant("globex") as conn:
        theirs = store_fact(conn, "user", "employer", "Works at Globex.", source_butler="work")
    with as_tenant("acme") as conn:
        # the tenant argument does not widen what RLS shows: the current tenant is acme
        found = _provenance(conn, "globex", [("fact", theirs)])
    assert found[theirs] == (None, None, None, None, None)


def test_touch_many_bumps_each_memory_once_per_mention_and_returns_the_new_counts(as_tenant: Tenant) -> None:
    with as_tenant("globex") as conn:
        theirs = store_fact(conn, "user", "employer", "Works at Globex.")
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "diet", "The user is vegetarian.")
        rule = store_rule(conn, "Suggest vegetarian recipes.")
        episode = store_episode(conn, "User: no meat, please.", "food")
        kinds = ["fact", "rule", "fact", "episode", "fact", "fact", None]
        ids = [fact, rule, fact, episode, theirs, None, fact]
        rows = conn.execute(
            "select kind, id, reference_count from pymem_private.memory_touch_many('acme', %s, %s)", (kinds, ids)
        ).fetchall()
        stamps = conn.execute(
            "select count(*) from pymem.facts where id = %s and last_referenced_at = now()", (fact,)
        ).fetchone()
    assert sorted((kind, count) for kind, _, count in rows) == [("episode", 1), ("fact", 2), ("rule", 1)]
    assert {i for _, i, _ in rows} == {fact, rule, episode}  # another tenant's id and NULLs match nothing
    assert stamps == (1,)
    with as_tenant("globex") as conn:
        assert conn.execute("select reference_count from pymem.facts where id = %s", (theirs,)).fetchone() == (0,)


def test_touch_many_writes_nothing_in_a_read_only_transaction(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "pet", "The user has a cat.")
    with as_tenant("acme") as conn:
        conn.execute("set transaction read only")
        rows = conn.execute(
            "select * from pymem_private.memory_touch_many('acme', array['fact'], array[%s::uuid])", (fact,)
        ).fetchall()
        assert conn.execute("select pymem_private.memory_touch('fact', %s)", (fact,)).fetchone() == (None,)
    assert rows == []
    with as_tenant("acme") as conn:
        assert conn.execute("select reference_count from pymem.facts where id = %s", (fact,)).fetchone() == (0,)


def test_an_item_search_bumps_every_item_of_its_page_once_unless_asked_not_to(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        for key in ("a", "b", "c"):
            conn.execute(
                "select pymem.memory_item_put(array['prefs'], %s, %s)", (key, Jsonb({"colour": f"shade {key}"}))
            )
        page = conn.execute(
            "select key, memory_id from pymem.memory_item_search(array['prefs'], \"limit\" => 2)"
        ).fetchall()
        conn.execute("select * from pymem.memory_item_search(array['prefs'], refresh_ttl => false)").fetchall()
        counts = dict(
            conn.execute(
                "select predicate, reference_count from pymem.facts where metadata ? 'item' order by predicate"
            ).fetchall()
        )
    assert len(page) == 2
    assert counts == {key: (1 if key in {k for k, _ in page} else 0) for key in ("a", "b", "c")}
