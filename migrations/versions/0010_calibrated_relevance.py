"""Calibrated relevance: the relevance models' table, and search and recall rows with relevance and provenance.

Until now memory_recall's relevance was a rank: the row's RRF score over the best one of the query, so
in a small tenant an unrelated memory was "0.96 relevant". Relevance is now a probability that the row
answers the query, from a small logistic model over the evidence of both legs (cosine similarity, the
keyword score, each leg's rank, the share of the query's words the row holds, ...;
sql/functions/112-relevance.sql). Its coefficients live in a table, so that an operator can see what
ranks and fit a model of their own:

- ``pymem_private.relevance_models`` (name, variant): the features in order, the coefficients (the
  intercept first), the default relevance floor of recall and context, and where it was fitted. The
  variant is the evidence a search had: ``hybrid`` (both legs), ``semantic`` or ``keyword`` (one leg,
  e.g. an analyst's keyword-only recall without a query embedding). No tenant data: like
  embedding_config, only the owner has policies; every role reads it through
  ``pymem.memory_relevance_model()`` (SECURITY DEFINER). The shipped model ('pymem') is written by
  the idempotent sql/functions/113-relevance-coefficients.sql (`pymem eval --fit-relevance` re-fits
  it on training data only).

memory_search and memory_recall change their return types (relevance, relevance evidence and
provenance columns; memory_search takes min_relevance and rerank, memory_recall min_relevance), and
the private candidate function returns each row's relevance: they are dropped here and created again
by the sql/ files. memory_context_candidates returns more provenance columns and takes min_relevance.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

create table pymem_private.relevance_models (
    name text not null,
    variant text not null,
    features text[] not null,
    coefficients double precision[] not null,
    default_floor double precision not null,
    fitted_on jsonb not null default '{}'::jsonb,
    created_at timestamptz not null default now(),
    constraint relevance_models_pkey primary key (name, variant),
    constraint relevance_models_name_check check (name ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
    constraint relevance_models_variant_check check (variant in ('hybrid', 'semantic', 'keyword')),
    constraint relevance_models_shape_check check (
        pg_catalog.cardinality(coefficients) = pg_catalog.cardinality(features) + 1
        and pg_catalog.array_ndims(coefficients) = 1
    ),
    constraint relevance_models_floor_check check (default_floor >= 0 and default_floor <= 1),
    constraint relevance_models_fitted_on_object check (jsonb_typeof(fitted_on) = 'object')
);

-- The owner's policies now (sql/policies/010-rls.sql states them again), so that the sql/ file that
-- writes the shipped model (applied before the policies) can.
alter table pymem_private.relevance_models enable row level security;
alter table pymem_private.relevance_models force row level security;
create policy relevance_models_owner_select on pymem_private.relevance_models
for select to pymem_owner using (true);
create policy relevance_models_owner_insert on pymem_private.relevance_models
for insert to pymem_owner with check (true);
create policy relevance_models_owner_update on pymem_private.relevance_models
for update to pymem_owner using (true) with check (true);

drop function if exists pymem.memory_search(
    text, text[], text, text, integer, double precision, public.vector, double precision, double precision,
    double precision, integer, timestamptz, boolean, double precision
);
drop function if exists pymem.memory_recall(
    text, text, integer, double precision, public.vector, double precision, double precision, double precision,
    double precision, timestamptz, text, double precision, integer, integer, boolean
);
drop function if exists pymem.memory_context_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, double precision
);
drop function if exists pymem_private.memory_candidates(
    text, text, public.vector, text[], text, integer, double precision, timestamptz, boolean, boolean
);

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
