-- Admin elevation: the application switches to pymem_admin with SET LOCAL ROLE inside
-- one transaction (never for a session) and records it here, in the caller's tenant.

create or replace function pymem.memory_log_elevation(reason text)
returns bigint
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_id bigint;
begin
    if current_user <> 'pymem_admin' then
        raise exception 'memory_log_elevation must be called after SET LOCAL ROLE pymem_admin, not as %',
            current_user
            using errcode = 'PM006';
    end if;
    if reason is null or pg_catalog.btrim(reason) = '' then
        raise exception 'an admin elevation needs a reason' using errcode = 'PM002';
    end if;
    insert into pymem.memory_events (operation, to_state, details)
    values ('admin_elevation', 'pymem_admin', pg_catalog.jsonb_build_object('reason', reason))
    returning id into v_id;
    return v_id;
end;
$$;

comment on function pymem.memory_log_elevation(text) is
$$Records that the caller switched to pymem_admin (cross-tenant reads) in this transaction.
Example: begin; select set_config('pymem.tenant_id', 'ops', true); set local role pymem_admin;
select pymem.memory_log_elevation('quarterly audit'); select tenant_id, count(*) from pymem.facts group by 1; commit;$$;
