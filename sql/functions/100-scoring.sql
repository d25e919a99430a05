-- The maths of retrieval, as pure functions an analyst can call and read:
-- effective confidence (decay), recency, Reciprocal Rank Fusion, the composite recall
-- score, and rule effectiveness and maturity. IMMUTABLE: every input, time included, is
-- an argument.
--
-- The two decay formulas are written once, here, each in an inlinable SQL function
-- (pymem_private.decayed_confidence, pymem_private.half_life_decay): a SQL-standard body of one
-- expression, IMMUTABLE, not STRICT, no SET clause, not SECURITY DEFINER, so the planner replaces
-- a call by its expression inside the query that makes it (no function call per row). Every
-- other function uses them: the public memory_effective_confidence and memory_recency check their
-- arguments, then call them; the filters of search (128-keyword-scores.sql, 130-candidates.sql)
-- call them per row. tests/test_one_formula.py fails on a decay expression anywhere else.

create or replace function pymem_private.decayed_confidence(
    confidence double precision,
    decay_rate double precision,
    since timestamptz,
    at timestamptz
)
returns double precision
language sql
immutable
parallel safe
security invoker
-- decay_rate 0 never decays (0 * an infinite age would be NaN); the age is never negative; the exponent
-- stops at -700 (exp(-700) ~ 1e-304: fully decayed, still a normal double, where exp(-746) fails with
-- "value out of range: underflow"). Each argument but confidence and decay_rate (columns, cheap) is used
-- once, so a call inlines whatever its arguments.
return case
    when decayed_confidence.decay_rate = 0 then decayed_confidence.confidence
    else decayed_confidence.confidence * pg_catalog.exp(greatest(
        -700.0,
        -decayed_confidence.decay_rate
        * greatest(0.0, pg_catalog.date_part('epoch', decayed_confidence.at - decayed_confidence.since) / 86400.0)
    ))
end;

comment on function pymem_private.decayed_confidence(double precision, double precision, timestamptz, timestamptz) is
$$THE confidence decay, in one place: confidence * exp(-decay_rate * days from since to at), days never negative,
the exponent at least -700 (fully decayed ~1e-304, never an underflow error), decay_rate 0 never decays. Inlined
by the planner (no argument checks: pymem.memory_effective_confidence checks them, then calls this).
Example: select pymem_private.decayed_confidence(1.0, 0.008, now() - interval '87 days', now());  -- ~0.5$$;


create or replace function pymem_private.half_life_decay(
    since timestamptz,
    at timestamptz,
    half_life_days double precision
)
returns double precision
language sql
immutable
parallel safe
security invoker
-- the age is never negative; the exponent stops at -700 (see decayed_confidence)
return pg_catalog.exp(greatest(
    -700.0,
    -pg_catalog.ln(2.0)
    * greatest(0.0, pg_catalog.date_part('epoch', half_life_decay.at - half_life_decay.since) / 86400.0)
    / half_life_decay.half_life_days
));

comment on function pymem_private.half_life_decay(timestamptz, timestamptz, double precision) is
$$THE half-life decay, in one place: exp(-ln 2 * days from since to at / half_life_days), in (0, 1], days never
negative, the exponent at least -700 (~1e-304, never an underflow error). Inlined by the planner (no argument
checks: pymem.memory_recency checks half_life_days, then calls this).
Example: select pymem_private.half_life_decay(now() - interval '30 days', now(), 30);  -- 0.5$$;

