"""Advisory locks no tenant can reach (issue 17, finding 1).

Supersession, file imports and consolidation serialise on transaction advisory locks whose keys are
hashes of (tenant, subject, predicate) and the like: predictable, and every role could call
pg_advisory_lock. A bound analyst of tenant A could hold the lock of tenant B's key and block B's writes
(and hold the migration lock). This revision revokes EXECUTE on every advisory-lock function of
pg_catalog from PUBLIC in this database and grants it to pymem_owner; pymem_private.lock_tenant_key
(SECURITY DEFINER, sql/functions/003-tenant-locks.sql) takes the caller's own tenant's locks, and the
migrator (a superuser) keeps its own. Changing the ACL of pg_catalog functions needs a superuser: a
migrator that is not one gets a WARNING, and pymem.memory_rls_audit() reports the functions as open.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
do $$
declare
    v_function regprocedure;
begin
    if not (select rolsuper from pg_catalog.pg_roles where rolname = current_user) then
        raise warning 'pymem 0016: % is not a superuser and cannot revoke the advisory-lock functions from PUBLIC',
            current_user
            using hint = 'As a superuser, revoke EXECUTE on pg_catalog''s pg_*advisory* functions from PUBLIC and '
                         'grant it to pymem_owner; pymem.memory_rls_audit() lists them until then.';
        return;
    end if;
    for v_function in
        select p.oid::regprocedure
        from pg_catalog.pg_proc as p
        where p.pronamespace = 'pg_catalog'::regnamespace and p.proname like 'pg\\_%advisory%'
    loop
        execute pg_catalog.format('revoke execute on function %s from public', v_function);
        execute pg_catalog.format('grant execute on function %s to pymem_owner', v_function);
    end loop;
end;
$$;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
