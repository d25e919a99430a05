-- noqa: disable=RF01
-- memory_forget: a soft delete. Facts become 'retracted'; rules and episodes get a
-- forgotten_at tombstone. Retrieval excludes them; memory_get and the audit trail keep them.

create or replace function pymem.memory_forget(type text, id uuid, reason text default null)
returns table (
    memory_type text,
    memory_id uuid,
    previous_state text,
    state text,
    forgotten_at timestamptz
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_type text := pymem_private.require_memory_type('type', type, array['episode', 'fact', 'rule']);
    v_before text;
    v_at timestamptz;
    v_saved_reason text := pg_catalog.current_setting('pymem.reason', true);
begin
    if reason is not null and pg_catalog.length(reason) > 2000 then
        raise exception 'reason is too long (% characters; at most 2000)', pg_catalog.length(reason)
            using errcode = 'PM002';
    end if;
    if id is not null then
        if v_type = 'fact' then
            select f.validity, f.invalidated_at into v_before, v_at
              from pymem.facts as f where f.tenant_id = v_tenant and f.id = memory_forget.id for update;
        elsif v_type = 'rule' then
            select pymem_private.memory_state('rule', pg_catalog.jsonb_build_object(
                       'forgotten_at', r.forgotten_at, 'review_state', r.review_state, 'maturity', r.maturity
                   )),
                   r.forgotten_at
              into v_before, v_at
              from pymem.rules as r where r.tenant_id = v_tenant and r.id = memory_forget.id for update;
        else
            select case when e.forgotten_at is null then 'active' else 'forgotten' end, e.forgotten_at
              into v_before, v_at
              from pymem.episodes as e where e.tenant_id = v_tenant and e.id = memory_forget.id for update;
        end if;
    end if;
    if v_before is null then
        perform pymem_private.not_found(v_type, id);
    end if;
    if v_before in ('retracted', 'forgotten') then
        -- already forgotten: nothing changes, nothing is written
        return query select v_type, memory_forget.id, v_before, v_before, v_at;
        return;
    end if;
    -- the state-transition trigger writes the memory_events row, with this reason
    perform pg_catalog.set_config('pymem.reason', coalesce(reason, ''), true);
    if v_type = 'fact' then
        update pymem.facts as f set validity = 'retracted'
         where f.tenant_id = v_tenant and f.id = memory_forget.id
        returning f.invalidated_at into v_at;
    elsif v_type = 'rule' then
        update pymem.rules as r set forgotten_at = pg_catalog.now()
         where r.tenant_id = v_tenant and r.id = memory_forget.id
        returning r.forgotten_at into v_at;
    else
        update pymem.episodes as e set forgotten_at = pg_catalog.now()
         where e.tenant_id = v_tenant and e.id = memory_forget.id
        returning e.forgotten_at into v_at;
    end if;
    perform pg_catalog.set_config('pymem.reason', coalesce(v_saved_reason, ''), true);
    return query select
        v_type, memory_forget.id, v_before, case when v_type = 'fact' then 'retracted' else 'forgotten' end, v_at;
end;
$$;

comment on function pymem.memory_forget(text, uuid, text) is
$$Forgets a memory without erasing it: a fact becomes 'retracted' (the legacy value 'forgotten' is an alias), a
rule or an episode gets forgotten_at; search, recall and context no longer return it, memory_get still shows it,
and memory_events records the transition with the optional reason. Forgetting twice changes nothing.
PM003 when the tenant has no such memory.
Example: select * from memory_forget(type => 'fact', id => '00000000-0000-0000-0000-000000000000',
reason => 'user asked');$$;
