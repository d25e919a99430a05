"""Tenant isolation is a property of the database: RLS, enabled and forced, as pymem_app."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from pymem.errors import NoTenantError, PermissionDeniedError, TenantConflictError, translate
from pymem.pool import make_pool
from pymem.tenancy import admin_transaction, tenant_transaction
from tests.conftest import Tenant, app_dsn_for, connect_as
from tests.test_schema import insert_fact

TABLES = ["episodes", "facts", "rules", "memory_links", "memory_events"]


def seed(conn: psycopg.Connection[Any], label: str) -> dict[str, Any]:
    """One row in every table for the transaction's tenant."""
    episode = conn.execute(
        "insert into pymem.episodes (butler, content) values ('health', %s) returning id", (f"{label} episode",)
    ).fetchone()[0]  # type: ignore[index]
    fact = insert_fact(conn, "user", "diet", f"{label} fact", source_episode_id=episode)
    rule = conn.execute("insert into pymem.rules (content) values (%s) returning id", (f"{label} rule",)).fetchone()[0]  # type: ignore[index]
    conn.execute(
        "insert into pymem.memory_links (source_type, source_id, target_type, target_id, relation)"
        " values ('fact', %s, 'episode', %s, 'derived_from')",
        (fact, episode),
    )
    return {"episode": episode, "fact": fact, "rule": rule}


@pytest.fixture
def two_tenants(as_tenant: Tenant) -> dict[str, dict[str, Any]]:
    with as_tenant("acme") as conn:
        acme = seed(conn, "acme")
    with as_tenant("globex") as conn:
        globex = seed(conn, "globex")
    return {"acme": acme, "globex": globex}


def test_tests_run_as_a_plain_application_role(app: psycopg.Connection[Any]) -> None:
    row = app.execute(
        "select current_user, session_user, rolsuper, rolbypassrls, rolinherit"
        " from pg_roles where rolname = current_user"
    ).fetchone()
    assert row == ("pymem_app", "pymem_app", False, False, False)
    owns = app.execute("select count(*) from pg_class where relowner = 'pymem_app'::regrole").fetchone()
    assert owns == (0,)


@pytest.mark.parametrize("table", TABLES)
def test_a_tenant_sees_only_its_own_rows(two_tenants: Any, as_tenant: Tenant, table: str) -> None:
    for tenant in ("acme", "globex"):
        with as_tenant(tenant) as conn:
            tenants = conn.execute(f"select distinct tenant_id from pymem.{table}").fetchall()
            assert tenants == [(tenant,)]


@pytest.mark.parametrize("kind", ["episode", "fact", "rule"])
def test_a_known_id_of_another_tenant_finds_nothing(two_tenants: Any, as_tenant: Tenant, kind: str) -> None:
    other = two_tenants["globex"][kind]
    with as_tenant("acme") as conn:
        assert conn.execute(f"select * from pymem.{kind}s where id = %s", (other,)).fetchall() == []
        assert conn.execute(f"update pymem.{kind}s set reference_count = 0 where id = %s", (other,)).rowcount == 0
        deleted = conn.execute(
            "select pymem_private.delete_memories(array[%s], array[%s]::uuid[])", (kind, other)
        ).fetchone()
        assert deleted == (0,)
    with as_tenant("globex") as conn:
        assert conn.execute(f"select count(*) from pymem.{kind}s where id = %s", (other,)).fetchone() == (1,)


WRITES_INTO_ANOTHER_TENANT = {
    "episodes": "insert into pymem.episodes (tenant_id, butler, content) values ('globex', 'b', 'c')",
    "facts": "insert into pymem.facts (tenant_id, subject, predicate, content) values ('globex', 's', 'p', 'c')",
    "rules": "insert into pymem.rules (tenant_id, content) values ('globex', 'c')",
    "memory_events": "insert into pymem.memory_events (tenant_id, operation) values ('globex', 'insert')",
}


