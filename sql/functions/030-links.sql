-- noqa: disable=RF01
-- (RF01: sqlfluff does not know that memory_exists.<name> is a parameter of the function.)
-- Links point only at memories of their own tenant that exist, and go when their
-- endpoints are deleted (episodes expire; facts and rules are normally soft-deleted).

create or replace function pymem_private.memory_exists(tenant_id text, memory_type text, memory_id uuid)
returns boolean
language sql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select case memory_exists.memory_type
        when 'episode'
            then
                exists (
                    select from pymem.episodes as e
                    where e.tenant_id = memory_exists.tenant_id and e.id = memory_exists.memory_id
                )
        when 'fact'
            then
                exists (
                    select from pymem.facts as f
                    where f.tenant_id = memory_exists.tenant_id and f.id = memory_exists.memory_id
                )
        when 'rule'
            then
                exists (
                    select from pymem.rules as r
                    where r.tenant_id = memory_exists.tenant_id and r.id = memory_exists.memory_id
                )
        else false
    end;
end;

comment on function pymem_private.memory_exists(text, text, uuid) is
'True when the tenant has a memory of that type and id that the caller can see.';


create or replace function pymem_private.check_link_endpoints()
returns trigger
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
-- its lookups by key planned once, generically: a session left to choose plans them on every row (a generic
-- plan's estimate counts every partition of the memory tables), ~0.3 ms a row (issue 31)
set plan_cache_mode = force_generic_plan
as $$
begin
    if not pymem_private.memory_exists(new.tenant_id, new.source_type, new.source_id) then
        raise exception 'link source % % does not exist in this tenant', new.source_type, new.source_id
            using errcode = 'PM003';
    end if;
    if not pymem_private.memory_exists(new.tenant_id, new.target_type, new.target_id) then
        raise exception 'link target % % does not exist in this tenant', new.target_type, new.target_id
            using errcode = 'PM003';
    end if;
    return new;
end;
$$;

comment on function pymem_private.check_link_endpoints() is
'Trigger (before insert or update on memory_links): both endpoints must exist in the tenant (else PM003).';

create or replace trigger memory_links_check_endpoints
before insert or update on pymem.memory_links
for each row execute function pymem_private.check_link_endpoints();


create or replace function pymem_private.delete_links_of_memory()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_type text := tg_argv[0];
begin
    delete from pymem.memory_links as l
     where l.tenant_id = old.tenant_id
       and ((l.source_type = v_type and l.source_id = old.id)
            or (l.target_type = v_type and l.target_id = old.id));
    return null;
end;
$$;

comment on function pymem_private.delete_links_of_memory() is
'Trigger (after delete on episodes, facts, rules; argument: memory type): deletes the links of the row.';

create or replace trigger episodes_delete_links
after delete on pymem.episodes
for each row execute function pymem_private.delete_links_of_memory('episode');

create or replace trigger facts_delete_links
after delete on pymem.facts
for each row execute function pymem_private.delete_links_of_memory('fact');

create or replace trigger rules_delete_links
after delete on pymem.rules
for each row execute function pymem_private.delete_links_of_memory('rule');
