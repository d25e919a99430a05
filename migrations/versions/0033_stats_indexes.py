"""memory_stats from covering indexes: the first call of a server at 100k memories in ~40 ms (issue 31).

``memory_stats`` (the first tool call an MCP client makes in the bench) counted a tenant's memories in one pass
per table, reading each row: at 100k memories per tenant that is ~400 MB of rows (vectors and text included)
for a few numbers, 110-180 ms of a first call whose target is 1.0 s. The columns it counts are few, so each
memory table gets

- ``*_stats_idx``: a btree on (tenant_id, scope or butler, embedding_model) that INCLUDEs the columns counted
  (validity and the decay inputs of facts; forgotten_at, review state and maturity of rules; forgotten_at,
  expires_at, consolidated and created_at of episodes), read by an index-only scan (~25 MB at 100k facts);
- ``*_unembedded_idx``: a partial btree on (tenant_id, scope or butler) of the rows without an embedding (the
  embedding worker's backlog: few rows), for the count memory_stats takes apart.

Revision ID: 0033
Revises: 0032
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0033"
down_revision: str | None = "0032"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

create index facts_stats_idx on pymem.facts (tenant_id, scope, embedding_model)
    include (validity, confidence, decay_rate, last_confirmed_at);
create index rules_stats_idx on pymem.rules (tenant_id, scope, embedding_model)
    include (forgotten_at, review_state, maturity);
create index episodes_stats_idx on pymem.episodes (tenant_id, butler, embedding_model)
    include (forgotten_at, expires_at, consolidated, created_at);

create index facts_unembedded_idx on pymem.facts (tenant_id, scope) where embedding is null;
create index rules_unembedded_idx on pymem.rules (tenant_id, scope) where embedding is null;
create index episodes_unembedded_idx on pymem.episodes (tenant_id, butler) where embedding is null;

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
