-- Keyword statistics kept, not recomputed (migration 0008): per tenant and memory type the searchable rows
-- (docs), their total length and the smallest length seen (pymem.keyword_stats), and per lexeme the rows
-- holding it (df) and the most positions seen in one row (max_tf; pymem.keyword_lexemes). Search's BM25
-- reads N, avgdl and df from here (130-candidates.sql), and bounds a lexeme's share of a row's score by
-- max_tf and min_length to stop reading rows that cannot enter the top k.
-- A row is searchable while search can return it: an active fact; a rule or an episode without
-- forgotten_at (an expired episode counts until the janitor gives it its forgotten_at tombstone).
-- The triggers run as the writer (security invoker): pymem_app and bound analysts write only their own
-- tenant's statistics rows (RLS, sql/policies/010-rls.sql), which are those of the rows they write.
-- Concurrency: every change first upserts the (tenant, type) row of keyword_stats, so two writers of one
-- tenant and type queue there (until the first commits) before either touches a lexeme row; the lexeme
-- rows are then upserted in lexeme order. Inserts and deletes are applied per statement (one upsert per
-- statistics row, tenants in order, then (tenant, lexeme) in order), updates per row. No deadlock between
-- writers of one type; a transaction writing two memory types holds two such rows.

create or replace function pymem_private.keyword_stats_apply(
    p_tenant text, p_type text, p_vector tsvector, p_delta integer
)
returns void
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    -- p_delta: +1 a row becomes searchable, -1 it stops being searchable, 0 a row that is not searchable
    -- was written (only the bounds min_length and max_tf may move)
    insert into pymem.keyword_stats as s (tenant_id, memory_type, docs, total_length, min_length)
    values (p_tenant, p_type, p_delta, p_delta * pg_catalog.length(p_vector), pg_catalog.length(p_vector))
    on conflict (tenant_id, memory_type) do update
        set docs = s.docs + excluded.docs,
            total_length = s.total_length + excluded.total_length,
            min_length = case
                when p_delta >= 0 then least(s.min_length, excluded.min_length) else s.min_length
            end;
    insert into pymem.keyword_lexemes as l (tenant_id, memory_type, lexeme, df, max_tf)
    select p_tenant, p_type, u.lexeme, p_delta, coalesce(pg_catalog.cardinality(u.positions), 1)
    from pg_catalog.unnest(p_vector) as u (lexeme, positions, weights)
    order by u.lexeme
    on conflict (tenant_id, memory_type, lexeme) do update
        set df = l.df + excluded.df,
            max_tf = case when p_delta >= 0 then greatest(l.max_tf, excluded.max_tf) else l.max_tf end;
end;
$$;

comment on function pymem_private.keyword_stats_apply(text, text, tsvector, integer) is
$$Adds one row's search vector to (p_delta = 1) or removes it from (p_delta = -1) the keyword statistics of
its tenant and type: docs += p_delta, total_length += p_delta * length(vector), df += p_delta per lexeme;
min_length and max_tf only move towards a looser bound (p_delta >= 0). Called by the keyword_stats triggers.
Example: select pymem_private.keyword_stats_apply('demo', 'fact', to_tsvector('english', 'tea'), 0);$$;


create or replace function pymem_private.keyword_stats_maintain()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_type text := tg_argv[0];
    v_was boolean := false;
    v_is boolean := false;
begin
    -- one branch per type: a record has only its own table's columns
    if v_type = 'fact' then
        v_was := tg_op <> 'INSERT' and old.validity = 'active';
        v_is := tg_op <> 'DELETE' and new.validity = 'active';
    elsif v_type = 'rule' then
        v_was := tg_op <> 'INSERT' and old.forgotten_at is null and old.review_state = 'approved';
        v_is := tg_op <> 'DELETE' and new.forgotten_at is null and new.review_state = 'approved';
    else
        v_was := tg_op <> 'INSERT' and old.forgotten_at is null;
        v_is := tg_op <> 'DELETE' and new.forgotten_at is null;
    end if;
    if tg_op = 'UPDATE' and old.search_vector = new.search_vector then
        if v_was and not v_is then
            perform pymem_private.keyword_stats_apply(old.tenant_id, v_type, old.search_vector, -1);
        elsif v_is and not v_was then
            perform pymem_private.keyword_stats_apply(new.tenant_id, v_type, new.search_vector, 1);
        end if;
        return null;
    end if;
    if v_was then
        perform pymem_private.keyword_stats_apply(old.tenant_id, v_type, old.search_vector, -1);
    end if;
    if tg_op in ('INSERT', 'UPDATE') then
        perform pymem_private.keyword_stats_apply(new.tenant_id, v_type, new.search_vector, case when v_is then 1 else 0 end);
    end if;
    return null;
