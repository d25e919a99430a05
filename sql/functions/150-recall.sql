-- noqa: disable=RF01
-- memory_recall: the primary read of an agent. Facts and rules only, ranked by a composite
-- of relevance (hybrid search), importance, recency and effective confidence, each in [0, 1]
-- and returned beside the score.

create or replace function pymem.memory_recall(
    topic text,
    scope text default null,
    "limit" integer default 10,
    min_confidence double precision default 0.2,
    query_embedding public.vector default null,
    w_relevance double precision default null,
    w_importance double precision default null,
    w_recency double precision default null,
    w_confidence double precision default null,
    as_of timestamptz default null,
    mode text default 'hybrid',
    recency_half_life_days double precision default 30,
    candidates integer default null,
    bump_references boolean default true,
    min_relevance double precision default null,
    second_query_embedding public.vector default null,
    focus_embedding public.vector default null,
    min_focus double precision default null,
    floor_bypass double precision default null
)
returns table (
    memory_type text,
    memory_id uuid,
    content text,
    score double precision,
    relevance double precision,
    importance double precision,
    recency double precision,
    effective_confidence double precision,
    confidence double precision,
    subject text,
    predicate text,
    validity text,
    maturity text,
    memory_scope text,
    semantic_rank integer,
    keyword_rank integer,
    search_mode text,
    created_at timestamptz,
    last_referenced_at timestamptz,
    reference_count integer,
    graph_rank integer,
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
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    -- weights left NULL are those of the butler the scope names (pymem.butler_settings), else the defaults
    v_butler pymem.butler_settings := pymem_private.butler_settings_for(v_tenant, scope);
    v_w_relevance double precision := coalesce(w_relevance, v_butler.w_relevance);
    v_w_importance double precision := coalesce(w_importance, v_butler.w_importance);
    v_w_recency double precision := coalesce(w_recency, v_butler.w_recency);
    v_w_confidence double precision := coalesce(w_confidence, v_butler.w_confidence);
    v_limit integer := pymem_private.require_limit('limit', "limit");
    -- the default depth is capped at require_limit's 1000, as memory_context_candidates caps it: uncapped, a
    -- limit above 333 failed with "candidates must be between 1 and 1000", naming an argument the caller never
    -- passed (tests/test_properties.py)
    v_depth integer := pymem_private.require_limit(
        'candidates', coalesce(candidates, least(1000, greatest(3 * v_limit, 30)))
    );
    v_mode text := pymem_private.effective_search_mode(mode, query_embedding);
    v_at timestamptz := coalesce(as_of, pg_catalog.now());
    -- the relevance floor: below it a memory is not recalled, however important or recent
    v_min_relevance double precision;
    -- the cosine to the topic at which a memory passes the floor whatever its relevance (1: off)
    v_floor_bypass double precision;
    -- the focus check (148-query-focus.sql): on when the caller embedded the question's focus
    v_min_focus double precision;
    v_focus_query tsquery;
    v_focus text;
    v_focus_on boolean := false;
    -- no bump when reading history, when asked not to, or in a read-only transaction
    v_bump boolean := coalesce(bump_references, true) and as_of is null
        and pg_catalog.current_setting('transaction_read_only') = 'off';
begin
    perform pymem_private.require_text('topic', topic, 10000);
    perform pymem_private.require_range('min_confidence', min_confidence, 0, 1);
    perform pymem_private.require_range('w_relevance', v_w_relevance, 0, 1000);
    perform pymem_private.require_range('w_importance', v_w_importance, 0, 1000);
    perform pymem_private.require_range('w_recency', v_w_recency, 0, 1000);
    perform pymem_private.require_range('w_confidence', v_w_confidence, 0, 1000);
    if v_w_relevance + v_w_importance + v_w_recency + v_w_confidence = 0 then
        raise exception 'the recall weights must not all be 0' using errcode = 'PM002';
    end if;
    perform pymem_private.require_range('recency_half_life_days', recency_half_life_days, 0.001, 100000);
    perform pymem_private.require_read_options(scope, as_of);
    perform pymem_private.require_second_embedding('second_query_embedding', second_query_embedding);
    perform pymem_private.require_embedding('focus_embedding', focus_embedding);
    v_min_relevance := pymem_private.require_range(
        'min_relevance',
        coalesce(
            min_relevance,
            v_butler.min_relevance,
            (select m.default_floor from pymem.memory_relevance_model(
                pymem_private.relevance_variant(v_mode <> 'keyword', v_mode <> 'semantic')
            ) as m)
        ),
        0,
        1
    );
    v_floor_bypass := pymem_private.require_range(
        'floor_bypass',
        coalesce(
            floor_bypass,
            v_butler.floor_bypass,
            (select d.floor_bypass from pymem_private.floor_defaults() as d)
        ),
        0,
        1
    );
    -- a relevance floor of 0 keeps every candidate: the focus check is off too unless min_focus is given
    v_min_focus := pymem_private.require_range(
        'min_focus',
        coalesce(
            min_focus,
            case when v_min_relevance = 0 then 0 end,
            v_butler.min_focus,
            (select d.min_focus from pymem_private.focus_defaults() as d)
        ),
        0,
        1
    );
    if focus_embedding is not null and v_min_focus > 0 then
        v_focus := pymem.memory_query_focus(topic);
        -- a topic that names no subject is its own focus: nothing to check
        v_focus_query := pymem.memory_tsquery(v_focus);
        v_focus_on := v_focus <> topic;
    end if;

    return query
    with
    found as materialized (
        select
            t.*,
            pymem.memory_composite_score(
                t.relevance, t.importance, t.recency, t.effective_confidence,
                v_w_relevance, v_w_importance, v_w_recency, v_w_confidence
            ) as score
        from (
        select
            c.c_type as kind,
            c.c_id as mid,
            coalesce(f.content, ru.content) as content,
            c.c_relevance as relevance,
            coalesce(f.importance, 5.0) / 10.0 as importance,
            pymem.memory_recency(
                case
                    when coalesce(f.last_referenced_at, ru.last_referenced_at) > v_at then null
                    else coalesce(f.last_referenced_at, ru.last_referenced_at)
                end,
                c.c_created_at, v_at, recency_half_life_days
            ) as recency,
            pymem.memory_effective_confidence(
                coalesce(f.confidence, ru.confidence), coalesce(f.decay_rate, ru.decay_rate),
                case
                    when coalesce(f.last_confirmed_at, ru.last_confirmed_at) > v_at then c.c_created_at
                    else coalesce(f.last_confirmed_at, ru.last_confirmed_at)
                end,
                v_at
            ) as effective_confidence,
            coalesce(f.confidence, ru.confidence) as confidence,
            f.subject,
            f.predicate,
            f.validity,
            ru.maturity,
            coalesce(f.scope, ru.scope) as scope,
            c.c_semantic_rank as semantic_rank,
            c.c_keyword_rank as keyword_rank,
            c.c_graph_rank as graph_rank,
            c.c_created_at as created_at,
            coalesce(f.last_referenced_at, ru.last_referenced_at) as last_referenced_at,
            coalesce(f.reference_count, ru.reference_count) as reference_count
        from pymem_private.memory_candidates(
            v_tenant, topic, query_embedding, array['fact', 'rule'], scope, v_depth, min_confidence, as_of,
            v_mode <> 'keyword', v_mode <> 'semantic', true, case when v_mode <> 'keyword' then second_query_embedding end
        ) as c
        left join pymem.facts as f on c.c_type = 'fact' and f.tenant_id = v_tenant and f.id = c.c_id
        left join pymem.rules as ru on c.c_type = 'rule' and ru.tenant_id = v_tenant and ru.id = c.c_id
        -- memory_candidates is VOLATILE: a memory committed since this statement began is left out here
        where coalesce(f.id, ru.id) is not null
            and pymem_private.floor_passes(
                c.c_relevance,
                1 - (coalesce(f.embedding, ru.embedding) operator (public.<=>) query_embedding),
                v_min_relevance,
                v_floor_bypass
            )
            and (
                not v_focus_on
                or pymem_private.focus_passes(
                    1 - (coalesce(f.embedding, ru.embedding) operator (public.<=>) query_embedding),
                    1 - (coalesce(f.embedding, ru.embedding) operator (public.<=>) focus_embedding),
                    coalesce(f.search_vector, ru.search_vector) @@ v_focus_query,
                    v_min_focus
                )
            )
        ) as t
        order by score desc, t.created_at desc, t.mid
        limit v_limit
    ),
    -- the reference bumps of the returned rows, in one statement per table (pymem_private.memory_touch_many locks
    -- them by id, so concurrent recalls and searches of a tenant never deadlock)
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
        r.kind, r.mid, r.content, r.score, r.relevance, r.importance, r.recency, r.effective_confidence, r.confidence, r.subject, r.predicate,
        r.validity, r.maturity, r.scope, r.semantic_rank, r.keyword_rank, v_mode, r.created_at,
        case when v_bump then pg_catalog.now() else r.last_referenced_at end,
        coalesce(b.n, r.reference_count),
        r.graph_rank, p.source_butler, p.session_id, p.source_episode_id, p.source_path, p.stored_by
    from found as r
    left join bumped as b on r.kind = b.kind and r.mid = b.mid
    left join provenance as p on r.kind = p.kind and r.mid = p.id
    order by r.score desc, r.created_at desc, r.mid;
end;
$$;

comment on function pymem.memory_recall(
    text, text, integer, double precision, public.vector, double precision, double precision, double precision,
    double precision, timestamptz, text, double precision, integer, boolean, double precision, public.vector,
    public.vector, double precision, double precision
) is
$$Composite recall of facts and rules (never episodes): score = (w_relevance*relevance + w_importance*importance
+ w_recency*recency + w_confidence*effective_confidence) / (sum of weights). A weight left NULL is the one of the
butler named by scope (memory_butler_settings(scope): what its butler.toml says), else 0.4/0.3/0.2/0.1, so
memory_recall(topic, scope => 'health') ranks as the MCP tool does for the butler 'health'. Components,
each in [0, 1]: relevance = the calibrated probability that the memory is about the topic
(pymem.memory_relevance over the evidence of the candidate lists, `candidates` deep, default
min(1000, max(3*limit, 30)); with second_query_embedding, the query by the second encoder (768-d), its list
adds candidates:
cosine similarity, keyword score, ranks, share of the topic's words; the model of pymem.memory_relevance_model(),
keyword variant when there is no query_embedding or mode is keyword); a memory below min_relevance is not recalled
however important or recent (default: the floor of the butler the scope names, memory_butler_settings(scope).min_relevance,
else the model's default_floor; 0 turns the floor off) unless its cosine to query_embedding is at least floor_bypass
(pymem_private.floor_passes; default the butler's, else 0.3; 1 turns the bypass off); with focus_embedding (the embedding of
memory_query_focus(topic): the topic without the names of the tenant's subjects) and a topic that names one, a
memory is recalled only if it passes the focus check (pymem_private.focus_passes: cosine to the focus at least min_focus, default 0.225, or
to the topic at least 0.65, or a word of the focus in its text; min_focus default the butler's,
memory_butler_settings(scope).min_focus, else 0.225; 0 turns it off, and so does a relevance floor of 0 unless
min_focus is given);
importance = importance/10
(rules count as 5); recency = exp(-ln 2 * days since last_referenced_at, else created_at / recency_half_life_days);
effective_confidence = confidence * exp(-decay_rate * days since last_confirmed_at), below min_confidence excluded.
as_of: what was believed then (facts valid from created_at until superseded or retracted; rules until forgotten),
scored as of that moment, without bumping. Ties: created_at DESC, id ASC. Returned memories get reference_count + 1.
Provenance: source_butler, session_id, source_episode_id, source_path, stored_by (pymem_private.memory_provenance).
Example: select memory_type, content, score, relevance, importance, recency, effective_confidence
from memory_recall(topic => 'diet', scope => 'health');$$;
