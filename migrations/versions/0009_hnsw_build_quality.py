"""HNSW graphs built with ef_construction = 128 (pgvector's default is 64), m = 16 unchanged.

Measured by `make bench-100k` on pymem.facts (151,550 rows of 3 tenants x 100k memories, 100 queries,
recall@10 against an exact scan): with ef_construction 64, recall@10 at hnsw.ef_search 100 / 200 / 400
was 0.887 / 0.932 / 0.952, and 4 / 1 / 1 of the 100 queries found none of their 10 neighbours (the
search stays in the wrong cluster); with ef_construction 128, 0.955 / 0.992 / 0.999, none below 0.8.
The build took 26 s instead of 17 s for 151k rows on 2 cores; each insert searches the graph twice as
wide. Searches now use hnsw.ef_search >= 200 (sql/functions/130-candidates.sql).

This migration only sets the option (ALTER INDEX ... SET, instantaneous): rows inserted from now on are
linked with it; the graph already built keeps its links until the index is rebuilt. To rebuild an
existing large index without blocking writes, as the migrator:
``reindex index concurrently pymem.facts_embedding_idx;`` (and episodes_, rules_), or
``pymem maintain --force`` (docs/operations.md). An IVFFlat index (PYMEM_VECTOR_INDEX=ivfflat at
the first migration) is left as it is.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

do $do$
declare
    v_index text;
begin
    for v_index in
        select c.relname
        from pg_catalog.pg_class as c
        inner join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
        inner join pg_catalog.pg_am as a on a.oid = c.relam
        where n.nspname = 'pymem' and a.amname = 'hnsw'
          and c.relname in ('episodes_embedding_idx', 'facts_embedding_idx', 'rules_embedding_idx')
        order by c.relname
    loop
        execute pg_catalog.format('alter index pymem.%I set (ef_construction = 128)', v_index);
    end loop;
end;
$do$;

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
