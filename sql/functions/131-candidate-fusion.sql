-- noqa: disable=RF01
-- Stage 1 of every search, its second half: the candidate lists fused, each row's calibrated relevance, and the
-- graph leg (pymem_private.memory_candidates runs the legs, 130-candidates.sql, and calls this with their rows).
--
-- Why a function of its own (issue 31): memory_candidates ran the legs and the fusion as one statement, planned
-- again on every call with the call's values (a generic plan of the legs cannot know a tenant's size: it read a
-- tenant of 50,000 facts whole to sort them). That plan took ~3.7 ms of every recall and search at 100k memories
-- per tenant, most of it for the fusion, the relevance and the graph leg, whose plans do not depend on the values
-- (lists of at most a few hundred rows; primary-key lookups). Here they are planned once per session
-- (plan_cache_mode = force_generic_plan); the legs stay statements of their own in memory_candidates, planned with
-- the call's values.

create or replace function pymem_private.memory_fuse_candidates(
    p_tenant text,
    p_types text[],
    p_scope text,
    p_depth integer,
    p_min_confidence double precision,
    p_as_of timestamptz,
    p_at timestamptz,
    p_graph boolean,
    p_coefficients double precision[],
    p_lexemes text[],
    p_background double precision,
    -- the semantic list, in rank order (kind, id, created_at, rank, cosine score)
    p_semantic_kinds text[],
    p_semantic_ids uuid[],
    p_semantic_created timestamptz[],
    p_semantic_ranks integer[],
    p_semantic_scores double precision[],
    -- the keyword list, in rank order (kind, id, created_at, score, tier, rank)
    p_keyword_kinds text[],
    p_keyword_ids uuid[],
    p_keyword_created timestamptz[],
    p_keyword_scores double precision[],
    p_keyword_tiers text[],
    p_keyword_ranks integer[],
    -- the second encoder's list (kind, id, created_at, rank, cosine score)
    p_second_kinds text[],
    p_second_ids uuid[],
    p_second_created timestamptz[],
    p_second_ranks integer[],
    p_second_scores double precision[]
)
returns table (
    c_type text,
    c_id uuid,
    c_created_at timestamptz,
    c_semantic_rank integer,
    c_semantic_score double precision,
    c_keyword_rank integer,
    c_keyword_score double precision,
    c_keyword_tier text,
    c_graph_rank integer,
    c_relevance double precision,
    c_relevance_features double precision[],
    c_second_rank integer,
    c_second_score double precision
)
language plpgsql
stable
rows 50
security invoker
set search_path = pg_catalog, pg_temp
set jit = off
set max_parallel_workers_per_gather = 0
-- the plan of this statement does not depend on the values: planned once per session, not on every call
set plan_cache_mode = force_generic_plan
as $$
declare
    v_facts boolean := 'fact' = any(p_types);
    v_rules boolean := 'rule' = any(p_types);
    v_episodes boolean := 'episode' = any(p_types);
    v_lexeme_count integer := pg_catalog.cardinality(p_lexemes);
    -- the graph leg: neighbours of the GRAPH_SEEDS most relevant candidates
    v_graph_seeds constant integer := 5;
    -- a neighbour found only through a link is this share as relevant as its seed
    v_graph_discount constant double precision := 0.8;
