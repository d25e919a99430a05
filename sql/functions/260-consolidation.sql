-- noqa: disable=RF01
-- Consolidation: unconsolidated episodes become facts and rules, each stored through the
-- grounded ingestion of memory_store_fact / memory_store_rule with its episode as citation (a derived_from
-- link) and in its episode's butler's scope, and the episode is marked consolidated. The built-in extractor is
-- memory_extract (255-extraction.sql); a model's extractor (MCP sampling: the memory_consolidate tool) hands
-- its answer, as the model wrote it, to memory_consolidate_episode, which reads, normalises and stores it (and
-- falls back to memory_extract where the answer is of no use), one episode per call and transaction.

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
    -- the episode's butler's scope (its setting, by default its name): what the butler told is in that
    -- butler's context (its Project block), as a fact it stored itself with scope => its scope would be
    v_scope text := (pymem_private.butler_settings_for(pymem_private.tenant_for_write(), p_butler)).scope;
begin
    -- through the same grounded ingestion as any store, the episode as citation (a derived_from link)
    if p_memory_type = 'fact' then
        select s.review_state into v_state
          from pymem.memory_store_fact(
              subject => p_subject, predicate => p_predicate, content => p_statement, scope => v_scope,
              source => p_source, citation => p_episode_id::text, source_butler => p_butler,
              embedding => p_embedding, embedding_model => p_embedding_model
          ) as s;
    else
        select s.review_state into v_state
          from pymem.memory_store_rule(
              content => p_statement, scope => v_scope, source => p_source, citation => p_episode_id::text,
              source_butler => p_butler, embedding => p_embedding, embedding_model => p_embedding_model
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
as citation, its butler as source_butler, the butler's scope: memory_butler_settings(butler).scope, by default
its name) and returns its review state; 'refused' (and an audit row) when grounded ingestion refuses it as
speculation.$$;


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
          -- an expired episode too: the janitor tombstones an episode only once consolidation has read it
          and not e.consolidated
          and e.forgotten_at is null
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
$$Consolidates up to "limit" (1..1000, default 100) of the tenant's unconsolidated episodes that were not forgotten
(of butler, or all; an expired one too: the janitor waits for consolidation before it tombstones it), oldest first: the built-in extractor (memory_extract) finds their facts and rules, each is stored through
grounded ingestion with its episode as citation (source 'agent_inference', a derived_from link, the episode's
butler as source_butler and its scope, memory_butler_settings(butler).scope, by default the butler's name, so that
it is in that butler's memory_context; a fact supersedes the active fact of its subject and predicate), and the
episode is marked consolidated (memory_events records it). One row per episode: what was approved (facts, rules),
kept for review, and refused as speculation. Idempotent: a consolidated episode is not read again. Serialised per
tenant, so concurrent runs consolidate each episode once, in order; call it until it returns fewer rows than
"limit" (pymem consolidate does, committing each batch). Stored without embeddings: pymem reembed (or pymem
consolidate, which runs it) embeds them; they are found by keyword meanwhile.
Example: select * from memory_consolidate(butler => 'health', "limit" => 50);$$;


create or replace function pymem_private.answer_statements(answer jsonb, episode uuid)
returns jsonb
language plpgsql
immutable
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_answer jsonb := answer;
    v_text text;
    v_from integer;
    v_to integer;
    v_items jsonb;
    v_statements jsonb;
begin
    if v_answer is null or pg_catalog.jsonb_typeof(v_answer) = 'null' then
        return null;  -- no answer: the built-in extractor
    end if;
    if pg_catalog.jsonb_typeof(v_answer) = 'string' then
        -- a model's reply as it wrote it: the JSON object in it, from the first "{" to the last "}" (the reply
        -- may wrap it in a code fence or a sentence); a reply without one is of no use
        v_text := v_answer #>> '{}';
        v_from := pg_catalog.strpos(v_text, '{');
        v_to := pg_catalog.length(v_text) + 1 - pg_catalog.strpos(pg_catalog.reverse(v_text), '}');
        v_answer := null;
        if v_from > 0 and v_to > v_from and v_to <= pg_catalog.length(v_text) then
            begin
                v_answer := pg_catalog.substr(v_text, v_from, v_to - v_from + 1)::jsonb;
            exception when data_exception then
                v_answer := null;  -- not JSON after all
            end;
        end if;
        if v_answer is null or pg_catalog.jsonb_typeof(v_answer) <> 'object' then
            return null;
        end if;
    elsif pg_catalog.jsonb_typeof(v_answer) not in ('object', 'array') or v_answer ? 'statement' then
        raise exception 'statements must be a JSON array of statements, an object mapping episode ids to such arrays, or a model''s reply as a JSON string, not %',
            pg_catalog.left(v_answer::text, 80)
            using errcode = 'PM002',
                  hint = 'A statement is {"memory_type": "fact" | "rule", "subject", "predicate", "statement"}.';
    end if;
    -- an object maps episode ids to their statements (the answer to a sampling request for several episodes)
    v_items := v_answer;
    if pg_catalog.jsonb_typeof(v_answer) = 'object' then
        v_items := coalesce(
            v_answer -> episode::text,
            (select e.value from pg_catalog.jsonb_each(v_answer) as e
              where pg_catalog.lower(pg_catalog.btrim(e.key)) = episode::text limit 1)
        );
    end if;
    if v_items is null or pg_catalog.jsonb_typeof(v_items) <> 'array' then
        return null;  -- the answer leaves this episode out
    end if;
    -- each usable element normalised: an object with a non-blank "statement"; memory_type 'rule' or else a fact;
    -- a fact without subject is about the user, one without predicate a note of its own (a predicate from its
    -- text: two notes never supersede each other, the same note said again does); the lengths checked here,
    -- before anything is written
    select coalesce(pg_catalog.jsonb_agg(
        pg_catalog.jsonb_build_object(
            'memory_type', s.kind,
            'subject', case when s.kind = 'fact' then
                pymem_private.require_text(pg_catalog.format('subject of statement %s', s.n), s.subject, 500)
            end,
            'predicate', case when s.kind = 'fact' then
                pymem_private.require_text(
                    pg_catalog.format('predicate of statement %s', s.n),
                    coalesce(s.predicate, 'note:' || pg_catalog.left(pg_catalog.md5(pg_catalog.lower(s.statement)), 8)),
                    500
                )
            end,
            'statement', pymem_private.require_text(pg_catalog.format('statement %s', s.n), s.statement, 100000)
        ) || pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
            'embedding', s.item -> 'embedding', 'embedding_model', s.item -> 'embedding_model'
        ))
        order by s.n
    ), '[]'::jsonb) into v_statements
    from (
        select
            a.n,
            a.item,
            k.kind,
            case when k.kind = 'fact' then
                coalesce(nullif(pg_catalog.btrim(a.item ->> 'subject'), ''), 'user')
            end as subject,
            case when k.kind = 'fact' then nullif(pg_catalog.btrim(a.item ->> 'predicate'), '') end
                as predicate,
            pg_catalog.btrim(a.item ->> 'statement', E' \t\n\r\f\v') as statement
        from pg_catalog.jsonb_array_elements(v_items) with ordinality as a (item, n)
        cross join lateral (
            select case
                when pg_catalog.lower(pg_catalog.btrim(a.item ->> 'memory_type')) = 'rule' then 'rule'
                else 'fact'
            end as kind
        ) as k
        where pg_catalog.jsonb_typeof(a.item) = 'object'
          and pg_catalog.jsonb_typeof(a.item -> 'statement') = 'string'
          and pg_catalog.btrim(a.item ->> 'statement', E' \t\n\r\f\v') <> ''
    ) as s;
    if v_statements = '[]'::jsonb and pg_catalog.jsonb_array_length(v_items) > 0 then
        return null;  -- elements, none of them a statement: of no use
    end if;
    return v_statements;  -- [] when the answer is that there is nothing to keep
