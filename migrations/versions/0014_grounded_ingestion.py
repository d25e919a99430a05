"""Grounded ingestion: the provenance of facts and rules, and a review state for what is not auto-approved.

REQ-MEM-023 and NEG-MEM-001: a fact or rule gets a tier when it is stored (sql/functions/118-grounding.sql,
``pymem.memory_ingestion_tier``). Tier 1 is stored as before; tier 2 (an AI-synthesised claim without a
citation, a user's own hedge, text that tries to instruct the agent) is stored for review: a fact with
validity ``'pending_review'``, a rule with review_state ``'pending_review'``, which recall, search and context
skip and which supersedes nothing until ``memory_confirm`` approves it; tier 3 (speculation) is refused with
PM007 and stored nowhere, its audit row (operation ``'refused'``, without the content) written by
``pymem.memory_record_refusal``.

Columns: ``source`` (user_statement, observation, agent_inference, import; NULL for what was stored without
provenance), ``citation`` (a source episode id, a URL or the quoted statement) and ``review_reason`` (why
the tier was given) on facts and rules; ``review_state`` on rules ('approved' or 'pending_review'; a fact's
is its validity). Every existing row is approved: it was stored before tiers existed, as tier 1 is now.

The store functions take ``source`` and ``citation`` and return the review state: their old signatures,
and memory_stats' (which now counts what waits for review), are dropped here and created by the sql/ files.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

alter table pymem.facts
    add column source text,
    add column citation text,
    add column review_reason text,
    add constraint facts_source_check
        check (source in ('user_statement', 'observation', 'agent_inference', 'import')),
    add constraint facts_citation_length check (length(citation) <= 2000),
    drop constraint facts_validity_check,
    add constraint facts_validity_check
        check (validity in ('active', 'superseded', 'retracted', 'expired', 'pending_review'));

alter table pymem.rules
    add column source text,
    add column citation text,
    add column review_state text not null default 'approved',
    add column review_reason text,
    add constraint rules_source_check
        check (source in ('user_statement', 'observation', 'agent_inference', 'import')),
    add constraint rules_citation_length check (length(citation) <= 2000),
    add constraint rules_review_state_check check (review_state in ('approved', 'pending_review'));

-- what waits for review, per tenant (memory_stats, memory_pending_review)
create index facts_pending_review_idx on pymem.facts (tenant_id, created_at) where validity = 'pending_review';
create index rules_pending_review_idx on pymem.rules (tenant_id, created_at) where review_state = 'pending_review';

alter table pymem.memory_events drop constraint memory_events_operation_check;
alter table pymem.memory_events add constraint memory_events_operation_check
    check (operation in ('insert', 'update', 'delete', 'admin_elevation', 'confirm', 'feedback', 'refused'));

drop function if exists pymem.memory_store_fact(
    text, text, text, double precision, text, text, text[], double precision, text, uuid, public.vector, text,
    integer, jsonb
);
drop function if exists pymem.memory_store_rule(
    text, text, text[], text, text, uuid, public.vector, text, integer, jsonb
);
drop function if exists pymem.memory_stats(text, double precision);
drop function if exists pymem.memory_confirm(text, uuid);

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
