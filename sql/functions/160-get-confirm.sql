-- noqa: disable=RF01
-- memory_get and memory_confirm: one memory by type and id. A memory of another tenant is
-- invisible under RLS, so it is "not found" exactly like an id that never existed.

create or replace function pymem_private.not_found(memory_type text, memory_id uuid)
returns void
language plpgsql
immutable
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    raise exception '% % not found', memory_type, coalesce(memory_id::text, 'NULL')
        using errcode = 'PM003', hint = 'Ids are per tenant: check the type and the id.';
end;
$$;

comment on function pymem_private.not_found(text, uuid) is
'Raises PM003 "<type> <id> not found" (the same for a missing id and for another tenant''s).';


create or replace function pymem.memory_get(type text, id uuid)
returns table (
    memory_type text,
    memory_id uuid,
    content text,
    state text,
    memory_scope text,
    effective_confidence double precision,
    reference_count integer,
    last_referenced_at timestamptz,
    created_at timestamptz,
    record jsonb,
    confidence double precision,
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
    v_type text := pymem_private.require_memory_type('type', type, array['episode', 'fact', 'rule']);
    v_row jsonb;
    v_count integer;
begin
    if id is null then
        perform pymem_private.not_found(v_type, id);
    end if;
    if v_type = 'fact' then
        select pg_catalog.to_jsonb(f) - 'embedding' - 'search_vector'
               || pg_catalog.jsonb_build_object('has_embedding', f.embedding is not null)
          into v_row
          from pymem.facts as f where f.tenant_id = v_tenant and f.id = memory_get.id;
    elsif v_type = 'rule' then
        select pg_catalog.to_jsonb(r) - 'embedding' - 'search_vector'
               || pg_catalog.jsonb_build_object('has_embedding', r.embedding is not null)
          into v_row
          from pymem.rules as r where r.tenant_id = v_tenant and r.id = memory_get.id;
    else
        select pg_catalog.to_jsonb(e) - 'embedding' - 'search_vector'
               || pg_catalog.jsonb_build_object('has_embedding', e.embedding is not null)
          into v_row
          from pymem.episodes as e where e.tenant_id = v_tenant and e.id = memory_get.id;
    end if;
    if v_row is null then
        perform pymem_private.not_found(v_type, id);
    end if;
    v_count := pymem_private.memory_touch(v_type, id);
    if v_count is not null then
        v_row := v_row || pg_catalog.jsonb_build_object(
            'reference_count', v_count, 'last_referenced_at', pg_catalog.now()
        );
    end if;
    return query select
        v_type,
        memory_get.id,
        v_row ->> 'content',
        pymem_private.memory_state(v_type, v_row),
        coalesce(v_row ->> 'scope', v_row ->> 'butler'),
        case when v_type <> 'episode' then pymem.memory_effective_confidence(
            (v_row ->> 'confidence')::double precision, (v_row ->> 'decay_rate')::double precision,
            (v_row ->> 'last_confirmed_at')::timestamptz, pg_catalog.now()
        ) end,
        (v_row ->> 'reference_count')::integer,
        (v_row ->> 'last_referenced_at')::timestamptz,
        (v_row ->> 'created_at')::timestamptz,
        v_row,
        (v_row ->> 'confidence')::double precision,
        p.source_butler,
        p.session_id,
        p.source_episode_id,
        p.source_path,
        p.stored_by
    from pymem_private.memory_provenance(v_tenant, v_type, memory_get.id) as p;
end;
$$;

comment on function pymem.memory_get(text, uuid) is
$$One memory of the tenant by type ('episode', 'fact', 'rule') and id, whatever its state (forgotten and
superseded memories included, for audit), with the full row as `record` (without the embedding); bumps its
reference_count. Provenance beside it: confidence, source_butler, session_id, source_episode_id, source_path and
stored_by (pymem_private.memory_provenance). PM003 when the tenant has no such memory.
Example: select * from memory_get(type => 'fact', id => '00000000-0000-0000-0000-000000000000');$$;


-- Who may approve what was kept for review, and make a rule the agent inferred standing behaviour: someone other
-- than the agent whose memory the text may have poisoned. The agent calls memory_confirm as
-- pymem_app through the MCP server, and its own feedback or confirmation is what a persuasive text obtains; so
-- approving needs a human reviewer: a login bound to the tenant (an analyst in psql), or the application role when
-- the server or the operator's CLI declares one in the transaction-local setting pymem.reviewer (a bearer token with
-- the scope memory:review, `pymem review approve`). The MCP server never sets it for a stdio agent or a token
-- without that scope, and no tool lets an agent set a setting.
create or replace function pymem_private.reviewer()
returns text
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
return (
    case
        -- a bound analyst is named by its login, whatever it sets
        when exists (
            select from pymem_private.role_tenants as t
            where t.role_name = session_user
        ) then session_user::text
        when current_user = 'pymem_app'
            then nullif(pg_catalog.btrim(pg_catalog.current_setting('pymem.reviewer', true)), '')
    end
);

