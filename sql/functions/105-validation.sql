-- Argument checks shared by the memory API. Each raises PM002 (invalid argument) with a
-- message naming the argument, so a bad call fails before anything is written.

create or replace function pymem_private.require_text(argument text, value text, max_length integer default null)
returns text
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if value is null or pg_catalog.btrim(value) = '' then
        raise exception '% must be a non-empty text', argument
            using errcode = 'PM002', detail = pg_catalog.format('%s was %s', argument, pg_catalog.quote_nullable(value));
    end if;
    if max_length is not null and pg_catalog.length(value) > max_length then
        raise exception '% is too long (% characters; at most %)', argument, pg_catalog.length(value), max_length
            using errcode = 'PM002';
    end if;
    return value;
end;
$$;

comment on function pymem_private.require_text(text, text, integer) is
'Returns value, or raises PM002 when it is NULL, blank, or longer than max_length.';


create or replace function pymem_private.require_range(
    argument text, value double precision, low double precision, high double precision
)
returns double precision
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if value is null or value = 'NaN'::double precision or value < low or value > high then
        raise exception '% must be between % and %', argument, low, high
            using errcode = 'PM002', detail = pg_catalog.format('%s was %s', argument, coalesce(value::text, 'NULL'));
    end if;
    return value;
end;
$$;

comment on function pymem_private.require_range(text, double precision, double precision, double precision) is
'Returns value, or raises PM002 when it is NULL, NaN or outside [low, high].';


create or replace function pymem_private.require_memory_type(argument text, value text, allowed text[])
returns text
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if value is null or not (value = any(allowed)) then
        raise exception 'invalid % %', argument, pg_catalog.quote_nullable(value)
            using errcode = 'PM002',
                  detail = pg_catalog.format('%s must be one of: %s', argument, pg_catalog.array_to_string(allowed, ', '));
    end if;
    return value;
end;
$$;

comment on function pymem_private.require_memory_type(text, text, text[]) is
'Returns value, or raises PM002 naming the allowed values (memory types, modes).';


create or replace function pymem_private.require_vector(
    argument text, embedding public.vector, dimensions integer, model text
)
returns public.vector
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
    if public.vector_dims(embedding) <> dimensions then
        raise exception '% must have % dimensions (%), not %', argument, dimensions, model, public.vector_dims(embedding)
            using errcode = 'PM002';
    end if;
    if public.vector_norm(embedding) = 0 then
        raise exception '% must not be the zero vector (cosine distance is undefined for it)', argument
            using errcode = 'PM002';
    end if;
    -- pgvector sums the squares and products of a cosine in single precision: values past about 1e19 overflow
    -- it, values below about 1e-19 underflow it to 0, and the distance is then NaN (a stored one, or a query's,
    -- ranked unrelated memories first with score NaN and relevance 1, as tests/test_properties.py found).
    -- A vector's distance to itself is NaN exactly then.
    if public.cosine_distance(embedding, embedding) = 'NaN'::double precision then
        raise exception '% has values too large or too small for a cosine distance (its norm is %)',
            argument, public.vector_norm(embedding)
            using errcode = 'PM002',
                  hint = pg_catalog.format('Pass the vector the model computed: %s vectors have norm 1.', model);
    end if;
    return embedding;
end;
$$;

comment on function pymem_private.require_vector(text, public.vector, integer, text) is
$$Returns the embedding (or NULL), or raises PM002 when it does not have `dimensions` dimensions (of `model`, named
in the message), is the zero vector, or has values so large or so small that pgvector's single-precision cosine
distance is NaN for it (its distance to itself).
Example: select pymem_private.require_vector('query_embedding', '[1,0,0]', 3, 'a toy model');$$;


create or replace function pymem_private.require_embedding(argument text, embedding public.vector)
returns public.vector
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return pymem_private.require_vector(argument, embedding, 384, 'MiniLM-L6');

comment on function pymem_private.require_embedding(text, public.vector) is
$$Returns the embedding (or NULL), or raises PM002 when it is not 384-dimensional, is the zero vector, or has values
so large or so small that pgvector's single-precision cosine distance is NaN for it (its distance to itself).$$;


