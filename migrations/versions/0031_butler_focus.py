"""The focus check per butler (issue 30).

``pymem.butler_settings.min_focus`` (NULL: the default, 0.225; 0 turns the check off; else 0..1) is the focus
check memory_recall applies for the butler (sql/functions/148-query-focus.sql): a butler whose topics are tasks
rather than questions about someone ("plan dinner for the user", where an allergy matters) can turn it off.
butler.toml says it as ``min_focus``. The signatures of memory_butler_configure and memory_butler_settings change
(a new argument and a new column): they are dropped here and created again by the sql/ files, with
butler_defaults and butler_settings_for, whose row type gains the column.

Revision ID: 0031
Revises: 0030
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem.memory_butler_configure(
    text, text, double precision, double precision, double precision, double precision, double precision,
    bigint, double precision, double precision, double precision, double precision, bigint, bigint, bigint, bigint,
    text, double precision
);
drop function if exists pymem.memory_butler_settings(text);

alter table pymem.butler_settings
    add column min_focus double precision,
    add constraint butler_settings_min_focus_check
        check (min_focus is null or (min_focus >= 0 and min_focus <= 1));
comment on column pymem.butler_settings.min_focus is
'The focus check of the butler''s recall (memory_recall min_focus): NULL the default (0.225), 0 off.';

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
