"""No large objects for the tenant roles (issue 25, finding 12).

A bound analyst could create large objects (lo_create, lo_from_bytea, ...): they live in pg_largeobject, outside
row-level security and outside every pymem table, so `pymem erase tenant` left them behind (and with them whatever
the tenant wrote there). This revision revokes EXECUTE on the functions of pg_catalog that create a large object
(lo_creat, lo_create, lo_import with one and two arguments, lo_from_bytea) from PUBLIC in this database and grants
it to pymem_owner, as 0016 did for the advisory locks; pymem stores nothing in large objects. Without one of its
own, a tenant role can open (lo_open), read or write no large object: that needs ownership or a grant on it.
Changing the ACL of pg_catalog functions needs a superuser: a migrator that is not one gets a WARNING, and
pymem.memory_rls_audit() reports the functions as open.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
do $$
declare
    v_function regprocedure;
begin
    if not (select rolsuper from pg_catalog.pg_roles where rolname = current_user) then
        raise warning 'pymem 0018: % is not a superuser and cannot revoke the large-object functions from PUBLIC',
            current_user
            using hint = 'As a superuser, revoke EXECUTE on pg_catalog''s lo_creat, lo_create, lo_import and '
                         'lo_from_bytea from PUBLIC and grant it to pymem_owner; pymem.memory_rls_audit() lists '
                         'them until then.';
        return;
    end if;
    for v_function in
        select p.oid::regprocedure
        from pg_catalog.pg_proc as p
        where p.pronamespace = 'pg_catalog'::regnamespace
          and p.proname in ('lo_creat', 'lo_create', 'lo_import', 'lo_from_bytea')
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
