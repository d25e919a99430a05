-- noqa: disable=RF01
-- (RF01: sqlfluff does not know that delete_butler_settings.<name> is a parameter of the function.)
-- Deletes of tenant rows. A table-level UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER or
-- MAINTAIN privilege lets its holder LOCK the whole table in any mode, ACCESS EXCLUSIVE included, which stops
-- every tenant's reads and writes: a bound analyst once froze all tenants so. No tenant role holds one any more
-- (sql/policies/999-privileges.sql): they write with INSERT and column-level UPDATE, whose strongest table lock
-- is ROW EXCLUSIVE (it conflicts with no one's reads or writes). A row is deleted by these functions, owned by
-- pymem_owner: SECURITY DEFINER, and under the owner's tenant policies (sql/policies/010-rls.sql), which are
-- those of pymem.current_tenant() -- the caller's tenant (a bound analyst's binding is read by session_user,
-- so it holds inside a definer function too). The triggers of the deleted rows (links, keyword statistics,
-- audit events) run as the owner, under the same tenant policies.

create or replace function pymem_private.delete_memories(p_types text[], p_ids uuid[])
returns bigint
language plpgsql
volatile
-- SECURITY DEFINER: tenant roles have no DELETE privilege (a DELETE privilege lets its holder LOCK the table)
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_count bigint;
    v_total bigint := 0;
begin
    if pg_catalog.cardinality(p_types) is distinct from pg_catalog.cardinality(p_ids) then
        raise exception 'p_types and p_ids must have the same length' using errcode = 'PM002';
    end if;
    delete from pymem.facts as f using rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids)) as m (t, i)
     where m.t = 'fact' and f.tenant_id = v_tenant and f.id = m.i;
    get diagnostics v_count = row_count;
    v_total := v_total + v_count;
    delete from pymem.rules as r using rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids)) as m (t, i)
     where m.t = 'rule' and r.tenant_id = v_tenant and r.id = m.i;
    get diagnostics v_count = row_count;
    v_total := v_total + v_count;
    delete from pymem.episodes as e using rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids)) as m (t, i)
     where m.t = 'episode' and e.tenant_id = v_tenant and e.id = m.i;
    get diagnostics v_count = row_count;
    return v_total + v_count;
end;
$$;

comment on function pymem_private.delete_memories(text[], uuid[]) is
$$Deletes the memories (p_types[i], p_ids[i]) of the current tenant (PM001 when none is set; ids of other tenants
are no rows of it) and returns how many it deleted. Their links, keyword statistics and 'delete' audit events
follow by trigger. SECURITY DEFINER: tenant roles hold no DELETE privilege, which would let them LOCK a whole
table. The delete step of pymem.memory_erase.
Example: select pymem_private.delete_memories(array['fact'], array['2ab2fc08-...'::uuid]);$$;


create or replace function pymem_private.prune_keyword_lexemes()
returns bigint
language plpgsql
volatile
-- SECURITY DEFINER: tenant roles have no DELETE privilege (a DELETE privilege lets its holder LOCK the table)
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_count bigint;
begin
    delete from pymem.keyword_lexemes as l where l.tenant_id = v_tenant and l.df <= 0;
    get diagnostics v_count = row_count;
    return v_count;
end;
$$;

comment on function pymem_private.prune_keyword_lexemes() is
$$Deletes the keyword lexemes of the current tenant that no searchable row holds any more (df <= 0: the keyword
statistics triggers counted them down) and returns how many. SECURITY DEFINER: tenant roles hold no DELETE
privilege. The last step of pymem.memory_erase.
Example: select pymem_private.prune_keyword_lexemes();$$;


create or replace function pymem_private.delete_butler_settings(p_butler text)
returns boolean
language plpgsql
volatile
-- SECURITY DEFINER: pymem_app has no DELETE privilege on butler_settings (it would let it LOCK the table)
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_found boolean;
begin
    delete from pymem.butler_settings as s where s.tenant_id = v_tenant and s.butler = p_butler;
    get diagnostics v_found = row_count;
    return v_found;
end;
$$;

comment on function pymem_private.delete_butler_settings(text) is
$$Deletes the settings row of butler p_butler in the current tenant (PM001 when none is set); true when there was
one. SECURITY DEFINER: pymem_app holds no DELETE privilege. The delete step of pymem.memory_butler_remove.
Example: select pymem_private.delete_butler_settings('health');$$;
