"""The episodes' full-text index is served under row-level security again.

Migration 0011 re-created ``episodes_search_idx`` after re-generating ``episodes.search_vector``, but with
the default tsvector operator class instead of ``pymem_private.tsvector_lp_ops`` (migration 0007). The
keyword leg matches with the LEAKPROOF ``pymem_private.@@@``, which only that operator class indexes: so
since 0011 every keyword search of episodes read the tenant's episodes one by one. At 100k memories per
tenant (`make bench-100k`) memory_search's p95 went from 75 to 505 ms through MCP; a query matching a
word no episode holds cost 40-60 ms in a sequential scan instead of a lookup.

The index is re-created with ``pymem_private.tsvector_lp_ops`` when that operator class exists (a
migrator that was not a superuser at 0007 has none, and keeps the default one, as 0007 left it).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

do $do$
begin
    if exists (
        select from pg_catalog.pg_opclass as c
        join pg_catalog.pg_namespace as n on n.oid = c.opcnamespace
        where n.nspname = 'pymem_private' and c.opcname = 'tsvector_lp_ops'
    ) then
        drop index if exists pymem.episodes_search_idx;
        create index episodes_search_idx on pymem.episodes
            using gin (tenant_id, search_vector pymem_private.tsvector_lp_ops);
    end if;
end;
$do$;

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
