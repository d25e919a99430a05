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
    return query
    with
    f as (
        select * from pymem.facts as f
        where f.tenant_id = v_tenant and (memory_stats.scope is null or f.scope in ('global', memory_stats.scope))
    ),
    r as (
        select * from pymem.rules as r
        where r.tenant_id = v_tenant and (memory_stats.scope is null or r.scope in ('global', memory_stats.scope))
    ),
    e as (
        select * from pymem.episodes as e
        where e.tenant_id = v_tenant and (memory_stats.scope is null or e.butler = memory_stats.scope)
    ),
    live_episodes as (
        select * from e
        where e.forgotten_at is null and (e.expires_at is null or e.expires_at > pg_catalog.now())
    )
    select
        (select pg_catalog.count(*) from f),
        (select pg_catalog.count(*) from f where f.validity = 'active'),
        (
            select pg_catalog.count(*) from f
            where f.validity = 'active'
              and pymem.memory_effective_confidence(f.confidence, f.decay_rate, f.last_confirmed_at, pg_catalog.now())
              < memory_stats.min_confidence
        ),
        (select pg_catalog.count(*) from f where f.validity = 'superseded'),
        (select pg_catalog.count(*) from f where f.validity = 'retracted'),
        (select pg_catalog.count(*) from f where f.validity = 'expired'),
        (select pg_catalog.count(*) from r),
        (
            select pg_catalog.count(*) from r
            where r.forgotten_at is null and r.review_state = 'approved' and r.maturity = 'candidate'
        ),
        (
            select pg_catalog.count(*) from r
            where r.forgotten_at is null and r.review_state = 'approved' and r.maturity = 'established'
        ),
        (
            select pg_catalog.count(*) from r
            where r.forgotten_at is null and r.review_state = 'approved' and r.maturity = 'proven'
        ),
        (
            select pg_catalog.count(*) from r
            where r.forgotten_at is null and r.review_state = 'approved' and r.maturity = 'anti_pattern'
        ),
        (select pg_catalog.count(*) from r where r.forgotten_at is not null),
        (select pg_catalog.count(*) from e),
        (select pg_catalog.count(*) from live_episodes as l where not l.consolidated),
        (
            select pg_catalog.count(*) from e
            where e.forgotten_at is null and e.expires_at <= pg_catalog.now()
        ),
        (select pg_catalog.count(*) from e where e.forgotten_at is not null),
        (select pg_catalog.now() - pg_catalog.min(l.created_at) from live_episodes as l where not l.consolidated),
        (
            (select pg_catalog.count(*) from f where f.validity = 'active' and f.embedding is null)
            + (select pg_catalog.count(*) from r where r.forgotten_at is null and r.embedding is null)
            + (select pg_catalog.count(*) from live_episodes as l where l.embedding is null)
        ),
        (
            select coalesce(pg_catalog.array_agg(distinct m.model order by m.model), '{}')
            from (
                select f.embedding_model as model from f where f.embedding_model is not null
                union all
                select r.embedding_model from r where r.embedding_model is not null
                union all
                select e.embedding_model from e where e.embedding_model is not null
            ) as m
        ),
        (select pg_catalog.count(*) from f where f.validity = 'pending_review'),
        (select pg_catalog.count(*) from r where r.forgotten_at is null and r.review_state = 'pending_review'),
        (select pg_catalog.count(*) from pymem.embedding_queue as q where q.tenant_id = v_tenant),
        (select pg_catalog.count(*) from pymem.embedding_failures as x where x.tenant_id = v_tenant);
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
