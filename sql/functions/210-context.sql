-- noqa: disable=RF01
-- memory_context in SQL: a butler's recent episodes, the ranked candidates of the three sections of a
-- context block (facts, rules, recent episodes), and the choice of the candidates that fit a token
-- budget (quotas, spill-over, tie-breaks). None bumps reference counts: a context block is built on
-- every turn of an agent. The wrapper (pymem.context) renders each candidate's line, counts its tokens
-- with the model's tokenizer (SQL has none) and passes the counts to memory_context_select, which decides.

create or replace function pymem.memory_recent_episodes(
    butler text,
    "limit" integer default 10,
    in_session uuid default null  -- not session_id: that is an output column
)
returns table (
    memory_id uuid,
    content text,
    importance double precision,
    session_id uuid,
    created_at timestamptz,
    expires_at timestamptz,
    metadata jsonb
)
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
    perform pymem_private.require_text('butler', butler, 200);
    return query
    select e.id, e.content, e.importance, e.session_id, e.created_at, e.expires_at, e.metadata
    from pymem.episodes as e
    where e.tenant_id = v_tenant
      and e.butler = memory_recent_episodes.butler
      and e.forgotten_at is null
      and (e.expires_at is null or e.expires_at > pg_catalog.now())
      and (memory_recent_episodes.in_session is null or e.session_id = memory_recent_episodes.in_session)
    order by e.created_at desc, e.id
    limit v_limit;
end;
$$;

comment on function pymem.memory_recent_episodes(text, integer, uuid) is
$$The butler's live episodes (not forgotten, not expired), newest first (ties: id ASC), at most "limit"
(1..1000, default 10); with in_session only the episodes of that session_id. Reads only: no reference bump.
Example: select created_at, content from memory_recent_episodes(butler => 'health', "limit" => 5);$$;


create or replace function pymem_private.require_section_limit(argument text, value bigint)
returns integer
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if value is null or value < 0 or value > 1000 then
        raise exception '% must be between 0 and 1000, not %', argument, coalesce(value::text, 'NULL')
            using errcode = 'PM002', hint = '0 leaves the section empty.';
    end if;
    return value;
end;
$$;

comment on function pymem_private.require_section_limit(text, bigint) is
'Returns value, or raises PM002 when a context section limit is NULL or outside 0..1000.';


create or replace function pymem_private.source_date(metadata jsonb)
returns date
language sql
stable  -- parses a date from text
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return case
    when
        (source_date.metadata ->> 'source_date') ~ '^\d{4}-\d{2}-\d{2}$'
        and pg_catalog.pg_input_is_valid(source_date.metadata ->> 'source_date', 'date')
        then (source_date.metadata ->> 'source_date')::date
end;

comment on function pymem_private.source_date(jsonb) is
'metadata.source_date as a date (the date of an imported YYYY-MM-DD.md file), NULL when absent or not a date.';


