"""A second encoder beside MiniLM (issue 30): ``pymem.second_embeddings``.

The spec's ``embedding vector(384)`` of MiniLM-L6 stays the default column and leg. A deployment may add a stronger
encoder (all-mpnet-base-v2, 768-d: ``PYMEM_SECOND_ENCODER``); its vectors are kept beside the memories, one row per
memory, in ``pymem.second_embeddings`` (tenant first in the key, the model id and the MD5 of the text embedded, so a
vector of a changed text or of another model is never used), with an HNSW index of its own. Search uses them as a
third retrieval leg (sql/functions/129-second-encoder.sql). ``pymem_private.embedding_config.second_model_id`` is
the configured second model (NULL: none). A deleted memory takes its vector with it (a trigger); RLS is enabled and
forced. memory_candidates, memory_search, memory_recall, memory_context_candidates and context_recalled_candidates
gain an argument (the query's second embedding), so their old signatures are dropped here and created again by the
sql/ files.

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem.memory_search(
    text, text[], text, text, integer, double precision, public.vector, double precision, double precision,
    double precision, integer, timestamptz, boolean, double precision, double precision, boolean,
    double precision, double precision, double precision
);
drop function if exists pymem.memory_recall(
    text, text, integer, double precision, public.vector, double precision, double precision, double precision,
    double precision, timestamptz, text, double precision, integer, boolean, double precision
);
drop function if exists pymem.memory_context_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, integer, double precision, double precision
);
drop function if exists pymem_private.context_recalled_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, double precision, double precision
);
drop function if exists pymem_private.memory_candidates(
    text, text, public.vector, text[], text, integer, double precision, timestamptz, boolean, boolean, boolean
);

alter table pymem_private.embedding_config
    add column second_model_id text,
    add constraint embedding_config_second_model_id_check check (
        second_model_id is null
        or (pg_catalog.btrim(second_model_id) <> '' and pg_catalog.length(second_model_id) <= 200)
    );
comment on column pymem_private.embedding_config.second_model_id is
'The second encoder whose vectors search uses (pymem.second_embeddings), or NULL for none.';

create table pymem.second_embeddings (
    tenant_id text not null,
    memory_type text not null,
    id uuid not null,
    embedding_model text not null,
    content_md5 text not null,
    embedding public.vector(768) not null,
    embedded_at timestamptz not null default now(),
    constraint second_embeddings_pkey primary key (tenant_id, memory_type, id),
    constraint second_embeddings_memory_type_check check (memory_type in ('episode', 'fact', 'rule')),
    constraint second_embeddings_embedding_model_check
        check (pg_catalog.btrim(embedding_model) <> '' and pg_catalog.length(embedding_model) <= 200)
);
-- 3 kB of float4 that never compresses: kept inline (a row fits a page), as the memories' own embeddings are
alter table pymem.second_embeddings alter column embedding set storage plain;
create index second_embeddings_embedding_idx on pymem.second_embeddings
    using hnsw (embedding public.vector_cosine_ops) with (ef_construction = 128);

comment on table pymem.second_embeddings is
'The second encoder''s vector of a memory (id of pymem.episodes, facts or rules, memory_type), with the model and '
'the MD5 of the text embedded: the third retrieval leg (sql/functions/129-second-encoder.sql).';

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
