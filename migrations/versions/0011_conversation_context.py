"""Conversation context: an episode of a session is also found by what it answers.

A reply such as "Yes, last Tuesday, with my sister." holds none of the words of the question it answers
("When did the user visit the museum?"). Each episode with a session_id now keeps, in
``retrieval_context``, the content of the previous episode of its session (set at insert by the trigger
in sql/functions/122-session-context.sql), and its keyword search text includes it:

- ``episodes.retrieval_context`` (text, NULL outside a session) and ``episodes.session_position``
  (1, 2, ... within the session: the order of the conversation, since every episode stored in one
  transaction has the same created_at);
- ``episodes.search_vector`` is generated again as content (weight A) || retrieval_context (weight B);
  the GIN index is rebuilt. Existing episodes get their session position and previous turn here (by
  created_at, then id), so their search text changes; the keyword statistics of episodes are
  recomputed from the new vectors.

memory_get also returns the provenance of the memory (confidence, source_butler, session_id,
source_episode_id, source_path, stored_by), as search and recall rows do since 0010: it is dropped here and
created again by the sql/ files.

The embedding of an episode is the caller's (the MCP server embeds the previous turn and the episode
together: pymem.episode_text). Existing embeddings are left as they are.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

-- memory_get returns the provenance of the memory too (REQ-MEM-021): a new return type
drop function if exists pymem.memory_get(text, uuid);

drop trigger if exists episodes_keyword_stats_update on pymem.episodes;
drop index if exists pymem.episodes_search_idx;

alter table pymem.episodes
    add column retrieval_context text,
    add column session_position integer,
    add constraint episodes_session_position_check check (session_position >= 1),
    add constraint episodes_retrieval_context_check
        check (retrieval_context is null or pg_catalog.length(retrieval_context) <= 100000);

alter table pymem.episodes drop column search_vector;
alter table pymem.episodes add column search_vector tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, content), 'A')
    || setweight(to_tsvector('english'::regconfig, coalesce(retrieval_context, '')), 'B')
) stored;

create index episodes_search_idx on pymem.episodes using gin (tenant_id, search_vector);
create index episodes_session_idx on pymem.episodes (tenant_id, session_id, session_position)
    where session_id is not null;

reset role;

-- the order of every session so far, and each episode's previous turn
with ordered as (
    select
        e.tenant_id, e.id,
        pg_catalog.row_number() over (
            partition by e.tenant_id, e.session_id order by e.created_at, e.id
        )::integer as position,
        pg_catalog.lag(e.content) over (
            partition by e.tenant_id, e.session_id order by e.created_at, e.id
        ) as previous
    from pymem.episodes as e
    where e.session_id is not null
)
update pymem.episodes as e
   set session_position = o.position, retrieval_context = o.previous
  from ordered as o
 where e.tenant_id = o.tenant_id and e.id = o.id;

-- keyword statistics of episodes, from the new vectors (as migration 0008 computed them)
delete from pymem.keyword_lexemes where memory_type = 'episode';
delete from pymem.keyword_stats where memory_type = 'episode';

insert into pymem.keyword_stats (tenant_id, memory_type, docs, total_length, min_length)
select
    e.tenant_id, 'episode',
    pg_catalog.count(*) filter (where e.forgotten_at is null),
    coalesce(pg_catalog.sum(pg_catalog.length(e.search_vector)) filter (where e.forgotten_at is null), 0),
    pg_catalog.min(pg_catalog.length(e.search_vector))
from pymem.episodes as e
group by e.tenant_id;
"""

LEXEMES = """
insert into pymem.keyword_lexemes (tenant_id, memory_type, lexeme, df, max_tf)
select
    e.tenant_id, 'episode', u.lexeme,
    pg_catalog.count(*) filter (where e.forgotten_at is null),
    pg_catalog.max(coalesce(pg_catalog.cardinality(u.positions), 1))
from pymem.episodes as e
cross join lateral pg_catalog.unnest(e.search_vector) as u (lexeme, positions, weights)
group by e.tenant_id, u.lexeme;
"""


def upgrade() -> None:
    op.execute(DDL)
    op.execute(LEXEMES)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
