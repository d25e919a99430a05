"""The embedding queue: rows written without an embedding wait here for the embedding worker.

An analyst's memory_store_fact in psql, another application's INSERT or an import without a model leaves a memory
with no embedding: found by keyword only. Triggers (sql/functions/275-embedding-queue.sql) put every live memory
without an embedding into ``pymem.embedding_queue`` (tenant first in the key; the text to embed and its MD5, so
that a write-back can tell the text did not change meanwhile) and NOTIFY ``pymem_embedding``; the worker claims
rows with FOR UPDATE SKIP LOCKED, embeds them in batches and writes back with memory_embedding_complete; a row
embedded, forgotten or deleted leaves the queue. A failed row is retried with backoff (not_before), and after
five tries kept in ``pymem.embedding_failures`` with its error. RLS is enabled and forced on both: tenant roles
read their tenant's rows; the owner (the SECURITY DEFINER triggers and the worker's functions) writes them.

The memories without an embedding at this revision are queued here.

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

create table pymem.embedding_queue (
    tenant_id text not null,
    memory_type text not null,
    memory_id uuid not null,
    content text not null,
    content_md5 text not null,
    enqueued_at timestamptz not null default now(),
    not_before timestamptz not null default now(),
    attempts integer not null default 0,
    last_error text,
    constraint embedding_queue_pkey primary key (tenant_id, memory_type, memory_id),
    constraint embedding_queue_memory_type_check check (memory_type in ('episode', 'fact', 'rule')),
    constraint embedding_queue_attempts_check check (attempts >= 0)
);
create index embedding_queue_due_idx on pymem.embedding_queue (not_before, enqueued_at);

create table pymem.embedding_failures (
    tenant_id text not null,
    memory_type text not null,
    memory_id uuid not null,
    attempts integer not null,
    error text not null,
    failed_at timestamptz not null default now(),
    constraint embedding_failures_pkey primary key (tenant_id, memory_type, memory_id),
    constraint embedding_failures_memory_type_check check (memory_type in ('episode', 'fact', 'rule'))
);

comment on table pymem.embedding_queue is
'Live memories without an embedding, waiting for the embedding worker (sql/functions/275-embedding-queue.sql).';
comment on table pymem.embedding_failures is
'Memories the embedding worker could not embed after five tries, with the last error.';

reset role;

-- as the migrator, who reads every tenant's rows
insert into pymem.embedding_queue (tenant_id, memory_type, memory_id, content, content_md5)
select e.tenant_id, 'episode', e.id, e.content, md5(e.content)
  from pymem.episodes as e where e.embedding is null and e.forgotten_at is null
union all
select f.tenant_id, 'fact', f.id, f.content, md5(f.content)
  from pymem.facts as f where f.embedding is null and f.validity in ('active', 'pending_review')
union all
select r.tenant_id, 'rule', r.id, r.content, md5(r.content)
  from pymem.rules as r where r.embedding is null and r.forgotten_at is null;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
