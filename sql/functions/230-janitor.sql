-- The janitor, run per tenant by `pymem janitor` (pymem.maintenance.run_janitor)
-- as pymem_app under the tenant policies, one committed batch at a time:
-- - expired episodes (expires_at passed) that consolidation has read get the forgotten_at tombstone
--   (= expires_at), as memory_forget does: retrieval already skipped them; memory_get and the audit trail keep
--   them. An episode consolidation has not read yet waits for it (pymem worker consolidates on a schedule);
-- - active facts and live rules whose embeddings are more than 0.85 cosine-similar, in the same
--   tenant, scope and embedding model, are merged: the best one survives (higher confidence, then
--   importance (rules: effectiveness_score), then reference_count, then newest, then lowest id), the
--   others are superseded (facts) or forgotten (rules), linked from the survivor (facts:
--   'supersedes', rules: 'related_to'), and their reference counts are added to the survivor's.
-- Neighbours come from the vector index (one nearest-neighbour scan per row, not a cross join).
-- memory_janitor_plan lists the work per tenant and checks the run's batch and threshold first,
-- so a bad one is refused (PM002) before anything changes.
-- A second run finds nothing more to do.

-- noqa: disable=RF01
create or replace function pymem.memory_janitor_expire("limit" integer default 1000)
returns integer
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_limit integer := pymem_private.require_limit('limit', "limit");
    v_saved_reason text := pg_catalog.current_setting('pymem.reason', true);
    v_count integer;
begin
    perform pg_catalog.set_config('pymem.reason', 'expired (janitor)', true);
    update pymem.episodes as e
       set forgotten_at = e.expires_at
     where e.tenant_id = v_tenant
       and e.id in (
           select x.id from pymem.episodes as x
           where x.tenant_id = v_tenant and x.forgotten_at is null and x.expires_at <= pg_catalog.now()
             -- never before consolidation has read it: a conversation left alone is consolidated, not lost
             and x.consolidated
           order by x.expires_at, x.id
           limit v_limit
       );
    get diagnostics v_count = row_count;
    perform pg_catalog.set_config('pymem.reason', coalesce(v_saved_reason, ''), true);
    return v_count;
end;
$$;

comment on function pymem.memory_janitor_expire(integer) is
$$Tombstones up to "limit" expired episodes of the current tenant that consolidation has read (an unconsolidated one
waits for memory_consolidate, so that nothing said is lost unread) (forgotten_at := expires_at; memory_events
records each with reason 'expired (janitor)') and returns how many. Retrieval already skipped them; memory_get
still shows them. Run it until it returns less than "limit".
Example: select memory_janitor_expire("limit" => 1000);$$;


create or replace function pymem_private.janitor_merge(
    p_type text, p_tenant text, p_survivor uuid, p_loser uuid, p_reference_count integer, p_distance double precision
)
returns void
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    perform pg_catalog.set_config(
        'pymem.reason',
        pg_catalog.format('duplicate of %s %s (janitor, similarity %s)', p_type, p_survivor,
                          pg_catalog.round((1.0 - p_distance)::numeric, 3)),
        true
    );
    if p_type = 'fact' then
        update pymem.facts as f set validity = 'superseded'
         where f.tenant_id = p_tenant and f.id = p_loser;
        update pymem.facts as f set reference_count = f.reference_count + p_reference_count
         where f.tenant_id = p_tenant and f.id = p_survivor and p_reference_count > 0;
        insert into pymem.memory_links (tenant_id, source_type, source_id, target_type, target_id, relation)
        values (p_tenant, 'fact', p_survivor, 'fact', p_loser, 'supersedes')
        on conflict do nothing;
    else
        update pymem.rules as r set forgotten_at = pg_catalog.now()
         where r.tenant_id = p_tenant and r.id = p_loser;
        update pymem.rules as r set reference_count = r.reference_count + p_reference_count
         where r.tenant_id = p_tenant and r.id = p_survivor and p_reference_count > 0;
        insert into pymem.memory_links (tenant_id, source_type, source_id, target_type, target_id, relation)
        values (p_tenant, 'rule', p_survivor, 'rule', p_loser, 'related_to')
        on conflict do nothing;
    end if;
end;
$$;

comment on function pymem_private.janitor_merge(text, text, uuid, uuid, integer, double precision) is
$$Merges one near-duplicate (p_loser) into its survivor, for memory_janitor_dedup: a fact becomes 'superseded', a rule
gets forgotten_at (memory_events records it with the reason 'duplicate of ...'); the survivor links to it
('supersedes' for facts, 'related_to' for rules) and gets its reference_count added. Runs under the caller's
tenant policies.
Example: select pymem_private.janitor_merge('fact', 'acme', survivor_id, loser_id, 0, 0.05);$$;


