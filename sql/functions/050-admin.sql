-- Admin elevation: the application switches to pymem_admin with SET LOCAL ROLE inside
-- one transaction (never for a session) and records it here, in the caller's tenant.

create or replace function pymem_private.log_elevation(reason text, details jsonb)
returns bigint
language plpgsql
volatile
-- SECURITY DEFINER: the one writer of admin_elevation rows (pymem_private.stamp_event refuses any other, and
-- pymem_admin may not INSERT into memory_events); EXECUTE for pymem_admin only, and the role setting says
-- the caller has SET ROLE pymem_admin
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
    v_role text := pg_catalog.current_setting('role', true);
begin
    if v_role is distinct from 'pymem_admin' then
        raise exception 'memory_log_elevation must be called after SET LOCAL ROLE pymem_admin, not as %',
            coalesce(nullif(v_role, 'none'), session_user)
            using errcode = 'PM006';
    end if;
    if pymem.current_tenant() is null then
        raise exception 'an admin elevation is recorded in the trail of the tenant it acts for: set one first'
            using errcode = 'PM001',
                  hint = 'Run select set_config(''pymem.tenant_id'', ''<tenant>'', true) before SET LOCAL ROLE.';
    end if;
    if reason is null or pg_catalog.btrim(reason) = '' then
        raise exception 'an admin elevation needs a reason' using errcode = 'PM002';
    end if;
    details := coalesce(details, '{}'::jsonb);
    if pg_catalog.jsonb_typeof(details) <> 'object' then
        raise exception 'details must be a JSON object, not %', pg_catalog.jsonb_typeof(details)
            using errcode = 'PM002', hint = 'For example {"admin_tenant": "ops", "as_tenant": "acme"}.';
    end if;
    if details ? 'reason' then
        raise exception 'details must not contain "reason": the reason argument is recorded under that key'
            using errcode = 'PM002';
    end if;
    insert into pymem.memory_events (operation, to_state, details)
    values ('admin_elevation', 'pymem_admin', pg_catalog.jsonb_build_object('reason', reason) || details);
    -- no RETURNING: the new row is not yet visible to the admin SELECT policy it unlocks
    return pg_catalog.pg_current_xact_id()::text::bigint;
end;
$$;

comment on function pymem_private.log_elevation(text, jsonb) is
$$The body of pymem.memory_log_elevation: checks the caller acts as pymem_admin (PM006) in a tenant (PM001),
validates reason and details (PM002) and appends the admin_elevation row, as the owner.$$;


-- The signature (text) became (text, jsonb) in revision 0003, which dropped the old function.
create or replace function pymem.memory_log_elevation(reason text, details jsonb default '{}')
returns bigint
language sql
volatile
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select pymem_private.log_elevation(reason, details);
end;

comment on function pymem.memory_log_elevation(text, jsonb) is
$$Records that the caller switched to pymem_admin in this transaction, which opens cross-tenant reads
for this transaction only; returns the transaction id. The event's details are
{"reason": reason} || details (details: a JSON object without a "reason" key, else PM002).
Example: begin; select set_config('pymem.tenant_id', 'acme', true); set local role pymem_admin;
select pymem.memory_log_elevation('support ticket 42', '{"admin_tenant": "ops", "as_tenant": "acme"}');
select tenant_id, count(*) from pymem.facts group by 1; commit;$$;


create or replace function pymem_private.admin_elevated()
returns boolean
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
begin atomic
    select exists(
        select
        from pymem.memory_events as e
        where
            e.tenant_id = pymem.current_tenant()
            and e.operation = 'admin_elevation'
            and e.transaction_id = pg_current_xact_id_if_assigned()
            and e.session_role = session_user
            and e.db_role = 'pymem_admin'
    );
end;

comment on function pymem_private.admin_elevated() is
$$True when the current transaction has logged an admin elevation (pymem.memory_log_elevation).
Every pymem_admin policy requires it, so SET ROLE pymem_admin alone opens nothing, and each
cross-tenant transaction leaves an audit row. SECURITY DEFINER (owner) to read the events it checks;
EXECUTE for pymem_admin only.$$;
