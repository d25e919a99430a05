-- noqa: disable=RF01
-- The rows search may return (searchable_facts, searchable_rules, searchable_episodes: the filters of every
-- leg, written once); one step of the keyword leg of search (130-candidates.sql): the visible rows matching a
-- tsquery, each with its BM25 over the query lexemes; and the tsquery of one stored lexeme.
--
-- searchable_* are inlinable set-returning SQL functions (SQL-standard body of one SELECT, STABLE, not STRICT,
-- no SET clause, not SECURITY DEFINER): the planner puts their query in place of the call, so a caller's
-- conditions (a tsquery match, an id, ORDER BY distance LIMIT n) reach the table's indexes as if written there.

create or replace function pymem_private.searchable_facts(
    p_tenant text,
    p_scope text,
    p_min_confidence double precision,
    p_as_of timestamptz,
    p_at timestamptz
)
returns table (
    id uuid,
    created_at timestamptz,
    embedding public.vector,
    embedding_model text,
    search_vector tsvector,
    content text
)
language sql
stable
rows 1000
security invoker
begin atomic
    select
        f.id,
        f.created_at,
        f.embedding,
        f.embedding_model,
        f.search_vector,
        f.content
    from pymem.facts as f
    where
        f.tenant_id = searchable_facts.p_tenant
        and (
            (searchable_facts.p_as_of is null and f.validity = 'active')
            or (
                searchable_facts.p_as_of is not null and f.created_at <= searchable_facts.p_as_of
                and (f.invalidated_at is null or f.invalidated_at > searchable_facts.p_as_of)
            )
        )
        and (searchable_facts.p_scope is null or f.scope in ('global', searchable_facts.p_scope))
        -- as of p_at a confirmation after it does not count: decayed from created_at then
        and pymem_private.decayed_confidence(
            f.confidence,
            f.decay_rate,
            case when f.last_confirmed_at > searchable_facts.p_at then f.created_at else f.last_confirmed_at end,
            searchable_facts.p_at
        ) >= searchable_facts.p_min_confidence;
end;

comment on function pymem_private.searchable_facts(text, text, double precision, timestamptz, timestamptz) is
$$The facts of p_tenant that search may return as of p_at (= coalesce(p_as_of, now())): active (with p_as_of:
valid at that moment), of scope 'global' or p_scope (any scope for NULL), effective confidence
(pymem_private.decayed_confidence) at least p_min_confidence. Inlined by the planner into its caller's query.
Example: select id, content from pymem_private.searchable_facts('demo', null, 0.2, null, now());$$;


create or replace function pymem_private.searchable_rules(
    p_tenant text,
    p_scope text,
    p_min_confidence double precision,
    p_at timestamptz
)
returns table (
    id uuid,
    created_at timestamptz,
    embedding public.vector,
    embedding_model text,
    search_vector tsvector,
    content text
)
language sql
stable
rows 1000
security invoker
begin atomic
    select
        r.id,
        r.created_at,
        r.embedding,
        r.embedding_model,
        r.search_vector,
        r.content
    from pymem.rules as r
    where
        r.tenant_id = searchable_rules.p_tenant
        and r.created_at <= searchable_rules.p_at
        and (r.forgotten_at is null or r.forgotten_at > searchable_rules.p_at)
        and r.review_state = 'approved'
        and (searchable_rules.p_scope is null or r.scope in ('global', searchable_rules.p_scope))
        and pymem_private.decayed_confidence(
            r.confidence,
            r.decay_rate,
            case when r.last_confirmed_at > searchable_rules.p_at then r.created_at else r.last_confirmed_at end,
            searchable_rules.p_at
        ) >= searchable_rules.p_min_confidence;
end;

comment on function pymem_private.searchable_rules(text, text, double precision, timestamptz) is
$$The rules of p_tenant that search may return as of p_at (= coalesce(as_of, now())): created by then, not
forgotten then, approved, of scope 'global' or p_scope (any scope for NULL), effective confidence
(pymem_private.decayed_confidence) at least p_min_confidence. Inlined by the planner into its caller's query.
Example: select id, content from pymem_private.searchable_rules('demo', null, 0.2, now());$$;


create or replace function pymem_private.searchable_episodes(
    p_tenant text,
    p_scope text,
    p_at timestamptz
)
returns table (
    id uuid,
    created_at timestamptz,
    embedding public.vector,
    embedding_model text,
    search_vector tsvector,
    content text
)
language sql
stable
rows 1000
security invoker
begin atomic
    select
        e.id,
        e.created_at,
        e.embedding,
        e.embedding_model,
        e.search_vector,
        e.content
    from pymem.episodes as e
    where
        e.tenant_id = searchable_episodes.p_tenant
        and e.created_at <= searchable_episodes.p_at
        and (e.forgotten_at is null or e.forgotten_at > searchable_episodes.p_at)
        and (e.expires_at is null or e.expires_at > searchable_episodes.p_at)
        and (searchable_episodes.p_scope is null or e.butler = searchable_episodes.p_scope);
