-- Conversation context: each episode of a session remembers the previous turn (its retrieval_context; the last
-- ten words of it are part of its search_vector, migration 0027), so that a reply is found by what it answers.
-- The session's order is session_position, set here: episodes stored in one transaction share created_at.

create or replace function pymem_private.set_session_context()
returns trigger
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_previous record;
begin
    if new.session_id is null then
        new.session_position := null;
        return new;
    end if;
    if new.session_position is not null then
        -- given (a restored episode, pymem.memory_import): its place and context are kept as they were
        return new;
    end if;
    -- the index (tenant_id, session_id, session_position) read backwards: one row, however long the session
    select e.content, e.session_position into v_previous
    from pymem.episodes as e
    where e.tenant_id = new.tenant_id and e.session_id = new.session_id and e.session_position is not null
    order by e.session_position desc
    limit 1;
    new.session_position := coalesce(v_previous.session_position, 0) + 1;
    new.retrieval_context := coalesce(new.retrieval_context, v_previous.content);
    return new;
end;
$$;

comment on function pymem_private.set_session_context() is
$$Trigger (before insert on episodes): an episode with a session_id gets session_position = the session's last
position + 1, and retrieval_context = the content of the session's last episode (forgotten or not: it was said),
unless the caller gave one. An episode that comes with its session_position (restored by memory_import) keeps it
and its retrieval_context as they were. Concurrent writers to one session may share a position.$$;

drop trigger if exists episodes_session_context on pymem.episodes;
create trigger episodes_session_context
before insert on pymem.episodes
for each row execute function pymem_private.set_session_context();


create or replace function pymem_private.episode_embedding_text(retrieval_context text, content text)
returns text
language sql
immutable
parallel safe
security invoker
return case
    -- a turn of more than 12 words stands alone; a short reply ("Yes, last Tuesday.") is read after the end of the
    -- turn it answers (its last 20 words)
    when
        episode_embedding_text.retrieval_context is null
        or pg_catalog.cardinality(
            pg_catalog.regexp_split_to_array(pg_catalog.btrim(episode_embedding_text.content), '\s+')
        ) > 12
        then episode_embedding_text.content
    else coalesce(
        pg_catalog.substring(episode_embedding_text.retrieval_context, '((?:\S+\s+){0,19}\S+)\s*$'), ''
    ) || E'\n' || episode_embedding_text.content
end;

comment on function pymem_private.episode_embedding_text(text, text) is
$$The text an episode's embedding is computed from: its content; for a short reply (at most 12 words) in a session,
the last 20 words of the previous turn, a line break and its content. Before migration 0027 every turn of a session
was embedded after the whole previous turn: on hand-written chats (eval/conversations) that cost more than it
gave: a long answer before a turn drowned the turn's own meaning, and the turn after a statement matched it as
well as the statement did.
Example: select pymem_private.episode_embedding_text('Did the cryovials arrive?', 'Two boxes on Tuesday.');$$;


create or replace function pymem.memory_episode_text(session_id uuid, content text)
returns table (previous_id uuid, retrieval_context text, embedding_text text)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_previous_id uuid;
    v_previous_content text;
begin
    perform pymem_private.require_text('content', content, 100000);
    if memory_episode_text.session_id is not null then
        select e.id, e.content into v_previous_id, v_previous_content
        from pymem.episodes as e
        where e.tenant_id = v_tenant and e.session_id = memory_episode_text.session_id
          and e.session_position is not null
        order by e.session_position desc
        limit 1;
    end if;
    return query select
        v_previous_id,
        v_previous_content,
        pymem_private.episode_embedding_text(v_previous_content, memory_episode_text.content);
end;
$$;

comment on function pymem.memory_episode_text(uuid, text) is
$$What a new episode of a session will be found by, before it is stored: the session's last episode
(previous_id; its content becomes the new episode's retrieval_context, memory_store_episode sets it) and
embedding_text, the text to embed (pymem_private.episode_embedding_text: the content, after the end of the
previous turn for a short reply).
One row. The MCP server embeds embedding_text.
Example: select embedding_text from memory_episode_text('6f1e1f0e-3c1e-4c55-8d39-5a0a4c0f9a01', 'Yes, last Tuesday.');$$;


create or replace function pymem.memory_embedding_text(type text, id uuid)
returns text
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_type text := pymem_private.require_memory_type('type', type, array['episode', 'fact', 'rule']);
    v_text text;
begin
    if v_type = 'episode' then
        select pymem_private.episode_embedding_text(e.retrieval_context, e.content) into v_text
        from pymem.episodes as e where e.tenant_id = v_tenant and e.id = memory_embedding_text.id;
    elsif v_type = 'fact' then
        select f.content into v_text from pymem.facts as f where f.tenant_id = v_tenant and f.id = memory_embedding_text.id;
    else
        select r.content into v_text from pymem.rules as r where r.tenant_id = v_tenant and r.id = memory_embedding_text.id;
    end if;
    if v_text is null then
        perform pymem_private.not_found(v_type, id);
    end if;
    return v_text;
end;
$$;

comment on function pymem.memory_embedding_text(text, uuid) is
$$The text a memory of the current tenant is embedded from, as it is stored now: a fact's or rule's content, an
episode's content, after the end of its previous turn for a short reply (pymem_private.episode_embedding_text). What `pymem erase` re-embeds a turn
rebuilt by memory_erase from. PM003 for an unknown id.
Example: select pymem.memory_embedding_text('episode', '6f1e1f0e-3c1e-4c55-8d39-5a0a4c0f9a01');$$;
