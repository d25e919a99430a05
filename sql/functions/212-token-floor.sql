-- pymem.token_floor: the fewest tokens a text counts for in a token budget, whatever a tokenizer makes of it.
-- The wrapper counts with the MiniLM WordPiece tokenizer, which maps a word past 100 characters (or one it
-- does not know) to a single [UNK]: a 99,000-character "word" counted as one token and a block of 300 tokens
-- held 198,509 characters. A text of N UTF-8 bytes never counts fewer than N / 4 tokens.
-- pymem.token_counts.length_floor is the same formula in Python (tests/test_token_budget_bound.py holds them
-- equal); memory_context_select applies this one to the candidates it is given with their content.

create or replace function pymem.token_floor(content text)
returns integer
language sql
immutable
strict
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return (
    -- bytes + bytes of the non-ASCII characters = ASCII characters + 2 x the other characters' bytes
    (
        2::bigint * pg_catalog.octet_length(content)
        - pg_catalog.octet_length(pg_catalog.regexp_replace(content, '[^\x01-\x7f]+', '', 'g'))
        + 3
    ) / 4
)::integer;

comment on function pymem.token_floor(text) is
$$ceil((ASCII characters + 2 x UTF-8 bytes of the other characters) / 4): the fewest tokens content counts for in a
token budget (1/4 token per ASCII character; 1 per Cyrillic or accented Latin character, 1.5 per CJK character,
2 per emoji), so that a block of B tokens holds at most 4 B bytes. memory_context_select counts a candidate that
carries its content as at least this many tokens, whatever its stored token_count says; the wrapper's counts
(pymem.token_counts.count_tokens) are never below it.
Example: select pymem.token_floor(repeat('a', 99000)) as ascii, pymem.token_floor('東京の天気') as cjk;$$;
