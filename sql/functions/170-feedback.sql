-- noqa: disable=RF01
-- Rule feedback: helpful and harmful outcomes update the counts, the effectiveness score
-- and the maturity (pymem.memory_rule_maturity), and each is written to memory_events. Feedback alone does
-- not make a rule the agent inferred standing behaviour (pymem_private.rule_is_standing): memory_confirm does.

create or replace function pymem_private.rule_is_standing(maturity text, source text, confirmed_at timestamptz)
returns boolean
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
-- feedback comes from the agent, so feedback alone never makes standing behaviour of what the agent inferred
-- (consolidation's rules, source 'agent_inference') or of text that was kept for review (approved only by
-- memory_confirm, which sets confirmed_at): someone other than the text itself must have confirmed it
return (
    coalesce(rule_is_standing.maturity in ('proven', 'established'), false)
    and (rule_is_standing.confirmed_at is not null or rule_is_standing.source is distinct from 'agent_inference')
);

comment on function pymem_private.rule_is_standing(text, text, timestamptz) is
$$Whether a rule is standing behaviour, in the System block of memory_context whatever the prompt: proven or
established by feedback (memory_mark_helpful) and, when the agent inferred it (source 'agent_inference': what
consolidation stores), explicitly confirmed (confirmed_at, set by memory_confirm). A rule kept for review is
approved only by memory_confirm, so it too is confirmed before it stands. A rule stored as the user's statement,
an observation, an import or without provenance stands on feedback alone, as before.
Example: select pymem_private.rule_is_standing('established', 'agent_inference', null);$$;

create or replace function pymem_private.rule_feedback(p_rule_id uuid, p_feedback text, p_reason text)
returns table (
    memory_id uuid,
    maturity text,
    previous_maturity text,
    confidence double precision,
    effectiveness_score double precision,
    success_count integer,
    harmful_count integer,
    applied_count integer,
    last_applied_at timestamptz
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_rule pymem.rules%rowtype;
    v_success integer;
    v_harmful integer;
    v_maturity text;
    v_effectiveness double precision;
begin
    if p_reason is not null and pg_catalog.length(p_reason) > 2000 then
        raise exception 'reason is too long (% characters; at most 2000)', pg_catalog.length(p_reason)
            using errcode = 'PM002';
    end if;
    if p_rule_id is not null then
        select * into v_rule from pymem.rules as r
         where r.tenant_id = v_tenant and r.id = p_rule_id
           for update;
    end if;
    if v_rule.id is null then
        perform pymem_private.not_found('rule', p_rule_id);
    end if;
    if v_rule.forgotten_at is not null then
        raise exception 'rule % is forgotten and takes no feedback', p_rule_id using errcode = 'PM002';
    end if;
    v_success := v_rule.success_count + case when p_feedback = 'helpful' then 1 else 0 end;
    v_harmful := v_rule.harmful_count + case when p_feedback = 'harmful' then 1 else 0 end;
    v_effectiveness := pymem.memory_effectiveness(v_success, v_harmful);
    v_maturity := pymem.memory_rule_maturity(v_rule.maturity, v_success, v_harmful, p_feedback);
    update pymem.rules as r
       set success_count = v_success,
           harmful_count = v_harmful,
           applied_count = r.applied_count + 1,
           effectiveness_score = v_effectiveness,
           maturity = v_maturity,
           confidence = case
               when v_maturity <> v_rule.maturity then pymem.memory_rule_confidence(v_maturity) else r.confidence
           end,
           last_applied_at = pg_catalog.now(),
           last_evaluated_at = pg_catalog.now(),
           -- a helpful outcome is evidence that the rule still holds: its decay starts over
           last_confirmed_at = case when p_feedback = 'helpful' then pg_catalog.now() else r.last_confirmed_at end,
           metadata = case
               when p_feedback = 'harmful' and p_reason is not null
                   then pg_catalog.jsonb_set(
                       r.metadata, '{harmful_reasons}',
                       coalesce(r.metadata -> 'harmful_reasons', '[]'::jsonb)
                       || pg_catalog.jsonb_build_array(
                           pg_catalog.jsonb_build_object('reason', p_reason, 'at', pg_catalog.now())
                       )
                   )
               else r.metadata
           end
     where r.tenant_id = v_tenant and r.id = p_rule_id;
    insert into pymem.memory_events (memory_type, memory_id, operation, from_state, to_state, details)
    values (
        'rule', p_rule_id, 'feedback', v_rule.maturity, v_maturity,
        pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
            'feedback', p_feedback, 'reason', p_reason, 'success_count', v_success, 'harmful_count', v_harmful,
            'effectiveness_score', v_effectiveness
        ))
    );
    return query
    select r.id, r.maturity, v_rule.maturity, r.confidence, r.effectiveness_score, r.success_count,
           r.harmful_count, r.applied_count, r.last_applied_at
      from pymem.rules as r
     where r.tenant_id = v_tenant and r.id = p_rule_id;
end;
$$;

comment on function pymem_private.rule_feedback(uuid, text, text) is
$$Applies one helpful or harmful outcome to a rule: counts, effectiveness = success / (success + 4*harmful + 0.01),
maturity (pymem.memory_rule_maturity) and the confidence of the new maturity, a 'feedback' event.$$;


create or replace function pymem.memory_mark_helpful(rule_id uuid)
returns table (
    memory_id uuid,
    maturity text,
    previous_maturity text,
    confidence double precision,
    effectiveness_score double precision,
    success_count integer,
    harmful_count integer,
    applied_count integer,
    last_applied_at timestamptz
)
language sql
volatile
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select * from pymem_private.rule_feedback(memory_mark_helpful.rule_id, 'helpful', null);
end;

comment on function pymem.memory_mark_helpful(uuid) is
$$Records that applying a rule helped: success_count and applied_count + 1, effectiveness recomputed, decay
restarted (last_confirmed_at = now()); maturity may be promoted one step (candidate -> established at 5 successes
and effectiveness >= 0.6; established -> proven at 15 and >= 0.8). PM003 for an unknown rule.
Example: select * from memory_mark_helpful(rule_id => '00000000-0000-0000-0000-000000000000');$$;


create or replace function pymem.memory_mark_harmful(rule_id uuid, reason text default null)
returns table (
    memory_id uuid,
    maturity text,
    previous_maturity text,
    confidence double precision,
    effectiveness_score double precision,
    success_count integer,
    harmful_count integer,
    applied_count integer,
    last_applied_at timestamptz
)
language sql
volatile
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select * from pymem_private.rule_feedback(memory_mark_harmful.rule_id, 'harmful', memory_mark_harmful.reason);
end;

comment on function pymem.memory_mark_harmful(uuid, text) is
$$Records that applying a rule did harm: harmful_count and applied_count + 1, effectiveness recomputed (a harmful
outcome weighs 4), the reason kept in metadata.harmful_reasons; maturity may be demoted one step, and a rule with
3+ harmful outcomes and effectiveness < 0.3 becomes an anti_pattern (kept and recalled as a warning).
Example: select * from memory_mark_harmful(rule_id => '00000000-0000-0000-0000-000000000000',
reason => 'caused incorrect response');$$;