@pytest.mark.parametrize("table", sorted(WRITES_INTO_ANOTHER_TENANT))
def test_a_write_with_another_tenants_id_is_rejected(as_tenant: Tenant, table: str) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as caught, as_tenant("acme") as conn:
        conn.execute(WRITES_INTO_ANOTHER_TENANT[table])
    assert "row-level security" in str(caught.value)
    assert isinstance(translate(caught.value), PermissionDeniedError)


def test_a_link_into_another_tenant_is_rejected(two_tenants: Any, as_tenant: Tenant) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        conn.execute(
            "insert into pymem.memory_links (source_type, source_id, target_type, target_id, relation)"
            " values ('fact', %s, 'fact', %s, 'contradicts')",
            (two_tenants["acme"]["fact"], two_tenants["globex"]["fact"]),
        )
    assert caught.value.sqlstate == "PM003"


@pytest.mark.parametrize("table", ["episodes", "facts", "rules", "memory_links"])
def test_rows_cannot_be_moved_to_another_tenant(two_tenants: Any, as_tenant: Tenant, table: str) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        conn.execute(f"update pymem.{table} set tenant_id = 'globex'")
    # no tenant role may UPDATE tenant_id (no column privilege; and RLS WITH CHECK behind it): 42501
    assert caught.value.sqlstate == "42501"


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("tenant_setting", [None, ""])
def test_an_unset_tenant_sees_nothing(
    two_tenants: Any, app: psycopg.Connection[Any], table: str, tenant_setting: str | None
) -> None:
    with app.transaction():
        if tenant_setting is not None:
            app.execute("select set_config('pymem.tenant_id', %s, true)", (tenant_setting,))
        assert app.execute("select pymem.current_tenant()").fetchone() == (None,)
        assert app.execute(f"select count(*) from pymem.{table}").fetchone() == (0,)


def test_an_unset_tenant_writes_nothing(app: psycopg.Connection[Any]) -> None:
    with pytest.raises(psycopg.Error) as caught, app.transaction():
        app.execute("insert into pymem.episodes (butler, content) values ('b', 'c')")
    assert caught.value.sqlstate == "PM001"
    error = translate(caught.value)
    assert isinstance(error, NoTenantError) and "set_config" in str(error)
    with pytest.raises(psycopg.errors.InsufficientPrivilege), app.transaction():
        app.execute("insert into pymem.episodes (tenant_id, butler, content) values ('acme', 'b', 'c')")


