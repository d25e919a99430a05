"""Memory API support: fact validity intervals, trigram indexes, feedback events.

- ``facts.invalidated_at``: when a fact stopped being believed (superseded, retracted or
  expired). With ``created_at`` it gives the interval in which the fact was valid, which
  ``memory_recall(..., as_of => ...)`` reads. Maintained by a trigger (sql/functions);
  back-filled here from the audit trail.
- pg_trgm GIN indexes on ``content`` (tenant first) for the CJK trigram and ILIKE keyword
  tiers of hybrid search.
- ``memory_events.operation`` also records ``confirm`` and ``feedback`` (helpful/harmful),
  which change no lifecycle state but are state changes the audit trail owes.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

alter table pymem.facts add column invalidated_at timestamptz;
alter table pymem.facts add constraint facts_invalidated_after_created
    check (invalidated_at is null or invalidated_at >= created_at);

alter table pymem.memory_events drop constraint memory_events_operation_check;
alter table pymem.memory_events add constraint memory_events_operation_check
    check (operation in ('insert', 'update', 'delete', 'admin_elevation', 'confirm', 'feedback'));

create index episodes_content_trgm_idx on pymem.episodes using gin (tenant_id, content public.gin_trgm_ops);
create index facts_content_trgm_idx on pymem.facts using gin (tenant_id, content public.gin_trgm_ops);
create index rules_content_trgm_idx on pymem.rules using gin (tenant_id, content public.gin_trgm_ops);
create index facts_validity_interval_idx on pymem.facts (tenant_id, created_at, invalidated_at);

reset role;
"""

# Facts that are no longer active: when they left 'active', from the audit trail, else
# (no event, e.g. written before the trail existed) their creation time. The migrator is a
# superuser or DBA, so RLS does not hide other tenants' rows here.
BACKFILL = """
update pymem.facts as f
   set invalidated_at = greatest(f.created_at, coalesce((
        select min(e.occurred_at)
          from pymem.memory_events as e
         where e.tenant_id = f.tenant_id
           and e.memory_type = 'fact'
           and e.memory_id = f.id
           and e.from_state = 'active'
           and e.to_state <> 'active'
       ), f.created_at))
 where f.validity <> 'active' and f.invalidated_at is null;
"""


def upgrade() -> None:
    op.execute(DDL)
    op.execute(BACKFILL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
