-- Rebuilding vector indexes (`pymem maintain`): SQL decides, Python runs the DDL.
-- 1. pymem.memory_index_rebuild_plan reads the latest measurement of each index
--    (pymem.memory_index_health) and returns the indexes to rebuild, why, the HNSW build options
--    to raise to pymem's standard (m = 16, ef_construction = 128) and the exact statements to run;
-- 2. the caller runs those statements as the index owner (pymem_owner) on an autocommit
--    connection: REINDEX INDEX CONCURRENTLY cannot run inside a transaction block, so it cannot
--    run inside a function either (a function always runs in its caller's transaction);
-- 3. the caller measures again (action 'after_rebuild') and records each rebuild with
--    pymem.memory_record_index_rebuild, which reads the options and the recall after from here.

-- noqa: disable=RF01
create or replace function pymem_private.index_weak_options(index_method text, options text[])
returns text[]
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select coalesce(pg_catalog.array_agg(o.option_name order by o.n), '{}')
    from (
        select
            x.n,
            pg_catalog.split_part(x.opt, '=', 1) as option_name,
            pg_catalog.split_part(x.opt, '=', 2) as option_value
        from pg_catalog.unnest(index_weak_options.options) with ordinality as x (opt, n)
    ) as o
    inner join (values ('m', 16), ('ef_construction', 128)) as d (option_name, pymem_standard)
        on o.option_name = d.option_name
    where
        index_weak_options.index_method = 'hnsw'
        and o.option_value ~ '^[0-9]{1,9}$'
        and o.option_value::integer < d.pymem_standard;
end;

comment on function pymem_private.index_weak_options(text, text[]) is
$$The HNSW build options of an index that are below pymem's standard (m = 16, ef_construction = 128: migration
0009), in the order they were given: a rebuild raises them to it (ALTER INDEX ... SET) before the graph is built.
Empty for any other method or when every option is at or above the standard.
Example: select pymem_private.index_weak_options('hnsw', '{m=4,ef_construction=64}');  -- {m}$$;


create or replace function pymem.memory_index_rebuild_statements(index_name text)
returns table (step integer, statement text)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_name text := pymem_private.require_text('index_name', index_name, 63);
    v_index record;
    v_oid regclass;
begin
    select x.index_name, x.index_method, x.table_oid into v_index
    from pymem_private.vector_indexes() as x
    where x.index_name = v_name;
    if not found then
        raise exception 'no vector index pymem.%', v_name
            using errcode = 'PM002',
                  detail = 'index_name must name an HNSW or IVFFlat index of pymem.episodes, facts, rules or second_embeddings',
                  hint = 'select index_name from pymem.memory_index_health(save => false) lists them.';
    end if;
    -- the index lives in its table's schema (pymem)
    select i.indexrelid::regclass into v_oid
    from pg_catalog.pg_index as i
    inner join pg_catalog.pg_class as c on i.indexrelid = c.oid
    where i.indrelid = v_index.table_oid and c.relname = v_index.index_name;
    -- REINDEX INDEX CONCURRENTLY cannot run in a transaction block, hence in no function: these are returned
    -- for the caller to run one by one on an autocommit connection, as the index owner.
    return query
    with built as (
        -- the indexes that hold a graph, each built with options of its own: a plain index itself, or every
        -- partition's index of a partitioned one (which cannot be altered: ALTER INDEX ... SET fails on it), in
        -- name order; position n is step n
        select
            pg_catalog.row_number() over (order by n.nspname, c.relname)::integer as position,
            n.nspname,
            c.relname,
            c.reloptions
        from pg_catalog.pg_class as c
        inner join pg_catalog.pg_namespace as n on c.relnamespace = n.oid
        where
            (c.oid = v_oid and c.relkind = 'i')
            or c.oid in (select t.relid from pg_catalog.pg_partition_tree(v_oid) as t where t.isleaf)
    )
    select s.step, s.statement from (
        -- steps 1 .. n: each built index's HNSW options below pymem's standard raised to it (none: no step)
        select b.position as step, pg_catalog.format(
            'alter index %I.%I set (%s)', b.nspname, b.relname,
            (
                select pg_catalog.string_agg(
                    pg_catalog.quote_ident(r.name) || ' = ' || case r.name when 'm' then '16' else '128' end, ', '
                    order by r.n
                )
                from pg_catalog.unnest(w.weak) with ordinality as r (name, n)
            )
        ) as statement
        from built as b
        cross join lateral pymem_private.index_weak_options(v_index.index_method, b.reloptions) as w (weak)
        where pg_catalog.cardinality(w.weak) > 0
        union all
        -- step n + 1: the rebuild, of every partition's index for a partitioned one
        select (select pg_catalog.count(*) from built)::integer + 1,
            pg_catalog.format('reindex index concurrently pymem.%I', v_index.index_name)
    ) as s
    order by s.step;
