-- noqa: disable=RF01
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

-- memory_candidates decides (the evidence this search has, exact or approximate, the index's depth) and fuses;
-- what each leg finds is an inlinable set-returning SQL function (SQL-standard body of one SELECT, STABLE, not
-- STRICT, no SET clause, not SECURITY DEFINER), so the planner puts it in place of its call and the whole search
-- is still one query, planned as one: semantic_candidates, keyword_candidates (over the searchable_* rows of
-- 128-keyword-scores.sql) and linked_memories (the graph's neighbours of a seed). They run under
-- memory_candidates' settings (hnsw.ef_search, iterative scans, the trigram threshold).

-- Load pgvector and pg_trgm into this session first: their parameters (set below, for the
-- function's duration) are then known, and a non-superuser owner may set them.
select
    public.word_similarity('a', 'a') as load_pg_trgm,
    public.vector_dims('[1]'::public.vector) as load_pgvector;

create or replace function pymem_private.semantic_candidates(
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
returns table (kind text, id uuid, created_at timestamptz, rank integer, score double precision, distance double precision)
language sql
stable
rows 50
security invoker
begin atomic
    with
    -- one nearest-neighbour scan per table (the shape the HNSW/IVFFlat index serves, iteratively
    -- when filters reject rows), merged and re-ranked exactly; relaxed index order is re-sorted here.
    -- Exact where the tenant is small (p_exact_types): cosine_distance() is not an index ordering, so it sorts.
    semantic_all as materialized (
        (
            select
                'fact'::text as kind,
                v.id,
                v.created_at,
                v.embedding operator (public.<=>) semantic_candidates.p_query_embedding as distance
            from
                pymem_private.searchable_facts(
                    semantic_candidates.p_tenant, semantic_candidates.p_scope, semantic_candidates.p_min_confidence,
                    semantic_candidates.p_as_of, semantic_candidates.p_at
                ) as v
            where
                'fact' = any(semantic_candidates.p_types) and not ('fact' = any(semantic_candidates.p_exact_types))
                and v.embedding is not null
                and (semantic_candidates.p_model is null or v.embedding_model = semantic_candidates.p_model)
            order by v.embedding operator (public.<=>) semantic_candidates.p_query_embedding
            limit semantic_candidates.p_depth
        )
        union all
        (
            select
                'fact'::text,
                v.id,
                v.created_at,
                public.cosine_distance(v.embedding, semantic_candidates.p_query_embedding) as distance
            from
                pymem_private.searchable_facts(
                    semantic_candidates.p_tenant, semantic_candidates.p_scope, semantic_candidates.p_min_confidence,
                    semantic_candidates.p_as_of, semantic_candidates.p_at
                ) as v
            where
                'fact' = any(semantic_candidates.p_types) and 'fact' = any(semantic_candidates.p_exact_types)
                and v.embedding is not null
                and (semantic_candidates.p_model is null or v.embedding_model = semantic_candidates.p_model)
            order by public.cosine_distance(v.embedding, semantic_candidates.p_query_embedding)
            limit semantic_candidates.p_depth
        )
        union all
        (
            select
                'rule'::text,
                v.id,
                v.created_at,
                v.embedding operator (public.<=>) semantic_candidates.p_query_embedding as distance
            from
                pymem_private.searchable_rules(
                    semantic_candidates.p_tenant, semantic_candidates.p_scope, semantic_candidates.p_min_confidence,
                    semantic_candidates.p_at
                ) as v
            where
                'rule' = any(semantic_candidates.p_types) and not ('rule' = any(semantic_candidates.p_exact_types))
                and v.embedding is not null
                and (semantic_candidates.p_model is null or v.embedding_model = semantic_candidates.p_model)
            order by v.embedding operator (public.<=>) semantic_candidates.p_query_embedding
            limit semantic_candidates.p_depth
        )
        union all
        (
            select
                'rule'::text,
                v.id,
                v.created_at,
                public.cosine_distance(v.embedding, semantic_candidates.p_query_embedding) as distance
            from
                pymem_private.searchable_rules(
                    semantic_candidates.p_tenant, semantic_candidates.p_scope, semantic_candidates.p_min_confidence,
                    semantic_candidates.p_at
                ) as v
            where
                'rule' = any(semantic_candidates.p_types) and 'rule' = any(semantic_candidates.p_exact_types)
                and v.embedding is not null
                and (semantic_candidates.p_model is null or v.embedding_model = semantic_candidates.p_model)
            order by public.cosine_distance(v.embedding, semantic_candidates.p_query_embedding)
            limit semantic_candidates.p_depth
        )
        union all
        (
            select
                'episode'::text,
                v.id,
                v.created_at,
                v.embedding operator (public.<=>) semantic_candidates.p_query_embedding as distance
            from
                pymem_private.searchable_episodes(
                    semantic_candidates.p_tenant, semantic_candidates.p_scope, semantic_candidates.p_at
                ) as v
            where
                'episode' = any(semantic_candidates.p_types)
                and not ('episode' = any(semantic_candidates.p_exact_types))
                and v.embedding is not null
                and (semantic_candidates.p_model is null or v.embedding_model = semantic_candidates.p_model)
            order by v.embedding operator (public.<=>) semantic_candidates.p_query_embedding
            limit semantic_candidates.p_depth
        )
        union all
        (
            select
                'episode'::text,
                v.id,
                v.created_at,
                public.cosine_distance(v.embedding, semantic_candidates.p_query_embedding) as distance
            from
                pymem_private.searchable_episodes(
                    semantic_candidates.p_tenant, semantic_candidates.p_scope, semantic_candidates.p_at
                ) as v
            where
                'episode' = any(semantic_candidates.p_types) and 'episode' = any(semantic_candidates.p_exact_types)
                and v.embedding is not null
                and (semantic_candidates.p_model is null or v.embedding_model = semantic_candidates.p_model)
            order by public.cosine_distance(v.embedding, semantic_candidates.p_query_embedding)
            limit semantic_candidates.p_depth
        )
    )

    select
        r.kind,
        r.id,
        r.created_at,
        r.rank,
        r.score,
        r.distance
    from (
        select
            s.kind,
            s.id,
            s.created_at,
            pg_catalog.row_number() over (order by s.distance asc, s.created_at desc, s.id asc)::integer as rank,
            greatest(0.0, 1.0 - s.distance) as score,
            s.distance
        from semantic_all as s
    ) as r
    where r.rank <= semantic_candidates.p_depth;
end;

comment on function pymem_private.semantic_candidates(
    text, public.vector, text, text[], text[], text, double precision, timestamptz, timestamptz, integer
) is
$$The semantic leg of search: the p_depth searchable rows (pymem_private.searchable_*) of p_types nearest to
p_query_embedding (not NULL), ranked from 1 by cosine distance (distance; ties: created_at DESC, id ASC), score = 1 -
cosine distance (at least 0); rows embedded by another model than p_model (any, for NULL) are skipped. A type in
p_exact_types is searched exactly (sorted by cosine_distance), the others by the vector index (its depth is the
caller's hnsw.ef_search). Inlined into memory_candidates' statements (one per pymem_private.semantic_search_lists
row, merged by distance), under its settings.
Example: select * from pymem_private.semantic_candidates('demo', (select embedding from pymem.facts limit 1), null,
'{fact,rule,episode}', '{}', null, 0.2, null, now(), 20);$$;


create or replace function pymem_private.keyword_candidates(
    p_tenant text,
    p_query text,
    p_types text[],
    p_scope text,
    p_depth integer,
    p_min_confidence double precision,
    p_as_of timestamptz,
    p_at timestamptz,
    p_trigram boolean,
    p_like_terms text[],
    p_like_patterns text[]
)
returns table (kind text, id uuid, created_at timestamptz, score double precision, tier text, rank integer)
language sql
stable
rows 50
security invoker
begin atomic
    with
    visible as not materialized (
        select
            'fact'::text as kind,
            v.id,
            v.created_at,
            v.content
        from
            pymem_private.searchable_facts(
                keyword_candidates.p_tenant, keyword_candidates.p_scope, keyword_candidates.p_min_confidence,
                keyword_candidates.p_as_of, keyword_candidates.p_at
            ) as v
        where 'fact' = any(keyword_candidates.p_types)
        union all
        select
            'rule'::text,
            v.id,
            v.created_at,
            v.content
        from
            pymem_private.searchable_rules(
                keyword_candidates.p_tenant, keyword_candidates.p_scope, keyword_candidates.p_min_confidence,
                keyword_candidates.p_at
            ) as v
        where 'rule' = any(keyword_candidates.p_types)
        union all
        select
            'episode'::text,
            v.id,
            v.created_at,
            v.content
        from
            pymem_private.searchable_episodes(keyword_candidates.p_tenant, keyword_candidates.p_scope, keyword_candidates.p_at)
                as v
        where 'episode' = any(keyword_candidates.p_types)
    ),

    -- the full-text tier: the top p_depth rows by BM25 (128-keyword-scores.sql). memory_candidates runs this tier
    -- alone as a statement of its own (its score and rank written out again: calling this function there without the
    -- ILIKE terms was ~1 ms slower a call); tests/test_search.py checks that the two lists are the same
    fts as materialized (
        select
            t.kind,
            t.id,
            t.created_at,
            t.bm25 / (t.bm25 + 1.0) as score,
            'fts'::text as tier
        from pymem_private.memory_keyword_top(
            keyword_candidates.p_tenant, keyword_candidates.p_query, keyword_candidates.p_types,
            keyword_candidates.p_scope, keyword_candidates.p_depth, keyword_candidates.p_min_confidence,
            keyword_candidates.p_as_of
        ) as t
    ),

    trigram as materialized (
        select
            v.kind,
            v.id,
            v.created_at,
            public.word_similarity(keyword_candidates.p_query, v.content)::double precision as score,
            'trigram'::text as tier
        from visible as v
        where keyword_candidates.p_trigram and keyword_candidates.p_query operator (public.<%) v.content
    ),

    like_tier as (
        select
            v.kind,
            v.id,
            v.created_at,
            (
                select pg_catalog.count(*) from pg_catalog.unnest(keyword_candidates.p_like_terms) as t (term)
                where v.content ilike '%' || t.term || '%'
            )::double precision / pg_catalog.cardinality(keyword_candidates.p_like_terms) as score,
            'ilike'::text as tier
        from visible as v
        where
            pg_catalog.cardinality(keyword_candidates.p_like_terms) > 0
            and v.content ilike any(keyword_candidates.p_like_patterns)
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
        order by k.kind asc, k.id asc, k.score desc
    )

    select
        k.kind,
        k.id,
        k.created_at,
        k.score,
        k.tier,
        pg_catalog.row_number() over (order by k.score desc, k.created_at desc, k.id asc)::integer as rank
    from keyword_all as k
    order by rank
    limit keyword_candidates.p_depth;
end;

comment on function pymem_private.keyword_candidates(
    text, text, text[], text, integer, double precision, timestamptz, timestamptz, boolean, text[], text[]
) is
$$The keyword leg of search: the p_depth best searchable rows (pymem_private.searchable_*) of p_types for p_query,
ranked from 1 by score (ties: created_at DESC, id ASC), each with its tier: fts (BM25 of
pymem_private.memory_keyword_top, normalised bm25/(bm25+1)), trigram (pg_trgm word_similarity, when p_trigram: a
query with CJK) or ilike (the share of p_like_terms matched, p_like_patterns = '%term%', only when the other two
find nothing); a row found by two tiers keeps its best score. Inlined into memory_candidates' query, under its
settings (pg_trgm.word_similarity_threshold 0.3).
Example: select * from pymem_private.keyword_candidates('demo', 'coffee', '{fact,rule,episode}', null, 20, 0.2,
null, now(), false, '{coffee}', '{%coffee%}');$$;


create or replace function pymem_private.linked_memories(p_tenant text, p_type text, p_id uuid)
returns table (kind text, id uuid)
language sql
stable
rows 10
security invoker
begin atomic
    select
        lk.target_type,
        lk.target_id
    from pymem.memory_links as lk
    where
        lk.tenant_id = linked_memories.p_tenant
        and lk.source_type = linked_memories.p_type and lk.source_id = linked_memories.p_id
        and lk.relation in ('derived_from', 'supports', 'related_to')
    union all
    select
        lk.source_type,
        lk.source_id
    from pymem.memory_links as lk
    where
        lk.tenant_id = linked_memories.p_tenant
        and lk.target_type = linked_memories.p_type and lk.target_id = linked_memories.p_id
        and lk.relation in ('derived_from', 'supports', 'related_to');
end;

comment on function pymem_private.linked_memories(text, text, uuid) is
$$The graph leg's neighbours of one memory: the memories linked to it by derived_from, supports or related_to, in
either direction (one row per link), whatever their state. Inlined into memory_candidates' query.
Example: select * from pymem_private.linked_memories('demo', 'fact', '<uuid>');$$;


-- the HNSW search list of a search of one table: deeper as that table grows (issue 31: at 505k facts the bench's
-- recall@10 was 0.892 at 200, 0.943 at 400)
create or replace function pymem_private.hnsw_ef_search(p_depth integer, p_table regclass)
returns integer
language sql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
    -- an operator may cap it (pymem.hnsw_ef_search_max, 1..1000): latency before recall on a large table
    select least(
        greatest(1, least(1000, coalesce(
            nullif(pg_catalog.current_setting('pymem.hnsw_ef_search_max', true), '')::integer, 1000
        ))),
        greatest(200, p_depth, pg_catalog.ceil(pg_catalog.max(c.reltuples) / 500)::integer)
    )
    -- a partitioned table's own estimate is not kept (autovacuum analyzes its partitions, not it): its largest
    -- partition's, the most a tenant's search reads; a plain table's own. The partitions are one level (as migration
    -- 0038 makes them), listed by pg_inherits' index and looked up by pg_class's: ~15 us. pg_partition_tree with an
    -- OR on pg_class read all of pg_class, 0.3-0.5 ms on every call, two or three calls a search
    from pg_catalog.pg_class as c
    where
        c.oid = any(
            array(select i.inhrelid from pg_catalog.pg_inherits as i where i.inhparent = p_table) || p_table::oid
        )
        and c.relkind <> 'p';
$$;

comment on function pymem_private.hnsw_ef_search(integer, regclass) is
$$The hnsw.ef_search of a search of the table p_table that wants p_depth rows: at least 200 and p_depth, and one for
every 500 rows of that table's largest partition (its planner estimate, pg_class.reltuples; a search bound to a
tenant reads one partition; a table not partitioned counts whole), at most 1000 or the setting
pymem.hnsw_ef_search_max (1..1000; an operator's trade of recall for latency on a large table). Chosen on synthetic
clustered vectors of the bench's kind (other rows and other queries than the bench reports): recall@10 at least 0.95
needed ~250 at 150k rows and ~900 at 500k. memory_candidates (per list of pymem_private.semantic_search_lists) and
index_recall set it, so index health measures what searches get.
Example: select pymem_private.hnsw_ef_search(30, 'pymem.facts');  -- 200 below 100k rows, 1000 from 500k$$;


-- the semantic leg's statements: the types whose tables want about the same search list are searched together
create or replace function pymem_private.semantic_search_lists(
    p_types text[],
    p_exact_types text[],
    p_depth integer
)
returns table (types text[], ef_search integer)
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
    with
    -- materialized: each type's search list computed once (inlined, the call was made again for each use of ef)
    indexed as materialized (
        select
            t.memory_type,
            pymem_private.hnsw_ef_search(p_depth, case t.memory_type
                when 'fact' then 'pymem.facts'::regclass
                when 'rule' then 'pymem.rules'::regclass
                else 'pymem.episodes'::regclass
            end) as ef
        from pg_catalog.unnest(p_types) as t (memory_type)
        where t.memory_type in ('fact', 'rule', 'episode') and t.memory_type <> all (coalesce(p_exact_types, '{}'))
    ),
    -- list k: the types whose search list is in (top / 2^(k+1), top / 2^k], searched at the largest of them
    banded as (
        select
            i.memory_type,
            i.ef,
            pg_catalog.floor(pg_catalog.log(2.0, (pg_catalog.max(i.ef) over ())::numeric / i.ef))::integer as band
        from indexed as i
    ),
    lists as (
        select
            pg_catalog.array_agg(b.memory_type order by b.memory_type) as types,
            pg_catalog.max(b.ef) as ef_search,
            b.band
        from banded as b
        group by b.band
    )
    -- the types searched exactly go with the first list, band 0 (their search list does not matter)
    select
        array(
            select x.t from pg_catalog.unnest(l.types || case when l.band = 0
                then array(select e.t from pg_catalog.unnest(p_types) as e (t) where e.t = any (coalesce(p_exact_types, '{}')))
                else '{}' end) as x (t)
            order by x.t
        ),
        l.ef_search
    from lists as l
    union all
    -- every type exact: one list, no index scan
    select
        array(select e.t from pg_catalog.unnest(p_types) as e (t) where e.t = any (coalesce(p_exact_types, '{}')) order by e.t),
        greatest(200, p_depth)
    where not exists (select from lists)
    order by 2 desc;
$$;

comment on function pymem_private.semantic_search_lists(text[], text[], integer) is
$$The statements of search's semantic leg (memory_candidates): the searched types p_types grouped by the HNSW search
list their tables want (pymem_private.hnsw_ef_search(p_depth, table)), one row per statement with its types and its
hnsw.ef_search, the largest first. A type whose search list is more than half the largest one's is searched with it
at the larger list; a smaller one gets a statement of its own (one more plan, ~1 ms, is worth it only when the list
is several times shorter: at 1M rules 303 against facts' 1000). The types of p_exact_types (searched exactly) go with
the first row; every type exact gives one row.
Example: select * from pymem_private.semantic_search_lists('{fact,rule,episode}', '{}', 20);$$;


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
    p_graph boolean,
    p_second_embedding public.vector default null
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
-- VOLATILE: it sets hnsw.ef_search for its own duration (set_config below; the SET clause restores it on exit)
volatile
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
-- turned off for the semantic statements below, restored on exit
set enable_sort = on
as $$
declare
    v_at timestamptz := coalesce(p_as_of, pg_catalog.now());
    v_semantic boolean := p_semantic and p_query_embedding is not null;
    v_model text := case when p_semantic then pymem.memory_embedding_model() end;
    -- the leg of the second encoder (pymem.second_embeddings): when the caller embedded the query with it too
    v_second boolean := p_semantic and p_second_embedding is not null;
    v_second_model text := case when p_semantic and p_second_embedding is not null then pymem.memory_second_embedding_model() end;
    v_exact_rows integer := coalesce(nullif(pg_catalog.current_setting('pymem.exact_search_rows', true), '')::integer, 1000);
    -- the types searched exactly (semantic leg): those of which the tenant has at most v_exact_rows rows
    v_exact_types text[] := '{}';
    v_kept_facts bigint;
    v_kept_rules bigint;
    v_kept_episodes bigint;
    v_trigram boolean := p_keyword and pg_catalog.cardinality(pymem.memory_cjk_runs(p_query)) > 0;
    v_terms text[] := case when p_keyword then pymem.memory_like_terms(p_query) else '{}' end;
    v_patterns text[] := (
        select coalesce(pg_catalog.array_agg('%' || t.term || '%'), '{}') from pg_catalog.unnest(v_terms) as t (term)
    );
    v_facts boolean := 'fact' = any(p_types);
    v_rules boolean := 'rule' = any(p_types);
    v_episodes boolean := 'episode' = any(p_types);
    -- the candidate lists, each in rank order, for pymem_private.memory_fuse_candidates
    v_semantic_kinds text[] := '{}';
    v_semantic_ids uuid[] := '{}';
    v_semantic_created timestamptz[] := '{}';
    v_semantic_ranks integer[] := '{}';
    v_semantic_scores double precision[] := '{}';
    v_semantic_distances double precision[] := '{}';
    -- the semantic leg's statements (pymem_private.semantic_search_lists): each list's types and search list
    v_list_types text[];
    v_list_ef integer;
    v_lists integer := 0;
    v_background double precision := 0.0;
    v_keyword_kinds text[] := '{}';
    v_keyword_ids uuid[] := '{}';
    v_keyword_created timestamptz[] := '{}';
    v_keyword_scores double precision[] := '{}';
    v_keyword_tiers text[] := '{}';
    v_keyword_ranks integer[] := '{}';
    v_second_kinds text[] := '{}';
    v_second_ids uuid[] := '{}';
    v_second_created timestamptz[] := '{}';
    v_second_ranks integer[] := '{}';
    v_second_scores double precision[] := '{}';
    -- relevance: the model of the evidence this search has (both legs, or one)
    v_variant text := pymem_private.relevance_variant(v_semantic, p_keyword);
    v_coefficients double precision[];
    v_lexemes text[] := pg_catalog.tsvector_to_array(pg_catalog.to_tsvector('english'::regconfig, p_query));
    -- the semantic background of the query: the cosine of its BACKGROUND_RANK-th nearest candidate, 0 in a tenant
    -- of fewer (relevance feature semantic_lift), so the semantic leg reads at least that deep whatever p_depth
    v_background_rank constant integer := 30;
    v_semantic_depth integer := greatest(p_depth, v_background_rank);
begin
    select m.coefficients into v_coefficients from pymem.memory_relevance_model(v_variant) as m;
    if v_semantic or v_second then
        -- a type whose kept statistics already count more searchable rows than that is not counted again
        -- (pymem.keyword_stats: rows that exist, so the tenant has at least that many; ~1 ms saved at 100k)
        select
            coalesce(pg_catalog.max(s.docs) filter (where s.memory_type = 'fact'), 0),
            coalesce(pg_catalog.max(s.docs) filter (where s.memory_type = 'rule'), 0),
            coalesce(pg_catalog.max(s.docs) filter (where s.memory_type = 'episode'), 0)
        into v_kept_facts, v_kept_rules, v_kept_episodes
        from pymem.keyword_stats as s
        where s.tenant_id = p_tenant;
        v_exact_types := pg_catalog.array_remove(array[
            case when v_facts and v_kept_facts <= v_exact_rows then
                case when (
                    select pg_catalog.count(*) from (
                        select from pymem.facts as f where f.tenant_id = p_tenant limit v_exact_rows + 1
                    ) as n
                ) <= v_exact_rows then 'fact' end
            end,
            case when v_rules and v_kept_rules <= v_exact_rows then
                case when (
                    select pg_catalog.count(*) from (
                        select from pymem.rules as r where r.tenant_id = p_tenant limit v_exact_rows + 1
                    ) as n
                ) <= v_exact_rows then 'rule' end
            end,
            case when v_episodes and v_kept_episodes <= v_exact_rows then
                case when (
                    select pg_catalog.count(*) from (
                        select from pymem.episodes as e where e.tenant_id = p_tenant limit v_exact_rows + 1
                    ) as n
                ) <= v_exact_rows then 'episode' end
            end
        ], null);
    end if;
    -- Each leg is a statement of its own, planned with this call's values (the exact or the indexed semantic search,
    -- the keyword tiers that can find something); the fusion is pymem_private.memory_fuse_candidates, planned once.
    -- The semantic statements are planned with sorts disabled, so a type not searched exactly is read in the vector
    -- index's order. The planner prices a row's cosine distance far below its cost (384 dimensions), so where the
    -- tenant holds most of a table (its partition, or a deployment of one tenant) it chose to sort every row of the
    -- tenant instead: 12 ms for 5,000 facts at the p50, against ~3 through the HNSW index (issue 31). The types
    -- searched exactly (v_exact_types) still sort: nothing else can order them.
    perform pg_catalog.set_config('enable_sort', 'off', true);
    if v_semantic then
        -- one statement per list of types that want about the same HNSW search list (one for all three up to ~300k rows
        -- a table): an HNSW scan returns at most hnsw.ef_search rows per pass (the SET clause restores it on exit)
        for v_list_types, v_list_ef in
            select l.types, l.ef_search from pymem_private.semantic_search_lists(p_types, v_exact_types, p_depth) as l
        loop
            perform pg_catalog.set_config('hnsw.ef_search', v_list_ef::text, true);
            select
                v_semantic_kinds || coalesce(pg_catalog.array_agg(s.kind order by s.rank), '{}'),
                v_semantic_ids || coalesce(pg_catalog.array_agg(s.id order by s.rank), '{}'),
                v_semantic_created || coalesce(pg_catalog.array_agg(s.created_at order by s.rank), '{}'),
                v_semantic_ranks || coalesce(pg_catalog.array_agg(s.rank order by s.rank), '{}'),
                v_semantic_scores || coalesce(pg_catalog.array_agg(s.score order by s.rank), '{}'),
                v_semantic_distances || coalesce(pg_catalog.array_agg(s.distance order by s.rank), '{}')
            into v_semantic_kinds, v_semantic_ids, v_semantic_created, v_semantic_ranks, v_semantic_scores,
                v_semantic_distances
            from pymem_private.semantic_candidates(
                p_tenant, p_query_embedding, v_model, v_list_types, v_exact_types, p_scope, p_min_confidence, p_as_of,
                v_at, v_semantic_depth
            ) as s;
            v_lists := v_lists + 1;
        end loop;
        if v_lists > 1 then
            -- the lists ranked again as one (cosine distance, then created_at DESC, id ASC), cut at the leg's depth
            select
                coalesce(pg_catalog.array_agg(m.kind order by m.rank), '{}'),
                coalesce(pg_catalog.array_agg(m.id order by m.rank), '{}'),
                coalesce(pg_catalog.array_agg(m.created_at order by m.rank), '{}'),
                coalesce(pg_catalog.array_agg(m.rank order by m.rank), '{}'),
                coalesce(pg_catalog.array_agg(m.score order by m.rank), '{}')
            into v_semantic_kinds, v_semantic_ids, v_semantic_created, v_semantic_ranks, v_semantic_scores
            from (
                select
                    u.kind,
                    u.id,
                    u.created_at,
                    u.score,
                    pg_catalog.row_number() over (order by u.distance asc, u.created_at desc, u.id asc)::integer as rank
                from rows from (
                    pg_catalog.unnest(v_semantic_kinds), pg_catalog.unnest(v_semantic_ids),
                    pg_catalog.unnest(v_semantic_created), pg_catalog.unnest(v_semantic_scores),
                    pg_catalog.unnest(v_semantic_distances)
                ) as u (kind, id, created_at, score, distance)
            ) as m
            where m.rank <= v_semantic_depth;
        end if;
        -- the 30th highest cosine, a memory missing from a tenant of fewer counting as unrelated (cosine 0)
        if pg_catalog.cardinality(v_semantic_scores) >= v_background_rank then
            v_background := v_semantic_scores[v_background_rank];
        end if;
    end if;
    if v_second then
        perform pg_catalog.set_config(
            'hnsw.ef_search', pymem_private.hnsw_ef_search(p_depth, 'pymem.second_embeddings')::text, true
        );
        select
            coalesce(pg_catalog.array_agg(s2.kind order by s2.rank), '{}'),
            coalesce(pg_catalog.array_agg(s2.id order by s2.rank), '{}'),
            coalesce(pg_catalog.array_agg(s2.created_at order by s2.rank), '{}'),
            coalesce(pg_catalog.array_agg(s2.rank order by s2.rank), '{}'),
            coalesce(pg_catalog.array_agg(s2.score order by s2.rank), '{}')
        into v_second_kinds, v_second_ids, v_second_created, v_second_ranks, v_second_scores
        from pymem_private.second_semantic_candidates(
            p_tenant, p_second_embedding, v_second_model, p_types, v_exact_types, p_scope, p_min_confidence, p_as_of,
            v_at, p_depth
        ) as s2;
    end if;
    perform pg_catalog.set_config('enable_sort', 'on', true);
    if p_keyword then
        -- the full-text tier alone (keyword_candidates' fts rows, ranked as it ranks them): the trigram tier runs only
        -- for a query with CJK, and the ILIKE tier only when the others find nothing
        if not v_trigram then
            select
                coalesce(pg_catalog.array_agg(k.kind order by k.rank), '{}'),
                coalesce(pg_catalog.array_agg(k.id order by k.rank), '{}'),
                coalesce(pg_catalog.array_agg(k.created_at order by k.rank), '{}'),
                coalesce(pg_catalog.array_agg(k.score order by k.rank), '{}'),
                coalesce(pg_catalog.array_agg(k.tier order by k.rank), '{}'),
                coalesce(pg_catalog.array_agg(k.rank order by k.rank), '{}')
            into v_keyword_kinds, v_keyword_ids, v_keyword_created, v_keyword_scores, v_keyword_tiers, v_keyword_ranks
            from (
                select
                    t.kind,
                    t.id,
                    t.created_at,
                    t.bm25 / (t.bm25 + 1.0) as score,
                    'fts'::text as tier,
                    pg_catalog.row_number() over (
                        order by t.bm25 / (t.bm25 + 1.0) desc, t.created_at desc, t.id asc
                    )::integer as rank
                from pymem_private.memory_keyword_top(
                    p_tenant, p_query, p_types, p_scope, p_depth, p_min_confidence, p_as_of
                ) as t
            ) as k
            where k.rank <= p_depth;
        end if;
        if v_trigram or (pg_catalog.cardinality(v_keyword_ids) = 0 and pg_catalog.cardinality(v_terms) > 0) then
            select
                coalesce(pg_catalog.array_agg(k.kind order by k.rank), '{}'),
                coalesce(pg_catalog.array_agg(k.id order by k.rank), '{}'),
                coalesce(pg_catalog.array_agg(k.created_at order by k.rank), '{}'),
                coalesce(pg_catalog.array_agg(k.score order by k.rank), '{}'),
                coalesce(pg_catalog.array_agg(k.tier order by k.rank), '{}'),
                coalesce(pg_catalog.array_agg(k.rank order by k.rank), '{}')
            into v_keyword_kinds, v_keyword_ids, v_keyword_created, v_keyword_scores, v_keyword_tiers, v_keyword_ranks
            from pymem_private.keyword_candidates(
                p_tenant, p_query, p_types, p_scope, p_depth, p_min_confidence, p_as_of, v_at, v_trigram, v_terms,
                v_patterns
            ) as k;
        end if;
    end if;
    return query
    select f.*
    from pymem_private.memory_fuse_candidates(
        p_tenant, p_types, p_scope, p_depth, p_min_confidence, p_as_of, v_at, p_graph, v_coefficients, v_lexemes,
        v_background,
        v_semantic_kinds, v_semantic_ids, v_semantic_created, v_semantic_ranks, v_semantic_scores,
        v_keyword_kinds, v_keyword_ids, v_keyword_created, v_keyword_scores, v_keyword_tiers, v_keyword_ranks,
        v_second_kinds, v_second_ids, v_second_created, v_second_ranks, v_second_scores
    ) as f;
end;
$$;

comment on function pymem_private.memory_candidates(
    text, text, public.vector, text[], text, integer, double precision, timestamptz, boolean, boolean, boolean,
    public.vector
) is
$$Stage 1 of every search: the semantic and keyword candidate lists (and, when p_semantic and the query's second
embedding p_second_embedding is given, the second encoder's list: pymem_private.second_semantic_candidates over
pymem.second_embeddings of the model pymem.memory_second_embedding_model(), c_second_rank and c_second_score; its
rows' relevance has the evidence of the other lists), each cut at p_depth and ranked from 1 (ties:
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
scans and hnsw.ef_search = pymem_private.hnsw_ef_search(p_depth, table) (200 to 1000, growing with the table; the
types whose tables want about the same are searched in one statement, pymem_private.semantic_search_lists).
The legs are pymem_private.semantic_candidates, keyword_candidates (its full-text tier, pymem_private.memory_keyword_top,
alone when the query has no CJK and it finds something) and second_semantic_candidates over the rows of
pymem_private.searchable_facts, searchable_rules and searchable_episodes, one statement each, planned with the call's
values; the fusion, relevance and graph leg (linked_memories) are pymem_private.memory_fuse_candidates. VOLATILE: it
sets hnsw.ef_search for its own duration.$$;