begin
    return query
    with
    semantic_ranked as (
        select *
        from rows from (
            pg_catalog.unnest(p_semantic_kinds), pg_catalog.unnest(p_semantic_ids),
            pg_catalog.unnest(p_semantic_created), pg_catalog.unnest(p_semantic_ranks),
            pg_catalog.unnest(p_semantic_scores)
        ) as s (kind, id, created_at, rank, score)
    ),
    semantic_background as (
        select p_background as score
    ),
    second_ranked as (
        select *
        from rows from (
            pg_catalog.unnest(p_second_kinds), pg_catalog.unnest(p_second_ids), pg_catalog.unnest(p_second_created),
            pg_catalog.unnest(p_second_ranks), pg_catalog.unnest(p_second_scores)
        ) as s2 (kind, id, created_at, rank, score)
    ),
    keyword_ranked as (
        select *
        from rows from (
            pg_catalog.unnest(p_keyword_kinds), pg_catalog.unnest(p_keyword_ids), pg_catalog.unnest(p_keyword_created),
            pg_catalog.unnest(p_keyword_scores), pg_catalog.unnest(p_keyword_tiers), pg_catalog.unnest(p_keyword_ranks)
        ) as k (kind, id, created_at, score, tier, rank)
    ),
    -- fusion: one row per memory of any list, each cut at p_depth
    legs as materialized (
        select
            coalesce(sk.kind, s2.kind) as kind,
            coalesce(sk.id, s2.id) as id,
            coalesce(sk.created_at, s2.created_at) as created_at,
            sk.semantic_rank,
            sk.semantic_score,
            sk.keyword_rank,
            sk.keyword_score,
            sk.keyword_tier,
            s2.rank as second_rank,
            s2.score as second_score
        from (
            select
                coalesce(s.kind, k.kind) as kind,
                coalesce(s.id, k.id) as id,
                coalesce(s.created_at, k.created_at) as created_at,
                s.rank as semantic_rank,
                s.score as semantic_score,
                k.rank as keyword_rank,
                k.score as keyword_score,
                k.tier as keyword_tier
            from (select * from semantic_ranked as sr where sr.rank <= p_depth) as s
            full join keyword_ranked as k on s.kind = k.kind and s.id = k.id
        ) as sk
        full join second_ranked as s2 on sk.kind = s2.kind and sk.id = s2.id
    ),
    -- the evidence of each row (pymem.memory_relevance_features) and its calibrated relevance
    scored as materialized (
        select
            e.*,
            pymem.memory_relevance(e.features, p_coefficients) as relevance
        from (
            select
                l.*,
                pymem.memory_relevance_features(
                    l.semantic_score, l.semantic_rank, l.keyword_score, l.keyword_rank, l.keyword_tier,
                    pg_catalog.max(l.semantic_score) over (),
                    pg_catalog.max(l.keyword_score) filter (where l.keyword_tier = 'fts') over (),
                    case when v_lexeme_count > 0 then
                        (pg_catalog.length(t.sv) - pg_catalog.length(pg_catalog.ts_delete(t.sv, p_lexemes)))::double precision
                        / v_lexeme_count
                    end,
                    b.score
                ) as features
            from legs as l
            cross join semantic_background as b
            cross join lateral (
                select case l.kind
                    when 'fact' then (
                        select f.search_vector from pymem.facts as f where f.tenant_id = p_tenant and f.id = l.id
                    )
                    when 'rule' then (
                        select r.search_vector from pymem.rules as r where r.tenant_id = p_tenant and r.id = l.id
                    )
                    else (
                        select ep.search_vector from pymem.episodes as ep where ep.tenant_id = p_tenant and ep.id = l.id
                    )
                end as sv
            ) as t
        ) as e
    ),
    -- the graph leg: memories linked to the most relevant candidates, if retrieval may return them (searchable:
    -- never superseded, retracted or forgotten)
    seeds as (
        select sc.kind, sc.id, sc.relevance, pg_catalog.row_number() over (
            order by sc.relevance desc, sc.created_at desc, sc.id
        ) as seed_rank
        from scored as sc
        where p_graph
        order by seed_rank
        limit v_graph_seeds
    ),
    graph_ranked as (
        select
            n.*,
            pg_catalog.row_number() over (order by n.seed_rank, n.created_at desc, n.id)::integer as graph_rank
        from (
            select distinct on (li.kind, li.id) li.kind, li.id, v.created_at, sd.seed_rank, sd.relevance as seed_relevance
            from seeds as sd
            cross join lateral pymem_private.linked_memories(p_tenant, sd.kind, sd.id) as li
            -- a primary-key lookup per link (joining the searchable rows as a whole read the tenant's tables:
            -- 9 ms at 10k memories, links or not)
            cross join lateral (
                select vf.created_at
                from pymem_private.searchable_facts(p_tenant, p_scope, p_min_confidence, p_as_of, p_at) as vf
                where v_facts and li.kind = 'fact' and vf.id = li.id
                union all
                select vr.created_at
                from pymem_private.searchable_rules(p_tenant, p_scope, p_min_confidence, p_at) as vr
                where v_rules and li.kind = 'rule' and vr.id = li.id
                union all
                select ve.created_at
                from pymem_private.searchable_episodes(p_tenant, p_scope, p_at) as ve
                where v_episodes and li.kind = 'episode' and ve.id = li.id
            ) as v
            where li.kind = any(p_types)
            order by li.kind, li.id, sd.seed_rank
        ) as n
    )
    select
        coalesce(sc.kind, g.kind), coalesce(sc.id, g.id), coalesce(sc.created_at, g.created_at),
        sc.semantic_rank, sc.semantic_score, sc.keyword_rank, sc.keyword_score, sc.keyword_tier, g.graph_rank,
        greatest(sc.relevance, g.seed_relevance * v_graph_discount),
        coalesce(sc.features, pymem.memory_relevance_features(null, null, null, null, null, null, null, null, null)),
        sc.second_rank, sc.second_score
    from scored as sc
    full join graph_ranked as g on sc.kind = g.kind and sc.id = g.id;
end;
$$;

comment on function pymem_private.memory_fuse_candidates(
    text, text[], text, integer, double precision, timestamptz, timestamptz, boolean, double precision[], text[],
    double precision, text[], uuid[], timestamptz[], integer[], double precision[], text[], uuid[], timestamptz[],
    double precision[], text[], integer[], text[], uuid[], timestamptz[], integer[], double precision[]
) is
$$The second half of pymem_private.memory_candidates: its candidate lists (each given as arrays in rank order:
semantic at depth max(p_depth, 30), keyword and second encoder at p_depth) fused into one row per memory, the
semantic list cut at p_depth; each row's evidence (pymem.memory_relevance_features, p_background the cosine of the
30th nearest) and relevance (pymem.memory_relevance with p_coefficients); and with p_graph the graph leg over the 5
most relevant rows. Returns memory_candidates' rows. Planned once per session (plan_cache_mode force_generic_plan).
Example: select * from pymem_private.memory_fuse_candidates('demo', '{fact}', null, 10, 0.2, null, now(), false,
(select m.coefficients from pymem.memory_relevance_model('keyword') as m), '{tea}', 0.0, '{}', '{}', '{}', '{}',
'{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}');$$;
