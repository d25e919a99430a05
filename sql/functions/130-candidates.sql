-- Stage 1 of every search: the ranked candidate lists, semantic (pgvector cosine distance,
-- approximate index with iterative scans), keyword (full text, then the trigram and ILIKE tiers)
-- and graph (memory_links neighbours of the most relevant candidates), each row with its
-- calibrated relevance (sql/functions/112-relevance.sql). Only memories that retrieval may return are candidates: active facts,
-- rules and episodes that are not forgotten, episodes not expired, effective confidence at
-- least min_confidence, in scope; with as_of, what was valid at that moment.
-- The semantic leg skips rows embedded by a model other than the configured one
-- (pymem.memory_embedding_model(), sql/functions/240-embedding-versions.sql): keyword only until
-- `pymem reembed`. A table where the tenant has at most pymem.exact_search_rows rows (default
-- 1000) is searched exactly (btree on tenant_id, then sort: ~1 ms per 1k rows, recall 1); a
-- larger one by the approximate index with iterative scans and hnsw.ef_search >= p_depth, so a
-- small tenant inside a large corpus still gets p_depth rows.

-- Load pgvector and pg_trgm into this session first: their parameters (set below, for the
-- function's duration) are then known, and a non-superuser owner may set them.
select
    public.word_similarity('a', 'a') as load_pg_trgm,
    public.vector_dims('[1]'::public.vector) as load_pgvector;

create or replace function pymem_private.memory_candidates(
    p_tenant text,
    p_query text,
    p_query_embedding public.vector,
    p_types text[],
    p_scope text,
    p_depth integer,
    p_min_confidence double precision,
    p_as_of timestamptz,
    p_semantic boolean,
    p_keyword boolean,
    p_graph boolean
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
    c_relevance_features double precision[]
)
language plpgsql
stable
rows 50
security invoker
set search_path = pg_catalog, pg_temp
set "hnsw.iterative_scan" = 'relaxed_order'
set "ivfflat.iterative_scan" = 'relaxed_order'
set "hnsw.ef_search" = 200
set "pg_trgm.word_similarity_threshold" = 0.3
-- a search is a few small index scans: JIT compilation (tens of ms on a plan this size) and
-- parallel workers (each starts a process and re-reads the tenant) cost more than they save
set jit = off
set max_parallel_workers_per_gather = 0
as $$
declare
    v_at timestamptz := coalesce(p_as_of, pg_catalog.now());
    v_semantic boolean := p_semantic and p_query_embedding is not null;
    v_model text := case when p_semantic then pymem.memory_embedding_model() end;
    v_exact_rows integer := coalesce(nullif(pg_catalog.current_setting('pymem.exact_search_rows', true), '')::integer, 1000);
    v_exact_facts boolean := false;
    v_exact_rules boolean := false;
    v_exact_episodes boolean := false;
    v_trigram boolean := p_keyword and pg_catalog.cardinality(pymem.memory_cjk_runs(p_query)) > 0;
    v_terms text[] := case when p_keyword then pymem.memory_like_terms(p_query) else '{}' end;
    v_patterns text[] := (
        select coalesce(pg_catalog.array_agg('%' || t.term || '%'), '{}') from pg_catalog.unnest(v_terms) as t (term)
    );
    v_facts boolean := 'fact' = any(p_types);
    v_rules boolean := 'rule' = any(p_types);
    v_episodes boolean := 'episode' = any(p_types);
    -- relevance: the model of the evidence this search has (both legs, or one)
    v_variant text := pymem_private.relevance_variant(v_semantic, p_keyword);
    v_coefficients double precision[];
    v_lexemes text[] := pg_catalog.tsvector_to_array(pg_catalog.to_tsvector('english'::regconfig, p_query));
    v_lexeme_count integer := pg_catalog.cardinality(v_lexemes);
    -- the graph leg: neighbours of the GRAPH_SEEDS most relevant candidates
    v_graph_seeds constant integer := 5;
    -- a neighbour found only through a link is this share as relevant as its seed
    v_graph_discount constant double precision := 0.8;
    -- the semantic background of the query: the cosine of its BACKGROUND_RANK-th nearest candidate, 0 in a tenant
    -- of fewer (relevance feature semantic_lift), so the semantic leg reads at least that deep whatever p_depth
    v_background_rank constant integer := 30;
    v_semantic_depth integer := greatest(p_depth, v_background_rank);
begin
    select m.coefficients into v_coefficients from pymem.memory_relevance_model(v_variant) as m;
    if v_semantic then
        -- the candidate depth of a leg: an HNSW scan returns at most ef_search rows per pass (restored on exit)
        perform pg_catalog.set_config('hnsw.ef_search', least(1000, greatest(200, p_depth))::text, true);
        v_exact_facts := v_facts and (
            select pg_catalog.count(*) from (
                select from pymem.facts as f where f.tenant_id = p_tenant limit v_exact_rows + 1
            ) as n
        ) <= v_exact_rows;
        v_exact_rules := v_rules and (
            select pg_catalog.count(*) from (
                select from pymem.rules as r where r.tenant_id = p_tenant limit v_exact_rows + 1
            ) as n
        ) <= v_exact_rows;
        v_exact_episodes := v_episodes and (
            select pg_catalog.count(*) from (
                select from pymem.episodes as e where e.tenant_id = p_tenant limit v_exact_rows + 1
            ) as n
        ) <= v_exact_rows;
    end if;
    return query
    with
    visible_facts as not materialized (
        select f.id, f.created_at, f.embedding, f.embedding_model, f.search_vector, f.content
        from pymem.facts as f
        where v_facts
          and f.tenant_id = p_tenant
          and ((p_as_of is null and f.validity = 'active')
               or (p_as_of is not null and f.created_at <= p_as_of
                   and (f.invalidated_at is null or f.invalidated_at > p_as_of)))
          and (p_scope is null or f.scope in ('global', p_scope))
          -- pymem.memory_effective_confidence() written out: a function with a SET clause is not
          -- inlined, and calling it per row cost more than the rest of the filter
          and f.confidence * pg_catalog.exp(greatest(
                -700.0,  -- fully decayed (~1e-304) rather than an underflow error on very old data
                    -f.decay_rate * greatest(
                        0.0,
                        pg_catalog.date_part(
                            'epoch',
                            v_at - case when f.last_confirmed_at > v_at then f.created_at else f.last_confirmed_at end
                        ) / 86400.0
                    )
              )) >= p_min_confidence
    ),
    visible_rules as not materialized (
        select r.id, r.created_at, r.embedding, r.embedding_model, r.search_vector, r.content
        from pymem.rules as r
        where v_rules
          and r.tenant_id = p_tenant
          and r.created_at <= v_at
          and (r.forgotten_at is null or r.forgotten_at > v_at)
          and r.review_state = 'approved'
          and (p_scope is null or r.scope in ('global', p_scope))
          -- pymem.memory_effective_confidence() written out: a function with a SET clause is not
          -- inlined, and calling it per row cost more than the rest of the filter
          and r.confidence * pg_catalog.exp(greatest(
                -700.0,  -- fully decayed (~1e-304) rather than an underflow error on very old data
                    -r.decay_rate * greatest(
                        0.0,
                        pg_catalog.date_part(
                            'epoch',
                            v_at - case when r.last_confirmed_at > v_at then r.created_at else r.last_confirmed_at end
                        ) / 86400.0
                    )
              )) >= p_min_confidence
    ),
    visible_episodes as not materialized (
        select e.id, e.created_at, e.embedding, e.embedding_model, e.search_vector, e.content
        from pymem.episodes as e
        where v_episodes
          and e.tenant_id = p_tenant
          and e.created_at <= v_at
          and (e.forgotten_at is null or e.forgotten_at > v_at)
          and (e.expires_at is null or e.expires_at > v_at)
          and (p_scope is null or e.butler = p_scope)
    ),
    visible as not materialized (
        select 'fact'::text as kind, v.* from visible_facts as v
        union all
        select 'rule'::text, v.* from visible_rules as v
        union all
        select 'episode'::text, v.* from visible_episodes as v
    ),
    -- one nearest-neighbour scan per table (the shape the HNSW/IVFFlat index serves, iteratively
    -- when filters reject rows), merged and re-ranked exactly; relaxed index order is re-sorted here.
    -- Exact where the tenant is small: cosine_distance() is not an index ordering, so it sorts.
    semantic_all as materialized (
        (
            select 'fact'::text as kind, v.id, v.created_at, v.embedding operator(public.<=>) p_query_embedding as distance
            from visible_facts as v
            where v_semantic and not v_exact_facts and v.embedding is not null
              and (v_model is null or v.embedding_model = v_model)
            order by v.embedding operator(public.<=>) p_query_embedding
            limit v_semantic_depth
        )
        union all
        (
            select 'fact'::text, v.id, v.created_at, public.cosine_distance(v.embedding, p_query_embedding)
            from visible_facts as v
            where v_semantic and v_exact_facts and v.embedding is not null
              and (v_model is null or v.embedding_model = v_model)
            order by public.cosine_distance(v.embedding, p_query_embedding)
            limit v_semantic_depth
        )
        union all
        (
            select 'rule'::text, v.id, v.created_at, v.embedding operator(public.<=>) p_query_embedding
            from visible_rules as v
            where v_semantic and not v_exact_rules and v.embedding is not null
              and (v_model is null or v.embedding_model = v_model)
            order by v.embedding operator(public.<=>) p_query_embedding
            limit v_semantic_depth
        )
        union all
        (
            select 'rule'::text, v.id, v.created_at, public.cosine_distance(v.embedding, p_query_embedding)
            from visible_rules as v
            where v_semantic and v_exact_rules and v.embedding is not null
              and (v_model is null or v.embedding_model = v_model)
            order by public.cosine_distance(v.embedding, p_query_embedding)
            limit v_semantic_depth
        )
        union all
        (
            select 'episode'::text, v.id, v.created_at, v.embedding operator(public.<=>) p_query_embedding
            from visible_episodes as v
            where v_semantic and not v_exact_episodes and v.embedding is not null
              and (v_model is null or v.embedding_model = v_model)
            order by v.embedding operator(public.<=>) p_query_embedding
            limit v_semantic_depth
        )
        union all
        (
            select 'episode'::text, v.id, v.created_at, public.cosine_distance(v.embedding, p_query_embedding)
            from visible_episodes as v
            where v_semantic and v_exact_episodes and v.embedding is not null
              and (v_model is null or v.embedding_model = v_model)
            order by public.cosine_distance(v.embedding, p_query_embedding)
            limit v_semantic_depth
        )
    ),
    semantic_ranked as (
        select r.* from (
            select
                s.kind, s.id, s.created_at,
                pg_catalog.row_number() over (order by s.distance, s.created_at desc, s.id)::integer as rank,
                greatest(0.0, 1.0 - s.distance) as score
            from semantic_all as s
        ) as r
        where r.rank <= v_semantic_depth
    ),
    -- the 30th highest cosine, a memory missing from a tenant of fewer counting as unrelated (cosine 0)
    semantic_background as (
        select case when pg_catalog.count(*) >= v_background_rank then pg_catalog.min(s.score) else 0.0 end as score
        from semantic_ranked as s
        where s.rank <= v_background_rank
    ),
    -- the keyword leg's full-text tier: the top p_depth rows by BM25 (128-keyword-scores.sql)
    fts as materialized (
        select t.kind, t.id, t.created_at, t.bm25 / (t.bm25 + 1.0) as score, 'fts'::text as tier
        from pymem_private.memory_keyword_top(
            p_tenant, p_query, p_types, p_scope, p_depth, p_min_confidence, p_as_of
        ) as t
        where p_keyword
    ),
    trigram as materialized (
        select
            v.kind, v.id, v.created_at,
            public.word_similarity(p_query, v.content)::double precision as score,
            'trigram'::text as tier
        from visible as v
        where v_trigram and p_query operator(public.<%) v.content
    ),
    like_tier as (
        select
            v.kind, v.id, v.created_at,
            (
                select pg_catalog.count(*) from pg_catalog.unnest(v_terms) as t (term)
                where v.content ilike '%' || t.term || '%'
            )::double precision / pg_catalog.cardinality(v_terms) as score,
            'ilike'::text as tier
        from visible as v
        where pg_catalog.cardinality(v_terms) > 0
          and v.content ilike any (v_patterns)
          and not exists (select from fts)
          and not exists (select from trigram)
    ),
    keyword_all as (
        select distinct on (k.kind, k.id) k.*
        from (
            select * from fts
            union all
            select * from trigram
            union all
            select * from like_tier
        ) as k
        order by k.kind, k.id, k.score desc
    ),
    keyword_ranked as (
        select
            k.kind, k.id, k.created_at, k.score, k.tier,
            pg_catalog.row_number() over (order by k.score desc, k.created_at desc, k.id)::integer as rank
        from keyword_all as k
        order by rank
        limit p_depth
    ),
    legs as materialized (
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
    ),
    -- the evidence of each row (pymem.memory_relevance_features) and its calibrated relevance
    scored as materialized (
        select
            e.*,
            pymem.memory_relevance(e.features, v_coefficients) as relevance
        from (
            select
                l.*,
                pymem.memory_relevance_features(
                    l.semantic_score, l.semantic_rank, l.keyword_score, l.keyword_rank, l.keyword_tier,
                    pg_catalog.max(l.semantic_score) over (),
                    pg_catalog.max(l.keyword_score) filter (where l.keyword_tier = 'fts') over (),
                    case when v_lexeme_count > 0 then
                        (pg_catalog.length(t.sv) - pg_catalog.length(pg_catalog.ts_delete(t.sv, v_lexemes)))::double precision
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
    -- the graph leg: memories linked (derived_from, supports, related_to, either direction) to the most
    -- relevant candidates, if retrieval may return them (visible: never superseded, retracted or forgotten)
    seeds as (
        select sc.kind, sc.id, sc.relevance, pg_catalog.row_number() over (
            order by sc.relevance desc, sc.created_at desc, sc.id
        ) as seed_rank
        from scored as sc
        where p_graph
        order by seed_rank
        limit v_graph_seeds
    ),
    linked as (
        select sd.seed_rank, sd.relevance as seed_relevance, ml.target_type as kind, ml.target_id as id
        from seeds as sd
        inner join pymem.memory_links as ml
            on ml.tenant_id = p_tenant and ml.source_type = sd.kind and ml.source_id = sd.id
        where ml.relation in ('derived_from', 'supports', 'related_to')
        union all
        select sd.seed_rank, sd.relevance, ml.source_type, ml.source_id
        from seeds as sd
        inner join pymem.memory_links as ml
            on ml.tenant_id = p_tenant and ml.target_type = sd.kind and ml.target_id = sd.id
        where ml.relation in ('derived_from', 'supports', 'related_to')
    ),
    graph_ranked as (
        select
            n.*,
            pg_catalog.row_number() over (order by n.seed_rank, n.created_at desc, n.id)::integer as graph_rank
        from (
            select distinct on (li.kind, li.id) li.kind, li.id, v.created_at, li.seed_rank, li.seed_relevance
            from linked as li
            -- a primary-key lookup per link (joining the visible rows as a whole read the tenant's tables:
            -- 9 ms at 10k memories, links or not)
            cross join lateral (
                select vf.created_at from visible_facts as vf where li.kind = 'fact' and vf.id = li.id
                union all
                select vr.created_at from visible_rules as vr where li.kind = 'rule' and vr.id = li.id
                union all
                select ve.created_at from visible_episodes as ve where li.kind = 'episode' and ve.id = li.id
            ) as v
            where li.kind = any(p_types)
            order by li.kind, li.id, li.seed_rank
        ) as n
    )
    select
        coalesce(sc.kind, g.kind), coalesce(sc.id, g.id), coalesce(sc.created_at, g.created_at),
        sc.semantic_rank, sc.semantic_score, sc.keyword_rank, sc.keyword_score, sc.keyword_tier, g.graph_rank,
        greatest(sc.relevance, g.seed_relevance * v_graph_discount),
        coalesce(sc.features, pymem.memory_relevance_features(null, null, null, null, null, null, null, null, null))
    from scored as sc
    full join graph_ranked as g on sc.kind = g.kind and sc.id = g.id;
end;
$$;

comment on function pymem_private.memory_candidates(
    text, text, public.vector, text[], text, integer, double precision, timestamptz, boolean, boolean, boolean
) is
$$Stage 1 of every search: the semantic and keyword candidate lists, each cut at p_depth and ranked from 1 (ties:
created_at DESC, id ASC), and (p_graph) the graph list: the memories linked (derived_from, supports,
related_to, either direction) to the 5 most relevant candidates, that retrieval may return, ranked by their
seed's rank (then created_at DESC, id ASC). Each row's relevance = pymem.memory_relevance(its evidence
pymem.memory_relevance_features(...), the coefficients of pymem.memory_relevance_model(variant)), variant hybrid
when both legs ran, else semantic or keyword; a row found through a link is at least 0.8 x its seed's relevance. semantic_score = 1 - cosine distance (at least 0); keyword_score in [0, 1]:
BM25 (k1 0.9, b 0.4; N, avgdl and df kept per tenant over the searchable rows of the searched types, length =
distinct lexemes; pymem_private.memory_keyword_top) normalised by bm25/(bm25+1) (tier fts), pg_trgm word_similarity (tier trigram, queries with
CJK), or the share of ILIKE terms matched (tier ilike, only when the other tiers find nothing). The semantic
leg reads at least 30 rows deep: the cosine of the 30th nearest (0 when fewer) is the background of relevance
feature semantic_lift, whatever p_depth. The semantic list skips rows of another embedding model than pymem.memory_embedding_model(); it is exact for a table where the
tenant has at most pymem.exact_search_rows rows (default 1000), else served by the vector index with iterative
scans and hnsw.ef_search = least(1000, max(200, p_depth)) (migration 0009: measured on 151k rows, recall@10 0.99).$$;
