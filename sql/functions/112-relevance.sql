-- noqa: disable=RF01
-- Calibrated relevance: how likely a search row answers the query, from the evidence of both legs.
-- A rank (the row's RRF score over the query's best) cannot tell "second of three" from "relevant";
-- this is a probability, comparable across queries, so a floor can drop what is unrelated.
--
--   relevance = 1 / (1 + exp(-(c0 + c1*x1 + ... + cn*xn)))
--
-- x = pymem.memory_relevance_features(...) (the evidence, in a fixed order) and c = the coefficients of
-- the configured model (pymem_private.relevance_models, read through pymem.memory_relevance_model()).
-- The shipped model is fitted on training data only (SciFact train qrels and the golden set's train
-- questions) by `pymem eval --fit-relevance` (pymem_dev/evaluation/calibration.py), which writes
-- sql/functions/113-relevance-coefficients.sql.

create or replace function pymem.memory_relevance_feature_names()
returns text[]
language sql
immutable
parallel safe
security invoker
return array[
    'semantic_score', 'semantic_found', 'semantic_gap', 'semantic_log_rank',
    'keyword_score', 'keyword_found', 'keyword_share', 'keyword_log_rank',
    'fuzzy_score', 'lexical_overlap', 'semantic_lift'
]::text[];

comment on function pymem.memory_relevance_feature_names() is
$$The names of the relevance evidence, in the order of pymem.memory_relevance_features() and of a relevance
model's coefficients (after the intercept). Example: select pymem.memory_relevance_feature_names();$$;


-- SQL-standard body without a SET clause: inlined into the candidate query (called once per candidate).
create or replace function pymem.memory_relevance_features(
    semantic_score double precision,
    semantic_rank integer,
    keyword_score double precision,
    keyword_rank integer,
    keyword_tier text,
    best_semantic double precision,
    best_keyword double precision,
    lexical_overlap double precision,
    background_semantic double precision
)
returns double precision[]
language sql
immutable
parallel safe
security invoker
-- Once (tests/test_properties.py): a NaN or infinite score came back in the evidence (NaN or infinite
-- features). Now semantic_score, keyword_score, best_semantic, best_keyword and background_semantic must be finite
-- (PM002 naming the argument: require_range, called only for a value that is not), and lexical_overlap, a share,
-- is clamped to [0, 1] (its argument is an expression of the candidate query: referring to it twice would stop
-- this function from being inlined there).
return case
    when
        coalesce(semantic_score, 0) > '-Infinity'::double precision
        and coalesce(semantic_score, 0) < 'Infinity'::double precision
        and coalesce(keyword_score, 0) > '-Infinity'::double precision
        and coalesce(keyword_score, 0) < 'Infinity'::double precision
        and coalesce(best_semantic, 0) > '-Infinity'::double precision
        and coalesce(best_semantic, 0) < 'Infinity'::double precision
        and coalesce(best_keyword, 0) > '-Infinity'::double precision
        and coalesce(best_keyword, 0) < 'Infinity'::double precision
        and coalesce(background_semantic, 0) > '-Infinity'::double precision
        and coalesce(background_semantic, 0) < 'Infinity'::double precision
        then array[
            -- semantic leg: cosine similarity, found at all, gap to the query's best cosine, ln(rank)
            coalesce(semantic_score, 0.0),
            case when semantic_score is null then 0.0 else 1.0 end,
            case when semantic_score is null then 0.0 else semantic_score - coalesce(best_semantic, semantic_score) end,
            case when semantic_rank is null then 0.0 else pg_catalog.ln(greatest(semantic_rank, 1)) end,
            -- keyword leg, full-text tier: BM25 score in [0, 1], found, share of the query's best full-text score, ln(rank)
            case when keyword_tier = 'fts' then coalesce(keyword_score, 0.0) else 0.0 end,
            case when keyword_tier = 'fts' and keyword_score is not null then 1.0 else 0.0 end,
            case
                when keyword_tier = 'fts' and keyword_score is not null and coalesce(best_keyword, 0.0) > 0.0
                    then keyword_score / best_keyword
                else 0.0
            end,
            case when keyword_tier = 'fts' and keyword_rank is not null then pg_catalog.ln(greatest(keyword_rank, 1)) else 0.0 end,
            -- the keyword leg's weaker tiers (trigram similarity for CJK, share of ILIKE terms): their score
            case when keyword_tier in ('trigram', 'ilike') then coalesce(keyword_score, 0.0) else 0.0 end,
            -- share of the query's distinct English lexemes that the row holds
            least(1.0, greatest(0.0, coalesce(lexical_overlap, 0.0))),
            -- how far the row's cosine stands above the tenant's background for this query (the cosine of its 30th
            -- nearest memory, 0 when there are fewer): a cosine of 0.5 is common in a corpus of one topic and telling in a
            -- tenant of unrelated memories
            case when semantic_score is null then 0.0 else semantic_score - coalesce(background_semantic, semantic_score) end
        ]::double precision[]
    else array[
        pymem_private.require_range('semantic_score', coalesce(semantic_score, 0), -1.7976931348623157e308, 1.7976931348623157e308),
        pymem_private.require_range('keyword_score', coalesce(keyword_score, 0), -1.7976931348623157e308, 1.7976931348623157e308),
        pymem_private.require_range('best_semantic', coalesce(best_semantic, 0), -1.7976931348623157e308, 1.7976931348623157e308),
        pymem_private.require_range('best_keyword', coalesce(best_keyword, 0), -1.7976931348623157e308, 1.7976931348623157e308),
        pymem_private.require_range(
            'background_semantic', coalesce(background_semantic, 0), -1.7976931348623157e308, 1.7976931348623157e308
        )
    ]