create or replace function pymem_private.require_vector_batch(
    memory_types text[],
    memory_ids uuid[],
    content_md5s text[],
    embeddings public.vector[],
    embedding_model text,
    dimensions integer,
    model text
)
returns integer
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_n integer := pg_catalog.cardinality(memory_ids);
begin
    if v_n is null or pg_catalog.cardinality(memory_types) is distinct from v_n
       or pg_catalog.cardinality(content_md5s) is distinct from v_n
       or pg_catalog.cardinality(embeddings) is distinct from v_n then
        raise exception 'memory_types, memory_ids, content_md5s and embeddings must have one element each per memory'
            using errcode = 'PM002';
    end if;
    perform pymem_private.require_text('embedding_model', embedding_model, 200);
    for i in 1 .. v_n loop
        if embeddings[i] is null then
            raise exception 'embeddings[%] must not be NULL', i using errcode = 'PM002';
        end if;
        perform pymem_private.require_vector(pg_catalog.format('embeddings[%s]', i), embeddings[i], dimensions, model);
        if memory_types[i] is null or memory_types[i] not in ('episode', 'fact', 'rule') then
            raise exception 'memory_types[%] must be episode, fact or rule, not %', i, pg_catalog.quote_nullable(memory_types[i])
                using errcode = 'PM002';
        end if;
    end loop;
    return v_n;
end;
$$;

comment on function pymem_private.require_vector_batch(text[], uuid[], text[], public.vector[], text, integer, text) is
$$The checks of a batch of vectors written back (memory_embedding_complete, memory_second_embedding_store): one
type, id, MD5 and vector per memory, a model id, every vector usable (pymem_private.require_vector: `dimensions`
of `model`) and every type episode, fact or rule; returns how many memories, else PM002 naming what is wrong.
Example: select pymem_private.require_vector_batch(array['fact'], array[gen_random_uuid()], array['x'],
array['[1,0,0]'::vector], 'm', 3, 'a toy model');$$;


create or replace function pymem_private.tags_jsonb(tags text[])
returns jsonb
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if tags is null then
        return '[]'::jsonb;
    end if;
    if pg_catalog.array_ndims(tags) > 1 then
        raise exception 'tags must be a one-dimensional array of texts' using errcode = 'PM002';
    end if;
    -- the count first: a huge array is refused before any tag of it is looked at
    if pg_catalog.cardinality(tags) > 100 then
        raise exception 'too many tags (%; at most 100)', pg_catalog.cardinality(tags)
            using errcode = 'PM002', hint = 'Tags are labels for filtering: keep a few short ones.';
    end if;
    if exists (select from pg_catalog.unnest(tags) as t (tag) where t.tag is null or pg_catalog.btrim(t.tag) = '') then
        raise exception 'tags must not contain NULL or blank tags'
            using errcode = 'PM002', detail = pg_catalog.format('tags were %s', tags);
    end if;
    if exists (select from pg_catalog.unnest(tags) as t (tag) where pg_catalog.length(t.tag) > 200) then
        raise exception 'a tag is too long (% characters; at most 200)',
            (select pg_catalog.max(pg_catalog.length(t.tag)) from pg_catalog.unnest(tags) as t (tag))
            using errcode = 'PM002', hint = 'Tags are labels for filtering: keep a few short ones.';
    end if;
    return coalesce((select pg_catalog.jsonb_agg(distinct t.tag) from pg_catalog.unnest(tags) as t (tag)), '[]'::jsonb);
end;
$$;

comment on function pymem_private.tags_jsonb(text[]) is
$$Tags as the jsonb array stored in facts.tags and rules.tags (distinct, sorted); PM002 on NULL or blank tags, on
more than 100 tags or on a tag longer than 200 characters.$$;


create or replace function pymem_private.require_metadata(metadata jsonb)
returns jsonb
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_bytes integer;
    v_level jsonb[];  -- the objects and arrays at one nesting depth
    v_depth integer := 0;
