-- noqa: disable=RF01
-- The second encoder (migration 0029, issue 30): a deployment may keep a stronger encoder's vectors beside the
-- spec's MiniLM column (all-mpnet-base-v2, 768-d: PYMEM_SECOND_ENCODER), in pymem.second_embeddings, one row per
-- memory with the model id and the MD5 of the text embedded. Search uses them as a third retrieval leg
-- (second_semantic_candidates, fused by memory_candidates and memory_search's RRF) when the caller passes the
-- query's second embedding. The embedding worker fills the table (second_embedding_due, then
-- memory_second_embedding_store); a deleted memory, or one whose text changes, loses its vector (a trigger), and a
-- vector of another model or of another text is never used.

create or replace function pymem_private.configured_second_embedding_model()
returns text
language sql
stable
parallel safe
security definer
set search_path = pg_catalog, pg_temp
begin atomic
    select c.second_model_id
    from pymem_private.embedding_config as c
    where c.singleton;
end;

comment on function pymem_private.configured_second_embedding_model() is
$$The configured second encoder, read as the owner (only the owner has policies on pymem_private.embedding_config).
Example: select pymem_private.configured_second_embedding_model();$$;


create or replace function pymem.memory_second_embedding_model()
returns text
language sql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select pymem_private.configured_second_embedding_model();
end;

comment on function pymem.memory_second_embedding_model() is
$$The configured second encoder (what the server or the embedding worker last started with, PYMEM_SECOND_ENCODER),
or NULL when none: then search's second leg uses vectors of any model.
Example: select pymem.memory_second_embedding_model();$$;