end;
$$;

comment on function pymem.memory_index_rebuild_statements(text) is
$$The DDL that rebuilds a vector index, in order: for each index that holds a graph (the index itself, or, for a
partitioned index of a memory table, each partition's index in name order: a partitioned index cannot be altered),
ALTER INDEX ... SET (...) of its HNSW build options below pymem's standard (m = 16, ef_construction = 128) to it,
when there are any (step n: the n-th such index; e.g. alter index pymem_private.facts_p00_embedding_idx set (m = 16)),
then REINDEX INDEX CONCURRENTLY of the index (step n + 1; a partitioned index: every partition's). The caller runs
them as the index owner (pymem_owner) outside any transaction block: REINDEX CONCURRENTLY cannot run inside a
transaction, so no function can run it. PM002 when index_name is no vector index of episodes, facts, rules or
second_embeddings.
Example: select * from pymem.memory_index_rebuild_statements('facts_embedding_idx');$$;


create or replace function pymem.memory_index_rebuild_plan(
    min_recall double precision default 0.90,
    max_drift double precision default 0.05,
    force boolean default false
)
returns table (
    index_name text,
    table_name text,
    index_method text,
    options_before text[],
    reset_options text[],
    filter_kind text,
    filter_value text,
    k integer,
    recall_before double precision,
    drift double precision,
    healthy boolean,
    measured_at timestamptz,
    reason text,
    statements text[]
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_min_recall double precision := pymem_private.require_range('min_recall', min_recall, 0, 1);
    v_max_drift double precision := pymem_private.require_range('max_drift', max_drift, 0, 1);
    v_force boolean := memory_index_rebuild_plan.force;
begin
    if v_force is null then
        raise exception 'force must be true or false, not NULL' using errcode = 'PM002';
    end if;
    return query
    with
    -- each index's latest measurement (one memory_index_health run: every filter it measured)
    latest as (
        select h.*, (
            select b.recall from pymem_private.index_health as b
            where b.baseline and b.index_name = h.index_name and b.filter_kind = h.filter_kind
              and b.filter_value is not distinct from h.filter_value
        ) as baseline_recall
        from pymem_private.index_health as h
        where h.measured_at = (
            select pg_catalog.max(x.measured_at) from pymem_private.index_health as x where x.index_name = h.index_name
        )
    ),
    judged as (
        select l.*, d.drift, l.recall >= v_min_recall and d.drift <= v_max_drift as healthy
        from latest as l
        cross join lateral (
            select case when l.baseline_recall > 0
                        then greatest(0.0, (l.baseline_recall - l.recall) / l.baseline_recall) else 0.0 end as drift
        ) as d
    ),
    -- per index the filter that condemns it: unhealthy first, then the lowest recall
    worst as (
        select distinct on (j.index_name) j.*
        from judged as j
        where v_force or not j.healthy
        order by j.index_name, j.healthy, j.recall, j.filter_kind, j.filter_value nulls first
    )
    select
        w.index_name, c.table_name, c.index_method, c.index_options, r.weak, w.filter_kind, w.filter_value, w.k, w.recall,
        w.drift, w.healthy, w.measured_at,
        pg_catalog.format(
            'recall@%s %s (%s); threshold %s, drift %s (max %s)', w.k, pg_catalog.to_char(w.recall, 'FM0.000'),
            w.filter_kind || coalesce(' ' || w.filter_value, ''), pg_catalog.to_char(v_min_recall, 'FM0.00'),
            pg_catalog.to_char(w.drift * 100, 'FM9990.0') || '%', pg_catalog.to_char(v_max_drift * 100, 'FM990') || '%'
        )
        || case when pg_catalog.cardinality(r.weak) > 0 then pg_catalog.format(
            '; build options %s below pymem''s standard (m=16, ef_construction=128): raised',
            (select pg_catalog.string_agg(o.opt, ', ') from pg_catalog.unnest(c.index_options) as o (opt)
             where pg_catalog.split_part(o.opt, '=', 1) = any(r.weak))
        ) else '' end
        || case when w.healthy then '; forced' else '' end,
        (select pg_catalog.array_agg(s.statement order by s.step)
         from pymem.memory_index_rebuild_statements(w.index_name) as s)
    from worst as w
    inner join pymem_private.vector_indexes() as c on c.index_name = w.index_name
    cross join lateral pymem_private.index_weak_options(c.index_method, c.index_options) as r (weak)
    order by w.index_name;
end;
$$;

comment on function pymem.memory_index_rebuild_plan(double precision, double precision, boolean) is
$$Which vector indexes `pymem maintain` rebuilds, from each index's latest measurement (pymem.memory_index_health):
an index is rebuilt when one of its filters is unhealthy (recall < min_recall, 0.90, or drift = (baseline - recall)
/ baseline > max_drift, 0.05), or always with force. One row per index, for the filter that condemns it (unhealthy
first, then the lowest recall): its current build options, the HNSW options below pymem's standard (m = 16,
ef_construction = 128) that the rebuild raises to it, the reason ("recall@10 0.620 (overall); threshold 0.90, drift 35.2%
(max 5%); build options m=2, ef_construction=4 below pymem's standard (m=16, ef_construction=128): raised", with
"; forced" for a healthy index rebuilt by force) and the statements to run (memory_index_rebuild_statements).
Reads the measurements: an elevated pymem_admin or the migrator.
Example: select index_name, reason, statements from pymem.memory_index_rebuild_plan(force => false);$$;


create or replace function pymem.memory_record_index_rebuild(
    index_name text,
    started_at timestamptz,
    reason text,
    options_before text[],
    recall_before double precision
)
returns table (
    rebuild_id bigint,
    options_after text[],
    recall_after double precision
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_name text := pymem_private.require_text('index_name', index_name, 63);
    v_reason text := pymem_private.require_text('reason', reason, 2000);
    v_started_at timestamptz := memory_record_index_rebuild.started_at;
    v_options_before text[] := memory_record_index_rebuild.options_before;
    v_recall_before double precision := memory_record_index_rebuild.recall_before;
    v_options_after text[];
    v_recall_after double precision;
    v_id bigint;
begin
    if v_started_at is null then
        raise exception 'started_at is required' using errcode = 'PM002';
    end if;
    -- once (tests/test_properties.py): a started_at in the future and a recall_before outside [0, 1] (NaN
    -- included) failed on the table's CHECK constraints (index_rebuilds_finished_check, _recall_check), naming a
    -- constraint instead of the argument
    if v_started_at > pg_catalog.now() then
        raise exception 'started_at must not be in the future, not %', v_started_at using errcode = 'PM002';
    end if;
    if v_recall_before is not null then
        perform pymem_private.require_range('recall_before', v_recall_before, 0, 1);
    end if;
    select x.index_options into v_options_after from pymem_private.vector_indexes() as x where x.index_name = v_name;
    if not found then
        raise exception 'no vector index pymem.%', v_name
            using errcode = 'PM002', hint = 'Record a rebuild after it has run, with the name the plan returned.';
    end if;
    -- the worst recall of the index's latest measurement, if that one was taken after the rebuild
    select pg_catalog.min(h.recall) into v_recall_after
    from pymem_private.index_health as h
    where h.index_name = v_name and h.action = 'after_rebuild'
      and h.measured_at = (select pg_catalog.max(x.measured_at) from pymem_private.index_health as x where x.index_name = v_name);
    v_id := pymem_private.record_index_rebuild(
        v_name, v_started_at, v_reason, v_options_before, v_options_after, v_recall_before, v_recall_after
    );
    return query select v_id, v_options_after, v_recall_after;
end;
$$;

comment on function pymem.memory_record_index_rebuild(text, timestamptz, text, text[], double precision) is
$$Records a rebuild that `pymem maintain` ran (pymem_private.index_rebuilds): the reason and the options and recall
before come from memory_index_rebuild_plan; the options after are read from the catalog, the recall after is the
worst recall of the index's latest measurement when it was taken after the rebuild (action 'after_rebuild'), else
NULL. Returns the new row's id and the options and recall after. Operators only (the migrator).
Example: select * from pymem.memory_record_index_rebuild('facts_embedding_idx', now() - interval '1 minute',
'recall@10 0.620 (overall); threshold 0.90, drift 35.2% (max 5%)', '{m=2}', 0.62);$$;
