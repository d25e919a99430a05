-- noqa: disable=RF01
-- The reads of the web dashboard (`pymem dashboard`, pymem/dashboard/): a filtered page of memories, a fact's
-- supersession chain, the decay of a memory's effective confidence over time, the rules by maturity with their
-- feedback, and the audit trail of one memory. Each reads only the current tenant (security invoker: RLS applies),
-- bumps no reference and writes nothing; a psql analyst gets the same rows the dashboard shows.

create or replace function pymem.memory_browse(
    type text default null,
    scope text default null,
    butler text default null,
    tag text default null,
    state text default null,
    "limit" integer default 50,
    "offset" integer default 0
)
returns table (
    memory_type text,
    memory_id uuid,
    short_id text,
    content text,
    memory_state text,
    memory_scope text,
    source_butler text,
    tags text[],
    importance double precision,
    confidence double precision,
    effective_confidence double precision,
    subject text,
    predicate text,
    maturity text,
    created_at timestamptz,
    total bigint
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
    if memory_browse.type is not null then
        perform pymem_private.require_memory_type('type', memory_browse.type, array['episode', 'fact', 'rule']);
    end if;
    if memory_browse.scope is not null then
        perform pymem_private.require_text('scope', memory_browse.scope, 200);
    end if;
    if memory_browse.butler is not null then
        perform pymem_private.require_text('butler', memory_browse.butler, 200);
    end if;
    if memory_browse.tag is not null then
        perform pymem_private.require_text('tag', memory_browse.tag, 200);
    end if;
    if memory_browse.state is not null then
        perform pymem_private.require_memory_type('state', memory_browse.state, array[
            'active', 'consolidated', 'forgotten', 'pending_review', 'superseded', 'retracted', 'expired',
            'candidate', 'established', 'proven', 'anti_pattern'
        ]);
    end if;
    if "offset" is null or "offset" < 0 or "offset" > 1000000 then
        raise exception 'offset must be between 0 and 1000000, not %', coalesce("offset"::text, 'NULL')
            using errcode = 'PM002';
    end if;
    return query
    with
    listed as (
        select
            'fact'::text as kind, f.id, f.content, f.scope as in_scope, f.source_butler as by_butler, f.tags,
            f.importance, f.confidence, f.decay_rate, f.last_confirmed_at, f.subject, f.predicate,
            null::text as maturity, f.created_at,
            pymem_private.memory_state('fact', pg_catalog.jsonb_build_object('validity', f.validity)) as st
        from pymem.facts as f
        where f.tenant_id = v_tenant and coalesce(memory_browse.type, 'fact') = 'fact'
          and (memory_browse.scope is null or f.scope = memory_browse.scope)
          and (memory_browse.butler is null or f.source_butler = memory_browse.butler)
          and (memory_browse.tag is null or f.tags @> pg_catalog.jsonb_build_array(memory_browse.tag))
        union all
        select
            'rule', r.id, r.content, r.scope, r.source_butler, r.tags, null, r.confidence, r.decay_rate,
            r.last_confirmed_at, null, null, r.maturity, r.created_at,
            pymem_private.memory_state('rule', pg_catalog.jsonb_build_object(
                'forgotten_at', r.forgotten_at, 'review_state', r.review_state, 'maturity', r.maturity
            ))
        from pymem.rules as r
        where r.tenant_id = v_tenant and coalesce(memory_browse.type, 'rule') = 'rule'
          and (memory_browse.scope is null or r.scope = memory_browse.scope)
          and (memory_browse.butler is null or r.source_butler = memory_browse.butler)
          and (memory_browse.tag is null or r.tags @> pg_catalog.jsonb_build_array(memory_browse.tag))
        union all
        -- an episode has no scope and no tags: its scope is its butler (as memory_get and memory_stats say)
        select
            'episode', e.id, e.content, e.butler, e.butler, null, e.importance, null, null, null, null, null, null,
            e.created_at,
            pymem_private.memory_state('episode', pg_catalog.jsonb_build_object(
                'forgotten_at', e.forgotten_at, 'consolidated', e.consolidated
            ))
        from pymem.episodes as e
        where e.tenant_id = v_tenant and coalesce(memory_browse.type, 'episode') = 'episode'
          and (memory_browse.scope is null or e.butler = memory_browse.scope)
          and (memory_browse.butler is null or e.butler = memory_browse.butler)
          and memory_browse.tag is null
    ),
    page as (
        select l.*, pg_catalog.count(*) over () as matching
        from listed as l
        where memory_browse.state is null or l.st = memory_browse.state
        order by l.created_at desc, l.id
        limit v_limit offset "offset"
    )
    select
        p.kind, p.id, pg_catalog.left(p.id::text, 8), p.content, p.st, p.in_scope, p.by_butler,
        coalesce(array(select pg_catalog.jsonb_array_elements_text(p.tags)), '{}'), p.importance, p.confidence,
        case when p.kind <> 'episode' then pymem.memory_effective_confidence(
            p.confidence, p.decay_rate, p.last_confirmed_at, pg_catalog.now()
        ) end,
        p.subject, p.predicate, p.maturity, p.created_at, p.matching
    from page as p
    order by p.created_at desc, p.id;
end;
$$;

comment on function pymem.memory_browse(text, text, text, text, text, integer, integer) is
$$A page of the tenant's memories, newest first (ties: id), whatever their state, filtered by type ('episode',
'fact', 'rule'), scope (an episode's scope is its butler), butler (source_butler; an episode's butler), tag (facts
and rules) and state (pymem_private.memory_state: active, consolidated, forgotten, pending_review, superseded,
retracted, expired, candidate, established, proven, anti_pattern); each filter left NULL matches everything.
effective_confidence = confidence * exp(-decay_rate * days since last_confirmed_at) now (pymem.memory_effective_confidence;
NULL for episodes). total: how many memories match the filters ("limit" 1..1000, "offset" 0..1000000: the page).
Nothing is bumped. What the dashboard's memory browser shows.
Example: select memory_type, short_id, memory_state, content, total from memory_browse(type => 'fact', tag => 'diet', "limit" => 20);$$;


