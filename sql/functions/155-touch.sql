-- noqa: disable=RF01
-- memory_touch_references: the reference bumps of reads that a read replica served. A hot standby
-- cannot write, so memory_search, memory_recall and memory_get skip their bump there (in any read-only
-- transaction); the MCP server then forwards the memories it returned to the primary with this function,
-- in one transaction bound to the same tenant, so the bumps are applied late rather than lost.

create or replace function pymem.memory_touch_references(
    memory_types text[],
    memory_ids uuid[],
    referenced_at timestamptz default null
)
returns integer
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    -- the moment of the read; never later than now (a client clock ahead cannot date a reference in the future)
    v_at timestamptz := least(coalesce(referenced_at, pg_catalog.now()), pg_catalog.now());
    v_count integer;
    v_total integer := 0;
begin
    if memory_types is null or memory_ids is null then
        raise exception 'memory_types and memory_ids must not be NULL'
            using errcode = 'PM002', hint = 'Pass one type per id, e.g. array[''fact''] and array[''<uuid>''::uuid].';
    end if;
    if pg_catalog.cardinality(memory_ids) > 10000 then
        raise exception 'at most 10000 references per call, not %', pg_catalog.cardinality(memory_ids)
            using errcode = 'PM002', hint = 'Split the references into several calls.';
    end if;
    if pg_catalog.array_ndims(memory_types) > 1 or pg_catalog.array_ndims(memory_ids) > 1
       or pg_catalog.cardinality(memory_types) <> pg_catalog.cardinality(memory_ids) then
        raise exception 'memory_types and memory_ids must have one element each per reference'
            using errcode = 'PM002',
                  detail = pg_catalog.format(
                      'memory_types has %s element(s), memory_ids %s',
                      pg_catalog.cardinality(memory_types), pg_catalog.cardinality(memory_ids)
                  );
    end if;
    if pg_catalog.cardinality(memory_ids) = 0 then
        return 0;
    end if;
    perform pymem_private.require_types(memory_types, array['episode', 'fact', 'rule']);

    -- one update per table; an id read n times is bumped n times; unknown ids, NULL ids and ids of another
    -- tenant (invisible under RLS) match no row and are ignored. The rows are locked in the order memory_search
    -- and memory_recall bump them (episodes, facts, rules; by id), so that the three never deadlock.
    perform from pymem.episodes as x
     where x.tenant_id = v_tenant
       and x.id = any(array(
           select t.id from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids)) as t (kind, id)
           where t.kind = 'episode'
       ))
     order by x.id
       for update;
    with bumps as (
        select t.id, pg_catalog.count(*)::integer as n
          from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids)) as t (kind, id)
         where t.kind = 'episode' and t.id is not null
         group by t.id
    )
    update pymem.episodes as e
       set reference_count = e.reference_count + b.n,
           last_referenced_at = greatest(e.last_referenced_at, v_at)
      from bumps as b
     where e.tenant_id = v_tenant and e.id = b.id;
    get diagnostics v_count = row_count;
    v_total := v_total + v_count;

    perform from pymem.facts as x
     where x.tenant_id = v_tenant
       and x.id = any(array(
           select t.id from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids)) as t (kind, id)
           where t.kind = 'fact'
       ))
     order by x.id
       for update;
    with bumps as (
        select t.id, pg_catalog.count(*)::integer as n
          from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids)) as t (kind, id)
         where t.kind = 'fact' and t.id is not null
         group by t.id
    )
    update pymem.facts as f
       set reference_count = f.reference_count + b.n,
           last_referenced_at = greatest(f.last_referenced_at, v_at)
      from bumps as b
     where f.tenant_id = v_tenant and f.id = b.id;
    get diagnostics v_count = row_count;
    v_total := v_total + v_count;

    perform from pymem.rules as x
     where x.tenant_id = v_tenant
       and x.id = any(array(
           select t.id from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids)) as t (kind, id)
           where t.kind = 'rule'
       ))
     order by x.id
       for update;
    with bumps as (
        select t.id, pg_catalog.count(*)::integer as n
          from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids)) as t (kind, id)
         where t.kind = 'rule' and t.id is not null
         group by t.id
    )
    update pymem.rules as r
       set reference_count = r.reference_count + b.n,
           last_referenced_at = greatest(r.last_referenced_at, v_at)
      from bumps as b
     where r.tenant_id = v_tenant and r.id = b.id;
    get diagnostics v_count = row_count;
    return v_total + v_count;
end;
$$;

comment on function pymem.memory_touch_references(text[], uuid[], timestamptz) is
$$Applies reference bumps late: for each (memory_types[i], memory_ids[i]) of the current tenant,
reference_count + (times the pair occurs) and last_referenced_at = greatest(last_referenced_at, referenced_at),
referenced_at being the moment of the read (default now(), never later than now()). What memory_search,
memory_recall and memory_get do when they return a memory, for reads served by a read replica (a standby
cannot write; pymem serve forwards the bumps to the primary). Ids that are unknown, NULL or of another tenant
are ignored (RLS); returns the number of memories bumped. PM002 for arrays of different lengths, an unknown
type or more than 10000 references. Needs a writable transaction (the primary).
Example: select memory_touch_references(array['fact'], array['00000000-0000-0000-0000-000000000000'::uuid]);$$;
