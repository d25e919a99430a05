-- noqa: disable=RF01
-- Erasure (the right to erasure): a hard purge, where memory_forget is a soft one. memory_erase
-- deletes a memory (and, with cascade, what was derived from it and the older versions it superseded), its
-- links, the keyword lexemes only it held, and the content of its audit events, keeping a content-free record
-- that the erasure happened. memory_erase_tenant does the same for a whole tenant (superusers only). Dead
-- tuples and index entries go with the VACUUM that `pymem erase` runs after the transaction commits.

create or replace function pymem_private.scrub_erased_events(p_types text[], p_ids uuid[], p_reason text)
returns integer
language plpgsql
volatile
-- SECURITY DEFINER: nobody else may change the audit trail; it rewrites only the events of memories that are
-- gone and that this very transaction deleted (their 'delete' event, which only a trigger of the memory tables
-- can write, for a row that is gone: pymem_private.stamp_event), in the transaction's tenant
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem.current_tenant();
    v_count integer;
begin
    if v_tenant is null then
        raise exception 'no tenant is set for this transaction' using errcode = 'PM001';
    end if;
    if pg_catalog.cardinality(p_types) is distinct from pg_catalog.cardinality(p_ids) then
        raise exception 'p_types and p_ids must have the same length' using errcode = 'PM002';
    end if;
    -- not the event's word alone (an inserted 'delete' event once sufficed): the row is gone
    -- (read as the owner, under its current-tenant policies), and this transaction deleted it
    if exists (
        select from rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids)) as m (memory_type, memory_id)
        where m.memory_type is null or m.memory_id is null
           or pymem_private.memory_current_state(v_tenant, m.memory_type, m.memory_id) is not null
           or not exists (
               select from pymem.memory_events as e
               where e.tenant_id = v_tenant and e.memory_type = m.memory_type and e.memory_id = m.memory_id
                 and e.operation = 'delete' and e.to_state = 'deleted'
                 and e.transaction_id = pg_catalog.pg_current_xact_id()
           )
    ) then
        raise exception 'only the events of a memory deleted in this transaction can be erased'
            using errcode = 'PM006', hint = 'Call pymem.memory_erase(type, id).';
    end if;
    update pymem.memory_events as e
       set details = case
               when e.operation = 'delete' and e.transaction_id = pg_catalog.pg_current_xact_id()
                   then pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object('erased', true, 'reason', p_reason))
               else pg_catalog.jsonb_build_object('erased', true)
           end
      from rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids)) as m (memory_type, memory_id)
     where e.tenant_id = v_tenant and e.memory_type = m.memory_type and e.memory_id = m.memory_id;
    get diagnostics v_count = row_count;
    return v_count;
end;
$$;

comment on function pymem_private.scrub_erased_events(text[], uuid[], text) is
$$The audit part of pymem.memory_erase: the events of the given memories, each gone and deleted in this
transaction (its row is not there and a trigger wrote its 'delete' event in this transaction; PM006 otherwise), keep their operation, states, time, transaction and roles, and lose their details, which become
{"erased": true} (the delete event also keeps the reason). Returns the number of events rewritten.$$;


create or replace function pymem.memory_erase(
    type text, id uuid, reason text default null, "cascade" boolean default false
)
returns table (memory_type text, memory_id uuid, erased boolean)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_type text := pymem_private.require_memory_type('type', type, array['episode', 'fact', 'rule']);
    v_types text[];
    v_ids uuid[];
    v_rebuilt uuid[] := '{}';
