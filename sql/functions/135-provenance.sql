-- Provenance of a retrieved memory (REQ-MEM-021): where it came from and who stored it, beside the
-- timestamp and confidence every result already carries. One function, used by search, recall and get.

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
    select
        coalesce(f.source_butler, r.source_butler, e.butler),
        coalesce(e.session_id, src.session_id),
        coalesce(f.source_episode_id, r.source_episode_id),
        coalesce(f.metadata, r.metadata, e.metadata) ->> 'source_path',
        (
            select coalesce(ev.actor, ev.session_role)
            from pymem.memory_events as ev
            where ev.tenant_id = p_tenant and ev.memory_type = p_type and ev.memory_id = p_id
              and ev.operation = 'insert'
            order by ev.occurred_at, ev.id
            limit 1
        )
    from (select) as one
    left join pymem.facts as f on p_type = 'fact' and f.tenant_id = p_tenant and f.id = p_id
    left join pymem.rules as r on p_type = 'rule' and r.tenant_id = p_tenant and r.id = p_id
    left join pymem.episodes as e on p_type = 'episode' and e.tenant_id = p_tenant and e.id = p_id
    left join pymem.episodes as src
        on src.tenant_id = p_tenant and src.id = coalesce(f.source_episode_id, r.source_episode_id)
$$;

comment on function pymem_private.memory_provenance(text, text, uuid) is
$$Where a memory came from: source_butler (the butler that stored a fact or rule, an episode's butler),
session_id (an episode's session, or that of a fact's or rule's source episode), source_episode_id,
source_path (metadata.source_path of an imported file), stored_by (the actor of its insert event in
memory_events, else the database session role). One row; NULLs where unknown.$$;
