"""An exact keyword top-k that does not read every row of a common word (issue 31).

The pruned BM25 top-k of the keyword leg (sql/functions/128-keyword-scores.sql) reads rows in groups, one
group per set of query words a row holds, by descending score bound. When the rarer words of a query are in
no row of the tenant ("carla symptoms and medicine"), the one group left is every row holding the common
word, and all of them could still enter the top k: at 100k memories per tenant that was ~18k rows and
~65 ms, the slowest 5% of the bench's recalls and searches.

Inside such a group every row's score is one word's BM25 term, idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b *
dl / avgdl)): for the rows holding the word once (tf = 1) it only falls as the row's length dl grows. So
the group's top k is the rows holding it more than once (few), all scored, and the first k rows holding it
once in order of length (then created_at DESC, id: the top-k's own order of ties). Two indexes per memory
table serve that:

- ``*_repeated_lexemes_idx``: GIN on (tenant_id, ``pymem_private.repeated_lexemes(search_vector)``), the
  lexemes a row holds at more than one position (most rows: none), with the ``@@@`` operator class when
  migration 0007 could make it;
- ``*_search_length_idx``: btree on (tenant_id, length(search_vector), created_at DESC, id), read in order
  until k rows of the group are found.

Revision ID: 0032
Revises: 0031
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
-- LEAKPROOF (as 0007's @@@, and for the same reason: it returns a value computed from the row's vector alone and
-- raises no error that depends on the row), so that under row-level security the index on it serves a match of
-- it; declaring that needs a superuser: another migrator gets the function without it (correct, not index-served
-- for the application role) and a NOTICE
do $do$
declare
    v_leakproof boolean := (select r.rolsuper from pg_catalog.pg_roles as r where r.rolname = current_user);
begin
    execute $f$
        create function pymem_private.repeated_lexemes(p_vector tsvector)
        returns tsvector
        language sql
        immutable
        strict
        parallel safe
        return pg_catalog.array_to_tsvector(array(
            select u.lexeme from pg_catalog.unnest(p_vector) as u (lexeme, positions, weights)
            where pg_catalog.cardinality(u.positions) >= 2
            order by u.lexeme
        ))
    $f$;
    if v_leakproof then
        alter function pymem_private.repeated_lexemes(tsvector) leakproof;
    else
        raise notice 'pymem: the migrator is not a superuser, so repeated_lexemes is not LEAKPROOF'
            using hint = 'Run this migration as a superuser to keep common-word keyword searches fast under RLS.';
    end if;
    alter function pymem_private.repeated_lexemes(tsvector) owner to pymem_owner;
end;
$do$;

comment on function pymem_private.repeated_lexemes(tsvector) is
$$The lexemes of a search vector held at more than one position (a stripped vector: none), as a tsvector without
positions: what the *_repeated_lexemes_idx indexes hold, so that the keyword leg finds the rows where a word's term
frequency is above 1 (pymem_private.memory_keyword_common).
Example: select pymem_private.repeated_lexemes(to_tsvector('english', 'tea, more tea and a cake'));  -- 'tea'$$;

set local role pymem_owner;

do $do$
declare
    v_ops text := case when exists (
        select from pg_catalog.pg_opclass as c
        where c.opcname = 'tsvector_lp_ops' and c.opcnamespace = 'pymem_private'::regnamespace
    ) then 'pymem_private.tsvector_lp_ops' else '' end;
    v_table text;
begin
    foreach v_table in array array['facts', 'rules', 'episodes'] loop
        execute pg_catalog.format(
            'create index %I on pymem.%I using gin (tenant_id, pymem_private.repeated_lexemes(search_vector) %s)',
            v_table || '_repeated_lexemes_idx', v_table, v_ops
        );
        execute pg_catalog.format(
            'create index %I on pymem.%I (tenant_id, pg_catalog.length(search_vector), created_at desc, id)',
            v_table || '_search_length_idx', v_table
        );
    end loop;
end;
$do$;

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
