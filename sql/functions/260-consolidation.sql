-- noqa: disable=RF01
-- Consolidation (REQ-MEM-011): unconsolidated episodes become facts and rules, each stored through the
-- grounded ingestion of memory_store_fact / memory_store_rule with its episode as citation (a derived_from
-- link), and the episode is marked consolidated. The built-in extractor is memory_extract (255-extraction.sql);
-- a model's extractor (MCP sampling: the memory_consolidate tool, pymem.consolidation) hands its statements to
-- memory_consolidate_episode instead.

create or replace function pymem_private.consolidate_statement(
    p_episode_id uuid, p_butler text, p_memory_type text, p_subject text, p_predicate text, p_statement text,
    p_source text default 'agent_inference', p_embedding public.vector default null, p_embedding_model text default null
)
returns text
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_state text;
begin
    -- through the same grounded ingestion as any store, the episode as citation (a derived_from link)
    if p_memory_type = 'fact' then
        select s.review_state into v_state
          from pymem.memory_store_fact(
              subject => p_subject, predicate => p_predicate, content => p_statement, source => p_source,
              citation => p_episode_id::text, source_butler => p_butler, embedding => p_embedding,
              embedding_model => p_embedding_model
          ) as s;
    else
        select s.review_state into v_state
          from pymem.memory_store_rule(
              content => p_statement, source => p_source, citation => p_episode_id::text, source_butler => p_butler,
              embedding => p_embedding, embedding_model => p_embedding_model
          ) as s;
    end if;
    return v_state;
exception when sqlstate 'PM007' then
    -- speculation: nothing stored (the subtransaction rolled back), the refusal audited
    perform pymem.memory_record_refusal(
        memory_type => p_memory_type, content => p_statement, source => p_source, citation => p_episode_id::text
    );
    return 'refused';
end;
$$;

comment on function pymem_private.consolidate_statement(
    uuid, text, text, text, text, text, text, public.vector, text
) is
$$Stores one statement drawn from an episode through memory_store_fact or memory_store_rule (source, the episode
as citation, its butler as source_butler) and returns its review state; 'refused' (and an audit row) when
grounded ingestion refuses it as speculation.$$;


create or replace function pymem_private.lock_consolidation(p_tenant text)
returns void
language sql
volatile
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    -- one consolidation at a time per tenant, so that episodes are consolidated in the order they happened
    -- and a correction ("actually I moved to Porto") supersedes what it corrects, never the other way round
    select pymem_private.lock_tenant_key(p_tenant, 'consolidation', 'consolidation');
end;

comment on function pymem_private.lock_consolidation(text) is
'Serialises the consolidation of one tenant until the end of the transaction (an advisory lock).';


create or replace function pymem_private.consolidate_episode(
    p_tenant text, p_episode_id uuid, p_butler text, p_statements jsonb
)
returns table (episode_id uuid, facts integer, rules integer, kept_for_review integer, refused integer)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_item jsonb;
    v_type text;
    v_state text;
    v_facts integer := 0;
    v_rules integer := 0;
    v_review integer := 0;
    v_refused integer := 0;
begin
    for v_item in select i from pg_catalog.jsonb_array_elements(p_statements) as i loop
        v_type := pymem_private.require_memory_type(
            'memory_type', coalesce(v_item ->> 'memory_type', 'fact'), array['fact', 'rule']
        );
        v_state := pymem_private.consolidate_statement(
            p_episode_id, p_butler, v_type,
            pymem_private.require_text('subject', coalesce(v_item ->> 'subject', case when v_type = 'rule' then '-' end), 500),
            pymem_private.require_text('predicate', coalesce(v_item ->> 'predicate', case when v_type = 'rule' then '-' end), 500),
            pymem_private.require_text('statement', v_item ->> 'statement', 100000),
            'agent_inference',
            (v_item ->> 'embedding')::public.vector,
            v_item ->> 'embedding_model'
        );
        if v_state = 'refused' then
            v_refused := v_refused + 1;
        elsif v_state = 'pending_review' then
            v_review := v_review + 1;
        elsif v_type = 'fact' then
            v_facts := v_facts + 1;
        else
            v_rules := v_rules + 1;
        end if;
    end loop;
    update pymem.episodes as e set consolidated = true where e.tenant_id = p_tenant and e.id = p_episode_id;
    return query select p_episode_id, v_facts, v_rules, v_review, v_refused;
end;
$$;

comment on function pymem_private.consolidate_episode(text, uuid, text, jsonb) is
$$What memory_consolidate and memory_consolidate_episode do for one locked episode: each statement of p_statements
(a JSON array of {"memory_type", "subject", "predicate", "statement", "embedding"?, "embedding_model"?}) through
consolidate_statement, then the episode marked consolidated; one row of what became of them. PM002 for a malformed
statement.$$;


create or replace function pymem.memory_consolidate(butler text default null, "limit" integer default 100)
returns table (
    episode_id uuid,
    facts integer,
    rules integer,
    kept_for_review integer,
    refused integer
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_limit integer := pymem_private.require_limit('limit', "limit");
    v_episode record;
begin
    if butler is not null then
        perform pymem_private.require_text('butler', butler, 200);
    end if;
    perform pymem_private.lock_consolidation(v_tenant);
    for v_episode in
        select e.id, e.content, e.butler
        from pymem.episodes as e
        where e.tenant_id = v_tenant
          and not e.consolidated
          and e.forgotten_at is null
          and (e.expires_at is null or e.expires_at > pg_catalog.now())
          and (memory_consolidate.butler is null or e.butler = memory_consolidate.butler)
        order by e.created_at, e.id
        limit v_limit
        for update
    loop
        return query select * from pymem_private.consolidate_episode(
            v_tenant, v_episode.id, v_episode.butler,
            (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x)), '[]'::jsonb)
               from pymem.memory_extract(v_episode.content) as x)
        );
    end loop;
