-- Provenance of a retrieved memory: where it came from and who stored it, beside the
-- timestamp and confidence every result already carries. One function, used by search, recall and get.

create or replace function pymem_private.memory_provenance_many(p_tenant text, p_types text[], p_ids uuid[])
returns table (
    kind text,
    id uuid,
    source_butler text,
    session_id uuid,
    source_episode_id uuid,
    source_path text,
    stored_by text
)
language sql
stable
rows 20
security invoker
set search_path = pg_catalog, pg_temp
-- key lookups: one generic plan, pruned to the tenant's partition when it runs (as memory_touch_many)
set plan_cache_mode = force_generic_plan
as $$
    -- one statement for all the rows a read returns (a function call per row ran three statements each: ~0.2 ms a
    -- row); each lookup is one primary-key or index probe, LATERAL to its row (LIMIT 1 keeps the planner from pulling
    -- a lookup up into a join: the source episode's session was once a hash join over the tenant's episodes, 40 ms)
    select
        t.kind,
        t.id,
        m.source_butler,
        coalesce(m.session_id, s.session_id),
        m.source_episode_id,
        m.source_path,
        ev.stored_by
    from rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids)) as t (kind, id)
    left join lateral (
        select x.source_butler, null::uuid as session_id, x.source_episode_id, x.metadata ->> 'source_path' as source_path
        from pymem.facts as x where t.kind = 'fact' and x.tenant_id = p_tenant and x.id = t.id
        union all
        select x.source_butler, null::uuid, x.source_episode_id, x.metadata ->> 'source_path'
        from pymem.rules as x where t.kind = 'rule' and x.tenant_id = p_tenant and x.id = t.id
        union all
        select x.butler, x.session_id, null::uuid, x.metadata ->> 'source_path'
        from pymem.episodes as x where t.kind = 'episode' and x.tenant_id = p_tenant and x.id = t.id
        limit 1
    ) as m on true
    -- the session of a fact's or rule's source episode
    left join lateral (
        select x.session_id
        from pymem.episodes as x
        where x.tenant_id = p_tenant and x.id = m.source_episode_id
        limit 1
    ) as s on true
    left join lateral (
        select coalesce(x.actor, x.session_role) as stored_by
        from pymem.memory_events as x
        where x.tenant_id = p_tenant and x.memory_type = t.kind and x.memory_id = t.id and x.operation = 'insert'
        order by x.occurred_at, x.id
        limit 1
    ) as ev on true;
$$;

comment on function pymem_private.memory_provenance_many(text, text[], uuid[]) is
$$Where the memories (p_types[i], p_ids[i]) of tenant p_tenant came from, one row each (in no particular order):
source_butler (the butler that stored a fact or rule, an episode's butler), session_id (an episode's session, or that
of a fact's or rule's source episode), source_episode_id, source_path (metadata.source_path of an imported file),
stored_by (the actor of its insert event in memory_events, else the database session role); NULLs where unknown.
Used by memory_search and memory_recall for the rows they return, and by memory_get (memory_provenance).
Example: select * from pymem_private.memory_provenance_many('demo', array['fact'], array['00000000-0000-0000-0000-000000000000'::uuid]);$$;


create or replace function pymem_private.memory_provenance(p_tenant text, p_type text, p_id uuid)
returns table (
    source_butler text,
    session_id uuid,
    source_episode_id uuid,
    source_path text,
    stored_by text
)
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
    select p.source_butler, p.session_id, p.source_episode_id, p.source_path, p.stored_by
    from pymem_private.memory_provenance_many(p_tenant, array[p_type], array[p_id]) as p;
$$;

comment on function pymem_private.memory_provenance(text, text, uuid) is
$$Where a memory came from (pymem_private.memory_provenance_many of one memory): source_butler (the butler that
stored a fact or rule, an episode's butler), session_id (an episode's session, or that of a fact's or rule's source
episode), source_episode_id, source_path (metadata.source_path of an imported file), stored_by (the actor of its
insert event in memory_events, else the database session role). One row; NULLs where unknown.$$;
