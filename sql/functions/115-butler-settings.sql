-- noqa: disable=RF01
-- Butler settings: what a butler.toml says, kept per tenant and butler in pymem.butler_settings and
-- read by the functions that rank (memory_recall, memory_store_episode, memory_context_*). The value
-- ranges are defined here, once; the Python wrapper only reads the operator's files and maps errors.

create or replace function pymem_private.require_token_budget(argument text, value bigint)
returns integer
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if value is null or value < 1 or value > 100000 then
        raise exception '% must be between 1 and 100000, not %', argument, coalesce(value::text, 'NULL')
            using errcode = 'PM002', hint = 'A token budget counts MiniLM tokens; the default is 3000.';
    end if;
    return value;
end;
$$;

comment on function pymem_private.require_token_budget(text, bigint) is
'Returns value, or raises PM002 when a token budget is NULL or outside 1..100000 (the one place this limit is defined).';


create or replace function pymem_private.butler_defaults(tenant_id text, butler text)
returns pymem.butler_settings
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return row(
    butler_defaults.tenant_id, butler_defaults.butler, butler_defaults.butler,
    0.4, 0.3, 0.2, 0.1,
    interval '7 days',
    3000,
    null, null,
    0.15, 0.25, 0.2, 0.4,
    10, 10, 10, 20,
    null,
    null,
    null
)::pymem.butler_settings;

comment on function pymem_private.butler_defaults(text, text) is
$$The settings of a butler without a row: scope = its name, weights 0.4/0.3/0.2/0.1, episodes live 7 days,
context budget 3000 tokens shared 0.15/0.25/0.2/0.4 by the System/Project/History/Knowledge blocks, at most
10/10/10/20 candidates each, the relevance model's default floor (min_relevance NULL), the default focus check
(min_focus NULL) and the default floor bypass (floor_bypass NULL).$$;


create or replace function pymem_private.butler_settings_for(tenant_id text, butler text)
returns pymem.butler_settings
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select coalesce(
        (
            select s from pymem.butler_settings as s
            where s.tenant_id = butler_settings_for.tenant_id and s.butler = butler_settings_for.butler
        ),
        pymem_private.butler_defaults(butler_settings_for.tenant_id, butler_settings_for.butler)
    );
end;

comment on function pymem_private.butler_settings_for(text, text) is
'The settings row of the butler in the tenant, else its defaults (pymem_private.butler_defaults); NULL butler: the defaults.';


