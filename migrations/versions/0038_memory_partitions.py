"""The memory tables partitioned by hash of the tenant: a tenant's searches walk a graph of its partition (issue 31).

pymem.episodes, pymem.facts and pymem.rules held every tenant's rows in one heap with one HNSW graph and one
full-text index each: a tenant's semantic search walked past every other tenant's vectors and needed a search list
sized for the whole table, and a lexeme's posting list held every tenant's rows. At 10 tenants x 100k that made a
tenant's recall as slow as the table, not the tenant. Now each is partitioned by hash (tenant_id) into 16
partitions, pymem_private.<table>_p00 .. _p15 (PYMEM_MEMORY_PARTITIONS, 1..256, when this migration runs, sets
another number): every index of the table is an index of each partition, and a search
bound to one tenant (every search is) reads one partition.

The rows move here: each table is renamed, created again partitioned with the same columns, defaults, checks,
storage and comments, its rows copied, the old table dropped, then its keys, indexes, foreign keys and per-column
statistics targets created again from what the old table had (captured before the rename), so the indexes are
built once over the copied rows rather than row by row. What the old tables' drop takes with it (their triggers,
policies, grants and the SQL-standard functions that read them) the sql/ files create again. A view or function
outside pymem that reads these tables would be dropped too: the migration stops with an error naming it instead.

A partition is a table of its own to PostgreSQL: RLS is enabled and forced on each, with no policy and no grant,
so no role but the owner reads one directly; through its parent the parent's policies apply
(sql/policies/010-rls.sql, applied in the same transaction, sets that on every partition).

Revision ID: 0038
Revises: 0037
Create Date: 2026-11-27
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from alembic import op

revision: str = "0038"
down_revision: str | None = "0037"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

# the number of partitions of each memory table, fixed once made: a tenant's rows live in one of them
DEFAULT_PARTITIONS = 16
MAX_PARTITIONS = 256


def partitions() -> int:
    """PYMEM_MEMORY_PARTITIONS (1..256) when set, else 16: how many partitions each memory table gets."""
    chosen = os.environ.get("PYMEM_MEMORY_PARTITIONS", "").strip() or str(DEFAULT_PARTITIONS)
    if not chosen.isdigit() or not 1 <= int(chosen) <= MAX_PARTITIONS:
        raise ValueError(f"PYMEM_MEMORY_PARTITIONS must be a whole number from 1 to {MAX_PARTITIONS}, not {chosen!r}")
    return int(chosen)


DDL = """
set local role pymem_owner;
set local search_path = pg_catalog, pg_temp;
set local maintenance_work_mem = '256MB';

do $migration$
declare
    tables constant text[] := array['episodes', 'facts', 'rules'];
    modulus constant integer := __PARTITIONS__;
    t text;
    r record;
    keys text[] := '{}';       -- primary keys and indexes, made after the copy
    foreign_keys text[] := '{}';  -- made once every key exists
    finish text[] := '{}';     -- statistics targets and comments
    columns text;
    options text;
    blockers text;
    statement text;
    part text;
    copied bigint;
    expected bigint;
