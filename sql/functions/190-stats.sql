-- noqa: disable=RF01
-- memory_stats: counts and health indicators of the tenant's memory, optionally for a scope.

-- its columns grew (embedding_waiting, embedding_failed): a function's result type is replaced by dropping it
drop function if exists pymem.memory_stats(text, double precision);
create function pymem.memory_stats(scope text default null, min_confidence double precision default 0.2)
returns table (
    facts_total bigint,
    facts_active bigint,
    facts_fading bigint,
    facts_superseded bigint,
    facts_retracted bigint,
    facts_expired bigint,
    rules_total bigint,
    rules_candidate bigint,
    rules_established bigint,
    rules_proven bigint,
    rules_anti_pattern bigint,
    rules_forgotten bigint,
    episodes_total bigint,
    episodes_unconsolidated bigint,
    episodes_expired bigint,
    episodes_forgotten bigint,
    episode_backlog_age interval,
    unembedded bigint,
    embedding_models text[],
    facts_pending_review bigint,
    rules_pending_review bigint,
    embedding_waiting bigint,
    embedding_failed bigint
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
begin
    perform pymem_private.require_range('min_confidence', min_confidence, 0, 1);
    perform pymem_private.require_read_options(scope, null);
    -- one pass over each table, reading only the columns counted (the rows' content and vectors stay on disk:
    -- "select *" CTEs copied them, 0.33 s at 100k memories)
    return query
    with
    f as (
        select
            pg_catalog.count(*) as total,
            pg_catalog.count(*) filter (where f.validity = 'active') as active,
            pg_catalog.count(*) filter (
                where f.validity = 'active'
                    -- the inlined formula (search's filters use it too): no function call per row
                    and pymem_private.decayed_confidence(
                        f.confidence, f.decay_rate, f.last_confirmed_at, pg_catalog.now()
                    ) < memory_stats.min_confidence
            ) as fading,
            pg_catalog.count(*) filter (where f.validity = 'superseded') as superseded,
            pg_catalog.count(*) filter (where f.validity = 'retracted') as retracted,
            pg_catalog.count(*) filter (where f.validity = 'expired') as expired,
            pg_catalog.count(*) filter (where f.validity = 'pending_review') as pending_review,
            pg_catalog.count(*) filter (where f.validity = 'active' and f.embedding is null) as unembedded,
            pg_catalog.array_agg(distinct f.embedding_model) filter (where f.embedding_model is not null) as models
        from pymem.facts as f
        where f.tenant_id = v_tenant and (memory_stats.scope is null or f.scope in ('global', memory_stats.scope))
    ),
    r as (
        select
            pg_catalog.count(*) as total,
            pg_catalog.count(*) filter (
                where r.forgotten_at is null and r.review_state = 'approved' and r.maturity = 'candidate'
            ) as candidate,
            pg_catalog.count(*) filter (
                where r.forgotten_at is null and r.review_state = 'approved' and r.maturity = 'established'
            ) as established,
            pg_catalog.count(*) filter (
                where r.forgotten_at is null and r.review_state = 'approved' and r.maturity = 'proven'
            ) as proven,
            pg_catalog.count(*) filter (
                where r.forgotten_at is null and r.review_state = 'approved' and r.maturity = 'anti_pattern'
            ) as anti_pattern,
            pg_catalog.count(*) filter (where r.forgotten_at is not null) as forgotten,
            pg_catalog.count(*) filter (
                where r.forgotten_at is null and r.review_state = 'pending_review'
            ) as pending_review,
            pg_catalog.count(*) filter (where r.forgotten_at is null and r.embedding is null) as unembedded,
            pg_catalog.array_agg(distinct r.embedding_model) filter (where r.embedding_model is not null) as models
        from pymem.rules as r
        where r.tenant_id = v_tenant and (memory_stats.scope is null or r.scope in ('global', memory_stats.scope))
    ),
    e as (
        select
            e.*,
            e.forgotten_at is null and (e.expires_at is null or e.expires_at > pg_catalog.now()) as live
        from (
            select
                e.forgotten_at, e.expires_at, e.consolidated, e.created_at, e.embedding is null as unembedded,
                e.embedding_model
            from pymem.episodes as e
            where e.tenant_id = v_tenant and (memory_stats.scope is null or e.butler = memory_stats.scope)
        ) as e
    ),
    ep as (
        select
            pg_catalog.count(*) as total,
            pg_catalog.count(*) filter (where e.live and not e.consolidated) as unconsolidated,
            pg_catalog.count(*) filter (where e.forgotten_at is null and e.expires_at <= pg_catalog.now()) as expired,
            pg_catalog.count(*) filter (where e.forgotten_at is not null) as forgotten,
            pg_catalog.now() - pg_catalog.min(e.created_at) filter (where e.live and not e.consolidated) as backlog_age,
            pg_catalog.count(*) filter (where e.live and e.unembedded) as unembedded,
            pg_catalog.array_agg(distinct e.embedding_model) filter (where e.embedding_model is not null) as models
        from e
    )
    select
        f.total, f.active, f.fading, f.superseded, f.retracted, f.expired,
        r.total, r.candidate, r.established, r.proven, r.anti_pattern, r.forgotten,
        ep.total, ep.unconsolidated, ep.expired, ep.forgotten, ep.backlog_age,
        f.unembedded + r.unembedded + ep.unembedded,
        (
            select coalesce(pg_catalog.array_agg(distinct m.model order by m.model), '{}')
            from pg_catalog.unnest(
                coalesce(f.models, '{}') || coalesce(r.models, '{}') || coalesce(ep.models, '{}')
            ) as m (model)
        ),
        f.pending_review, r.pending_review,
        (select pg_catalog.count(*) from pymem.embedding_queue as q where q.tenant_id = v_tenant),
        (select pg_catalog.count(*) from pymem.embedding_failures as x where x.tenant_id = v_tenant)
    from f cross join r cross join ep;
end;
$$;

comment on function pymem.memory_stats(text, double precision) is
$$Counts and health of the tenant's memory: facts by validity (fading = active facts whose effective confidence
is below min_confidence, so recall skips them until confirmed), rules by maturity (forgotten ones apart), episodes
(unconsolidated and live; expired = past expires_at, not yet removed), the age of the oldest unconsolidated live
episode (episode_backlog_age), retrievable rows without an embedding (found by keyword only), the embedding
models in use, and the facts and rules kept for review (facts_pending_review, rules_pending_review: stored without
grounding, see memory_ingestion_tier; memory_confirm approves, memory_forget rejects), and the embedding worker's
backlog of the whole tenant, whatever the scope (embedding_waiting: queued; embedding_failed: given up on, see
memory_embedding_backlog). With scope: facts and rules of 'global' and scope, episodes of butler = scope.
Example: select * from memory_stats(scope => 'health');$$;