end;
$$;

comment on function pymem_private.answer_statements(jsonb, uuid) is
$$The statements a model's answer gives for an episode, normalised, as pymem_private.consolidate_episode takes them;
NULL when the answer is of no use for it (memory_consolidate_episode then runs the built-in extractor). answer: a
model's reply as a JSON string (the JSON object in it is read), an object mapping episode ids to arrays of
statements, or the episode's array itself. Kept: the objects with a non-blank "statement" (trimmed); memory_type
'rule', or else 'fact'; a fact's subject defaults to 'user', its predicate to 'note:' and 8 hex digits of the
md5 of its text. NULL also for a reply without a JSON object, an episode the answer leaves out, and elements none
of which is a statement; [] for an empty array (nothing to keep). PM002 for an answer that is none of these (a
number, a single statement object) or a subject, predicate (500) or statement (100000 characters) too long.
Example: select pymem_private.answer_statements(to_jsonb('Sure! [{"statement": "The user has a cat."}]'::text),
gen_random_uuid());  -- NULL: no JSON object in the reply$$;


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
    -- read and checked before anything is locked or written (PM002)
    v_statements jsonb := pymem_private.answer_statements(statements, memory_consolidate_episode.episode);
    v_episode record;
begin
    perform pymem_private.lock_consolidation(v_tenant);
    select e.id, e.butler, e.consolidated, e.content into v_episode
      from pymem.episodes as e
     where e.tenant_id = v_tenant and e.id = memory_consolidate_episode.episode and e.forgotten_at is null
       for update;
    if v_episode.id is null then
        perform pymem_private.not_found('episode', memory_consolidate_episode.episode);
    end if;
    if v_episode.consolidated then
        return;  -- consolidated already (by another run): nothing is stored twice
    end if;
    if v_statements is null then
        -- no answer, or none of use for this episode: the built-in extractor, as memory_consolidate
        select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x)), '[]'::jsonb) into v_statements
          from pymem.memory_extract(v_episode.content) as x;
    end if;
    return query select * from pymem_private.consolidate_episode(v_tenant, v_episode.id, v_episode.butler, v_statements);
