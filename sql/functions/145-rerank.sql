-- noqa: disable=RF01
-- The second stage with a model SQL cannot run (a cross-encoder), in one tenant transaction:
--   1. memory_rerank_candidates proposes the candidates (memory_search's rows, memory_rerank_depth of them,
--      nothing bumped);
--   2. the wrapper scores them with its model;
--   3. memory_rerank_select checks the scores, decides the order and the cut (memory_rerank) and bumps the
--      references of what it returns, as memory_search does.
-- The wrapper decides nothing: it runs the model between two calls.

create or replace function pymem.memory_rerank_depth("limit" integer default 20)
returns integer
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    return least(1000, greatest(3 * pymem_private.require_limit('limit', "limit"), 30));
end;
$$;

comment on function pymem.memory_rerank_depth(integer) is
$$How many candidates stage 1 gives a reranker for a search of "limit" results: least(1000, greatest(3 x limit,
30)), so that the model has room to reorder (at least 30) and never scores more than memory_rerank takes (1000).
PM002 for a limit outside 1..1000.
Example: select pymem.memory_rerank_depth(5), pymem.memory_rerank_depth(20), pymem.memory_rerank_depth(1000);$$;

create or replace function pymem.memory_rerank(
    memory_types text[],
    memory_ids uuid[],
    scores double precision[],
    "limit" integer default 20
)
returns table (memory_type text, memory_id uuid, rerank_score double precision, rerank_rank integer)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_limit integer := pymem_private.require_limit('limit', "limit");
    v_n integer := coalesce(pg_catalog.cardinality(memory_ids), 0);
    v_missing record;
begin
    if memory_types is null or memory_ids is null or scores is null
       or pg_catalog.cardinality(memory_types) <> v_n or pg_catalog.cardinality(scores) <> v_n then
        raise exception 'memory_types, memory_ids and scores must be arrays of one length'
            using errcode = 'PM002',
                  detail = pg_catalog.format(
                      'lengths %s, %s and %s', pg_catalog.cardinality(memory_types), v_n, pg_catalog.cardinality(scores)
                  ),
                  hint = 'Pass one type and one score per candidate of memory_search.';
    end if;
    if v_n > 1000 then
        raise exception 'at most 1000 candidates can be reranked, not %', v_n using errcode = 'PM002';
    end if;
    if exists (
        select from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids), pg_catalog.unnest(scores)) as c (t, i, s)
        where c.t is null or c.i is null or c.s is null or c.s in ('NaN', 'Infinity', '-Infinity')
           or c.t not in ('episode', 'fact', 'rule')
    ) then
        raise exception 'every candidate needs a type (episode, fact or rule), an id and a finite score'
            using errcode = 'PM002';
    end if;
    select c.t, c.i into v_missing
    from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids)) as c (t, i)
    where not pymem_private.memory_exists(v_tenant, c.t, c.i)
    limit 1;
    if found then
        perform pymem_private.not_found(v_missing.t, v_missing.i);
    end if;
    return query
    select r.t, r.i, r.s, r.rank
    from (
        select
            c.t, c.i, c.s,
            pg_catalog.row_number() over (order by c.s desc, m.created_at desc, c.i)::integer as rank
        from (
            select distinct on (c0.t, c0.i) c0.t, c0.i, c0.s
            from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids), pg_catalog.unnest(scores)) as c0 (t, i, s)
            order by c0.t, c0.i, c0.s desc
        ) as c
        cross join lateral (
            select coalesce(
                (select f.created_at from pymem.facts as f where c.t = 'fact' and f.tenant_id = v_tenant and f.id = c.i),
                (select r0.created_at from pymem.rules as r0 where c.t = 'rule' and r0.tenant_id = v_tenant and r0.id = c.i),
                (select e.created_at from pymem.episodes as e where c.t = 'episode' and e.tenant_id = v_tenant and e.id = c.i)
            ) as created_at
        ) as m
    ) as r
    where r.rank <= v_limit
    order by r.rank;
end;
$$;

