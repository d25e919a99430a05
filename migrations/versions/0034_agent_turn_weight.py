"""memory_search weighs an assistant's own chat turns below the user's (issue 30): ``agent_turn_weight``.

An episode stored as a chat turn says who spoke ("User: ...", "Assistant: ..."; the Claude Code hooks store turns
so). What the user said is the evidence a question about the user needs; the assistant's long answers match the
same words and crowded the user's turns out of the top results of long histories. memory_search gains an argument,
``agent_turn_weight`` (0.9 by default, 1 off), that multiplies the score of an agent's turn
(``pymem_private.turn_speaker_kind``, sql/functions/255-extraction.sql), so its old signature is dropped here and
created again by sql/functions/140-search.sql.

Revision ID: 0034
Revises: 0033
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0034"
down_revision: str | None = "0033"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem.memory_search(
    text, text[], text, text, integer, double precision, public.vector, double precision, double precision,
    double precision, integer, timestamptz, boolean, double precision, double precision, boolean,
    double precision, double precision, double precision, public.vector, double precision, double precision
);

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