end;
$$;

comment on function pymem.memory_consolidate_episode(uuid, jsonb) is
$$Consolidates one episode, in one call, with what a model's extractor answered for it (MCP sampling: the
memory_consolidate tool passes its model's reply as it is): statements is the reply as a JSON string (the JSON
object in it is read), an object mapping episode ids to arrays of statements (this episode's is used), or this
episode's array, of {"memory_type": "fact" | "rule", "subject", "predicate", "statement"} (optionally "embedding",
a 384-d array, with "embedding_model"). SQL normalises it (pymem_private.answer_statements: elements without a
statement are left out, a type other than 'rule' is a fact, a fact's subject defaults to 'user' and its predicate
to a note of its own) and, when there is no answer (NULL) or none of use for the episode (no JSON object, the
episode left out, no element a statement), runs the built-in extractor (memory_extract) as memory_consolidate does.
Each statement is stored through grounded ingestion with the episode as citation, its butler as source_butler and
its butler's scope, then the episode is marked consolidated. An episode consolidated already stores nothing and
returns no row; PM003 for an episode the tenant does not have; PM002 for statements of another JSON type, a single
statement object, or a text too long (nothing is stored). memory_derived_from lists what was stored.
Example: select * from memory_consolidate_episode(episode => '00000000-0000-0000-0000-000000000000',
statements => '[{"memory_type": "fact", "subject": "user", "predicate": "lives_in", "statement": "The user lives in Porto."}]');$$;


create or replace function pymem.memory_derived_from(episodes uuid[])
returns table (episode_id uuid, memory_type text, memory_id uuid, content text, embedded boolean)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
begin
    if episodes is null or pg_catalog.cardinality(episodes) > 1000 then
        raise exception 'episodes must be an array of at most 1000 episode ids, not %',
            coalesce(pg_catalog.cardinality(episodes)::text || ' of them', 'NULL')
            using errcode = 'PM002';
    end if;
    return query
    select f.source_episode_id, 'fact'::text, f.id, f.content, f.embedding is not null
      from pymem.facts as f
     where f.tenant_id = v_tenant and f.source_episode_id = any(memory_derived_from.episodes)
       and f.validity <> 'retracted'
    union all
    select r.source_episode_id, 'rule'::text, r.id, r.content, r.embedding is not null
      from pymem.rules as r
     where r.tenant_id = v_tenant and r.source_episode_id = any(memory_derived_from.episodes)
       and r.forgotten_at is null
    order by 1, 2, 3;
end;
$$;

comment on function pymem.memory_derived_from(uuid[]) is
$$The facts and rules drawn from the given episodes (at most 1000; their source_episode_id), forgotten ones left
out: what consolidation made of them, and whether each has an embedding yet (the memory_consolidate tool embeds
those that have not). Reads only.
Example: select memory_type, content, embedded
from memory_derived_from(array['00000000-0000-0000-0000-000000000000']::uuid[]);$$;


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
      and (memory_unconsolidated_episodes.butler is null or e.butler = memory_unconsolidated_episodes.butler)
    order by e.created_at, e.id
    limit v_limit;
end;
$$;

comment on function pymem.memory_unconsolidated_episodes(text, integer) is
$$The tenant's unconsolidated episodes that were not forgotten (of butler, or all; expired ones too, which the
janitor keeps until they are consolidated), oldest first, at most "limit" (1..1000, default 20): what a model's
extractor reads before memory_consolidate_episode. Reads only.
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
      and (memory_consolidation_plan.butler is null or e.butler = memory_consolidation_plan.butler)
      and (memory_consolidation_plan.tenants is null or e.tenant_id = any(memory_consolidation_plan.tenants))
    group by e.tenant_id
    order by e.tenant_id;
end;
$$;

comment on function pymem.memory_consolidation_plan(text, text[], integer) is
$$The consolidation backlog per tenant (all, or only those in tenants): unconsolidated episodes that were not
forgotten (of butler, or all; expired ones included) and the oldest one's time. It first checks the run's arguments: batch (episodes per committed
memory_consolidate call) between 1 and 1000 (PM002). Under row-level security a tenant sees its own; an elevated
pymem_admin or the migrator sees every tenant (what pymem consolidate works through).
Example: select * from pymem.memory_consolidation_plan();$$;