end;
$$;

comment on function pymem_private.keyword_stats_maintain() is
$$Trigger (after update of the search vector or the searchable state on episodes, facts, rules, row by row;
argument: memory type; inserts and deletes: keyword_stats_statement): keeps pymem.keyword_stats and pymem.keyword_lexemes equal to the searchable rows
(active facts; approved rules and episodes without forgotten_at).$$;


create or replace function pymem_private.keyword_stats_apply_rows(
    p_type text, p_tenants text[], p_vectors tsvector[], p_deltas integer[], p_loosen boolean
)
returns void
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    -- keyword_stats_apply for many rows at once: one upsert per (tenant, type) and per (tenant, lexeme), so a
    -- statement that writes n rows updates each statistics row once, not n times (n updates of one row in one
    -- transaction leave n row versions that every later update walks: quadratic in n)
    insert into pymem.keyword_stats as s (tenant_id, memory_type, docs, total_length, min_length)
    select r.tenant, p_type, sum(r.delta), sum(r.delta * pg_catalog.length(r.vector)), min(pg_catalog.length(r.vector))
      from rows from (pg_catalog.unnest(p_tenants), pg_catalog.unnest(p_vectors), pg_catalog.unnest(p_deltas))
           as r (tenant, vector, delta)
     group by r.tenant
     order by r.tenant
    on conflict (tenant_id, memory_type) do update
        set docs = s.docs + excluded.docs,
            total_length = s.total_length + excluded.total_length,
            min_length = case when p_loosen then least(s.min_length, excluded.min_length) else s.min_length end;
    insert into pymem.keyword_lexemes as l (tenant_id, memory_type, lexeme, df, max_tf)
    select r.tenant, p_type, u.lexeme, sum(r.delta), max(coalesce(pg_catalog.cardinality(u.positions), 1))
      from rows from (pg_catalog.unnest(p_tenants), pg_catalog.unnest(p_vectors), pg_catalog.unnest(p_deltas))
           as r (tenant, vector, delta)
     cross join lateral pg_catalog.unnest(r.vector) as u (lexeme, positions, weights)
     group by r.tenant, u.lexeme
     order by r.tenant, u.lexeme
    on conflict (tenant_id, memory_type, lexeme) do update
        set df = l.df + excluded.df,
            max_tf = case when p_loosen then greatest(l.max_tf, excluded.max_tf) else l.max_tf end;
end;
$$;

