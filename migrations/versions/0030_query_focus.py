"""The focus check of recall (issue 30): ``pymem.memory_query_focus`` and ``focus_embedding``.

An off-topic question that names a person the tenant's facts are about ("What musical instrument does Tom play?")
shared that name with every fact about them, and recall answered it. memory_recall, memory_context_candidates and
context_recalled_candidates gain an argument (the embedding of the question's focus: the question without the names
of the tenant's subjects, sql/functions/148-query-focus.sql), memory_recall a second (min_focus), so their old
signatures are dropped here and created again by the sql/ files.

Revision ID: 0030
Revises: 0029
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem.memory_recall(
    text, text, integer, double precision, public.vector, double precision, double precision, double precision,
    double precision, timestamptz, text, double precision, integer, boolean, double precision, public.vector
);
drop function if exists pymem.memory_context_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, integer, double precision, double precision, public.vector
);
drop function if exists pymem_private.context_recalled_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, double precision, double precision, public.vector
);

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
