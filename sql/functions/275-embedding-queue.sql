-- noqa: disable=RF01
-- The embedding queue (migration 0026): a memory written without an embedding (an analyst's store in psql, another
-- application's INSERT, an import without a model) waits in pymem.embedding_queue for the embedding worker
-- (pymem.embedding_worker), which claims rows with FOR UPDATE SKIP LOCKED, embeds them in batches and writes back
-- through memory_embedding_complete, which checks the text did not change meanwhile. Embedded, forgotten or
-- deleted memories leave the queue; a row that fails is retried with backoff and, after five tries, kept in
-- pymem.embedding_failures with its error.

create or replace function pymem_private.queue_embedding()
returns trigger
language plpgsql
volatile
-- SECURITY DEFINER: tenant roles read their queue rows but do not write them; the owner does, for any writer
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
    v_type text := tg_argv[0];
    v_live boolean;
begin
    if tg_op = 'DELETE' then
        delete from pymem.embedding_queue as q
         where q.tenant_id = old.tenant_id and q.memory_type = v_type and q.memory_id = old.id;
        return null;
    end if;
    -- (each branch is compiled only for the table it runs on)
    if v_type = 'fact' then
        v_live := new.validity in ('active', 'pending_review');
    else
        v_live := new.forgotten_at is null;
    end if;
    if new.embedding is null and v_live then
        insert into pymem.embedding_queue as q (tenant_id, memory_type, memory_id, content, content_md5)
        values (new.tenant_id, v_type, new.id, new.content, pg_catalog.md5(new.content))
        on conflict (tenant_id, memory_type, memory_id) do update
            set content = excluded.content, content_md5 = excluded.content_md5,
                enqueued_at = pg_catalog.now(), not_before = pg_catalog.now(), attempts = 0, last_error = null
            where q.content_md5 is distinct from excluded.content_md5;
        -- at commit: an idle worker wakes within its LISTEN
        perform pg_catalog.pg_notify('pymem_embedding', new.tenant_id);
    elsif tg_op = 'UPDATE' then
        delete from pymem.embedding_queue as q
         where q.tenant_id = new.tenant_id and q.memory_type = v_type and q.memory_id = new.id;
    end if;
    return null;
end;
$$;

comment on function pymem_private.queue_embedding() is
$$Trigger (after insert or delete of a memory without an embedding, and an update of content, embedding or liveness
of one that has none or had none; on episodes, facts and rules; the argument is the memory type): a live memory
without an embedding is queued for the embedding worker (its text
and MD5; a changed text is queued anew) and pymem_embedding is notified; one embedded, forgotten or deleted
leaves the queue.$$;


-- A row stored with its embedding (what the MCP tools and the bulk loads write) fires nothing: the triggers run only
-- when a memory is stored without one, loses or gets one, or changes text, state or existence while it has none.
drop trigger if exists episodes_queue_embedding on pymem.episodes;
drop trigger if exists facts_queue_embedding on pymem.facts;
drop trigger if exists rules_queue_embedding on pymem.rules;

create or replace trigger episodes_queue_embedding_insert
after insert on pymem.episodes
for each row when (new.embedding is null) execute function pymem_private.queue_embedding('episode');

create or replace trigger episodes_queue_embedding_update
after update of content, embedding, forgotten_at on pymem.episodes
for each row when (new.embedding is null or old.embedding is null)
execute function pymem_private.queue_embedding('episode');

create or replace trigger episodes_queue_embedding_delete
after delete on pymem.episodes
for each row when (old.embedding is null) execute function pymem_private.queue_embedding('episode');

create or replace trigger facts_queue_embedding_insert
after insert on pymem.facts
for each row when (new.embedding is null) execute function pymem_private.queue_embedding('fact');

create or replace trigger facts_queue_embedding_update
after update of content, embedding, validity on pymem.facts
for each row when (new.embedding is null or old.embedding is null)
execute function pymem_private.queue_embedding('fact');

create or replace trigger facts_queue_embedding_delete
after delete on pymem.facts
for each row when (old.embedding is null) execute function pymem_private.queue_embedding('fact');

create or replace trigger rules_queue_embedding_insert
after insert on pymem.rules
for each row when (new.embedding is null) execute function pymem_private.queue_embedding('rule');

create or replace trigger rules_queue_embedding_update
after update of content, embedding, forgotten_at on pymem.rules
for each row when (new.embedding is null or old.embedding is null)
execute function pymem_private.queue_embedding('rule');

create or replace trigger rules_queue_embedding_delete
after delete on pymem.rules
for each row when (old.embedding is null) execute function pymem_private.queue_embedding('rule');


create or replace function pymem_private.embedding_claim("limit" integer default 64, lease interval default '5 minutes')
returns table (
    tenant_id text,
    memory_type text,
    memory_id uuid,
    content text,
    content_md5 text,
    attempts integer
)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
begin
    if "limit" is null or "limit" < 1 or "limit" > 1000 then
        raise exception 'limit must be between 1 and 1000, not %', coalesce("limit"::text, 'NULL') using errcode = 'PM002';
    end if;
    if lease is null or lease <= interval '0' then
        raise exception 'lease must be a positive interval' using errcode = 'PM002';
    end if;
    -- the due rows no other worker holds, oldest first; claimed for the lease (a worker that dies gives them back)
    return query
    update pymem.embedding_queue as q
       set not_before = pg_catalog.now() + lease, attempts = q.attempts + 1
      from (
          select d.tenant_id, d.memory_type, d.memory_id
            from pymem.embedding_queue as d
           where d.not_before <= pg_catalog.now()
           order by d.enqueued_at, d.tenant_id, d.memory_id
           limit "limit"
             for update skip locked
      ) as c
     where q.tenant_id = c.tenant_id and q.memory_type = c.memory_type and q.memory_id = c.memory_id
    returning q.tenant_id, q.memory_type, q.memory_id, q.content, q.content_md5, q.attempts;
end;
$$;

comment on function pymem_private.embedding_claim(integer, interval) is
$$The embedding worker's claim: up to "limit" due queue rows (any tenant) no other worker holds (FOR UPDATE SKIP
LOCKED), leased for lease (not_before moves on, attempts counts the try), with the text to embed and its MD5.
Operators only (the worker's migrator login).
Example: select tenant_id, memory_type, memory_id from pymem_private.embedding_claim(64);$$;


create or replace function pymem_private.embedding_fail(
    p_tenant text, p_type text, p_id uuid, p_error text, max_attempts integer default 5
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
    v_attempts integer;
begin
    select q.attempts into v_attempts
      from pymem.embedding_queue as q
     where q.tenant_id = p_tenant and q.memory_type = p_type and q.memory_id = p_id
       for update;
    if v_attempts is null then
        return 'gone';
    end if;
    if v_attempts >= max_attempts then
        insert into pymem.embedding_failures as f (tenant_id, memory_type, memory_id, attempts, error)
        values (p_tenant, p_type, p_id, v_attempts, pg_catalog.left(coalesce(p_error, 'unknown error'), 2000))
        on conflict (tenant_id, memory_type, memory_id) do update
            set attempts = excluded.attempts, error = excluded.error, failed_at = pg_catalog.now();
        delete from pymem.embedding_queue as q
         where q.tenant_id = p_tenant and q.memory_type = p_type and q.memory_id = p_id;
        return 'failed';
    end if;
    -- backoff: 2, 4, 8, 16 seconds after the 1st to 4th try
    update pymem.embedding_queue as q
       set not_before = pg_catalog.now() + pg_catalog.make_interval(secs => 2.0 ^ v_attempts),
           last_error = pg_catalog.left(p_error, 2000)
     where q.tenant_id = p_tenant and q.memory_type = p_type and q.memory_id = p_id;
    return 'retry';
end;
$$;

comment on function pymem_private.embedding_fail(text, text, uuid, text, integer) is
$$A claimed row the worker could not embed: retried after 2^attempts seconds ('retry'), or after max_attempts tries
kept in pymem.embedding_failures with its error and taken off the queue ('failed'); 'gone' when it left the
queue meanwhile. Operators only.
Example: select pymem_private.embedding_fail('acme', 'fact', '<uuid>', 'model not loaded');$$;


create or replace function pymem.memory_embedding_complete(
    memory_types text[],
    memory_ids uuid[],
    content_md5s text[],
    embeddings public.vector[],
    embedding_model text
)
returns integer
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_done integer := 0;
    v_count integer;
    v_type text;
begin
    perform pymem_private.require_vector_batch(
        memory_types, memory_ids, content_md5s, embeddings, embedding_model, 384, 'MiniLM-L6'
    );
    -- one UPDATE per table named (one of three names, never the caller's text): each memory is written only when
    -- its text is still the one embedded and nothing embedded it meanwhile (of a memory named twice with its
    -- current MD5, the first); the queue trigger then takes it off the queue
    foreach v_type in array array['episode', 'fact', 'rule'] loop
        continue when not v_type = any(memory_types);
        execute pg_catalog.format(
            'update pymem.%I as m set embedding = u.embedding, embedding_model = $2'
            '  from (select distinct on (a.id, a.md5) a.id, a.md5, a.embedding, a.n'
            '          from rows from (pg_catalog.unnest($1), pg_catalog.unnest($3), pg_catalog.unnest($4),'
            '                          pg_catalog.unnest($5)) with ordinality as a (type, id, md5, embedding, n)'
            '         where a.type = $6'
            '         order by a.id, a.md5, a.n) as u'
            ' where m.tenant_id = $7 and m.id = u.id and m.embedding is null and pg_catalog.md5(m.content) = u.md5',
            v_type || 's'
        ) using memory_types, memory_embedding_complete.embedding_model, memory_ids, content_md5s, embeddings,
                v_type, v_tenant;
        get diagnostics v_count = row_count;
        v_done := v_done + v_count;
    end loop;
    return v_done;
end;
$$;

comment on function pymem.memory_embedding_complete(text[], uuid[], text[], public.vector[], text) is
$$The embedding worker's write-back, in the tenant's transaction: each memory gets its embedding when it has none
and its text still has the MD5 that was embedded (a text changed meanwhile was queued anew); returns how many
were written. The queue trigger takes them off the queue.
Example: select memory_embedding_complete(array['fact'], array['<uuid>'::uuid], array['<md5>'], array['[...]'::vector], 'sentence-transformers/all-MiniLM-L6-v2');$$;


create or replace function pymem.memory_embedding_backlog()
returns table (waiting bigint, due bigint, retrying bigint, oldest timestamptz, failed bigint, last_error text)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
begin
    return query
    select q.waiting, q.due, q.retrying, q.oldest, f.failed, f.last_error
      from (
          select pg_catalog.count(*) as waiting,
                 pg_catalog.count(*) filter (where e.not_before <= pg_catalog.now()) as due,
                 pg_catalog.count(*) filter (where e.attempts > 0) as retrying,
                 pg_catalog.min(e.enqueued_at) as oldest
            from pymem.embedding_queue as e
           where e.tenant_id = v_tenant
      ) as q
     cross join (
         select pg_catalog.count(*) as failed,
                (pg_catalog.array_agg(x.error order by x.failed_at desc))[1] as last_error
           from pymem.embedding_failures as x
          where x.tenant_id = v_tenant
     ) as f;
end;
$$;

comment on function pymem.memory_embedding_backlog() is
$$What waits for the embedding worker in the current tenant: waiting rows, those due now, those retrying after a
failure, the oldest's enqueue time, and the memories kept as failed with the last error.
Example: select * from memory_embedding_backlog();$$;