comment on function pymem_private.reviewer() is
$$The human reviewer of the current transaction, or NULL when the caller is not one: a login bound to the tenant
(pymem.memory_bind_role) is named by its login; the application role pymem_app by the transaction-local setting
pymem.reviewer, which the MCP server sets to the token's id for a token with the scope memory:review and
`pymem review approve` to review:<operator>. Recorded as details.reviewer of memory_confirm's event.
Example: begin; set local role pymem_app; select set_config('pymem.reviewer', 'review:alice', true);
select pymem_private.reviewer(); rollback;$$;


create or replace function pymem_private.caller_may_review()
returns boolean
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
return pymem_private.reviewer() is not null;

comment on function pymem_private.caller_may_review() is
$$Whether the caller is a human reviewer (pymem_private.reviewer() is not NULL): a login bound to the tenant, or
pymem_app with the transaction-local setting pymem.reviewer. Only a reviewer may, through memory_confirm, approve a
fact or rule kept for review or set rules.confirmed_at (what makes a rule the agent inferred standing behaviour);
anyone else gets PM008 for the first, and only a reset decay for the second.
Example: select pymem_private.caller_may_review();$$;


create or replace function pymem.memory_confirm(type text, id uuid)
returns table (
    memory_type text,
    memory_id uuid,
    confidence double precision,
    effective_confidence double precision,
    previous_effective_confidence double precision,
    last_confirmed_at timestamptz,
    approved boolean,
    supersedes_id uuid
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_type text := pymem_private.require_memory_type('type', type, array['episode', 'fact', 'rule']);
    v_state text;
    v_confidence double precision;
    v_decay double precision;
    v_previous timestamptz;
    v_approved boolean;
    v_supersedes uuid;
    v_saved_reason text := pg_catalog.current_setting('pymem.reason', true);
    v_reviewer text := pymem_private.reviewer();
    v_review_reason text;
begin
    if v_type = 'episode' then
        raise exception 'episodes cannot be confirmed: they have no confidence that decays'
            using errcode = 'PM002', detail = 'type must be fact or rule';
    end if;
    if id is null then
        perform pymem_private.not_found(v_type, id);
    end if;
    if v_type = 'fact' then
        select f.validity, f.confidence, f.decay_rate, f.last_confirmed_at, f.review_reason
          into v_state, v_confidence, v_decay, v_previous, v_review_reason
          from pymem.facts as f where f.tenant_id = v_tenant and f.id = memory_confirm.id
           for update;
    else
        select case
                   when r.forgotten_at is not null then 'forgotten'
                   when r.review_state = 'pending_review' then 'pending_review'
                   else 'active'
               end,
               r.confidence, r.decay_rate, r.last_confirmed_at, r.review_reason
          into v_state, v_confidence, v_decay, v_previous, v_review_reason
          from pymem.rules as r where r.tenant_id = v_tenant and r.id = memory_confirm.id
           for update;
    end if;
    if v_state is null then
        perform pymem_private.not_found(v_type, id);
    end if;
    if v_state not in ('active', 'pending_review') then
        raise exception 'cannot confirm % %: it is %', v_type, id, v_state
            using errcode = 'PM002',
                  detail = 'only active facts, rules that are not forgotten, and what waits for review can be confirmed';
    end if;
    -- confirming what was kept for review approves it: a fact becomes active (and supersedes the active fact
    -- of its subject and predicate, the facts_supersede trigger's work), a rule is recalled from now on. Only a
    -- reviewer may: what was kept for review came from text that may steer the agent, so the agent's own
    -- confirmation (pymem_app without pymem.reviewer: the MCP tool with an agent's token, or over stdio) is
    -- exactly what such text would ask for
    v_approved := v_state = 'pending_review';
    if v_approved and v_reviewer is null then
        raise exception 'approving what was kept for review needs a reviewer: % % stays kept for review', v_type, id
            using errcode = 'PM008',
                  detail = pg_catalog.format(
                      'kept for review (%s); the agent''s own confirmation does not approve it',
                      coalesce(v_review_reason, 'no reason recorded')
                  ),
                  hint = 'A person approves it: with a bearer token that has the scope memory:review '
                         '(pymem token create --review), with pymem review approve --tenant <tenant> --type '
                         || v_type || ' --id <id>, or as a login bound to the tenant in psql. '
                         'pymem review list shows what waits.';
    end if;
    if v_approved then
        perform pg_catalog.set_config('pymem.reason', 'approved by memory_confirm', true);
    end if;
    if v_type = 'fact' then
        update pymem.facts as f
           set last_confirmed_at = pg_catalog.now(),
               validity = case when v_approved then 'active' else f.validity end
         where f.tenant_id = v_tenant and f.id = memory_confirm.id
        returning f.supersedes_id into v_supersedes;
    else
        -- a reviewer's confirmation is what lets a rule the agent inferred become standing behaviour
        -- (pymem_private.rule_is_standing), which the agent's feedback or confirmation alone does not: anyone
        -- else's confirmation only resets the decay
        update pymem.rules as r
           set last_confirmed_at = pg_catalog.now(),
               confirmed_at = case when v_reviewer is not null then pg_catalog.now() else r.confirmed_at end,
               review_state = case when v_approved then 'approved' else r.review_state end
         where r.tenant_id = v_tenant and r.id = memory_confirm.id;
    end if;
    perform pg_catalog.set_config('pymem.reason', coalesce(v_saved_reason, ''), true);
    insert into pymem.memory_events (memory_type, memory_id, operation, from_state, to_state, details)
    values (
        v_type, id, 'confirm', v_state, case when v_approved then 'active' else v_state end,
        pg_catalog.jsonb_build_object(
            'previous_last_confirmed_at', v_previous,
            'previous_effective_confidence',
            pymem.memory_effective_confidence(v_confidence, v_decay, v_previous, pg_catalog.now()),
            'reviewer', v_reviewer
        )
    );
    return query select
        v_type, memory_confirm.id, v_confidence, v_confidence,
        pymem.memory_effective_confidence(v_confidence, v_decay, v_previous, pg_catalog.now()),
        pg_catalog.now(), v_approved, v_supersedes;
end;
$$;

comment on function pymem.memory_confirm(text, uuid) is
$$Confirms that an active fact or rule still holds: last_confirmed_at = now(), which resets its decay so its
effective confidence equals its stored confidence again; writes a 'confirm' event. Confirming a fact or rule kept
for review (validity or review_state 'pending_review') approves it (approved true): recall, search and context
return it from now on, and an approved fact supersedes the active fact of its subject and predicate
(supersedes_id). Approving needs a reviewer (pymem_private.caller_may_review: a login bound to the tenant, or
pymem_app with the setting pymem.reviewer, which a token with the scope memory:review and pymem review approve set);
anyone else gets PM008 and nothing changes. A reviewer's confirmation of a rule also records confirmed_at: a rule the
agent inferred (consolidation's) is in the System block of memory_context only once a reviewer confirmed it
(pymem_private.rule_is_standing); anyone else's confirmation only resets the decay. The 'confirm' event names the
reviewer (details.reviewer, NULL for anyone else). Episodes are rejected (PM002: they do not decay); PM003 when the
tenant has no such memory.
Example: select * from memory_confirm(type => 'fact', id => '00000000-0000-0000-0000-000000000000');$$;
