-- noqa: disable=RF01
-- Items: the key-value memory of an agent framework's store (LangGraph's BaseStore: pymem.integrations.langgraph),
-- kept as facts, not in a second storage system. An item (namespace, key, value) is the active fact with
--   subject and scope  the namespace's labels joined by '.' (a label holds no '.'): the item's namespace path;
--   predicate          the key, so a second put of the same namespace and key supersedes the first (history and
--                      as_of answer the old value) and a delete (memory_item_put with value NULL) retracts it;
--   content            the text of the value's indexed fields (memory_item_text: the whole value by default),
--                      what hybrid search ranks and an analyst's memory_recall shows;
--   metadata.item      {namespace, key, value, created_at, ttl_minutes, indexed}: the value as given;
--   source 'import', citation 'item:<path>/<key>' (a record a program stored: not a claim of the agent's, so never
--                      refused as speculation; text that tries to steer an agent is still kept for review);
--   permanence 'permanent' (an item does not fade).
-- An item with ttl_minutes expires that long after its last put or read (last_referenced_at, which reads bump
-- when they refresh it): an expired item is never returned, and memory_item_sweep retracts it.

create or replace function pymem_private.item_path(namespace text[])
returns text
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_label text;
    v_path text;
begin
    if namespace is null or pg_catalog.cardinality(namespace) = 0 or pg_catalog.array_ndims(namespace) > 1 then
        raise exception 'namespace must be a non-empty array of labels'
            using errcode = 'PM002', hint = 'For example array[''memories'', ''user-123''].';
    end if;
    foreach v_label in array namespace loop
        if v_label is null or v_label = '' then
            raise exception 'a namespace label must be a non-empty text: %', pg_catalog.to_jsonb(namespace)
                using errcode = 'PM002';
        end if;
        if pg_catalog.strpos(v_label, '.') > 0 then
            raise exception 'a namespace label must not contain ''.'': %', pg_catalog.quote_literal(v_label)
                using errcode = 'PM002', hint = 'Labels are joined with ''.'' into the item''s path.';
        end if;
    end loop;
    v_path := pg_catalog.array_to_string(namespace, '.');
    if pg_catalog.length(v_path) > 200 then
        raise exception 'a namespace is at most 200 characters joined by ''.'', not %', pg_catalog.length(v_path)
            using errcode = 'PM002';
    end if;
    return v_path;
end;
$$;

comment on function pymem_private.item_path(text[]) is
$$An item namespace's path: its labels joined by '.' (the facts' subject and scope); PM002 for an empty namespace,
an empty label, a label with '.', or a path over 200 characters.
Example: select pymem_private.item_path(array['memories', 'user-123']);  -- memories.user-123$$;


create or replace function pymem_private.item_jsonpath(field text)
returns jsonpath
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_path text := '$';
    v_token text[];
    v_rest text := field;
    v_n integer;
begin
    if field is null or field = '' or field = '$' then
        return '$'::jsonpath;
    end if;
    -- a field path as LangGraph writes one: name(.name)* with [n], [-n] or [*] after any name
    if field !~ '^([^.\[\]{}]+|\[(-?[0-9]+|\*)\])(\.[^.\[\]{}]+|\[(-?[0-9]+|\*)\])*$' then
        raise exception 'index field % is not a path this store reads', pg_catalog.quote_literal(field)
            using errcode = 'PM002',
                  hint = 'Use names joined by ''.'', with [n], [-1] or [*] for arrays, e.g. ''messages[*].content''.';
    end if;
    for v_token in select m from pg_catalog.regexp_matches(field, '([^.\[\]]+)|\[(-?[0-9]+|\*)\]', 'g') as m loop
        if v_token[1] is not null then
            v_path := v_path || '.' || pg_catalog.to_jsonb(v_token[1])::text;
        elsif v_token[2] = '*' then
            v_path := v_path || '[*]';
        else
            v_n := v_token[2]::integer;
            v_path := v_path || case
                when v_n >= 0 then pg_catalog.format('[%s]', v_n)
                when v_n = -1 then '[last]'
                else pg_catalog.format('[last - %s]', -v_n - 1)
            end;
        end if;
    end loop;
    return v_path::jsonpath;
