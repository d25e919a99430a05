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
    -- "select *" CTEs copied them, 0.33 s at 100k memories), counted per embedding model (a handful of groups:
    -- the models in use come out of the same pass, where array_agg(distinct) sorted every row's model), then summed
    return query
    with
    f_by_model as (
        select
            f.embedding_model as model,
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
            pg_catalog.count(*) filter (where f.validity = 'pending_review') as pending_review
        from pymem.facts as f
        where f.tenant_id = v_tenant and (memory_stats.scope is null or f.scope in ('global', memory_stats.scope))
        group by f.embedding_model
    ),
    f as (
        select
            coalesce(pg_catalog.sum(m.total), 0)::bigint as total,
            coalesce(pg_catalog.sum(m.active), 0)::bigint as active,
            coalesce(pg_catalog.sum(m.fading), 0)::bigint as fading,
            coalesce(pg_catalog.sum(m.superseded), 0)::bigint as superseded,
            coalesce(pg_catalog.sum(m.retracted), 0)::bigint as retracted,
            coalesce(pg_catalog.sum(m.expired), 0)::bigint as expired,
            coalesce(pg_catalog.sum(m.pending_review), 0)::bigint as pending_review,
            pg_catalog.array_agg(m.model) filter (where m.model is not null) as models
        from f_by_model as m
    ),
    r_by_model as (
        select
            r.embedding_model as model,
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
            ) as pending_review
        from pymem.rules as r
        where r.tenant_id = v_tenant and (memory_stats.scope is null or r.scope in ('global', memory_stats.scope))
        group by r.embedding_model
    ),
    r as (
        select
            coalesce(pg_catalog.sum(m.total), 0)::bigint as total,
            coalesce(pg_catalog.sum(m.candidate), 0)::bigint as candidate,
            coalesce(pg_catalog.sum(m.established), 0)::bigint as established,
            coalesce(pg_catalog.sum(m.proven), 0)::bigint as proven,
            coalesce(pg_catalog.sum(m.anti_pattern), 0)::bigint as anti_pattern,
            coalesce(pg_catalog.sum(m.forgotten), 0)::bigint as forgotten,
            coalesce(pg_catalog.sum(m.pending_review), 0)::bigint as pending_review,
            pg_catalog.array_agg(m.model) filter (where m.model is not null) as models
        from r_by_model as m
    ),
    e_by_model as (
        select
            e.embedding_model as model,
            pg_catalog.count(*) as total,
            pg_catalog.count(*) filter (where e.live and not e.consolidated) as unconsolidated,
            pg_catalog.count(*) filter (where e.forgotten_at is null and e.expires_at <= pg_catalog.now()) as expired,
            pg_catalog.count(*) filter (where e.forgotten_at is not null) as forgotten,
            pg_catalog.min(e.created_at) filter (where e.live and not e.consolidated) as oldest_backlog
        from (
            select
                e.*,
                e.forgotten_at is null and (e.expires_at is null or e.expires_at > pg_catalog.now()) as live
            from pymem.episodes as e
            where e.tenant_id = v_tenant and (memory_stats.scope is null or e.butler = memory_stats.scope)
        ) as e
        group by e.embedding_model
    ),
    ep as (
        select
            coalesce(pg_catalog.sum(m.total), 0)::bigint as total,
            coalesce(pg_catalog.sum(m.unconsolidated), 0)::bigint as unconsolidated,
            coalesce(pg_catalog.sum(m.expired), 0)::bigint as expired,
            coalesce(pg_catalog.sum(m.forgotten), 0)::bigint as forgotten,
            pg_catalog.now() - pg_catalog.min(m.oldest_backlog) as backlog_age,
            pg_catalog.array_agg(m.model) filter (where m.model is not null) as models
        from e_by_model as m
    ),
    -- retrievable rows without an embedding, through the partial indexes *_unembedded_idx (few rows: the
    -- worker's backlog); counted apart so that the passes above read only the covering *_stats_idx (migration
    -- 0033: an index-only scan, 25 MB at 100k facts instead of the 200 MB of their rows)
    unembedded as (
        select
            (
                select pg_catalog.count(*) from pymem.facts as f
                where f.tenant_id = v_tenant and f.embedding is null and f.validity = 'active'
                    and (memory_stats.scope is null or f.scope in ('global', memory_stats.scope))
            )
            + (
                select pg_catalog.count(*) from pymem.rules as r
                where r.tenant_id = v_tenant and r.embedding is null and r.forgotten_at is null
                    and (memory_stats.scope is null or r.scope in ('global', memory_stats.scope))
            )
            + (
                select pg_catalog.count(*) from pymem.episodes as e
                where e.tenant_id = v_tenant and e.embedding is null and e.forgotten_at is null
                    and (e.expires_at is null or e.expires_at > pg_catalog.now())
                    and (memory_stats.scope is null or e.butler = memory_stats.scope)
            ) as n
    )
    select
        f.total, f.active, f.fading, f.superseded, f.retracted, f.expired,
        r.total, r.candidate, r.established, r.proven, r.anti_pattern, r.forgotten,
        ep.total, ep.unconsolidated, ep.expired, ep.forgotten, ep.backlog_age,
        u.n,
        (
            select coalesce(pg_catalog.array_agg(distinct m.model order by m.model), '{}')
            from pg_catalog.unnest(
                coalesce(f.models, '{}') || coalesce(r.models, '{}') || coalesce(ep.models, '{}')
            ) as m (model)
        ),
        f.pending_review, r.pending_review,
        (select pg_catalog.count(*) from pymem.embedding_queue as q where q.tenant_id = v_tenant),
        (select pg_catalog.count(*) from pymem.embedding_failures as x where x.tenant_id = v_tenant)
    from f cross join r cross join ep cross join unembedded as u;
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
