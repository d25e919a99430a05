-- Append-only audit: every state transition of a memory writes one memory_events row.
-- States: episode active | consolidated | forgotten; fact = validity;
-- rule = maturity | pending_review | forgotten; every row ends in 'deleted' when it is deleted.

create or replace function pymem_private.memory_state(memory_type text, memory jsonb)
returns text
language sql
immutable
strict
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return case memory_type
    when 'episode'
        then
            case
                when memory ->> 'forgotten_at' is not null then 'forgotten'
                when (memory ->> 'consolidated')::boolean then 'consolidated'
                else 'active'
            end
    when 'fact' then memory ->> 'validity'
    when 'rule' then
        case
            when memory ->> 'forgotten_at' is not null then 'forgotten'
            when memory ->> 'review_state' = 'pending_review' then 'pending_review'
            else memory ->> 'maturity'
        end
end;

comment on function pymem_private.memory_state(text, jsonb) is
'Lifecycle state of a memory row (given as jsonb): what memory_events records transitions of.';


create or replace function pymem_private.record_state_transition()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_type text := tg_argv[0];
    v_row record;
    v_from text;
    v_to text;
    v_details jsonb := '{}'::jsonb;
    v_reason text := nullif(pg_catalog.current_setting('pymem.reason', true), '');
begin
    if tg_op = 'DELETE' then
        v_row := old;
    else
        v_row := new;
    end if;
    if tg_op in ('UPDATE', 'DELETE') then
        v_from := pymem_private.memory_state(v_type, pg_catalog.to_jsonb(old) - 'embedding');
    end if;
    if tg_op in ('INSERT', 'UPDATE') then
        v_to := pymem_private.memory_state(v_type, pg_catalog.to_jsonb(new) - 'embedding');
    else
        v_to := 'deleted';
    end if;
    if tg_op = 'UPDATE' and v_from is not distinct from v_to then
        return null;
    end if;
    if v_type = 'fact' then
        v_details := pg_catalog.jsonb_build_object('subject', v_row.subject, 'predicate', v_row.predicate);
        if tg_op = 'INSERT' and new.supersedes_id is not null then
            v_details := v_details || pg_catalog.jsonb_build_object('supersedes_id', new.supersedes_id);
        end if;
    end if;
    if v_reason is not null then
        v_details := v_details || pg_catalog.jsonb_build_object('reason', v_reason);
    end if;
    insert into pymem.memory_events (tenant_id, memory_type, memory_id, operation, from_state, to_state, details)
    values (v_row.tenant_id, v_type, v_row.id, pg_catalog.lower(tg_op), v_from, v_to, v_details);
    return null;
end;
$$;

comment on function pymem_private.record_state_transition() is
$$Trigger (after insert, delete, and update of state columns on episodes, facts, rules; argument: memory
type): appends one memory_events row per state transition, with the optional transaction-local
pymem.reason and pymem.actor settings.$$;

create or replace trigger episodes_record_events
after insert or delete on pymem.episodes
for each row execute function pymem_private.record_state_transition('episode');

create or replace trigger episodes_record_state_changes
after update of consolidated, forgotten_at on pymem.episodes
for each row
when (old.consolidated is distinct from new.consolidated or old.forgotten_at is distinct from new.forgotten_at)
execute function pymem_private.record_state_transition('episode');

create or replace trigger facts_record_events
after insert or delete on pymem.facts
for each row execute function pymem_private.record_state_transition('fact');

create or replace trigger facts_record_state_changes
after update of validity on pymem.facts
for each row when (old.validity is distinct from new.validity)
execute function pymem_private.record_state_transition('fact');

create or replace trigger rules_record_events
after insert or delete on pymem.rules
for each row execute function pymem_private.record_state_transition('rule');

create or replace trigger rules_record_state_changes
after update of maturity, forgotten_at, review_state on pymem.rules
for each row
when (
    old.maturity is distinct from new.maturity
    or old.forgotten_at is distinct from new.forgotten_at
    or old.review_state is distinct from new.review_state
)
execute function pymem_private.record_state_transition('rule');


create or replace function pymem_private.memory_current_state(p_tenant text, p_type text, p_id uuid)
returns text
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_memory jsonb;
begin
    if p_type = 'episode' then
        select pg_catalog.to_jsonb(e.*) - 'embedding' into v_memory
        from pymem.episodes as e where e.tenant_id = p_tenant and e.id = p_id;
    elsif p_type = 'fact' then
        select pg_catalog.to_jsonb(f.*) - 'embedding' into v_memory
        from pymem.facts as f where f.tenant_id = p_tenant and f.id = p_id;
    elsif p_type = 'rule' then
        select pg_catalog.to_jsonb(r.*) - 'embedding' into v_memory
        from pymem.rules as r where r.tenant_id = p_tenant and r.id = p_id;
    end if;
    return pymem_private.memory_state(p_type, v_memory);