end;
$$;

comment on function pymem_private.item_jsonpath(text) is
$$The SQL/JSON path of an index field as LangGraph writes it ('a.b', 'a[0]', 'a[-1]', 'a[*].b', '$' for the whole
value); PM002 for anything else.
Example: select pymem_private.item_jsonpath('messages[-1].content');  -- $."messages"[last]."content"$$;


create or replace function pymem.memory_item_text(value jsonb, fields text[] default null)
returns text
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_field text;
    v_parts text[] := '{}';
begin
    if value is null or pg_catalog.jsonb_typeof(value) <> 'object' then
        raise exception 'an item''s value must be a JSON object, not %', coalesce(pg_catalog.jsonb_typeof(value), 'NULL')
            using errcode = 'PM002';
    end if;
    foreach v_field in array coalesce(fields, array['$']) loop
        v_parts := v_parts || array(
            select case pg_catalog.jsonb_typeof(j.v) when 'string' then j.v #>> '{}' else j.v::text end
              from pg_catalog.jsonb_path_query(value, pymem_private.item_jsonpath(v_field)) as j (v)
             where pg_catalog.jsonb_typeof(j.v) <> 'null'
        );
    end loop;
    return nullif(pg_catalog.btrim(pg_catalog.array_to_string(v_parts, E'\n')), '');
end;
$$;

comment on function pymem.memory_item_text(jsonb, text[]) is
$$The text of an item's value that is embedded and searched: the values at fields (JSON paths as LangGraph writes
them; default the whole value as JSON), strings as they are, other values as JSON, one per line; NULL when the
fields hold nothing.
Example: select pymem.memory_item_text('{"text": "User prefers dark mode", "n": 3}', array['text']);$$;


