-- noqa: disable=RF01
-- memory_search: hybrid (RRF), semantic, keyword or weighted search over episodes, facts
-- and rules of the current tenant, with reference bumping.

create or replace function pymem_private.memory_touch_many(
    p_tenant text,
    p_types text[],
    p_ids uuid[],
    p_at timestamptz default null
)
returns table (kind text, id uuid, reference_count integer)
language plpgsql
volatile
rows 20
security invoker
set search_path = pg_catalog, pg_temp
-- key lookups whose plan does not depend on the values: one generic plan, pruned to the tenant's partition when it
-- runs. Left to choose, a session plans them anew on every call (a generic plan's estimate counts all 16
-- partitions): 2.3 ms a call at 1M, against 1.2 (issue 31)
set plan_cache_mode = force_generic_plan
as $$
declare
    -- the moment of the reads; never later than now
    v_at timestamptz := least(coalesce(p_at, pg_catalog.now()), pg_catalog.now());
begin
    -- a read-only transaction (a standby, or an analyst who asked for one) reads without bumping
    if pg_catalog.current_setting('transaction_read_only') = 'on' then
        return;
    end if;
    -- one statement per table, not one per memory (search bumps 20: ~3.3 ms row by row at 100k per tenant, ~1.9
    -- in three statements). The rows are locked first, by id, and the tables in the order episodes, facts, rules:
    -- concurrent searches, recalls and forwarded bumps of a tenant lock what they share in one order, so they never
    -- deadlock (tests/test_deadlocks.py). An id given n times is bumped n times; unknown ids, NULL ids and ids of
    -- another tenant (invisible under RLS) match no row.
    return query
    with
    wanted as (
        select t.id, pg_catalog.count(*)::integer as n
        from rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids)) as t (kind, id)
        where t.kind = 'episode' and t.id is not null
        group by t.id
    ),
    locked as materialized (
        select x.id from pymem.episodes as x
        where x.tenant_id = p_tenant and x.id in (select w.id from wanted as w)
        order by x.id
        for update of x
    )
    update pymem.episodes as e
       set reference_count = e.reference_count + w.n,
           last_referenced_at = greatest(e.last_referenced_at, v_at)
      from wanted as w
     where e.tenant_id = p_tenant and e.id = w.id and e.id in (select l.id from locked as l)
    returning 'episode'::text, e.id, e.reference_count;
    return query
    with
    wanted as (
        select t.id, pg_catalog.count(*)::integer as n
        from rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids)) as t (kind, id)
        where t.kind = 'fact' and t.id is not null
        group by t.id
    ),
    locked as materialized (
        select x.id from pymem.facts as x
        where x.tenant_id = p_tenant and x.id in (select w.id from wanted as w)
        order by x.id
        for update of x
    )
    update pymem.facts as f
       set reference_count = f.reference_count + w.n,
           last_referenced_at = greatest(f.last_referenced_at, v_at)
      from wanted as w
     where f.tenant_id = p_tenant and f.id = w.id and f.id in (select l.id from locked as l)
    returning 'fact'::text, f.id, f.reference_count;
    return query
    with
    wanted as (
        select t.id, pg_catalog.count(*)::integer as n
        from rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids)) as t (kind, id)
        where t.kind = 'rule' and t.id is not null
        group by t.id
    ),
    locked as materialized (
        select x.id from pymem.rules as x
        where x.tenant_id = p_tenant and x.id in (select w.id from wanted as w)
        order by x.id
        for update of x
    )
    update pymem.rules as r
       set reference_count = r.reference_count + w.n,
           last_referenced_at = greatest(r.last_referenced_at, v_at)
      from wanted as w
     where r.tenant_id = p_tenant and r.id = w.id and r.id in (select l.id from locked as l)
    returning 'rule'::text, r.id, r.reference_count;
end;
$$;

