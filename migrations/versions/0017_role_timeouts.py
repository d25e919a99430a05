"""Time bounds for the tenant roles (issue 25, finding 1).

A bound analyst held an ACCESS EXCLUSIVE lock on pymem.facts for as long as it liked: every tenant's calls
waited, and lock_timeout, statement_timeout and idle_in_transaction_session_timeout were 0 for every role. The
real fix is that no tenant role holds a privilege to LOCK a table beyond ROW EXCLUSIVE any more
(sql/policies/999-privileges.sql); these role settings (like the search_path memory_bind_role sets, for every
database of the cluster: the roles are pymem's own) are defence in depth:

- pymem_app (the server, the CLI): lock_timeout 10s, statement_timeout 10min (the longest single statements are a
  big import file's or a tenant's janitor dedup), idle_in_transaction_session_timeout 1min;
- each login bound to a tenant before this revision: what pymem.memory_bind_role now sets on every binding
  (sql/functions/060-analysts.sql): lock_timeout 5s, statement_timeout 5min, idle_in_transaction_session_timeout
  1min, transaction_timeout 15min (PostgreSQL 17+).

A role's settings apply to that login only (not to members of pymem_analyst), and a session may SET them
otherwise itself. Setting them needs a superuser or CREATEROLE with ADMIN OPTION on the role: a migrator that
cannot gets a WARNING, and the roles keep their settings.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
do $$
declare
    v_role name;
    v_settings text[];
begin
    for v_role, v_settings in
        select 'pymem_app'::name,
               array['lock_timeout=10s', 'statement_timeout=10min', 'idle_in_transaction_session_timeout=1min']
        union all
        select t.role_name,
               array['lock_timeout=5s', 'statement_timeout=5min', 'idle_in_transaction_session_timeout=1min']
               || case when pg_catalog.current_setting('server_version_num')::integer >= 170000
                       then array['transaction_timeout=15min'] else array[]::text[] end
        from pymem_private.role_tenants as t
        where exists (select from pg_catalog.pg_roles as r where r.rolname = t.role_name)
    loop
        begin
            for i in 1 .. pg_catalog.cardinality(v_settings) loop
                execute pg_catalog.format(
                    'alter role %I set %s = %L', v_role,
                    pg_catalog.split_part(v_settings[i], '=', 1), pg_catalog.split_part(v_settings[i], '=', 2)
                );
            end loop;
        exception when insufficient_privilege then
            raise warning 'pymem 0017: % may not set the time limits of role %', current_user, v_role
                using hint = 'As a superuser, run the ALTER ROLE ... SET statements of migration 0017.';
        end;
    end loop;
end;
$$;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