create or replace function pymem_private.set_second_embedding_model(model_id text)
returns table (
    previous_model_id text,
    current_model_id text,
    changed boolean
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_model text;
    v_previous text;
    v_found boolean;
begin
    if model_id is not null then
        v_model := pymem_private.require_text('model_id', model_id, 200);
    end if;
    select true, c.second_model_id into v_found, v_previous
      from pymem_private.embedding_config as c where c.singleton for update;
    if v_found is null then
        raise exception 'no embedding model is recorded yet'
            using errcode = 'PM002',
                  hint = 'Record the first model first: select * from pymem_private.set_embedding_model(''<model id>'').';
    end if;
    if v_previous is distinct from v_model then
        update pymem_private.embedding_config as c
           set second_model_id = v_model, recorded_at = pg_catalog.now(), recorded_by = session_user
         where c.singleton;
    end if;
    return query select v_previous, v_model, v_previous is distinct from v_model;
end;
$$;

comment on function pymem_private.set_second_embedding_model(text) is
$$Records the second encoder (NULL: none) beside the embedding model (operators only: the migrator login, as the
server and the embedding worker do when they start with PYMEM_SECOND_ENCODER). Vectors of another model are
then left out of search until the worker has embedded their memories again. PM002 when no first model is recorded.
Example: select * from pymem_private.set_second_embedding_model('sentence-transformers/all-mpnet-base-v2@qint8');$$;


create or replace function pymem.memory_record_second_embedding_model(model_id text)
returns table (
    previous_model_id text,
    current_model_id text,
    changed boolean
)
language sql
volatile
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select
        s.previous_model_id,
        s.current_model_id,
        s.changed
    from pymem_private.set_second_embedding_model(memory_record_second_embedding_model.model_id) as s;  -- noqa: RF01
end;

comment on function pymem.memory_record_second_embedding_model(text) is
$$Records the second encoder (NULL: none; pymem_private.set_second_embedding_model) and returns the previous one:
what the server does when it starts with PYMEM_SECOND_ENCODER. Operators only (the migrator login).
Example: select * from pymem.memory_record_second_embedding_model('sentence-transformers/all-mpnet-base-v2@qint8');$$;


create or replace function pymem_private.require_second_embedding(argument text, embedding public.vector)
returns public.vector
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return pymem_private.require_vector(argument, embedding, 768, 'the second encoder, all-mpnet-base-v2');

comment on function pymem_private.require_second_embedding(text, public.vector) is
$$Returns the embedding (or NULL), or raises PM002 when it is not a usable 768-d vector (pymem_private.require_vector).
Example: select pymem_private.require_second_embedding('second_query_embedding', null);$$;


create or replace function pymem.memory_second_embedding_store(
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
    v_done integer;
begin
    perform pymem_private.require_vector_batch(
        memory_types, memory_ids, content_md5s, embeddings, embedding_model, 768, 'the second encoder, all-mpnet-base-v2'
    );
    -- the memories are locked FOR SHARE first: an UPDATE of a text waits for this transaction (and its trigger
    -- then deletes the vector stored here), or this waits for it (and the MD5 below sees the new text)
    perform from pymem.episodes as e
     where e.tenant_id = v_tenant and e.id in (
         select x.id from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids)) as x (type, id)
          where x.type = 'episode'
     )
     for share;
    perform from pymem.facts as f
     where f.tenant_id = v_tenant and f.id in (
         select x.id from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids)) as x (type, id)
          where x.type = 'fact'
     )
     for share;
    perform from pymem.rules as r
     where r.tenant_id = v_tenant and r.id in (
         select x.id from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids)) as x (type, id)
          where x.type = 'rule'
     )
     for share;
    -- a memory of this tenant whose text still has the MD5 that was embedded (of one named twice, the first)
    insert into pymem.second_embeddings as s (tenant_id, memory_type, id, embedding_model, content_md5, embedding)
    select v_tenant, a.type, a.id, memory_second_embedding_store.embedding_model, a.md5, a.embedding
      from (
          select distinct on (x.type, x.id) x.*
            from rows from (
                pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids), pg_catalog.unnest(content_md5s),
                pg_catalog.unnest(embeddings)
            ) with ordinality as x (type, id, md5, embedding, n)
           order by x.type, x.id, x.n
      ) as a
     where a.md5 = case a.type
         when 'episode' then (select pg_catalog.md5(e.content) from pymem.episodes as e where e.tenant_id = v_tenant and e.id = a.id)
         when 'fact' then (select pg_catalog.md5(f.content) from pymem.facts as f where f.tenant_id = v_tenant and f.id = a.id)
         else (select pg_catalog.md5(r.content) from pymem.rules as r where r.tenant_id = v_tenant and r.id = a.id)
     end
    on conflict (tenant_id, memory_type, id) do update
        set embedding_model = excluded.embedding_model, content_md5 = excluded.content_md5,
            embedding = excluded.embedding, embedded_at = pg_catalog.now()
        where s.tenant_id = v_tenant;
    get diagnostics v_done = row_count;
    return v_done;
end;
$$;

comment on function pymem.memory_second_embedding_store(text[], uuid[], text[], public.vector[], text) is
$$Stores the second encoder's vectors of memories of the current tenant (replacing what each had): a memory gets
its vector only when its text still has the MD5 that was embedded; returns how many were stored. PM002 for arrays
of different lengths, an unknown type, or a vector that is not a usable 768-d one.
Example: select memory_second_embedding_store(array['fact'], array['<uuid>'::uuid], array['<md5>'], array['[...]'::vector], 'sentence-transformers/all-mpnet-base-v2@qint8');$$;


create or replace function pymem_private.second_embedding_due("limit" integer, model_id text)
returns table (tenant_id text, memory_type text, memory_id uuid, content text, content_md5 text)
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select
        x.tenant_id,
        x.memory_type,
        x.memory_id,
        x.content,
        pg_catalog.md5(x.content) as content_md5
    -- any due rows will do, in any order (the LIMITs take the first found)
    from (
        (
            select
                e.tenant_id,
                'episode'::text as memory_type,
                e.id as memory_id,
                e.content
            from pymem.episodes as e
            where
                e.forgotten_at is null and not exists (
                    select from pymem.second_embeddings as s
                    where
                        s.tenant_id = e.tenant_id and s.memory_type = 'episode' and s.id = e.id
                        and s.embedding_model = second_embedding_due.model_id
                )
            limit second_embedding_due."limit"  -- noqa: AM09
        )
        union all
        (
            select
                f.tenant_id,
                'fact'::text,
                f.id,
                f.content
            from pymem.facts as f
            where
                f.validity in ('active', 'pending_review') and not exists (
                    select from pymem.second_embeddings as s
                    where
                        s.tenant_id = f.tenant_id and s.memory_type = 'fact' and s.id = f.id
                        and s.embedding_model = second_embedding_due.model_id
                )
            limit second_embedding_due."limit"  -- noqa: AM09
        )
        union all
        (
            select
                r.tenant_id,
                'rule'::text,
                r.id,
                r.content
            from pymem.rules as r
            where
                r.forgotten_at is null and not exists (
                    select from pymem.second_embeddings as s
                    where
                        s.tenant_id = r.tenant_id and s.memory_type = 'rule' and s.id = r.id
                        and s.embedding_model = second_embedding_due.model_id
                )
            limit second_embedding_due."limit"  -- noqa: AM09
        )
    ) as x
    limit second_embedding_due."limit";  -- noqa: AM09