create or replace function pymem_private.context_recalled_candidates(
    p_tenant text,
    p_trigger_prompt text,
    p_scope text,
    p_query_embedding public.vector,
    p_w_relevance double precision,
    p_w_importance double precision,
    p_w_recency double precision,
    p_w_confidence double precision,
    p_system integer,
    p_project integer,
    p_knowledge integer,
    p_recency_half_life_days double precision,
    p_min_relevance double precision,
    p_second_embedding public.vector default null,
    p_focus_embedding public.vector default null,
    p_floor_bypass double precision default null
)
returns table (
    section text,
    section_rank integer,
    memory_type text,
    memory_id uuid,
    content text,
    token_count integer,
    score double precision,
    relevance double precision,
    importance double precision,
    recency double precision,
    confidence double precision,
    effective_confidence double precision,
    subject text,
    predicate text,
    maturity text,
    memory_scope text,
    source_butler text,
    source_episode_id uuid,
    source_date date,
    source_path text,
    session_id uuid,
    created_at timestamptz,
    expires_at timestamptz
)
language plpgsql
-- STABLE: it writes nothing (memory_recall runs with bump_references => false)
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    -- the depth of a plain memory_recall("limit" => the three blocks' limits), at most 1000; every
    -- candidate is scored, then each block keeps its own best
    v_depth integer := least(1000, greatest(3 * (p_system + p_project + p_knowledge), 30));
begin
    return query
    with
    recalled as (
        select r.*
        from pymem.memory_recall(
            topic => context_recalled_candidates.p_trigger_prompt,
            scope => p_scope,
            "limit" => v_depth,
            query_embedding => context_recalled_candidates.p_query_embedding,
            w_relevance => p_w_relevance,
            w_importance => p_w_importance,
            w_recency => p_w_recency,
            w_confidence => p_w_confidence,
            recency_half_life_days => context_recalled_candidates.p_recency_half_life_days,
            candidates => v_depth,
            bump_references => false,
            min_relevance => context_recalled_candidates.p_min_relevance,
            second_query_embedding => context_recalled_candidates.p_second_embedding,
            focus_embedding => context_recalled_candidates.p_focus_embedding,
            floor_bypass => context_recalled_candidates.p_floor_bypass
        ) as r
    ),
    candidates as (
        -- the recalled facts and rules, each in its block: a standing rule (proven or established, and
        -- confirmed when the agent inferred it: pymem_private.rule_is_standing) is System, a fact of the
        -- butler's own scope is Project, the rest is Knowledge
        select
            case
                when r.memory_type = 'rule'
                    and pymem_private.rule_is_standing(ru.maturity, ru.source, ru.confirmed_at) then 'system'
                when r.memory_type = 'fact' and r.memory_scope = p_scope and p_scope <> 'global' then 'project'
                else 'knowledge'
            end as block,
            0 as tier,
            r.memory_type, r.memory_id, r.content, coalesce(f.token_count, ru.token_count) as token_count,
            r.score, r.relevance, r.importance, r.recency, r.confidence, r.effective_confidence,
            r.subject, r.predicate, r.maturity, r.memory_scope,
            coalesce(f.source_butler, ru.source_butler) as source_butler,
            coalesce(f.source_episode_id, ru.source_episode_id) as source_episode_id,
            coalesce(f.metadata, ru.metadata) as metadata,
            r.created_at
        from recalled as r
        left join pymem.facts as f on r.memory_type = 'fact' and f.tenant_id = p_tenant and f.id = r.memory_id
        left join pymem.rules as ru on r.memory_type = 'rule' and ru.tenant_id = p_tenant and ru.id = r.memory_id
        union all
        -- the butler's other proven and established rules: standing behaviour whatever the prompt, after
        -- the recalled ones (score 0: they were not recalled for this prompt)
        select
            'system', 1, 'rule', ru.id, ru.content, ru.token_count,
            0.0::double precision, 0.0::double precision, null::double precision, null::double precision,
            ru.confidence,
            pymem.memory_effective_confidence(ru.confidence, ru.decay_rate, ru.last_confirmed_at, pg_catalog.now()),
            null::text, null::text, ru.maturity, ru.scope, ru.source_butler, ru.source_episode_id, ru.metadata,
            ru.created_at
        from pymem.rules as ru
        where p_system > 0
          and ru.tenant_id = p_tenant
          and ru.forgotten_at is null
          and ru.review_state = 'approved'
          and pymem_private.rule_is_standing(ru.maturity, ru.source, ru.confirmed_at)
          and ru.scope in ('global', p_scope)
          and not exists (select from recalled as r where r.memory_type = 'rule' and r.memory_id = ru.id)
    ),
    ranked as (
        select
            c.*,
            pg_catalog.row_number() over (
                partition by c.block
                order by c.tier, c.score desc, c.effective_confidence desc nulls last, c.created_at desc, c.memory_id
            )::integer as block_rank
        from candidates as c
    )
    select
        r.block,
        r.block_rank,
        r.memory_type,
        r.memory_id,
        r.content,
        r.token_count,
        r.score,
        r.relevance,
        r.importance,
        r.recency,
        r.confidence,
        r.effective_confidence,
        r.subject,
        r.predicate,
        r.maturity,
        r.memory_scope,
        r.source_butler,
        r.source_episode_id,
        pymem_private.source_date(r.metadata),
        r.metadata ->> 'source_path',
        null::uuid,
        r.created_at,
        null::timestamptz
    from ranked as r
    where r.block_rank <= case r.block when 'system' then p_system when 'project' then p_project else p_knowledge end
    order by pg_catalog.array_position(array['system', 'project', 'knowledge'], r.block), r.block_rank;
end;
$$;

comment on function pymem_private.context_recalled_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, double precision, double precision, public.vector, public.vector, double precision
) is
$$The System, Project and Knowledge candidates of memory_context_candidates, its arguments checked and resolved
(the tenant, the scope, the weights, the three limits, the butler's floor and floor bypass): memory_recall of the
trigger prompt, candidates = "limit" = least(1000, max(3*(p_system+p_project+p_knowledge), 30)), without bumping, each fact or rule in its block (a
standing rule in System, a fact of the butler's own scope in Project, the rest in Knowledge), then the butler's
other standing rules in System with score 0; each block cut at its limit.
Example: select * from pymem_private.context_recalled_candidates(pymem.current_tenant(), 'diet', 'health', null,
0.4, 0.3, 0.2, 0.1, 10, 10, 10, 30, null);$$;


create or replace function pymem_private.context_history_candidates(
    p_tenant text,
    p_butler text,
    p_query_embedding public.vector,
    p_w_relevance double precision,
    p_w_importance double precision,
    p_w_recency double precision,
    p_history_limit integer,
    p_recency_half_life_days double precision
)
returns table (
    section text,
    section_rank integer,
    memory_type text,
    memory_id uuid,
    content text,
    token_count integer,
    score double precision,
    relevance double precision,
    importance double precision,
    recency double precision,
    confidence double precision,
    effective_confidence double precision,
    subject text,
    predicate text,
    maturity text,
    memory_scope text,
    source_butler text,
    source_episode_id uuid,
    source_date date,
    source_path text,
    session_id uuid,
    created_at timestamptz,
    expires_at timestamptz
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
-- the nearest episodes of one tenant's butler through the vector index: iterative scans, so that the rows of other
-- tenants and butlers that the index returns first do not leave the window short
set "hnsw.iterative_scan" = 'relaxed_order'
set "ivfflat.iterative_scan" = 'relaxed_order'
as $$
#variable_conflict use_column
begin
    return query
    with
    episodes as (
        select
            e.*,
            e.importance / 10.0 as importance_component,
            pymem.memory_recency(
                null, e.created_at, pg_catalog.now(), context_history_candidates.p_recency_half_life_days
            ) as recency_component,
            -- how close the episode is to the prompt (cosine similarity; NULL without an embedding)
            (
                select greatest(
                    0.0, 1.0 - (ep.embedding operator(public.<=>) context_history_candidates.p_query_embedding)
                )
                from pymem.episodes as ep
                where ep.tenant_id = p_tenant and ep.id = e.memory_id
            ) as relevance_component
        -- the window: the butler's 3 x history_limit (at least 30) newest live episodes and as many of its live
        -- episodes closest to the prompt, however old (an older turn that answers the prompt is not left out
        -- because it is not among the newest), of which the history_limit best by the composite of relevance,
        -- importance and recency are the candidates
        from (
            select * from pymem.memory_recent_episodes(
                butler => context_history_candidates.p_butler,
                "limit" => least(1000, greatest(3 * p_history_limit, 30))
            )
            union
            (
                select x.id, x.content, x.importance, x.session_id, x.created_at, x.expires_at, x.metadata
                from pymem.episodes as x
                where
                    context_history_candidates.p_query_embedding is not null
                    and x.tenant_id = context_history_candidates.p_tenant
                    and x.butler = context_history_candidates.p_butler
                    and x.forgotten_at is null
                    and (x.expires_at is null or x.expires_at > pg_catalog.now())
                    and x.embedding is not null
                    and public.vector_dims(x.embedding) = public.vector_dims(context_history_candidates.p_query_embedding)
                order by x.embedding operator(public.<=>) context_history_candidates.p_query_embedding
                limit least(1000, greatest(3 * p_history_limit, 30))
            )
        ) as e
    ),
    scored as (
        select
            e.*,
            coalesce(
                pymem.memory_composite_score(
                    coalesce(e.relevance_component, 0), e.importance_component, e.recency_component, 0,
                    case when e.relevance_component is null then 0 else p_w_relevance end,
                    p_w_importance, p_w_recency, 0
                ),
                e.recency_component
            ) as episode_score
        from episodes as e
    ),
    ranked as (
        select
            e.*,
            pg_catalog.row_number() over (
                order by e.episode_score desc, e.created_at desc, e.memory_id
            )::integer as episode_rank
        from scored as e
    )
    select
        'history'::text,
        e.episode_rank,
        'episode'::text,
        e.memory_id,
        e.content,
        (
            select ep.token_count from pymem.episodes as ep
            where ep.tenant_id = p_tenant and ep.id = e.memory_id
        ),
        e.episode_score,
        e.relevance_component,
        e.importance_component,
        e.recency_component,
        null::double precision,
        null::double precision,
        null::text,
        null::text,
        null::text,
        null::text,
        context_history_candidates.p_butler,
        null::uuid,
        pymem_private.source_date(e.metadata),
        e.metadata ->> 'source_path',
        e.session_id,
        e.created_at,
        e.expires_at
    from ranked as e
    where e.episode_rank <= p_history_limit
    order by e.episode_rank;
end;
$$;

comment on function pymem_private.context_history_candidates(
    text, text, public.vector, double precision, double precision, double precision, integer, double precision
) is
$$The History candidates of memory_context_candidates, its arguments checked and resolved: of the butler's
3 x p_history_limit (at least 30) newest live episodes and, with p_query_embedding, as many of its live episodes
closest to it however old, the p_history_limit best by the composite of relevance (cosine similarity to
p_query_embedding, left out without it), importance/10 and recency.
Example: select * from pymem_private.context_history_candidates(pymem.current_tenant(), 'health', null, 0.4, 0.3,
0.2, 20, 30);$$;


create or replace function pymem.memory_context_candidates(
    trigger_prompt text,
    butler text,
    scope text default null,
    query_embedding public.vector default null,
    w_relevance double precision default null,
    w_importance double precision default null,
    w_recency double precision default null,
    w_confidence double precision default null,
    system_limit integer default null,
    project_limit integer default null,
    history_limit integer default null,
    knowledge_limit integer default null,
    recency_half_life_days double precision default 30,
    min_relevance double precision default null,
    second_query_embedding public.vector default null,
    focus_embedding public.vector default null
)
returns table (
    section text,
    section_rank integer,
    memory_type text,
    memory_id uuid,
    content text,
    token_count integer,
    score double precision,
    relevance double precision,
    importance double precision,
    recency double precision,
    confidence double precision,
    effective_confidence double precision,
    subject text,
    predicate text,
    maturity text,
    memory_scope text,
    source_butler text,
    source_episode_id uuid,
    source_date date,
    source_path text,
    session_id uuid,
    created_at timestamptz,
    expires_at timestamptz
)
language plpgsql
-- STABLE: it writes nothing (memory_recall runs with bump_references => false)
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    -- what is left NULL comes from the butler's settings (pymem.butler_settings), else the defaults
    v_butler pymem.butler_settings := pymem_private.butler_settings_for(v_tenant, butler);
    v_system integer := pymem_private.require_section_limit(
        'system_limit', coalesce(system_limit, v_butler.max_system)
    );
    v_project integer := pymem_private.require_section_limit(
        'project_limit', coalesce(project_limit, v_butler.max_project)
    );
    v_episodes integer := pymem_private.require_section_limit(
        'history_limit', coalesce(history_limit, v_butler.max_history)
    );
    v_knowledge integer := pymem_private.require_section_limit(
        'knowledge_limit', coalesce(knowledge_limit, v_butler.max_knowledge)
    );
    v_w_relevance double precision := coalesce(w_relevance, v_butler.w_relevance);
    v_w_importance double precision := coalesce(w_importance, v_butler.w_importance);
    v_w_recency double precision := coalesce(w_recency, v_butler.w_recency);
    v_w_confidence double precision := coalesce(w_confidence, v_butler.w_confidence);
    v_scope text;
begin
    perform pymem_private.require_text('trigger_prompt', trigger_prompt, 10000);
    perform pymem_private.require_text('butler', butler, 200);
    perform pymem_private.require_read_options(scope, null);
    perform pymem_private.require_embedding('query_embedding', query_embedding);
    perform pymem_private.require_range('w_relevance', v_w_relevance, 0, 1000);
    perform pymem_private.require_range('w_importance', v_w_importance, 0, 1000);
    perform pymem_private.require_range('w_recency', v_w_recency, 0, 1000);
    perform pymem_private.require_range('w_confidence', v_w_confidence, 0, 1000);
    if v_w_relevance + v_w_importance + v_w_recency + v_w_confidence = 0 then
        raise exception 'the recall weights must not all be 0' using errcode = 'PM002';
    end if;
    perform pymem_private.require_range('recency_half_life_days', recency_half_life_days, 0.001, 100000);
    v_scope := coalesce(scope, v_butler.scope);

    -- System, Project and Knowledge: the recalled facts and rules, and the butler's standing rules
    if v_system + v_project + v_knowledge > 0 then
        return query
        select c.*
        from pymem_private.context_recalled_candidates(
            v_tenant, memory_context_candidates.trigger_prompt, v_scope, memory_context_candidates.query_embedding,
            v_w_relevance, v_w_importance, v_w_recency, v_w_confidence, v_system, v_project, v_knowledge,
            memory_context_candidates.recency_half_life_days,
            coalesce(memory_context_candidates.min_relevance, v_butler.min_relevance),
            memory_context_candidates.second_query_embedding,
            memory_context_candidates.focus_embedding,
            v_butler.floor_bypass
        ) as c;
    end if;

    -- History: the butler's recent episodes
    if v_episodes > 0 then
        return query
        select c.*
        from pymem_private.context_history_candidates(
            v_tenant, memory_context_candidates.butler, memory_context_candidates.query_embedding,
            v_w_relevance, v_w_importance, v_w_recency, v_episodes, memory_context_candidates.recency_half_life_days
        ) as c;
    end if;
end;
$$;

comment on function pymem.memory_context_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, integer, double precision, double precision, public.vector, public.vector
) is
$$The ranked candidates of a memory_context block, one row per memory, block by block, section_rank
from 1: 'system' (the butler's standing rules: proven or established, and explicitly confirmed with memory_confirm
when the agent inferred them or they were kept for review, pymem_private.rule_is_standing), 'project' (facts of the butler's own scope),
'knowledge' (the other facts and rules) and 'history' (the butler's recent episodes); the Task block is the
trigger prompt itself. What is left NULL (scope, w_*, *_limit) is the butler's setting (memory_butler_settings(butler):
scope = its name, weights 0.4/0.3/0.2/0.1, limits 10/10/10/20 by default). Facts and rules:
pymem.memory_recall(topic => trigger_prompt, scope => the scope, the w_* weights, candidates = "limit" =
least(1000, max(3*(system_limit+project_limit+knowledge_limit), 30)), bump_references => false, min_relevance), so a
score is the composite score of memory_recall and a fact or rule below the relevance floor (min_relevance,
default the butler's floor, memory_butler_settings(butler).min_relevance, else the relevance model's) and further
from the prompt than the butler's floor_bypass (cosine, default 0.3: pymem_private.floor_passes) or failing the
focus check (with focus_embedding, the embedding of memory_query_focus(trigger_prompt): memory_recall) is never a
candidate, except the butler's standing rules, which
follow the recalled ones in System with score 0. Episodes: of the butler's 3 x history_limit (at least 30) newest
live ones (memory_recent_episodes), the history_limit best by score = (w_relevance * relevance + w_importance *
importance/10 + w_recency * recency) / (w_relevance + w_importance + w_recency), relevance = the cosine similarity
of the episode's embedding to query_embedding (left out, weight and all, without either), recency = exp(-ln 2 *
days since created_at / recency_half_life_days). Within a block: score DESC,
created_at DESC, id ASC. Provenance: source_butler (the butler, for episodes), source_episode_id,
metadata.source_date and source_path (imported files), created_at. A limit of 0 leaves its block empty.
token_count: the content's stored token count. Reads only: no reference bump.
Example: select section, section_rank, memory_type, content, token_count, score
from memory_context_candidates(trigger_prompt => 'Help user with diet', butler => 'health');$$;
