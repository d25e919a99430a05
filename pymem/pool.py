"""Connections of the application role: a pool with pgvector types registered and a
reset hook that refuses to hand out a connection still carrying a tenant or role."""

from __future__ import annotations

from typing import Any

from pgvector.psycopg import register_vector
from psycopg import Connection
from psycopg_pool import ConnectionPool


class LeakedSessionStateError(RuntimeError):
    """A returned connection still had a tenant or a role set; the pool discards it."""


def _configure(conn: Connection[Any]) -> None:
    register_vector(conn)


def _configure_read_only(conn: Connection[Any]) -> None:
    register_vector(conn)
    conn.read_only = True  # every transaction of the pool is BEGIN READ ONLY


def _reset(conn: Connection[Any]) -> None:
    # The tenant is transaction-local, so this is a second guard, not the mechanism.
    conn.execute("reset role")
    row = conn.execute(
        "select coalesce(current_setting('pymem.tenant_id', true), ''), current_user = session_user"
    ).fetchone()
    if row is None or row[0] != "" or not row[1]:
        raise LeakedSessionStateError(f"connection returned with session state {row!r}")


def make_pool(
    app_dsn: str,
    *,
    min_size: int = 1,
    max_size: int = 8,
    open: bool = True,
    read_only: bool = False,
    timeout: float = 30.0,
) -> ConnectionPool:
    """A pool of pymem_app connections in autocommit mode: each call opens its own
    transaction with pymem.tenancy.tenant_transaction. read_only: every such transaction is
    READ ONLY (a read replica's pool); timeout: how long getting a connection may wait."""
    return ConnectionPool(
        app_dsn,
        min_size=min_size,
        max_size=max_size,
        kwargs={"autocommit": True},
        configure=_configure_read_only if read_only else _configure,
        reset=_reset,
        open=open,
        timeout=timeout,
        name="pymem-replica" if read_only else "pymem",
    )