end;

comment on function pymem_private.searchable_episodes(text, text, timestamptz) is
$$The episodes of p_tenant that search may return as of p_at (= coalesce(as_of, now())): created by then, not
forgotten nor expired then, of butler p_scope (any butler for NULL). Inlined by the planner into its caller's query.
Example: select id, content from pymem_private.searchable_episodes('demo', null, now());$$;

create or replace function pymem_private.lexeme_tsquery(lexeme text)
returns tsquery
language sql
immutable
strict
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select ('''' || replace(replace(lexeme_tsquery.lexeme, '\', '\\'), '''', '''''') || '''')::tsquery;  -- noqa: RF01
end;

comment on function pymem_private.lexeme_tsquery(text) is
$$The tsquery of one stored lexeme, taken as it is (quoted, not normalised again).
Example: select pymem_private.lexeme_tsquery('coffe');  -- 'coffe'$$;


create or replace function pymem_private.bm25_term(
    p_vector tsvector,
    p_lexeme tsquery,
    p_idf double precision,
    p_norm double precision
)
returns double precision
language sql
immutable
parallel safe
security invoker
-- No SET clause, so that the planner inlines it into the scoring query (a function with SET is called, at
-- ~1 us a call); the SQL-standard body is bound when created, so no caller's search_path can redirect it.
-- tf = the positions of the lexeme in the row (1 when stripped): ts_rank with every weight 1 gives
-- sum(1/i^2, i = 1..tf) / (pi^2/6) for a one-lexeme query (0 when absent), inverted exactly for every tf up
-- to tsvector's 256 positions. idf * tf * (k1 + 1) / (tf + norm) is written idf * (k1 + 1) / (1 + norm / tf)
-- so that each argument is used once (a condition of inlining); 0 when the lexeme is absent or null.
begin atomic
    select coalesce(
        bm25_term.p_idf * (0.9 + 1.0) / (  -- noqa: RF01
            1.0 + bm25_term.p_norm / nullif(  -- noqa: RF01
                pg_catalog.round(
                    1.0 / (
                        1.6449340668482264
                        - pg_catalog.ts_rank('{1,1,1,1}'::real[], bm25_term.p_vector, bm25_term.p_lexeme, 0)  -- noqa: RF01
                        * 1.6449340668482264
                    ) - 0.5
                ),
                0.0
            )
        ),
        0.0
    );
end;

comment on function pymem_private.bm25_term(tsvector, tsquery, double precision, double precision) is
$$One lexeme's BM25 term in one row: p_idf * tf * (k1 + 1) / (tf + p_norm), k1 = 0.9, p_norm = k1 * (1 - b + b *
dl / avgdl); tf = the lexeme's positions in the row (1 when stripped), 0 when absent (then 0). Inlined by the planner.
Example: select pymem_private.bm25_term('tea:1,4 cup:2', 'tea', 1.5, 0.9);  -- 1.5 * 2 * 1.9 / (2 + 0.9) = 1.9655...$$;


