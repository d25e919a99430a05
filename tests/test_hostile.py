"""Hostile-user findings, each kept as a regression test: what a bound analyst or the application
role could once do to another tenant or to the audit trail, and can no longer. As non-superusers throughout."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from pymem.tenancy import admin_transaction
from tests.conftest import Tenant, connect_as
from tests.sqlapi import call, call_one, store_fact

# The supersession lock of tenant globex's (user, secret) as it was computed before migration 0016
GLOBEX_KEY = "hashtextextended('globex' || chr(31) || 'user' || chr(31) || 'secret', 7342)"


@pytest.fixture
def two_tenants(as_tenant: Tenant) -> None:
    for tenant in ("acme", "globex"):
        with as_tenant(tenant) as conn:
            store_fact(conn, "user", "city", f"{tenant}'s user lives in {tenant.title()}ville")


# Advisory locks


def test_no_tenant_role_may_take_an_advisory_lock(make_login: Any, db_dsn: str, app: psycopg.Connection[Any]) -> None:
    """The cross-tenant denial of service: an analyst of acme held globex's supersession lock (and could hold
    the migration lock). Every advisory-lock function of pg_catalog is closed to the tenant roles."""
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn:
        for statement in (
            f"select pg_advisory_lock({GLOBEX_KEY})",
            f"select pg_try_advisory_lock({GLOBEX_KEY})",
            f"select pg_advisory_lock_shared({GLOBEX_KEY})",
            "select pg_advisory_lock(1, 2)",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        with conn.transaction(), pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(f"select pg_advisory_xact_lock({GLOBEX_KEY})")
        open_to_analyst = conn.execute(
            "select count(*) from pg_proc where pronamespace = 'pg_catalog'::regnamespace"
            " and proname like 'pg\\_%advisory%' and has_function_privilege(oid, 'EXECUTE')"
        ).fetchone()
    assert open_to_analyst == (0,)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        app.execute("select pg_advisory_lock(42)")
    audit = app.execute("select ok from pymem.memory_rls_audit() where object = 'pg_catalog advisory locks'").fetchall()
    assert audit == [(True,)]


def test_the_tenant_lock_function_takes_only_the_callers_own_locks(
    make_login: Any, db_dsn: str, as_tenant: Tenant
) -> None:
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn, pytest.raises(psycopg.Error) as caught, conn.transaction():
        conn.execute("select pymem_private.lock_tenant_key('globex', 'supersession', 'user' || chr(31) || 'secret')")
    assert caught.value.sqlstate == "PM004"
    assert "cannot take a lock of tenant 'globex' in a transaction of tenant 'acme'" in str(caught.value)
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        conn.execute("select pymem_private.lock_tenant_key('globex', 'import', 'notes')")
    assert caught.value.sqlstate == "PM004"
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        conn.execute("select pymem_private.lock_tenant_key('acme', 'anything', 'x')")
    assert caught.value.sqlstate == "PM002" and "invalid lock kind 'anything'" in str(caught.value)


def test_a_held_lock_blocks_its_own_tenant_only(
    make_login: Any, db_dsn: str, as_tenant: Tenant, connect_app: Any
) -> None:
    """acme's analyst holds acme's (user, secret) lock: acme's store of that key waits (lock_timeout), globex's
    store of the same subject and predicate goes through."""
    role = make_login("acme")
    with connect_as(db_dsn, role) as holder, holder.transaction():
        holder.execute("select pymem_private.lock_tenant_key('acme', 'supersession', 'user' || chr(31) || 'secret')")
        with as_tenant("globex") as conn:
            conn.execute("set local lock_timeout = '2s'")
            store_fact(conn, "user", "secret", "globex's user keeps a secret diary")
        other = connect_app()
        with pytest.raises(psycopg.errors.LockNotAvailable), other.transaction():
            other.execute("select set_config('pymem.tenant_id', 'acme', true)")
            other.execute("set local lock_timeout = '200ms'")
            store_fact(other, "user", "secret", "acme's user keeps a secret too")
        other.close()
    with as_tenant("globex") as conn:
        assert conn.execute("select count(*) from pymem.facts where predicate = 'secret'").fetchone() == (1,)


# The audit trail


def test_the_system_writes_who_when_and_which_transaction(make_login: Any, db_dsn: str) -> None:
    """A bound analyst inserted a back-dated event with a fake actor, role and transaction id: those columns are
    now the system's, whatever the INSERT says."""
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn, conn.transaction():
        conn.execute("select set_config('pymem.actor', 'admin-bob', true)")
        conn.execute(
            "insert into pymem.memory_events (operation, occurred_at, transaction_id, actor, db_role, session_role)"
            " values ('insert', '2020-01-01', '1', 'admin-bob', 'pymem_admin', 'postgres')"
        )
        row = conn.execute(
            "select occurred_at > now() - interval '1 minute', transaction_id = pg_current_xact_id(),"
            " actor, db_role, session_role from pymem.memory_events where operation = 'insert'"
            " order by id desc limit 1"
        ).fetchone()
    assert row == (True, True, role, role, role)