end;

comment on function pymem_private.second_embedding_due(integer, text) is
$$Up to "limit" live memories of any tenant (episodes not forgotten, facts active or pending review, rules not
forgotten) without a vector of model_id in pymem.second_embeddings, with their text and its MD5: what the embedding
worker embeds next with the second encoder (operators only: the migrator login, which reads every tenant).
Example: select * from pymem_private.second_embedding_due(256, 'sentence-transformers/all-mpnet-base-v2@qint8');$$;


create or replace function pymem_private.drop_second_embedding()
returns trigger
language plpgsql
volatile
-- SECURITY DEFINER: tenant roles hold no DELETE privilege; the owner deletes, in the writer's tenant
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
    delete from pymem.second_embeddings as s
     where s.tenant_id = old.tenant_id and s.memory_type = tg_argv[0] and s.id = old.id;
    return null;
end;
$$;

comment on function pymem_private.drop_second_embedding() is
$$Trigger (after delete of a memory, or an update that changes its text; on episodes, facts and rules; the argument
is the memory type): the memory's second-encoder vector goes with it (the worker embeds the new text again).$$;

create or replace trigger episodes_drop_second_embedding_delete
after delete on pymem.episodes
for each row execute function pymem_private.drop_second_embedding('episode');

create or replace trigger episodes_drop_second_embedding_update
after update of content on pymem.episodes
for each row when (old.content is distinct from new.content)
execute function pymem_private.drop_second_embedding('episode');

create or replace trigger facts_drop_second_embedding_delete
after delete on pymem.facts
for each row execute function pymem_private.drop_second_embedding('fact');

create or replace trigger facts_drop_second_embedding_update
after update of content on pymem.facts
for each row when (old.content is distinct from new.content)
execute function pymem_private.drop_second_embedding('fact');

create or replace trigger rules_drop_second_embedding_delete
after delete on pymem.rules
for each row execute function pymem_private.drop_second_embedding('rule');

create or replace trigger rules_drop_second_embedding_update
after update of content on pymem.rules
for each row when (old.content is distinct from new.content)
execute function pymem_private.drop_second_embedding('rule');


