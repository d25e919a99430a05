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