def test_an_analyst_cannot_write_an_admin_elevation(make_login: Any, db_dsn: str) -> None:
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute(
            "insert into pymem.memory_events (operation, to_state, details)"
            """ values ('admin_elevation', 'pymem_admin', '{"reason": "forged"}')"""
        )
    assert caught.value.sqlstate == "PM006"
    assert "recorded by pymem.memory_log_elevation only" in str(caught.value)


def test_an_inserted_elevation_row_opens_nothing(app: psycopg.Connection[Any], two_tenants: None) -> None:
    """As pymem_app, an admin_elevation row of one's own making once satisfied admin_elevated(), and SET
    LOCAL ROLE pymem_admin then read every tenant with nothing in their trails."""
    with pytest.raises(psycopg.Error) as caught, app.transaction():
        app.execute("select set_config('pymem.tenant_id', 'acme', true)")
        app.execute("insert into pymem.memory_events (operation, to_state) values ('admin_elevation', 'pymem_admin')")
    assert caught.value.sqlstate == "PM006"
    with app.transaction():  # switched to pymem_admin, the direct INSERT is not even allowed
        app.execute("select set_config('pymem.tenant_id', 'acme', true)")
        app.execute("set local role pymem_admin")
        with pytest.raises(psycopg.errors.InsufficientPrivilege), app.transaction():
            app.execute("insert into pymem.memory_events (operation, to_state) values ('admin_elevation', 'x')")
        assert app.execute("select count(*) from pymem.facts").fetchone() == (0,)  # not elevated: sees nothing
        assert app.execute("select pymem_private.admin_elevated()").fetchone() == (False,)


def test_the_one_way_to_elevate_is_logged_in_the_target_tenants_trail(
    app: psycopg.Connection[Any], two_tenants: None, as_tenant: Tenant
) -> None:
    with admin_transaction(app, "globex", reason="support ticket 42", actor="ops@example.com") as conn:
        tenants = conn.execute("select distinct tenant_id from pymem.facts order by 1").fetchall()
    assert tenants == [("acme",), ("globex",)]
    with as_tenant("globex") as conn:
        event = conn.execute(
            "select operation, db_role, session_role, actor, details ->> 'reason' from pymem.memory_events"
            " where operation = 'admin_elevation'"
        ).fetchall()
    assert event == [("admin_elevation", "pymem_admin", "pymem_app", "ops@example.com", "support ticket 42")]
    with as_tenant("acme") as conn:
        elevations = conn.execute("select count(*) from pymem.memory_events where operation = 'admin_elevation'")
        assert elevations.fetchall() == [(0,)]


# An analyst once rewrote the audit trail of a live fact


def test_an_analyst_cannot_scrub_the_trail_of_a_live_memory(
    make_login: Any, db_dsn: str, as_tenant: Tenant, superuser: psycopg.Connection[Any]
) -> None:
    """An inserted 'delete' event for a fact that still exists, then pymem_private.scrub_erased_events, rewrote the
    fact's genuine events to {"erased": true}. Now the fake event is refused, and so is the scrub (the row must be
    gone, deleted in this transaction); the genuine events are intact."""
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "city", "The user lives in Lisbon")
        call(conn, "memory_confirm", type="fact", id=fact)
    trail = "select operation, details from pymem.memory_events where memory_id = %s order by id"
    genuine = superuser.execute(trail, (fact,)).fetchall()
    assert [e[0] for e in genuine] == ["insert", "confirm"]
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn:
        forgeries = (
            ("delete", "active", "deleted"),  # the probe's: a live fact 'deleted'
            ("delete", "active", "erased"),
            ("insert", None, "retracted"),  # states that are not the row's
            ("update", "active", "superseded"),
        )
        for operation, from_state, to_state in forgeries:
            with pytest.raises(psycopg.Error) as caught, conn.transaction():
                conn.execute(
                    "insert into pymem.memory_events (memory_type, memory_id, operation, from_state, to_state)"
                    " values ('fact', %s, %s, %s, %s)",
                    (fact, operation, from_state, to_state),
                )
            assert caught.value.sqlstate == "PM006", (operation, to_state)
            assert "written by the memory tables' triggers" in str(caught.value)
        # a tenant's erasure record (no memory id) is memory_erase_tenant's, a superuser's
        with pytest.raises(psycopg.Error) as caught, conn.transaction():
            conn.execute("insert into pymem.memory_events (operation, to_state) values ('delete', 'erased')")
        assert caught.value.sqlstate == "PM006"
        # the scrub alone, for a live fact: refused
        with pytest.raises(psycopg.Error) as caught, conn.transaction():
            conn.execute("select pymem_private.scrub_erased_events(array['fact'], array[%s]::uuid[], null)", (fact,))
        assert caught.value.sqlstate in ("PM006", "42501")
    assert superuser.execute(trail, (fact,)).fetchall() == genuine
    with as_tenant("acme") as conn:
        assert call_one(conn, "memory_get", type="fact", id=fact)["content"] == "The user lives in Lisbon"
