-- How a query text becomes keyword searches (three tiers):
-- 1. full text: the English lexemes of the query, OR-ed, ranked by BM25 (130-candidates.sql);
-- 2. trigram (queries with CJK): pg_trgm word similarity of the query to content;
-- 3. ILIKE, when 1 and 2 find nothing: CJK runs (1+ chars) and ASCII words (3+ chars).

create or replace function pymem.memory_tsquery(query text)
returns tsquery
language sql
immutable
strict
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select
        string_agg(
            '''' || replace(replace(t.lexeme, '\', '\\'), '''', '''''') || '''', ' | '
            order by t.lexeme
        )::tsquery
    from unnest(to_tsvector('english'::regconfig, memory_tsquery.query)) as t;  -- noqa: RF01
end;

comment on function pymem.memory_tsquery(text) is
$$The full-text query of a search: the English lexemes of the query (stemmed, stop words dropped) joined
with OR, so that 'running' matches 'runs' and a document matching more words ranks higher; NULL when the
query has no lexeme. Example: select pymem.memory_tsquery('Dr. Smith is running');  -- 'dr' | 'run' | 'smith'$$;


create or replace function pymem.memory_cjk_runs(query text)
returns text[]
language sql
immutable
strict
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select coalesce(array_agg(m.run[1] order by m.n), '{}')
    from regexp_matches(
        memory_cjk_runs.query,  -- noqa: RF01
        '[\u1100-\u11ff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]+',
        'g'
    ) with ordinality as m (run, n);
end;

comment on function pymem.memory_cjk_runs(text) is
$$The runs of CJK characters (Han, Hiragana, Katakana, Hangul) in a query, in order; empty when there are
none. A query with any run also searches the trigram tier. Example: select pymem.memory_cjk_runs('Python 寿司が好き');
-- {寿司が好き}$$;


create or replace function pymem.memory_like_terms(query text)
returns text[]
language sql
immutable
strict
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select pymem.memory_cjk_runs(memory_like_terms.query) || coalesce((  -- noqa: RF01
        select array_agg(distinct lower(w.word[1]))
        from regexp_matches(memory_like_terms.query, '[A-Za-z0-9]{3,}', 'g') as w (word)  -- noqa: RF01
        where to_tsvector('english'::regconfig, w.word[1]) <> ''::tsvector
    ), '{}');
end;

comment on function pymem.memory_like_terms(text) is
$$Terms of the ILIKE tier (used when full text and trigram find nothing): every CJK run (1+ characters)
and every ASCII word of 3+ characters that is not an English stop word, each matched on its own.
Example: select pymem.memory_like_terms('the 寿司 of X123');  -- {寿司,x123}$$;
