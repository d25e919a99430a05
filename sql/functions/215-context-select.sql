-- noqa: disable=RF01
-- memory_context_select: which ranked candidates of memory_context_candidates go into a context block of
-- a token budget (the butler's quotas, spill-over, tie-breaks). The wrapper renders each candidate's line
-- and counts its tokens with the model's tokenizer (SQL has none); this function decides over those counts.

create or replace function pymem.memory_context_select(
    butler text,
    candidates jsonb,
    token_budget integer default null,
    header_tokens integer default 0
)
returns table (
    section text,
    section_rank integer,
    memory_id uuid,
    tokens integer,
    selected boolean,
    selection_pass integer,
    budget integer
)
language plpgsql
stable  -- reads the butler's settings, writes nothing
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_butler pymem.butler_settings := pymem_private.butler_settings_for(v_tenant, butler);
    v_budget integer := pymem_private.require_token_budget(
        'token_budget', coalesce(memory_context_select.token_budget, v_butler.context_token_budget)
    );
    -- the blocks that hold memories, in the block order (Task, the trigger prompt, is counted with the headers)
    v_sections constant text[] := array['system', 'project', 'history', 'knowledge'];
    v_quotas double precision[] := array[
        v_butler.quota_system, v_butler.quota_project, v_butler.quota_history, v_butler.quota_knowledge
    ];
    v_available integer;
    v_n integer;
    v_sec integer[];
    v_rank integer[];
    v_id uuid[];
    v_score double precision[];
    v_created timestamptz[];
    v_tokens integer[];
    v_first integer[] := array[1, 1, 1, 1];  -- index of each section's first candidate
    v_count integer[] := array[0, 0, 0, 0];  -- candidates per section
    v_kept integer[] := array[0, 0, 0, 0];   -- a prefix of each section's ranking
    v_pass1 integer[];
    v_open boolean[] := array[true, true, true, true];
    v_cap integer;
    v_spent integer;
    v_remaining integer;
    v_best integer;
    v_i integer;
begin
    perform pymem_private.require_text('butler', butler, 200);
    if header_tokens is null or header_tokens < 0 then
        raise exception 'header_tokens must be >= 0, not %', coalesce(header_tokens::text, 'NULL')
            using errcode = 'PM002';
    end if;
    if header_tokens > v_budget then
        raise exception 'token_budget % is too small for a memory context block: its headers alone take % tokens',
            v_budget, header_tokens
            using errcode = 'PM002', hint = pg_catalog.format('Use a token_budget of at least %s.', header_tokens);
    end if;
    if candidates is null or pg_catalog.jsonb_typeof(candidates) <> 'array' then
        raise exception 'candidates must be a JSON array of memory_context_candidates rows'
            using errcode = 'PM002',
            hint = 'Each element needs section, section_rank, memory_id, score, created_at and tokens (or token_count).';
    end if;
    if pg_catalog.jsonb_array_length(candidates) > 3000 then
        raise exception 'candidates holds % rows, at most 3000', pg_catalog.jsonb_array_length(candidates)
            using errcode = 'PM002';
    end if;
    if exists (
        select from pg_catalog.jsonb_array_elements(candidates) as c (value)
        where pg_catalog.jsonb_typeof(c.value) <> 'object'
            or not (c.value ->> 'section') = any (v_sections)
            or pg_catalog.jsonb_typeof(c.value -> 'section_rank') is distinct from 'number'
            or (c.value ->> 'section_rank')::numeric not between 1 and 2147483647
            or (c.value ->> 'section_rank')::numeric <> pg_catalog.trunc((c.value ->> 'section_rank')::numeric)
            or not pg_catalog.pg_input_is_valid(c.value ->> 'memory_id', 'uuid')
            or pg_catalog.jsonb_typeof(c.value -> 'score') is distinct from 'number'
            or not pg_catalog.pg_input_is_valid(c.value ->> 'created_at', 'timestamptz')
            or pg_catalog.jsonb_typeof(coalesce(c.value -> 'tokens', c.value -> 'token_count')) is distinct from 'number'
            or (coalesce(c.value -> 'tokens', c.value -> 'token_count'))::numeric not between 0 and 2147483647
            or (coalesce(c.value -> 'tokens', c.value -> 'token_count'))::numeric
            <> pg_catalog.trunc((coalesce(c.value -> 'tokens', c.value -> 'token_count'))::numeric)
            or coalesce(pg_catalog.jsonb_typeof(c.value -> 'content'), 'null') not in ('string', 'null')
    ) then
        raise exception 'candidates has an element without a valid section, section_rank, memory_id, score, created_at or tokens'
            using errcode = 'PM002',
            hint = 'section is system, project, history or knowledge; section_rank a whole number >= 1; tokens (or token_count) a whole number >= 0; content, when given, a string.';
    end if;
    if exists (
        select from pg_catalog.jsonb_array_elements(candidates) as c (value)
        group by c.value ->> 'section', (c.value ->> 'section_rank')::integer
        having pg_catalog.count(*) > 1
    ) then
        raise exception 'candidates holds a section_rank twice in one section'
            using errcode = 'PM002', hint = 'Pass the rows of one memory_context_candidates call.';
    end if;
    v_available := v_budget - header_tokens;

    select
        pg_catalog.array_agg(pg_catalog.array_position(v_sections, c.value ->> 'section')
            order by pg_catalog.array_position(v_sections, c.value ->> 'section'), (c.value ->> 'section_rank')::integer),
        pg_catalog.array_agg((c.value ->> 'section_rank')::integer
            order by pg_catalog.array_position(v_sections, c.value ->> 'section'), (c.value ->> 'section_rank')::integer),
        pg_catalog.array_agg((c.value ->> 'memory_id')::uuid
            order by pg_catalog.array_position(v_sections, c.value ->> 'section'), (c.value ->> 'section_rank')::integer),
        pg_catalog.array_agg((c.value ->> 'score')::double precision
            order by pg_catalog.array_position(v_sections, c.value ->> 'section'), (c.value ->> 'section_rank')::integer),
        pg_catalog.array_agg((c.value ->> 'created_at')::timestamptz
            order by pg_catalog.array_position(v_sections, c.value ->> 'section'), (c.value ->> 'section_rank')::integer),
        -- a row that carries its content (a memory_context_candidates row) counts at least pymem.token_floor of
        -- it: a token_count stored before that floor (a 99,000-character word was one token) cannot fool a budget
        pg_catalog.array_agg(greatest(
            coalesce(c.value ->> 'tokens', c.value ->> 'token_count')::integer,
            pymem.token_floor(c.value ->> 'content')
        )
            order by pg_catalog.array_position(v_sections, c.value ->> 'section'), (c.value ->> 'section_rank')::integer)
    into v_sec, v_rank, v_id, v_score, v_created, v_tokens
    from pg_catalog.jsonb_array_elements(candidates) as c (value);
    v_n := coalesce(pg_catalog.array_length(v_id, 1), 0);
    for v_i in 1 .. v_n loop
        v_count[v_sec[v_i]] := v_count[v_sec[v_i]] + 1;
    end loop;
    v_first := array[
        1, 1 + v_count[1], 1 + v_count[1] + v_count[2], 1 + v_count[1] + v_count[2] + v_count[3]
    ];

    -- first pass: each section takes the best of its ranking while they fit in its quota share
    v_spent := 0;
    for s in 1 .. 4 loop
        v_cap := pg_catalog.floor(v_available * v_quotas[s])::integer;
        v_remaining := 0;
        while v_kept[s] < v_count[s] and v_remaining + v_tokens[v_first[s] + v_kept[s]] <= v_cap loop
            v_remaining := v_remaining + v_tokens[v_first[s] + v_kept[s]];
            v_kept[s] := v_kept[s] + 1;
        end loop;
        v_spent := v_spent + v_remaining;
    end loop;
    v_pass1 := v_kept;

    -- second pass: what is left goes to the best next item of any section (score DESC, created_at DESC,
    -- id ASC, then section order) until none fits; a section whose next item does not fit is closed, so
    -- every section stays a prefix of its ranking (the lowest-scored are the ones left out)
    v_remaining := v_available - v_spent;
    loop
        v_best := null;
        for s in 1 .. 4 loop
            if v_open[s] and v_kept[s] < v_count[s] then
                v_i := v_first[s] + v_kept[s];
                if v_best is null
                    or v_score[v_i] > v_score[v_best]
                    or (v_score[v_i] = v_score[v_best] and v_created[v_i] > v_created[v_best])
                    or (v_score[v_i] = v_score[v_best] and v_created[v_i] = v_created[v_best] and v_id[v_i] < v_id[v_best])
                then
                    v_best := v_i;
                end if;
            end if;
        end loop;
        exit when v_best is null;
        if v_tokens[v_best] <= v_remaining then
            v_kept[v_sec[v_best]] := v_kept[v_sec[v_best]] + 1;
            v_remaining := v_remaining - v_tokens[v_best];
        else
            v_open[v_sec[v_best]] := false;
        end if;
    end loop;

    return query
    select
        v_sections[v_sec[i]],
        v_rank[i],
        v_id[i],
        v_tokens[i],
        i - v_first[v_sec[i]] < v_kept[v_sec[i]],
        case
            when i - v_first[v_sec[i]] < v_pass1[v_sec[i]] then 1
            when i - v_first[v_sec[i]] < v_kept[v_sec[i]] then 2
        end,
        v_budget
    from pg_catalog.generate_series(1, v_n) as i
    order by i;
end;
$$;

comment on function pymem.memory_context_select(text, jsonb, integer, integer) is
$$Which candidates of memory_context_candidates go into a context block of at most token_budget tokens (default:
the butler's context_token_budget), header_tokens of which the block's headers take (PM002 when they alone do
not fit). candidates: a JSON array of candidate rows, each with section, section_rank, memory_id, score,
created_at and tokens (the tokens of its rendered line; token_count, the content's, when tokens is absent); an element
that carries its content (a string) counts at least pymem.token_floor(content) tokens, so a count stored before that
floor cannot take a long text past the budget.
First pass: each block (system, project, history, knowledge; Task, the trigger prompt, is in header_tokens) takes
its best items while they fit in floor(quota * (budget - header_tokens)), the butler's context.quotas
(0.15/0.25/0.2/0.4); second pass: what is left goes to the best next item
of any section (score DESC, created_at DESC, id ASC, then section order) until none fits. A section's selection is
always a prefix of its ranking. One row per candidate: selected, selection_pass 1 (quota) or 2 (spill-over),
and the budget in force (token_budget, else the butler's).
Example: select section, section_rank, memory_id, tokens, selected from memory_context_select(butler => 'health',
candidates => (select jsonb_agg(c) from memory_context_candidates(trigger_prompt => 'diet', butler => 'health') as c));$$;
