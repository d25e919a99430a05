"""A bearer-token scope for human reviewers, memory:review (issue 25, finding 3).

What was kept for review (a fact or rule drawn from text that steers the agent) is approved, and a rule the agent
inferred becomes standing behaviour, only when someone other than the agent confirms it
(pymem_private.caller_may_review, sql/functions/160-get-confirm.sql). Over HTTP that someone is the holder of a
token with the new scope memory:review (`pymem token create --review`): this revision lets api_tokens.scopes
hold it. It also says, in the comment of rules.confirmed_at, that only a reviewer sets that column now.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

alter table pymem_private.api_tokens drop constraint api_tokens_scopes_check;
alter table pymem_private.api_tokens add constraint api_tokens_scopes_check check (
    pg_catalog.cardinality(scopes) > 0
    and pg_catalog.array_ndims(scopes) = 1
    and pg_catalog.array_position(scopes, null) is null
    and scopes <@ array['memory:read', 'memory:write', 'memory:admin', 'memory:review']::text[]
);

comment on column pymem.rules.confirmed_at is
'When a reviewer last confirmed the rule with memory_confirm (NULL: never; a reviewer is a bound analyst, a token '
'with the scope memory:review or pymem review approve: pymem_private.caller_may_review); see '
'pymem_private.rule_is_standing.';

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
