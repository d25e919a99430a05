"""Storage of the memory tables for fast retrieval: room for HOT reference bumps, full text inline.

- ``fillfactor = 75`` on pymem.episodes / facts / rules: retrieval bumps ``reference_count`` and
  ``last_referenced_at`` of every memory it returns. Neither column is indexed, so the update can be
  HOT (heap-only: no new entry in any index) when the page has room for the new row version. With a
  full page (the default fillfactor 100, and rows of ~2.2 kB because of the inline 384-d embedding)
  every bump wrote a new entry into all eight to ten indexes of the table, the HNSW index included:
  ~3 ms per returned memory, and HNSW/GIN bloat. 75 leaves room for one more version of a row of
  up to ~2.7 kB (a row of 384 float4 plus text); at 80, rows of ~2.1 kB still filled their page.
  The price: such rows are stored two to a page instead of three or four (the heap grows by half or
  more; the TOAST table shrinks to the rare long text).
- ``toast_tuple_target = 4080``: a row is compressed or moved out of line only above ~4 kB instead of
  ~2 kB. With the embedding stored inline (storage plain), a typical row is just over 2 kB, so the
  ``search_vector`` of most rows lived in the TOAST table and every full-text match read three more
  pages (TOAST index and chunk) per row; the keyword leg of search spent most of its time there.

Both are table options: they apply to rows written from now on. Existing rows keep their layout
until the table is rewritten (``VACUUM FULL pymem.facts``, or a dump and restore); nothing else changes.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

alter table pymem.episodes set (fillfactor = 75, toast_tuple_target = 4080);
alter table pymem.facts set (fillfactor = 75, toast_tuple_target = 4080);
alter table pymem.rules set (fillfactor = 75, toast_tuple_target = 4080);

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
