-- Vector index health: recall@k of each approximate index (HNSW or IVFFlat) on
-- pymem.episodes / facts / rules and pymem.second_embeddings against exact search, overall and by tenant and tag,
-- with the settings searches use (iterative scans, hnsw.ef_search = pymem_private.hnsw_ef_search(k, table)). The first
-- measurement per (index, filter) is its baseline; later ones report the drift from it.
-- It reads every tenant, so it is for operators: an elevated pymem_admin (SET LOCAL ROLE from
-- pymem_app, then pymem.memory_log_elevation: the admin policies) or the migrator login.
-- pymem_app itself gets no grant and no bypass.

-- noqa: disable=RF01
create or replace function pymem_private.vector_indexes()
returns table (
    index_name text,
    table_name text,
    table_oid regclass,
    index_method text,
    index_options text[],
    has_tags boolean,
    is_valid boolean
)
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    with
    -- every build option of every partition's index of a partitioned vector index of pymem: its position in that
    -- index's list, its name and value
    leaf_option as (
        select
            ic.oid as index_oid,
            x.position,
            pg_catalog.split_part(x.opt, '=', 1) as option_name,
            pg_catalog.substr(x.opt, pg_catalog.strpos(x.opt, '=') + 1) as option_value
        from pg_catalog.pg_class as ic
        inner join pg_catalog.pg_namespace as n on ic.relnamespace = n.oid
        inner join pg_catalog.pg_am as am on ic.relam = am.oid
        cross join lateral pg_catalog.pg_partition_tree(ic.oid) as pt
        inner join pg_catalog.pg_class as lc on pt.relid = lc.oid
        cross join lateral pg_catalog.unnest(lc.reloptions) with ordinality as x (opt, position)
        where n.nspname = 'pymem' and ic.relkind = 'I' and am.amname in ('hnsw', 'ivfflat') and pt.isleaf
    ),

    -- per partitioned index and option name the smallest value any partition's index has (numbers compared as
    -- numbers), and where the option first comes in a list
    weakest as (
        select distinct on (l.index_oid, l.option_name)
            l.index_oid,
            l.option_name,
            l.option_value,
            pg_catalog.min(l.position) over (partition by l.index_oid, l.option_name) as first_position
        from leaf_option as l
        order by
            l.index_oid,
            l.option_name,
            case when l.option_value ~ '^[0-9]{1,18}([.][0-9]+)?$' then l.option_value::numeric end nulls last,
            l.option_value
    ),

    partitioned_options as (
        select
            w.index_oid,
            pg_catalog.array_agg(w.option_name || '=' || w.option_value order by w.first_position, w.option_name)
                as index_options
        from weakest as w
        group by w.index_oid
    )

    select
        ic.relname::text as index_name,
        pg_catalog.format('%I.%I', n.nspname, tc.relname) as table_name,
        i.indrelid::regclass as table_oid,
        am.amname::text as index_method,
        -- a partitioned index (relkind 'I': migration 0038) builds no graph of its own and cannot be altered; its
        -- partitions' indexes are built with options of their own: the weakest counts. A plain index: its own.
        case when ic.relkind = 'I' then po.index_options else ic.reloptions end as index_options,
        coalesce(t.has_tags, false) as has_tags,
        i.indisvalid as is_valid
    from pg_catalog.pg_index as i
    inner join pg_catalog.pg_class as ic on i.indexrelid = ic.oid
    inner join pg_catalog.pg_class as tc on i.indrelid = tc.oid
    inner join pg_catalog.pg_namespace as n on tc.relnamespace = n.oid
    inner join pg_catalog.pg_am as am on ic.relam = am.oid
    left join partitioned_options as po on ic.oid = po.index_oid
    left join lateral (
        select true as has_tags from pg_catalog.pg_attribute as a
        where a.attrelid = i.indrelid and a.attname = 'tags' and not a.attisdropped
    ) as t on true
    where
        n.nspname = 'pymem'
        and tc.relname in ('episodes', 'facts', 'rules', 'second_embeddings')
        and am.amname in ('hnsw', 'ivfflat')
    order by tc.relname, ic.relname;
end;