begin
    if metadata is null then
        return '{}'::jsonb;
    end if;
    if pg_catalog.jsonb_typeof(metadata) <> 'object' then
        raise exception 'metadata must be a JSON object, not %', pg_catalog.jsonb_typeof(metadata)
            using errcode = 'PM002';
    end if;
    v_bytes := pg_catalog.octet_length(metadata::text);
    if v_bytes > 65536 then
        raise exception 'metadata is too large (% bytes as JSON text; at most 65536)', v_bytes
            using errcode = 'PM002',
                  hint = 'metadata describes a memory (its file, its date): keep the content in content.';
    end if;
    -- the nesting depth, level by level without recursion (the top-level object is depth 1); at most 33
    -- levels are looked at, each holding at most the 64 KiB above
    v_level := array[metadata];
    while pg_catalog.cardinality(v_level) > 0 loop
        v_depth := v_depth + 1;
        if v_depth > 32 then
            raise exception 'metadata is nested too deeply (more than 32 levels of objects and arrays)'
                using errcode = 'PM002', hint = 'Flatten it: metadata describes a memory in a few plain keys.';
        end if;
        select coalesce(pg_catalog.array_agg(c.child), '{}') into v_level
        from pg_catalog.unnest(v_level) as l (item)
        cross join lateral (
            select o.value from pg_catalog.jsonb_each(
                case pg_catalog.jsonb_typeof(l.item) when 'object' then l.item else '{}'::jsonb end
            ) as o
            union all
            select a.value from pg_catalog.jsonb_array_elements(
                case pg_catalog.jsonb_typeof(l.item) when 'array' then l.item else '[]'::jsonb end
            ) as a
        ) as c (child)
        where pg_catalog.jsonb_typeof(c.child) in ('object', 'array');
    end loop;
    if metadata ? 'source_date' and not (
        pg_catalog.jsonb_typeof(metadata -> 'source_date') = 'string'
        and (metadata ->> 'source_date') ~ '^\d{4}-\d{2}-\d{2}$'
        and pg_catalog.pg_input_is_valid(metadata ->> 'source_date', 'date')
    ) then
        raise exception 'metadata.source_date must be a date written YYYY-MM-DD, not %', metadata -> 'source_date'
            using errcode = 'PM002',
                  hint = 'source_date is the date of a dated memory file; search scores decay with its age.';
    end if;
    return metadata;
end;
$$;

comment on function pymem_private.require_metadata(jsonb) is
$$Returns metadata (an empty object for NULL), or raises PM002 when it is not a JSON object, is larger than 64 KiB
as JSON text, is nested more than 32 levels deep (the top-level object is 1), or its source_date is not a
YYYY-MM-DD date.$$;


create or replace function pymem_private.source_butler_name(value text)
returns text
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    -- blank or NULL: no source butler; else a butler's name, as memory_store_episode takes it
    if value is null or pg_catalog.btrim(value) = '' then
        return null;
    end if;
    if pg_catalog.length(value) > 200 or value ~ '[[:cntrl:]]' then
        raise exception 'source_butler must be a butler''s name: at most 200 characters, in one line, not %',
            pg_catalog.to_jsonb(pg_catalog.left(value, 80))
            using errcode = 'PM002', hint = 'The butler (agent) that learned it, e.g. ''health''.';
    end if;
    return pg_catalog.btrim(value);
end;
$$;

comment on function pymem_private.source_butler_name(text) is
$$The source_butler of a stored fact or rule: NULL for NULL or blank, else the name trimmed; PM002 for more than 200
characters or a control character (the name is printed in memory_context's lines).
Example: select pymem_private.source_butler_name(' health ');  -- health$$;


create or replace function pymem_private.observed_moment(observed_at timestamptz)
returns timestamptz
language plpgsql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if observed_at is null then
        return pg_catalog.now();
    end if;
    if not pg_catalog.isfinite(observed_at) then
        raise exception 'observed_at must be a finite moment, not %', observed_at
            using errcode = 'PM002', hint = 'Leave it out for now, or give when it was said, e.g. ''2026-03-01 18:30+00''.';
    end if;
    -- a client clock a little ahead of the server's is not an error: the moment is taken as now
    if observed_at > pg_catalog.now() + interval '5 minutes' then
        raise exception 'observed_at must not be in the future, not %', observed_at
            using errcode = 'PM002',
                  detail = pg_catalog.format('the database''s clock says %s', pg_catalog.now()),
                  hint = 'Give when the memory was observed (now or earlier), or leave it out for now.';
    end if;
    return least(observed_at, pg_catalog.now());
end;
$$;

comment on function pymem_private.observed_moment(timestamptz) is
$$The moment a memory was observed, for the store functions' observed_at: now() when NULL; a moment up to five
minutes ahead of the database's clock is taken as now; PM002 for a later or an infinite one.
Example: select pymem_private.observed_moment(now() - interval '3 days');$$;