create or replace function pymem.memory_effective_confidence(
    confidence double precision,
    decay_rate double precision,
    last_confirmed_at timestamptz,
    at timestamptz
)
returns double precision
language plpgsql
immutable
strict
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    -- Once (tests/test_properties.py): a NaN or infinite confidence or decay_rate returned NaN, and so did
    -- decay_rate 0 at `at` = infinity (0 * infinity); an exponent below about -745 (an ephemeral fact unconfirmed
    -- for 20 years) failed with "value out of range: underflow". Now both are checked (PM002), decay_rate 0 never
    -- decays, and the exponent stops at -700 (exp(-700) ~ 1e-304: fully decayed, still a normal double): the
    -- formula is pymem_private.decayed_confidence's. PL/pgSQL, to raise: a SQL body is bound at creation, before
    -- 105-validation.sql defines require_range.
    if not (memory_effective_confidence.confidence between 0 and 1) then
        raise exception 'confidence must be between 0 and 1, not %', memory_effective_confidence.confidence
            using errcode = 'PM002';
    end if;
    if not (memory_effective_confidence.decay_rate between 0 and 1000) then
        raise exception 'decay_rate must be between 0 and 1000 (per day), not %', memory_effective_confidence.decay_rate
            using errcode = 'PM002';
    end if;
    return pymem_private.decayed_confidence(
        memory_effective_confidence.confidence,
        memory_effective_confidence.decay_rate,
        memory_effective_confidence.last_confirmed_at,
        memory_effective_confidence.at
    );
end;
$$;

comment on function pymem.memory_effective_confidence(double precision, double precision, timestamptz, timestamptz) is
$$Effective confidence = confidence * exp(-decay_rate * days since last_confirmed_at), days counted at `at`
(never negative). Retrieval excludes memories below min_confidence (default 0.2). confidence in [0, 1] and
decay_rate in [0, 1000] per day, else PM002; decay_rate 0 never decays; fully decayed is about 1e-304, never 0.
Example: select pymem.memory_effective_confidence(1.0, 0.008, now() - interval '87 days', now());  -- ~0.5$$;


create or replace function pymem.memory_recency(
    last_referenced_at timestamptz,
    created_at timestamptz,
    at timestamptz,
    half_life_days double precision default 30
)
returns double precision
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    -- Once (tests/test_properties.py): half_life_days NaN returned NaN, 0 failed with "division by zero", a
    -- negative one returned more than 1 or overflowed; an exponent below about -745 (memory_recall with
    -- recency_half_life_days 0.01 and a memory 11 days old) failed with "value out of range: underflow". Now
    -- half_life_days must be in the range memory_search, memory_recall and memory_context_candidates check theirs
    -- against (PM002), and the exponent stops at -700 (~1e-304): the formula is pymem_private.half_life_decay's.
    -- PL/pgSQL, to raise (see memory_effective_confidence).
    if not (memory_recency.half_life_days between 0.001 and 100000) then
        raise exception 'half_life_days must be between 0.001 and 100000, not %', memory_recency.half_life_days
            using errcode = 'PM002';
    end if;
    return pymem_private.half_life_decay(
        coalesce(memory_recency.last_referenced_at, memory_recency.created_at),
        memory_recency.at,
        memory_recency.half_life_days
    );
end;
$$;

comment on function pymem.memory_recency(timestamptz, timestamptz, timestamptz, double precision) is
$$Recency in (0, 1]: exp(-ln 2 * days / half_life_days), days since the memory was last referenced
(last_referenced_at, else created_at) as of `at`: 1.0 just now, 0.5 one half-life ago (30 days by default).
half_life_days in [0.001, 100000], else PM002.
Example: select pymem.memory_recency(now() - interval '30 days', null, now());  -- 0.5$$;


create or replace function pymem.memory_date_decay(
    metadata jsonb,
    at timestamptz,
    half_life_days double precision default 30
)
returns double precision
language sql
stable  -- parses a date from text
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return case
    when
        (memory_date_decay.metadata ->> 'source_date') ~ '^\d{4}-\d{2}-\d{2}$'
        and pg_catalog.pg_input_is_valid(memory_date_decay.metadata ->> 'source_date', 'date')
        then pymem.memory_recency(
            ((memory_date_decay.metadata ->> 'source_date')::date)::timestamp at time zone 'UTC',
            null,
            memory_date_decay.at,
            memory_date_decay.half_life_days
        )
    else 1.0
