"""Conversation context, narrowed: an episode is found by the end of the previous turn, not by all of it.

Measured on hand-written chats nobody wrote for the code (eval/conversations: 16 short chats of friends and 6 long
histories of one user with an assistant, train split), the whole previous turn in an episode's search text cost
more than it gave: a long assistant answer before a user's turn drowned the turn's own words, and the turn after a
statement matched it as well as the statement did. hybrid nDCG@10 over the episodes of the long histories was
0.314, below plain BM25 on the same turns (0.321); with the previous turn's last ten words as keyword context and
an embedding of the episode alone it is 0.43 (0.50 on the short chats, from 0.46). A reply such as "Yes, last
Tuesday." is still found by the question it answers: the question is the end of the turn before it.

- ``episodes.search_vector`` is generated again as content (weight A) || the last ten words of
  retrieval_context (weight B); ``retrieval_context`` keeps the whole previous turn (memory_erase matches it);
  the GIN index is rebuilt, the column keeps no planner statistics (0020), and the keyword statistics of episodes
  are recomputed from the new vectors.
- An episode is embedded from its own content (pymem_private.episode_embedding_text, sql/functions/
  122-session-context.sql). Embeddings stored before are left as they are: episodes expire (7 days by default),
  and ``pymem reembed`` re-embeds what is left.

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = r"""
set local role pymem_owner;

drop trigger if exists episodes_keyword_stats_update on pymem.episodes;
drop index if exists pymem.episodes_search_idx;
-- SQL-bodied functions that read the column (re-created by the sql/ files after the migrations)
drop function if exists pymem_private.semantic_candidates(
    text, public.vector, text, text[], text[], text, double precision, timestamptz, timestamptz, integer
);
drop function if exists pymem_private.keyword_candidates(
    text, text, text[], text, integer, double precision, timestamptz, timestamptz, boolean, text[], text[]
);
drop function if exists pymem_private.searchable_episodes(text, text, timestamptz);

alter table pymem.episodes drop column search_vector;
-- the last ten words of the previous turn: where the question a reply answers is
alter table pymem.episodes add column search_vector tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, content), 'A')
    || setweight(
        to_tsvector(
            'english'::regconfig,
            coalesce(substring(retrieval_context from '((?:\S+\s+){0,9}\S+)\s*$'), '')
        ),
        'B'
    )
) stored;

-- what a tenant wrote: no planner statistics (migration 0020)
alter table pymem.episodes alter column search_vector set statistics 0;
-- with the leakproof operator class where it exists (migrations 0007 and 0013), so @@@ stays an index condition
do $do$
begin
    if exists (
        select from pg_catalog.pg_opclass as c
        join pg_catalog.pg_namespace as n on n.oid = c.opcnamespace
        where n.nspname = 'pymem_private' and c.opcname = 'tsvector_lp_ops'
    ) then
        create index episodes_search_idx on pymem.episodes
            using gin (tenant_id, search_vector pymem_private.tsvector_lp_ops);
    else
        create index episodes_search_idx on pymem.episodes using gin (tenant_id, search_vector);
    end if;
end;
$do$;

reset role;

-- keyword statistics of episodes, from the new vectors (as migration 0011 computed them)
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
