"""No tenant can stop another.

A login bound to tenant A ran `lock table pymem.facts in access exclusive mode` and every tenant's calls
waited for it. Tenant roles now hold no privilege that lets them LOCK a table beyond ROW EXCLUSIVE (no
table-level UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER or MAINTAIN: they write with INSERT, column-level
UPDATE and SECURITY DEFINER deletes); the roles have time limits; and a call that waits too long, for a lock
or for a pooled connection, gets a clear "busy, try again" error instead of hanging.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import psycopg
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.conninfo import make_conninfo

from pymem import bearer_tokens, embedded, migrate
from pymem.embeddings import Embedder
from pymem.errors import BusyError, translate
from pymem.pool import make_pool
from pymem.tenancy import tenant_transaction
from pymem_dev.stress import spawn_http_server
from tests.conftest import Tenant, app_dsn_for, connect_as, migrated_database
from tests.mcpclient import call as call_tool
from tests.sqlapi import call, call_one, store_episode, store_fact, store_rule

# PostgreSQL's table lock modes, weakest first; tenant roles may take the first three at most
MODES = (
    "access share",
    "row share",
    "row exclusive",
    "share update exclusive",
    "share",
    "share row exclusive",
    "exclusive",
    "access exclusive",
)
HARMLESS = frozenset(MODES[:3])  # conflict with no one's reads or writes (only with SHARE and stronger)
QUICK = 2.0  # seconds: a behaviour (not stuck behind the lock holder), not a benchmark


def pymem_tables(conn: psycopg.Connection[Any]) -> list[str]:
    rows = conn.execute(
        """
        select pg_catalog.format('%I.%I', n.nspname, c.relname)
        from pg_catalog.pg_class as c join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
        where n.nspname in ('pymem', 'pymem_private') and c.relkind in ('r', 'p')
        order by 1
        """
    ).fetchall()
    return [r[0] for r in rows]


def take_strongest_lock(conn: psycopg.Connection[Any], table: str) -> str | None:
    """The strongest mode conn may LOCK table in, taken inside conn's open transaction (a savepoint per try)."""
    for mode in reversed(MODES):
        try:
            with conn.transaction():
                conn.execute(sql.SQL("lock table {} in " + mode + " mode nowait").format(sql.SQL(table)))
        except psycopg.errors.InsufficientPrivilege:
            continue
        return mode
    return None


def strongest_locks(conn: psycopg.Connection[Any], tables: list[str]) -> dict[str, str | None]:
    with conn.transaction(force_rollback=True):
        return {table: take_strongest_lock(conn, table) for table in tables}


@pytest.fixture
def analyst(make_login: Any, db_dsn: str) -> Iterator[psycopg.Connection[Any]]:
    """A real login bound to tenant acme (pymem.memory_bind_role): neither superuser nor BYPASSRLS."""
    with connect_as(db_dsn, make_login("acme")) as conn:
        register_vector(conn)
        assert conn.execute(
            "select rolsuper or rolbypassrls from pg_catalog.pg_roles where rolname = current_user"
        ).fetchone() == (False,)
        yield conn


def test_no_tenant_role_can_lock_a_table_beyond_row_exclusive(
    analyst: psycopg.Connection[Any], app: psycopg.Connection[Any], superuser: psycopg.Connection[Any]
) -> None:
    tables = pymem_tables(superuser)
    assert "pymem.facts" in tables and "pymem.keyword_lexemes" in tables
    for conn in (analyst, app):
        found = strongest_locks(conn, tables)
        assert {t: m for t, m in found.items() if m not in HARMLESS and m is not None} == {}
        # the memory tables: written with INSERT, so ROW EXCLUSIVE and no more
        assert found["pymem.facts"] == found["pymem.episodes"] == found["pymem.rules"] == "row exclusive"


@pytest.mark.parametrize("mode", MODES[3:])
def test_a_strong_lock_is_refused_with_42501(analyst: psycopg.Connection[Any], mode: str) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as caught, analyst.transaction():
        analyst.execute("lock table pymem.facts in " + mode + " mode")
    assert caught.value.sqlstate == "42501"


@pytest.mark.parametrize(
    "statement",
    [
        "delete from pymem.facts",
        "truncate pymem.facts",
        "update pymem.facts set content = 'rewritten'",
        "update pymem.episodes set tenant_id = 'globex'",
        "delete from pymem.keyword_lexemes",
        "delete from pymem.butler_settings",
        "select 1 from pymem_private.role_tenants for key share",
    ],
)
def test_an_analyst_writes_only_through_the_columns_and_functions_it_is_given(
    analyst: psycopg.Connection[Any], statement: str
) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege), analyst.transaction():
        analyst.execute(statement)


