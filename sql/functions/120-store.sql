-- noqa: disable=RF01
-- Storing memories. Python passes the embedding (MiniLM-L6, 384-d) and the token count it
-- computed; both are optional, and a row without an embedding is found by keyword search.
-- Supersession, decay rates and audit events are the tables' triggers' work.

create or replace function pymem_private.embedding_model_for(
    embedding public.vector, embedding_model text
)
returns text
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if embedding is null then
        return null;
    end if;
    return pymem_private.require_text('embedding_model (required with an embedding)', embedding_model, 200);
end;
$$;

comment on function pymem_private.embedding_model_for(public.vector, text) is
'The model id stored with an embedding: NULL without one, PM002 when an embedding comes without its model id.';


create or replace function pymem_private.require_token_count(token_count integer)
returns integer
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if token_count < 0 then
        raise exception 'token_count must be >= 0, not %', token_count using errcode = 'PM002';
    end if;
    return token_count;
end;
$$;

comment on function pymem_private.require_token_count(integer) is
'Returns token_count (NULL allowed), or raises PM002 when it is negative.';


create or replace function pymem_private.require_source_episode(tenant_id text, source_episode_id uuid)
returns uuid
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if source_episode_id is not null
       and not pymem_private.memory_exists(tenant_id, 'episode', source_episode_id) then
        raise exception 'episode % not found', source_episode_id
            using errcode = 'PM003', detail = 'source_episode_id must name an episode of this tenant';
    end if;
    return source_episode_id;
end;
$$;

comment on function pymem_private.require_source_episode(text, uuid) is
'Returns source_episode_id (NULL allowed), or raises PM003 when the tenant has no such episode.';