end;
$$;

comment on function pymem.memory_consolidate(text, integer) is
$$Consolidates up to "limit" (1..1000, default 100) of the tenant's live unconsolidated episodes (of butler, or
all), oldest first: the built-in extractor (memory_extract) finds their facts and rules, each is stored through
grounded ingestion with its episode as citation (source 'agent_inference', a derived_from link, the episode's
butler as source_butler, scope 'global'; a fact supersedes the active fact of its subject and predicate), and the
episode is marked consolidated (memory_events records it). One row per episode: what was approved (facts, rules),
kept for review, and refused as speculation. Idempotent: a consolidated episode is not read again. Serialised per
tenant, so concurrent runs consolidate each episode once, in order; call it until it returns fewer rows than
"limit" (pymem consolidate does, committing each batch). Stored without embeddings: pymem reembed (or pymem
consolidate, which runs it) embeds them; they are found by keyword meanwhile.
Example: select * from memory_consolidate(butler => 'health', "limit" => 50);$$;


create or replace function pymem.memory_consolidate_episode(episode uuid, statements jsonb)
returns table (
    episode_id uuid,
    facts integer,
    rules integer,
    kept_for_review integer,
    refused integer
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_episode record;
begin
    if statements is null or pg_catalog.jsonb_typeof(statements) <> 'array' then
        raise exception 'statements must be a JSON array of {"memory_type", "subject", "predicate", "statement"}'
            using errcode = 'PM002';
    end if;
    perform pymem_private.lock_consolidation(v_tenant);
    select e.id, e.butler, e.consolidated into v_episode
      from pymem.episodes as e
     where e.tenant_id = v_tenant and e.id = memory_consolidate_episode.episode and e.forgotten_at is null
       for update;
    if v_episode.id is null then
        perform pymem_private.not_found('episode', memory_consolidate_episode.episode);
    end if;
    if v_episode.consolidated then
        return;  -- consolidated already (by another run): nothing is stored twice
    end if;
    return query select * from pymem_private.consolidate_episode(v_tenant, v_episode.id, v_episode.butler, statements);
end;
$$;

comment on function pymem.memory_consolidate_episode(uuid, jsonb) is
$$Consolidates one episode with the statements a model's extractor found in it (MCP sampling:
pymem.consolidation), as memory_consolidate does with the built-in extractor's: statements is a JSON array of
{"memory_type": "fact" | "rule", "subject", "predicate", "statement"} (and optionally "embedding", a 384-d array,
with "embedding_model"), each stored through grounded ingestion with the episode as citation, then the episode is marked consolidated. An episode consolidated already stores
nothing and returns no row; PM003 for an episode the tenant does not have; PM002 for a malformed statement
(nothing is stored).
Example: select * from memory_consolidate_episode(episode => '00000000-0000-0000-0000-000000000000',
statements => '[{"memory_type": "fact", "subject": "user", "predicate": "lives_in", "statement": "The user lives in Porto."}]');$$;


create or replace function pymem.memory_unconsolidated_episodes(butler text default null, "limit" integer default 20)
returns table (memory_id uuid, source_butler text, session_id uuid, content text, created_at timestamptz)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_limit integer := pymem_private.require_limit('limit', "limit");
begin
    return query
    select e.id, e.butler, e.session_id, e.content, e.created_at
    from pymem.episodes as e
    where e.tenant_id = v_tenant
      and not e.consolidated
      and e.forgotten_at is null
      and (e.expires_at is null or e.expires_at > pg_catalog.now())
      and (memory_unconsolidated_episodes.butler is null or e.butler = memory_unconsolidated_episodes.butler)
    order by e.created_at, e.id
    limit v_limit;
end;
$$;

comment on function pymem.memory_unconsolidated_episodes(text, integer) is
$$The tenant's live unconsolidated episodes (of butler, or all), oldest first, at most "limit" (1..1000, default
20): what a model's extractor reads before memory_consolidate_episode. Reads only.
Example: select memory_id, content from memory_unconsolidated_episodes(butler => 'health');$$;


create or replace function pymem.memory_consolidation_plan(
    butler text default null, tenants text[] default null, batch integer default 100
)
returns table (tenant_id text, episodes bigint, oldest timestamptz)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
begin
    -- the run's arguments are checked before anything changes
    perform pymem_private.require_limit('batch', batch);
    if butler is not null then
        perform pymem_private.require_text('butler', butler, 200);
    end if;
    return query
    select e.tenant_id, pg_catalog.count(*), pg_catalog.min(e.created_at)
    from pymem.episodes as e
    where not e.consolidated
      and e.forgotten_at is null
      and (e.expires_at is null or e.expires_at > pg_catalog.now())
      and (memory_consolidation_plan.butler is null or e.butler = memory_consolidation_plan.butler)
      and (memory_consolidation_plan.tenants is null or e.tenant_id = any(memory_consolidation_plan.tenants))
    group by e.tenant_id
    order by e.tenant_id;
end;
$$;

comment on function pymem.memory_consolidation_plan(text, text[], integer) is
$$The consolidation backlog per tenant (all, or only those in tenants): live unconsolidated episodes (of butler,
or all) and the oldest one's time. It first checks the run's arguments: batch (episodes per committed
memory_consolidate call) between 1 and 1000 (PM002). Under row-level security a tenant sees its own; an elevated
pymem_admin or the migrator sees every tenant (what pymem consolidate works through).
Example: select * from pymem.memory_consolidation_plan();$$;