begin
    if (select c.relkind from pg_class as c where c.oid = 'pymem.facts'::regclass) = 'p' then
        return;  -- partitioned already
    end if;

    -- what depends on the tables and is not pymem's own (its functions come back with the sql/ files)
    select string_agg(distinct case
        when w.oid is not null then format('%s %s', case v.relkind when 'm' then 'materialized view' else 'view' end,
                                           v.oid::regclass)
        else pg_describe_object(d.classid, d.objid, d.objsubid)
    end, ', ')
    into blockers
    from pg_depend as d
    left join pg_proc as p on d.classid = 'pg_proc'::regclass and p.oid = d.objid
    left join pg_rewrite as w on d.classid = 'pg_rewrite'::regclass and w.oid = d.objid
    left join pg_class as v on v.oid = w.ev_class
    where
        d.refclassid = 'pg_class'::regclass
        and d.refobjid = any(array['pymem.episodes'::regclass, 'pymem.facts'::regclass, 'pymem.rules'::regclass])
        and (
            (p.oid is not null and p.pronamespace not in ('pymem'::regnamespace, 'pymem_private'::regnamespace))
            or (w.oid is not null and v.oid not in ('pymem.episodes'::regclass, 'pymem.facts'::regclass,
                                                    'pymem.rules'::regclass))
        );
    if blockers is not null then
        raise exception 'cannot partition the memory tables: they are read by %', blockers
            using errcode = 'PM009',
                hint = 'drop those objects, run pymem migrate, then create them again';
    end if;

    -- capture every table's keys, indexes and foreign keys before any is renamed (a foreign key names the table it
    -- references, which its definition would otherwise give by its new name)
    foreach t in array tables loop
        for r in
            select pg_get_constraintdef(c.oid) as def, c.conname, c.contype
            from pg_constraint as c
            where c.conrelid = format('pymem.%I', t)::regclass and c.contype in ('p', 'u', 'x', 'f')
            order by c.conname
        loop
            if r.contype = 'f' then
                foreign_keys := foreign_keys
                    || format('alter table pymem.%I add constraint %I %s', t, r.conname, r.def);
            else
                keys := keys || format('alter table pymem.%I add constraint %I %s', t, r.conname, r.def);
            end if;
        end loop;
        for r in
            select pg_get_indexdef(i.indexrelid) as def
            from pg_index as i
            where
                i.indrelid = format('pymem.%I', t)::regclass
                and not exists (select from pg_constraint as c where c.conindid = i.indexrelid)
            order by i.indexrelid
        loop
            keys := keys || r.def;
        end loop;
        for r in
            select a.attname, a.attstattarget
            from pg_attribute as a
            where a.attrelid = format('pymem.%I', t)::regclass and a.attnum > 0 and not a.attisdropped
                and a.attstattarget is not null and a.attstattarget >= 0
        loop
            finish := finish || format('alter table pymem.%I alter column %I set statistics %s', t, r.attname,
                                       r.attstattarget);
        end loop;
        finish := finish || format('comment on table pymem.%I is %L', t,
                                   obj_description(format('pymem.%I', t)::regclass, 'pg_class'));
    end loop;

    foreach t in array tables loop
        select coalesce(' with (' || array_to_string(c.reloptions, ', ') || ')', '') into options
        from pg_class as c where c.oid = format('pymem.%I', t)::regclass;

        -- the partitioned table, its partitions, the rows
        execute format('alter table pymem.%I rename to %I', t, t || '_unpartitioned');
        execute format(
            'create table pymem.%I (like pymem.%I including comments including compression including constraints'
            ' including defaults including generated including identity including storage)'
            ' partition by hash (tenant_id)', t, t || '_unpartitioned'
        );
        for i in 0 .. modulus - 1 loop
            part := format('%s_p%s', t, lpad(i::text, greatest(2, length((modulus - 1)::text)), '0'));
            execute format(
                'create table pymem_private.%I partition of pymem.%I for values with (modulus %s, remainder %s)%s',
                part, t, modulus, i, options
            );
            execute format(
                'comment on table pymem_private.%I is %L', part,
                format('Partition %s of %s of pymem.%s (hash of tenant_id): read and written through pymem.%s, whose'
                       ' policies apply. RLS forced, no policy and no grant: no role but the owner reads it directly.',
                       i, modulus, t, t)
            );
        end loop;
        select string_agg(quote_ident(a.attname), ', ' order by a.attnum) into columns
        from pg_attribute as a
        where a.attrelid = format('pymem.%I', t)::regclass and a.attnum > 0 and not a.attisdropped
            and a.attgenerated = '';
        -- the owner reads every tenant's rows of the old table (RLS is forced on it; it is dropped below)
        execute format('alter table pymem.%I no force row level security', t || '_unpartitioned');
        execute format('insert into pymem.%I (%s) overriding system value select %s from pymem.%I',
                       t, columns, columns, t || '_unpartitioned');
        get diagnostics copied = row_count;
        execute format('select count(*) from pymem.%I', t || '_unpartitioned') into expected;
        if copied <> expected then
            raise exception 'partitioning pymem.% copied % of its % rows', t, copied, expected
                using errcode = 'PM009', hint = 'nothing was changed; report this';
        end if;
    end loop;

    -- the old tables go (with their triggers, policies and the functions of sql/ that read them), then every key,
    -- index and foreign key is made again, built over the partitions' rows
    drop table pymem.rules_unpartitioned, pymem.facts_unpartitioned, pymem.episodes_unpartitioned cascade;
    foreach statement in array keys || foreign_keys || finish loop
        execute statement;
    end loop;
end;
$migration$;

reset role;
"""


def upgrade() -> None:
    op.execute(DDL.replace("__PARTITIONS__", str(partitions())))


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