end;
$$;

comment on function pymem_private.memory_current_state(text, text, uuid) is
$$The lifecycle state (pymem_private.memory_state) of a memory as the caller sees it now, NULL when there is no such
row: what an 'insert', 'update' or 'delete' event is checked against (pymem_private.stamp_event).
Example: select pymem_private.memory_current_state('acme', 'fact', '2ab2fc08-...');$$;


-- Who, when, which transaction and role: written by the system, whatever an INSERT says.
create or replace function pymem_private.stamp_event()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_role text := nullif(pg_catalog.current_setting('role', true), 'none');
    v_state text;
begin
    new.occurred_at := pg_catalog.clock_timestamp();
    new.transaction_id := pg_catalog.pg_current_xact_id();
    new.session_role := session_user;
    -- the role the session acts as (SET ROLE), also inside a SECURITY DEFINER function of pymem_owner
    new.db_role := coalesce(v_role, session_user);
    new.actor := nullif(pg_catalog.current_setting('pymem.actor', true), '');
    -- a login bound to a tenant (an analyst) is its own actor: it cannot claim to be somebody else
    if exists (select from pymem_private.role_tenants as r where r.role_name = session_user) then
        new.actor := session_user;
    end if;
    -- an admin elevation is recorded by pymem_private.log_elevation (SECURITY DEFINER, so: as pymem_owner)
    -- and by nothing else: a row of it is what opens the admin policies (pymem_private.admin_elevated)
    if new.operation = 'admin_elevation' and (current_user <> 'pymem_owner' or v_role is distinct from 'pymem_admin') then
        raise exception 'an admin elevation is recorded by pymem.memory_log_elevation only'
            using errcode = 'PM006',
                  hint = 'SET LOCAL ROLE pymem_admin, then select pymem.memory_log_elevation(reason, details).';
    end if;
    -- a memory's insert, update and delete events are written by the triggers of the memory tables
    -- (record_state_transition) and say what happened to the row: a 'delete' event for a row that still exists
    -- once let an analyst's scrub_erased_events rewrite the trail of a live fact. So the
    -- event must come from a trigger, and its states must be the row's: gone ('deleted') after a delete, the
    -- row's state now after an insert or update. A delete event naming no memory is a tenant's erasure record
    -- (memory_erase_tenant), a superuser's.
    if new.operation in ('insert', 'update', 'delete') and new.memory_id is not null then
        v_state := pymem_private.memory_current_state(new.tenant_id, new.memory_type, new.memory_id);
        if pg_catalog.pg_trigger_depth() < 2
           or new.memory_type is null
           or (new.operation = 'delete' and (v_state is not null or new.to_state is distinct from 'deleted'))
           or (new.operation <> 'delete' and (v_state is null or new.to_state is distinct from v_state)) then
            raise exception 'a memory''s % event is written by the memory tables'' triggers, and says what happened '
                            'to the row: % % is %', new.operation, new.memory_type, new.memory_id,
                            coalesce(v_state, 'not there')
                using errcode = 'PM006',
                      hint = 'Change memories through the pymem functions (memory_erase erases one); they write the '
                             'audit trail.';
        end if;
    elsif new.operation = 'delete' and not (
        select r.rolsuper from pg_catalog.pg_roles as r where r.rolname = current_user
    ) then
        raise exception 'a tenant''s erasure is recorded by pymem.memory_erase_tenant only'
            using errcode = 'PM006', hint = 'A superuser erases a tenant: pymem erase tenant.';
    end if;
    return new;
end;
$$;

comment on function pymem_private.stamp_event() is
$$Trigger (before insert on memory_events): sets occurred_at (clock_timestamp), transaction_id, session_role
(the login), db_role (the role it acts as: SET ROLE's, else the login) and actor (the transaction's pymem.actor;
a bound analyst's own login name) whatever the INSERT gave, and refuses (PM006) an 'admin_elevation' row that
pymem.memory_log_elevation does not write, an 'insert', 'update' or 'delete' event of a memory that a trigger of
the memory tables does not write or whose to_state is not the row's ('deleted': the row is gone), and a 'delete'
event naming no memory (a tenant's erasure record) that a superuser does not write.$$;

create or replace trigger memory_events_stamp
before insert on pymem.memory_events
for each row execute function pymem_private.stamp_event();
