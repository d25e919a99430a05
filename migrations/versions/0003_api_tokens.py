"""Bearer tokens of the HTTP MCP server; details on admin elevations.

- ``pymem_private.api_tokens``: one row per bearer token, holding only the SHA-256 of the
  token (hex), the tenant it acts for, its scopes (memory:read, memory:write, memory:admin),
  an optional label and expiry, and when it was revoked and last used. Keyed by the token
  rather than by tenant (like ``role_tenants``): a bearer token is resolved before any tenant
  is known. RLS enabled and forced; only the owner has policies, so the application reaches
  it only through ``pymem_private.token_verify`` (SECURITY DEFINER) and operators through
  ``token_issue`` / ``token_list`` / ``token_revoke`` (sql/functions/200-tokens.sql). Its
  comments are in sql/functions/002-catalog-comments.sql with those of the other tables.
- ``pymem.memory_log_elevation(text)`` becomes ``memory_log_elevation(reason text, details
  jsonb default '{}')`` (an admin acting for another tenant names both tenants in the event).
  A signature change: the old function is dropped here, the new one is created by
  sql/functions/050-admin.sql, which is re-applied after this upgrade in the same transaction.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem.memory_log_elevation(text);

create table pymem_private.api_tokens (
    id uuid not null default gen_random_uuid(),
    tenant_id text not null,
    token_hash text not null,
    scopes text[] not null,
    label text,
    created_at timestamptz not null default now(),
    expires_at timestamptz,
    revoked_at timestamptz,
    last_used_at timestamptz,
    constraint api_tokens_pkey primary key (id),
    constraint api_tokens_token_hash_key unique (token_hash),
    constraint api_tokens_tenant_id_check check (tenant_id <> '' and pg_catalog.length(tenant_id) <= 128),
    constraint api_tokens_token_hash_check check (token_hash ~ '^[0-9a-f]{64}$'),
    constraint api_tokens_scopes_check check (
        pg_catalog.cardinality(scopes) > 0
        and pg_catalog.array_ndims(scopes) = 1
        and pg_catalog.array_position(scopes, null) is null
        and scopes <@ array['memory:read', 'memory:write', 'memory:admin']::text[]
    ),
    constraint api_tokens_label_check
        check (label is null or (pg_catalog.btrim(label) <> '' and pg_catalog.length(label) <= 200)),
    constraint api_tokens_expires_after_created check (expires_at is null or expires_at > created_at),
    constraint api_tokens_revoked_after_created check (revoked_at is null or revoked_at >= created_at)
);

create index api_tokens_tenant_idx on pymem_private.api_tokens (tenant_id, created_at);

alter table pymem_private.api_tokens enable row level security;
alter table pymem_private.api_tokens force row level security;

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
