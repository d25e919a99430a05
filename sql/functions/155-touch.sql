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
    v_total integer;
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

    -- the bumps are writes (memory_touch_many alone would skip them here, as a read does)
    if pg_catalog.current_setting('transaction_read_only') = 'on' then
        raise exception 'cannot execute memory_touch_references in a read-only transaction'
            using errcode = '25006', hint = 'Forward the bumps to the primary, in a transaction that can write.';
    end if;
    -- one update per table, the rows locked in the order memory_search and memory_recall bump them (episodes,
    -- facts, rules; by id), so that the three never deadlock; an id read n times is bumped n times; unknown ids,
    -- NULL ids and ids of another tenant (invisible under RLS) match no row and are ignored
    select pg_catalog.count(*)::integer into v_total
    from pymem_private.memory_touch_many(v_tenant, memory_types, memory_ids, v_at);
    return v_total;
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