end;

comment on function pymem.memory_date_decay(jsonb, timestamptz, double precision) is
$$Temporal decay of a dated memory (one imported from a file named YYYY-MM-DD.md, its date kept in
metadata.source_date): exp(-ln 2 * age in days / half_life_days), 1.0 for memories without a source date
(e.g. MEMORY.md). memory_search multiplies its scores by it.
Example: select pymem.memory_date_decay('{"source_date": "2026-10-24"}', '2026-11-23'::timestamptz);  -- 0.5$$;


create or replace function pymem.memory_rrf_score(
    semantic_rank integer,
    keyword_rank integer,
    missing_rank integer,
    k integer default 60
)
returns double precision
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    -- Once (tests/test_properties.py): k + a rank of 0 failed with "division by zero" (SQLSTATE 22012, which
    -- pymem maps to no error of its own), negative ones gave negative scores. Now k must be >= 0 and every rank
    -- >= 1 (PM002). PL/pgSQL, to raise (see memory_effective_confidence).
    if memory_rrf_score.k < 0 then
        raise exception 'k must be >= 0, not %', memory_rrf_score.k using errcode = 'PM002';
    end if;
    if memory_rrf_score.semantic_rank < 1 or memory_rrf_score.keyword_rank < 1 or memory_rrf_score.missing_rank < 1 then
        raise exception 'ranks must be >= 1, not % (semantic_rank), % (keyword_rank), % (missing_rank)',
            memory_rrf_score.semantic_rank, memory_rrf_score.keyword_rank, memory_rrf_score.missing_rank
            using errcode = 'PM002';
    end if;
    return 1.0 / (memory_rrf_score.k + coalesce(memory_rrf_score.semantic_rank, memory_rrf_score.missing_rank))
    + 1.0 / (memory_rrf_score.k + coalesce(memory_rrf_score.keyword_rank, memory_rrf_score.missing_rank));
end;
$$;

comment on function pymem.memory_rrf_score(integer, integer, integer, integer) is
$$Reciprocal Rank Fusion: 1/(k + semantic_rank) + 1/(k + keyword_rank), k = 60 by default; a rank that is
NULL (the memory is missing from that list) counts as missing_rank, which search sets to limit + 1.
k >= 0 and every rank >= 1, else PM002.
Example: select pymem.memory_rrf_score(1, null, 21);  -- 1/61 + 1/81$$;


create or replace function pymem.memory_rrf_score(
    semantic_rank integer,
    keyword_rank integer,
    graph_rank integer,
    missing_rank integer,
    k integer,
    semantic_weight double precision,
    keyword_weight double precision,
    graph_weight double precision
)
returns double precision
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    -- Once (tests/test_properties.py): a NaN or infinite weight returned NaN or infinity, k + a rank of 0
    -- failed with "division by zero" (SQLSTATE 22012). Now k must be >= 0, every rank >= 1 and every weight in
    -- the range memory_search checks its *_rrf_weight against (PM002). PL/pgSQL, to raise (see
    -- memory_effective_confidence).
    if memory_rrf_score.k < 0 then
        raise exception 'k must be >= 0, not %', memory_rrf_score.k using errcode = 'PM002';
    end if;
    if memory_rrf_score.semantic_rank < 1 or memory_rrf_score.keyword_rank < 1 or memory_rrf_score.graph_rank < 1
       or memory_rrf_score.missing_rank < 1 then
        raise exception 'ranks must be >= 1, not % (semantic_rank), % (keyword_rank), % (graph_rank), % (missing_rank)',
            memory_rrf_score.semantic_rank, memory_rrf_score.keyword_rank, memory_rrf_score.graph_rank,
            memory_rrf_score.missing_rank
            using errcode = 'PM002';
    end if;
    if not (memory_rrf_score.semantic_weight between 0 and 1000) or not (memory_rrf_score.keyword_weight between 0 and 1000)
       or not (memory_rrf_score.graph_weight between 0 and 1000) then
        raise exception 'weights must be between 0 and 1000, not % (semantic_weight), % (keyword_weight), % (graph_weight)',
            memory_rrf_score.semantic_weight, memory_rrf_score.keyword_weight, memory_rrf_score.graph_weight
            using errcode = 'PM002';
    end if;
    return case
        when memory_rrf_score.semantic_rank is null and memory_rrf_score.keyword_rank is null then 0.0
        else
            memory_rrf_score.semantic_weight
            / (memory_rrf_score.k + coalesce(memory_rrf_score.semantic_rank, memory_rrf_score.missing_rank))
            + memory_rrf_score.keyword_weight
            / (memory_rrf_score.k + coalesce(memory_rrf_score.keyword_rank, memory_rrf_score.missing_rank))
    end
    + coalesce(memory_rrf_score.graph_weight / (memory_rrf_score.k + memory_rrf_score.graph_rank), 0.0);