create or replace function pymem.memory_butler_configure(
    butler text,
    scope text default null,
    w_relevance double precision default 0.4,
    w_importance double precision default 0.3,
    w_recency double precision default 0.2,
    w_confidence double precision default 0.1,
    episode_ttl_days double precision default 7,
    context_token_budget bigint default 3000,
    quota_system double precision default 0.15,
    quota_project double precision default 0.25,
    quota_history double precision default 0.2,
    quota_knowledge double precision default 0.4,
    max_system bigint default 10,
    max_project bigint default 10,
    max_history bigint default 10,
    max_knowledge bigint default 20,
    source text default null,
    min_relevance double precision default null,
    min_focus double precision default null,
    floor_bypass double precision default null
)
returns setof pymem.butler_settings
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_scope text := coalesce(scope, butler);
begin
    perform pymem_private.require_text('butler', butler, 100);
    if butler !~ '^[A-Za-z0-9][A-Za-z0-9_.-]*$' or strpos(butler, '..') > 0 then
        raise exception 'invalid butler name %', pg_catalog.quote_literal(butler)
            using errcode = 'PM002',
            hint = 'Use 1-100 letters, digits, ''_'', ''-'' or ''.'', starting with a letter or digit, without ''..''.';
    end if;
    perform pymem_private.require_text('scope', v_scope, 200);
    perform pymem_private.require_range('score_weights.relevance', w_relevance, 0, 1000);
    perform pymem_private.require_range('score_weights.importance', w_importance, 0, 1000);
    perform pymem_private.require_range('score_weights.recency', w_recency, 0, 1000);
    perform pymem_private.require_range('score_weights.confidence', w_confidence, 0, 1000);
    if w_relevance + w_importance + w_recency + w_confidence = 0 then
        raise exception 'score_weights must not all be 0'
            using errcode = 'PM002', detail = 'memory_recall divides by their sum.';
    end if;
    if episode_ttl_days is null or episode_ttl_days <= 0 or episode_ttl_days > 36500 or episode_ttl_days = 'NaN' then
        raise exception 'episode_ttl_days must be > 0 and <= 36500, not %', coalesce(episode_ttl_days::text, 'NULL')
            using errcode = 'PM002';
    end if;
    perform pymem_private.require_token_budget('context.token_budget', context_token_budget);
    perform pymem_private.require_range('context.quotas.system', quota_system, 0, 1);
    perform pymem_private.require_range('context.quotas.project', quota_project, 0, 1);
    perform pymem_private.require_range('context.quotas.history', quota_history, 0, 1);
    perform pymem_private.require_range('context.quotas.knowledge', quota_knowledge, 0, 1);
    if quota_system + quota_project + quota_history + quota_knowledge > 1 + 1e-9 then
        raise exception 'context.quotas must sum to at most 1, not % (system % + project % + history % + knowledge %)',
            round((quota_system + quota_project + quota_history + quota_knowledge)::numeric, 6), quota_system,
            quota_project, quota_history, quota_knowledge
            using errcode = 'PM002', hint = 'They are shares of the token budget; the Task block counts with the headers.';
    end if;
    perform pymem_private.require_section_limit('context.max_items.system', max_system);
    perform pymem_private.require_section_limit('context.max_items.project', max_project);
    perform pymem_private.require_section_limit('context.max_items.history', max_history);
    perform pymem_private.require_section_limit('context.max_items.knowledge', max_knowledge);
    if min_relevance is not null then
        perform pymem_private.require_range('min_relevance', min_relevance, 0, 1);
    end if;
    if min_focus is not null then
        perform pymem_private.require_range('min_focus', min_focus, 0, 1);
    end if;
    if floor_bypass is not null then
        perform pymem_private.require_range('floor_bypass', floor_bypass, 0, 1);
    end if;

    return query
    insert into pymem.butler_settings as s (
        tenant_id, butler, scope, w_relevance, w_importance, w_recency, w_confidence, episode_ttl,
        context_token_budget, quota_system, quota_project, quota_history, quota_knowledge, max_system, max_project,
        max_history, max_knowledge, source, updated_at, min_relevance, min_focus, floor_bypass
    ) values (
        v_tenant, butler, v_scope, w_relevance, w_importance, w_recency, w_confidence,
        pg_catalog.make_interval(secs => episode_ttl_days * 86400),
        context_token_budget, quota_system, quota_project, quota_history, quota_knowledge, max_system, max_project,
        max_history, max_knowledge, source, pg_catalog.now(), min_relevance, min_focus, floor_bypass
    )
    on conflict on constraint butler_settings_pkey do update set
        scope = excluded.scope,
        w_relevance = excluded.w_relevance,
        w_importance = excluded.w_importance,
        w_recency = excluded.w_recency,
        w_confidence = excluded.w_confidence,
        episode_ttl = excluded.episode_ttl,
        context_token_budget = excluded.context_token_budget,
        quota_system = excluded.quota_system,
        quota_project = excluded.quota_project,
        quota_history = excluded.quota_history,
        quota_knowledge = excluded.quota_knowledge,
        max_system = excluded.max_system,
        max_project = excluded.max_project,
        max_history = excluded.max_history,
        max_knowledge = excluded.max_knowledge,
        source = excluded.source,
        updated_at = excluded.updated_at,
        min_relevance = excluded.min_relevance,
        min_focus = excluded.min_focus,
        floor_bypass = excluded.floor_bypass
    returning s.*;
end;
$$;

