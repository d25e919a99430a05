"""Memory schema: roles, extensions, schemas, the five tables and their indexes.

Run once per database. Functions, triggers, policies and grants are NOT here:
they live in the idempotent files under sql/ and are re-applied after every
upgrade (see pymem/migrate.py).

The vector index type is chosen at migration time with PYMEM_VECTOR_INDEX:
``hnsw`` (default) or ``ivfflat`` (20 lists, as in the original spec).

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from alembic import context, op

revision: str = "0001"
down_revision: str | None = None
branch_labels: Sequence[str] | None = ("memory",)
depends_on: Sequence[str] | None = None

VECTOR_INDEX_KINDS = ("hnsw", "ivfflat")

ROLES = """
do $roles$
begin
    -- Owns every table and function; nobody logs in as it.
    if not exists (select from pg_catalog.pg_roles where rolname = 'pymem_owner') then
        create role pymem_owner nologin;
    end if;
    -- The application's login role: never a superuser, never bypasses RLS, owns nothing.
    -- NOINHERIT: membership in pymem_admin gives nothing until SET ROLE.
    if not exists (select from pg_catalog.pg_roles where rolname = 'pymem_app') then
        create role pymem_app login noinherit;
    end if;
    -- The only role whose policies cross tenants; reached by SET LOCAL ROLE only.
    if not exists (select from pg_catalog.pg_roles where rolname = 'pymem_admin') then
        create role pymem_admin nologin;
    end if;
    -- Group role of analyst logins, each bound to one tenant.
    if not exists (select from pg_catalog.pg_roles where rolname = 'pymem_analyst') then
        create role pymem_analyst nologin;
    end if;
end
$roles$;
alter role pymem_owner nologin nosuperuser nobypassrls nocreaterole nocreatedb;
alter role pymem_app login noinherit nosuperuser nobypassrls nocreaterole nocreatedb;
alter role pymem_admin nologin nosuperuser nobypassrls nocreaterole nocreatedb;
alter role pymem_analyst nologin nosuperuser nobypassrls nocreaterole nocreatedb;
alter role pymem_app set search_path = pymem, public;
grant pymem_admin to pymem_app;
"""

EXTENSIONS = """
create extension if not exists vector;
create extension if not exists btree_gin;
create extension if not exists pg_trgm;
do $ext$
begin
    -- gen_random_uuid() is core; uuid-ossp is enabled only where it is installed.
    if exists (select from pg_catalog.pg_available_extensions where name = 'uuid-ossp') then
        create extension if not exists "uuid-ossp";
    end if;
end
$ext$;
do $check$
declare
    v_version text := (select extversion from pg_catalog.pg_extension where extname = 'vector');
begin
    if pg_catalog.string_to_array(v_version, '.')::int[] < array[0, 8] then
        raise exception 'pymem needs pgvector >= 0.8, found %', v_version
            using errcode = 'PM005', hint = 'ALTER EXTENSION vector UPDATE;';
    end if;
    if pg_catalog.current_setting('server_version_num')::int < 150000 then
        raise exception 'pymem needs PostgreSQL >= 15' using errcode = 'PM005';
    end if;
end
$check$;
"""

SCHEMAS = """
create schema if not exists pymem authorization pymem_owner;
alter schema pymem_private owner to pymem_owner;
alter table pymem_private.alembic_version owner to pymem_owner;
alter table pymem_private.alembic_version enable row level security;
alter table pymem_private.alembic_version force row level security;
grant usage on schema public to pymem_owner;
"""

TENANT = "tenant_id text not null"
TENANT_CHECK = "check (tenant_id <> '' and pg_catalog.length(tenant_id) <= 128)"

TABLES = f"""
set local role pymem_owner;

create table pymem.episodes (
    {TENANT},
    id uuid not null default gen_random_uuid(),
    butler text not null,
    session_id uuid,
    content text not null,
    embedding public.vector(384),
    embedding_model text,
    token_count integer,
    search_vector tsvector generated always as (to_tsvector('english'::regconfig, content)) stored,
    importance double precision not null default 5.0,
    reference_count integer not null default 0,
    consolidated boolean not null default false,
    created_at timestamptz not null default now(),
    last_referenced_at timestamptz,
    expires_at timestamptz default (now() + interval '7 days'),
    forgotten_at timestamptz,
    metadata jsonb not null default '{{}}'::jsonb,
    constraint episodes_pkey primary key (tenant_id, id),
    constraint episodes_tenant_id_check {TENANT_CHECK},
    constraint episodes_butler_check check (butler <> ''),
    constraint episodes_content_check check (content <> ''),
    constraint episodes_importance_range check (importance between 0 and 10),
    constraint episodes_reference_count_check check (reference_count >= 0),
    constraint episodes_token_count_check check (token_count >= 0),
    constraint episodes_embedding_model_check check (embedding is null or embedding_model is not null),
    constraint episodes_metadata_object check (jsonb_typeof(metadata) = 'object')
);