def test_the_tenant_is_transaction_local(app: psycopg.Connection[Any], as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        seed(conn, "acme")
        assert conn.execute("select count(*) from pymem.facts").fetchone() == (1,)
    assert app.execute("select pymem.current_tenant()").fetchone() == (None,)
    assert app.execute("select count(*) from pymem.facts").fetchone() == (0,)


def test_a_pooled_connection_carries_no_tenant(two_tenants: Any, db_dsn: str) -> None:
    with make_pool(app_dsn_for(db_dsn), min_size=1, max_size=1) as pool:
        with pool.connection() as conn:
            first_pid = conn.info.backend_pid
            with tenant_transaction(conn, "acme"):
                assert conn.execute("select count(*) from pymem.facts").fetchone() == (1,)
        with pool.connection() as conn:
            assert conn.info.backend_pid == first_pid  # the same connection, reused
            assert conn.execute("select pymem.current_tenant()").fetchone() == (None,)
            assert conn.execute("select count(*) from pymem.facts").fetchone() == (0,)


def test_a_pooled_connection_carries_no_tenant_after_an_error(two_tenants: Any, db_dsn: str) -> None:
    with make_pool(app_dsn_for(db_dsn), min_size=1, max_size=1) as pool:
        with pytest.raises(psycopg.errors.DivisionByZero), pool.connection() as conn:
            first_pid = conn.info.backend_pid
            with tenant_transaction(conn, "acme"):
                conn.execute("select 1 / 0")
        with pool.connection() as conn:
            assert conn.info.backend_pid == first_pid
            assert conn.execute("select pymem.current_tenant()").fetchone() == (None,)
            assert conn.execute("select count(*) from pymem.facts").fetchone() == (0,)


def test_the_pool_discards_a_connection_that_leaked_session_state(two_tenants: Any, db_dsn: str) -> None:
    with make_pool(app_dsn_for(db_dsn), min_size=1, max_size=1) as pool:
        with pool.connection() as conn:
            leaked_pid = conn.info.backend_pid
            conn.execute("select set_config('pymem.tenant_id', 'acme', false)")  # session-wide: a bug
        with pool.connection() as conn:
            assert conn.info.backend_pid != leaked_pid
            assert conn.execute("select count(*) from pymem.facts").fetchone() == (0,)


def test_tenant_ids_are_validated(app: psycopg.Connection[Any]) -> None:
    from pymem.errors import InvalidArgumentError

    for bad in ("", "   ", "x" * 129, None):
        with pytest.raises(InvalidArgumentError), tenant_transaction(app, bad):  # type: ignore[arg-type]
            pass


# Admin elevation


def test_admin_elevation_reads_across_tenants_inside_one_transaction(
    two_tenants: Any, app: psycopg.Connection[Any]
) -> None:
    with admin_transaction(app, "acme", reason="support ticket 42", actor="ops@example.com") as conn:
        assert conn.execute("select current_user").fetchone() == ("pymem_admin",)
        tenants = conn.execute("select distinct tenant_id from pymem.facts order by 1").fetchall()
        assert tenants == [("acme",), ("globex",)]
    assert app.execute("select current_user").fetchone() == ("pymem_app",)
    with tenant_transaction(app, "acme") as conn:
        assert conn.execute("select distinct tenant_id from pymem.facts").fetchall() == [("acme",)]
        event = conn.execute(
            "select operation, db_role, session_role, actor, details from pymem.memory_events"
            " where operation = 'admin_elevation'"
        ).fetchone()
    assert event == ("admin_elevation", "pymem_admin", "pymem_app", "ops@example.com", {"reason": "support ticket 42"})


def test_admin_reads_nothing_across_tenants_without_a_logged_elevation(
    two_tenants: Any, app: psycopg.Connection[Any]
) -> None:
    """SET ROLE pymem_admin alone (even session-wide) opens nothing: the admin policies pass only
    in a transaction that has written its admin_elevation event."""
    app.execute("set role pymem_admin")
    try:
        with app.transaction():
            app.execute("select set_config('pymem.tenant_id', 'acme', true)")
            assert app.execute("select count(*) from pymem.facts").fetchone() == (0,)
            app.execute("select pymem.memory_log_elevation('incident 7')")
            assert app.execute("select count(*) from pymem.facts").fetchone() == (2,)
        with app.transaction():  # the next transaction must log again
            app.execute("select set_config('pymem.tenant_id', 'acme', true)")
            assert app.execute("select count(*) from pymem.facts").fetchone() == (0,)
            assert app.execute("select count(*) from pymem.memory_events").fetchone() == (0,)
    finally:
        app.execute("reset role")


def test_admin_cannot_write_memories(two_tenants: Any, app: psycopg.Connection[Any]) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege), admin_transaction(app, "acme", reason="r") as conn:
        conn.execute("update pymem.facts set content = 'x'")


def test_elevation_is_logged_only_by_the_admin_role(app: psycopg.Connection[Any]) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege), tenant_transaction(app, "acme") as conn:
        conn.execute("select pymem.memory_log_elevation('why not')")
    with pytest.raises(psycopg.Error) as caught, tenant_transaction(app, "acme") as conn:
        conn.execute("set local role pymem_admin")
        conn.execute("select pymem.memory_log_elevation('')")
    assert caught.value.sqlstate == "PM002"


# Append-only audit