end;
$$;

comment on function pymem.memory_rrf_score(
    integer, integer, integer, integer, integer, double precision, double precision, double precision
) is
$$Weighted Reciprocal Rank Fusion over the three candidate lists: w_semantic/(k + semantic_rank)
+ w_keyword/(k + keyword_rank) + w_graph/(k + graph_rank). A semantic or keyword rank that is NULL counts as
missing_rank (limit + 1) when the memory is in the other of those two lists; a memory found only through a link
scores w_graph/(k + graph_rank) alone, and a memory not found through a link gets no graph term, so with weights
1, 1, 1 and no links this is the two-list memory_rrf_score.
Example: select pymem.memory_rrf_score(1, null, 2, 21, 60, 1.0, 1.0, 1.0);  -- 1/61 + 1/81 + 1/62$$;


create or replace function pymem.memory_rrf_score(
    semantic_rank integer,
    keyword_rank integer,
    graph_rank integer,
    second_rank integer,
    missing_rank integer,
    k integer,
    semantic_weight double precision,
    keyword_weight double precision,
    graph_weight double precision,
    second_weight double precision
)
returns double precision
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if memory_rrf_score.second_rank < 1 then
        raise exception 'ranks must be >= 1, not % (second_rank)', memory_rrf_score.second_rank using errcode = 'PM002';
    end if;
    if not (memory_rrf_score.second_weight between 0 and 1000) then
        raise exception 'weights must be between 0 and 1000, not % (second_weight)', memory_rrf_score.second_weight
            using errcode = 'PM002';
    end if;
    if memory_rrf_score.second_rank is null or memory_rrf_score.second_weight = 0 then
        -- no second list (or no weight for it): the three-list score, and its checks
        return pymem.memory_rrf_score(
            memory_rrf_score.semantic_rank, memory_rrf_score.keyword_rank, memory_rrf_score.graph_rank,
            memory_rrf_score.missing_rank, memory_rrf_score.k, memory_rrf_score.semantic_weight,
            memory_rrf_score.keyword_weight, memory_rrf_score.graph_weight
        ) + case
            when memory_rrf_score.semantic_rank is null and memory_rrf_score.keyword_rank is null then 0.0
            else memory_rrf_score.second_weight / (memory_rrf_score.k + memory_rrf_score.missing_rank)
        end;
    end if;
    -- in the second list: a semantic or keyword rank that is missing counts as missing_rank
    return pymem.memory_rrf_score(
        coalesce(memory_rrf_score.semantic_rank, memory_rrf_score.missing_rank),
        coalesce(memory_rrf_score.keyword_rank, memory_rrf_score.missing_rank), memory_rrf_score.graph_rank,
        memory_rrf_score.missing_rank, memory_rrf_score.k, memory_rrf_score.semantic_weight,
        memory_rrf_score.keyword_weight, memory_rrf_score.graph_weight
    ) + memory_rrf_score.second_weight / (memory_rrf_score.k + memory_rrf_score.second_rank);
