-- Embedding versions: the model that embeds new text is recorded in
-- pymem_private.embedding_config (one row). Rows embedded by another model, or not embedded at
-- all, are flagged: the semantic leg of search skips rows of another model (they are found by
-- keyword only) until `pymem reembed` has re-embedded them with the configured model.

create or replace function pymem_private.configured_embedding_model()
returns text
language sql
stable
parallel safe
security definer
set search_path = pg_catalog, pg_temp
begin atomic
    select c.model_id
    from pymem_private.embedding_config as c
    where c.singleton;
end;

comment on function pymem_private.configured_embedding_model() is
$$The configured embedding model, read as the owner: SECURITY DEFINER because only the owner has policies on
pymem_private.embedding_config (it holds no tenant data; tenant roles get no table privilege).
Example: select pymem_private.configured_embedding_model();$$;


create or replace function pymem.memory_embedding_model()
returns text
language sql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select pymem_private.configured_embedding_model();
end;

comment on function pymem.memory_embedding_model() is
$$The configured embedding model (what the server or `pymem reembed` last started with), or NULL when none
was recorded: then no row is flagged and search uses every embedding.
Example: select pymem.memory_embedding_model();$$;


create or replace function pymem_private.set_embedding_model(model_id text)
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
    v_model text := pymem_private.require_text('model_id', model_id, 200);
    v_previous text;
begin
    select c.model_id into v_previous from pymem_private.embedding_config as c where c.singleton for update;
    if v_previous is distinct from v_model then
        insert into pymem_private.embedding_config as c (singleton, model_id)
        values (true, v_model)
        on conflict (singleton) do update
        set model_id = excluded.model_id, recorded_at = pg_catalog.now(), recorded_by = session_user;
    end if;
    return query select v_previous, v_model, v_previous is distinct from v_model;
end;
$$;

comment on function pymem_private.set_embedding_model(text) is
$$Records the embedding model that embeds new text (operators only: the migrator login, as
pymem.maintenance.record_embedding_model does when the server starts). Rows of any other model become
flagged for re-embedding. Recording the same model again changes nothing.
Example: select * from pymem_private.set_embedding_model('sentence-transformers/all-MiniLM-L6-v2');$$;


create or replace function pymem.memory_embedding_status()
returns table (
    tenant_id text,
    memory_type text,
    embedding_model text,
    memories bigint,
    flagged boolean
)
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    with
    rows_by_model as (
        select
            e.tenant_id,
            'episode'::text as memory_type,
            e.embedding_model,
            pg_catalog.count(*) as memories
        from pymem.episodes as e
        group by e.tenant_id, e.embedding_model
        union all
        select
            f.tenant_id,
            'fact'::text as memory_type,
            f.embedding_model,
            pg_catalog.count(*) as memories
        from pymem.facts as f
        group by f.tenant_id, f.embedding_model
        union all
        select
            r.tenant_id,
            'rule'::text as memory_type,
            r.embedding_model,
            pg_catalog.count(*) as memories
        from pymem.rules as r
        group by r.tenant_id, r.embedding_model
    ),

    configured as (
        select pymem.memory_embedding_model() as model_id
    )

    select
        m.tenant_id,
        m.memory_type,
        m.embedding_model,
        m.memories,
        c.model_id is not null and coalesce(m.embedding_model <> c.model_id, true) as flagged
    from rows_by_model as m
    cross join configured as c
    order by m.tenant_id, m.memory_type, m.embedding_model nulls first;
end;

comment on function pymem.memory_embedding_status() is
$$Memories per tenant, type and embedding model (NULL: stored without an embedding). flagged: the model is
not the configured one (pymem.memory_embedding_model()), so the rows need re-embedding (`pymem reembed`);
rows of another model are found by keyword only until then. A tenant role sees its own tenant; an elevated
pymem_admin or the migrator sees every tenant.
Example: select * from pymem.memory_embedding_status() where flagged;$$;


