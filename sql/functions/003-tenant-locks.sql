-- Tenant locks. Supersession, file imports and consolidation serialise their writers with transaction
-- advisory locks. Every role could once call pg_advisory_lock with a key it computed itself, and so
-- hold a lock of another tenant (a cross-tenant denial of service). Migration 0016 revokes
-- the advisory-lock functions from PUBLIC; this function, owned by pymem_owner, is the one way in,
-- and takes a lock of the caller's own tenant only.

create or replace function pymem_private.lock_tenant_key(p_tenant text, p_kind text, p_key text)
returns void
language plpgsql
volatile
-- SECURITY DEFINER: the owner may call the advisory-lock functions, the callers may not
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
    v_seed bigint := case p_kind
        when 'supersession' then 7342
        when 'import' then 7343
        when 'consolidation' then 7344
    end;
begin
    if v_seed is null then
        raise exception 'invalid lock kind %', pg_catalog.quote_nullable(p_kind)
            using errcode = 'PM002', detail = 'p_kind must be one of: supersession, import, consolidation';
    end if;
    if p_key is null then
        raise exception 'a tenant lock needs a key' using errcode = 'PM002';
    end if;
    -- the tenant of the transaction (the login's binding, else pymem.tenant_id): nobody locks another's
    if p_tenant is distinct from pymem.current_tenant()
       and not (select r.rolsuper from pg_catalog.pg_roles as r where r.rolname = session_user) then
        raise exception 'cannot take a lock of tenant % in a transaction of tenant %',
            pg_catalog.quote_nullable(p_tenant), pg_catalog.quote_nullable(pymem.current_tenant())
            using errcode = 'PM004', hint = 'Write in the transaction of the tenant the rows belong to.';
    end if;
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(p_tenant || chr(31) || p_key, v_seed));
end;
$$;

comment on function pymem_private.lock_tenant_key(text, text, text) is
$$Takes the transaction advisory lock of (p_tenant, p_kind, p_key), held until the transaction ends: 'supersession'
(key subject chr(31) predicate), 'import' (key: the file's subject), 'consolidation' (key: 'consolidation').
p_tenant must be the transaction's tenant (PM004 otherwise; superusers excepted). The only caller of the
advisory-lock functions besides the migrator. Example (as pymem_app):
begin; select set_config('pymem.tenant_id', 'acme', true);
select pymem_private.lock_tenant_key('acme', 'supersession', 'user' || chr(31) || 'diet'); commit;$$;