create table pymem.facts (
    {TENANT},
    id uuid not null default gen_random_uuid(),
    subject text not null,
    predicate text not null,
    content text not null,
    embedding public.vector(384),
    embedding_model text,
    token_count integer,
    search_vector tsvector generated always as (
        setweight(to_tsvector('english'::regconfig, content), 'A')
        || setweight(to_tsvector('english'::regconfig, subject || ' ' || replace(predicate, '_', ' ')), 'B')
    ) stored,
    importance double precision not null default 5.0,
    confidence double precision not null default 1.0,
    decay_rate double precision not null default 0.008,
    permanence text not null default 'standard',
    source_butler text,
    source_episode_id uuid,
    supersedes_id uuid,
    validity text not null default 'active',
    scope text not null default 'global',
    reference_count integer not null default 0,
    created_at timestamptz not null default now(),
    last_referenced_at timestamptz,
    last_confirmed_at timestamptz not null default now(),
    tags jsonb not null default '[]'::jsonb,
    metadata jsonb not null default '{{}}'::jsonb,
    constraint facts_pkey primary key (tenant_id, id),
    constraint facts_tenant_id_check {TENANT_CHECK},
    constraint facts_subject_check check (subject <> ''),
    constraint facts_predicate_check check (predicate <> ''),
    constraint facts_content_check check (content <> ''),
    constraint facts_importance_range check (importance between 0 and 10),
    constraint facts_confidence_range check (confidence between 0 and 1),
    constraint facts_decay_rate_check check (decay_rate >= 0),
    constraint facts_permanence_check
        check (permanence in ('permanent', 'stable', 'standard', 'volatile', 'ephemeral')),
    constraint facts_validity_check
        check (validity in ('active', 'superseded', 'retracted', 'expired')),
    constraint facts_scope_check check (scope <> ''),
    constraint facts_reference_count_check check (reference_count >= 0),
    constraint facts_token_count_check check (token_count >= 0),
    constraint facts_embedding_model_check check (embedding is null or embedding_model is not null),
    constraint facts_not_self_superseding check (supersedes_id is distinct from id),
    constraint facts_tags_array check (jsonb_typeof(tags) = 'array'),
    constraint facts_metadata_object check (jsonb_typeof(metadata) = 'object'),
    constraint facts_source_episode_fkey foreign key (tenant_id, source_episode_id)
        references pymem.episodes (tenant_id, id) on delete set null (source_episode_id),
    constraint facts_supersedes_fkey foreign key (tenant_id, supersedes_id)
        references pymem.facts (tenant_id, id) on delete set null (supersedes_id)
);

create table pymem.rules (
    {TENANT},
    id uuid not null default gen_random_uuid(),
    content text not null,
    embedding public.vector(384),
    embedding_model text,
    token_count integer,
    search_vector tsvector generated always as (to_tsvector('english'::regconfig, content)) stored,
    scope text not null default 'global',
    maturity text not null default 'candidate',
    confidence double precision not null default 0.5,
    decay_rate double precision not null default 0.008,
    permanence text not null default 'standard',
    effectiveness_score double precision not null default 0.0,
    applied_count integer not null default 0,
    success_count integer not null default 0,
    harmful_count integer not null default 0,
    reference_count integer not null default 0,
    source_episode_id uuid,
    source_butler text,
    created_at timestamptz not null default now(),
    last_applied_at timestamptz,
    last_evaluated_at timestamptz,
    last_referenced_at timestamptz,
    last_confirmed_at timestamptz not null default now(),
    forgotten_at timestamptz,
    tags jsonb not null default '[]'::jsonb,
    metadata jsonb not null default '{{}}'::jsonb,
    constraint rules_pkey primary key (tenant_id, id),
    constraint rules_tenant_id_check {TENANT_CHECK},
    constraint rules_content_check check (content <> ''),
    constraint rules_scope_check check (scope <> ''),
    constraint rules_maturity_check
        check (maturity in ('candidate', 'established', 'proven', 'anti_pattern')),
    constraint rules_confidence_range check (confidence between 0 and 1),
    constraint rules_decay_rate_check check (decay_rate >= 0),
    constraint rules_permanence_check
        check (permanence in ('permanent', 'stable', 'standard', 'volatile', 'ephemeral')),
    constraint rules_counts_check check (
        applied_count >= 0 and success_count >= 0 and harmful_count >= 0 and reference_count >= 0
    ),
    constraint rules_token_count_check check (token_count >= 0),
    constraint rules_embedding_model_check check (embedding is null or embedding_model is not null),
    constraint rules_tags_array check (jsonb_typeof(tags) = 'array'),
    constraint rules_metadata_object check (jsonb_typeof(metadata) = 'object'),
    constraint rules_source_episode_fkey foreign key (tenant_id, source_episode_id)
        references pymem.episodes (tenant_id, id) on delete set null (source_episode_id)
);

create table pymem.memory_links (
    {TENANT},
    source_type text not null,
    source_id uuid not null,
    target_type text not null,
    target_id uuid not null,
    relation text not null,
    created_at timestamptz not null default now(),
    constraint memory_links_pkey primary key (tenant_id, source_type, source_id, target_type, target_id),
    constraint memory_links_tenant_id_check {TENANT_CHECK},
    constraint memory_links_source_type_check check (source_type in ('episode', 'fact', 'rule')),
    constraint memory_links_target_type_check check (target_type in ('episode', 'fact', 'rule')),
    constraint memory_links_relation_check
        check (relation in ('derived_from', 'supports', 'contradicts', 'supersedes', 'related_to')),
    constraint memory_links_not_self check ((source_type, source_id) <> (target_type, target_id))
);

