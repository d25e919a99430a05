"""The five blocks of memory_context (REQ-MEM-020): System, Project, Task, History, Knowledge.

A butler's context settings were a token-budget share and a candidate count for three sections (facts,
rules, episodes). They are now per block: ``quota_system``, ``quota_project``, ``quota_history``,
``quota_knowledge`` (shares of the budget; the Task block, the trigger prompt restated, is counted with the
headers) and ``max_system``, ``max_project``, ``max_history``, ``max_knowledge`` (candidates per block).
System holds the butler's proven and established rules; Project the recalled facts of the butler's own
scope; History its recent episodes, in conversation order; Knowledge the other recalled facts and rules.

A configured butler keeps its budget split as it was: rules' share and count go to System and half of it to
Knowledge, facts' share half to Project and half to Knowledge, episodes' to History (the rows are rewritten by
the migrator, as in 0011: row-level security is forced on the owner). The old columns are
dropped, and with them the signatures of memory_butler_configure, memory_butler_settings and
memory_context_candidates (re-created by the sql/ files).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem.memory_butler_configure(
    text, text, double precision, double precision, double precision, double precision, double precision,
    bigint, double precision, double precision, double precision, bigint, bigint, bigint, text
);
drop function if exists pymem.memory_butler_settings(text);
drop function if exists pymem.memory_context_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, double precision, double precision
);
drop function if exists pymem_private.butler_settings_for(text, text);
drop function if exists pymem_private.butler_defaults(text, text);

alter table pymem.butler_settings
    add column quota_system double precision,
    add column quota_project double precision,
    add column quota_history double precision,
    add column quota_knowledge double precision,
    add column max_system integer,
    add column max_project integer,
    add column max_history integer,
    add column max_knowledge integer;

-- every tenant's row: as the migrator, not the owner (row-level security is forced on the owner)
reset role;
update pymem.butler_settings set
    quota_system = quota_rules / 2,
    quota_project = quota_facts / 2,
    quota_history = quota_episodes,
    quota_knowledge = quota_facts / 2 + quota_rules / 2,
    max_system = max_rules,
    max_project = max_facts,
    max_history = max_episodes,
    max_knowledge = least(1000, max_facts + max_rules);
set local role pymem_owner;

alter table pymem.butler_settings
    alter column quota_system set not null,
    alter column quota_project set not null,
    alter column quota_history set not null,
    alter column quota_knowledge set not null,
    alter column max_system set not null,
    alter column max_project set not null,
    alter column max_history set not null,
    alter column max_knowledge set not null,
    drop column quota_facts,
    drop column quota_rules,
    drop column quota_episodes,
    drop column max_facts,
    drop column max_rules,
    drop column max_episodes;

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