def test_the_rls_audit_reports_every_tenant_role_lock(
    analyst: psycopg.Connection[Any], superuser: psycopg.Connection[Any]
) -> None:
    login = analyst.execute("select current_user").fetchone()[0]  # type: ignore[index]
    rows = superuser.execute(
        "select object, ok, detail from pymem.memory_rls_audit() where section = 'lock' order by object"
    ).fetchall()
    tables = pymem_tables(superuser)
    for role in ("public", "pymem_app", "pymem_analyst", "pymem_admin", login):
        assert {r[0] for r in rows if r[0].endswith(f" to {role}")} == {f"{t} to {role}" for t in tables}
    assert [r for r in rows if not r[1]] == []
    assert (f"pymem.facts to {login}", True, "strongest LOCK: ROW EXCLUSIVE") in rows
    assert ("pymem_private.api_tokens to pymem_app", True, "no LOCK") in rows
    # a table-level UPDATE granted by hand is reported
    grant = sql.SQL("grant update on pymem.facts to {}").format(sql.Identifier(login))
    try:
        superuser.execute(grant)
        flagged = superuser.execute(
            "select object, detail from pymem.memory_rls_audit() where section = 'lock' and not ok"
        ).fetchall()
    finally:
        superuser.execute(sql.SQL("revoke update on pymem.facts from {}").format(sql.Identifier(login)))
    assert [f[0] for f in flagged] == [f"pymem.facts to {login}"]
    assert "can LOCK it beyond ROW EXCLUSIVE" in flagged[0][1]


def _seed(conn: psycopg.Connection[Any], embedder: Embedder, tenant: str) -> dict[str, Any]:
    return {
        "episode": store_episode(conn, f"{tenant} planned the garden beds on Sunday.", "gardener", embedder),
        "fact": store_fact(conn, "user", "favourite_tree", f"The {tenant} user loves oak trees.", embedder),
        "old_fact": store_fact(conn, "user", "coffee", "The user drinks coffee black.", embedder),
        "rule": store_rule(conn, "Always answer gardening questions with the season in mind.", embedder),
    }


def hold_the_worst_locks(conn: psycopg.Connection[Any], tables: list[str], embedder: Embedder) -> dict[str, Any]:
    """In conn's open transaction: the strongest LOCK on every table, every row lock on every row it can see,
    and writes that hold its tenant's keyword statistics rows and supersession lock. Returns what it took."""
    held: dict[str, Any] = {"tables": {t: take_strongest_lock(conn, t) for t in tables}, "rows": {}}
    for table in tables:
        for clause in ("for update", "for no key update", "for share", "for key share"):
            try:
                with conn.transaction():
                    count = len(conn.execute(sql.SQL("select 1 from {} " + clause).format(sql.SQL(table))).fetchall())
            except psycopg.errors.InsufficientPrivilege:
                continue
            held["rows"][table] = (clause, count)
            break
    store_fact(conn, "user", "coffee", "The user now drinks tea.", embedder)
    store_episode(conn, "A new entry in the garden diary.", "gardener", embedder)
    return held


def test_the_worst_lock_an_analyst_can_take_does_not_hold_up_another_tenant(
    analyst: psycopg.Connection[Any],
    as_tenant: Tenant,
    superuser: psycopg.Connection[Any],
    embedder: Embedder,
) -> None:
    with as_tenant("acme") as conn:
        _seed(conn, embedder, "acme")
    with as_tenant("globex") as conn:
        globex = _seed(conn, embedder, "globex")
    tables = pymem_tables(superuser)
    with analyst.transaction():
        held = hold_the_worst_locks(analyst, tables, embedder)
        assert held["rows"]["pymem.facts"][0] == "for update" and held["rows"]["pymem.facts"][1] == 2
        timings: dict[str, float] = {}
        with as_tenant("globex") as conn:
            # without the fix these wait for the analyst's transaction: fail instead of hanging
            conn.execute("set local statement_timeout = '10s'")
            query = embedder.embed("garden")

            def timed(name: str, work: Callable[[], object]) -> None:
                started = time.monotonic()
                with conn.transaction():
                    work()
                timings[name] = time.monotonic() - started

            timed("store episode", lambda: store_episode(conn, "globex pruned the apple tree.", "gardener", embedder))
            timed("store fact (supersedes)", lambda: store_fact(conn, "user", "coffee", "Now oat latte.", embedder))
            timed("store rule", lambda: store_rule(conn, "Mention frost dates in spring.", embedder))
            timed("recall", lambda: call(conn, "memory_recall", topic="garden", query_embedding=query))
            timed("search", lambda: call(conn, "memory_search", query="oak trees", query_embedding=query))
            timed("get", lambda: call_one(conn, "memory_get", type="fact", id=globex["fact"]))
            timed("confirm", lambda: call_one(conn, "memory_confirm", type="fact", id=globex["fact"]))
            timed("mark helpful", lambda: call_one(conn, "memory_mark_helpful", rule_id=globex["rule"]))
            timed("forget", lambda: call_one(conn, "memory_forget", type="rule", id=globex["rule"]))
            timed("erase", lambda: call(conn, "memory_erase", type="episode", id=globex["episode"]))
            timed("stats", lambda: call(conn, "memory_stats"))
        slow = {name: round(seconds, 2) for name, seconds in timings.items() if seconds >= QUICK}
        assert slow == {}, f"globex's calls waited for acme's analyst: {slow} (it held {held})"
        assert len(timings) == 11


