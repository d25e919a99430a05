"""Keyword statistics kept per tenant, so that the keyword leg of search does not recompute them.

Search's keyword leg ranks by BM25, which needs, per tenant and memory type, the number of searchable
rows (N), their total length (for avgdl) and, per lexeme, how many of them hold it (df). They were
computed from the matched rows on every query, a cost linear in the tenant's size. Now:

- ``pymem.keyword_stats`` (tenant_id, memory_type): docs, total_length (sum of the rows' distinct
  lexemes), min_length (a lower bound of any row's length: never raised when a row leaves);
- ``pymem.keyword_lexemes`` (tenant_id, memory_type, lexeme): df, max_tf (an upper bound of the
  lexeme's positions in any row: never lowered when a row leaves).

A row counts while search can return it: an active fact, a rule or an episode without forgotten_at (an
expired episode counts until the janitor tombstones it). Row triggers (sql/functions/125-keyword-stats.sql)
keep both tables current as memories are stored, superseded, forgotten, expired and deleted; this
migration fills them from the rows already stored (as the migrator, before the triggers exist, in the
same transaction as the sql/ files that create them).

Both tables are tenant data: RLS enabled and forced, tenant policies like the memory tables'
(sql/policies/010-rls.sql).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

create table pymem.keyword_stats (
    tenant_id text not null,
    memory_type text not null,
    docs bigint not null default 0,
    total_length bigint not null default 0,
    min_length integer,
    constraint keyword_stats_pkey primary key (tenant_id, memory_type),
    constraint keyword_stats_tenant_id_check check (tenant_id <> '' and pg_catalog.length(tenant_id) <= 128),
    constraint keyword_stats_memory_type_check check (memory_type in ('fact', 'rule', 'episode'))
) with (fillfactor = 50);

create table pymem.keyword_lexemes (
    tenant_id text not null,
    memory_type text not null,
    lexeme text not null,
    df integer not null default 0,
    max_tf integer not null default 1,
    constraint keyword_lexemes_pkey primary key (tenant_id, memory_type, lexeme),
    constraint keyword_lexemes_tenant_id_check check (tenant_id <> '' and pg_catalog.length(tenant_id) <= 128),
    constraint keyword_lexemes_memory_type_check check (memory_type in ('fact', 'rule', 'episode'))
) with (fillfactor = 80);

reset role;

insert into pymem.keyword_stats (tenant_id, memory_type, docs, total_length, min_length)
select
    m.tenant_id, m.memory_type,
    pg_catalog.count(*) filter (where m.searchable),
    coalesce(pg_catalog.sum(pg_catalog.length(m.search_vector)) filter (where m.searchable), 0),
    pg_catalog.min(pg_catalog.length(m.search_vector))
from (
    select f.tenant_id, 'fact' as memory_type, f.search_vector, f.validity = 'active' as searchable
    from pymem.facts as f
    union all
    select r.tenant_id, 'rule', r.search_vector, r.forgotten_at is null from pymem.rules as r
    union all
    select e.tenant_id, 'episode', e.search_vector, e.forgotten_at is null from pymem.episodes as e
) as m
group by m.tenant_id, m.memory_type;

insert into pymem.keyword_lexemes (tenant_id, memory_type, lexeme, df, max_tf)
select
    m.tenant_id, m.memory_type, u.lexeme,
    pg_catalog.count(*) filter (where m.searchable),
    pg_catalog.max(coalesce(pg_catalog.cardinality(u.positions), 1))
from (
    select f.tenant_id, 'fact' as memory_type, f.search_vector, f.validity = 'active' as searchable
    from pymem.facts as f
    union all
    select r.tenant_id, 'rule', r.search_vector, r.forgotten_at is null from pymem.rules as r
    union all
    select e.tenant_id, 'episode', e.search_vector, e.forgotten_at is null from pymem.episodes as e
) as m
cross join lateral pg_catalog.unnest(m.search_vector) as u (lexeme, positions, weights)
group by m.tenant_id, m.memory_type, u.lexeme;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