@pytest.mark.parametrize(
    "statement", ["update pymem.memory_events set to_state = 'x'", "delete from pymem.memory_events"]
)
def test_memory_events_are_append_only(two_tenants: Any, as_tenant: Tenant, statement: str) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege), as_tenant("acme") as conn:
        conn.execute(statement)


# Analysts bound to a tenant


def test_a_bound_analyst_sees_only_its_tenant(two_tenants: Any, make_login: Any, db_dsn: str) -> None:
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn:
        assert conn.execute("show search_path").fetchone() == ("pymem, public",)
        assert conn.execute("select pymem.current_tenant()").fetchone() == ("acme",)
        for table in TABLES:
            assert conn.execute(f"select distinct tenant_id from pymem.{table}").fetchall() == [("acme",)]
        assert conn.execute("select role_name from pymem_private.role_tenants").fetchall() == [(role,)]


def test_a_bound_analyst_cannot_widen_its_tenant(two_tenants: Any, make_login: Any, db_dsn: str) -> None:
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn:
        conn.execute("select set_config('pymem.tenant_id', 'globex', false)")
        with pytest.raises(psycopg.Error) as caught:
            conn.execute("select count(*) from pymem.facts")
        assert caught.value.sqlstate == "PM004"
        assert isinstance(translate(caught.value), TenantConflictError)
        conn.execute("select set_config('pymem.tenant_id', 'acme', false)")
        assert conn.execute("select distinct tenant_id from pymem.facts").fetchall() == [("acme",)]
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("set role pymem_app")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("select pymem.memory_bind_role(current_user, 'globex')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(
                "insert into pymem.facts (tenant_id, subject, predicate, content) values ('globex','s','p','c')"
            )


def test_a_bound_analyst_writes_into_its_tenant(two_tenants: Any, make_login: Any, db_dsn: str) -> None:
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn:
        row = conn.execute(
            "insert into pymem.facts (subject, predicate, content) values ('user', 'diet', 'vegan')"
            " returning tenant_id, supersedes_id"
        ).fetchone()
        assert row == ("acme", two_tenants["acme"]["fact"])
        event = conn.execute("select db_role, to_state from pymem.memory_events order by id desc limit 1").fetchone()
        assert event == (role, "active")


def test_an_unbound_analyst_sees_nothing(two_tenants: Any, make_login: Any, db_dsn: str) -> None:
    role = make_login(None)
    with connect_as(db_dsn, role) as conn:
        conn.execute("select set_config('pymem.tenant_id', 'acme', false)")
        assert conn.execute("select pymem.current_tenant()").fetchone() == (None,)
        for table in TABLES:
            assert conn.execute(f"select count(*) from pymem.{table}").fetchone() == (0,)


def test_a_login_that_is_no_analyst_has_no_access(two_tenants: Any, make_login: Any, db_dsn: str) -> None:
    role = make_login(None, analyst=False)
    with connect_as(db_dsn, role) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("select count(*) from pymem.facts")


def test_binding_refuses_roles_that_bypass_rls(superuser: psycopg.Connection[Any]) -> None:
    for role in ("postgres", "pymem_app"):
        with pytest.raises(psycopg.Error) as caught:
            superuser.execute("select pymem.memory_bind_role(%s, 'acme')", (role,))
        assert caught.value.sqlstate == "PM002"
    with pytest.raises(psycopg.Error) as caught:
        superuser.execute("select pymem.memory_bind_role('no_such_role_xyz', 'acme')")
    assert caught.value.sqlstate == "PM003"


def test_unbinding_removes_access(
    two_tenants: Any, make_login: Any, superuser: psycopg.Connection[Any], db_dsn: str
) -> None:
    role = make_login("acme")
    assert superuser.execute("select pymem.memory_unbind_role(%s)", (role,)).fetchone() == (True,)
    assert superuser.execute("select pymem.memory_unbind_role(%s)", (role,)).fetchone() == (False,)
    with connect_as(db_dsn, role) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("select count(*) from pymem.facts")