create or replace function pymem.memory_reembed_candidates("limit" integer default 100)
returns table (
    memory_type text,
    memory_id uuid,
    content text
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_model text := pymem.memory_embedding_model();
    v_limit integer := pymem_private.require_limit('limit', "limit");
begin
    if v_model is null then
        raise exception 'no embedding model is recorded'
            using errcode = 'PM002', hint = 'Start the server or run `pymem reembed`: they record the model.';
    end if;
    return query
    select s.memory_type, s.memory_id, s.content from (
        (
            select 'fact'::text as memory_type, f.id as memory_id, f.content
            from pymem.facts as f
            where f.tenant_id = v_tenant and f.embedding_model is distinct from v_model
            order by f.id limit v_limit
        )
        union all
        (
            select 'rule'::text, r.id, r.content
            from pymem.rules as r
            where r.tenant_id = v_tenant and r.embedding_model is distinct from v_model
            order by r.id limit v_limit
        )
        union all
        (
            -- an episode of a session is embedded with its previous turn (sql/functions/122-session-context.sql)
            select 'episode'::text, e.id, pymem_private.episode_embedding_text(e.retrieval_context, e.content)
            from pymem.episodes as e
            where e.tenant_id = v_tenant and e.embedding_model is distinct from v_model
            order by e.id limit v_limit
        )
    ) as s
    order by s.memory_type, s.memory_id
    limit v_limit;
end;
$$;

comment on function pymem.memory_reembed_candidates(integer) is
$$Up to "limit" memories of the current tenant flagged for re-embedding (embedding_model is not the configured
model, or no embedding), with the text to embed. PM002 when no model is recorded.
Example: select * from memory_reembed_candidates("limit" => 50);$$;


create or replace function pymem.memory_set_embedding(
    type text, id uuid, embedding public.vector, embedding_model text
)
returns boolean
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_type text := pymem_private.require_memory_type('type', type, array['episode', 'fact', 'rule']);
    v_embedding public.vector := pymem_private.require_embedding('embedding', embedding);
    v_model text := pymem_private.require_text('embedding_model', embedding_model, 200);
    v_configured text := pymem.memory_embedding_model();
begin
    if v_embedding is null then
        raise exception 'embedding is required' using errcode = 'PM002';
    end if;
    if v_configured is not null and v_model <> v_configured then
        raise exception 'embedding_model % is not the configured model %', v_model, v_configured
            using errcode = 'PM002', hint = 'Re-embed with the configured model, or record the new one first.';
    end if;
    if v_type = 'fact' then
        update pymem.facts as f set embedding = v_embedding, embedding_model = v_model
        where f.tenant_id = v_tenant and f.id = memory_set_embedding.id;
    elsif v_type = 'rule' then
        update pymem.rules as r set embedding = v_embedding, embedding_model = v_model
        where r.tenant_id = v_tenant and r.id = memory_set_embedding.id;
    else
        update pymem.episodes as e set embedding = v_embedding, embedding_model = v_model
        where e.tenant_id = v_tenant and e.id = memory_set_embedding.id;
    end if;
    if not found then
        perform pymem_private.not_found(v_type, id);
    end if;
    return true;
end;
$$;

comment on function pymem.memory_set_embedding(text, uuid, public.vector, text) is
$$Replaces a memory's embedding (re-embedding, `pymem reembed`): its text is unchanged, so no event is written.
embedding_model must be the configured model when one is recorded (PM002); PM003 when the tenant has no such
memory.
Example: select memory_set_embedding(type => 'fact', id => '00000000-0000-0000-0000-000000000000',
embedding => array_fill(0.05, array[384])::vector, embedding_model => 'sentence-transformers/all-MiniLM-L6-v2');$$;

comment on table pymem_private.embedding_config is
$$One row: the embedding model that embeds new text (model_id, e.g. sentence-transformers/all-MiniLM-L6-v2), when
and by whom it was recorded. Rows of pymem.episodes / facts / rules with another embedding_model are flagged for
re-embedding. Only the owner has policies; tenant roles read it through pymem.memory_embedding_model().$$;


create or replace function pymem.memory_record_embedding_model(model_id text)
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
    from pymem_private.set_embedding_model(memory_record_embedding_model.model_id) as s;  -- noqa: RF01
end;

comment on function pymem.memory_record_embedding_model(text) is
$$Records the embedding model that embeds new text (pymem_private.set_embedding_model) and returns the previous
one: what the server and `pymem reembed` do when they start. Rows of any other model become flagged for
re-embedding; recording the same model again changes nothing. Operators only (the migrator login).
Example: select * from pymem.memory_record_embedding_model('sentence-transformers/all-MiniLM-L6-v2');$$;


create or replace function pymem.memory_reembed_plan(
    model_id text,
    batch integer default 100,
    tenants text[] default null
)
returns table (
    tenant_id text,
    memories bigint
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_model text := pymem_private.require_text('model_id', model_id, 200);
    v_batch integer := pymem_private.require_limit('batch', batch);
begin
    return query
    select m.tenant_id, pg_catalog.count(*) as memories
    from (
        select e.tenant_id from pymem.episodes as e where e.embedding_model is distinct from v_model
        union all
        select f.tenant_id from pymem.facts as f where f.embedding_model is distinct from v_model
        union all
        select r.tenant_id from pymem.rules as r where r.embedding_model is distinct from v_model
    ) as m
    where memory_reembed_plan.tenants is null or m.tenant_id = any(memory_reembed_plan.tenants)
    group by m.tenant_id
    order by m.tenant_id;
end;
$$;

comment on function pymem.memory_reembed_plan(text, integer, text[]) is
$$What `pymem reembed` will re-embed with model_id, per tenant (all, or only those in tenants): how many memories
were embedded by another model or not at all (once model_id is recorded, exactly the flagged ones of
memory_embedding_status). It first checks the run's arguments, so a bad one fails before anything changes: model_id
non-empty (at most 200 characters), batch (rows per committed batch of memory_reembed_candidates) between 1 and 1000
(PM002). Reads every tenant: an elevated pymem_admin or the migrator.
Example: select * from pymem.memory_reembed_plan('sentence-transformers/all-MiniLM-L6-v2', batch => 64);$$;