create or replace function pymem_private.item_live(f pymem.facts)
returns boolean
language sql
stable
parallel safe
security invoker
return case
    when f.validity not in ('active', 'pending_review') then false
    when f.metadata #>> '{item,ttl_minutes}' is null then true
    else
        coalesce(f.last_referenced_at, f.created_at)
        + pg_catalog.make_interval(secs => (f.metadata #>> '{item,ttl_minutes}')::double precision * 60)
        > pg_catalog.now()
end;

comment on function pymem_private.item_live(pymem.facts) is
$$Whether a fact that holds an item is its live version: active (or kept for review) and not expired (its
ttl_minutes since its last put or refreshing read).$$;


create or replace function pymem_private.item_matches(value jsonb, filter jsonb)
returns boolean
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_field text;
    v_condition jsonb;
    v_operator text;
    v_operand jsonb;
    v_have jsonb;
    v_holds boolean;
begin
    if filter is null or filter = '{}'::jsonb then
        return true;
    end if;
    if pg_catalog.jsonb_typeof(filter) <> 'object' then
        raise exception 'filter must be a JSON object of field conditions' using errcode = 'PM002';
    end if;
    for v_field, v_condition in select e.key, e.value from pg_catalog.jsonb_each(filter) as e loop
        v_have := value -> v_field;
        if pg_catalog.jsonb_typeof(v_condition) = 'object'
           and exists (select from pg_catalog.jsonb_object_keys(v_condition) as k where k like '$%') then
            for v_operator, v_operand in select e.key, e.value from pg_catalog.jsonb_each(v_condition) as e loop
                if v_operator not in ('$eq', '$ne', '$gt', '$gte', '$lt', '$lte') then
                    raise exception 'unknown filter operator % (of field %)', pg_catalog.quote_literal(v_operator),
                        pg_catalog.quote_literal(v_field)
                        using errcode = 'PM002', hint = 'Use $eq, $ne, $gt, $gte, $lt or $lte.';
                end if;
                if v_operator = '$eq' and v_have is distinct from v_operand then
                    return false;
                elsif v_operator = '$ne' and v_have is not distinct from v_operand then
                    return false;
                elsif v_operator in ('$gt', '$gte', '$lt', '$lte') then
                    -- an order compares numbers, or texts; anything else does not match
                    if pg_catalog.jsonb_typeof(v_have) = 'number' and pg_catalog.jsonb_typeof(v_operand) = 'number' then
                        v_holds := case v_operator
                            when '$gt' then (v_have #>> '{}')::numeric > (v_operand #>> '{}')::numeric
                            when '$gte' then (v_have #>> '{}')::numeric >= (v_operand #>> '{}')::numeric
                            when '$lt' then (v_have #>> '{}')::numeric < (v_operand #>> '{}')::numeric
                            else (v_have #>> '{}')::numeric <= (v_operand #>> '{}')::numeric
                        end;
                    elsif pg_catalog.jsonb_typeof(v_have) = 'string' and pg_catalog.jsonb_typeof(v_operand) = 'string' then
                        v_holds := case v_operator
                            when '$gt' then (v_have #>> '{}') > (v_operand #>> '{}')
                            when '$gte' then (v_have #>> '{}') >= (v_operand #>> '{}')
                            when '$lt' then (v_have #>> '{}') < (v_operand #>> '{}')
                            else (v_have #>> '{}') <= (v_operand #>> '{}')
                        end;
                    else
                        v_holds := false;
                    end if;
                    if not v_holds then
                        return false;
                    end if;
                end if;
            end loop;
        elsif pg_catalog.jsonb_typeof(v_condition) = 'object' then
            -- a nested object: each of its fields matches the value's nested object
            if pg_catalog.jsonb_typeof(v_have) is distinct from 'object'
               or not pymem_private.item_matches(v_have, v_condition) then
                return false;
            end if;
        elsif v_have is distinct from v_condition then
            return false;
        end if;
    end loop;
    return true;
end;
$$;

comment on function pymem_private.item_matches(jsonb, jsonb) is
$$Whether an item's value matches a filter: each field equal to the given JSON value, or to each condition of
$eq, $ne, $gt, $gte, $lt, $lte (orders between two numbers or two texts; a missing field is $ne anything);
a nested object matches field by field. PM002 for an unknown operator.
Example: select pymem_private.item_matches('{"score": 5, "kind": "pref"}', '{"score": {"$gt": 4}, "kind": "pref"}');$$;


create or replace function pymem.memory_item_put(
    namespace text[],
    key text,
    value jsonb,
    fields text[] default null,
    indexed boolean default true,
    ttl_minutes double precision default null,
    embedding public.vector default null,
    embedding_model text default null,
    token_count integer default null
)
returns table (memory_id uuid, supersedes_id uuid, review_state text)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_path text := pymem_private.item_path(namespace);
    v_current pymem.facts;
    v_text text;
    v_created timestamptz;
begin
    perform pymem_private.require_text('key', key, 500);
    if ttl_minutes is not null and (ttl_minutes = 'NaN'::double precision or ttl_minutes <= 0
                                    or ttl_minutes > 5256000) then
        raise exception 'ttl_minutes must be positive and at most 10 years (5256000), not %', ttl_minutes
            using errcode = 'PM002', hint = 'Leave it out (NULL) for an item that never expires.';
    end if;
    select f.* into v_current
      from pymem.facts as f
     where f.tenant_id = v_tenant and f.subject = v_path and f.predicate = memory_item_put.key
       and f.validity in ('active', 'pending_review') and f.metadata ? 'item'
     order by f.created_at desc
     limit 1;
    if memory_item_put.value is null then
        -- a delete: the item is forgotten (retracted), its history kept
        if v_current.id is not null then
            perform pymem.memory_forget(type => 'fact', id => v_current.id, reason => 'deleted from its store');
        end if;
        return;
    end if;
    v_text := case when coalesce(indexed, true) then pymem.memory_item_text(memory_item_put.value, fields) end;
    -- the first put of a live item dates it; an expired item put again starts anew
    v_created := case when v_current.id is not null and pymem_private.item_live(v_current)
                      then coalesce((v_current.metadata #>> '{item,created_at}')::timestamptz, v_current.created_at)
                      else pg_catalog.now() end;
    if v_current.id is not null and v_current.validity = 'pending_review' then
        -- a version kept for review is replaced by the new one, not left waiting
        perform pymem.memory_forget(type => 'fact', id => v_current.id, reason => 'replaced in its store');
    end if;
    return query
    select s.memory_id, s.supersedes_id, s.review_state
      from pymem.memory_store_fact(
          subject => v_path,
          predicate => memory_item_put.key,
          content => coalesce(v_text, pymem.memory_item_text(memory_item_put.value)),
          scope => v_path,
          permanence => 'permanent',
          source => 'import',
          citation => pg_catalog.left('item:' || v_path || '/' || memory_item_put.key, 2000),
          embedding => case when v_text is not null then memory_item_put.embedding end,
          embedding_model => case when v_text is not null then memory_item_put.embedding_model end,
          token_count => memory_item_put.token_count,
          metadata => pg_catalog.jsonb_build_object('item', pg_catalog.jsonb_build_object(
              'namespace', pg_catalog.to_jsonb(memory_item_put.namespace), 'key', memory_item_put.key,
              'value', memory_item_put.value, 'created_at', v_created, 'ttl_minutes', memory_item_put.ttl_minutes,
              'indexed', v_text is not null
          ))
      ) as s;
end;
$$;

comment on function pymem.memory_item_put(text[], text, jsonb, text[], boolean, double precision, public.vector, text, integer) is
$$Puts an item of a key-value store (LangGraph's BaseStore) as a fact: subject and scope the namespace path, predicate
the key (a second put supersedes the first; as_of answers the old value), content memory_item_text(value, fields),
the value in metadata.item; value NULL deletes (retracts) it. indexed false: no embedding, found by keyword only.
ttl_minutes: expires that long after its last put or refreshing read. Text that tries to steer an agent is kept for
review (review_state 'pending_review': memory_item_get returns it, searches do not).
Example: select * from memory_item_put(array['memories', 'user-123'], 'diet', '{"text": "User is vegetarian"}');$$;


create or replace function pymem.memory_item_get(namespace text[], key text, refresh_ttl boolean default true)
returns table (
    value jsonb,
    created_at timestamptz,
    updated_at timestamptz,
    memory_id uuid,
    review_state text
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_path text := pymem_private.item_path(namespace);
    v_found pymem.facts;
begin
    perform pymem_private.require_text('key', key, 500);
    select f.* into v_found
      from pymem.facts as f
     where f.tenant_id = v_tenant and f.subject = v_path and f.predicate = memory_item_get.key
       and f.metadata ? 'item' and pymem_private.item_live(f)
     order by f.created_at desc
     limit 1;
    if v_found.id is null then
        return;
    end if;
    if coalesce(refresh_ttl, true) then  -- (no write in a read-only transaction)
        perform pymem_private.memory_touch('fact', v_found.id);
    end if;
    return query select
        v_found.metadata #> '{item,value}',
        coalesce((v_found.metadata #>> '{item,created_at}')::timestamptz, v_found.created_at),
        v_found.created_at,
        v_found.id,
        case v_found.validity when 'pending_review' then 'pending_review' else 'approved' end;
end;
$$;

comment on function pymem.memory_item_get(text[], text, boolean) is
$$The live item at namespace and key (none when it was never put, was deleted or expired): its value, created_at
(first put), updated_at (last put), the fact holding it and its review state. refresh_ttl (default true) counts
the read as a reference, which restarts its TTL.
Example: select value from memory_item_get(array['memories', 'user-123'], 'diet');$$;


create or replace function pymem.memory_item_search(
    namespace_prefix text[] default '{}',
    query text default null,
    filter jsonb default null,
    "limit" integer default 10,
    "offset" integer default 0,
    query_embedding public.vector default null,
    refresh_ttl boolean default true
)
returns table (
    namespace text[],
    key text,
    value jsonb,
    created_at timestamptz,
    updated_at timestamptz,
    score double precision,
    memory_id uuid
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_limit integer := pymem_private.require_limit('limit', "limit");
    v_prefix text[] := coalesce(namespace_prefix, '{}');
    v_ids uuid[];
    v_scores double precision[];
    v_page uuid[];
    v_page_scores double precision[];
begin
    if "offset" is null or "offset" < 0 or "offset" > 100000 then
        raise exception 'offset must be between 0 and 100000, not %', coalesce("offset"::text, 'NULL')
            using errcode = 'PM002';
    end if;
    if pg_catalog.cardinality(v_prefix) > 0 then
        perform pymem_private.item_path(v_prefix);
    end if;
    perform pymem_private.item_matches('{}', filter);  -- PM002 for a filter that is not an object
    if nullif(pg_catalog.btrim(query), '') is not null then
        -- ranked by pymem's hybrid search over the tenant's facts (no relevance floor: a store returns its best
        -- matches), then kept when they are live items under the prefix that match the filter
        select pg_catalog.array_agg(s.memory_id order by s.score desc, s.memory_id),
               pg_catalog.array_agg(s.score order by s.score desc, s.memory_id)
          into v_ids, v_scores
          from pymem.memory_search(
              query => query, types => array['fact'], "limit" => 1000, min_confidence => 0, min_relevance => 0,
              min_score => 0, query_embedding => query_embedding, bump_references => false
          ) as s;
    end if;
    with items as (
        select f.id, f.created_at
          from pymem.facts as f
         where f.tenant_id = v_tenant and f.validity = 'active' and f.metadata ? 'item'
           and pymem_private.item_live(f)
           and (pg_catalog.cardinality(v_prefix) = 0
                or f.subject = pymem_private.item_path(v_prefix)
                or pg_catalog.starts_with(f.subject, pymem_private.item_path(v_prefix) || '.'))
           and pymem_private.item_matches(f.metadata #> '{item,value}', filter)
           -- a newer version kept for review hides this one: a search never answers with a value put over
           and not exists (
               select from pymem.facts as n
                where n.tenant_id = f.tenant_id and n.subject = f.subject and n.predicate = f.predicate
                  and n.validity = 'pending_review' and n.created_at > f.created_at and n.metadata ? 'item'
           )
    )
    select pg_catalog.array_agg(p.id order by p.ord), pg_catalog.array_agg(p.score order by p.ord)
      into v_page, v_page_scores
      from (
          -- with a query: the hybrid ranking, then what it did not reach, newest first, without a score
          select i.id, r.score,
                 pg_catalog.row_number() over (order by r.ord nulls last, i.created_at desc, i.id) as ord
            from items as i
            left join rows from (pg_catalog.unnest(v_ids), pg_catalog.unnest(v_scores)) with ordinality as r (id, score, ord)
                   on r.id = i.id
           order by r.ord nulls last, i.created_at desc, i.id
          offset "offset" limit v_limit
      ) as p;
    if coalesce(refresh_ttl, true) then  -- (no write in a read-only transaction)
        -- the page's bumps in one statement (pymem_private.memory_touch_many locks them by id)
        perform from pymem_private.memory_touch_many(
            v_tenant, pg_catalog.array_fill('fact'::text, array[coalesce(pg_catalog.cardinality(v_page), 0)]), v_page
        );
    end if;
    return query
    select array(select pg_catalog.jsonb_array_elements_text(f.metadata #> '{item,namespace}')),
           f.metadata #>> '{item,key}', f.metadata #> '{item,value}',
           coalesce((f.metadata #>> '{item,created_at}')::timestamptz, f.created_at), f.created_at, u.score, f.id
      from rows from (pg_catalog.unnest(v_page), pg_catalog.unnest(v_page_scores)) with ordinality as u (id, score, ord)
      join pymem.facts as f on f.tenant_id = v_tenant and f.id = u.id
     order by u.ord;
end;
$$;

comment on function pymem.memory_item_search(text[], text, jsonb, integer, integer, public.vector, boolean) is
$$Live items under a namespace prefix (whole labels; '{}' is every item) whose value matches filter
(pymem_private.item_matches), "limit" (1..1000) from "offset". With a query they are ranked by memory_search's
hybrid ranking (keyword, and semantic with query_embedding; its score returned), then the items it did not reach
follow newest first without a score; without one, newest first. Items kept for review are not searched.
refresh_ttl counts the returned items as read.
Example: select key, value, score from memory_item_search(array['memories'], query => 'what does the user eat');$$;


create or replace function pymem.memory_item_namespaces(
    prefix text[] default null,
    suffix text[] default null,
    max_depth integer default null,
    "limit" integer default 100,
    "offset" integer default 0
)
returns table (namespace text[])
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_limit integer := pymem_private.require_limit('limit', "limit");
    v_prefix text[] := coalesce(prefix, '{}');
    v_suffix text[] := coalesce(suffix, '{}');
begin
    if max_depth is not null and max_depth < 1 then
        raise exception 'max_depth must be at least 1, not %', max_depth using errcode = 'PM002';
    end if;
    if "offset" is null or "offset" < 0 then
        raise exception 'offset must be 0 or more, not %', coalesce("offset"::text, 'NULL') using errcode = 'PM002';
    end if;
    return query
    with live as (
        select distinct array(select pg_catalog.jsonb_array_elements_text(f.metadata #> '{item,namespace}')) as ns
          from pymem.facts as f
         where f.tenant_id = v_tenant and f.validity in ('active', 'pending_review') and f.metadata ? 'item'
           and pymem_private.item_live(f)
    ),
    matching as (
        -- a pattern's '*' matches any one label
        select l.ns
          from live as l
         where pg_catalog.cardinality(l.ns) >= pg_catalog.cardinality(v_prefix)
           and pg_catalog.cardinality(l.ns) >= pg_catalog.cardinality(v_suffix)
           and not exists (
               select from pg_catalog.generate_subscripts(v_prefix, 1) as i
                where v_prefix[i] <> '*' and v_prefix[i] is distinct from l.ns[i]
           )
           and not exists (
               select from pg_catalog.generate_subscripts(v_suffix, 1) as i
                where v_suffix[i] <> '*'
                  and v_suffix[i] is distinct from
                      l.ns[pg_catalog.cardinality(l.ns) - pg_catalog.cardinality(v_suffix) + i]
           )
    )
    select distinct m2.ns
      from (select case when max_depth is null then m.ns else m.ns[1:max_depth] end as ns from matching as m) as m2
     order by m2.ns
    offset "offset" limit v_limit;
end;
$$;

comment on function pymem.memory_item_namespaces(text[], text[], integer, integer, integer) is
$$The namespaces that hold live items, sorted: those that start with prefix and end with suffix ('*' matches any
one label), cut to max_depth labels (then distinct), "limit" (1..1000) from "offset".
Example: select * from memory_item_namespaces(prefix => array['memories'], max_depth => 2);$$;


create or replace function pymem.memory_item_sweep()
returns integer
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_id uuid;
    v_count integer := 0;
begin
    for v_id in
        select f.id from pymem.facts as f
         where f.tenant_id = v_tenant and f.validity in ('active', 'pending_review') and f.metadata ? 'item'
           and f.metadata #>> '{item,ttl_minutes}' is not null and not pymem_private.item_live(f)
         order by f.id
    loop
        perform pymem.memory_forget(type => 'fact', id => v_id, reason => 'expired in its store');
        v_count := v_count + 1;
    end loop;
    return v_count;
end;
$$;

comment on function pymem.memory_item_sweep() is
$$Retracts the tenant's expired items (their TTL passed since their last put or refreshing read); returns how many.
Example: select memory_item_sweep();$$;


create or replace function pymem.memory_item_list(namespace text[], key_prefix text default null)
returns table (
    key text,
    value jsonb,
    created_at timestamptz,
    updated_at timestamptz,
    memory_id uuid,
    review_state text
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_path text := pymem_private.item_path(namespace);
begin
    return query
    select distinct on (f.predicate)
           f.predicate, f.metadata #> '{item,value}',
           coalesce((f.metadata #>> '{item,created_at}')::timestamptz, f.created_at), f.created_at, f.id,
           case f.validity when 'pending_review' then 'pending_review' else 'approved' end
      from pymem.facts as f
     where f.tenant_id = v_tenant and f.subject = v_path and f.metadata ? 'item'
       and (key_prefix is null or pg_catalog.starts_with(f.predicate, key_prefix))
       and pymem_private.item_live(f)
     order by f.predicate, f.created_at desc;
end;
$$;

comment on function pymem.memory_item_list(text[], text) is
$$Every live item of exactly one namespace (kept for review included, the newest version of each key), with keys
starting with key_prefix when it is given, by key; reads count as no reference. For a store that needs the whole
namespace (the memory tool's directories).
Example: select key from memory_item_list(array['memories'], key_prefix => '/memories/notes/');$$;
