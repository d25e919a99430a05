"""Maintenance: the configured embedding model, vector index health and index rebuilds.

- ``pymem_private.embedding_config``: one row, the model id that embeds new text (written by
  ``pymem.maintenance.record_embedding_model`` when the server or ``pymem reembed`` starts with a
  model). Rows of pymem.episodes / facts / rules whose ``embedding_model`` differs are flagged for
  re-embedding: the semantic leg of search skips them until ``pymem reembed`` has re-embedded them.
- ``pymem_private.index_health``: one row per measurement of a vector index's recall@k against
  exact search, overall or filtered by tenant or tag (``pymem.memory_index_health``); the first
  measurement per (index, filter) is the baseline that drift is measured against.
- ``pymem_private.index_rebuilds``: one row per rebuild by ``pymem maintain`` (REINDEX
  CONCURRENTLY), with the recall before and after and the build options reset.

These tables are not tenant data: they are keyed by index or by nothing, like api_tokens.
RLS is enabled and forced; the policies (sql/policies/010-rls.sql) let tenant roles read the
configured model only, and pymem_admin (elevated) read and write the health tables.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

create table pymem_private.embedding_config (
    singleton boolean not null default true,
    model_id text not null,
    recorded_at timestamptz not null default now(),
    recorded_by name not null default session_user,
    constraint embedding_config_pkey primary key (singleton),
    constraint embedding_config_singleton_check check (singleton),
    constraint embedding_config_model_id_check
        check (pg_catalog.btrim(model_id) <> '' and pg_catalog.length(model_id) <= 200)
);

create table pymem_private.index_health (
    id bigint generated always as identity,
    measured_at timestamptz not null default now(),
    index_name text not null,
    table_name text not null,
    index_method text not null,
    index_options text[],
    filter_kind text not null,
    filter_value text,
    sample_size integer not null,
    k integer not null,
    recall double precision not null,
    baseline boolean not null default false,
    action text not null default 'measured',
    measured_by name not null default session_user,
    constraint index_health_pkey primary key (id),
    constraint index_health_filter_kind_check check (filter_kind in ('overall', 'tenant', 'tag')),
    constraint index_health_filter_value_check check ((filter_kind = 'overall') = (filter_value is null)),
    constraint index_health_sample_size_check check (sample_size > 0),
    constraint index_health_k_check check (k between 1 and 1000),
    constraint index_health_recall_check check (recall between 0 and 1),
    constraint index_health_action_check check (action in ('measured', 'after_rebuild'))
);

create unique index index_health_one_baseline
    on pymem_private.index_health (index_name, filter_kind, coalesce(filter_value, '')) where baseline;
create index index_health_index_idx on pymem_private.index_health (index_name, measured_at);

create table pymem_private.index_rebuilds (
    id bigint generated always as identity,
    index_name text not null,
    started_at timestamptz not null,
    finished_at timestamptz not null default now(),
    reason text not null,
    options_before text[],
    options_after text[],
    recall_before double precision,
    recall_after double precision,
    rebuilt_by name not null default session_user,
    constraint index_rebuilds_pkey primary key (id),
    constraint index_rebuilds_reason_check check (reason <> ''),
    constraint index_rebuilds_finished_check check (finished_at >= started_at),
    constraint index_rebuilds_recall_check check (
        (recall_before is null or recall_before between 0 and 1)
        and (recall_after is null or recall_after between 0 and 1)
    )
);

create index index_rebuilds_index_idx on pymem_private.index_rebuilds (index_name, finished_at);

alter table pymem_private.embedding_config enable row level security;
alter table pymem_private.embedding_config force row level security;
alter table pymem_private.index_health enable row level security;
alter table pymem_private.index_health force row level security;
alter table pymem_private.index_rebuilds enable row level security;
alter table pymem_private.index_rebuilds force row level security;

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
