-- noqa: disable=RF01
-- Importing a markdown memory file (`pymem import PATH`): chunk n of the file becomes the fact
-- (subject = the file's path, predicate = 'chunk n', metadata {source_path, chunk, source_date?}).
--
-- SQL proposes, Python runs the model, SQL decides, in one tenant transaction:
--   1. memory_import_plan(subject, chunks, ...) says, per chunk, whether it is new, updated or
--      unchanged, and which active imported facts of the file would be retracted; only new and
--      updated chunks need an embedding, so re-importing an unchanged file embeds nothing.
--   2. Python embeds those chunks (and counts their tokens).
--   3. memory_import_file(subject, chunks, embeddings, token_counts, ...) decides again, under a
--      per-file lock, and writes: new and updated chunks through memory_store_fact (supersession is
--      the trigger's), leftover chunks through memory_forget. An unchanged chunk writes nothing.
--
-- Cutting the text into chunks needs the model's tokenizer and stays in Python. So does reading the
-- date out of a file name (YYYY-MM-DD.md): it is about the file, not about the memory model, and
-- the caller passes it as source_date (a date, so a malformed one never reaches the database); how
-- a dated fact decays is SQL's (pymem.memory_date_decay reads metadata.source_date).

create or replace function pymem_private.import_chunk_metadata(source_path text, chunk integer, source_date date)
returns jsonb
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select
        pg_catalog.jsonb_build_object('source_path', source_path, 'chunk', chunk)
        || case
            when source_date is null then '{}'::jsonb
            -- to_char, not ::text, so that the DateStyle setting cannot change the stored text
            else pg_catalog.jsonb_build_object('source_date', pg_catalog.to_char(source_date, 'YYYY-MM-DD'))
        end;
end;

comment on function pymem_private.import_chunk_metadata(text, integer, date) is
$$The metadata of an imported chunk: {"source_path": source_path, "chunk": chunk} plus "source_date"
(YYYY-MM-DD) for a dated file.
Example: select pymem_private.import_chunk_metadata('daily/2026-01-05.md', 2, '2026-01-05');$$;


create or replace function pymem_private.require_import_chunks(chunks text[])
returns integer
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_count integer := pg_catalog.cardinality(chunks);
    v_position bigint;
begin
    if chunks is null then
        raise exception 'chunks must be an array of texts, not NULL'
            using errcode = 'PM002', hint = 'An empty file is an empty array: chunks => ''{}''::text[].';
    end if;
    if pg_catalog.array_ndims(chunks) > 1 or pg_catalog.array_lower(chunks, 1) <> 1 then
        raise exception 'chunks must be a one-dimensional array indexed from 1'
            using errcode = 'PM002', detail = pg_catalog.format('chunks had the bounds %s', pg_catalog.array_dims(chunks));
    end if;
    if v_count > 10000 then
        raise exception 'too many chunks (%; at most 10000 per file)', v_count
            using errcode = 'PM002', hint = 'Split the file, or cut it into larger chunks.';
    end if;
    select c.n into v_position
      from pg_catalog.unnest(chunks) with ordinality as c (content, n)
     where c.content is null or c.content !~ '[^[:space:]]'
     order by c.n
     limit 1;
    if v_position is not null then
        raise exception 'chunks[%] must be a non-empty text', v_position
            using errcode = 'PM002',
                  detail = pg_catalog.format('chunks[%s] was %s', v_position, pg_catalog.quote_nullable(chunks[v_position])),
                  hint = 'A chunk holds some text; leave blank chunks out.';
    end if;
    return v_count;
end;
$$;

comment on function pymem_private.require_import_chunks(text[]) is
$$Returns the number of chunks, or raises PM002 when chunks is NULL, not a one-dimensional array indexed from 1,
longer than 10000, or holds a NULL chunk or one of only white space (named by its position). The length of each chunk is
memory_store_fact's check (content, at most 100000 characters).
Example: select pymem_private.require_import_chunks(array['# Diet', 'Anna is vegetarian.']);$$;


create or replace function pymem_private.require_same_length(argument text, value anyarray, expected integer)
returns anyarray
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if value is null then
        return null;
    end if;
    if pg_catalog.array_ndims(value) > 1
       or pg_catalog.cardinality(value) <> expected
       or (expected > 0 and pg_catalog.array_lower(value, 1) <> 1) then
        raise exception '% must have one element per chunk (% elements), not %', argument, expected,
            coalesce(pg_catalog.array_dims(value), '[] (empty)')
            using errcode = 'PM002',
                  hint = pg_catalog.format('Pass NULL in %s where a chunk needs nothing, or %s => NULL for none at all.',
                                           argument, argument);
    end if;
    return value;
end;
$$;

comment on function pymem_private.require_same_length(text, anyarray, integer) is
$$Returns value (NULL allowed), or raises PM002 unless it is a one-dimensional array of exactly expected elements
indexed from 1 (the embeddings and token counts that go with the chunks of a file).
Example: select pymem_private.require_same_length('token_counts', array[3, null], 2);$$;


create or replace function pymem.memory_import_plan(
    subject text,
    chunks text[],
    scope text default 'global',
    source_date date default null
)
returns table (
    chunk integer,
    predicate text,
    action text,
    fact_id uuid,
    needs_embedding boolean
)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
begin
    perform pymem_private.require_text('subject', memory_import_plan.subject, 500);
    perform pymem_private.require_import_chunks(memory_import_plan.chunks);
    perform pymem_private.require_text('scope', memory_import_plan.scope, 200);
    -- once (tests/test_properties.py): a source_date that is no YYYY-MM-DD date (infinity, a BC date, a year
    -- after 9999) was planned, then failed memory_import_file with "metadata.source_date must be a date written
    -- YYYY-MM-DD, not null", about an argument its caller never passed (a BC date was dated AD). memory_import_file
    -- plans through this function before it writes anything.
    if not (coalesce(memory_import_plan.source_date, '2000-01-01') between '0001-01-01' and '9999-12-31') then
        raise exception 'source_date must be a date from 0001-01-01 to 9999-12-31, not %', memory_import_plan.source_date
            using errcode = 'PM002', hint = 'It is the date of a dated memory file (YYYY-MM-DD.md).';
    end if;
    return query
    with
    wanted as (
        select
            c.n::integer as chunk,
            'chunk ' || c.n as predicate,
            c.content,
            pymem_private.import_chunk_metadata(memory_import_plan.subject, c.n::integer, memory_import_plan.source_date)
                as metadata
        from pg_catalog.unnest(memory_import_plan.chunks) with ordinality as c (content, n)
    ),

    -- the file's facts from an earlier import: active, and marked by metadata.source_path
    existing as (
        select f.id, f.predicate, f.content, f.scope, f.metadata
        from pymem.facts as f
        where
            f.tenant_id = v_tenant
            and f.subject = memory_import_plan.subject
            and f.validity = 'active'
            and f.metadata ? 'source_path'
    ),

    decided as (
        select
            w.chunk,
            w.predicate,
            case
                when e.id is null then 'new'
                when (e.content, e.scope, e.metadata) = (w.content, memory_import_plan.scope, w.metadata) then 'unchanged'
                else 'updated'
            end as action,
            e.id as fact_id
        from wanted as w
        left join existing as e on w.predicate = e.predicate
        union all
        select null::integer, e.predicate, 'retracted', e.id
        from existing as e
        where not exists (select from wanted as w where w.predicate = e.predicate)
    )

    select d.chunk, d.predicate, d.action, d.fact_id, d.action in ('new', 'updated')
    from decided as d
    order by d.chunk nulls last, d.fact_id;
end;
$$;

comment on function pymem.memory_import_plan(text, text[], text, date) is
$$What importing a file would do, without writing: one row per chunk (chunk = its position from 1, predicate
'chunk n') with action 'new' (no active imported fact has that subject and predicate), 'unchanged' (content, scope
and metadata {source_path, chunk, source_date?} are equal) or 'updated' (any of them differs: the new fact
supersedes it), then one row per active imported fact of the subject whose chunk the file no longer has (action
'retracted', chunk NULL). needs_embedding: new or updated, the chunks to embed before memory_import_file.
PM002 for a blank subject or scope, or chunks that are NULL, blank or more than 10000.
Example: select * from memory_import_plan(subject => 'MEMORY.md', chunks => array['# Diet', 'Anna is vegetarian.']);$$;


create or replace function pymem.memory_import_file(
    subject text,
    chunks text[],
    embeddings public.vector[] default null,
    token_counts integer[] default null,
    embedding_model text default null,
    scope text default 'global',
    source_date date default null,
    butler text default null
)
returns table (
    chunk_count integer,
    new_count integer,
    updated_count integer,
    unchanged_count integer,
    retracted_count integer
)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_count integer := pymem_private.require_import_chunks(memory_import_file.chunks);
    v_embeddings public.vector[] := pymem_private.require_same_length('embeddings', memory_import_file.embeddings, v_count);
    v_tokens integer[] := pymem_private.require_same_length('token_counts', memory_import_file.token_counts, v_count);
    v_row record;
    v_new integer := 0;
    v_updated integer := 0;
    v_unchanged integer := 0;
    v_retracted integer := 0;
begin
    perform pymem_private.require_text('subject', memory_import_file.subject, 500);
    perform pymem_private.require_text('scope', memory_import_file.scope, 200);
    -- One import of a file at a time per tenant: a concurrent import of the same file waits here, then
    -- decides on what this one wrote (READ COMMITTED: the plan below runs after the lock is granted).
    -- The key is (tenant, subject); supersession's per-fact lock (020-supersession.sql) hashes
    -- (tenant, subject, predicate) with another seed.
    perform pymem_private.lock_tenant_key(v_tenant, 'import', memory_import_file.subject);
    -- The chunks are passages of the operator's own file (source 'import', cited by its path), not claims:
    -- grounding (118-grounding.sql) keeps one for review when it tries to instruct the agent, no more.
    -- The plan is materialised before the first write, so the writes below do not change it.
    for v_row in
        select p.chunk, p.predicate, p.action, p.fact_id
        from pymem.memory_import_plan(
            subject => memory_import_file.subject,
            chunks => memory_import_file.chunks,
            scope => memory_import_file.scope,
            source_date => memory_import_file.source_date
        ) as p
    loop
        if v_row.action in ('new', 'updated') then
            -- without an embedding (none passed, or the plan changed since the caller's) the fact is found
            -- by keyword until `pymem reembed` embeds it
            perform pymem.memory_store_fact(
                subject => memory_import_file.subject,
                predicate => v_row.predicate,
                content => memory_import_file.chunks[v_row.chunk],
                permanence => 'permanent',
                scope => memory_import_file.scope,
                tags => array['imported'],
                source_butler => memory_import_file.butler,
                source => 'import',
                citation => memory_import_file.subject,
                embedding => v_embeddings[v_row.chunk],
                embedding_model => case when v_embeddings[v_row.chunk] is not null then memory_import_file.embedding_model end,
                token_count => v_tokens[v_row.chunk],
                metadata => pymem_private.import_chunk_metadata(
                    memory_import_file.subject, v_row.chunk, memory_import_file.source_date
                )
            );
            if v_row.action = 'new' then
                v_new := v_new + 1;
            else
                v_updated := v_updated + 1;
            end if;
        elsif v_row.action = 'unchanged' then
            v_unchanged := v_unchanged + 1;
        else
            perform pymem.memory_forget(
                type => 'fact', id => v_row.fact_id, reason => 'no longer in ' || memory_import_file.subject
            );
            v_retracted := v_retracted + 1;
        end if;
    end loop;
    return query select v_count, v_new, v_updated, v_unchanged, v_retracted;
end;
$$;

comment on function pymem.memory_import_file(text, text[], public.vector[], integer[], text, text, date, text) is
$$Imports one file as facts and returns what it did (chunk_count = new + updated + unchanged, and retracted_count).
Decides like memory_import_plan: a new or updated chunk n is stored through memory_store_fact (subject, predicate
'chunk n', permanence 'permanent', tags {imported}, source_butler = butler, source 'import', citation = subject,
metadata {source_path, chunk, source_date?}; an updated one supersedes the active fact; a chunk that tries to
instruct the agent is kept for review, and no chunk is refused as speculation: it is a passage of a document), with embeddings[n] and token_counts[n] (each array NULL,
or one element per chunk, NULL where not needed; embedding_model is required with an embedding); an unchanged chunk
writes nothing; an active imported fact whose chunk the file no longer has is retracted through memory_forget
(reason 'no longer in <subject>'). Imports of one file are serialised per tenant. PM002 on invalid arguments;
everything runs in the caller's transaction, so an error leaves nothing written.
Example: select * from memory_import_file(subject => 'daily/2026-01-05.md', chunks => array['Went running with Anna.'],
source_date => '2026-01-05');$$;
