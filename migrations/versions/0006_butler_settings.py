"""Butler settings in the database: the settings that rank, kept per tenant and butler.

``pymem.butler_settings`` holds, per (tenant, butler), what a butler.toml says: the scope it recalls,
memory_recall's four score weights, the episode TTL and the memory_context budget, section quotas and
section sizes. The server writes it from the operator's butler.toml files (``pymem butler sync`` does the
same by hand) through ``pymem.memory_butler_configure``, and the SQL functions read it: memory_recall takes
the weights of the butler its scope names, memory_store_episode the butler's TTL, memory_context_candidates
and memory_context_select the butler's scope, section sizes, budget and quotas. So a psql analyst and an MCP
agent get the same ranking for the same butler. A butler without a row has the defaults.

The table is tenant data: RLS enabled and forced, tenant policies like the memory tables'
(sql/policies/010-rls.sql); the value ranges are checked once, by memory_butler_configure.

Signature and return type changes (dropped here, re-created by the sql/ files):
- require_section_limit takes a bigint, so that a butler.toml integer too large for integer is refused
  by name, not by a cast;
- memory_context_candidates gains a token_count column;
- memory_store_episode / memory_store_fact / memory_store_rule return what was stored (memory_type,
  memory_id, tenant_id, embedded, supersedes_id, expires_at) instead of the bare id, so that the MCP
  store tools report it without a second query.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

create table pymem.butler_settings (
    tenant_id text not null,
    butler text not null,
    scope text not null,
    w_relevance double precision not null,
    w_importance double precision not null,
    w_recency double precision not null,
    w_confidence double precision not null,
    episode_ttl interval not null,
    context_token_budget integer not null,
    quota_facts double precision not null,
    quota_rules double precision not null,
    quota_episodes double precision not null,
    max_facts integer not null,
    max_rules integer not null,
    max_episodes integer not null,
    source text,
    updated_at timestamptz not null default now(),
    constraint butler_settings_pkey primary key (tenant_id, butler),
    constraint butler_settings_tenant_id_check check (tenant_id <> '' and pg_catalog.length(tenant_id) <= 128)
);

reset role;

drop function if exists pymem.memory_context_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, double precision
);
drop function if exists pymem_private.require_section_limit(text, integer);  -- now (text, bigint)
drop function if exists pymem.memory_store_episode(
    text, text, uuid, double precision, public.vector, text, integer, jsonb, interval
);
drop function if exists pymem.memory_store_fact(
    text, text, text, double precision, text, text, text[], double precision, text, uuid, public.vector, text,
    integer, jsonb
);
drop function if exists pymem.memory_store_rule(
    text, text, text[], text, text, uuid, public.vector, text, integer, jsonb
);
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
