-- The DBA's audit of tenant isolation: one row per check, ok = false marks a problem.

create or replace function pymem.memory_rls_audit()
returns table (section text, object text, ok boolean, detail text)
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    -- every table: RLS enabled and forced, owned by pymem_owner
    select
        'table' as section,
        n.nspname || '.' || c.relname as object,  -- noqa: RF04
        c.relrowsecurity and c.relforcerowsecurity and pg_get_userbyid(c.relowner) = 'pymem_owner' as ok,
        format(
            'rls %s, %s; owner %s; %s policies',
            case when c.relrowsecurity then 'enabled' else 'DISABLED' end,
            case when c.relforcerowsecurity then 'forced' else 'NOT FORCED' end,
            pg_get_userbyid(c.relowner),
            (
                select count(*) from pg_policy as p
                where p.polrelid = c.oid
            )
        ) as detail
    from pg_class as c
    inner join pg_namespace as n on c.relnamespace = n.oid
    where n.nspname in ('pymem', 'pymem_private') and c.relkind in ('r', 'p')
    union all
    -- every policy: who, which command, and its filter: tenant policies call current_tenant(),
    -- admin reads need a logged elevation, the owner only reads (but for bearer tokens, which
    -- only the owner's functions touch, and the admin elevations it appends)
    select
        'policy' as section,
        p.schemaname || '.' || p.tablename || ' ' || p.policyname as object,  -- noqa: RF04
        case
            when p.tablename = 'role_tenants' then p.qual like '%SESSION_USER%'
            when
                p.schemaname = 'pymem_private'
                and p.tablename in (
                    'api_tokens', 'embedding_config', 'relevance_models', 'guard_patterns', 'guard_models',
                    'extraction_patterns', 'model_words'
                )
                then p.roles = array['pymem_owner']::name[]
            when p.schemaname = 'pymem_private' and p.tablename in ('index_health', 'index_rebuilds')
                then
                    p.roles = array['pymem_admin']::name[]
                    and (coalesce(p.qual, '') || coalesce(p.with_check, '')) like '%admin_elevated()%'
            when 'pymem_admin' = any(p.roles) and p.cmd = 'SELECT' then p.qual like '%admin_elevated()%'
            -- the owner appends admin elevations (pymem_private.log_elevation), into the current tenant only
            -- and rewrites the details of an erased memory's events (pymem_private.scrub_erased_events)
            when p.roles = array['pymem_owner']::name[] and p.tablename = 'memory_events' and p.cmd in ('INSERT', 'UPDATE')
                then p.with_check like '%current_tenant()%'
            -- the embedding queue is written by the owner for every tenant: the queue trigger (the writer's tenant)
            -- and the worker's claim and fail functions (operators only, across tenants); the second encoder's
            -- vectors are deleted by the owner's trigger whoever deletes or rewrites a memory (an operator, too)
            when
                p.roles = array['pymem_owner']::name[] and p.schemaname = 'pymem'
                and p.tablename in ('embedding_queue', 'embedding_failures')
                then true
            when
                p.roles = array['pymem_owner']::name[] and p.schemaname = 'pymem' and p.tablename = 'second_embeddings'
                then p.cmd in ('SELECT', 'DELETE')
            -- the owner deletes for the tenant roles (pymem_private.delete_memories, SECURITY DEFINER) and keeps the
            -- keyword statistics of what it deletes: in the current tenant only
            when p.roles = array['pymem_owner']::name[]
                then p.cmd = 'SELECT' or (coalesce(p.qual, '') || coalesce(p.with_check, '')) like '%current_tenant()%'
            else (coalesce(p.qual, '') || coalesce(p.with_check, '')) like '%current_tenant()%'
        end as ok,
        format(
            '%s %s to %s using (%s) with check (%s)', p.permissive, p.cmd,
            array_to_string(p.roles, ', '), coalesce(p.qual, '-'), coalesce(p.with_check, '-')
        ) as detail
    from pg_policies as p
    where p.schemaname in ('pymem', 'pymem_private')
    union all
    -- every table grant: no privilege for PUBLIC, none at all on bearer tokens
    select
        'grant' as section,
        n.nspname || '.' || c.relname || ' to '
        || case when a.grantee = 0 then 'PUBLIC' else pg_get_userbyid(a.grantee) end as object,  -- noqa: RF04
        a.grantee <> 0 and not (
            n.nspname = 'pymem_private'
            and c.relname in (
                'api_tokens', 'embedding_config', 'relevance_models', 'guard_patterns', 'guard_models',
                'extraction_patterns', 'model_words'
            )
        ) as ok,
        string_agg(a.privilege_type, ', ' order by a.privilege_type) as detail
    from pg_class as c
    inner join pg_namespace as n on c.relnamespace = n.oid
    cross join lateral aclexplode(c.relacl) as a
    where
        n.nspname in ('pymem', 'pymem_private') and c.relkind in ('r', 'p')
        and a.grantee <> c.relowner
    group by n.nspname, c.relname, a.grantee
    union all
    -- every table and tenant role (and PUBLIC): no privilege that allows a LOCK stronger than ROW EXCLUSIVE, which
    -- would let one tenant stop every tenant's reads and writes. LOCK takes any mode with
    -- a table-level UPDATE, DELETE, TRUNCATE or MAINTAIN privilege (column-level UPDATE does not count);
    -- REFERENCES (a foreign key) and TRIGGER (a trigger) take SHARE ROW EXCLUSIVE
    select
        'lock' as section,
        n.nspname || '.' || c.relname || ' to ' || r.rolname as object,  -- noqa: RF04
        not has_table_privilege(r.rolname, c.oid, 'UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
        and (
            current_setting('server_version_num')::integer < 170000
            or not has_table_privilege(r.rolname, c.oid, 'MAINTAIN')
        ) as ok,
        case
            when has_table_privilege(r.rolname, c.oid, 'UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
                then 'a table-level UPDATE, DELETE, TRUNCATE, REFERENCES or TRIGGER privilege: can LOCK it beyond ROW EXCLUSIVE'
            when current_setting('server_version_num')::integer >= 170000 and has_table_privilege(r.rolname, c.oid, 'MAINTAIN')
                then 'MAINTAIN: can LOCK it in any mode'
            when has_table_privilege(r.rolname, c.oid, 'INSERT') then 'strongest LOCK: ROW EXCLUSIVE'
            when has_table_privilege(r.rolname, c.oid, 'SELECT') then 'strongest LOCK: ACCESS SHARE'
            else 'no LOCK'
        end as detail
    from pg_class as c
    inner join pg_namespace as n on c.relnamespace = n.oid
    cross join (  -- noqa: ST05
        select 'public'::name as rolname
        union all
        select g.rolname from pg_roles as g
        where
            g.rolname in ('pymem_app', 'pymem_admin', 'pymem_analyst')
            or (pg_has_role(g.oid, 'pymem_analyst', 'MEMBER') and not g.rolsuper and not g.rolbypassrls)
    ) as r
    where n.nspname in ('pymem', 'pymem_private') and c.relkind in ('r', 'p')
    union all
    -- every role that bypasses RLS, and every pymem role and analyst login
    select
        'role' as section,
        r.rolname as object,  -- noqa: RF04
        case
            when r.rolname in ('pymem_owner', 'pymem_app', 'pymem_admin', 'pymem_analyst')
                then
                    not (r.rolsuper or r.rolbypassrls)
                    and (r.rolname <> 'pymem_app' or not r.rolinherit)
            when pg_has_role(r.oid, 'pymem_analyst', 'MEMBER') and not r.rolsuper
                then
                    not r.rolbypassrls
                    and exists (
                        select from pymem_private.role_tenants as t
                        where t.role_name = r.rolname
                    )
            else
                not (r.rolsuper or r.rolbypassrls)
                or not exists (
                    select from pg_auth_members as m
                    where
                        m.member = r.oid
                        and m.roleid in (
                            select app.oid from pg_roles as app
                            where app.rolname in ('pymem_app', 'pymem_analyst', 'pymem_admin')
                        )
                )
        end as ok,
        concat_ws(
            '; ',
            case when r.rolsuper then 'SUPERUSER: bypasses RLS' end,
            case when r.rolbypassrls then 'BYPASSRLS: bypasses RLS' end,
            case when r.rolcanlogin then 'login' else 'nologin' end,
            case when not r.rolinherit then 'noinherit' end,
            (
                select 'bound to tenant ' || t.tenant_id
                from pymem_private.role_tenants as t
                where t.role_name = r.rolname
            ),
            (
                select 'member of ' || string_agg(g.rolname, ', ' order by g.rolname)
                from pg_auth_members as m inner join pg_roles as g on m.roleid = g.oid
                where m.member = r.oid
            )
        ) as detail
    from pg_roles as r
    where
        r.rolsuper or r.rolbypassrls
        or r.rolname in ('pymem_owner', 'pymem_app', 'pymem_admin', 'pymem_analyst')
        or (pg_has_role(r.oid, 'pymem_analyst', 'MEMBER') and not r.rolsuper)
    union all
    -- every function: pinned search_path (a built-in C function, language internal, resolves no names; a
    -- SQL-standard body, BEGIN ATOMIC, is bound when created: the caller's search_path cannot redirect it);
    -- SECURITY DEFINER only in the private schema
    select
        'function' as section,
        p.oid::regprocedure::text as object,  -- noqa: RF04
        (
            p.prolang = (
                select l.oid from pg_language as l
                where l.lanname = 'internal'
            )
            or p.prosqlbody is not null and not p.prosecdef
            or p.proconfig is not null
            and exists (
                select from unnest(p.proconfig) as cfg
                where cfg like 'search_path=%'
            )
        )
        and (not p.prosecdef or n.nspname = 'pymem_private') as ok,
        format(
            '%s, %s, %s',
            case p.provolatile when 'i' then 'immutable' when 's' then 'stable' else 'volatile' end,
            case when p.prosecdef then 'security definer' else 'security invoker' end,
            coalesce(
                array_to_string(p.proconfig, ' '),
                case when p.prosqlbody is not null then 'SQL-standard body, bound when created' else 'NO PINNED search_path' end
            )
        ) as detail
    from pg_proc as p
    inner join pg_namespace as n on p.pronamespace = n.oid
    where n.nspname in ('pymem', 'pymem_private')
    union all
    -- the advisory-lock functions: nobody but the owner (pymem_private.lock_tenant_key) and superusers may take
    -- one, or a tenant could hold another's supersession lock (migration 0016)
    select
        'function' as section,
        'pg_catalog advisory locks' as object,  -- noqa: RF04
        not exists (
            select from pg_proc as p
            where
                p.pronamespace = 'pg_catalog'::regnamespace and p.proname like 'pg\_%advisory%'
                and (
                    has_function_privilege('public', p.oid, 'EXECUTE')
                    or has_function_privilege('pymem_app', p.oid, 'EXECUTE')
                    or has_function_privilege('pymem_analyst', p.oid, 'EXECUTE')
                )
        ) as ok,
        'EXECUTE on pg_advisory_lock and its kin: pymem_owner only (revoked from PUBLIC by migration 0016)' as detail
    union all
    -- the functions that create a large object: a tenant's large object would live outside RLS and outlive the
    -- tenant's erasure (migration 0018 closed them to tenant roles)
    select
        'function' as section,
        'pg_catalog large objects' as object,  -- noqa: RF04
        not exists (
            select from pg_proc as p
            where
                p.pronamespace = 'pg_catalog'::regnamespace
                and p.proname in ('lo_creat', 'lo_create', 'lo_import', 'lo_from_bytea')
                and (
                    has_function_privilege('public', p.oid, 'EXECUTE')
                    or has_function_privilege('pymem_app', p.oid, 'EXECUTE')
                    or has_function_privilege('pymem_analyst', p.oid, 'EXECUTE')
                )
        ) as ok,
        'EXECUTE on lo_creat, lo_create, lo_import, lo_from_bytea: pymem_owner only (revoked from PUBLIC by migration 0018)' as detail
    order by section, object;
end;

comment on function pymem.memory_rls_audit() is
$$Audit of tenant isolation, one row per check (section table | policy | grant | role | function);
ok = false marks a problem: a table without forced RLS, a policy without the tenant filter (or an
admin policy without the logged-elevation check, a policy on pymem_private.api_tokens, embedding_config, relevance_models, guard_patterns, guard_models, extraction_patterns or model_words for
any role but its owner, a policy on index_health or index_rebuilds for any role but an elevated pymem_admin), a grant
to PUBLIC (or any grant on api_tokens, embedding_config, relevance_models, guard_patterns, guard_models, extraction_patterns or model_words), a tenant role, analyst login or PUBLIC
holding a privilege that can LOCK a table beyond ROW EXCLUSIVE (section lock), an application role or analyst that
bypasses RLS or is unbound, a function without a pinned search_path (built-in C functions and SQL-standard bodies excepted).
Example: select * from pymem.memory_rls_audit() where not ok;  -- no rows = isolated$$;