end;

comment on function pymem.memory_relevance_features(
    double precision, integer, double precision, integer, text, double precision, double precision, double precision,
    double precision
) is
$$The evidence behind a search row's relevance, named by pymem.memory_relevance_feature_names():
semantic_score (cosine similarity, 0 when the semantic leg did not find the row), semantic_found (1/0),
semantic_gap (cosine - the query's best cosine, 0 when not found), semantic_log_rank (ln rank, 0 when not found),
keyword_score (bm25/(bm25+1) of the full-text tier, 0 when not found there), keyword_found (1/0),
keyword_share (keyword_score / best_keyword, the query's best full-text score), keyword_log_rank (ln rank, 0 when
not found), fuzzy_score (the score of the trigram or ILIKE tier: weaker evidence than a full-text match),
lexical_overlap (share of the query's distinct lexemes in the row), semantic_lift (cosine - background_semantic,
the cosine of the query's 30th nearest candidate memory, 0 when there are fewer: the missing ones count as
unrelated; 0 when not found). A "found" flag carries the missing leg, so its other features are 0.
Example: select pymem.memory_relevance_features(0.62, 1, 0.71, 2, 'fts', 0.62, 0.80, 0.5, 0.21);$$;


create or replace function pymem.memory_relevance(features double precision[], coefficients double precision[])
returns double precision
language sql
immutable
parallel safe
security invoker
return (
    select
        1.0 / (
            1.0 + pg_catalog.exp(
                -least(
                    50.0,
                    greatest(
                        -50.0,
                        memory_relevance.coefficients[1]
                        + coalesce(pg_catalog.sum(f.x * memory_relevance.coefficients[f.i + 1]), 0.0)
                    )
                )
            )
        )
    from pg_catalog.unnest(memory_relevance.features) with ordinality as f (x, i)
);

comment on function pymem.memory_relevance(double precision[], double precision[]) is
$$The logistic relevance of a row: 1 / (1 + exp(-(c[1] + sum over i of c[i+1] * features[i]))), in (0, 1);
coefficients: the intercept first, then one per feature (pymem.memory_relevance_model()). NULL when either is.
Example: select pymem.memory_relevance(
    pymem.memory_relevance_features(0.62, 1, 0.71, 2, 'fts', 0.62, 0.80, 0.5, 0.21),
    (select m.coefficients from pymem.memory_relevance_model('hybrid') as m));$$;


create or replace function pymem_private.relevance_variant(p_semantic boolean, p_keyword boolean)
returns text
language sql
immutable
parallel safe
security invoker
return case
    when relevance_variant.p_semantic and relevance_variant.p_keyword then 'hybrid'
    when relevance_variant.p_semantic then 'semantic'
    else 'keyword'
end;

comment on function pymem_private.relevance_variant(boolean, boolean) is
'The relevance model variant of a search whose semantic and keyword legs ran (or not): hybrid, semantic or keyword.';


create or replace function pymem_private.relevance_model_row(p_name text, p_variant text)
returns pymem_private.relevance_models
language sql
stable
security definer  -- the table has owner-only policies: it holds no tenant data, and tenants may not change it
set search_path = pg_catalog, pg_temp
as $$
    select m.* from pymem_private.relevance_models as m where m.name = p_name and m.variant = p_variant
$$;

comment on function pymem_private.relevance_model_row(text, text) is
'The row of pymem_private.relevance_models for a name and variant (NULL when absent), for pymem.memory_relevance_model.';


create or replace function pymem.memory_relevance_model(variant text default 'hybrid')
returns table (
    name text,
    features text[],
    coefficients double precision[],
    default_floor double precision,
    fitted_on jsonb
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_name text := coalesce(nullif(pg_catalog.current_setting('pymem.relevance_model', true), ''), 'pymem');
    v_row pymem_private.relevance_models;
begin
    if variant is null or variant not in ('hybrid', 'semantic', 'keyword') then
        raise exception 'variant must be hybrid, semantic or keyword, not %', coalesce(variant, 'NULL')
            using errcode = 'PM002';
    end if;
    v_row := pymem_private.relevance_model_row(v_name, variant);
    if v_row.name is null then
        raise exception 'relevance model %/% does not exist', v_name, variant
            using errcode = 'PM003',
                  hint = 'Unset pymem.relevance_model for the shipped model ''pymem'', or fit one: pymem eval --fit-relevance.';
    end if;
    if v_row.features is distinct from pymem.memory_relevance_feature_names() then
        raise exception 'relevance model %/% was fitted on other features than this version computes', v_name, variant
            using errcode = 'PM002',
                  detail = pg_catalog.format('model: %s; now: %s', v_row.features, pymem.memory_relevance_feature_names()),
                  hint = 'Re-fit it (pymem eval --fit-relevance) or unset pymem.relevance_model.';
    end if;
    return query select v_row.name, v_row.features, v_row.coefficients, v_row.default_floor, v_row.fitted_on;
end;
$$;

comment on function pymem.memory_relevance_model(text) is
$$The relevance model in force for a variant (hybrid: both legs ran; semantic or keyword: one leg): the model named
by the setting pymem.relevance_model (default 'pymem', the shipped one), its features, coefficients (intercept
first), the default relevance floor of memory_recall and memory_context, and what it was fitted on.
Example: select name, default_floor, coefficients, fitted_on from pymem.memory_relevance_model('hybrid');$$;


create or replace function pymem_private.save_relevance_model(
    p_name text,
    p_variant text,
    p_coefficients double precision[],
    p_default_floor double precision,
    p_fitted_on jsonb
)
returns void
language sql
volatile
security invoker  -- the caller acts as pymem_owner: the migrator, or a DBA (SET ROLE pymem_owner)
set search_path = pg_catalog, pg_temp
begin atomic
    insert into pymem_private.relevance_models as m (name, variant, features, coefficients, default_floor, fitted_on)
    values (
        p_name, p_variant, pymem.memory_relevance_feature_names(), p_coefficients, p_default_floor,
        coalesce(p_fitted_on, '{}'::jsonb)
    )
    on conflict (name, variant) do update
        set
            features = excluded.features,
            coefficients = excluded.coefficients,
            default_floor = excluded.default_floor,
            fitted_on = excluded.fitted_on,
            created_at = pg_catalog.now()
        -- saving the same model again changes nothing (pymem migrate re-applies the built-in ones every run)
        where (m.features, m.coefficients, m.default_floor, m.fitted_on)
        is distinct from (excluded.features, excluded.coefficients, excluded.default_floor, excluded.fitted_on);
end;

comment on function pymem_private.save_relevance_model(text, text, double precision[], double precision, jsonb) is
$$Records (or replaces) a relevance model for one variant, with the feature names of this version. As pymem_owner:
set role pymem_owner; select pymem_private.save_relevance_model('mine', 'hybrid', array[...], 0.3, '{}');
then set pymem.relevance_model = 'mine' (per session, role or database) to use it.$$;

comment on table pymem_private.relevance_models is
$$Logistic relevance models (pymem.memory_relevance), one row per name and variant (hybrid, semantic, keyword):
features (pymem.memory_relevance_feature_names() when fitted), coefficients (intercept first), the default floor
of recall and context, and fitted_on (data, rows, date). No tenant data; only the owner has policies, every role
reads it through pymem.memory_relevance_model() (pymem_private.relevance_model_row, SECURITY DEFINER).$$;


create or replace function pymem_private.floor_defaults()
returns table (floor_bypass double precision)
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return 0.3::double precision;

comment on function pymem_private.floor_defaults() is
$$The relevance floor's default floor_bypass: 0.3, the cosine (MiniLM) of a memory to the topic at which it passes
the floor whatever its relevance. Chosen on the golden set's train questions (docs/evaluation.md, "A floor that
keeps depth"), never on test: the answers the floor lost were paraphrases at cosine 0.25-0.42 with a relevance of
0.005-0.02, while the best row of every no-answer train question was below 0.29.
Example: select * from pymem_private.floor_defaults();  -- 0.3$$;


create or replace function pymem_private.floor_passes(
    p_relevance double precision,
    p_cosine double precision,
    p_min_relevance double precision,
    p_floor_bypass double precision
)
returns boolean
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return (
    coalesce(p_relevance >= p_min_relevance, false)
    or (p_floor_bypass < 1 and coalesce(p_cosine >= p_floor_bypass, false))
);

comment on function pymem_private.floor_passes(double precision, double precision, double precision, double precision) is
$$Whether a memory passes the relevance floor of memory_recall: its relevance is at least p_min_relevance (the
floor; 0 keeps every memory), or its cosine to the topic (MiniLM) is at least p_floor_bypass (default 0.3,
pymem_private.floor_defaults; 1 turns the bypass off): a memory that says what is asked in other words is kept,
where the relevance model, fitted on shared words as much as on meaning, gives it little. NULL evidence does not
pass.
Example: select pymem_private.floor_passes(0.01, 0.35, 0.02, 0.3);  -- true$$;