create table pymem.memory_events (
    {TENANT},
    id bigint generated always as identity,
    occurred_at timestamptz not null default clock_timestamp(),
    transaction_id xid8 not null default pg_current_xact_id(),
    memory_type text,
    memory_id uuid,
    operation text not null,
    from_state text,
    to_state text,
    db_role text not null default current_user,
    session_role text not null default session_user,
    actor text default nullif(pg_catalog.current_setting('pymem.actor', true), ''),
    details jsonb not null default '{{}}'::jsonb,
    constraint memory_events_pkey primary key (tenant_id, id),
    constraint memory_events_tenant_id_check {TENANT_CHECK},
    constraint memory_events_memory_type_check check (memory_type in ('episode', 'fact', 'rule')),
    constraint memory_events_operation_check
        check (operation in ('insert', 'update', 'delete', 'admin_elevation')),
    constraint memory_events_details_object check (jsonb_typeof(details) = 'object')
);

-- Who is bound to which tenant: the one table keyed by role rather than tenant.
create table pymem_private.role_tenants (
    role_name name not null,
    tenant_id text not null,
    bound_at timestamptz not null default now(),
    bound_by name not null default session_user,
    constraint role_tenants_pkey primary key (role_name),
    constraint role_tenants_tenant_id_check {TENANT_CHECK}
);

alter table pymem.episodes alter column embedding set storage plain;
alter table pymem.facts alter column embedding set storage plain;
alter table pymem.rules alter column embedding set storage plain;

-- Indexes: tenant_id leads every index except the vector ones (HNSW and IVFFlat
-- index one column; the tenant filter is applied during the iterative scan).
create index episodes_butler_created_idx on pymem.episodes (tenant_id, butler, created_at desc);
create index episodes_expires_idx on pymem.episodes (tenant_id, expires_at) where expires_at is not null;
create index episodes_unconsolidated_idx on pymem.episodes (tenant_id, created_at) where not consolidated;
create index episodes_search_idx on pymem.episodes using gin (tenant_id, search_vector);

create index facts_scope_active_idx on pymem.facts (tenant_id, scope, validity) where validity = 'active';
create index facts_subject_predicate_idx on pymem.facts (tenant_id, subject, predicate);
create unique index facts_one_active_per_subject_predicate
    on pymem.facts (tenant_id, subject, predicate) where validity = 'active';
create index facts_search_idx on pymem.facts using gin (tenant_id, search_vector);
create index facts_tags_idx on pymem.facts using gin (tenant_id, tags);
create index facts_source_episode_idx on pymem.facts (tenant_id, source_episode_id)
    where source_episode_id is not null;
create index facts_supersedes_idx on pymem.facts (tenant_id, supersedes_id) where supersedes_id is not null;

create index rules_scope_maturity_idx on pymem.rules (tenant_id, scope, maturity);
create index rules_search_idx on pymem.rules using gin (tenant_id, search_vector);
create index rules_tags_idx on pymem.rules using gin (tenant_id, tags);
create index rules_source_episode_idx on pymem.rules (tenant_id, source_episode_id)
    where source_episode_id is not null;

create index memory_links_target_idx on pymem.memory_links (tenant_id, target_type, target_id);
create index memory_events_memory_idx on pymem.memory_events (tenant_id, memory_type, memory_id, occurred_at);
create index memory_events_elevation_idx on pymem.memory_events (tenant_id, transaction_id)
    where operation = 'admin_elevation';
create index role_tenants_tenant_idx on pymem_private.role_tenants (tenant_id, role_name);

reset role;
"""


def vector_index_kind() -> str:
    """pymem.migrate.upgrade(vector_index=...) first, then PYMEM_VECTOR_INDEX, then hnsw."""
    chosen = context.config.attributes.get("vector_index") or os.environ.get("PYMEM_VECTOR_INDEX") or "hnsw"
    kind = str(chosen).strip().lower()
    if kind not in VECTOR_INDEX_KINDS:
        raise ValueError(f"PYMEM_VECTOR_INDEX must be one of {VECTOR_INDEX_KINDS}, not {kind!r}")
    return kind


def vector_indexes(kind: str) -> str:
    using = "hnsw (embedding vector_cosine_ops)"
    if kind == "ivfflat":
        using = "ivfflat (embedding vector_cosine_ops) with (lists = 20)"
    statements = ["set local role pymem_owner;"]
    for table in ("episodes", "facts", "rules"):
        statements.append(f"create index {table}_embedding_idx on pymem.{table} using {using};")
    statements.append("reset role;")
    return "\n".join(statements)


def upgrade() -> None:
    kind = vector_index_kind()
    op.execute(ROLES)
    op.execute(EXTENSIONS)
    op.execute(SCHEMAS)
    op.execute(TABLES)
    op.execute(vector_indexes(kind))


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
