-- noqa: disable=RF01
-- What `pymem erase` does after an erasure commits: VACUUM (with --rewrite, VACUUM FULL) the tables the erasure
-- changed, so that the dead rows and their index entries go too. VACUUM cannot run inside a function (nor a
-- transaction): SQL names the tables and who holds them, the operator's client runs the statement.

create or replace function pymem.memory_erase_tables()
returns text[]
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return array[
    'pymem.memory_links', 'pymem.facts', 'pymem.rules', 'pymem.episodes', 'pymem.keyword_lexemes',
    'pymem.memory_events'
];

comment on function pymem.memory_erase_tables() is
$$The tables pymem.memory_erase deletes from or rewrites (the memories, their links, the keyword lexemes only they
held, the content of their audit events): the ones `pymem erase` VACUUMs after it. (pymem.memory_erase_tenant
returns the tables it deleted from itself.)
Example: select unnest(pymem.memory_erase_tables());$$;


create or replace function pymem.memory_tenant_partitions(tenant text, tables text[])
returns text[]
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_unknown text;
begin
    perform pymem_private.require_text('tenant', tenant, 128);
    if tables is null or pg_catalog.array_position(tables, null) is not null then
        raise exception 'tables must be an array of table names'
            using errcode = 'PM002', hint = 'For example: pymem.memory_erase_tables().';
    end if;
    select t.name into v_unknown
      from pg_catalog.unnest(tables) as t (name)
     where pg_catalog.to_regclass(t.name) is null
     limit 1;
    if v_unknown is not null then
        raise exception 'no table %', v_unknown
            using errcode = 'PM002', hint = 'Name each table with its schema, as pymem.memory_erase_tables() does.';
    end if;
    -- a table partitioned by hash of tenant_id alone: the partition whose bounds (modulus, remainder) take the
    -- tenant's hash; any other table: itself
    return (
        select coalesce(pg_catalog.array_agg(coalesce(p.part, t.name) order by t.ord), '{}')
        from pg_catalog.unnest(tables) with ordinality as t (name, ord)
        left join lateral (
            select pg_catalog.format('%I.%I', n.nspname, c.relname) as part
            from pg_catalog.pg_partitioned_table as k
            join pg_catalog.pg_attribute as a
              on a.attrelid = k.partrelid and a.attnum = k.partattrs[0] and a.attname = 'tenant_id'
            join pg_catalog.pg_inherits as i on i.inhparent = k.partrelid
            join pg_catalog.pg_class as c on c.oid = i.inhrelid
            join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
            cross join lateral pg_catalog.regexp_match(
                pg_catalog.pg_get_expr(c.relpartbound, c.oid), 'modulus (\d+), remainder (\d+)'
            ) as b (bound)
            where k.partrelid = pg_catalog.to_regclass(t.name)
              and k.partstrat = 'h' and k.partnatts = 1
              and pg_catalog.satisfies_hash_partition(
                  k.partrelid, b.bound[1]::integer, b.bound[2]::integer, memory_tenant_partitions.tenant
              )
        ) as p on true
    );
end;
$$;

comment on function pymem.memory_tenant_partitions(text, text[]) is
$$The tables, each a memory table partitioned by tenant (pymem.facts, pymem.rules, pymem.episodes: migration 0038)
replaced by its partition that holds the tenant's rows, the others as they are: what `pymem erase` VACUUMs, so that
VACUUM FULL rewrites and locks the erased tenant's partition, not every tenant's rows. PM002 for a missing tenant or
a name that is no table.
Example: select pymem.memory_tenant_partitions('acme', pymem.memory_erase_tables());$$;


create or replace function pymem.memory_lock_holders(table_name regclass)
returns table (pid integer, role_name name, state text, in_transaction interval)
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
    select a.pid, a.usename, a.state, pg_catalog.now() - a.xact_start
    from pg_catalog.pg_locks as l
    inner join pg_catalog.pg_stat_activity as a on l.pid = a.pid
    where l.relation = table_name and l.granted and l.pid <> pg_catalog.pg_backend_pid()
    order by a.pid;
$$;

comment on function pymem.memory_lock_holders(regclass) is
$$The other sessions holding a lock on a table: pid, role, state and how long their transaction has been open. What
`pymem erase --rewrite` names when VACUUM FULL cannot get its lock (an analyst's open transaction, say). pg_locks
and pg_stat_activity show other roles' sessions in full to a superuser or pg_read_all_stats only.
Example: select * from pymem.memory_lock_holders('pymem.facts');$$;
