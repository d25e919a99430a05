"""The session tenant: set transaction-locally, in the same transaction as the call.

    with pool.connection() as conn, tenant_transaction(conn, "acme"):
        conn.execute("select ...")           # bounded to tenant acme by RLS

The setting ends with the transaction (commit or rollback), so a pooled
connection never carries a tenant into its next use; the pool's reset hook
(pymem.db) checks that as a second guard.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from psycopg import Connection

from pymem.errors import InvalidArgumentError

MAX_TENANT_LENGTH = 128


def validate_tenant_id(tenant_id: object) -> str:
    if not isinstance(tenant_id, str) or not tenant_id.strip():
        raise InvalidArgumentError("a tenant id must be a non-empty string")
    if len(tenant_id) > MAX_TENANT_LENGTH:
        raise InvalidArgumentError(f"a tenant id is at most {MAX_TENANT_LENGTH} characters")
    return tenant_id


@contextmanager
def tenant_transaction(
    conn: Connection[object], tenant_id: str, *, actor: str | None = None
) -> Iterator[Connection[object]]:
    """One transaction bound to tenant_id (and naming the caller, for the audit trail)."""
    tenant = validate_tenant_id(tenant_id)
    with conn.transaction():
        conn.execute(
            "select set_config('pymem.tenant_id', %s, true), set_config('pymem.actor', %s, true)",
            (tenant, actor or ""),
        )
        yield conn


@contextmanager
def admin_transaction(
    conn: Connection[object], tenant_id: str, *, reason: str, actor: str | None = None
) -> Iterator[Connection[object]]:
    """A tenant transaction elevated to pymem_admin (cross-tenant reads), logged in memory_events.

    Only for an authenticated admin caller; the role switch ends with the transaction.
    """
    with tenant_transaction(conn, tenant_id, actor=actor):
        conn.execute("set local role pymem_admin")
        conn.execute("select pymem.memory_log_elevation(%s)", (reason,))
        yield conn