create or replace function pymem.memory_store_episode(
    content text,
    butler text,
    session_id uuid default null,
    importance double precision default 5.0,
    embedding public.vector default null,
    embedding_model text default null,
    token_count integer default null,
    metadata jsonb default '{}',
    ttl interval default null,
    observed_at timestamptz default null
)
returns table (
    memory_type text,
    memory_id uuid,
    tenant_id text,
    embedded boolean,
    supersedes_id uuid,
    expires_at timestamptz
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_at timestamptz := pymem_private.observed_moment(observed_at);
    v_id uuid;
    v_ttl interval;
    v_expires timestamptz;
begin
    perform pymem_private.require_text('content', content, 100000);
    perform pymem_private.require_text('butler', butler, 200);
    -- a butler's name is printed in memory_context's header and matched by the butler's own calls
    if butler ~ '[[:cntrl:]]' then
        raise exception 'butler must not contain control characters (a line break, a tab): %',
            pg_catalog.to_jsonb(butler)
            using errcode = 'PM002', hint = 'Name the butler (agent) in one line, e.g. ''health''.';
    end if;
    perform pymem_private.require_range('importance', importance, 0, 10);
    -- no ttl: the butler's episode TTL (pymem.butler_settings), else 7 days
    v_ttl := coalesce(ttl, (pymem_private.butler_settings_for(v_tenant, butler)).episode_ttl);
    if v_ttl <= interval '0' then
        raise exception 'ttl must be a positive interval, not %', v_ttl
            using errcode = 'PM002', hint = 'Leave it out for the butler''s episode TTL (default 7 days).';
    end if;
    insert into pymem.episodes as e (
        tenant_id, butler, session_id, content, importance, embedding, embedding_model, token_count,
        metadata, created_at, expires_at
    ) values (
        v_tenant, butler, session_id, content, importance,
        pymem_private.require_embedding('embedding', embedding),
        pymem_private.embedding_model_for(embedding, embedding_model),
        pymem_private.require_token_count(token_count),
        pymem_private.require_metadata(metadata),
        v_at,
        pg_catalog.now() + v_ttl  -- kept ttl after it was stored, however long ago it was observed
    )
    returning e.id, e.expires_at into v_id, v_expires;
    return query select 'episode'::text, v_id, v_tenant, embedding is not null, null::uuid, v_expires;
end;
$$;

comment on function pymem.memory_store_episode(
    text, text, uuid, double precision, public.vector, text, integer, jsonb, interval, timestamptz
) is
$$Stores a raw observation of a butler and returns what was stored: memory_type, memory_id, tenant_id, embedded
and expires_at. content: at most 100000 characters; butler: at most 200, no control characters; metadata: a JSON
object of at most 64 KiB, nested at most 32 deep. importance 0..10 (default 5), expires after ttl
(default: the butler's episode TTL, memory_butler_settings(butler), else 7 days); embedding optional (found by
keyword until embedded). observed_at: when it was observed (default now; its created_at, which orders a session
and dates it for recency; not in the future), for a conversation imported after the fact; the TTL counts from
the store.
Example: select memory_id, expires_at from memory_store_episode(content => 'User asked about recipes', butler => 'general');$$;


create or replace function pymem.memory_store_fact(
    subject text,
    predicate text,
    content text,
    importance double precision default 5.0,
    permanence text default 'standard',
    scope text default 'global',
    tags text[] default '{}',
    confidence double precision default 1.0,
    source_butler text default null,
    source_episode_id uuid default null,
    embedding public.vector default null,
    embedding_model text default null,
    token_count integer default null,
    metadata jsonb default '{}',
    source text default null,
    citation text default null,
    observed_at timestamptz default null
)
returns table (
    memory_type text,
    memory_id uuid,
    tenant_id text,
    embedded boolean,
    supersedes_id uuid,
    expires_at timestamptz,
    review_state text,
    review_reason text
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_at timestamptz := pymem_private.observed_moment(observed_at);
    v_id uuid;
    v_supersedes uuid;
    v_grounded record;
    v_later record;
begin
    perform pymem_private.require_text('subject', subject, 500);
    perform pymem_private.require_text('predicate', predicate, 500);
    perform pymem_private.require_text('content', content, 100000);
    perform pymem_private.require_range('importance', importance, 0, 10);
    perform pymem_private.require_range('confidence', confidence, 0, 1);
    perform pymem_private.require_text('scope', scope, 200);
    perform pymem.memory_decay_rate(permanence);  -- PM002 naming the valid values
    if observed_at is not null then
        -- a fact observed in the past supersedes only what was believed before it (the lock is the one the
        -- supersession trigger takes, held to the end of the transaction)
        perform pymem_private.lock_tenant_key(v_tenant, 'supersession', subject || chr(31) || predicate);
        select f.id, f.created_at into v_later
          from pymem.facts as f
         where f.tenant_id = v_tenant
           and f.subject = memory_store_fact.subject
           and f.predicate = memory_store_fact.predicate
           and f.validity = 'active'
           and f.created_at > v_at;
        if v_later.id is not null then
            raise exception 'observed_at % is before the active fact of this subject and predicate (stored as of %)',
                v_at, v_later.created_at
                using errcode = 'PM002',
                      detail = pg_catalog.format('the active fact is %s', v_later.id),
                      hint = 'Store the facts of one subject and predicate in the order they were observed.';
        end if;
    end if;
    select * into v_grounded  -- PM007 for speculation: nothing is written
      from pymem_private.ground(v_tenant, content, source, citation, source_episode_id);
    insert into pymem.facts as f (
        tenant_id, subject, predicate, content, importance, permanence, scope, tags, confidence,
        source_butler, source_episode_id, embedding, embedding_model, token_count, metadata,
        validity, source, citation, review_reason, created_at, last_confirmed_at
    ) values (
        v_tenant, subject, predicate, content, importance, permanence, scope, pymem_private.tags_jsonb(tags),
        confidence, pymem_private.source_butler_name(source_butler), v_grounded.source_episode_id,
        pymem_private.require_embedding('embedding', embedding),
        pymem_private.embedding_model_for(embedding, embedding_model),
        pymem_private.require_token_count(token_count),
        pymem_private.require_metadata(metadata),
        case v_grounded.review_state when 'approved' then 'active' else 'pending_review' end,
        source, v_grounded.citation, v_grounded.review_reason, v_at, v_at
    )
    returning f.id, f.supersedes_id into v_id, v_supersedes;
    if v_grounded.source_episode_id is not null then
        insert into pymem.memory_links (tenant_id, source_type, source_id, target_type, target_id, relation)
        values (v_tenant, 'fact', v_id, 'episode', v_grounded.source_episode_id, 'derived_from')
        on conflict do nothing;
    end if;
    return query select
        'fact'::text, v_id, v_tenant, embedding is not null, v_supersedes, null::timestamptz,
        v_grounded.review_state, v_grounded.review_reason;
end;
$$;

comment on function pymem.memory_store_fact(
    text, text, text, double precision, text, text, text[], double precision, text, uuid, public.vector, text,
    integer, jsonb, text, text, timestamptz
) is
$$Stores a subject-predicate fact and returns what was stored: memory_type, memory_id, tenant_id, embedded,
supersedes_id, review_state and review_reason. An active fact with the same subject and predicate is superseded
(validity 'superseded', the new fact's supersedes_id and a 'supersedes' link); permanence sets the decay rate
(permanent 0, stable 0.002, standard 0.008, volatile 0.03, ephemeral 0.1 per day). source and citation give its
provenance and decide its tier (memory_ingestion_tier): approved; 'pending_review' (validity 'pending_review':
not recalled, supersedes nothing until memory_confirm); or refused as speculation, PM007, nothing stored.
Limits (PM002 past them): subject and predicate 500 characters, content 100000, scope 200, citation 2000, at most
100 tags of at most 200 characters, metadata a JSON object of at most 64 KiB nested at most 32 deep.
observed_at: when it was learned (default now; not in the future): its created_at, from which it is valid for
as_of and recent for recency, and its last confirmation, from which its confidence decays. A fact observed before
the active fact of its subject and predicate is refused (PM002): store one subject's predicate in the order it
was observed.
Example: select memory_id, supersedes_id
from memory_store_fact(subject => 'user', predicate => 'favorite_color', content => 'blue');$$;


create or replace function pymem.memory_store_rule(
    content text,
    scope text default 'global',
    tags text[] default '{}',
    permanence text default 'standard',
    source_butler text default null,
    source_episode_id uuid default null,
    embedding public.vector default null,
    embedding_model text default null,
    token_count integer default null,
    metadata jsonb default '{}',
    source text default null,
    citation text default null,
    observed_at timestamptz default null
)
returns table (
    memory_type text,
    memory_id uuid,
    tenant_id text,
    embedded boolean,
    supersedes_id uuid,
    expires_at timestamptz,
    review_state text,
    review_reason text
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_at timestamptz := pymem_private.observed_moment(observed_at);
    v_id uuid;
    v_grounded record;
begin
    perform pymem_private.require_text('content', content, 100000);
    perform pymem_private.require_text('scope', scope, 200);
    perform pymem.memory_decay_rate(permanence);
    select * into v_grounded  -- PM007 for speculation: nothing is written
      from pymem_private.ground(v_tenant, content, source, citation, source_episode_id);
    insert into pymem.rules as r (
        tenant_id, content, scope, tags, permanence, maturity, confidence, source_butler, source_episode_id,
        embedding, embedding_model, token_count, metadata, review_state, source, citation, review_reason,
        created_at, last_confirmed_at
    ) values (
        v_tenant, content, scope, pymem_private.tags_jsonb(tags), permanence, 'candidate',
        pymem.memory_rule_confidence('candidate'), pymem_private.source_butler_name(source_butler),
        v_grounded.source_episode_id,
        pymem_private.require_embedding('embedding', embedding),
        pymem_private.embedding_model_for(embedding, embedding_model),
        pymem_private.require_token_count(token_count),
        pymem_private.require_metadata(metadata),
        v_grounded.review_state, source, v_grounded.citation, v_grounded.review_reason, v_at, v_at
    )
    returning r.id into v_id;
    if v_grounded.source_episode_id is not null then
        insert into pymem.memory_links (tenant_id, source_type, source_id, target_type, target_id, relation)
        values (v_tenant, 'rule', v_id, 'episode', v_grounded.source_episode_id, 'derived_from')
        on conflict do nothing;
    end if;
    return query select
        'rule'::text, v_id, v_tenant, embedding is not null, null::uuid, null::timestamptz,
        v_grounded.review_state, v_grounded.review_reason;
end;
$$;

comment on function pymem.memory_store_rule(
    text, text, text[], text, text, uuid, public.vector, text, integer, jsonb, text, text, timestamptz
) is
$$Stores a learned behaviour as a candidate rule (confidence 0.5) and returns what was stored (memory_type,
memory_id, tenant_id, embedded, review_state, review_reason). source and citation decide its tier as for
memory_store_fact (review_state 'pending_review': not recalled until memory_confirm); helpful and harmful
feedback (memory_mark_helpful, memory_mark_harmful) move its maturity. Limits and observed_at as for
memory_store_fact.
Example: select memory_id
from memory_store_rule(content => 'Always confirm before sending messages', scope => 'global');$$;
