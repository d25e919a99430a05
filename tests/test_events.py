"""memory_events: one append-only row per state transition, written by the database."""

from __future__ import annotations

from typing import Any

import psycopg

from pymem.tenancy import tenant_transaction
from tests.conftest import Tenant
from tests.test_schema import insert_fact


def events(conn: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
    return conn.execute(
        "select memory_type, operation, from_state, to_state from pymem.memory_events order by id"
    ).fetchall()


def test_creating_memories_records_their_first_state(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        conn.execute("insert into pymem.episodes (butler, content) values ('b', 'c')")
        insert_fact(conn, "user", "diet", "vegan")
        conn.execute("insert into pymem.rules (content) values ('r')")
        assert events(conn) == [
            ("episode", "insert", None, "active"),
            ("fact", "insert", None, "active"),
            ("rule", "insert", None, "candidate"),
        ]


def test_supersession_is_recorded_with_who_and_why(app: psycopg.Connection[Any]) -> None:
    with tenant_transaction(app, "acme", actor="agent-7") as conn:
        old = insert_fact(conn, "user", "favorite_color", "green")
    with tenant_transaction(app, "acme", actor="agent-7") as conn:
        conn.execute("select set_config('pymem.reason', 'user corrected it', true)")
        new = insert_fact(conn, "user", "favorite_color", "blue")
        rows = conn.execute(
            "select memory_id, operation, from_state, to_state, db_role, actor, details"
            " from pymem.memory_events order by id"
        ).fetchall()
    assert rows[0][:4] == (old, "insert", None, "active")
    superseded = (
        old,
        "update",
        "active",
        "superseded",
        "pymem_app",
        "agent-7",
        {"subject": "user", "predicate": "favorite_color", "reason": "user corrected it"},
    )
    assert rows[1] == superseded
    assert rows[2][:4] == (new, "insert", None, "active")
    assert rows[2][6]["supersedes_id"] == str(old)


def test_state_changes_are_recorded_and_other_updates_are_not(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        episode = conn.execute("insert into pymem.episodes (butler, content) values ('b', 'c') returning id").fetchone()
        fact = insert_fact(conn, "user", "diet", "vegan")
        rule = conn.execute("insert into pymem.rules (content) values ('r') returning id").fetchone()
        before = len(events(conn))
        conn.execute("update pymem.facts set reference_count = reference_count + 1, last_referenced_at = now()")
        conn.execute("update pymem.rules set applied_count = 1, success_count = 1")
        conn.execute("update pymem.episodes set reference_count = 8")
        assert len(events(conn)) == before
        conn.execute("update pymem.facts set validity = 'retracted' where id = %s", (fact,))
        conn.execute("update pymem.rules set maturity = 'established' where id = %s", rule)
        conn.execute("update pymem.rules set forgotten_at = now() where id = %s", rule)
        conn.execute("update pymem.episodes set consolidated = true where id = %s", episode)
        conn.execute("select pymem_private.delete_memories(array['episode'], array[%s]::uuid[])", episode)
        assert events(conn)[before:] == [
            ("fact", "update", "active", "retracted"),
            ("rule", "update", "candidate", "established"),
            ("rule", "update", "established", "forgotten"),
            ("episode", "update", "active", "consolidated"),
            ("episode", "delete", "consolidated", "deleted"),
        ]


def test_a_rolled_back_write_leaves_no_event(app: psycopg.Connection[Any]) -> None:
    try:
        with tenant_transaction(app, "acme") as conn:
            insert_fact(conn, "user", "diet", "vegan")
            raise RuntimeError("abort")
    except RuntimeError:
        pass
    with tenant_transaction(app, "acme") as conn:
        assert events(conn) == []
