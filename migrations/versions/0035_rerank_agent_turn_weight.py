"""memory_rerank_candidates passes ``agent_turn_weight`` on to memory_search (issue 30).

The MCP tool ``memory_search`` gains ``agent_turn_weight`` (0.9 by default, 1 ranks an assistant's turns as the
user's: a question about what the assistant said). Its cross-encoder path asks memory_search through
memory_rerank_candidates, which now takes the same argument, so its old signature is dropped here and created
again by sql/functions/145-rerank.sql.

Revision ID: 0035
Revises: 0034
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0035"
down_revision: str | None = "0034"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem.memory_rerank_candidates(
    text, text[], text, text, integer, double precision, public.vector, double precision
);

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