create or replace function pymem_private.second_semantic_candidates(
    p_tenant text,
    p_query_embedding public.vector,
    p_model text,
    p_types text[],
    p_exact_types text[],
    p_scope text,
    p_min_confidence double precision,
    p_as_of timestamptz,
    p_at timestamptz,
    p_depth integer
)
returns table (kind text, id uuid, created_at timestamptz, rank integer, score double precision)
language sql
stable
rows 50
security invoker
begin atomic
    with
    -- per type: the nearest 2 x p_depth vectors of the tenant (by the HNSW index, iteratively while its filters
    -- reject rows; exactly where the tenant is small), then those whose memory is searchable and still has the
    -- text embedded, p_depth at most (a memory superseded or forgotten keeps its vector until it is deleted)
    second_all as materialized (
        (
            select
                'fact'::text as kind,
                v.id,
                v.created_at,
                n.distance
            from (
                select
                    s.id,
                    s.content_md5,
                    s.embedding operator (public.<=>) second_semantic_candidates.p_query_embedding as distance
                from pymem.second_embeddings as s
                where
                    'fact' = any(second_semantic_candidates.p_types) and not ('fact' = any(second_semantic_candidates.p_exact_types))
                    and s.tenant_id = second_semantic_candidates.p_tenant and s.memory_type = 'fact'
                    and (second_semantic_candidates.p_model is null or s.embedding_model = second_semantic_candidates.p_model)
                order by s.embedding operator (public.<=>) second_semantic_candidates.p_query_embedding
                limit 2 * second_semantic_candidates.p_depth
            ) as n
            inner join pymem_private.searchable_facts(
                second_semantic_candidates.p_tenant,
                second_semantic_candidates.p_scope,
                second_semantic_candidates.p_min_confidence,
                second_semantic_candidates.p_as_of,
                second_semantic_candidates.p_at
            ) as v on n.id = v.id
            where n.content_md5 = pg_catalog.md5(v.content)
            order by n.distance
            limit second_semantic_candidates.p_depth
        )
        union all
        (
            select
                'fact'::text,
                v.id,
                v.created_at,
                n.distance
            from (
                select
                    s.id,
                    s.content_md5,
                    public.cosine_distance(s.embedding, second_semantic_candidates.p_query_embedding) as distance
                from pymem.second_embeddings as s
                where
                    'fact' = any(second_semantic_candidates.p_types) and 'fact' = any(second_semantic_candidates.p_exact_types)
                    and s.tenant_id = second_semantic_candidates.p_tenant and s.memory_type = 'fact'
                    and (second_semantic_candidates.p_model is null or s.embedding_model = second_semantic_candidates.p_model)
                order by public.cosine_distance(s.embedding, second_semantic_candidates.p_query_embedding)
                limit 2 * second_semantic_candidates.p_depth
            ) as n
            inner join pymem_private.searchable_facts(
                second_semantic_candidates.p_tenant,
                second_semantic_candidates.p_scope,
                second_semantic_candidates.p_min_confidence,
                second_semantic_candidates.p_as_of,
                second_semantic_candidates.p_at
            ) as v on n.id = v.id
            where n.content_md5 = pg_catalog.md5(v.content)
            order by n.distance
            limit second_semantic_candidates.p_depth
        )
        union all
        (
            select
                'rule'::text,
                v.id,
                v.created_at,
                n.distance
            from (
                select
                    s.id,
                    s.content_md5,
                    s.embedding operator (public.<=>) second_semantic_candidates.p_query_embedding as distance
                from pymem.second_embeddings as s
                where
                    'rule' = any(second_semantic_candidates.p_types) and not ('rule' = any(second_semantic_candidates.p_exact_types))
                    and s.tenant_id = second_semantic_candidates.p_tenant and s.memory_type = 'rule'
                    and (second_semantic_candidates.p_model is null or s.embedding_model = second_semantic_candidates.p_model)
                order by s.embedding operator (public.<=>) second_semantic_candidates.p_query_embedding
                limit 2 * second_semantic_candidates.p_depth
            ) as n
            inner join pymem_private.searchable_rules(
                second_semantic_candidates.p_tenant,
                second_semantic_candidates.p_scope,
                second_semantic_candidates.p_min_confidence,
                second_semantic_candidates.p_at
            ) as v on n.id = v.id
            where n.content_md5 = pg_catalog.md5(v.content)
            order by n.distance
            limit second_semantic_candidates.p_depth
        )
        union all
        (
            select
                'rule'::text,
                v.id,
                v.created_at,
                n.distance
            from (
                select
                    s.id,
                    s.content_md5,
                    public.cosine_distance(s.embedding, second_semantic_candidates.p_query_embedding) as distance
                from pymem.second_embeddings as s
                where
                    'rule' = any(second_semantic_candidates.p_types) and 'rule' = any(second_semantic_candidates.p_exact_types)
                    and s.tenant_id = second_semantic_candidates.p_tenant and s.memory_type = 'rule'
                    and (second_semantic_candidates.p_model is null or s.embedding_model = second_semantic_candidates.p_model)
                order by public.cosine_distance(s.embedding, second_semantic_candidates.p_query_embedding)
                limit 2 * second_semantic_candidates.p_depth
            ) as n
            inner join pymem_private.searchable_rules(
                second_semantic_candidates.p_tenant,
                second_semantic_candidates.p_scope,
                second_semantic_candidates.p_min_confidence,
                second_semantic_candidates.p_at
            ) as v on n.id = v.id
            where n.content_md5 = pg_catalog.md5(v.content)
            order by n.distance
            limit second_semantic_candidates.p_depth
        )
        union all
        (
            select
                'episode'::text,
                v.id,
                v.created_at,
                n.distance
            from (
                select
                    s.id,
                    s.content_md5,
                    s.embedding operator (public.<=>) second_semantic_candidates.p_query_embedding as distance
                from pymem.second_embeddings as s
                where
                    'episode' = any(second_semantic_candidates.p_types) and not ('episode' = any(second_semantic_candidates.p_exact_types))
                    and s.tenant_id = second_semantic_candidates.p_tenant and s.memory_type = 'episode'
                    and (second_semantic_candidates.p_model is null or s.embedding_model = second_semantic_candidates.p_model)
                order by s.embedding operator (public.<=>) second_semantic_candidates.p_query_embedding
                limit 2 * second_semantic_candidates.p_depth
            ) as n
            inner join pymem_private.searchable_episodes(
                second_semantic_candidates.p_tenant, second_semantic_candidates.p_scope, second_semantic_candidates.p_at
            ) as v on n.id = v.id
            where n.content_md5 = pg_catalog.md5(v.content)
            order by n.distance
            limit second_semantic_candidates.p_depth
        )
        union all
        (
            select
                'episode'::text,
                v.id,
                v.created_at,
                n.distance
            from (
                select
                    s.id,
                    s.content_md5,
                    public.cosine_distance(s.embedding, second_semantic_candidates.p_query_embedding) as distance
                from pymem.second_embeddings as s
                where
                    'episode' = any(second_semantic_candidates.p_types) and 'episode' = any(second_semantic_candidates.p_exact_types)
                    and s.tenant_id = second_semantic_candidates.p_tenant and s.memory_type = 'episode'
                    and (second_semantic_candidates.p_model is null or s.embedding_model = second_semantic_candidates.p_model)
                order by public.cosine_distance(s.embedding, second_semantic_candidates.p_query_embedding)
                limit 2 * second_semantic_candidates.p_depth
            ) as n
            inner join pymem_private.searchable_episodes(
                second_semantic_candidates.p_tenant, second_semantic_candidates.p_scope, second_semantic_candidates.p_at
            ) as v on n.id = v.id
            where n.content_md5 = pg_catalog.md5(v.content)
            order by n.distance
            limit second_semantic_candidates.p_depth
        )
    )

    select
        r.kind,
        r.id,
        r.created_at,
        r.rank,
        r.score
    from (
        select
            s.kind,
            s.id,
            s.created_at,
            pg_catalog.row_number() over (order by s.distance asc, s.created_at desc, s.id asc)::integer as rank,
            greatest(0.0, 1.0 - s.distance) as score
        from second_all as s
    ) as r
    where r.rank <= second_semantic_candidates.p_depth;
end;

comment on function pymem_private.second_semantic_candidates(
    text, public.vector, text, text[], text[], text, double precision, timestamptz, timestamptz, integer
) is
$$The second encoder's leg of search: of the 2 x p_depth vectors of p_types in pymem.second_embeddings (of model
p_model; any, for NULL) nearest to p_query_embedding, those of searchable rows that still have the text embedded,
p_depth at most per type, ranked from 1 by cosine distance (ties: created_at DESC, id ASC), score = 1 - cosine distance.
A type in p_exact_types is searched exactly, the others by the HNSW index second_embeddings_embedding_idx (its
depth is the caller's hnsw.ef_search). Inlined into memory_candidates' query, under its settings.
Example: select * from pymem_private.second_semantic_candidates('demo', (select embedding from pymem.second_embeddings
limit 1), null, '{fact,rule,episode}', '{}', null, 0.2, null, now(), 20);$$;
