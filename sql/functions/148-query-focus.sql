-- noqa: disable=RF01
-- The focus of a question (issue 30): what it asks beyond whom it names. "What musical instrument does Tom play?"
-- names Tom, and every fact about Tom shares that name with it, so by cosine and by keywords a fact about Tom's job
-- looks related to the question. The focus leaves out the words that name a subject of the tenant's facts
-- ("musical instrument does play"); memory_recall then keeps a fact or rule only when it is close to the focus too
-- (pymem_private.focus_passes). The server embeds the focus beside the question (focus_embedding).

create or replace function pymem.memory_query_focus(topic text)
returns text
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_focus text;
    v_named boolean;
begin
    perform pymem_private.require_text('topic', topic, 10000);
    -- the topic's words, lower case, a possessive 's dropped, in order; those that name a subject of an active
    -- fact of the tenant are left out (matched through the (tenant, subject, predicate) index: the word as
    -- written in lower case, capitalised or in capitals)
    select
        pg_catalog.string_agg(w.word, ' ' order by w.n) filter (where not w.named),
        coalesce(pg_catalog.bool_or(w.named), false)
    into v_focus, v_named
    from (
        select
            w.word,
            w.n,
            exists (
                select 1
                from pymem.facts as f
                where f.tenant_id = v_tenant
                    and f.validity = 'active'
                    and f.subject = any(array[w.word, pg_catalog.initcap(w.word), pg_catalog.upper(w.word)])
            ) as named
        from (
            select
                pg_catalog.regexp_replace(m.match[1], '''s$', '') as word,
                m.n
            from pg_catalog.regexp_matches(
                pg_catalog.replace(pg_catalog.lower(topic), '’', ''''), '([[:alnum:]_'']+)', 'g'
            ) with ordinality as m (match, n)
        ) as w
        where w.word <> ''
    ) as w;
    -- a topic that names no subject, or only names, is its own focus (and memory_recall checks nothing)
    return case when v_named then coalesce(v_focus, topic) else topic end;
end;
$$;

comment on function pymem.memory_query_focus(text) is
$$The focus of a question: its words (lower case, a possessive 's dropped) without those that name a subject of an
active fact of the caller's tenant (the word in lower case, capitalised or in capitals), joined by spaces; the
topic itself when it names no subject, or nothing else (memory_recall then checks nothing). memory_recall's focus_embedding is the embedding of this text
(pymem_private.focus_passes). Example: select pymem.memory_query_focus('What musical instrument does Tom play?');
-- 'what musical instrument does play' when Tom is the subject of a fact$$;


create or replace function pymem_private.focus_defaults()
returns table (min_focus double precision, focus_bypass double precision)
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return row(0.225::double precision, 0.65::double precision);

comment on function pymem_private.focus_defaults() is
$$The focus check's defaults: min_focus 0.225 (cosine of a memory to the focus of the question) and focus_bypass
0.65 (cosine to the whole question that passes without it). Chosen on the train questions of the golden set and
of the conversational set (docs/evaluation.md, "The focus check"), never on test.
Example: select * from pymem_private.focus_defaults();  -- 0.225, 0.65$$;


create or replace function pymem_private.focus_passes(
    p_cosine double precision,
    p_focus_cosine double precision,
    p_focus_keyword boolean,
    p_min_focus double precision
)
returns boolean
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return (
    p_min_focus = 0
    or coalesce(p_focus_cosine >= p_min_focus, false)
    or coalesce(p_cosine >= (select d.focus_bypass from pymem_private.focus_defaults() as d), false)
    or coalesce(p_focus_keyword, false)
);

comment on function pymem_private.focus_passes(double precision, double precision, boolean, double precision) is
$$Whether a memory passes the focus check of memory_recall: the check is off (p_min_focus = 0), or the memory's cosine
to the focus of the question (memory_query_focus) is at least p_min_focus, or its cosine to the whole question is
at least focus_bypass (0.65: the name may be the point, "Who is Efua?"), or it holds a word of the focus
(p_focus_keyword: its search vector matches memory_tsquery(focus)). NULL evidence does not pass.
Example: select pymem_private.focus_passes(0.5, 0.1, false, 0.225);  -- false$$;
