"""A relevance floor per butler (issue 30).

``pymem.butler_settings.min_relevance`` (NULL: the relevance model's default floor; else 0..1) is the floor
memory_recall and memory_context apply for the butler: a butler over casual chat can keep more depth than one that
must say nothing rather than something unrelated. butler.toml says it as ``min_relevance``. The signatures of
memory_butler_configure and memory_butler_settings change (a new argument and a new column): they are dropped here
and created again by the sql/ files, with butler_defaults and butler_settings_for, whose row type gains the column.

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem.memory_butler_configure(
    text, text, double precision, double precision, double precision, double precision, double precision,
    bigint, double precision, double precision, double precision, double precision, bigint, bigint, bigint, bigint, text
);
drop function if exists pymem.memory_butler_settings(text);

alter table pymem.butler_settings
    add column min_relevance double precision,
    add constraint butler_settings_min_relevance_check
        check (min_relevance is null or (min_relevance >= 0 and min_relevance <= 1));

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