comment on function pymem_private.keyword_stats_apply_rows(text, text[], tsvector[], integer[], boolean) is
$$keyword_stats_apply for the rows of one statement: the search vectors of rows of several tenants with their
deltas (+1, -1 or 0, as keyword_stats_apply's p_delta), applied with one upsert per (tenant, type) and per
(tenant, lexeme); p_loosen: min_length and max_tf may move towards a looser bound (rows written, not deleted).
Called by the keyword_stats statement triggers.$$;


create or replace function pymem_private.keyword_stats_statement()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_type text := tg_argv[0];
    v_tenants text[];
    v_vectors tsvector[];
    v_deltas integer[];
begin
    -- the rows of the statement (transition table "changed"), with their deltas: a written row counts 1 when it
    -- is searchable and 0 when not (only the bounds may move); a deleted row -1 when it was searchable
    if tg_op = 'INSERT' and v_type = 'fact' then
        select array_agg(c.tenant_id), array_agg(c.search_vector),
               array_agg(case when c.validity = 'active' then 1 else 0 end)
          into v_tenants, v_vectors, v_deltas
          from changed as c;
    elsif tg_op = 'INSERT' and v_type = 'rule' then
        select array_agg(c.tenant_id), array_agg(c.search_vector),
               array_agg(case when c.forgotten_at is null and c.review_state = 'approved' then 1 else 0 end)
          into v_tenants, v_vectors, v_deltas
          from changed as c;
    elsif tg_op = 'INSERT' then
        select array_agg(c.tenant_id), array_agg(c.search_vector),
               array_agg(case when c.forgotten_at is null then 1 else 0 end)
          into v_tenants, v_vectors, v_deltas
          from changed as c;
    elsif v_type = 'fact' then
        select array_agg(c.tenant_id), array_agg(c.search_vector), array_agg(-1)
          into v_tenants, v_vectors, v_deltas
          from changed as c
         where c.validity = 'active';
    elsif v_type = 'rule' then
        select array_agg(c.tenant_id), array_agg(c.search_vector), array_agg(-1)
          into v_tenants, v_vectors, v_deltas
          from changed as c
         where c.forgotten_at is null and c.review_state = 'approved';
    else
        select array_agg(c.tenant_id), array_agg(c.search_vector), array_agg(-1)
          into v_tenants, v_vectors, v_deltas
          from changed as c
         where c.forgotten_at is null;
    end if;
    if v_tenants is not null then
        perform pymem_private.keyword_stats_apply_rows(v_type, v_tenants, v_vectors, v_deltas, tg_op = 'INSERT');
    end if;
    return null;
end;
$$;

comment on function pymem_private.keyword_stats_statement() is
$$Trigger (after insert, and after delete, of a statement on episodes, facts, rules; argument: memory type; the
statement's rows in the transition table "changed"): keeps pymem.keyword_stats and pymem.keyword_lexemes equal
to the searchable rows, one upsert per statistics row per statement (keyword_stats_apply_rows).$$;


create or replace function pymem_private.keyword_stats_truncate()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    delete from pymem.keyword_lexemes as l where l.memory_type = tg_argv[0];
    delete from pymem.keyword_stats as s where s.memory_type = tg_argv[0];
    return null;
end;
$$;

comment on function pymem_private.keyword_stats_truncate() is
$$Trigger (after truncate of episodes, facts, rules; argument: memory type): a truncated table has no
searchable row left, so its keyword statistics go too.$$;

-- statement triggers (a statement's rows at once; they replace the row triggers of migration 0008)
drop trigger if exists facts_keyword_stats on pymem.facts;
drop trigger if exists facts_keyword_stats_insert on pymem.facts;
create trigger facts_keyword_stats_insert
after insert on pymem.facts
referencing new table as changed
for each statement execute function pymem_private.keyword_stats_statement('fact');

drop trigger if exists facts_keyword_stats_delete on pymem.facts;
create trigger facts_keyword_stats_delete
after delete on pymem.facts
referencing old table as changed
for each statement execute function pymem_private.keyword_stats_statement('fact');

create or replace trigger facts_keyword_stats_update
after update of content, subject, predicate, search_vector, validity on pymem.facts
for each row
when (old.search_vector is distinct from new.search_vector or old.validity is distinct from new.validity)
execute function pymem_private.keyword_stats_maintain('fact');

create or replace trigger facts_keyword_stats_truncate
after truncate on pymem.facts
for each statement execute function pymem_private.keyword_stats_truncate('fact');

-- statement triggers (a statement's rows at once; they replace the row triggers of migration 0008)
drop trigger if exists rules_keyword_stats on pymem.rules;
drop trigger if exists rules_keyword_stats_insert on pymem.rules;
create trigger rules_keyword_stats_insert
after insert on pymem.rules
referencing new table as changed
for each statement execute function pymem_private.keyword_stats_statement('rule');

drop trigger if exists rules_keyword_stats_delete on pymem.rules;
create trigger rules_keyword_stats_delete
after delete on pymem.rules
referencing old table as changed
for each statement execute function pymem_private.keyword_stats_statement('rule');

create or replace trigger rules_keyword_stats_update
after update of content, search_vector, forgotten_at, review_state on pymem.rules
for each row
when (
    old.search_vector is distinct from new.search_vector
    or (old.forgotten_at is null) is distinct from (new.forgotten_at is null)
    or old.review_state is distinct from new.review_state
)
execute function pymem_private.keyword_stats_maintain('rule');

create or replace trigger rules_keyword_stats_truncate
after truncate on pymem.rules
for each statement execute function pymem_private.keyword_stats_truncate('rule');

-- statement triggers (a statement's rows at once; they replace the row triggers of migration 0008)
drop trigger if exists episodes_keyword_stats on pymem.episodes;
drop trigger if exists episodes_keyword_stats_insert on pymem.episodes;
create trigger episodes_keyword_stats_insert
after insert on pymem.episodes
referencing new table as changed
for each statement execute function pymem_private.keyword_stats_statement('episode');

drop trigger if exists episodes_keyword_stats_delete on pymem.episodes;
create trigger episodes_keyword_stats_delete
after delete on pymem.episodes
referencing old table as changed
for each statement execute function pymem_private.keyword_stats_statement('episode');

create or replace trigger episodes_keyword_stats_update
after update of content, retrieval_context, search_vector, forgotten_at on pymem.episodes
for each row
when (
    old.search_vector is distinct from new.search_vector
    or (old.forgotten_at is null) is distinct from (new.forgotten_at is null)
)
execute function pymem_private.keyword_stats_maintain('episode');

create or replace trigger episodes_keyword_stats_truncate
after truncate on pymem.episodes
for each statement execute function pymem_private.keyword_stats_truncate('episode');