begin
    if reason is not null then
        perform pymem_private.require_text('reason', reason, 1000);
    end if;
    if id is null or not pymem_private.memory_exists(v_tenant, v_type, id) then
        perform pymem_private.not_found(v_type, id);
    end if;
    if "cascade" is null then
        raise exception 'cascade must be true or false, not NULL' using errcode = 'PM002';
    end if;
    -- what goes: the memory; with cascade, the facts and rules derived from it (an episode) and the older
    -- versions a fact superseded, transitively
    with recursive erased (memory_type, memory_id) as (
        select v_type, memory_erase.id
        union
        select d.memory_type, d.memory_id
        from erased as x
        cross join lateral (
            select 'fact'::text as memory_type, f.id as memory_id from pymem.facts as f
            where "cascade" and f.tenant_id = v_tenant
              and (
                  (x.memory_type = 'episode' and f.source_episode_id = x.memory_id)
                  or (x.memory_type = 'fact' and f.id = (
                      select s.supersedes_id from pymem.facts as s where s.tenant_id = v_tenant and s.id = x.memory_id
                  ))
              )
            union all
            select 'rule', r.id from pymem.rules as r
            where "cascade" and r.tenant_id = v_tenant and x.memory_type = 'episode' and r.source_episode_id = x.memory_id
        ) as d
    )
    select pg_catalog.array_agg(e.memory_type), pg_catalog.array_agg(e.memory_id) into v_types, v_ids from erased as e;
    -- what the erased text lives on in: the turns of a session that hold an erased episode as
    -- their previous turn (retrieval_context, which set_session_context copied verbatim; and through it the search
    -- vector, the keyword statistics and the embedding), found by the session index before the episodes go
    select pg_catalog.array_agg(distinct n.id) into v_rebuilt
    from pymem.episodes as x
    join pymem.episodes as n
        on n.tenant_id = x.tenant_id and n.session_id = x.session_id and n.retrieval_context = x.content
    where x.tenant_id = v_tenant and x.session_id is not null
      and x.id = any(v_ids) and n.id <> all(v_ids);

    perform pg_catalog.set_config('pymem.reason', coalesce(reason, 'erased'), true);
    -- as the owner: tenant roles hold no DELETE privilege (it would let them LOCK the table; 004-tenant-writes.sql)
    perform pymem_private.delete_memories(v_types, v_ids);
    -- each such turn gets the previous turn it has without the erased ones (the session's last surviving turn
    -- before it, or none), as if they had never been said: its search vector (generated) and keyword statistics
    -- (trigger) follow; its embedding, computed from the erased text, is cleared (SQL cannot run the model), so it
    -- is found by keyword and flagged for re-embedding (memory_reembed_candidates) until its caller re-embeds it
    update pymem.episodes as n
       set retrieval_context = (
               select p.content from pymem.episodes as p
               where p.tenant_id = n.tenant_id and p.session_id = n.session_id
                 and p.session_position < n.session_position
               order by p.session_position desc
               limit 1
           ),
           embedding = null,
           embedding_model = null
     where n.tenant_id = v_tenant and n.id = any(v_rebuilt);
    -- the lexemes no searchable row holds any more (the keyword statistics triggers counted them down)
    perform pymem_private.prune_keyword_lexemes();
    perform pymem_private.scrub_erased_events(v_types, v_ids, reason);
    return query
        select m.t, m.i, true from rows from (pg_catalog.unnest(v_types), pg_catalog.unnest(v_ids)) as m (t, i)
        union all
        select 'episode', r.i, false from pg_catalog.unnest(v_rebuilt) as r (i)
        order by 3 desc, 1, 2;
end;
$$;

