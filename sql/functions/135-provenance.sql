-- Provenance of a retrieved memory: where it came from and who stored it, beside the
-- timestamp and confidence every result already carries. One function, used by search, recall and get.

create or replace function pymem_private.memory_provenance(p_tenant text, p_type text, p_id uuid)
returns table (
    source_butler text,
    session_id uuid,
    source_episode_id uuid,
    source_path text,
    stored_by text
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_butler text;
    v_session uuid;
    v_source uuid;
    v_path text;
    v_stored_by text;
begin
    -- one primary-key lookup per table (a join over all three planned generically read thousands of pages)
    if p_type = 'fact' then
        select f.source_butler, f.source_episode_id, f.metadata ->> 'source_path'
          into v_butler, v_source, v_path
          from pymem.facts as f where f.tenant_id = p_tenant and f.id = p_id;
    elsif p_type = 'rule' then
        select r.source_butler, r.source_episode_id, r.metadata ->> 'source_path'
          into v_butler, v_source, v_path
          from pymem.rules as r where r.tenant_id = p_tenant and r.id = p_id;
    elsif p_type = 'episode' then
        select e.butler, e.session_id, e.metadata ->> 'source_path'
          into v_butler, v_session, v_path
          from pymem.episodes as e where e.tenant_id = p_tenant and e.id = p_id;
    end if;
    if v_source is not null then
        select e.session_id into v_session from pymem.episodes as e where e.tenant_id = p_tenant and e.id = v_source;
    end if;
    select coalesce(ev.actor, ev.session_role) into v_stored_by
      from pymem.memory_events as ev
     where ev.tenant_id = p_tenant and ev.memory_type = p_type and ev.memory_id = p_id and ev.operation = 'insert'
     order by ev.occurred_at, ev.id
     limit 1;
    return query select v_butler, v_session, v_source, v_path, v_stored_by;
end;
$$;

comment on function pymem_private.memory_provenance(text, text, uuid) is
$$Where a memory came from: source_butler (the butler that stored a fact or rule, an episode's butler),
session_id (an episode's session, or that of a fact's or rule's source episode), source_episode_id,
source_path (metadata.source_path of an imported file), stored_by (the actor of its insert event in
memory_events, else the database session role). One row; NULLs where unknown.$$;
