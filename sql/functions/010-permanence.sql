-- Permanence categories and their fixed decay rates (lambda per day):
--   permanent 0.0 | stable 0.002 (~346 d half-life) | standard 0.008 (~87 d)
--   volatile 0.03 (~23 d) | ephemeral 0.1 (~7 d)

create or replace function pymem.memory_decay_rate(permanence text)
returns double precision
language plpgsql
immutable
strict
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    case permanence
        when 'permanent' then return 0.0;
        when 'stable' then return 0.002;
        when 'standard' then return 0.008;
        when 'volatile' then return 0.03;
        when 'ephemeral' then return 0.1;
        else
            raise exception 'invalid permanence "%"', permanence
                using errcode = 'PM002',
                      detail = 'permanence must be one of: permanent, stable, standard, volatile, ephemeral';
    end case;
end;
$$;

comment on function pymem.memory_decay_rate(text) is
$$Decay rate lambda (per day) of a permanence category: permanent 0.0, stable 0.002, standard 0.008,
volatile 0.03, ephemeral 0.1; any other value raises PM002. Half-life = ln 2 / lambda.
Example: select pymem.memory_decay_rate('stable');  -- 0.002$$;


create or replace function pymem_private.set_decay_rate()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if new.permanence is null then
        raise exception 'permanence must not be null'
            using errcode = 'PM002',
                  detail = 'permanence must be one of: permanent, stable, standard, volatile, ephemeral';
    end if;
    new.decay_rate := pymem.memory_decay_rate(new.permanence);
    return new;
end;
$$;

comment on function pymem_private.set_decay_rate() is
'Trigger: derives decay_rate from permanence on every insert and permanence change (facts, rules).';

create or replace trigger facts_set_decay_rate
before insert or update of permanence, decay_rate on pymem.facts
for each row execute function pymem_private.set_decay_rate();

create or replace trigger rules_set_decay_rate
before insert or update of permanence, decay_rate on pymem.rules
for each row execute function pymem_private.set_decay_rate();