def test_the_roles_have_time_limits(analyst: psycopg.Connection[Any], app: psycopg.Connection[Any]) -> None:
    def settings(conn: psycopg.Connection[Any]) -> tuple[Any, ...]:
        row = conn.execute(
            "select current_setting('lock_timeout'), current_setting('statement_timeout'),"
            " current_setting('idle_in_transaction_session_timeout')"
        ).fetchone()
        assert row is not None
        return tuple(row)

    assert settings(analyst) == ("5s", "5min", "1min")
    assert analyst.execute("select current_setting('transaction_timeout', true)").fetchone() == ("15min",)
    assert settings(app) == ("10s", "10min", "1min")


def test_a_lock_wait_past_lock_timeout_is_a_busy_error(
    connect_app: Callable[[], psycopg.Connection[Any]], as_tenant: Tenant, embedder: Embedder
) -> None:
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "diet", "The user is vegetarian.", embedder)
    holder, waiter = connect_app(), connect_app()
    with tenant_transaction(holder, "acme"):
        holder.execute("select 1 from pymem.facts where id = %s for update", (fact,))
        started = time.monotonic()
        with pytest.raises(psycopg.Error) as caught, tenant_transaction(waiter, "acme"):
            waiter.execute("set local lock_timeout = '300ms'")
            call_one(waiter, "memory_confirm", type="fact", id=fact)
        waited = time.monotonic() - started
    assert caught.value.sqlstate == "55P03" and waited < QUICK
    busy = translate(caught.value)
    assert isinstance(busy, BusyError)
    assert str(busy).startswith("busy, try again: ") and "retry" in str(busy)


def test_a_pool_without_a_free_connection_answers_busy_in_time(db_dsn: str) -> None:
    with make_pool(app_dsn_for(db_dsn), min_size=1, max_size=1, timeout=0.5) as pool, pool.connection():
        errors: list[BaseException] = []
        started = time.monotonic()

        def second_call() -> None:
            try:
                with pool.connection():
                    pass
            except psycopg.Error as exc:
                errors.append(exc)

        thread = threading.Thread(target=second_call)
        thread.start()
        thread.join(timeout=10)
        waited = time.monotonic() - started
    assert len(errors) == 1 and waited < QUICK
    busy = translate(errors[0])  # type: ignore[arg-type]
    assert isinstance(busy, BusyError) and "no database connection became free" in str(busy)


@pytest.fixture
def served_db(pg_server: embedded.EmbeddedServer) -> Iterator[str]:
    """A database of its own for a `pymem serve` process (migrated like a fresh install)."""
    with migrated_database(pg_server, "pymem_lock_isolation") as dsn:
        yield dsn


@asynccontextmanager
async def http_client(url: str, token: str) -> AsyncIterator[Client]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield client


STUCK = 8  # acme's calls stuck behind its analyst's row lock: as many as the server's pool had connections


