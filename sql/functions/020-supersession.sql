-- Supersession: a new active fact replaces the active fact with the same
-- (tenant, subject, predicate); so does a fact kept for review (validity 'pending_review', see
-- 118-grounding.sql) when memory_confirm approves it, and not before. An advisory lock on that key
-- (pymem_private.lock_tenant_key, 003-tenant-locks.sql) serialises concurrent writers, and the partial
-- unique index facts_one_active_per_subject_predicate is the last guard: at most one active fact per key, ever.

create or replace function pymem_private.supersede_fact()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
-- its lookups by key planned once, generically: a session left to choose plans them on every row (a generic
-- plan's estimate counts every partition of the memory tables), ~0.3 ms a row (issue 31)
set plan_cache_mode = force_generic_plan
as $$
declare
    v_old uuid;
begin
    if new.validity <> 'active' or (tg_op = 'UPDATE' and old.validity <> 'pending_review') then
        return new;
    end if;
    -- Held until the transaction ends: a concurrent writer of the same key waits here,
    -- then (READ COMMITTED) sees this transaction's fact and supersedes it in turn.
    -- a row of another tenant than the transaction's is refused by row-level security after this trigger;
    -- it takes no lock and supersedes nothing (lock_tenant_key would refuse it, with PM004)
    if new.tenant_id is distinct from pymem.current_tenant()
       and not (select r.rolsuper from pg_catalog.pg_roles as r where r.rolname = session_user) then
        return new;
    end if;
    -- A tenant restored by pymem.memory_import (pymem.reason 'import') takes no lock per key: one transaction
    -- writes the whole tenant, and a lock per fact would exhaust the lock table (max_locks_per_transaction) past a
    -- few thousand facts. A concurrent store of the same key then meets the unique index
    -- facts_one_active_per_subject_predicate, and one of the two fails whole instead of waiting.
    if pg_catalog.current_setting('pymem.reason', true) is distinct from 'import' then
        perform pymem_private.lock_tenant_key(new.tenant_id, 'supersession', new.subject || chr(31) || new.predicate);
    end if;
    -- the fact it replaces stops being valid when the new one was observed (its created_at: memory_store_fact's
    -- observed_at, else now)
    update pymem.facts as f
       set validity = 'superseded',
           invalidated_at = case when tg_op = 'INSERT' then new.created_at end
     where f.tenant_id = new.tenant_id
       and f.subject = new.subject
       and f.predicate = new.predicate
       and f.validity = 'active'
       and f.id <> new.id
    returning f.id into v_old;
    if v_old is not null and new.supersedes_id is null then
        new.supersedes_id := v_old;
    end if;
    return new;
end;
$$;

comment on function pymem_private.supersede_fact() is
$$Trigger (before insert on facts, and before the update that approves a fact kept for review): marks the
active fact with the same tenant, subject and predicate 'superseded' (invalid from the moment the new fact was
observed, its created_at) and points the new fact's supersedes_id at it. Serialised per key by an advisory lock
(not while pymem.memory_import restores a tenant: the unique index of active facts guards it then).$$;


create or replace function pymem_private.link_superseded_fact()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
-- its lookups by key planned once, generically: a session left to choose plans them on every row (a generic
-- plan's estimate counts every partition of the memory tables), ~0.3 ms a row (issue 31)
set plan_cache_mode = force_generic_plan
as $$
begin
    if pg_catalog.current_setting('pymem.reason', true) = 'import' then
        return null;  -- a restored fact (pymem.memory_import): its link comes from the file, with its own time
    end if;
    insert into pymem.memory_links (tenant_id, source_type, source_id, target_type, target_id, relation)
    values (new.tenant_id, 'fact', new.id, 'fact', new.supersedes_id, 'supersedes')
    on conflict do nothing;
    return null;
end;
$$;

comment on function pymem_private.link_superseded_fact() is
$$Trigger (after insert of a fact with supersedes_id, or its approval): records the fact -[supersedes]-> fact link;
not while pymem.memory_import restores a tenant (pymem.reason 'import'): the export's link line brings it.$$;

create or replace trigger facts_supersede
before insert or update of validity on pymem.facts
for each row execute function pymem_private.supersede_fact();

create or replace trigger facts_link_superseded
after insert on pymem.facts
for each row when (new.supersedes_id is not null)
execute function pymem_private.link_superseded_fact();

create or replace trigger facts_link_superseded_on_approval
after update of validity on pymem.facts
for each row when (old.validity = 'pending_review' and new.supersedes_id is not null)
execute function pymem_private.link_superseded_fact();
