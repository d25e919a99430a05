"""The session tenant: set transaction-locally, in the same transaction as the call.

    with pool.connection() as conn, tenant_transaction(conn, "acme"):
        conn.execute("select ...")           # bounded to tenant acme by RLS

The setting ends with the transaction (commit or rollback), so a pooled
connection never carries a tenant into its next use; the pool's reset hook
(pymem.pool) checks that as a second guard.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from psycopg import Connection

from pymem import limits
from pymem.errors import InvalidArgumentError
from pymem.operator_client import OperatorClient


def validate_tenant_id(tenant_id: object) -> str:
    """tenant_id, or InvalidArgumentError: the transaction's tenant is a setting, which no SQL function checks when
    it is set (a blank one would see nothing; a longer one than the tables' tenant_id CHECK, limits.TENANT, could
    write nothing), so it is checked here, before it is set."""
    if not isinstance(tenant_id, str) or not tenant_id.strip():
        raise InvalidArgumentError("a tenant id must be a non-empty string")
    if len(tenant_id) > limits.TENANT:
        raise InvalidArgumentError(f"a tenant id is at most {limits.TENANT} characters")
    return tenant_id


@contextmanager
def tenant_transaction(
    conn: Connection[object], tenant_id: str, *, actor: str | None = None, durable: bool = True
) -> Iterator[Connection[object]]:
    """One transaction bound to tenant_id (and naming the caller, for the audit trail). durable=False: a read
    whose only writes are its reference bumps (usage counts): its commit does not wait for the WAL to reach the
    disk (synchronous_commit off for this transaction; a crash may lose the last moments' bumps, never a memory)."""
    tenant = validate_tenant_id(tenant_id)
    with conn.transaction():
        conn.execute(
            "select set_config('pymem.tenant_id', %s, true), set_config('pymem.actor', %s, true)"
            + ("" if durable else ", set_config('synchronous_commit', 'off', true)"),
            (tenant, actor or ""),
        )
        yield conn


@contextmanager
def admin_transaction(
    conn: Connection[object],
    tenant_id: str,
    *,
    reason: str,
    actor: str | None = None,
    details: dict[str, Any] | None = None,
) -> Iterator[Connection[object]]:
    """A tenant transaction elevated to pymem_admin (cross-tenant reads), logged in memory_events.

    Only for an authenticated admin caller; the role switch ends with the transaction. details
    (a JSON object, e.g. ``{"admin_tenant": "ops", "as_tenant": "acme"}``) is recorded in the
    event beside the reason.
    """
    with tenant_transaction(conn, tenant_id, actor=actor):
        conn.execute("set local role pymem_admin")
        OperatorClient(conn).log_elevation(reason=reason, details=details or {})
        yield conn


@contextmanager
def act_as_transaction(
    conn: Connection[object], tenant_id: str, *, admin_tenant: str, reason: str, actor: str | None = None
) -> Iterator[Connection[object]]:
    """An admin caller of admin_tenant acting on tenant_id (the MCP tools' ``as_tenant``).

    Inside one transaction: bind it to tenant_id, switch to pymem_admin and log the elevation
    in tenant_id's audit trail naming both tenants (pymem.memory_log_elevation), then return to
    the login's own role, so the call itself runs under the tenant policies of tenant_id like
    any other. Everything ends with the transaction.
    """
    details = {"admin_tenant": validate_tenant_id(admin_tenant), "as_tenant": tenant_id}
    with tenant_transaction(conn, tenant_id, actor=actor):
        conn.execute("set local role pymem_admin")
        OperatorClient(conn).log_elevation(reason=reason, details=details)
        conn.execute("set local role none")
        yield conn