comment on function pymem.memory_butler_configure(
    text, text, double precision, double precision, double precision, double precision, double precision,
    bigint, double precision, double precision, double precision, double precision, bigint, bigint, bigint, bigint, text,
    double precision, double precision, double precision
) is
$$Sets every setting of a butler in the current tenant (what its butler.toml says; an argument left out
takes its default) and returns the row. Ranges: weights 0..1000, not all 0; episode_ttl_days in (0, 36500];
context_token_budget 1..100000; the blocks' quotas (system, project, history, knowledge) 0..1 summing to at most
1; max_* 0..1000; min_relevance, the relevance floor of the butler's recall and context, 0..1 (NULL: the relevance
model's default_floor); min_focus, the focus check of the butler's recall, 0..1 (NULL: 0.225; 0 off); floor_bypass,
the cosine to the topic at which a memory passes the floor whatever its relevance, 0..1 (NULL: 0.3; 1 off). memory_recall with
scope => butler, memory_store_episode with butler => butler and memory_context_* for the butler read it.
Example: select butler, scope, w_relevance from memory_butler_configure(butler => 'health', w_relevance => 0.7);$$;


create or replace function pymem.memory_butler_remove(butler text)
returns boolean
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    perform pymem_private.tenant_for_write();
    perform pymem_private.require_text('butler', butler, 100);
    -- as the owner: pymem_app holds no DELETE privilege (it would let it LOCK the table; 004-tenant-writes.sql)
    return pymem_private.delete_butler_settings(memory_butler_remove.butler);
end;
$$;

comment on function pymem.memory_butler_remove(text) is
$$Removes a butler's settings row in the current tenant (it then has the defaults); true when there was one.
Example: select memory_butler_remove('health');$$;


create or replace function pymem.memory_butler_settings(name text default null)
returns table (
    butler text,
    configured boolean,
    scope text,
    w_relevance double precision,
    w_importance double precision,
    w_recency double precision,
    w_confidence double precision,
    episode_ttl interval,
    context_token_budget integer,
    quota_system double precision,
    quota_project double precision,
    quota_history double precision,
    quota_knowledge double precision,
    max_system integer,
    max_project integer,
    max_history integer,
    max_knowledge integer,
    source text,
    updated_at timestamptz,
    min_relevance double precision,
    min_focus double precision,
    floor_bypass double precision
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_settings pymem.butler_settings;
begin
    if memory_butler_settings.name is not null then
        -- 200, the butler limit of memory_store_episode and memory_context_candidates (pymem.limits.BUTLER): a
        -- configured butler's name has at most 100 (a file name), a longer one reads the defaults. With 100,
        -- memory_context for a butler of 101-200 characters failed with "name is too long"
        perform pymem_private.require_text('name', memory_butler_settings.name, 200);
        v_settings := pymem_private.butler_settings_for(v_tenant, memory_butler_settings.name);
        return query select
            v_settings.butler, v_settings.updated_at is not null, v_settings.scope,
            v_settings.w_relevance, v_settings.w_importance, v_settings.w_recency, v_settings.w_confidence,
            v_settings.episode_ttl, v_settings.context_token_budget,
            v_settings.quota_system, v_settings.quota_project, v_settings.quota_history, v_settings.quota_knowledge,
            v_settings.max_system, v_settings.max_project, v_settings.max_history, v_settings.max_knowledge,
            v_settings.source, v_settings.updated_at, v_settings.min_relevance, v_settings.min_focus,
            v_settings.floor_bypass;
        return;
    end if;
    return query select
        s.butler, true, s.scope, s.w_relevance, s.w_importance, s.w_recency, s.w_confidence, s.episode_ttl,
        s.context_token_budget, s.quota_system, s.quota_project, s.quota_history, s.quota_knowledge, s.max_system,
        s.max_project, s.max_history, s.max_knowledge, s.source, s.updated_at, s.min_relevance, s.min_focus,
        s.floor_bypass
    from pymem.butler_settings as s
    where s.tenant_id = v_tenant
    order by s.butler;
end;
$$;

comment on function pymem.memory_butler_settings(text) is
$$The settings in force for a butler of the current tenant (configured = false: the defaults), or, without
a butler, every configured butler. min_relevance NULL: the relevance model's default floor; min_focus NULL: the
default focus check (0.225); floor_bypass NULL: the default floor bypass (0.3).
Example: select butler, scope, w_relevance, w_importance, episode_ttl from memory_butler_settings('health');$$;
