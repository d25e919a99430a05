"""Full-text matching that row-level security lets the GIN index serve.

Under RLS the planner evaluates a query's own conditions only after the policy's, unless their
operator is LEAKPROOF (it may then run them first, inside the index scan). Full text's ``@@``
(``ts_match_vq``) is not marked leakproof, so for the application role the keyword leg of search used
the GIN index ``(tenant_id, search_vector)`` for ``tenant_id`` alone and tested ``@@`` on every row of
the tenant: its cost grew with the tenant (at 100k facts per tenant, 112 ms and 25k buffers for a
two-word OR query, against 49 ms and 6.7k buffers through the index; EXPLAIN ANALYZE in docs/scale.md).

This revision adds ``pymem_private.@@@``: the same match (the same C function, ``ts_match_vq``), declared
LEAKPROOF, and a GIN operator class ``pymem_private.tsvector_lp_ops`` made of the built-in tsvector GIN
support functions with ``@@@`` as its operator; the three ``*_search_idx`` indexes are rebuilt with it.
Why leakproof is true of it: it returns a boolean computed from the row's vector and the caller's
query, raises no error that depends on the row, and has no side effect, so evaluating it on a row of
another tenant tells the caller nothing the policy would hide (the row is still filtered out by the
policy before it is returned). Declaring a function LEAKPROOF and creating an operator class need a
superuser: a migrator that is not one gets the same operator as a plain SQL function (correct, not
index-served: the cost of before this revision) and a NOTICE saying so.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
do $do$
begin
    if (select rolsuper from pg_catalog.pg_roles where rolname = current_user) then
        create function pymem_private.ts_match_leakproof(tsvector, tsquery)
        returns boolean
        language internal
        immutable
        strict
        parallel safe
        leakproof
        as 'ts_match_vq';

        create operator pymem_private.@@@ (
            leftarg = tsvector, rightarg = tsquery, function = pymem_private.ts_match_leakproof,
            restrict = tsmatchsel, join = tsmatchjoinsel
        );

        create operator class pymem_private.tsvector_lp_ops for type tsvector using gin as
            operator 1 pymem_private.@@@ (tsvector, tsquery),
            function 1 gin_cmp_tslexeme(text, text),
            function 2 gin_extract_tsvector(tsvector, internal, internal),
            function 3 gin_extract_tsquery(tsvector, internal, smallint, internal, internal, internal, internal),
            function 4 gin_tsquery_consistent(
                internal, smallint, tsvector, integer, internal, internal, internal, internal
            ),
            function 5 gin_cmp_prefix(text, text, smallint, internal),
            function 6 gin_tsquery_triconsistent(internal, smallint, tsvector, integer, internal, internal, internal),
            storage text;

        drop index pymem.episodes_search_idx;
        drop index pymem.facts_search_idx;
        drop index pymem.rules_search_idx;
        create index episodes_search_idx on pymem.episodes
            using gin (tenant_id, search_vector pymem_private.tsvector_lp_ops);
        create index facts_search_idx on pymem.facts
            using gin (tenant_id, search_vector pymem_private.tsvector_lp_ops);
        create index rules_search_idx on pymem.rules
            using gin (tenant_id, search_vector pymem_private.tsvector_lp_ops);
    else
        raise notice 'pymem: the migrator is not a superuser, so full-text matching is not index-served under RLS'
            using hint = 'Run this migration as a superuser to make keyword search scale with the matched rows.';
        create function pymem_private.ts_match_leakproof(tsvector, tsquery)
        returns boolean
        language sql
        immutable
        strict
        parallel safe
        set search_path = pg_catalog, pg_temp
        return $1 operator(pg_catalog.@@) $2;

        create operator pymem_private.@@@ (
            leftarg = tsvector, rightarg = tsquery, function = pymem_private.ts_match_leakproof,
            restrict = tsmatchsel, join = tsmatchjoinsel
        );
    end if;
    alter function pymem_private.ts_match_leakproof(tsvector, tsquery) owner to pymem_owner;
    comment on function pymem_private.ts_match_leakproof(tsvector, tsquery) is
        'tsvector @@ tsquery (ts_match_vq), LEAKPROOF so that the GIN index serves it under row-level security.';
end;
$do$;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
