-- noqa: disable=RF01
-- Short ids. memory_context prints a memory's id as its first 8 hex digits (a UUID costs a tokenizer
-- some 22 tokens, 8 digits about 4), as git prints commits. memory_resolve_id turns such a prefix (or a
-- whole id) back into the memory's id, in the caller's tenant. The MCP tools that take an id (memory_get,
-- memory_confirm, memory_forget, memory_mark_helpful, memory_mark_harmful) pass it through here first; in
-- SQL: pymem.memory_get('fact', pymem.memory_resolve_id('fact', '90686670')).

create or replace function pymem.memory_resolve_id(type text, ref text)
returns uuid
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_type text := pymem_private.require_memory_type('type', type, array['episode', 'fact', 'rule']);
    v_hex text := pg_catalog.lower(pg_catalog.replace(pg_catalog.btrim(ref), '-', ''));
    v_low uuid;
    v_high uuid;
    v_ids uuid[];
begin
    if ref is null then
        perform pymem_private.not_found(v_type, null);
    end if;
    if v_hex !~ '^[0-9a-f]{8,32}$' then
        raise exception 'invalid id %', pg_catalog.quote_literal(pg_catalog.left(ref, 80))
            using errcode = 'PM002',
                  hint = 'A memory id is a UUID, or its first 8 or more hex digits as memory_context prints it.';
    end if;
    if pg_catalog.length(v_hex) = 32 then
        return v_hex::uuid;  -- a whole id: the function it is passed to says whether it exists
    end if;
    v_low := pg_catalog.rpad(v_hex, 32, '0')::uuid;
    v_high := pg_catalog.rpad(v_hex, 32, 'f')::uuid;
    -- uuids sort as their bytes, i.e. as their hex digits: a prefix is a range of the primary key
    if v_type = 'fact' then
        select pg_catalog.array_agg(f.id) into v_ids from (
            select f.id from pymem.facts as f
            where f.tenant_id = v_tenant and f.id between v_low and v_high order by f.id limit 2
        ) as f;
    elsif v_type = 'rule' then
        select pg_catalog.array_agg(r.id) into v_ids from (
            select r.id from pymem.rules as r
            where r.tenant_id = v_tenant and r.id between v_low and v_high order by r.id limit 2
        ) as r;
    else
        select pg_catalog.array_agg(e.id) into v_ids from (
            select e.id from pymem.episodes as e
            where e.tenant_id = v_tenant and e.id between v_low and v_high order by e.id limit 2
        ) as e;
    end if;
    if v_ids is null then
        raise exception '% % not found', v_type, v_hex
            using errcode = 'PM003', hint = 'Ids are per tenant: check the type and the id.';
    end if;
    if pg_catalog.cardinality(v_ids) > 1 then
        raise exception 'id prefix % matches more than one %', v_hex, v_type
            using errcode = 'PM002',
                  hint = 'Pass more digits, or the whole id (memory_search, memory_recall and the items of memory_context return it).';
    end if;
    return v_ids[1];
end;
$$;

comment on function pymem.memory_resolve_id(text, text) is
'The id of the tenant''s memory of this type whose id is ref or starts with ref (at least 8 hex digits, hyphens '
'optional), as memory_context prints ids. PM002 for a malformed or ambiguous prefix, PM003 when none matches. '
'Example: SELECT pymem.memory_resolve_id(''fact'', ''90686670'');';