create or replace function pymem_private.memory_keyword_scores(
    p_tenant text,
    p_tsquery tsquery,
    p_lexemes text[],
    p_idf double precision[],
    p_avgdl double precision,
    p_types text[],
    p_scope text,
    p_min_confidence double precision,
    p_as_of timestamptz
)
returns table (kind text, id uuid, created_at timestamptz, bm25 double precision)
language sql
stable
rows 200
security invoker
set search_path = pg_catalog, pg_temp
set jit = off
set max_parallel_workers_per_gather = 0
-- planned with each call's values (memory_keyword_top's plan once): a group's words decide its plan (issue 31)
set plan_cache_mode = auto
as $$
    with
    -- the query lexemes' tsqueries, made once (a subquery in the FROM list can be planned as the inner side of the
    -- join, made again for every row: 55 us a row at 3 lexemes)
    q as materialized (
        select array_agg(pymem_private.lexeme_tsquery(l.lexeme) order by l.ord) as tsq
        from unnest(p_lexemes) with ordinality as l (lexeme, ord)
    ),
    matched as (
        select 'fact'::text as kind, f.id, f.created_at, f.search_vector
        from pymem_private.searchable_facts(p_tenant, p_scope, p_min_confidence, p_as_of, coalesce(p_as_of, now())) as f
        where 'fact' = any(p_types)
          and f.search_vector operator(pymem_private.@@@) p_tsquery
        union all
        select 'rule'::text, r.id, r.created_at, r.search_vector
        from pymem_private.searchable_rules(p_tenant, p_scope, p_min_confidence, coalesce(p_as_of, now())) as r
        where 'rule' = any(p_types)
          and r.search_vector operator(pymem_private.@@@) p_tsquery
        union all
        select 'episode'::text, e.id, e.created_at, e.search_vector
        from pymem_private.searchable_episodes(p_tenant, p_scope, coalesce(p_as_of, now())) as e
        where 'episode' = any(p_types)
          and e.search_vector operator(pymem_private.@@@) p_tsquery
    )
    select
        m.kind, m.id, m.created_at,
        -- Short rows (memories are mostly a sentence or two) and up to 8 query lexemes: the terms written out,
        -- inlined (no subquery per row: ~4x faster at 20 lexemes a row). Otherwise, the row's vector cut to the
        -- query lexemes once (C-level copies: mark them weight D, keep D; a stripped vector has no weights, so
        -- delete the other lexemes): its cost grows with the row, not the query, and for rows of over 64
        -- lexemes (SciFact's abstracts: ~30% faster in make eval) it is the cheaper one
        case
            when cardinality(p_lexemes) <= 8 and length(m.search_vector) <= 64 then
                pymem_private.bm25_term(m.search_vector, q.tsq[1], p_idf[1], n.norm)
                + pymem_private.bm25_term(m.search_vector, q.tsq[2], p_idf[2], n.norm)
                + pymem_private.bm25_term(m.search_vector, q.tsq[3], p_idf[3], n.norm)
                + pymem_private.bm25_term(m.search_vector, q.tsq[4], p_idf[4], n.norm)
                + pymem_private.bm25_term(m.search_vector, q.tsq[5], p_idf[5], n.norm)
                + pymem_private.bm25_term(m.search_vector, q.tsq[6], p_idf[6], n.norm)
                + pymem_private.bm25_term(m.search_vector, q.tsq[7], p_idf[7], n.norm)
                + pymem_private.bm25_term(m.search_vector, q.tsq[8], p_idf[8], n.norm)
            else (
                select coalesce(sum(ql.idf * h.tf * (0.9 + 1.0) / (h.tf + n.norm)), 0.0)
                from (
                    select u.lexeme, coalesce(cardinality(u.positions), 1)::double precision as tf
                    from unnest(
                        coalesce(
                            nullif(
                                ts_filter(setweight(setweight(m.search_vector, 'A'), 'D', p_lexemes), '{d}'),
                                ''::tsvector
                            ),
                            ts_delete(m.search_vector, tsvector_to_array(ts_delete(m.search_vector, p_lexemes)))
                        )
                    ) as u (lexeme, positions, weights)
                ) as h
                inner join unnest(p_lexemes, p_idf) as ql (lexeme, idf) on h.lexeme = ql.lexeme
            )
        end
    from matched as m
    cross join q
    cross join lateral (
        select 0.9 * (1.0 - 0.4 + 0.4 * length(m.search_vector) / p_avgdl) as norm
    ) as n;
$$;

comment on function pymem_private.memory_keyword_scores(
    text, tsquery, text[], double precision[], double precision, text[], text, double precision, timestamptz
) is
$$The rows of the tenant that search may return (memory_candidates' filters: types, scope, min_confidence,
as_of) and that match p_tsquery, each with its BM25 over the query lexemes p_lexemes (weights p_idf):
sum of idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / p_avgdl)), k1 = 0.9, b = 0.4, tf = positions of
the lexeme in the row (1 when stripped), dl = distinct lexemes of the row. One step of the keyword leg.
Example: select * from pymem_private.memory_keyword_scores('demo', 'tea', '{tea}', '{1.5}', 10, '{fact}',
null, 0.0, null);$$;