comment on function pymem_private.vector_indexes() is
$$The approximate vector indexes (HNSW, IVFFlat) of pymem.episodes, facts and rules, and of the second encoder's
pymem.second_embeddings, read from the catalog: name,
table, method, build options (reloptions, e.g. {m=4}), whether the table has tags, and whether the index is valid
(a failed REINDEX CONCURRENTLY leaves an invalid one). What memory_index_health measures and maintain rebuilds.
The memory tables are partitioned (migration 0038): their indexes are partitioned indexes, each partition's index a
graph of its own built with options of its own, so their build options are those of the partitions' indexes, per
option the weakest (smallest) value any of them has: one degraded partition's index shows (a plain index, such as
second_embeddings', reports its own).
Example: select * from pymem_private.vector_indexes();$$;


create or replace function pymem_private.index_recall(
    p_table regclass,
    p_filter text,
    p_filter_value text,
    p_sample integer,
    p_k integer,
    p_noise double precision
)
returns table (queries integer, recall double precision)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
set "hnsw.iterative_scan" = 'relaxed_order'
set "ivfflat.iterative_scan" = 'relaxed_order'
set "hnsw.ef_search" = 200
set enable_sort = off
as $$
declare
    v_where text := case p_filter
        when 'tenant' then 't.tenant_id = $1'
        when 'tag' then 't.tags @> pg_catalog.jsonb_build_array($1)'
        else 'true'
    end;
    v_query public.vector;
    v_approx uuid[];
    v_exact uuid[];
    v_queries integer := 0;
    v_found bigint := 0;
    v_wanted bigint := 0;
begin
    perform pg_catalog.set_config('hnsw.ef_search', pymem_private.hnsw_ef_search(p_k, p_table)::text, true);
    for v_query in execute pg_catalog.format(
        'select t.embedding from %s as t where t.embedding is not null and %s
         order by pg_catalog.md5(t.id::text) limit $2', p_table, v_where
    ) using p_filter_value, p_sample loop
        if p_noise > 0 then
            -- a nearby query rather than a stored point (normalised again; cosine ignores length)
            v_query := (
                select pg_catalog.array_agg(x.v + (pg_catalog.random() - 0.5) * 2 * p_noise order by x.n)::public.vector
                from pg_catalog.unnest(v_query::real[]) with ordinality as x (v, n)
            );
        end if;
        -- approximate: the index ordering (sorting is disabled here, so the planner takes the index)
        execute pg_catalog.format(
            'select pg_catalog.array_agg(s.id) from (
                select t.id from %s as t where t.embedding is not null and %s
                order by t.embedding operator(public.<=>) $2 limit $3) as s', p_table, v_where
        ) into v_approx using p_filter_value, v_query, p_k;
        -- exact: cosine_distance() is no index ordering, so this sorts every matching row
        execute pg_catalog.format(
            'select pg_catalog.array_agg(s.id) from (
                select t.id from %s as t where t.embedding is not null and %s
                order by public.cosine_distance(t.embedding, $2), t.id limit $3) as s', p_table, v_where
        ) into v_exact using p_filter_value, v_query, p_k;
        v_queries := v_queries + 1;
        v_wanted := v_wanted + coalesce(pg_catalog.cardinality(v_exact), 0);
        v_found := v_found + (
            select pg_catalog.count(*) from pg_catalog.unnest(v_exact) as e (id)
            where e.id = any(coalesce(v_approx, '{}'))
        );
    end loop;
    if v_queries > 0 then
        return query select v_queries, case when v_wanted = 0 then 1.0 else v_found::double precision / v_wanted end;
    end if;
end;
$$;

comment on function pymem_private.index_recall(regclass, text, text, integer, integer, double precision) is
$$recall@k of the vector index of p_table: for up to p_sample stored embeddings (a fixed sample: ordered by
md5(id)), optionally moved by uniform noise of +-p_noise per dimension, the share of the exact top k (rows matching
p_filter: 'overall', 'tenant' = p_filter_value or 'tag' = p_filter_value) that the index scan returns, with
iterative scans and hnsw.ef_search = pymem_private.hnsw_ef_search(p_k, p_table), as searches. No row when nothing matches.
Example: select * from pymem_private.index_recall('pymem.facts', 'overall', null, 50, 10, 0);$$;