create or replace function pymem_private.require_dedup_threshold(threshold double precision)
returns double precision
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select pymem_private.require_range('threshold', threshold, 0.5, 1);
end;

comment on function pymem_private.require_dedup_threshold(double precision) is
$$Returns the janitor's duplicate threshold (the cosine similarity above which two memories are merged), or raises
PM002 when it is NULL, NaN or outside [0.5, 1]: the one place that limit is defined.
Example: select pymem_private.require_dedup_threshold(0.85);$$;


create or replace function pymem.memory_janitor_dedup(
    type text,
    after uuid default null,
    "limit" integer default 500,
    threshold double precision default 0.85
)
returns table (
    last_id uuid,
    checked integer,
    merged integer,
    done boolean
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
set "hnsw.iterative_scan" = 'relaxed_order'
set "ivfflat.iterative_scan" = 'relaxed_order'
set "hnsw.ef_search" = 40
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_type text := pymem_private.require_memory_type('type', type, array['fact', 'rule']);
    v_limit integer := pymem_private.require_limit('limit', "limit");
    v_max_distance double precision := 1.0 - pymem_private.require_dedup_threshold(threshold);
    v_saved_reason text := pg_catalog.current_setting('pymem.reason', true);
    v_id uuid;
    v_row record;
    v_group record;
    v_survivor uuid;
    v_members integer;
    v_last uuid;
    v_checked integer := 0;
    v_merged integer := 0;
begin
    -- ids only (the next batch's keyset); each row is read again below, so merged rows are skipped
    for v_id in
        select f.id from pymem.facts as f
        where v_type = 'fact' and f.tenant_id = v_tenant and f.validity = 'active' and f.embedding is not null
          and (after is null or f.id > after)
        union all
        select r.id from pymem.rules as r
        where v_type = 'rule' and r.tenant_id = v_tenant and r.forgotten_at is null and r.review_state = 'approved'
          and r.embedding is not null
          and (after is null or r.id > after)
        order by 1
        limit v_limit
    loop
        v_last := v_id;
        v_checked := v_checked + 1;
        -- the row and its live near-duplicates (nearest neighbours by the vector index), best first
        select n.scope, n.embedding, n.embedding_model into v_row
        from (
            select f.scope, f.embedding, f.embedding_model from pymem.facts as f
            where v_type = 'fact' and f.tenant_id = v_tenant and f.id = v_id and f.validity = 'active'
            union all
            select r.scope, r.embedding, r.embedding_model from pymem.rules as r
            where v_type = 'rule' and r.tenant_id = v_tenant and r.id = v_id and r.forgotten_at is null
              and r.review_state = 'approved'
        ) as n;
        continue when not found;
        -- until the row is merged or has no live near-duplicate left (more than 10 take several rounds)
        loop
            v_survivor := null;
            v_members := 0;
            for v_group in
                select g.id, g.reference_count, g.distance from (
                    select n.id, n.confidence, n.importance as rank2, n.reference_count, n.created_at,
                           0.0::double precision as distance
                    from pymem.facts as n where v_type = 'fact' and n.tenant_id = v_tenant and n.id = v_id
                    union all
                    select n.id, n.confidence, n.effectiveness_score, n.reference_count, n.created_at, 0.0
                    from pymem.rules as n where v_type = 'rule' and n.tenant_id = v_tenant and n.id = v_id
                    union all
                    select nn.* from (
                        select n.id, n.confidence, n.importance, n.reference_count, n.created_at,
                               n.embedding operator(public.<=>) v_row.embedding as distance
                        from pymem.facts as n
                        where v_type = 'fact' and n.tenant_id = v_tenant and n.scope = v_row.scope
                          and n.validity = 'active' and n.embedding_model = v_row.embedding_model and n.id <> v_id
                        order by n.embedding operator(public.<=>) v_row.embedding
                        limit 10
                    ) as nn
                    where nn.distance < v_max_distance
                    union all
                    select nn.* from (
                        select n.id, n.confidence, n.effectiveness_score, n.reference_count, n.created_at,
                               n.embedding operator(public.<=>) v_row.embedding as distance
                        from pymem.rules as n
                        where v_type = 'rule' and n.tenant_id = v_tenant and n.scope = v_row.scope
                          and n.forgotten_at is null and n.review_state = 'approved'
                          and n.embedding_model = v_row.embedding_model and n.id <> v_id
                        order by n.embedding operator(public.<=>) v_row.embedding
                        limit 10
                    ) as nn
                    where nn.distance < v_max_distance
                ) as g
                order by g.confidence desc, g.rank2 desc, g.reference_count desc, g.created_at desc, g.id
            loop
                v_members := v_members + 1;
                if v_survivor is null then
                    v_survivor := v_group.id;
                    continue;
                end if;
                perform pymem_private.janitor_merge(v_type, v_tenant, v_survivor, v_group.id,
                                                    v_group.reference_count, v_group.distance);
                v_merged := v_merged + 1;
            end loop;
            exit when v_members <= 1 or v_survivor <> v_id;
        end loop;
    end loop;
    perform pg_catalog.set_config('pymem.reason', coalesce(v_saved_reason, ''), true);
    return query select v_last, v_checked, v_merged, v_checked < v_limit;
end;
$$;

comment on function pymem.memory_janitor_dedup(text, uuid, integer, double precision) is
$$Merges near-duplicate active facts or live rules (type) of the current tenant: for up to "limit" of them with
id > after (in id order), finds the neighbours more than threshold (0.85) cosine-similar in the same scope and
embedding model with the vector index, keeps the best (higher confidence, then importance (rules:
effectiveness_score), then reference_count, then newest, then lowest id) and merges the others into it: facts
become 'superseded', rules get forgotten_at, the survivor links to each ('supersedes' for facts, 'related_to' for
rules) and gets their reference_count added; memory_events records each transition with the reason. Returns the
last id checked (the next call's after), how many were checked and merged, and done when no row is left.
Example: select * from memory_janitor_dedup(type => 'fact', after => null, "limit" => 500);$$;


create or replace function pymem_private.janitor_work()
returns table (
    tenant_id text,
    expired_episodes bigint,
    facts bigint,
    rules bigint
)
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select
        w.tenant_id,
        pg_catalog.sum(w.expired)::bigint as expired_episodes,
        pg_catalog.sum(w.facts)::bigint as facts,
        pg_catalog.sum(w.rules)::bigint as rules
    from (
        select
            e.tenant_id,
            pg_catalog.count(*) filter (
                where e.forgotten_at is null and e.expires_at <= pg_catalog.now() and e.consolidated
            ) as expired,
            0::bigint as facts,
            0::bigint as rules
        from pymem.episodes as e
        group by e.tenant_id
        union all
        select
            f.tenant_id,
            0 as expired,
            pg_catalog.count(*) as facts,
            0 as rules
        from pymem.facts as f
        where f.validity = 'active' and f.embedding is not null
        group by f.tenant_id
        union all
        select
            r.tenant_id,
            0 as expired,
            0 as facts,
            pg_catalog.count(*) as rules
        from pymem.rules as r
        where r.forgotten_at is null and r.embedding is not null
        group by r.tenant_id
    ) as w
    group by w.tenant_id
    order by w.tenant_id;
end;

comment on function pymem_private.janitor_work() is
$$What the janitor has to look at, per tenant: expired, consolidated episodes not yet tombstoned, active facts and live rules
with an embedding. Reads every tenant: an elevated pymem_admin or the migrator.
Example: select * from pymem_private.janitor_work();$$;


create or replace function pymem.memory_janitor_plan(
    batch integer default 500,
    threshold double precision default 0.85,
    tenants text[] default null
)
returns table (
    tenant_id text,
    expired_episodes bigint,
    facts bigint,
    rules bigint
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_batch integer := pymem_private.require_limit('batch', batch);
    v_threshold double precision := pymem_private.require_dedup_threshold(threshold);
begin
    return query
    select w.tenant_id, w.expired_episodes, w.facts, w.rules
    from pymem_private.janitor_work() as w
    where memory_janitor_plan.tenants is null or w.tenant_id = any(memory_janitor_plan.tenants)
    order by w.tenant_id;
end;
$$;

comment on function pymem.memory_janitor_plan(integer, double precision, text[]) is
$$What a janitor run will look at, per tenant (all, or only those in tenants): expired episodes consolidation has
read and not yet tombstoned, active facts and live rules with an embedding. It first checks the run's arguments, so a bad one fails before
anything changes: batch (rows per committed batch of memory_janitor_expire / memory_janitor_dedup) between 1 and
1000, threshold (memory_janitor_dedup) between 0.5 and 1 (PM002). Reads every tenant: an elevated pymem_admin or
the migrator.
Example: select * from pymem.memory_janitor_plan(batch => 500, threshold => 0.85);$$;
