"""A floor that keeps depth: a memory close in meaning to the topic passes the relevance floor (issue 30).

The relevance floor (memory_recall min_relevance) left out memories that answer a question in other words: the
relevance model, fitted with SciFact, gives a paraphrase with no shared word (cosine 0.25-0.42 in MiniLM) a relevance
of 0.005-0.02, below the floor, while what the floor is there to stop (a question the memory cannot answer) reaches
its rows through a keyword with no shared meaning (cosine below 0.3). Now a fact or rule whose cosine to the topic
is at least ``floor_bypass`` (default 0.3, pymem_private.floor_defaults; 1 turns it off) passes the floor whatever
its relevance (pymem_private.floor_passes). ``pymem.butler_settings.floor_bypass`` (NULL: the default) sets it per
butler and memory_recall takes it as an argument, so the signatures of memory_recall, memory_butler_configure,
memory_butler_settings and pymem_private.context_recalled_candidates (which passes the butler's on to memory_recall)
change: they are dropped here and created again by the sql/ files.

Revision ID: 0036
Revises: 0035
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0036"
down_revision: str | None = "0035"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem.memory_recall(
    text, text, integer, double precision, public.vector, double precision, double precision, double precision,
    double precision, timestamptz, text, double precision, integer, boolean, double precision, public.vector,
    public.vector, double precision
);
drop function if exists pymem.memory_butler_configure(
    text, text, double precision, double precision, double precision, double precision, double precision,
    bigint, double precision, double precision, double precision, double precision, bigint, bigint, bigint, bigint,
    text, double precision, double precision
);
drop function if exists pymem.memory_butler_settings(text);
drop function if exists pymem_private.context_recalled_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, double precision, double precision, public.vector, public.vector
);

alter table pymem.butler_settings
    add column floor_bypass double precision,
    add constraint butler_settings_floor_bypass_check
        check (floor_bypass is null or (floor_bypass >= 0 and floor_bypass <= 1));
comment on column pymem.butler_settings.floor_bypass is
'The cosine to the topic at which a memory passes the relevance floor of the butler''s recall whatever its '
'relevance (memory_recall floor_bypass): NULL the default (0.3), 1 off.';

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