end;
$$;

comment on function pymem.memory_rrf_score(
    integer, integer, integer, integer, integer, integer, double precision, double precision, double precision,
    double precision
) is
$$Weighted Reciprocal Rank Fusion over four candidate lists, the second encoder's beside semantic, keyword and
graph: w_semantic/(k + semantic_rank) + w_keyword/(k + keyword_rank) + w_second/(k + second_rank)
+ w_graph/(k + graph_rank). Of the first three (the retrieval lists), a rank that is NULL counts as missing_rank
when the memory is in another of them; a memory found only through a link scores w_graph/(k + graph_rank) alone.
With second_weight 0 (the second list did not run) this is the three-list memory_rrf_score.
Example: select pymem.memory_rrf_score(1, null, null, 3, 21, 60, 1.0, 1.0, 1.0, 1.0);  -- 1/61 + 1/81 + 1/63$$;


create or replace function pymem.memory_composite_score(
    relevance double precision,
    importance double precision,
    recency double precision,
    confidence double precision,
    w_relevance double precision default 0.4,
    w_importance double precision default 0.3,
    w_recency double precision default 0.2,
    w_confidence double precision default 0.1
)
returns double precision
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    -- Once (tests/test_properties.py): a NaN or infinite component or weight returned NaN or infinity, and
    -- weights of opposite signs that summed to 0 returned NULL. Now every component must be in [0, 1] (as
    -- documented) and every weight in the range memory_recall and memory_butler_configure check the weights
    -- against (PM002); NULL for weights that are all 0 stays (memory_context_candidates falls back to recency
    -- then). PL/pgSQL, to raise (see memory_effective_confidence).
    if not (memory_composite_score.relevance between 0 and 1) or not (memory_composite_score.importance between 0 and 1)
       or not (memory_composite_score.recency between 0 and 1) or not (memory_composite_score.confidence between 0 and 1)
    then
        raise exception 'relevance, importance, recency and confidence must be between 0 and 1, not %, %, %, %',
            memory_composite_score.relevance, memory_composite_score.importance, memory_composite_score.recency,
            memory_composite_score.confidence
            using errcode = 'PM002';
    end if;
    if not (memory_composite_score.w_relevance between 0 and 1000)
       or not (memory_composite_score.w_importance between 0 and 1000)
       or not (memory_composite_score.w_recency between 0 and 1000)
       or not (memory_composite_score.w_confidence between 0 and 1000)
    then
        raise exception 'w_relevance, w_importance, w_recency and w_confidence must be between 0 and 1000, not %, %, %, %',
            memory_composite_score.w_relevance, memory_composite_score.w_importance, memory_composite_score.w_recency,
            memory_composite_score.w_confidence
            using errcode = 'PM002';
    end if;
    return (
        memory_composite_score.w_relevance * memory_composite_score.relevance
        + memory_composite_score.w_importance * memory_composite_score.importance
        + memory_composite_score.w_recency * memory_composite_score.recency
        + memory_composite_score.w_confidence * memory_composite_score.confidence
    ) / nullif(
        memory_composite_score.w_relevance + memory_composite_score.w_importance
        + memory_composite_score.w_recency + memory_composite_score.w_confidence,
        0
    );
end;
$$;

comment on function pymem.memory_composite_score(
    double precision, double precision, double precision, double precision,
    double precision, double precision, double precision, double precision
) is
$$Composite recall score: (w_relevance*relevance + w_importance*importance + w_recency*recency
+ w_confidence*confidence) / (sum of the weights), every component in [0, 1] and every weight in [0, 1000]
(else PM002; NULL when all weights are 0); defaults 0.4/0.3/0.2/0.1
(they sum to 1, so the division changes nothing for them).
Example: select pymem.memory_composite_score(0.9, 0.5, 1.0, 0.8);  -- 0.36+0.15+0.2+0.08 = 0.79$$;


