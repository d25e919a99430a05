-- noqa: disable=RF01
-- The review queue: what waits for a human reviewer. Facts and rules kept for review
-- (grounded ingestion: text that may steer the agent, quotes another source, ...), and rules the agent inferred
-- (source 'agent_inference', what consolidation stores) that no reviewer has confirmed yet, so that they never
-- become standing behaviour in memory_context's System block. A reviewer approves one with memory_confirm
-- (pymem_private.caller_may_review) or rejects it with memory_forget; `pymem review list | approve | reject`.

create or replace function pymem.memory_review_queue("limit" integer default 100)
returns table (
    memory_type text,
    memory_id uuid,
    short_id text,
    waiting text,
    reason text,
    content text,
    source text,
    source_episode_id uuid,
    maturity text,
    created_at timestamptz
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_limit integer := pymem_private.require_limit('limit', "limit");
begin
    return query
    select q.memory_type, q.memory_id, pg_catalog.left(q.memory_id::text, 8), q.waiting, q.reason, q.content,
           q.source, q.source_episode_id, q.maturity, q.created_at
    from (
        select 'fact'::text as memory_type, f.id as memory_id, 'pending_review'::text as waiting,
               coalesce(f.review_reason, 'kept for review') as reason, f.content, f.source, f.source_episode_id,
               null::text as maturity, f.created_at
          from pymem.facts as f
         where f.tenant_id = v_tenant and f.validity = 'pending_review'
        union all
        select 'rule', r.id, 'pending_review', coalesce(r.review_reason, 'kept for review'), r.content, r.source,
               r.source_episode_id, r.maturity, r.created_at
          from pymem.rules as r
         where r.tenant_id = v_tenant and r.forgotten_at is null and r.review_state = 'pending_review'
        union all
        -- approved, but standing behaviour only once a reviewer confirms it (pymem_private.rule_is_standing)
        select 'rule', r.id, 'unconfirmed',
               'inferred by the agent: in the System block only once a reviewer confirms it', r.content, r.source,
               r.source_episode_id, r.maturity, r.created_at
          from pymem.rules as r
         where r.tenant_id = v_tenant and r.forgotten_at is null and r.review_state = 'approved'
           and r.source = 'agent_inference' and r.confirmed_at is null and r.maturity <> 'anti_pattern'
    ) as q
    order by q.waiting, q.created_at, q.memory_id
    limit v_limit;
end;
$$;

comment on function pymem.memory_review_queue(integer) is
$$What waits for a human reviewer in the current tenant, oldest first, at most "limit" rows (1..1000, default
100): facts and rules kept for review (waiting 'pending_review', reason: why they were kept), then rules the agent
inferred that no reviewer has confirmed (waiting 'unconfirmed': recalled, but never in memory_context's System block
until then).
short_id is the first 8 hex digits of the id (memory_resolve_id takes it). A reviewer approves with memory_confirm
(PM008 for anyone else: pymem_private.caller_may_review) and rejects with memory_forget; `pymem review list`.
Example: select memory_type, short_id, waiting, reason, content from memory_review_queue("limit" => 50);$$;