comment on function pymem_private.memory_touch_many(text, text[], uuid[], timestamptz) is
$$Reference bumping, for the memories (p_types[i], p_ids[i]) of tenant p_tenant that a read returned:
reference_count + (times the pair is given) and last_referenced_at = greatest(last_referenced_at, p_at), p_at the
moment of the read (default now(), never later than now()); one row per memory bumped, with its new count. The rows
are locked by id, episodes then facts then rules, so concurrent bumps never deadlock. Nothing, and no write, in a
read-only transaction. Used by memory_search, memory_recall, memory_get and memory_touch_references.
Example: select * from pymem_private.memory_touch_many('demo', array['fact'], array['00000000-0000-0000-0000-000000000000'::uuid]);$$;


create or replace function pymem_private.memory_touch(p_type text, p_id uuid)
returns integer
language sql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
    select t.reference_count
    from pymem_private.memory_touch_many(pymem.current_tenant(), array[p_type], array[p_id]) as t;
$$;

comment on function pymem_private.memory_touch(text, uuid) is
$$Reference bumping of one memory that retrieval returned (pymem_private.memory_touch_many): reference_count + 1 and
last_referenced_at = now(); returns the new count (NULL, and no write, in a read-only transaction).$$;


create or replace function pymem_private.effective_search_mode(mode text, query_embedding public.vector)
returns text
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    perform pymem_private.require_memory_type('mode', mode, array['hybrid', 'semantic', 'keyword', 'weighted']);
    perform pymem_private.require_embedding('query_embedding', query_embedding);
    if query_embedding is null and mode <> 'keyword' then
        raise notice 'no query_embedding: % search runs as keyword search', mode
            using hint = 'Pass query_embedding => <384-d MiniLM-L6 vector> for semantic and hybrid search.';
        return 'keyword';
    end if;
    return mode;
end;
$$;

comment on function pymem_private.effective_search_mode(text, public.vector) is
'The search mode that runs: the requested one, or keyword when there is no query embedding (with a NOTICE).';


create or replace function pymem_private.require_limit(argument text, value integer)
returns integer
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if value is null or value < 1 or value > 1000 then
        raise exception '% must be between 1 and 1000, not %', argument, coalesce(value::text, 'NULL')
            using errcode = 'PM002';
    end if;
    return value;
end;
$$;

comment on function pymem_private.require_limit(text, integer) is
'Returns value, or raises PM002 when a result limit is NULL or outside 1..1000.';


create or replace function pymem_private.require_types(types text[], allowed text[])
returns text[]
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_type text;
begin
    if types is null then
        return allowed;
    end if;
    if pg_catalog.cardinality(types) = 0 then
        raise exception 'types must name at least one memory type'
            using errcode = 'PM002',
                  detail = pg_catalog.format('types are %s', pg_catalog.array_to_string(allowed, ', '));
    end if;
    foreach v_type in array types loop
        perform pymem_private.require_memory_type('type', v_type, allowed);
    end loop;
    return types;
end;
$$;

comment on function pymem_private.require_types(text[], text[]) is
'The memory types to search (all allowed ones for NULL); PM002 for an empty list or an unknown type.';


create or replace function pymem_private.require_read_options(
    scope text, as_of timestamptz, rrf_k integer default 60
)
returns void
language plpgsql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if scope is not null then
        perform pymem_private.require_text('scope', scope, 200);
    end if;
    if as_of is not null and as_of > pg_catalog.now() then
        raise exception 'as_of must not be in the future' using errcode = 'PM002';
    end if;
    if rrf_k is null or rrf_k < 1 then
        raise exception 'rrf_k must be >= 1, not %', coalesce(rrf_k::text, 'NULL') using errcode = 'PM002';
    end if;
end;
$$;

comment on function pymem_private.require_read_options(text, timestamptz, integer) is
'PM002 for the options every read shares: a blank scope, an as_of in the future, an rrf_k below 1.';