comment on function pymem.memory_rerank(text[], uuid[], double precision[], integer) is
$$Stage 2 with an external model: the candidates of a search (their types and ids) ordered by the scores a
reranker gave them (a cross-encoder's logits, higher is better), ties by created_at DESC, id ASC, the first
"limit" of them with rerank_rank from 1. A candidate listed twice counts once, with its best score. PM002 for
arrays of different lengths, more than 1000 candidates, a NULL, NaN or infinite score or an unknown type; PM003
for a memory the tenant does not have. Reads only.
Example: select * from memory_rerank(array['fact', 'rule'], array['<uuid>', '<uuid>']::uuid[], array[2.5, -1.0]);$$;


create or replace function pymem.memory_rerank_candidates(
    query text,
    types text[] default null,
    scope text default null,
    mode text default null,
    "limit" integer default 20,
    min_confidence double precision default null,
    query_embedding public.vector default null,
    min_relevance double precision default null,
    agent_turn_weight double precision default null
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
    stored_by text
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_depth integer := pymem.memory_rerank_depth("limit");
    -- the options left NULL are not passed: memory_search's own defaults apply
    -- memory_search's columns but the second leg's (the reranker does not read them)
    v_call text := 'select s.memory_type, s.memory_id, s.content, s.score, s.confidence, s.effective_confidence,'
        || ' s.importance, s.memory_scope, s.subject, s.predicate, s.maturity, s.semantic_rank, s.semantic_score,'
        || ' s.keyword_rank, s.keyword_score, s.keyword_tier, s.date_decay, s.search_mode, s.created_at,'
        || ' s.reference_count, s.graph_rank, s.relevance, s.relevance_features, s.source_butler, s.session_id,'
        || ' s.source_episode_id, s.source_path, s.stored_by'
        || ' from pymem.memory_search(query => $1, "limit" => $8, bump_references => false'
        || case when types is not null then ', types => $2' else '' end
        || case when scope is not null then ', scope => $3' else '' end
        || case when mode is not null then ', mode => $4' else '' end
        || case when min_confidence is not null then ', min_confidence => $5' else '' end
        || case when query_embedding is not null then ', query_embedding => $6' else '' end
        || case when min_relevance is not null then ', min_relevance => $7' else '' end
        || case when agent_turn_weight is not null then ', agent_turn_weight => $9' else '' end
        || ') as s';
begin
    return query execute v_call
        using query, types, scope, mode, min_confidence, query_embedding, min_relevance, v_depth, agent_turn_weight;
end;
$$;

comment on function pymem.memory_rerank_candidates(
    text, text[], text, text, integer, double precision, public.vector, double precision, double precision
) is
$$Stage 1 of a search reranked by a model SQL cannot run: memory_search's rows for the query and options (NULL: the
option's memory_search default), memory_rerank_depth("limit") of them, without bumping any reference (what the
reranker does not keep was not returned). Score them, then pass the scores to memory_rerank_select with the same
"limit". PM002 as memory_search, and for a limit outside 1..1000.
Example: select memory_type, memory_id, content from memory_rerank_candidates('oat milk', "limit" => 5);$$;


create or replace function pymem.memory_rerank_select(
    memory_types text[],
    memory_ids uuid[],
    scores double precision[],
    "limit" integer default 20
)
returns table (
    memory_type text, memory_id uuid, rerank_score double precision, rerank_rank integer, reference_count integer
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    -- no bump in a read-only transaction (a standby): the wrapper forwards the bumps to the primary
    v_bump boolean := pg_catalog.current_setting('transaction_read_only') = 'off';
begin
    return query
    with
    chosen as materialized (
        select r.memory_type, r.memory_id, r.rerank_score, r.rerank_rank
        from pymem.memory_rerank(memory_types, memory_ids, scores, "limit") as r
    ),
    -- as memory_search bumps (memory_touch_many locks by id): concurrent reads never deadlock
    bumped as materialized (
        select b.kind as memory_type, b.id as memory_id, b.reference_count as n
        from pymem_private.memory_touch_many(
            v_tenant, array(select c.memory_type from chosen as c order by c.memory_type, c.memory_id),
            array(select c.memory_id from chosen as c order by c.memory_type, c.memory_id)
        ) as b
        where v_bump
    )
    select
        c.memory_type, c.memory_id, c.rerank_score, c.rerank_rank,
        coalesce(
            b.n,
            (select f.reference_count from pymem.facts as f
             where c.memory_type = 'fact' and f.tenant_id = v_tenant and f.id = c.memory_id),
            (select r0.reference_count from pymem.rules as r0
             where c.memory_type = 'rule' and r0.tenant_id = v_tenant and r0.id = c.memory_id),
            (select e.reference_count from pymem.episodes as e
             where c.memory_type = 'episode' and e.tenant_id = v_tenant and e.id = c.memory_id)
        )
    from chosen as c
    left join bumped as b on c.memory_type = b.memory_type and c.memory_id = b.memory_id
    order by c.rerank_rank;
end;
$$;

comment on function pymem.memory_rerank_select(text[], uuid[], double precision[], integer) is
$$Stage 2 of a search reranked by a model SQL cannot run: memory_rerank's order and cut of the candidates
memory_rerank_candidates proposed, by the scores the model gave them (higher is better; ties by created_at DESC,
id ASC), and the reference bumps of the ones it returns (reference_count + 1, last_referenced_at = now(); none in
a read-only transaction), as memory_search bumps what it returns. reference_count: the count after the bump.
PM002 and PM003 as memory_rerank.
Example: select * from memory_rerank_select(array['fact', 'rule'], array['<uuid>', '<uuid>']::uuid[], array[2.5, -1.0], 1);$$;
