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


-- Who, when, which transaction and role: written by the system, whatever an INSERT says (issue 17, finding 2).
create or replace function pymem_private.stamp_event()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_role text := nullif(pg_catalog.current_setting('role', true), 'none');
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
    return new;
end;
$$;

comment on function pymem_private.stamp_event() is
$$Trigger (before insert on memory_events): sets occurred_at (clock_timestamp), transaction_id, session_role
(the login), db_role (the role it acts as: SET ROLE's, else the login) and actor (the transaction's pymem.actor;
a bound analyst's own login name) whatever the INSERT gave, and refuses an 'admin_elevation' row that
pymem.memory_log_elevation does not write (PM006).$$;

create or replace trigger memory_events_stamp
before insert on pymem.memory_events
for each row execute function pymem_private.stamp_event();
