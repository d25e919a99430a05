"""An HNSW search list per table: each vector table is searched with the list its own size asks (issue 31).

pymem_private.hnsw_ef_search(depth) sized hnsw.ef_search by the largest vector table, and one statement searched the
three. At 1M rows (10 tenants x 100k) the 151k rules were searched at 1000, the list the 505k facts need. Now
pymem_private.hnsw_ef_search(depth, table) sizes it by the table searched, and memory_candidates runs one semantic
statement per list of types that want about the same (pymem_private.semantic_search_lists), merged by cosine
distance. pymem_private.semantic_candidates returns that distance (its score is clipped at 0, so it cannot order
rows of negative cosine), so its row type changes: it and hnsw_ef_search(integer) are dropped here, and the sql/
files create the new ones.

Revision ID: 0037
Revises: 0036
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0037"
down_revision: str | None = "0036"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem_private.semantic_candidates(
    text, public.vector, text, text[], text[], text, double precision, timestamptz, timestamptz, integer
);
drop function if exists pymem_private.hnsw_ef_search(integer);

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