@pytest.mark.anyio
async def test_one_tenants_stuck_calls_get_busy_and_leave_the_server_to_the_others(
    served_db: str, make_login: Any, tmp_path: Path
) -> None:
    """The issue's scenario through a real `pymem serve --transport http` with its default pool: tenant acme's
    calls stuck behind its own analyst's row lock hold at most acme's share of the pool (half of it), the
    others are answered "busy, try again" within PYMEM_POOL_TIMEOUT instead of hanging, and another tenant's
    initialize (its bearer token is checked on a pooled connection) and calls go through at once."""
    acme, globex = bearer_tokens.create_token(served_db, "acme"), bearer_tokens.create_token(served_db, "globex")
    with psycopg.connect(served_db, autocommit=True) as superuser:
        role = make_login(None, analyst=False)
        superuser.execute("select pymem.memory_bind_role(%s, 'acme')", (role,))
    analyst = psycopg.connect(make_conninfo(served_db, user=role), autocommit=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYMEM_")}
    env.update(
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        PYMEM_DSN=served_db,
        PYMEM_EMBEDDINGS="off",
        PYMEM_POOL_TIMEOUT="2",
        PYMEM_INDEX_CHECK_INTERVAL="0",
    )
    outcomes: list[str] = []

    async def confirm(client: Client, fact: str) -> None:
        result = await client.call_tool("memory_confirm", {"type": "fact", "id": fact})
        outcomes.append(" ".join(getattr(part, "text", "") for part in result.content) if result.is_error else "ok")

    globex_took = float("inf")
    with spawn_http_server(env, tmp_path) as server, analyst:
        fact = str(store_fact(analyst, "user", "diet", "The user is vegetarian."))
        async with http_client(server.url, acme.token) as acme_client, anyio.create_task_group() as tasks:
            with analyst.transaction():
                analyst.execute("select 1 from pymem.facts where id = %s for update", (fact,))
                for _ in range(STUCK):
                    tasks.start_soon(confirm, acme_client, fact)
                await anyio.sleep(1)
                started = time.monotonic()
                with anyio.move_on_after(15):  # without the fix: until acme's calls give their connections back
                    async with http_client(server.url, globex.token) as globex_client:
                        await call_tool(
                            globex_client, "memory_store_fact", subject="user", predicate="home", content="Oslo"
                        )
                        found = await call_tool(globex_client, "memory_search", query="Oslo")
                    globex_took = time.monotonic() - started
                await anyio.sleep(max(0.0, 2.5 - (time.monotonic() - started)))  # past PYMEM_POOL_TIMEOUT
            # the analyst's transaction is over: acme's calls that held a connection complete
    assert globex_took < QUICK and len(found["results"]) == 1
    busy = [o for o in outcomes if o != "ok"]
    assert len(outcomes) == STUCK and len(busy) == STUCK // 2, outcomes
    assert all("busy, try again" in o and "acme" in o for o in busy), busy


@pytest.fixture
def migrating_db(pg_server: embedded.EmbeddedServer) -> Iterator[str]:
    with migrated_database(pg_server, "pymem_lock_migrate") as dsn:
        yield dsn


def test_a_migration_behind_an_open_transaction_gives_up_instead_of_queueing_every_tenant(
    migrating_db: str, make_login: Any
) -> None:
    """pymem migrate re-applies the policies (ALTER TABLE, an ACCESS EXCLUSIVE lock) while an analyst of tenant
    acme sits in an open transaction that read pymem.facts. Every read of facts queues behind the migration's
    lock request for as long as it waits: the migration waits lock_wait_ms at a time, rolls back between tries
    and ends with BusyError naming the session; tenant globex's reads meanwhile go through. Once the transaction
    ends, the migration runs."""
    with psycopg.connect(migrating_db, autocommit=True) as superuser:
        role = make_login(None, analyst=False)
        superuser.execute("select pymem.memory_bind_role(%s, 'acme')", (role,))
    app = psycopg.connect(app_dsn_for(migrating_db), autocommit=True)
    with psycopg.connect(make_conninfo(migrating_db, user=role), autocommit=True) as analyst, app:
        analyst.execute("begin")
        analyst.execute("select count(*) from pymem.facts")
        pid = analyst.info.backend_pid
        failure: list[BaseException] = []

        def run() -> None:
            try:
                migrate.upgrade(migrating_db, lock_wait_ms=400, attempts=4)
            except BaseException as exc:  # handed to the test thread
                failure.append(exc)

        migration = threading.Thread(target=run)
        migration.start()
        reads: list[float] = []
        while migration.is_alive() and len(reads) < 20:
            started = time.monotonic()
            with tenant_transaction(app, "globex"):
                app.execute("set local statement_timeout = '10s'")  # without the bound: fails instead of hanging
                app.execute("select count(*) from pymem.facts")
            reads.append(time.monotonic() - started)
            time.sleep(0.05)
        migration.join(30)
        assert not migration.is_alive()
        assert reads and max(reads) < QUICK, reads
        assert len(failure) == 1 and isinstance(failure[0], BusyError), failure
        assert f"pid {pid} ({role}, idle in transaction" in str(failure[0])
        assert "nothing was applied" in str(failure[0].hint)
        analyst.execute("rollback")
    migrate.upgrade(migrating_db, lock_wait_ms=400, attempts=4)