create or replace function pymem.memory_fact_history(id uuid)
returns table (
    step integer,
    memory_id uuid,
    short_id text,
    subject text,
    predicate text,
    content text,
    validity text,
    confidence double precision,
    effective_confidence double precision,
    supersedes_id uuid,
    created_at timestamptz,
    last_confirmed_at timestamptz,
    invalidated_at timestamptz,
    requested boolean
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
    if not exists (
        select from pymem.facts as f where f.tenant_id = v_tenant and f.id = memory_fact_history.id
    ) then
        perform pymem_private.not_found('fact', memory_fact_history.id);
    end if;
    return query
    with recursive
    -- the facts this one superseded, step by step back (step < 0), and those that superseded it (step > 0);
    -- a chain is at most 1000 steps each way
    older (fid, step) as (
        select f.supersedes_id, -1
        from pymem.facts as f
        where f.tenant_id = v_tenant and f.id = memory_fact_history.id and f.supersedes_id is not null
        union all
        select f.supersedes_id, o.step - 1
        from older as o
        inner join pymem.facts as f on f.tenant_id = v_tenant and o.fid = f.id
        where f.supersedes_id is not null and o.step > -1000
    ),
    newer (fid, step) as (
        select f.id, 1
        from pymem.facts as f
        where f.tenant_id = v_tenant and f.supersedes_id = memory_fact_history.id
        union all
        select f.id, n.step + 1
        from newer as n
        inner join pymem.facts as f on f.tenant_id = v_tenant and n.fid = f.supersedes_id
        where n.step < 1000
    ),
    chain as (
        select memory_fact_history.id as fid, 0 as step
        union all
        select o.fid, o.step from older as o
        union all
        select n.fid, n.step from newer as n
    )
    select
        c.step,
        f.id, pg_catalog.left(f.id::text, 8), f.subject, f.predicate, f.content, f.validity, f.confidence,
        pymem.memory_effective_confidence(f.confidence, f.decay_rate, f.last_confirmed_at, pg_catalog.now()),
        f.supersedes_id, f.created_at, f.last_confirmed_at, f.invalidated_at, c.step = 0
    from chain as c
    inner join pymem.facts as f on f.tenant_id = v_tenant and c.fid = f.id
    order by c.step, f.created_at, f.id;
end;
$$;

comment on function pymem.memory_fact_history(uuid) is
$$The supersession chain of a fact of the tenant, oldest first: the facts it superseded (supersedes_id, step by
step back: step -1, -2, ...), itself (step 0, requested = true) and the facts that superseded it (step 1, 2, ...), each with its validity, confidence and
effective confidence now (pymem.memory_effective_confidence), when it was stored and when it stopped holding
(invalidated_at). PM003 when the tenant has no such fact. Nothing is bumped.
Example: select step, short_id, validity, content, created_at, invalidated_at from memory_fact_history('00000000-0000-0000-0000-000000000000');$$;


create or replace function pymem.memory_confidence_curve(
    type text,
    id uuid,
    days double precision default 90,
    points integer default 61,
    min_confidence double precision default 0.2
)
returns table (
    at timestamptz,
    day double precision,
    effective_confidence double precision,
    recallable boolean,
    future boolean
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_type text := pymem_private.require_memory_type('type', type, array['fact', 'rule']);
    v_confidence double precision;
    v_decay double precision;
    v_since timestamptz;
    v_until timestamptz;
    v_end timestamptz;
    v_reviewed boolean;
begin
    perform pymem_private.require_range('days', days, 0, 36500);
    perform pymem_private.require_range('min_confidence', min_confidence, 0, 1);
    if points is null or points < 2 or points > 1000 then
        raise exception 'points must be between 2 and 1000, not %', coalesce(points::text, 'NULL')
            using errcode = 'PM002';
    end if;
    -- recall leaves out a memory kept for review, and a fact or rule from the moment it stopped being valid
    if v_type = 'fact' then
        select f.confidence, f.decay_rate, f.last_confirmed_at, f.invalidated_at, f.validity <> 'pending_review'
          into v_confidence, v_decay, v_since, v_end, v_reviewed
          from pymem.facts as f where f.tenant_id = v_tenant and f.id = memory_confidence_curve.id;
    else
        select r.confidence, r.decay_rate, r.last_confirmed_at, r.forgotten_at, r.review_state = 'approved'
          into v_confidence, v_decay, v_since, v_end, v_reviewed
          from pymem.rules as r where r.tenant_id = v_tenant and r.id = memory_confidence_curve.id;
    end if;
    if v_since is null then
        perform pymem_private.not_found(v_type, memory_confidence_curve.id);
    end if;
    v_since := least(v_since, pg_catalog.now());
    v_until := pg_catalog.now() + pg_catalog.make_interval(secs => days * 86400);
    return query
    select
        s.t,
        extract(epoch from s.t - v_since)::double precision / 86400,
        s.c,
        s.c >= min_confidence and v_reviewed and (v_end is null or s.t < v_end),
        s.t > pg_catalog.now()
    from (
        select
            v_since + (v_until - v_since) * (g.n::double precision / (points - 1)) as t,
            pymem.memory_effective_confidence(
                v_confidence, v_decay, v_since, v_since + (v_until - v_since) * (g.n::double precision / (points - 1))
            ) as c
        from pg_catalog.generate_series(0, points - 1) as g (n)
    ) as s
    order by s.t;
end;
$$;

comment on function pymem.memory_confidence_curve(text, uuid, double precision, integer, double precision) is
$$The decay of a fact's or rule's effective confidence, sampled at `points` evenly spaced moments (2..1000) from its
last confirmation (the start of its decay clock) to `days` days from now (0..36500):
effective_confidence = confidence * exp(-decay_rate * days since last_confirmed_at) (pymem.memory_effective_confidence,
the formula recall uses); day = days since the last confirmation; recallable: at least min_confidence (recall's
default 0.2, below which recall leaves it out until it is confirmed), not kept for review, and before the moment
the fact was superseded or retracted (invalidated_at) or the rule forgotten; future: after now. PM003 when the tenant has
no such memory. The dashboard draws it as a chart.
Example: select day, effective_confidence, recallable from memory_confidence_curve('fact', '00000000-0000-0000-0000-000000000000', days => 180, points => 10);$$;


create or replace function pymem.memory_rules_by_maturity(
    include_forgotten boolean default false,
    "limit" integer default 200
)
returns table (
    memory_id uuid,
    short_id text,
    content text,
    maturity text,
    memory_state text,
    memory_scope text,
    source text,
    confidence double precision,
    effective_confidence double precision,
    effectiveness_score double precision,
    applied_count integer,
    helpful integer,
    harmful integer,
    last_applied_at timestamptz,
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
    select
        r.id, pg_catalog.left(r.id::text, 8), r.content, r.maturity,
        pymem_private.memory_state('rule', pg_catalog.jsonb_build_object(
            'forgotten_at', r.forgotten_at, 'review_state', r.review_state, 'maturity', r.maturity
        )),
        r.scope, r.source, r.confidence,
        pymem.memory_effective_confidence(r.confidence, r.decay_rate, r.last_confirmed_at, pg_catalog.now()),
        r.effectiveness_score, r.applied_count, r.success_count, r.harmful_count, r.last_applied_at, r.created_at
    from pymem.rules as r
    where r.tenant_id = v_tenant and (coalesce(include_forgotten, false) or r.forgotten_at is null)
    order by
        pg_catalog.array_position(array['proven', 'established', 'candidate', 'anti_pattern'], r.maturity),
        r.effectiveness_score desc nulls last, r.created_at desc, r.id
    limit v_limit;
end;
$$;

comment on function pymem.memory_rules_by_maturity(boolean, integer) is
$$The tenant's rules by maturity (proven, established, candidate, anti_pattern), then by effectiveness (highest
first), created_at DESC, id: with their feedback, helpful (success_count) and harmful (harmful_count) as
memory_mark_helpful and memory_mark_harmful counted them, applied_count, effectiveness_score
(success / (success + 4*harmful + 0.01)), confidence and effective confidence now. Forgotten rules only with
include_forgotten. At most "limit" rules (1..1000, default 200). Nothing is bumped.
Example: select maturity, helpful, harmful, effectiveness_score, content from memory_rules_by_maturity();$$;


create or replace function pymem.memory_audit_trail(type text, id uuid, "limit" integer default 200)
returns table (
    event_id bigint,
    occurred_at timestamptz,
    operation text,
    from_state text,
    to_state text,
    actor text,
    db_role text,
    session_role text,
    details jsonb
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_type text := pymem_private.require_memory_type('type', type, array['episode', 'fact', 'rule']);
    v_limit integer := pymem_private.require_limit('limit', "limit");
begin
    if memory_audit_trail.id is null then
        perform pymem_private.not_found(v_type, memory_audit_trail.id);
    end if;
    return query
    select e.id, e.occurred_at, e.operation, e.from_state, e.to_state, e.actor, e.db_role, e.session_role, e.details
    from pymem.memory_events as e
    where e.tenant_id = v_tenant and e.memory_type = v_type and e.memory_id = memory_audit_trail.id
    order by e.occurred_at, e.id
    limit v_limit;
end;
$$;

comment on function pymem.memory_audit_trail(text, uuid, integer) is
$$The audit trail of one memory of the tenant (pymem.memory_events), oldest first (ties: event id): each state
transition (insert, update, delete: from_state -> to_state), feedback and confirmation, with who did it (actor: the
caller the server named, db_role, session_role) and its details (a fact's subject and predicate, supersedes_id,
a reason). At most "limit" events (1..1000, default 200). No row for a memory without events (or of another tenant).
Example: select occurred_at, operation, from_state, to_state, actor from memory_audit_trail('fact', '00000000-0000-0000-0000-000000000000');$$;
