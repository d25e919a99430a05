"""When a memory was observed: the store functions take ``observed_at``.

A conversation imported after the fact, an agent that logs what it learned yesterday, or a test of decay needs
to say when a memory was observed; until now every stored row was dated by the transaction that stored it, and
only a superuser's UPDATE could date it otherwise. ``memory_store_episode``, ``memory_store_fact`` and
``memory_store_rule`` take ``observed_at timestamptz default null`` (NULL is now; later than five minutes ahead of
the database's clock is refused with PM002): it becomes the row's ``created_at`` (and a fact's or rule's
``last_confirmed_at``), so recency, confidence decay, ``as_of`` and the order of a session's turns count from it.
A fact observed before the active fact of its subject and predicate is refused: supersession follows the order
of observation. The old signatures are dropped here and created by the sql/ files.

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem.memory_store_episode(
    text, text, uuid, double precision, public.vector, text, integer, jsonb, interval
);
drop function if exists pymem.memory_store_fact(
    text, text, text, double precision, text, text, text[], double precision, text, uuid, public.vector, text,
    integer, jsonb, text, text
);
drop function if exists pymem.memory_store_rule(
    text, text, text[], text, text, uuid, public.vector, text, integer, jsonb, text, text
);

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
