-- noqa: disable=RF01
-- Export and import of a tenant (`pymem export`, `pymem import-tenant`): a JSON Lines file whose first line is
-- the manifest (memory_export_manifest) and whose other lines are {"kind": ..., "data": {...}}, one per episode,
-- fact, rule, link and butler setting (memory_export), every column but tenant_id and the generated search
-- vectors, embeddings only when asked.
--
-- The order of the lines is part of the format: episodes, then facts, each after the fact it supersedes, then
-- rules, links and butler settings. So a reader that takes the file in batches always finds what a line refers
-- to (a source episode, a superseded fact, a link's two ends) in an earlier line or in the same batch.
--
-- memory_import(lines, first_line) writes a batch of such lines into the caller's tenant. Python only reads the
-- file and cuts it into batches, all in one transaction: what is new, what is already there (an id the tenant
-- has is skipped: run twice = run once), what supersedes what (the supersession trigger, as for any store) and
-- which embeddings are kept (those of the configured model) are decided here. A line that cannot be written is
-- refused with its line number, and the caller's transaction, so the whole import, is rolled back.

create or replace function pymem.memory_export_manifest()
returns jsonb
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
begin
    return pg_catalog.jsonb_build_object(
        'format', 'pymem-export',
        'format_version', 1,
        'embedding_model', pymem.memory_embedding_model(),
        'tenant', v_tenant,
        'exported_at', pg_catalog.now(),
        'counts', pg_catalog.jsonb_build_object(
            'episode', (select count(*) from pymem.episodes as e where e.tenant_id = v_tenant),
            'fact', (select count(*) from pymem.facts as f where f.tenant_id = v_tenant),
            'rule', (select count(*) from pymem.rules as r where r.tenant_id = v_tenant),
            'link', (select count(*) from pymem.memory_links as l where l.tenant_id = v_tenant),
            'butler_setting', (select count(*) from pymem.butler_settings as b where b.tenant_id = v_tenant)
        )
    );
end;
$$;

comment on function pymem.memory_export_manifest() is
$$The first line of a tenant's export (pymem export adds its version and the schema revision): format 'pymem-export',
format_version 1, the configured embedding model, the tenant, exported_at and the count of each kind of line that
follows. Read it in the same
REPEATABLE READ transaction as memory_export, so the counts are those of the lines.
Example: select pymem.memory_export_manifest();$$;


create or replace function pymem.memory_export(with_embeddings boolean default false)
returns table (kind text, data jsonb)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_drop text[] := case when coalesce(with_embeddings, false)
        then array['tenant_id', 'search_vector']
        else array['tenant_id', 'search_vector', 'embedding', 'embedding_model']
    end;
begin
    return query
    select 'episode'::text, pg_catalog.to_jsonb(e) - v_drop
      from pymem.episodes as e
     where e.tenant_id = v_tenant
     order by e.created_at, e.id;
    -- each fact after the fact it supersedes: depth in its chain first
    return query
    with recursive chain (id, depth) as (
        select f.id, 0
          from pymem.facts as f
         where f.tenant_id = v_tenant and f.supersedes_id is null
        union all
        select f.id, c.depth + 1
          from chain as c
          join pymem.facts as f on f.tenant_id = v_tenant and f.supersedes_id = c.id
    )
    select 'fact'::text, pg_catalog.to_jsonb(f) - v_drop
      from pymem.facts as f
      left join chain as c on c.id = f.id
     where f.tenant_id = v_tenant
     order by coalesce(c.depth, 2147483647), f.created_at, f.id;
    return query
    select 'rule'::text, pg_catalog.to_jsonb(r) - v_drop
      from pymem.rules as r
     where r.tenant_id = v_tenant
     order by r.created_at, r.id;
    return query
    select 'link'::text, pg_catalog.to_jsonb(l) - 'tenant_id'
      from pymem.memory_links as l
     where l.tenant_id = v_tenant
     order by l.created_at, l.source_type, l.source_id, l.target_type, l.target_id;
    return query
    select 'butler_setting'::text, pg_catalog.to_jsonb(b) - 'tenant_id'
      from pymem.butler_settings as b
     where b.tenant_id = v_tenant
     order by b.butler;
end;
$$;

comment on function pymem.memory_export(boolean) is
$$Every row of the caller's tenant as export lines (kind, data): episodes, facts (each after the fact it
supersedes), rules, links, butler settings; data holds every column but tenant_id and the generated search
vectors; embedding and embedding_model only with with_embeddings. pymem export writes the manifest, then these.
Example (psql): \copy (select jsonb_build_object('kind', kind, 'data', data) from memory_export()) to 'tenant.jsonl'$$;


