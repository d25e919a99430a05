-- Analyst logins bound to one tenant. A bound login sees exactly its tenant: it cannot
-- widen or change it by setting pymem.tenant_id (pymem.current_tenant raises PM004).
-- Binding needs CREATEROLE-level rights, so these run as a superuser or a DBA.

create or replace function pymem.memory_bind_role(role_name name, tenant_id text)
returns void
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_role pg_catalog.pg_roles%rowtype;
begin
    if tenant_id is null or pg_catalog.btrim(tenant_id) = '' or pg_catalog.length(tenant_id) > 128 then
        raise exception 'invalid tenant id %', pg_catalog.quote_nullable(tenant_id)
            using errcode = 'PM002', detail = 'a tenant id is 1 to 128 characters';
    end if;
    select * into v_role from pg_catalog.pg_roles as r where r.rolname = memory_bind_role.role_name;
    if not found then
        raise exception 'role "%" does not exist', role_name
            using errcode = 'PM003', hint = 'CREATE ROLE ... LOGIN first.';
    end if;
    if v_role.rolsuper or v_role.rolbypassrls then
        raise exception 'role "%" bypasses row-level security and cannot be bound to a tenant', role_name
            using errcode = 'PM002';
    end if;
    if role_name in ('pymem_owner', 'pymem_app', 'pymem_admin', 'pymem_analyst') then
        raise exception 'role "%" is a pymem system role and cannot be bound to a tenant', role_name
            using errcode = 'PM002';
    end if;
    insert into pymem_private.role_tenants as t (role_name, tenant_id)
    values (memory_bind_role.role_name, memory_bind_role.tenant_id)
    on conflict on constraint role_tenants_pkey
    do update set tenant_id = excluded.tenant_id, bound_at = now(), bound_by = session_user;
    execute pg_catalog.format('grant pymem_analyst to %I', role_name);
    execute pg_catalog.format('alter role %I set search_path = pymem, public', role_name);
    -- Bounds on how long the login may wait for a lock, run one statement, sit idle in a transaction or keep one
    -- open (the same values as migration 0017 gave the logins bound before it). A setting of
    -- pymem_analyst would not reach its members: role settings apply to the login only. The login may SET them
    -- otherwise itself; what stops one tenant from blocking another is that it holds no privilege to LOCK a table
    -- beyond ROW EXCLUSIVE (sql/policies/999-privileges.sql), these are defence in depth.
    execute pg_catalog.format('alter role %I set lock_timeout = %L', role_name, '5s');
    execute pg_catalog.format('alter role %I set statement_timeout = %L', role_name, '5min');
    execute pg_catalog.format('alter role %I set idle_in_transaction_session_timeout = %L', role_name, '1min');
    if pg_catalog.current_setting('server_version_num')::integer >= 170000 then
        execute pg_catalog.format('alter role %I set transaction_timeout = %L', role_name, '15min');
    end if;
end;
$$;

comment on function pymem.memory_bind_role(name, text) is
$$Binds a login role to one tenant and makes it an analyst (member of pymem_analyst), with its search_path,
lock_timeout 5s, statement_timeout 5min, idle_in_transaction_session_timeout 1min and
transaction_timeout 15min (PostgreSQL 17+). Run as a DBA.
Example: create role alice login password 'secret'; select pymem.memory_bind_role('alice', 'acme');$$;


create or replace function pymem.memory_unbind_role(role_name name)
returns boolean
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    delete from pymem_private.role_tenants as t where t.role_name = memory_unbind_role.role_name;
    if not found then
        return false;
    end if;
    execute pg_catalog.format('revoke pymem_analyst from %I', role_name);
    return true;
end;
$$;

comment on function pymem.memory_unbind_role(name) is
$$Removes a login's tenant binding and its pymem_analyst membership; true when it was bound.
Example: select pymem.memory_unbind_role('alice');$$;