create or replace function pymem.memory_search(
    query text,
    types text[] default null,
    scope text default null,
    mode text default 'hybrid',
    "limit" integer default 20,
    min_confidence double precision default 0.2,
    query_embedding public.vector default null,
    min_score double precision default null,
    vector_weight double precision default 0.7,
    keyword_weight double precision default 0.3,
    rrf_k integer default 60,
    as_of timestamptz default null,
    bump_references boolean default true,
    date_half_life_days double precision default 30,
    min_relevance double precision default null,
    rerank boolean default false,
    semantic_rrf_weight double precision default 1,
    keyword_rrf_weight double precision default 1,
    graph_rrf_weight double precision default 1,
    second_query_embedding public.vector default null,
    second_rrf_weight double precision default 1,
    time_boost double precision default 0.5,
    agent_turn_weight double precision default 0.9
)
returns table (
    memory_type text,
    memory_id uuid,
    content text,
    score double precision,
    confidence double precision,
    effective_confidence double precision,
    importance double precision,
    memory_scope text,
    subject text,
    predicate text,
    maturity text,
    semantic_rank integer,
    semantic_score double precision,
    keyword_rank integer,
    keyword_score double precision,
    keyword_tier text,
    date_decay double precision,
    search_mode text,
    created_at timestamptz,
    reference_count integer,
    graph_rank integer,
    relevance double precision,
    relevance_features double precision[],
    source_butler text,
    session_id uuid,
    source_episode_id uuid,
    source_path text,
    stored_by text,
    second_rank integer,
    second_score double precision,
    in_time_window boolean
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_types text[] := pymem_private.require_types(types, array['episode', 'fact', 'rule']);
    v_limit integer := pymem_private.require_limit('limit', "limit");
    v_mode text := pymem_private.effective_search_mode(mode, query_embedding);
    v_at timestamptz := coalesce(as_of, pg_catalog.now());
    v_min_score double precision;
    v_rerank boolean := coalesce(rerank, false);
    -- the second encoder's list joins the fusion when the query was embedded by it too
    v_second_weight double precision := case when second_query_embedding is not null then second_rrf_weight else 0 end;
    -- the period a time expression of the query names ("last week", "in May"), relative to the search's moment
    v_window_starts timestamptz;
    v_window_ends timestamptz;
    -- no bump when reading history, when asked not to, or in a read-only transaction
    v_bump boolean := coalesce(bump_references, true) and as_of is null
        and pg_catalog.current_setting('transaction_read_only') = 'off';
begin
    perform pymem_private.require_text('query', query, 10000);
    perform pymem_private.require_range('min_confidence', min_confidence, 0, 1);
    perform pymem_private.require_range('vector_weight', vector_weight, 0, 1);
    perform pymem_private.require_range('keyword_weight', keyword_weight, 0, 1);
    perform pymem_private.require_range('date_half_life_days', date_half_life_days, 0.001, 100000);
    perform pymem_private.require_range('min_relevance', coalesce(min_relevance, 0), 0, 1);
    perform pymem_private.require_range('semantic_rrf_weight', semantic_rrf_weight, 0, 1000);
    perform pymem_private.require_range('keyword_rrf_weight', keyword_rrf_weight, 0, 1000);
    perform pymem_private.require_range('graph_rrf_weight', graph_rrf_weight, 0, 1000);
    perform pymem_private.require_range('second_rrf_weight', second_rrf_weight, 0, 1000);
    perform pymem_private.require_second_embedding('second_query_embedding', second_query_embedding);
    perform pymem_private.require_range('time_boost', time_boost, 0, 10);
    perform pymem_private.require_range('agent_turn_weight', agent_turn_weight, 0.01, 1);
    if time_boost > 0 then
        select w.starts, w.ends into v_window_starts, v_window_ends from pymem.memory_time_window(query, v_at) as w;
    end if;
    if vector_weight + keyword_weight = 0 then
        raise exception 'vector_weight and keyword_weight must not both be 0' using errcode = 'PM002';
    end if;
    if semantic_rrf_weight + keyword_rrf_weight = 0 then
        raise exception 'semantic_rrf_weight and keyword_rrf_weight must not both be 0' using errcode = 'PM002';
    end if;
    perform pymem_private.require_read_options(scope, as_of, rrf_k);
    v_min_score := pymem_private.require_range(
        'min_score', coalesce(min_score, case when v_mode = 'weighted' and not v_rerank then 0.1 else 0.0 end), 0, 1
    );

    return query
    with
    found as materialized (
        select t.* from (
            select
                s.*,
                (case
                    when v_rerank then s.relevance
                    when v_mode = 'hybrid' then pymem.memory_rrf_score(
                        s.semantic_rank, s.keyword_rank, s.graph_rank, s.second_rank, v_limit + 1, rrf_k,
                        semantic_rrf_weight, keyword_rrf_weight, graph_rrf_weight, v_second_weight
                    )
                    when v_mode = 'weighted'
                        then vector_weight * coalesce(s.semantic_score, 0) + keyword_weight * coalesce(s.keyword_score, 0)
                    when v_mode = 'semantic' then s.semantic_score
                    else s.keyword_score
                end) * s.date_decay * (case when s.in_window then 1 + time_boost else 1 end)
                -- an agent's own turn ("Assistant: ...") is not evidence about the user: below the user's turns
                -- that match as well
                * (case
                    when agent_turn_weight < 1 and s.kind = 'episode'
                        and pymem_private.turn_speaker_kind(s.content) = 'agent' then agent_turn_weight
                    else 1
                end) as score
            from (
                select
                    c.c_type as kind,
                    c.c_id as mid,
                    coalesce(f.content, ru.content, e.content) as content,
                    pymem.memory_date_decay(coalesce(f.metadata, ru.metadata, e.metadata), v_at, date_half_life_days)
                        as date_decay,
                    coalesce(f.confidence, ru.confidence) as confidence,
                    pymem.memory_effective_confidence(
                        coalesce(f.confidence, ru.confidence), coalesce(f.decay_rate, ru.decay_rate),
                        case
                            when coalesce(f.last_confirmed_at, ru.last_confirmed_at) > v_at then c.c_created_at
                            else coalesce(f.last_confirmed_at, ru.last_confirmed_at)
                        end,
                        v_at
                    ) as effective_confidence,
                    coalesce(f.importance, e.importance) as importance,
                    coalesce(f.scope, ru.scope, e.butler) as scope,
                    f.subject,
                    f.predicate,
                    ru.maturity,
                    c.c_semantic_rank as semantic_rank,
                    c.c_semantic_score as semantic_score,
                    c.c_keyword_rank as keyword_rank,
                    c.c_keyword_score as keyword_score,
                    c.c_keyword_tier as keyword_tier,
                    c.c_graph_rank as graph_rank,
                    c.c_relevance as relevance,
                    c.c_relevance_features as relevance_features,
                    c.c_created_at as created_at,
                    coalesce(f.reference_count, ru.reference_count, e.reference_count) as reference_count,
                    c.c_second_rank as second_rank,
                    c.c_second_score as second_score,
                    coalesce(c.c_created_at >= v_window_starts and c.c_created_at < v_window_ends, false) as in_window
                from pymem_private.memory_candidates(
                    v_tenant, query, query_embedding, v_types, scope, v_limit, min_confidence, as_of,
                    v_mode <> 'keyword', v_mode <> 'semantic', graph_rrf_weight > 0,
                    -- the second leg runs when it counts (a weight of 0 leaves it out, as it does the graph leg)
                    case when v_mode <> 'keyword' and v_second_weight > 0 then second_query_embedding end
                ) as c
                left join pymem.facts as f on c.c_type = 'fact' and f.tenant_id = v_tenant and f.id = c.c_id
                left join pymem.rules as ru on c.c_type = 'rule' and ru.tenant_id = v_tenant and ru.id = c.c_id
                left join pymem.episodes as e on c.c_type = 'episode' and e.tenant_id = v_tenant and e.id = c.c_id
                -- memory_candidates is VOLATILE (it sets the search's settings): its statements see the data as
                -- of their own start, so a memory committed since this statement began is left out here
                where coalesce(f.id, ru.id, e.id) is not null
            ) as s
            where s.relevance >= coalesce(min_relevance, 0)
        ) as t
        where t.score >= v_min_score
        order by t.score desc, t.created_at desc, t.mid
        limit v_limit
    ),
    -- the reference bumps of the returned rows, in one statement per table (pymem_private.memory_touch_many locks
    -- them by id, so concurrent searches and recalls of a tenant never deadlock)
    bumped as materialized (
        select b.kind, b.id as mid, b.reference_count as n
        from pymem_private.memory_touch_many(
            v_tenant, array(select f.kind from found as f order by f.kind, f.mid),
            array(select f.mid from found as f order by f.kind, f.mid)
        ) as b
        where v_bump
    ),
    -- provenance of the returned rows only, in one statement (the two arrays in one order: each type beside its id)
    provenance as materialized (
        select pv.* from pymem_private.memory_provenance_many(
            v_tenant, array(select f.kind from found as f order by f.kind, f.mid),
            array(select f.mid from found as f order by f.kind, f.mid)
        ) as pv
    )
    select
        r.kind, r.mid, r.content, r.score, r.confidence, r.effective_confidence, r.importance, r.scope,
        r.subject, r.predicate, r.maturity, r.semantic_rank, r.semantic_score, r.keyword_rank,
        r.keyword_score, r.keyword_tier, r.date_decay, v_mode, r.created_at,
        coalesce(b.n, r.reference_count),
        r.graph_rank, r.relevance, r.relevance_features,
        p.source_butler, p.session_id, p.source_episode_id, p.source_path, p.stored_by,
        r.second_rank, r.second_score, r.in_window
    from found as r
    left join bumped as b on r.kind = b.kind and r.mid = b.mid
    left join provenance as p on r.kind = p.kind and r.mid = p.id
    order by r.score desc, r.created_at desc, r.mid;
end;
$$;

comment on function pymem.memory_search(
    text, text[], text, text, integer, double precision, public.vector, double precision, double precision,
    double precision, integer, timestamptz, boolean, double precision, double precision, boolean,
    double precision, double precision, double precision, public.vector, double precision, double precision,
    double precision
) is
$$Searches the tenant's episodes, facts and rules. mode: hybrid (default; weighted RRF score =
semantic_rrf_weight/(rrf_k + semantic_rank) + keyword_rrf_weight/(rrf_k + keyword_rank), a missing rank counting
as limit + 1, + graph_rrf_weight/(rrf_k + graph_rank) for a memory linked to one of the most relevant candidates,
+ second_rrf_weight/(rrf_k + second_rank) when second_query_embedding (the query by the second encoder, 768-d;
pymem.second_embeddings) is given: pymem.memory_rrf_score; weights 1 by default; graph_rrf_weight 0 turns the
graph leg off), semantic
(1 - cosine distance), keyword (full text; trigram for CJK; ILIKE when both find nothing), weighted
(vector_weight * semantic_score + keyword_weight * keyword_score, min_score 0.1 by default). Without
query_embedding every mode runs as keyword. Every row has a calibrated relevance in (0, 1)
(pymem.memory_relevance of its relevance_features): min_relevance drops rows below it (default: none);
rerank => true orders by relevance instead (score = relevance), the second stage of retrieval.
scope: facts and rules of scope 'global' or scope, episodes of butler = scope; min_confidence filters facts and
rules by effective confidence. Ties: created_at DESC, id ASC. Returned memories get reference_count + 1 (not with
as_of, bump_references => false, or in a read-only transaction). Memories imported from dated files
(metadata.source_date) have their score multiplied by date_decay = exp(-ln 2 * age / date_half_life_days), 30 days
by default; undated ones by 1. A query that names a period ("last week", "yesterday", "in May", "March 2025", an ISO
date: pymem.memory_time_window(query, as_of or now)) has the score of each memory created in that period multiplied
by 1 + time_boost (0.5 by default; 0 turns it off; in_time_window says which). An episode that is an agent's
turn of a chat (its text opens with "Assistant:", "AI:", "Bot:" ...: pymem_private.turn_speaker_kind) has its score
multiplied by agent_turn_weight (0.9 by default; 1 turns it off): what the user said ranks above what an assistant
said that matches as well. Provenance (pymem_private.memory_provenance): source_butler, session_id,
source_episode_id, source_path, stored_by, beside created_at and confidence.
Example: select memory_type, content, score, relevance, stored_by from memory_search(query => 'Dr. Smith', "limit" => 5);$$;