create or replace function pymem_private.import_statistics(p_table text, p_added integer)
returns boolean
language plpgsql
volatile
-- SECURITY DEFINER: ANALYZE is the owner's; the caller names neither the partition nor the tenant
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    -- the rows of p_table this transaction's import has written so far, and the count at which it is counted next
    v_done_setting text := 'pymem.imported_' || p_table;
    v_next_setting text := 'pymem.import_count_at_' || p_table;
    v_done bigint;
    v_next bigint;
    v_partition regclass;
begin
    if p_table is null or p_table not in ('episodes', 'facts', 'rules') then
        raise exception 'no memory table %', pg_catalog.quote_nullable(p_table)
            using errcode = 'PM002', hint = 'One of: episodes, facts, rules.';
    end if;
    v_done := coalesce(nullif(pg_catalog.current_setting(v_done_setting, true), '')::bigint, 0)
        + greatest(coalesce(p_added, 0), 0);
    v_next := coalesce(nullif(pg_catalog.current_setting(v_next_setting, true), '')::bigint, 1000);
    perform pg_catalog.set_config(v_done_setting, v_done::text, true);
    if v_done < v_next then
        return false;
    end if;
    -- counted at 1000 rows, then each time the import's rows have doubled: the planner's estimate of the tenant's
    -- rows in its partition (from tenant_id's most common values) is never less than half of them
    perform pg_catalog.set_config(v_next_setting, (2 * v_done)::text, true);
    v_partition := (pymem.memory_tenant_partitions(v_tenant, array['pymem.' || p_table]))[1]::regclass;
    execute pg_catalog.format('analyze %s', v_partition);
    return true;
end;
$$;

comment on function pymem_private.import_statistics(text, integer) is
$$Called by the import after each batch with the rows it added to p_table (episodes, facts or rules): at 1000 rows of
the import, then each time they have doubled, ANALYZE the caller's tenant's partition of that table (ANALYZE counts
the rows of its own transaction: about log2 of the import's size times in all). No statistics see an import's rows
otherwise, and the planner, taking the tenant for one of no rows in its partition, plans each row's lookups by key
(supersession, the event's state) as scans of every row of the tenant: quadratic. Returns whether it analyzed. The
ANALYZE holds the partition's SHARE UPDATE EXCLUSIVE lock to the end of the import (autovacuum and other imports'
ANALYZE of it wait; reads and writes do not).
Example: select pymem_private.import_statistics('facts', 1000);$$;


create or replace function pymem_private.import_rows(lines jsonb[])
returns table (kind text, inserted integer, total integer)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_model text := pymem.memory_embedding_model();
    -- the row types the lines' data fill (NULL rows)
    v_episode pymem.episodes;
    v_fact pymem.facts;
    v_rule pymem.rules;
    v_link pymem.memory_links;
    v_setting pymem.butler_settings;
    -- each kind's lines as rows of its table, parsed once (a join with rows parsed inside it parses them again for
    -- every row it meets: quadratic in the tenant's size)
    v_episodes pymem.episodes[];
    v_facts pymem.facts[];
    v_rules pymem.rules[];
    v_links pymem.memory_links[];
    v_settings pymem.butler_settings[];
    v_count integer;
    v_clash record;
    v_have uuid[];
    v_new uuid[];
    v_old uuid[];
begin
    v_episodes := array(
        select pg_catalog.jsonb_populate_record(v_episode, t.line -> 'data')
          from pg_catalog.unnest(lines) as t (line)
         where t.line ->> 'kind' = 'episode'
    );
    v_facts := array(
        select pg_catalog.jsonb_populate_record(v_fact, t.line -> 'data')
          from pg_catalog.unnest(lines) as t (line)
         where t.line ->> 'kind' = 'fact'
    );
    v_rules := array(
        select pg_catalog.jsonb_populate_record(v_rule, t.line -> 'data')
          from pg_catalog.unnest(lines) as t (line)
         where t.line ->> 'kind' = 'rule'
    );
    v_links := array(
        select pg_catalog.jsonb_populate_record(v_link, t.line -> 'data')
          from pg_catalog.unnest(lines) as t (line)
         where t.line ->> 'kind' = 'link'
    );
    v_settings := array(
        select pg_catalog.jsonb_populate_record(v_setting, t.line -> 'data')
          from pg_catalog.unnest(lines) as t (line)
         where t.line ->> 'kind' = 'butler_setting'
    );
    -- episodes (an id the tenant has is skipped; an embedding of another model than the configured one is not
    -- kept: the embedding worker embeds the row again)
    with r as (
        select * from pg_catalog.unnest(v_episodes)
    )
    insert into pymem.episodes (
        tenant_id, id, butler, session_id, content, embedding, embedding_model, token_count, importance,
        reference_count, consolidated, created_at, last_referenced_at, expires_at, forgotten_at, metadata,
        retrieval_context, session_position
    )
    select
        v_tenant, r.id, r.butler, r.session_id, r.content,
        case when v_model is null or r.embedding_model = v_model then r.embedding end,
        case when v_model is null or r.embedding_model = v_model then r.embedding_model end,
        r.token_count, r.importance, r.reference_count, r.consolidated, r.created_at, r.last_referenced_at,
        r.expires_at, r.forgotten_at, r.metadata, r.retrieval_context, r.session_position
      from r
    on conflict (tenant_id, id) do nothing;
    get diagnostics v_count = row_count;
    perform pymem_private.import_statistics('episodes', v_count);
    return query select 'episode'::text, v_count,
        pg_catalog.cardinality(v_episodes);

    -- facts: an active fact supersedes the tenant's active fact of its subject and predicate (the trigger), unless
    -- that one was observed later: then the import is refused, as memory_store_fact refuses it
    -- each line's active fact looked up by its key (a plan free to start from the tenant's facts, to stop at the
    -- first clash, read them all for every line when there was none)
    select r.id, f.id as active_id, f.created_at as active_at into v_clash
      from pg_catalog.unnest(v_facts) as r
      cross join lateral (
          select a.id, a.created_at
            from pymem.facts as a
           where a.tenant_id = v_tenant and a.subject = r.subject and a.predicate = r.predicate
             and a.validity = 'active'
          offset 0
      ) as f
     where r.validity = 'active' and f.id <> r.id and f.created_at > r.created_at
       and not exists (select from pymem.facts as g where g.tenant_id = v_tenant and g.id = r.id)
     limit 1;
    if v_clash.id is not null then
        raise exception 'fact % was observed before the active fact % of the same subject and predicate (stored as of %)',
            v_clash.id, v_clash.active_id, v_clash.active_at
            using errcode = 'PM002',
                  hint = 'Import into a new tenant, or forget the later fact first.';
    end if;
    -- the facts the tenant has are left out before the insert, not by its ON CONFLICT: the supersession trigger
    -- runs before the conflict is found, and would supersede the tenant's fact for a line it then skips
    select pg_catalog.array_agg(f.id) into v_have
      from pymem.facts as f
     where f.tenant_id = v_tenant
       and f.id = any (array(select r.id from pg_catalog.unnest(v_facts) as r));
    with r as (
        select * from pg_catalog.unnest(v_facts)
    ),
    ins as (
    insert into pymem.facts (
        tenant_id, id, subject, predicate, content, embedding, embedding_model, token_count, importance,
        confidence, permanence, source_butler, source_episode_id, supersedes_id, validity, scope,
        reference_count, created_at, last_referenced_at, last_confirmed_at, tags, metadata, invalidated_at,
        source, citation, review_reason
    )
    select
        v_tenant, r.id, r.subject, r.predicate, r.content,
        case when v_model is null or r.embedding_model = v_model then r.embedding end,
        case when v_model is null or r.embedding_model = v_model then r.embedding_model end,
        r.token_count, r.importance, r.confidence, r.permanence, r.source_butler, r.source_episode_id,
        r.supersedes_id, r.validity, r.scope, r.reference_count, r.created_at, r.last_referenced_at,
        r.last_confirmed_at, r.tags, r.metadata, r.invalidated_at, r.source, r.citation, r.review_reason
      from r
     where r.id <> all (coalesce(v_have, '{}'))
    on conflict (tenant_id, id) do nothing
    returning id, supersedes_id
    )
    select pg_catalog.count(*)::integer,
           pg_catalog.array_agg(ins.id) filter (where ins.supersedes_id is not null and r.supersedes_id is null),
           pg_catalog.array_agg(ins.supersedes_id) filter (where ins.supersedes_id is not null and r.supersedes_id is null)
      into v_count, v_new, v_old
      from ins
      join r on r.id = ins.id;
    -- a fact of the file that superseded the tenant's own active fact: its link is not in the file
    insert into pymem.memory_links (tenant_id, source_type, source_id, target_type, target_id, relation)
    select v_tenant, 'fact', x.new_id, 'fact', x.old_id, 'supersedes'
      from rows from (pg_catalog.unnest(v_new), pg_catalog.unnest(v_old)) as x (new_id, old_id)
    on conflict do nothing;
    perform pymem_private.import_statistics('facts', v_count);
    return query select 'fact'::text, v_count,
        pg_catalog.cardinality(v_facts);

    with r as (
        select * from pg_catalog.unnest(v_rules)
    )
    insert into pymem.rules (
        tenant_id, id, content, embedding, embedding_model, token_count, scope, maturity, confidence, permanence,
        effectiveness_score, applied_count, success_count, harmful_count, reference_count, source_episode_id,
        source_butler, created_at, last_applied_at, last_evaluated_at, last_referenced_at, last_confirmed_at,
        forgotten_at, tags, metadata, source, citation, review_state, review_reason, confirmed_at
    )
    select
        v_tenant, r.id, r.content,
        case when v_model is null or r.embedding_model = v_model then r.embedding end,
        case when v_model is null or r.embedding_model = v_model then r.embedding_model end,
        r.token_count, r.scope, r.maturity, r.confidence, r.permanence, r.effectiveness_score, r.applied_count,
        r.success_count, r.harmful_count, r.reference_count, r.source_episode_id, r.source_butler, r.created_at,
        r.last_applied_at, r.last_evaluated_at, r.last_referenced_at, r.last_confirmed_at, r.forgotten_at, r.tags,
        r.metadata, r.source, r.citation, r.review_state, r.review_reason, r.confirmed_at
      from r
    on conflict (tenant_id, id) do nothing;
    get diagnostics v_count = row_count;
    perform pymem_private.import_statistics('rules', v_count);
    return query select 'rule'::text, v_count,
        pg_catalog.cardinality(v_rules);

    -- links (a fact's 'supersedes' link may already be there: the trigger made it when the fact came in)
    with r as (
        select * from pg_catalog.unnest(v_links)
    )
    insert into pymem.memory_links (tenant_id, source_type, source_id, target_type, target_id, relation, created_at)
    select v_tenant, r.source_type, r.source_id, r.target_type, r.target_id, r.relation, r.created_at
      from r
    on conflict (tenant_id, source_type, source_id, target_type, target_id) do nothing;
    get diagnostics v_count = row_count;
    return query select 'link'::text, v_count,
        pg_catalog.cardinality(v_links);

    -- butler settings: the tenant's own setting of a butler is kept
    with r as (
        select * from pg_catalog.unnest(v_settings)
    )
    insert into pymem.butler_settings (
        tenant_id, butler, scope, w_relevance, w_importance, w_recency, w_confidence, episode_ttl,
        context_token_budget, source, updated_at, quota_system, quota_project, quota_history, quota_knowledge,
        max_system, max_project, max_history, max_knowledge, min_relevance, min_focus, floor_bypass
    )
    select
        v_tenant, r.butler, r.scope, r.w_relevance, r.w_importance, r.w_recency, r.w_confidence, r.episode_ttl,
        r.context_token_budget, r.source, r.updated_at, r.quota_system, r.quota_project, r.quota_history,
        r.quota_knowledge, r.max_system, r.max_project, r.max_history, r.max_knowledge, r.min_relevance, r.min_focus,
        r.floor_bypass
      from r
    on conflict (tenant_id, butler) do nothing;
    get diagnostics v_count = row_count;
    return query select 'butler_setting'::text, v_count,
        pg_catalog.cardinality(v_settings);
end;
$$;

comment on function pymem_private.import_rows(jsonb[]) is
$$The writing half of memory_import: the lines of a batch, kind by kind, into the caller's tenant. Rows whose id
the tenant has are skipped; embeddings of another model than the configured one are left out (the embedding
worker makes them again). Per kind: how many were inserted of how many lines.$$;


create or replace function pymem.memory_import(lines jsonb[], first_line integer default 1)
returns table (kind text, inserted integer, skipped integer)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_kinds constant text[] := array['episode', 'fact', 'rule', 'link', 'butler_setting'];
    v_saved_reason text := pg_catalog.current_setting('pymem.reason', true);
    v_bad record;
    v_state text;
    v_message text;
    v_n integer;
begin
    if lines is null or pg_catalog.cardinality(lines) > 10000 then
        raise exception 'lines must be an array of at most 10000 export lines'
            using errcode = 'PM002';
    end if;
    if first_line is null or first_line < 1 then
        raise exception 'first_line must be a positive line number'
            using errcode = 'PM002', detail = pg_catalog.format('first_line was %s', pg_catalog.quote_nullable(first_line));
    end if;
    -- the shape of every line before anything is written
    select t.n, t.line into v_bad
      from pg_catalog.unnest(lines) with ordinality as t (line, n)
     where t.line is null
        or pg_catalog.jsonb_typeof(t.line) <> 'object'
        or not (t.line ->> 'kind' = any (v_kinds))
        or pg_catalog.jsonb_typeof(t.line -> 'data') is distinct from 'object'
        or (t.line ->> 'kind' in ('episode', 'fact', 'rule') and t.line -> 'data' ->> 'id' is null)
     order by t.n
     limit 1;
    if v_bad.n is not null then
        raise exception 'line %: not a pymem export line', first_line + v_bad.n - 1
            using errcode = 'PM002',
                  detail = pg_catalog.left(coalesce(v_bad.line::text, 'null'), 200),
                  hint = 'A line is {"kind": "episode" | "fact" | "rule" | "link" | "butler_setting", "data": {...}};'
                      || ' an episode, fact or rule has an "id".';
    end if;
    -- the audit trail's reason, and the supersession trigger's cue that the file brings the links
    perform pg_catalog.set_config('pymem.reason', 'import', true);
    begin
        return query
        select r.kind, r.inserted, r.total - r.inserted from pymem_private.import_rows(lines) as r;
        perform pg_catalog.set_config('pymem.reason', coalesce(v_saved_reason, ''), true);
    exception when others then
        -- find the first line that cannot be written, to name it (each try rolled back with the batch)
        get stacked diagnostics v_state = returned_sqlstate, v_message = message_text;
        for v_n in 1 .. pg_catalog.cardinality(lines) loop
            begin
                perform pymem_private.import_rows(array[lines[v_n]]);
            exception when others then
                get stacked diagnostics v_state = returned_sqlstate, v_message = message_text;
                raise exception 'line %: the % cannot be written: %', first_line + v_n - 1,
                    pg_catalog.replace(lines[v_n] ->> 'kind', '_', ' '), v_message
                    using errcode = case when v_state like 'PM%' then v_state else 'PM002' end,
                          detail = pg_catalog.left((lines[v_n] -> 'data')::text, 200),
                          hint = 'Nothing of this import was written. Correct the line, or export the tenant again.';
            end;
        end loop;
        raise exception 'a batch of lines % to % could not be written: %',
            first_line, first_line + pg_catalog.cardinality(lines) - 1, v_message
            using errcode = case when v_state like 'PM%' then v_state else 'PM002' end,
                  hint = 'Nothing of this import was written.';
    end;
end;
$$;

comment on function pymem.memory_import(jsonb[], integer) is
$$Writes a batch of export lines ({"kind", "data"}, as memory_export gives them) into the caller's tenant and
returns, per kind, how many were inserted and how many skipped (already there: run twice = run once). Ids, times,
validity, supersession chains, feedback counts and provenance are kept; an active fact supersedes the tenant's
active fact of its subject and predicate (refused, PM002, when that one was observed later); embeddings of another
model than the configured one are dropped, and the embedding worker embeds those rows again. A line that cannot be
written raises PM002 (or its own PM code) naming it by number (first_line is the number of lines[1]); call it for
every batch of a file in one transaction, so a refused line leaves nothing of the import behind.
Example: select * from memory_import(array['{"kind": "fact", "data": {...}}'::jsonb], first_line => 2);$$;


create or replace function pymem_private.refresh_tenant_statistics(p_table text)
returns boolean
language plpgsql
volatile
-- SECURITY DEFINER: ANALYZE is the owner's; the caller names neither the partition nor the tenant
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_docs bigint;
    v_partition regclass;
    v_reltuples double precision;
begin
    perform pymem_private.require_memory_type('p_table', p_table, array['episodes', 'facts', 'rules']);
    -- the tenant's searchable rows of that table, as the keyword statistics keep them (a lower bound of its rows)
    select s.docs into v_docs
      from pymem.keyword_stats as s
     where s.tenant_id = v_tenant
       and s.memory_type = case p_table when 'episodes' then 'episode' when 'facts' then 'fact' else 'rule' end;
    if coalesce(v_docs, 0) < 1000 then
        return false;
    end if;
    v_partition := (pymem.memory_tenant_partitions(v_tenant, array['pymem.' || p_table]))[1]::regclass;
    -- counted (pg_class.reltuples) as holding fewer than half the rows this tenant alone has there: a partition new to
    -- rows (never counted: -1) or counted before this tenant's rows came. Counted again, it holds them all (ANALYZE
    -- counts this transaction's rows too), so it is counted again each time the tenant's rows double
    select c.reltuples into v_reltuples from pg_catalog.pg_class as c where c.oid = v_partition;
    if v_reltuples >= v_docs / 2.0 then
        return false;
    end if;
    -- SKIP_LOCKED: never wait for autovacuum (or another import) counting it already
    execute pg_catalog.format('analyze (skip_locked) %s', v_partition);
    return true;
end;
$$;

comment on function pymem_private.refresh_tenant_statistics(text) is
$$Called at the end of each batch of a burst of stores into one table (episodes, facts or rules) of the caller's
tenant, in the batch's own transaction: when the tenant's partition of that table is counted (pg_class.reltuples) as
holding fewer than half the searchable rows the keyword statistics count for the tenant (1000 or more), ANALYZE the
partition (SKIP_LOCKED: not when autovacuum counts it already), so about log2 of the tenant's size times in all. A
partition new to rows is otherwise planned as of none until autovacuum comes by (a minute), and each store's lookups by
key scan the tenant's rows: 1000 foreign facts a batch took 2.8 s, then 6.3 s by the sixth. A tenant new to a
partition counted with another tenant's rows is not seen (its share needs the statistics RLS hides from the owner).
Returns whether it analyzed. The lock is held to the end of the batch's transaction (autovacuum waits; reads and
writes do not).
Example: select pymem_private.refresh_tenant_statistics('facts');$$;


create or replace function pymem.memory_import_facts(
    subjects text[],
    predicates text[],
    contents text[],
    observed_at timestamptz[],
    metadata jsonb[],
    citation text,
    line_numbers integer[] default null
)
returns table (outcome text, memory_id uuid, review_state text)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_n integer := pg_catalog.cardinality(subjects);
    v_saved_reason text := pg_catalog.current_setting('pymem.reason', true);
    v_id uuid;
    v_stored record;
    v_state text;
    v_message text;
begin
    if subjects is null or v_n > 10000 then
        raise exception 'subjects must be an array of at most 10000 facts' using errcode = 'PM002';
    end if;
    perform pymem_private.require_same_length('predicates', predicates, v_n);
    perform pymem_private.require_same_length('contents', contents, v_n);
    perform pymem_private.require_same_length('observed_at', observed_at, v_n);
    perform pymem_private.require_same_length('metadata', metadata, v_n);
    perform pymem_private.require_text('citation', citation, 2000);
    if line_numbers is not null then
        perform pymem_private.require_same_length('line_numbers', line_numbers, v_n);
    end if;
    perform pg_catalog.set_config('pymem.reason', 'import from another system', true);
    for i in 1 .. coalesce(v_n, 0) loop
        -- the same statement again is no news: run twice = run once
        select f.id into v_id
          from pymem.facts as f
         where f.tenant_id = v_tenant and f.subject = subjects[i] and f.predicate = predicates[i]
           and f.validity in ('active', 'pending_review') and f.content = contents[i]
         limit 1;
        if v_id is not null then
            return query select 'unchanged'::text, v_id, null::text;
            continue;
        end if;
        begin
            select s.memory_id, s.review_state into v_stored
              from pymem.memory_store_fact(
                  subject => subjects[i], predicate => predicates[i], content => contents[i],
                  metadata => coalesce(metadata[i], '{}'::jsonb), source => 'import', citation => citation,
                  observed_at => observed_at[i]
              ) as s;
        exception when others then
            get stacked diagnostics v_state = returned_sqlstate, v_message = message_text;
            raise exception 'line %: %', coalesce(line_numbers[i], i), v_message
                using errcode = case when v_state like 'PM%' then v_state else 'PM002' end,
                      hint = 'Nothing of this call was written. Correct the line and import again: facts already'
                          || ' stored are unchanged then.';
        end;
        return query select 'stored'::text, v_stored.memory_id, v_stored.review_state;
    end loop;
    perform pg_catalog.set_config('pymem.reason', coalesce(v_saved_reason, ''), true);
    -- the next batch planned with this tenant's rows counted
    perform pymem_private.refresh_tenant_statistics('facts');
end;
$$;

comment on function pymem.memory_import_facts(text[], text[], text[], timestamptz[], jsonb[], text, integer[]) is
$$Stores facts read from another system's export (pymem import-tenant --from mcp-memory | mem0) through
memory_store_fact, as passages of a cited document (source 'import', citation: the file): supersession and the
guard against text that steers the agent apply as for any store. A fact whose subject, predicate and content the
tenant already holds (active or kept for review) is 'unchanged' and not stored again, so an import run twice
stores once. Per fact: outcome ('stored' or 'unchanged'), memory_id and review_state. A fact that cannot be stored
raises naming its line (line_numbers[i], the line of the file it came from; i when not given).
Example: select * from memory_import_facts(array['Ada'], array['observation 1'], array['Ada speaks Spanish'],
array[null]::timestamptz[], array['{}']::jsonb[], 'mcp-memory:memory.jsonl');$$;