comment on function pymem.memory_erase(text, uuid, text, boolean) is
$$Erases a memory of the current tenant for good (the right to erasure; memory_forget only hides it): deletes the
row, its links and the keyword lexemes only it held, and rewrites its audit events to {"erased": true}, keeping
their operation, time and roles (the delete event also keeps reason). With cascade, also what was derived from it
(an episode's facts and rules) and the older versions a fact superseded. The next turn of an erased episode's
session, which held it as its previous turn, is kept but rebuilt without it: its retrieval_context becomes the
session's last surviving turn before it (or none), its search vector and keyword statistics follow, and its
embedding is cleared (found by keyword, flagged for re-embedding: `pymem erase` re-embeds it at once). One row
per memory: erased true for each memory erased, erased false for each memory rebuilt. PM003 for an unknown id.
The space and the index entries are reclaimed by the next VACUUM (`pymem erase` runs it).
Example: select * from pymem.memory_erase('fact', '2ab2fc08-...', 'erasure request 17', "cascade" => true);$$;


create or replace function pymem.memory_erase_tenant(tenant text, reason text)
returns table (table_name text, rows_deleted bigint)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_table text;
    v_count bigint;
    v_counts jsonb := '{}'::jsonb;
    v_roles name[];
    v_role name;
    v_objects bigint := 0;
    v_pages bigint := 0;
    v_dropped bigint := 0;
    v_disabled bigint := 0;
begin
    if not (select r.rolsuper from pg_catalog.pg_roles as r where r.rolname = current_user) then
        raise exception 'memory_erase_tenant is for operators: run it as a superuser (pymem erase tenant)'
            using errcode = 'PM006';
    end if;
    -- 128, the tenant id limit of every table's tenant_id CHECK (pymem.limits.TENANT): with 200, a tenant of
    -- 129-200 characters failed on the CHECK of the erasure's own event row, naming a constraint
    perform pymem_private.require_text('tenant', tenant, 128);
    perform pymem_private.require_text('reason', reason, 1000);
    -- the logins bound to the tenant (never a superuser, a BYPASSRLS or a pymem system role: memory_bind_role)
    select pg_catalog.array_agg(t.role_name order by t.role_name) into v_roles
    from pymem_private.role_tenants as t
    where t.tenant_id = memory_erase_tenant.tenant
      and t.role_name in (
          select r.rolname from pg_catalog.pg_roles as r
          where not r.rolsuper and not r.rolbypassrls and r.rolname !~ '^pymem_(owner|app|analyst|admin)$'
            and r.rolname not in (current_user, session_user)
      );
    -- a superuser bypasses row-level security: every statement names the tenant
    foreach v_table in array array[
        'pymem.memory_links', 'pymem.facts', 'pymem.rules', 'pymem.episodes', 'pymem.keyword_lexemes',
        'pymem.keyword_stats', 'pymem.butler_settings', 'pymem.memory_events', 'pymem_private.api_tokens',
        'pymem_private.role_tenants'
    ] loop
        execute pg_catalog.format('delete from %s where tenant_id = $1', v_table) using tenant;
        get diagnostics v_count = row_count;
        -- the deletes above write events of their own (triggers): those go too, and are not counted
        if v_table = 'pymem.memory_events' then
            v_count := v_count - (v_counts ->> 'pymem.facts')::bigint - (v_counts ->> 'pymem.rules')::bigint
                - (v_counts ->> 'pymem.episodes')::bigint;
        end if;
        v_counts := v_counts || pg_catalog.jsonb_build_object(v_table, v_count);
        table_name := v_table;
        rows_deleted := v_count;
        return next;
    end loop;
    -- the tenant's logins go too, with whatever they own in this database: the large objects
    -- they made before migration 0018 closed lo_create and its kin to tenant roles (outside RLS, outside every
    -- pymem table), and their grants. A login that also owns or holds something in another database of the
    -- cluster cannot be dropped from here: it loses LOGIN and pymem_analyst instead (a WARNING names it). Its
    -- sessions end first.
    foreach v_role in array coalesce(v_roles, '{}') loop
        select
            v_objects + pg_catalog.count(*),
            v_pages + coalesce(pg_catalog.sum((
                select pg_catalog.count(*) from pg_catalog.pg_largeobject as l where l.loid = m.oid
            )), 0)
        into v_objects, v_pages
        from pg_catalog.pg_largeobject_metadata as m
        where m.lomowner = (select r.oid from pg_catalog.pg_roles as r where r.rolname = v_role);
        perform pg_catalog.pg_terminate_backend(a.pid)
        from pg_catalog.pg_stat_activity as a
        where a.usename = v_role and a.pid <> pg_catalog.pg_backend_pid();
        execute pg_catalog.format('drop owned by %I', v_role);
        begin
            execute pg_catalog.format('drop role %I', v_role);
            v_dropped := v_dropped + 1;
        exception when dependent_objects_still_exist then
            execute pg_catalog.format('alter role %I nologin', v_role);
            execute pg_catalog.format('revoke pymem_analyst from %I', v_role);
            v_disabled := v_disabled + 1;
            raise warning 'login % of erased tenant % owns or holds something in another database: it cannot log in '
                          'any more, but is not dropped', v_role, tenant
                using hint = pg_catalog.format('In each database: DROP OWNED BY %I; then DROP ROLE %I.', v_role, v_role);
        end;
    end loop;
    -- reported like the tables (`pymem erase tenant` VACUUMs them too): large objects, their data pages, roles
    v_counts := v_counts || pg_catalog.jsonb_build_object(
        'pg_catalog.pg_largeobject_metadata', v_objects, 'pg_catalog.pg_largeobject', v_pages,
        'pg_catalog.pg_authid', v_dropped, 'logins disabled', v_disabled
    );
    return query select v.t, v.n from (values
        ('pg_catalog.pg_largeobject_metadata', v_objects), ('pg_catalog.pg_largeobject', v_pages),
        ('pg_catalog.pg_authid', v_dropped)
    ) as v (t, n);
    perform pg_catalog.set_config('pymem.tenant_id', tenant, true);
    insert into pymem.memory_events (tenant_id, operation, to_state, details)
    values (tenant, 'delete', 'erased', pg_catalog.jsonb_build_object('erased', 'tenant', 'reason', reason, 'rows', v_counts));
end;
$$;

comment on function pymem.memory_erase_tenant(text, text) is
$$Erases a whole tenant (superusers only, PM006 otherwise): every memory, link, event, keyword statistic, butler
setting, bearer token and role binding of it, and the logins bound to it: their sessions are ended, whatever they
own in this database (their large objects) and their grants dropped (DROP OWNED), and the role dropped; a login
that owns or holds something in another database only loses LOGIN and pymem_analyst (a WARNING names it). Then it
writes one content-free event in its trail: operation 'delete', to_state 'erased', details {"erased": "tenant",
"reason", "rows": {table: count, "logins disabled": n}}. One row per table (large objects: pg_largeobject_metadata,
their pages: pg_largeobject, roles dropped: pg_authid). The space is reclaimed by the next VACUUM (`pymem erase
tenant` runs it).
Example: select * from pymem.memory_erase_tenant('acme', 'contract ended, erasure request 18');$$;