create or replace function pymem.memory_effectiveness(success_count integer, harmful_count integer)
returns double precision
language sql
immutable
strict
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return memory_effectiveness.success_count
/ (memory_effectiveness.success_count + 4.0 * memory_effectiveness.harmful_count + 0.01);

comment on function pymem.memory_effectiveness(integer, integer) is
$$Rule effectiveness = success / (success + 4 * harmful + 0.01): one harmful outcome outweighs four helpful ones.
Example: select pymem.memory_effectiveness(5, 1);  -- 5 / 9.01 = 0.555$$;


create or replace function pymem.memory_rule_maturity(
    maturity text,
    success_count integer,
    harmful_count integer,
    feedback text
)
returns text
language plpgsql
immutable
strict
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_effectiveness double precision := pymem.memory_effectiveness(success_count, harmful_count);
begin
    -- once (tests/test_properties.py): an unknown maturity came back unchanged, as if it were one
    if maturity not in ('candidate', 'established', 'proven', 'anti_pattern') then
        raise exception 'invalid maturity "%"', maturity
            using errcode = 'PM002', detail = 'maturity must be one of: candidate, established, proven, anti_pattern';
    end if;
    if maturity = 'anti_pattern' then
        return maturity;  -- terminal: store the rule again to start over as a candidate
    end if;
    if feedback = 'helpful' then
        if maturity = 'candidate' and success_count >= 5 and v_effectiveness >= 0.6 then
            return 'established';
        elsif maturity = 'established' and success_count >= 15 and v_effectiveness >= 0.8 then
            return 'proven';
        end if;
        return maturity;
    elsif feedback = 'harmful' then
        if harmful_count >= 3 and v_effectiveness < 0.3 then
            return 'anti_pattern';
        elsif maturity = 'proven' and v_effectiveness < 0.8 then
            return 'established';
        elsif maturity = 'established' and v_effectiveness < 0.6 then
            return 'candidate';
        end if;
        return maturity;
    end if;
    raise exception 'invalid feedback "%"', feedback
        using errcode = 'PM002', detail = 'feedback must be helpful or harmful';
end;
$$;

comment on function pymem.memory_rule_maturity(text, integer, integer, text) is
$$Maturity of a rule after one feedback (e = memory_effectiveness(success, harmful)), one step at a time:
helpful: candidate -> established when success >= 5 and e >= 0.6; established -> proven when success >= 15
and e >= 0.8. harmful: any -> anti_pattern when harmful >= 3 and e < 0.3; else proven -> established when
e < 0.8; established -> candidate when e < 0.6. anti_pattern is terminal. An unknown maturity: PM002.
Example: select pymem.memory_rule_maturity('candidate', 5, 0, 'helpful');  -- established$$;


create or replace function pymem.memory_rule_confidence(maturity text)
returns double precision
language plpgsql
immutable
strict
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    case memory_rule_confidence.maturity
        when 'candidate' then return 0.5;
        when 'established' then return 0.75;
        when 'proven' then return 0.9;
        when 'anti_pattern' then return 0.75;
        else
            -- once (tests/test_properties.py): an unknown maturity returned NULL
            raise exception 'invalid maturity "%"', memory_rule_confidence.maturity
                using errcode = 'PM002', detail = 'maturity must be one of: candidate, established, proven, anti_pattern';
    end case;
end;
$$;

comment on function pymem.memory_rule_confidence(text) is
$$Confidence a rule takes when its maturity changes: candidate 0.5, established 0.75, proven 0.9,
anti_pattern 0.75 (confidence that the behaviour is harmful). An unknown maturity: PM002.
Example: select pymem.memory_rule_confidence('proven');  -- 0.9$$;
