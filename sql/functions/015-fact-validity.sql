-- Fact validity: 'forgotten' is accepted as an alias of the canonical 'retracted', and
-- invalidated_at records when a fact stopped being believed, so that a fact is valid in
-- [created_at, invalidated_at) and memory_recall(..., as_of => t) can answer for time t.

create or replace function pymem_private.maintain_fact_validity()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
-- its lookups by key planned once, generically: a session left to choose plans them on every row (a generic
-- plan's estimate counts every partition of the memory tables), ~0.3 ms a row (issue 31)
set plan_cache_mode = force_generic_plan
as $$
begin
    if new.validity = 'forgotten' then
        new.validity := 'retracted';
    end if;
    if new.validity = 'active' then
        new.invalidated_at := null;
    elsif tg_op = 'INSERT' then
        new.invalidated_at := coalesce(new.invalidated_at, new.created_at);
    elsif old.validity = 'active' then
        -- now, unless the update says when (supersession by a fact observed in the past); never before the fact
        -- was, never after now
        new.invalidated_at := greatest(
            new.created_at, least(coalesce(new.invalidated_at, pg_catalog.now()), pg_catalog.now())
        );
    else
        -- the moment a fact stopped being believed is history: no later update moves it
        new.invalidated_at := old.invalidated_at;
    end if;
    return new;
end;
$$;

comment on function pymem_private.maintain_fact_validity() is
$$Trigger (before insert, and update of validity or invalidated_at, on facts): maps the legacy validity
'forgotten' to 'retracted', and sets invalidated_at when a fact leaves 'active' (now, or the moment the update
gives, between created_at and now; cleared when it becomes active again) and never moves it after, so every fact
is valid in [created_at, invalidated_at).$$;

create or replace trigger facts_maintain_validity
before insert or update of validity, invalidated_at on pymem.facts
for each row execute function pymem_private.maintain_fact_validity();
