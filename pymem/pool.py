"""Connections of the application role: a pool with pgvector types registered, a
reset hook that refuses to hand out a connection still carrying a tenant or role, and a
check that discards a connection the server has closed (a restart, a failover,
pg_terminate_backend) before it is handed out, so that the next call gets a new one.

Waits are bounded: getting a connection waits at most the pool's timeout
(PYMEM_POOL_TIMEOUT), then fails with psycopg_pool.PoolTimeout, which pymem.errors.translate turns
into a "busy, try again" BusyError; and TenantSlots lets one tenant's calls hold at most part of the
pool, so that calls stuck behind a lock of their own tenant cannot starve the other tenants (nor the
bearer-token checks, which take their connection from the same pool)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import psycopg
from pgvector.psycopg import register_vector
from psycopg import Connection
from psycopg_pool import ConnectionPool, PoolTimeout

from pymem.config import DEFAULT_POOL_SIZE, DEFAULT_POOL_TIMEOUT
from pymem.errors import BusyError


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


class CheckedPool(ConnectionPool[Connection[Any]]):
    """A pool that hands out only a connection that answers. psycopg_pool's own check
    (``check=ConnectionPool.check_connection``) also discards a dead connection, but then waits
    1 s, 2 s, 4 s ... before it tries the next one: after a restart, with every pooled connection
    dead, a call would wait for seconds or time out. Here each dead one costs one failed empty
    query, the pool replaces it in the background, and the next one is tried at once."""

    def getconn(self, timeout: float | None = None) -> Connection[Any]:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise PoolTimeout(f"couldn't get a working connection from {self.name!r} in time")
            conn = super().getconn(timeout=left)
            try:
                conn.execute("")  # one round trip; fails on a connection the server has closed
            except psycopg.Error:
                self.putconn(conn)  # closed: the pool discards it and opens another
                continue
            return conn


def make_pool(
    app_dsn: str,
    *,
    min_size: int = 1,
    max_size: int = DEFAULT_POOL_SIZE,
    open: bool = True,
    read_only: bool = False,
    timeout: float = DEFAULT_POOL_TIMEOUT,
) -> ConnectionPool:
    """A pool of pymem_app connections in autocommit mode: each call opens its own
    transaction with pymem.tenancy.tenant_transaction. read_only: every such transaction is
    READ ONLY (a read replica's pool); timeout: how long getting a connection may wait before
    PoolTimeout (a BusyError to the caller: pymem.errors.translate).

    Every connection is checked (an empty query, one round trip) when it is handed out: one that
    the server closed while it sat in the pool (a restart, a failover, pg_terminate_backend) is
    discarded and replaced, instead of failing the call that got it (CheckedPool;
    tests/test_faults.py terminates the backends under `pymem serve`)."""
    return CheckedPool(
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


class TenantSlots:
    """At most `limit` calls of one tenant at a time hold (or wait for) a pooled connection; a further call
    waits for one of them to end, at most `timeout` seconds, then fails with BusyError. With limit below the
    pool's size, one tenant's calls stuck behind its own locks (an analyst of that tenant holding its rows,
    say) leave connections for every other tenant. Used by pymem.mcp_server around each tool call."""

    def __init__(self, limit: int, timeout: float) -> None:
        if limit < 1:
            raise ValueError(f"a tenant needs at least one slot, not {limit}")
        self.limit = limit
        self.timeout = timeout
        self._slots: dict[str, anyio.Semaphore] = {}

    def in_use(self, tenant: str) -> int:
        """How many calls of tenant hold a slot now."""
        slots = self._slots.get(tenant)
        return 0 if slots is None else self.limit - slots.value

    @asynccontextmanager
    async def slot(self, tenant: str) -> AsyncIterator[None]:
        """Hold one of tenant's slots for the body; BusyError when none is free within the timeout."""
        slots = self._slots.setdefault(tenant, anyio.Semaphore(self.limit))
        got = False
        with anyio.move_on_after(self.timeout):
            await slots.acquire()
            got = True
        if not got:
            raise BusyError(
                f"tenant {tenant!r} already has {self.limit} calls in progress and none ended within {self.timeout:g} s"
            )
        try:
            yield
        finally:
            slots.release()
            if slots.value == self.limit and not slots.statistics().tasks_waiting:
                self._slots.pop(tenant, None)  # idle: forget it (one semaphore per active tenant only)