create or replace function pymem_private.memory_keyword_common(
    p_tenant text,
    p_group tsquery,
    p_lexemes text[],
    p_idf double precision[],
    p_avgdl double precision,
    p_types text[],
    p_scope text,
    p_min_confidence double precision,
    p_as_of timestamptz,
    p_depth integer,
    p_cap integer
)
returns table (kind text, id uuid, created_at timestamptz, bm25 double precision)
language sql
stable
rows 50
security invoker
set search_path = pg_catalog, pg_temp
set jit = off
set max_parallel_workers_per_gather = 0
-- planned with each call's values, as memory_keyword_scores
set plan_cache_mode = auto
as $$
    -- One group of the pruned top-k (p_group: the rows holding the words p_lexemes and no other query word). A row
    -- holding each word once scores sum(idf) * (k1 + 1) / (1 + k1 * (1 - b + b * dl / avgdl)), which only falls as
    -- its length dl grows. So the group's best p_depth are among the rows holding a word more than once (the
    -- *_repeated_lexemes_idx indexes), every one scored, and the first p_depth of the others in order of length,
    -- then created_at DESC and id (the top-k's own order of equal scores: the *_search_length_idx indexes, read in
    -- order, at most p_cap rows deep; a type whose first p_cap rows hold fewer is read whole).
    -- ts_match_leakproof is @@@ as a function call: no index serves it, so the plans are the scans of those indexes.
    with
    words as (
        select pg_catalog.string_agg(pymem_private.lexeme_tsquery(l.lexeme)::text, ' | ')::tsquery as any_word
        from pg_catalog.unnest(p_lexemes) as l (lexeme)
    ),
    q as materialized (
        select pg_catalog.array_agg(pymem_private.lexeme_tsquery(l.lexeme) order by l.ord) as tsq
        from pg_catalog.unnest(p_lexemes) with ordinality as l (lexeme, ord)
    ),
    -- the first p_depth facts of the group in length order, among the first p_cap rows of that order
    -- (ordered by the subquery's own len column, the plan keeps the index's order and stops at the p_depth-th match;
    -- ordered by length(o.search_vector) it sorted, so every one of the p_cap rows was read: 9 ms instead of 1 at 100k)
    fact_once as materialized (
        select 'fact'::text as kind, o.id, o.created_at, o.search_vector
        from (
            select f.id, f.created_at, f.search_vector, length(f.search_vector) as len
            from pymem_private.searchable_facts(p_tenant, p_scope, p_min_confidence, p_as_of, coalesce(p_as_of, now())) as f
            where 'fact' = any(p_types)
            order by length(f.search_vector), f.created_at desc, f.id
            limit p_cap
        ) as o
        where pymem_private.ts_match_leakproof(o.search_vector, p_group)
        order by o.len, o.created_at desc, o.id
        limit p_depth
    ),
    -- fewer than p_depth there: the others may be longer, so the whole group of that type is read
    fact_rest as (
        select 'fact'::text as kind, f.id, f.created_at, f.search_vector
        from pymem_private.searchable_facts(p_tenant, p_scope, p_min_confidence, p_as_of, coalesce(p_as_of, now())) as f
        where 'fact' = any(p_types)
          and f.search_vector operator(pymem_private.@@@) p_group
          and (select pg_catalog.count(*) from fact_once) < p_depth
    ),
    -- the first p_depth rules of the group in length order, among the first p_cap rows of that order
    rule_once as materialized (
        select 'rule'::text as kind, o.id, o.created_at, o.search_vector
        from (
            select r.id, r.created_at, r.search_vector, length(r.search_vector) as len
            from pymem_private.searchable_rules(p_tenant, p_scope, p_min_confidence, coalesce(p_as_of, now())) as r
            where 'rule' = any(p_types)
            order by length(r.search_vector), r.created_at desc, r.id
            limit p_cap
        ) as o
        where pymem_private.ts_match_leakproof(o.search_vector, p_group)
        order by o.len, o.created_at desc, o.id
        limit p_depth
    ),
    -- fewer than p_depth there: the others may be longer, so the whole group of that type is read
    rule_rest as (
        select 'rule'::text as kind, r.id, r.created_at, r.search_vector
        from pymem_private.searchable_rules(p_tenant, p_scope, p_min_confidence, coalesce(p_as_of, now())) as r
        where 'rule' = any(p_types)
          and r.search_vector operator(pymem_private.@@@) p_group
          and (select pg_catalog.count(*) from rule_once) < p_depth
    ),
    -- the first p_depth episodes of the group in length order, among the first p_cap rows of that order
    episode_once as materialized (
        select 'episode'::text as kind, o.id, o.created_at, o.search_vector
        from (
            select e.id, e.created_at, e.search_vector, length(e.search_vector) as len
            from pymem_private.searchable_episodes(p_tenant, p_scope, coalesce(p_as_of, now())) as e
            where 'episode' = any(p_types)
            order by length(e.search_vector), e.created_at desc, e.id
            limit p_cap
        ) as o
        where pymem_private.ts_match_leakproof(o.search_vector, p_group)
        order by o.len, o.created_at desc, o.id
        limit p_depth
    ),
    -- fewer than p_depth there: the others may be longer, so the whole group of that type is read
    episode_rest as (
        select 'episode'::text as kind, e.id, e.created_at, e.search_vector
        from pymem_private.searchable_episodes(p_tenant, p_scope, coalesce(p_as_of, now())) as e
        where 'episode' = any(p_types)
          and e.search_vector operator(pymem_private.@@@) p_group
          and (select pg_catalog.count(*) from episode_once) < p_depth
    ),
    repeated as (
        select 'fact'::text as kind, f.id, f.created_at, f.search_vector
        from pymem_private.searchable_facts(p_tenant, p_scope, p_min_confidence, p_as_of, coalesce(p_as_of, now())) as f
        where 'fact' = any(p_types)
          and pymem_private.repeated_lexemes(f.search_vector) operator(pymem_private.@@@) (select w.any_word from words as w)
          and pymem_private.ts_match_leakproof(f.search_vector, p_group)
          and (select pg_catalog.count(*) from fact_once) >= p_depth
        union all
        select 'rule'::text as kind, r.id, r.created_at, r.search_vector
        from pymem_private.searchable_rules(p_tenant, p_scope, p_min_confidence, coalesce(p_as_of, now())) as r
        where 'rule' = any(p_types)
          and pymem_private.repeated_lexemes(r.search_vector) operator(pymem_private.@@@) (select w.any_word from words as w)
          and pymem_private.ts_match_leakproof(r.search_vector, p_group)
          and (select pg_catalog.count(*) from rule_once) >= p_depth
        union all
        select 'episode'::text as kind, e.id, e.created_at, e.search_vector
        from pymem_private.searchable_episodes(p_tenant, p_scope, coalesce(p_as_of, now())) as e
        where 'episode' = any(p_types)
          and pymem_private.repeated_lexemes(e.search_vector) operator(pymem_private.@@@) (select w.any_word from words as w)
          and pymem_private.ts_match_leakproof(e.search_vector, p_group)
          and (select pg_catalog.count(*) from episode_once) >= p_depth
    ),
    found as (
        select * from repeated
        union all select * from fact_once where (select pg_catalog.count(*) from fact_once) >= p_depth
        union all select * from fact_rest
        union all select * from rule_once where (select pg_catalog.count(*) from rule_once) >= p_depth
        union all select * from rule_rest
        union all select * from episode_once where (select pg_catalog.count(*) from episode_once) >= p_depth
        union all select * from episode_rest
    )
    -- a group has at most 6 words (memory_keyword_top's leading ones): their terms written out, inlined (a missing
    -- word's term is 0)
    select distinct on (m.kind, m.id)
        m.kind, m.id, m.created_at,
        pymem_private.bm25_term(m.search_vector, q.tsq[1], p_idf[1], n.norm)
        + pymem_private.bm25_term(m.search_vector, q.tsq[2], p_idf[2], n.norm)
        + pymem_private.bm25_term(m.search_vector, q.tsq[3], p_idf[3], n.norm)
        + pymem_private.bm25_term(m.search_vector, q.tsq[4], p_idf[4], n.norm)
        + pymem_private.bm25_term(m.search_vector, q.tsq[5], p_idf[5], n.norm)
        + pymem_private.bm25_term(m.search_vector, q.tsq[6], p_idf[6], n.norm)
    from found as m
    cross join q
    cross join lateral (
        select 0.9 * (1.0 - 0.4 + 0.4 * length(m.search_vector) / p_avgdl) as norm
    ) as n;
$$;

comment on function pymem_private.memory_keyword_common(
    text, tsquery, text[], double precision[], double precision, text[], text, double precision, timestamptz,
    integer, integer
) is
$$One group of the pruned keyword top-k (memory_keyword_top) read without reading all of it: the rows matching
p_group, a tsquery of the rows that hold the words p_lexemes and no other query word, of which at most p_depth can
enter the top p_depth: those holding a word at more than one position (all of them) and the p_depth shortest of the
others (ties: created_at DESC, id; found among the first p_cap rows of each type in length order, else the type's
group is read whole), each with its BM25 (idf p_idf, k1 0.9, b 0.4, avgdl p_avgdl). The group's p_depth best are
among them.
Example: select * from pymem_private.memory_keyword_common('demo', 'tea', '{tea}', '{1.2}', 10,
'{fact,rule,episode}', null, 0.0, null, 20, 1000);$$;


create or replace function pymem_private.memory_keyword_top(
    p_tenant text,
    p_query text,
    p_types text[],
    p_scope text,
    p_depth integer,
    p_min_confidence double precision,
    p_as_of timestamptz
)
returns table (kind text, id uuid, created_at timestamptz, bm25 double precision)
language plpgsql
stable
rows 50
security invoker
set search_path = pg_catalog, pg_temp
set jit = off
set max_parallel_workers_per_gather = 0
-- its own statements (statistics by key, arrays) planned once a session (issue 31)
set plan_cache_mode = force_generic_plan
as $$
declare
    v_tsq tsquery := pymem.memory_tsquery(p_query);
    v_lexemes text[] := pg_catalog.tsvector_to_array(pg_catalog.to_tsvector('english'::regconfig, p_query));
    -- on: always prune; off: never; auto (default): prune when the tenant has more than 20000 searchable rows of
    -- the searched types (make bench: at 10k per tenant the groups cost more than scoring every match; at 100k
    -- pruning is 3-4x faster)
    v_pruning text := coalesce(nullif(pg_catalog.current_setting('pymem.keyword_pruning', true), ''), 'auto');
    v_prune boolean;
    -- on: a group of one query word is read by memory_keyword_common; off: never; auto (default): when the word is
    -- in at least sqrt(p_depth * N) rows (its group is then large, and the shortest rows holding it are near
    -- the start of the length order: tenants and queries make bench does not report, 100k per tenant)
    v_common_mode text := coalesce(nullif(pg_catalog.current_setting('pymem.keyword_common', true), ''), 'auto');
    v_types constant text[] := array['fact', 'rule', 'episode'];
    -- per memory type (the order of v_types): searchable rows; per query lexeme and type ((j - 1) * 3 + t): rows
    -- holding it, and those of them read in the groups before (a group's rows hold its words and no other
    -- leading one, and every group of more words comes first: what is left is the one-word group's size)
    v_docs double precision[];
    v_kw_df double precision[];
    v_kw_read double precision[];
    v_counts double precision[];
    v_words text[];
    v_words_idf double precision[];
    v_ordered text[];
    v_rest text[];
    v_n double precision;
    v_avgdl double precision;
    v_min_dl double precision;
    v_kw_lexemes text[];
    v_kw_idf double precision[];
    v_kw_ub double precision[];
    v_fts_kinds text[] := '{}';
    v_fts_ids uuid[] := '{}';
    v_fts_created timestamptz[] := '{}';
    v_fts_bm25 double precision[] := '{}';
    v_fetch tsquery;
    v_fetch_text text;
    v_theta double precision;
    v_bound double precision;
    v_lead integer;
    v_mask integer;
begin
    -- The full-text tier of the keyword leg: BM25 (k1 = 0.9, b = 0.4) with the tenant's kept statistics
    -- (125-keyword-stats.sql): N = searchable rows of the searched types, avgdl = their mean length
    -- (distinct lexemes), df = searchable rows holding the lexeme. The exact top p_depth without scoring
    -- every row the OR query matches: a lexeme adds at most ub = idf * tf*(k1+1)/(tf + k1*(1 - b +
    -- b*dl/avgdl)) at tf = its max_tf, dl = the smallest min_length. The rows are read in groups, each
    -- group the rows holding exactly one set of the (at most 6) lexemes of highest ub (and any of the
    -- others), by descending group bound (the sum of the ub of the set and of the other lexemes); every
    -- row read is scored over all query lexemes; reading stops when the next group's bound is below theta,
    -- the p_depth-th best score read (no row of that group or a later one can reach it). So a common
    -- lexeme's rows are read only while rows holding it could still enter the top p_depth.
    -- Each group is one GIN index scan on (tenant_id, search_vector) also under RLS: the match is
    -- pymem_private.@@@ (@@ declared LEAKPROOF, migration 0007), so the tsquery is an index condition.
    -- pymem.keyword_pruning = off reads every matching row at once (the reference the tests compare with); the
    -- default, auto, prunes only for a tenant of more than 20000 searchable rows of the searched types.
    if v_tsq is not null then
        select
            coalesce(pg_catalog.sum(s.docs), 0)::double precision,
            greatest(
                coalesce(pg_catalog.sum(s.total_length), 0)::double precision / greatest(pg_catalog.sum(s.docs), 1), 1.0
            ),
            pg_catalog.min(s.min_length)::double precision
        into v_n, v_avgdl, v_min_dl
        from pymem.keyword_stats as s
        where s.tenant_id = p_tenant and s.memory_type = any(p_types);
        v_prune := v_pruning = 'on' or (v_pruning <> 'off' and v_n > 20000);

        select
            pg_catalog.array_agg(b.lexeme order by b.ub desc, b.lexeme),
            pg_catalog.array_agg(b.idf order by b.ub desc, b.lexeme),
            pg_catalog.array_agg(b.ub order by b.ub desc, b.lexeme)
        into v_kw_lexemes, v_kw_idf, v_kw_ub
        from (
            select
                i.lexeme,
                i.idf,
                i.idf * case
                    when i.max_tf is null or v_min_dl is null then 0.9 + 1.0
                    else i.max_tf * (0.9 + 1.0) / (i.max_tf + 0.9 * (1.0 - 0.4 + 0.4 * v_min_dl / v_avgdl))
                end as ub
            from (
                select
                    d.lexeme,
                    d.max_tf,
                    pg_catalog.ln(1.0 + (greatest(v_n, d.df) - d.df + 0.5) / (d.df + 0.5)) as idf
                from (
                    select
                        x.lexeme,
                        coalesce(pg_catalog.sum(l.df), 0)::double precision as df,
                        pg_catalog.max(l.max_tf)::double precision as max_tf
                    from pg_catalog.unnest(v_lexemes) as x (lexeme)
                    left join pymem.keyword_lexemes as l
                        on l.tenant_id = p_tenant and l.memory_type = any(p_types) and l.lexeme = x.lexeme
                    group by x.lexeme
                ) as d
            ) as i
        ) as b;

        if not v_prune then
            -- every matching row scored in one pass, cut to the top directly (no arrays of all the matches)
            return query
            select k.kind, k.id, k.created_at, k.bm25
            from pymem_private.memory_keyword_scores(
                p_tenant, v_tsq, v_kw_lexemes, v_kw_idf, v_avgdl, p_types, p_scope, p_min_confidence, p_as_of
            ) as k
            order by k.bm25 desc, k.created_at desc, k.id
            limit p_depth;
            return;
        else
            -- the (at most 6) lexemes of highest bound are "leading"; a group is the rows holding exactly a
            -- given set of leading lexemes (and any of the others): its bound is the sum of the ub of that
            -- set and of every other lexeme. Groups by descending bound, until a bound is below theta.
            v_lead := least(pg_catalog.cardinality(v_kw_lexemes), 6);
            select pg_catalog.array_agg(coalesce(s.docs, 0)::double precision order by t.ord)
            into v_docs
            from pg_catalog.unnest(v_types) with ordinality as t (memory_type, ord)
            left join pymem.keyword_stats as s on s.tenant_id = p_tenant and s.memory_type = t.memory_type;
            select pg_catalog.array_agg(coalesce(l.df, 0)::double precision order by x.ord, t.ord)
            into v_kw_df
            from pg_catalog.unnest(v_kw_lexemes) with ordinality as x (lexeme, ord)
            cross join pg_catalog.unnest(v_types) with ordinality as t (memory_type, ord)
            left join pymem.keyword_lexemes as l
                on l.tenant_id = p_tenant and l.memory_type = t.memory_type and l.lexeme = x.lexeme;
            v_kw_read := pg_catalog.array_fill(0.0::double precision, array[pg_catalog.cardinality(v_kw_df)]);
            for v_mask, v_bound in
                select
                    m.mask,
                    coalesce((
                        select pg_catalog.sum(v_kw_ub[j]) from pg_catalog.generate_series(1, v_lead) as j
                        where m.mask & (1 << (j - 1)) <> 0
                    ), 0.0) + coalesce((
                        select pg_catalog.sum(u.ub) from pg_catalog.unnest(v_kw_ub[v_lead + 1:]) as u (ub)
                    ), 0.0) as bound
                from pg_catalog.generate_series(
                    case when pg_catalog.cardinality(v_kw_lexemes) > v_lead then 0 else 1 end, (1 << v_lead) - 1
                ) as m (mask)
                order by bound desc, m.mask desc
            loop
                exit when v_theta is not null and v_bound < v_theta;
                select
                    coalesce(
                        pg_catalog.string_agg(pymem_private.lexeme_tsquery(v_kw_lexemes[j])::text, ' & ')
                            filter (where v_mask & (1 << (j - 1)) <> 0),
                        (
                            select '(' || pg_catalog.string_agg(pymem_private.lexeme_tsquery(o.lexeme)::text, ' | ') || ')'
                            from pg_catalog.unnest(v_kw_lexemes[v_lead + 1:]) as o (lexeme)
                        )
                    )
                    || coalesce(
                        ' & !(' || pg_catalog.string_agg(pymem_private.lexeme_tsquery(v_kw_lexemes[j])::text, ' | ')
                            filter (where v_mask & (1 << (j - 1)) = 0) || ')',
                        ''
                    )
                into v_fetch_text
                from pg_catalog.generate_series(1, v_lead) as j;
                v_fetch := v_fetch_text::tsquery;
                -- a group holding a word of which every searchable row has been read is empty (the kept df is exact);
                -- only in a search of now: as of a past moment, rows that were valid then (a superseded fact, a
                -- forgotten rule or episode) are searched and not counted in df
                continue when p_as_of is null and exists (
                    select from pg_catalog.generate_series(1, v_lead) as j
                    where v_mask & (1 << (j - 1)) <> 0 and (
                        select pg_catalog.sum(v_kw_df[(j - 1) * 3 + t] - v_kw_read[(j - 1) * 3 + t])
                        from pg_catalog.generate_series(1, 3) as t where v_types[t] = any(p_types)
                    ) <= 0
                );
                -- a group of the rows holding its words and no other word of the query: of each type where it is
                -- likely large, its best rows without reading it all (memory_keyword_common, at most 2 * sqrt(p_depth *
                -- rows) deep in length order). Its size is guessed from its words' shares of the rows not read yet:
                -- between their product (words independent) and the smallest (each holds the rarest), the geometric mean
                -- of the two; at least sqrt(p_depth * rows) is large (docs/scale.md). pymem.keyword_common = on: of every
                -- type, off: never
                v_ordered := '{}';
                if v_mask > 0 and pg_catalog.cardinality(v_kw_lexemes) = v_lead and v_common_mode <> 'off' then
                    v_ordered := array(
                        select v_types[t] from pg_catalog.generate_series(1, 3) as t
                        where v_types[t] = any(p_types) and (
                            v_common_mode = 'on'
                            or v_docs[t] * (
                                select pg_catalog.sqrt(
                                    pg_catalog.exp(pg_catalog.sum(pg_catalog.ln(x.share))) * pg_catalog.min(x.share)
                                )
                                from (
                                    select greatest(1e-9, least(1.0,
                                        (v_kw_df[(j - 1) * 3 + t] - v_kw_read[(j - 1) * 3 + t]) / greatest(v_docs[t], 1.0)
                                    )) as share
                                    from pg_catalog.generate_series(1, v_lead) as j
                                    where v_mask & (1 << (j - 1)) <> 0
                                ) as x
                            ) >= pg_catalog.sqrt(p_depth * v_docs[t])
                        )
                    );
                end if;
                v_rest := array(select x.t from pg_catalog.unnest(p_types) as x (t) where x.t <> all (v_ordered));
                if pg_catalog.cardinality(v_ordered) > 0 then
                    select
                        pg_catalog.array_agg(v_kw_lexemes[j] order by j),
                        pg_catalog.array_agg(v_kw_idf[j] order by j)
                    into v_words, v_words_idf
                    from pg_catalog.generate_series(1, v_lead) as j
                    where v_mask & (1 << (j - 1)) <> 0;
                end if;
                -- the best p_depth rows read so far, in output order: a row outside them can never re-enter (the
                -- groups are disjoint, and the set only grows), so a large group is cut here, not carried along
                with k as materialized (
                    select s.kind, s.id, s.created_at, s.bm25
                    from pymem_private.memory_keyword_scores(
                        p_tenant, v_fetch, v_kw_lexemes, v_kw_idf, v_avgdl, v_rest, p_scope, p_min_confidence, p_as_of
                    ) as s
                    where pg_catalog.cardinality(v_rest) > 0
                    union all
                    select c.kind, c.id, c.created_at, c.bm25
                    from pymem_private.memory_keyword_common(
                        p_tenant, v_fetch, v_words, v_words_idf, v_avgdl, v_ordered, p_scope, p_min_confidence, p_as_of,
                        p_depth, pg_catalog.ceil(2.0 * pg_catalog.sqrt(p_depth * (
                            select pg_catalog.max(v_docs[t]) from pg_catalog.generate_series(1, 3) as t
                            where v_types[t] = any(v_ordered)
                        )))::integer
                    ) as c
                    where pg_catalog.cardinality(v_ordered) > 0
                )
                select
                    coalesce(pg_catalog.array_agg(b.kind order by b.bm25 desc, b.created_at desc, b.id), '{}'),
                    coalesce(pg_catalog.array_agg(b.id order by b.bm25 desc, b.created_at desc, b.id), '{}'),
                    coalesce(pg_catalog.array_agg(b.created_at order by b.bm25 desc, b.created_at desc, b.id), '{}'),
                    coalesce(pg_catalog.array_agg(b.bm25 order by b.bm25 desc, b.created_at desc, b.id), '{}'),
                    (
                        select pg_catalog.array_agg((select pg_catalog.count(*) from k where k.kind = t.memory_type)::double precision
                            order by t.ord)
                        from pg_catalog.unnest(v_types) with ordinality as t (memory_type, ord)
                    )
                into v_fts_kinds, v_fts_ids, v_fts_created, v_fts_bm25, v_counts
                from (
                    select a.kind, a.id, a.created_at, a.bm25
                    from (
                        select k.kind, k.id, k.created_at, k.bm25 from k
                        union all
                        select t.kind, t.id, t.created_at, t.bm25
                        from rows from (
                            pg_catalog.unnest(v_fts_kinds), pg_catalog.unnest(v_fts_ids), pg_catalog.unnest(v_fts_created),
                            pg_catalog.unnest(v_fts_bm25)
                        ) as t (kind, id, created_at, bm25)
                    ) as a
                    order by a.bm25 desc, a.created_at desc, a.id
                    limit p_depth
                ) as b;
                -- the rows of this group hold each of its words
                select pg_catalog.array_agg(
                    v_kw_read[i] + case when v_mask & (1 << ((i - 1) / 3)) <> 0 then v_counts[(i - 1) % 3 + 1] else 0 end
                    order by i
                )
                into v_kw_read
                from pg_catalog.generate_series(1, pg_catalog.cardinality(v_kw_read)) as i;
                v_theta := case when pg_catalog.cardinality(v_fts_bm25) >= p_depth then v_fts_bm25[p_depth] end;
            end loop;
        end if;
    end if;
    return query
    select t.kind, t.id, t.created_at, t.bm25
    from rows from (
        pg_catalog.unnest(v_fts_kinds), pg_catalog.unnest(v_fts_ids), pg_catalog.unnest(v_fts_created),
        pg_catalog.unnest(v_fts_bm25)
    ) as t (kind, id, created_at, bm25)
    order by t.bm25 desc, t.created_at desc, t.id
    limit p_depth;
end;
$$;

comment on function pymem_private.memory_keyword_top(
    text, text, text[], text, integer, double precision, timestamptz
) is
$$The full-text tier of search's keyword leg: the top p_depth rows (memory_candidates' filters) matching any
English lexeme of p_query, by BM25 (k1 0.9, b 0.4) with the tenant's kept statistics (pymem.keyword_stats,
pymem.keyword_lexemes: N and avgdl over the searchable rows of p_types, df per lexeme); ties: created_at DESC,
id. Exact, without scoring every matching row: rows are read in groups (each a GIN index scan with
pymem_private.@@@) by descending score bound until a bound is below the p_depth-th best score read.
pymem.keyword_pruning = off scores every matching row; on prunes always; auto (default) prunes above 20000
searchable rows of the searched types.
Example: select * from pymem_private.memory_keyword_top('demo', 'coffee at noon', '{fact,rule,episode}', null,
20, 0.0, null);$$;
