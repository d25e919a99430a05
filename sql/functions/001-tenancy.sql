-- Tenancy: who the current tenant is. Every RLS policy calls
-- pymem.current_tenant() as (select pymem.current_tenant()), so it runs once per
-- statement. An unset or empty tenant is NULL, and NULL matches no row: fail closed.

create or replace function pymem.current_tenant()
returns text
language plpgsql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_setting text := nullif(pg_catalog.current_setting('pymem.tenant_id', true), '');
    v_bound text;
begin
    -- A login bound to a tenant (an analyst) always gets that tenant, whatever it sets.
    select r.tenant_id into v_bound
      from pymem_private.role_tenants as r
     where r.role_name = session_user;
    if found then
        if v_setting is not null and v_setting <> v_bound then
            raise exception 'role "%" is bound to tenant "%" and cannot act for tenant "%"',
                session_user, v_bound, v_setting
                using errcode = 'PM004',
                      hint = 'Analyst logins are bound by pymem.memory_bind_role(); do not set pymem.tenant_id.';
        end if;
        return v_bound;
    end if;
    -- An analyst login that is not bound sees nothing, even if it sets a tenant.
    if pg_catalog.pg_has_role(session_user, 'pymem_analyst', 'MEMBER')
       and not (select rolsuper from pg_catalog.pg_roles where rolname = session_user) then
        return null;
    end if;
    return v_setting;
end;
$$;

comment on function pymem.current_tenant() is
$$The tenant of the current transaction: the tenant bound to the login (pymem.memory_bind_role), else the
transaction-local setting pymem.tenant_id, else NULL (sees nothing). Used by every RLS policy.
Example: begin; select set_config('pymem.tenant_id', 'demo', true); select pymem.current_tenant(); commit;$$;


create or replace function pymem_private.tenant_for_write()
returns text
language plpgsql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem.current_tenant();
begin
    if v_tenant is null then
        raise exception 'no tenant is set for this transaction'
            using errcode = 'PM001',
                  hint = 'Run select set_config(''pymem.tenant_id'', ''<tenant>'', true) in the same transaction.';
    end if;
    return v_tenant;
end;
$$;

comment on function pymem_private.tenant_for_write() is
'Default of every tenant_id column: the current tenant, or error PM001 when none is set.';

alter table pymem.episodes alter column tenant_id set default pymem_private.tenant_for_write();
alter table pymem.facts alter column tenant_id set default pymem_private.tenant_for_write();
alter table pymem.rules alter column tenant_id set default pymem_private.tenant_for_write();
alter table pymem.memory_links alter column tenant_id set default pymem_private.tenant_for_write();
alter table pymem.memory_events alter column tenant_id set default pymem_private.tenant_for_write();