create or replace function pymem.memory_index_health(
    sample integer default 50,
    k integer default 10,
    min_recall double precision default 0.90,
    max_drift double precision default 0.05,
    tenant text default null,
    tag text default null,
    noise double precision default 0,
    save boolean default true,
    action text default 'measured'
)
returns table (
    index_name text,
    table_name text,
    index_method text,
    index_options text[],
    filter_kind text,
    filter_value text,
    sample_size integer,
    recall double precision,
    baseline_recall double precision,
    drift double precision,
    healthy boolean,
    measured_at timestamptz
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_sample integer := pymem_private.require_limit('sample', sample);
    v_k integer := pymem_private.require_limit('k', k);
    v_min_recall double precision := pymem_private.require_range('min_recall', min_recall, 0, 1);
    v_max_drift double precision := pymem_private.require_range('max_drift', max_drift, 0, 1);
    v_noise double precision := pymem_private.require_range('noise', noise, 0, 1);
    v_index record;
    v_filter record;
    v_measured record;
    v_baseline double precision;
    v_drift double precision;
begin
    if memory_index_health.tenant is not null then
        perform pymem_private.require_text('tenant', memory_index_health.tenant, 128);
    end if;
    if memory_index_health.tag is not null then
        perform pymem_private.require_text('tag', memory_index_health.tag, 200);
    end if;
    if memory_index_health.action is null or memory_index_health.action not in ('measured', 'after_rebuild') then
        raise exception 'action must be measured or after_rebuild, not %', coalesce(memory_index_health.action, 'NULL')
            using errcode = 'PM002';
    end if;
    for v_index in
        select x.* from pymem_private.vector_indexes() as x where x.is_valid order by x.table_name, x.index_name
    loop
        for v_filter in
            select 'overall'::text as kind, null::text as value
            union all
            -- the given tenant, else the smallest and the largest with at least k embedded rows
            (
                select 'tenant', t.tenant_id from (
                    select memory_index_health.tenant as tenant_id where memory_index_health.tenant is not null
                    union
                    (select x.tenant_id from pymem_private.tenant_sizes(v_index.table_oid, v_k) as x
                     where memory_index_health.tenant is null order by x.rows_count, x.tenant_id limit 1)
                    union
                    (select x.tenant_id from pymem_private.tenant_sizes(v_index.table_oid, v_k) as x
                     where memory_index_health.tenant is null order by x.rows_count desc, x.tenant_id limit 1)
                ) as t
            )
            union all
            -- the given tag, else the most common one with at least k rows
            select 'tag', g.tag from (
                select memory_index_health.tag as tag where memory_index_health.tag is not null and v_index.has_tags
                union
                select x.tag from pymem_private.common_tag(v_index.table_oid, v_k) as x
                where memory_index_health.tag is null and v_index.has_tags
            ) as g
        loop
            select * into v_measured
            from pymem_private.index_recall(v_index.table_oid, v_filter.kind, v_filter.value, v_sample, v_k, v_noise);
            continue when v_measured is null or v_measured.queries is null;
            select h.recall into v_baseline
            from pymem_private.index_health as h
            where h.baseline and h.index_name = v_index.index_name and h.filter_kind = v_filter.kind
              and h.filter_value is not distinct from v_filter.value;
            v_drift := case when v_baseline > 0 then greatest(0.0, (v_baseline - v_measured.recall) / v_baseline) end;
            if memory_index_health.save then
                insert into pymem_private.index_health (
                    index_name, table_name, index_method, index_options, filter_kind, filter_value,
                    sample_size, k, recall, baseline, action
                ) values (
                    v_index.index_name, v_index.table_name, v_index.index_method, v_index.index_options, v_filter.kind,
                    v_filter.value, v_measured.queries, v_k, v_measured.recall, v_baseline is null,
                    memory_index_health.action
                );
            end if;
            return query select
                v_index.index_name, v_index.table_name, v_index.index_method, v_index.index_options, v_filter.kind,
                v_filter.value, v_measured.queries, v_measured.recall, coalesce(v_baseline, v_measured.recall),
                coalesce(v_drift, 0.0), v_measured.recall >= v_min_recall and coalesce(v_drift, 0.0) <= v_max_drift,
                pg_catalog.now();
        end loop;
    end loop;
end;
$$;

comment on function pymem.memory_index_health(
    integer, integer, double precision, double precision, text, text, double precision, boolean, text
) is
$$Measures recall@k (k = 10 by default) of every vector index of episodes, facts and rules against exact
search, over "sample" stored embeddings as queries (noise: move each by up to +-noise per dimension): overall,
filtered by tenant (the given one, else the smallest and the largest with at least k rows) and by tag (facts and
rules: the given tag, else the most common). The first recorded measurement per (index, filter) is the baseline;
drift = (baseline - recall) / baseline. healthy: recall >= min_recall (0.90) and drift <= max_drift (0.05).
save => false measures without storing. Reads every tenant: an elevated pymem_admin or the migrator only.
Example: select index_name, filter_kind, filter_value, recall, drift, healthy from pymem.memory_index_health();$$;


create or replace function pymem_private.tenant_sizes(p_table regclass, p_min_rows integer)
returns table (tenant_id text, rows_count bigint)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    return query execute pg_catalog.format(
        'select t.tenant_id, pg_catalog.count(*) from %s as t where t.embedding is not null
         group by t.tenant_id having pg_catalog.count(*) >= $1', p_table
    ) using p_min_rows;
end;
$$;

comment on function pymem_private.tenant_sizes(regclass, integer) is
$$Tenants with at least p_min_rows embedded rows in p_table (a memory table), and how many.
Example: select * from pymem_private.tenant_sizes('pymem.facts', 10);$$;


create or replace function pymem_private.common_tag(p_table regclass, p_min_rows integer)
returns table (tag text, rows_count bigint)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    return query execute pg_catalog.format(
        'select g.tag, pg_catalog.count(*) from %s as t
         cross join lateral pg_catalog.jsonb_array_elements_text(t.tags) as g (tag)
         where t.embedding is not null
         group by g.tag having pg_catalog.count(*) >= $1
         order by pg_catalog.count(*) desc, g.tag limit 1', p_table
    ) using p_min_rows;
end;
$$;

comment on function pymem_private.common_tag(regclass, integer) is
$$The most common tag (ties: alphabetical) among embedded rows of p_table (facts or rules), if it has at least
p_min_rows rows.
Example: select * from pymem_private.common_tag('pymem.facts', 10);$$;


create or replace function pymem_private.record_index_rebuild(
    p_index text,
    p_started_at timestamptz,
    p_reason text,
    p_options_before text[],
    p_options_after text[],
    p_recall_before double precision,
    p_recall_after double precision
)
returns bigint
language sql
volatile
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    insert into pymem_private.index_rebuilds (
        index_name, started_at, reason, options_before, options_after, recall_before, recall_after
    ) values (
        p_index, p_started_at, p_reason, p_options_before, p_options_after, p_recall_before, p_recall_after
    )
    returning id;
end;

comment on function pymem_private.record_index_rebuild(
    text, timestamptz, text, text[], text[], double precision, double precision
) is
$$Records a rebuild of a vector index by `pymem maintain` (REINDEX INDEX CONCURRENTLY, after resetting weak build
options): when, why, the options before and after, the worst recall before and after. Called by
pymem.memory_record_index_rebuild (sql/functions/225-index-rebuild.sql). Operators only.
Example: select pymem_private.record_index_rebuild('facts_embedding_idx', now(), 'recall 0.62 < 0.90',
'{m=2}', null, 0.62, 0.99);$$;

comment on table pymem_private.index_health is
$$One row per measurement of a vector index's recall@k against exact search (pymem.memory_index_health): the index,
its method and build options, the filter (overall, tenant = value, tag = value), how many query vectors, k, the
recall, whether it is the baseline of its (index, filter) (the first one recorded) and the action ('measured', or
'after_rebuild' by `pymem maintain`). It names tenants: only an elevated pymem_admin or the migrator reads it.$$;

comment on table pymem_private.index_rebuilds is
$$One row per vector index rebuilt by `pymem maintain` (REINDEX INDEX CONCURRENTLY): when, why, the build options
before and after (weak HNSW options are reset to pgvector's defaults first), the worst recall before and after.$$;
