"""Fact supersession on subject-predicate conflict, also under concurrency."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
import pytest

from pymem.tenancy import tenant_transaction
from tests.conftest import AppConnect, Tenant
from tests.plans import index_parent, tenant_partition
from tests.test_schema import insert_fact


def states(conn: psycopg.Connection[Any], where: str = "true") -> dict[Any, tuple[str, Any]]:
    rows = conn.execute(f"select id, validity, supersedes_id from pymem.facts where {where}").fetchall()
    return {r[0]: (r[1], r[2]) for r in rows}


def test_new_fact_supersedes_existing_fact_with_same_subject_and_predicate(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        old = insert_fact(conn, "user", "favorite_color", "green")
    with as_tenant("acme") as conn:
        new = insert_fact(conn, "user", "favorite_color", "blue")
        rows = states(conn)
        links = conn.execute(
            "select source_type, source_id, target_type, target_id, relation from pymem.memory_links"
        ).fetchall()
    assert rows[old] == ("superseded", None)
    assert rows[new] == ("active", old)
    assert links == [("fact", new, "fact", old, "supersedes")]


def test_no_supersession_when_subject_predicate_pair_is_unique(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        insert_fact(conn, "user", "favorite_color", "green")
        insert_fact(conn, "user", "favorite_food", "pasta")
        insert_fact(conn, "partner", "favorite_color", "red")
        before = conn.execute("select id, validity, supersedes_id from pymem.facts order by id").fetchall()
    with as_tenant("acme") as conn:
        insert_fact(conn, "user", "home_city", "Berlin")
        after = conn.execute(
            "select id, validity, supersedes_id from pymem.facts where predicate <> 'home_city' order by id"
        ).fetchall()
        links = conn.execute("select count(*) from pymem.memory_links").fetchone()
    assert after == before
    assert all(validity == "active" for _, validity, _ in after)
    assert links == (0,)


def test_supersession_chains_and_keeps_history(as_tenant: Tenant) -> None:
    ids = []
    for colour in ("green", "blue", "teal"):
        with as_tenant("acme") as conn:
            ids.append(insert_fact(conn, "user", "favorite_color", colour))
    with as_tenant("acme") as conn:
        rows = states(conn)
    assert rows == {ids[0]: ("superseded", None), ids[1]: ("superseded", ids[0]), ids[2]: ("active", ids[1])}


def test_supersession_stays_inside_the_tenant(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        acme = insert_fact(conn, "user", "favorite_color", "green")
    with as_tenant("globex") as conn:
        insert_fact(conn, "user", "favorite_color", "blue")
    with as_tenant("acme") as conn:
        assert conn.execute("select validity from pymem.facts where id = %s", (acme,)).fetchone() == ("active",)


def test_only_active_facts_are_superseded(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        retracted = insert_fact(conn, "user", "favorite_color", "green", validity="retracted")
        new = insert_fact(conn, "user", "favorite_color", "blue")
        rows = states(conn)
    assert rows == {retracted: ("retracted", None), new: ("active", None)}


def test_a_failed_insert_leaves_the_old_fact_active(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        old = insert_fact(conn, "user", "favorite_color", "green")
    with pytest.raises(psycopg.Error), as_tenant("acme") as conn:
        insert_fact(conn, "user", "favorite_color", "blue", confidence=7)
    with as_tenant("acme") as conn:
        rows = conn.execute("select id, validity from pymem.facts").fetchall()
        links = conn.execute("select count(*) from pymem.memory_links").fetchone()
    assert rows == [(old, "active")]
    assert links == (0,)


def test_at_most_one_active_fact_per_subject_predicate(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        insert_fact(conn, "user", "favorite_color", "green")
        old = insert_fact(conn, "user", "favorite_color", "blue")
    with pytest.raises(psycopg.errors.UniqueViolation) as caught, as_tenant("acme") as conn:
        conn.execute("update pymem.facts set validity = 'active' where validity = 'superseded'")
    # the violated index is the tenant's partition's part of facts_one_active_per_subject_predicate
    diag = caught.value.diag
    with as_tenant("acme") as conn:
        assert (diag.schema_name, diag.table_name) == ("pymem_private", tenant_partition(conn, "pymem.facts", "acme"))
        assert diag.constraint_name is not None
        assert index_parent(conn, diag.constraint_name) == "pymem.facts_one_active_per_subject_predicate"
        assert conn.execute("select id from pymem.facts where validity = 'active'").fetchall() == [(old,)]


def _waiting_on_lock(observer: psycopg.Connection[Any], pid: int) -> bool:
    row = observer.execute("select wait_event_type from pg_stat_activity where pid = %s", (pid,)).fetchone()
    return row is not None and row[0] == "Lock"


def test_two_transactions_storing_the_same_key_leave_one_active_fact(
    connect_app: AppConnect, superuser: psycopg.Connection[Any]
) -> None:
    """Stepped: A inserts and holds its transaction open; B's insert waits on the key's
    lock; A commits; B goes on, sees A's fact and supersedes it."""
    first, second = connect_app(), connect_app()
    result: dict[str, Any] = {}

    def store_second() -> None:
        with tenant_transaction(second, "acme"):
            result["second"] = insert_fact(second, "user", "favorite_color", "blue")

    with tenant_transaction(first, "acme"):
        result["first"] = insert_fact(first, "user", "favorite_color", "green")
        worker = threading.Thread(target=store_second)
        worker.start()
        deadline = time.monotonic() + 10
        while not _waiting_on_lock(superuser, second.info.backend_pid):
            assert time.monotonic() < deadline, "the second writer never waited for the first"
            time.sleep(0.02)
        assert "second" not in result
    worker.join(10)
    assert not worker.is_alive()

    rows = states(superuser, "tenant_id = 'acme'")
    assert rows == {result["first"]: ("superseded", None), result["second"]: ("active", result["first"])}


def test_many_concurrent_writers_of_one_key(connect_app: AppConnect, superuser: psycopg.Connection[Any]) -> None:
    writers = 8
    conns = [connect_app() for _ in range(writers)]
    barrier = threading.Barrier(writers)

    def store(i: int) -> Any:
        conn = conns[i]
        with tenant_transaction(conn, "acme"):
            barrier.wait()
            return insert_fact(conn, "user", "favorite_color", f"colour {i}")

    with ThreadPoolExecutor(writers) as pool:
        ids = list(pool.map(store, range(writers)))

    rows = superuser.execute("select id, validity, supersedes_id from pymem.facts where tenant_id = 'acme'").fetchall()
    assert len(rows) == writers and {r[0] for r in rows} == set(ids)
    active = [r for r in rows if r[1] == "active"]
    assert len(active) == 1
    # the supersedes chain runs through every fact exactly once
    by_id = {r[0]: r[2] for r in rows}
    chain, cursor = [], active[0][0]
    while cursor is not None:
        chain.append(cursor)
        cursor = by_id[cursor]
    assert sorted(chain) == sorted(ids)
    links = superuser.execute(
        "select count(*) from pymem.memory_links where tenant_id = 'acme' and relation = 'supersedes'"
    ).fetchone()
    assert links == (writers - 1,)
