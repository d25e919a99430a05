-- noqa: disable=RF01
-- The built-in extractor of consolidation (260-consolidation.sql stores what it finds): memory_extract, regular
-- expressions over the common statement forms of chat (attributes, preferences, relationships, schedules, health
-- notes, decisions, and standing requests to the agent, which are rules). The patterns are rows of
-- pymem_private.extraction_patterns (the shipped ones: 254-extraction-patterns.sql): adding one is an INSERT.
-- eval/extraction/episodes.jsonl measures it (make eval: precision and recall; the patterns were written on
-- the 'dev' split, 'test' is held out).

create or replace function pymem_private.extraction_sentences(content text)
returns setof text
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    -- "The user mentioned that their husband ...": the agent speaks of the user in the third person
    v_third_person boolean := content ~* ('^\s*the\s+user(''s)?\s+(said|says|mentioned|told me|wrote|explained|added'
        || '|noted|is|has|wife|husband|partner|son|daughter)\M|^\s*user\s+(mentioned|noted|said)\s+(their|they)\M');
    v_sentence text;
begin
    for v_sentence in
        select pg_catalog.btrim(s.sentence)
        from pg_catalog.regexp_split_to_table(
            -- the agent's framing goes: "User:", "User said:", "The user mentioned that"
            -- the agent's framing goes ("User:", "User said:", "The user mentioned that"), and the dot of an
            -- abbreviation ("St. Mary's") does not end a sentence
            pg_catalog.regexp_replace(
                pg_catalog.regexp_replace(
                    content,
                    '^\s*(the\s+)?user(\s+(said|says|mentioned|told me|wrote|explained|added|noted|clarified|requested)'
                    || '(\s+that)?\s*:?|\s*:)\s*',
                    '',
                    'i'
                ),
                '\m(St|Dr|Mr|Mrs|Ms|Prof|Jr|Sr|Mt|Ave|approx|vs|etc)\.(?=\s)',
                '\1' || U&'\2024',
                'g'
            ),
            '(?<=[.!?])\s+|\s+[-\u2013\u2014]+\s+|\n+|;\s*'
        ) as s (sentence)
        where pg_catalog.btrim(s.sentence) <> ''
    loop
        if v_third_person then
            v_sentence := pg_catalog.regexp_replace(v_sentence, '\m(they''re|she''s|he''s)\M', 'I''m', 'gi');
            v_sentence := pg_catalog.regexp_replace(v_sentence, '^(they|she|he)\M', 'I', 'i');
            v_sentence := pg_catalog.regexp_replace(
                v_sentence, '\m(they|she|he)\s+(don''t|do not|never|can''t|have|had|live|work|take|get)\M', 'I \2', 'gi'
            );
            v_sentence := pg_catalog.regexp_replace(v_sentence, '\m(their|his|her)\M', 'my', 'gi');
            v_sentence := pg_catalog.regexp_replace(v_sentence, '\mthe user''s\M', 'my', 'gi');
        end if;
        -- a sentence that opens with a verb is about the user: "loves sci-fi novels"
        v_sentence := pg_catalog.regexp_replace(
            v_sentence, '^(loves|likes|enjoys|hates|lives|works|speaks|studies|gets|takes|owns|drives)\M',
            'I \1', 'i'
        );
        v_sentence := pg_catalog.regexp_replace(
            v_sentence, '^I (love|like|enjoy|hate|live|work|speak|get|take|own|drive)s\M', 'I \1', 'i'
        );
        v_sentence := pg_catalog.regexp_replace(v_sentence, '^I studies\M', 'I study', 'i');
        return next pg_catalog.replace(v_sentence, U&'\2024', '.');
    end loop;
end;
$$;

comment on function pymem_private.extraction_sentences(text) is
$$The sentences of an episode, without the agent's framing ("User:", "The user mentioned that ..."), in the first
person ("their husband" -> "my husband" when the agent speaks of the user; "loves sci-fi" -> "I love sci-fi"):
split at sentence ends, dashes, new lines and semicolons.$$;


create or replace function pymem_private.extraction_value(value text)
returns text
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return nullif(
    pg_catalog.btrim(
        pg_catalog.regexp_replace(
            pg_catalog.regexp_replace(
                value,
                -- a value ends where the clause goes on
                '\s+(and|but|so|because|bc|since|which|who|that|lol|haha|btw|tho|though|now|too|anyway|for|from|with'
                || '|when|while|just|as|to|at|in|on|every|each|last|next|this|these|here|there|still|yet|already|ever'
                || '|obviously|honestly|really|basically|literally|though|days|lately|anymore|again|at all)\M.*$',
                '',
                'i'
            ),
            '[\s,.;:!?)("''\u201c\u201d\u2018\u2019]+$',
            ''
        ),
        ' '
    ),
    ''
);

comment on function pymem_private.extraction_value(text) is
'A captured value cut where its clause goes on ("Porto now, loving it" -> "Porto"), without trailing punctuation.';


create or replace function pymem_private.without_trailing_function_words(value text)
returns text
language plpgsql
stable  -- ts_lexize reads the english_stem dictionary
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_value text := pg_catalog.btrim(value);
    v_last text[];
begin
    -- "learn Spanish this" -> "learn Spanish", "pass the N5 in" -> "pass the N5": a pattern's capture that ran
    -- into the next clause; at most five words go
    for i in 1 .. 5 loop
        v_last := pg_catalog.regexp_match(v_value, '^(.*?)[\s,;:]+([[:alpha:]'']+)[\s,.;:!?]*$');
        exit when v_last is null
            or pg_catalog.ts_lexize('english_stem'::regdictionary, pg_catalog.lower(v_last[2])) is distinct from '{}';
        v_value := v_last[1];
    end loop;
    return v_value;
end;
$$;

comment on function pymem_private.without_trailing_function_words(text) is
$$A captured value without the English function words it ends in (the stop words of PostgreSQL's english_stem
dictionary), at most five: "learn Spanish this" -> "learn Spanish"; a one-word value is left as it is.
Example: select pymem_private.without_trailing_function_words('pass the N5 in');$$;


create or replace function pymem_private.complete_value(value text)
returns boolean
language sql
stable  -- ts_lexize reads the english_stem dictionary
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
-- a value that ends in a function word ("pass the N5 in", "each other"), is nothing but function words ("now",
-- "me", "those") or opens with a verb of being ("is awesome") is a fragment of a sentence, not a claim; a number
-- ("34") is a value
return (
    value is not null
    and (
        value ~ '[0-9][^[:alpha:]]*$'
        or pg_catalog.ts_lexize(
            'english_stem'::regdictionary,
            pg_catalog.lower(coalesce((pg_catalog.regexp_match(value, '([[:alpha:]'']+)[^[:alpha:]]*$'))[1], ''))
        ) is distinct from '{}'
    )
    and value !~* '^\s*(is|are|was|were|am)\M'
    and (
        value ~ '[0-9]'
        or exists (
            select from pg_catalog.regexp_matches(value, '[[:alpha:]][[:alpha:]'']*', 'g') as m
            where pg_catalog.ts_lexize('english_stem'::regdictionary, pg_catalog.lower(m[1])) is distinct from '{}'
        )
    )
);

comment on function pymem_private.complete_value(text) is
$$Whether a value the extractor read is a claim and not a fragment: it does not end in an English function word
("pass the N5 in", "each other"), is not only function words ("now", "me", "those") and does not open with a verb
of being ("is awesome"); a number counts as a word ("34"). The function words are the stop words of PostgreSQL's
english_stem dictionary.
Example: select pymem_private.complete_value('coeliac disease'), pymem_private.complete_value('pass the N5 in');$$;


create or replace function pymem_private.extraction_pattern_rows(kinds text[])
returns table (
    kind text, name text, family text, pattern text, value_check text, value_is_name boolean,
    value_is_verb_phrase boolean, user_only boolean, multi_valued boolean, template text, needles text[],
    example text
)
language sql
stable
parallel safe
security definer  -- the table has owner-only policies: it holds no tenant data, and tenants may not change it
set search_path = pg_catalog, pg_temp
as $$
    select
        e.kind, e.name, e.family, e.pattern, e.value_check, e.value_is_name, e.value_is_verb_phrase, e.user_only,
        e.multi_valued, e.template, e.needles, e.example
    from pymem_private.extraction_patterns as e
    where e.kind = any (extraction_pattern_rows.kinds)
    order by e.position, e.name
$$;

comment on function pymem_private.extraction_pattern_rows(text[]) is
$$The patterns of pymem_private.extraction_patterns of the given kinds, in position order, with how a match is
read, their needles and examples, for the extractor (and an analyst who wants to see what is looked for).
Example: select name, family, needles from pymem_private.extraction_pattern_rows(array['fact']);$$;


create or replace function pymem_private.extraction_matches(content text, kinds text[])
returns table (
    kind text, name text, family text, value_check text, value_is_name boolean, value_is_verb_phrase boolean,
    user_only boolean, multi_valued boolean, template text, groups text[], n bigint
)
language sql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
    -- a pattern runs only on text that holds one of its needles (strpos, no regular expression): most sentences
    -- never compile most patterns, and the few that run stay in the backend's cache of compiled expressions
    select
        p.kind, p.name, p.family, p.value_check, p.value_is_name, p.value_is_verb_phrase, p.user_only,
        p.multi_valued, p.template, m.groups, pg_catalog.row_number() over (order by p.n, m.k)
    from pymem_private.extraction_pattern_rows(extraction_matches.kinds) with ordinality as p (
        kind, name, family, pattern, value_check, value_is_name, value_is_verb_phrase, user_only, multi_valued,
        template, needles, example, n
    )
    cross join lateral pg_catalog.regexp_matches(extraction_matches.content, p.pattern, 'gi')
        with ordinality as m (groups, k)
    where exists (
        select from pg_catalog.unnest(p.needles) as x (needle)
        where pg_catalog.strpos(pg_catalog.lower(extraction_matches.content), x.needle) > 0
    )
    order by p.n, m.k
$$;

comment on function pymem_private.extraction_matches(text, text[]) is
$$Every match (its capture groups) in content of the patterns of pymem_private.extraction_patterns of the given
kinds, case-insensitively, in position order and then in order in the text (n), with how its value is read; a
pattern is tried only on text that holds one of its needles.
Example: select name, groups from pymem_private.extraction_matches('I moved to Porto in March', array['fact']);$$;


create or replace function pymem_private.extraction_says(content text, kind text)
returns boolean
language sql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return exists (select from pymem_private.extraction_matches(extraction_says.content, array[extraction_says.kind]));

comment on function pymem_private.extraction_says(text, text) is
$$Whether content matches a pattern of pymem_private.extraction_patterns of that kind (case-insensitively): a
standing_request, a one_off_request, a hedge, a sentence about_others.
Example: select pymem_private.extraction_says('My son has a nut allergy', 'about_others');$$;


create or replace function pymem_private.extraction_rule(content text)
returns text
language sql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
-- the agent's framing goes: "User said: always answer in French" asks "always answer in French"
return case
    when
        pymem_private.extraction_says(content, 'standing_request')
        and not pymem_private.extraction_says(content, 'one_off_request')
        then 'The user asked: "' || pg_catalog.btrim(pg_catalog.regexp_replace(
            content, '^\s*(the\s+)?user(\s+(said|asked|wrote))?\s*:?\s*', '', 'i'
        )) || '"'
end;

comment on function pymem_private.extraction_rule(text) is
$$The rule an episode states, as the statement 'The user asked: "..."' (the whole episode, without the agent's
framing), when it is a standing request to the agent (a standing_request pattern, and no one_off_request one);
NULL when it is not.
Example: select pymem_private.extraction_rule('From now on, please answer in French.');$$;


create or replace function pymem_private.extraction_facts(sentence text, about_others boolean, kinds text[])
returns table (memory_type text, subject text, predicate text, statement text, negated boolean)
language sql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
    select
        'fact',
        'user',
        case
            -- "favourite meal", "favourite coffee": the food and drink families
            when v.kind = 'favourite' then v.family || '_' || case pg_catalog.lower(v.groups[1])
                when 'colour' then 'color' when 'meal' then 'food' when 'dish' then 'food' when 'snack' then 'food'
                when 'dessert' then 'food' when 'cuisine' then 'food' when 'coffee' then 'drink'
                else pg_catalog.lower(v.groups[1]) end
            when v.kind = 'negation' then v.family || ':not ' || pg_catalog.lower(v.value)
            when v.multi_valued then v.family || ':' || pg_catalog.lower(v.value)
            else v.family
        end,
        case v.kind
            when 'favourite' then pg_catalog.format(v.template, pg_catalog.lower(v.groups[1]), v.value)
            when 'negation' then pg_catalog.format(v.template, coalesce(nullif(v.groups[1], ''), ''), v.value)
            else pg_catalog.format(v.template, v.value)
        end,
        v.kind = 'negation'
    from (
        select
            m.*,
            case
                -- a name ends at its first word in lower case ("St. Mary's hospital"; case-insensitive patterns)
                when m.value_is_name
                    then pg_catalog.regexp_replace(c.value, '\s+(?!(?:of|de|da|del|van|von|le|la)\s)[[:lower:]].*$', '')
                else pymem_private.without_trailing_function_words(c.value)
            end as value
        from pymem_private.extraction_matches(extraction_facts.sentence, extraction_facts.kinds) as m
        cross join lateral (
            select case
                when m.kind in ('favourite', 'negation') then pymem_private.extraction_value(m.groups[2])
                -- a goal or a decision is a verb phrase: "learn to drive", "ask for an assessment"
                when m.value_is_verb_phrase then pg_catalog.btrim(pg_catalog.regexp_replace(
                    m.groups[1], '\s+(and|but|so|because|bc|lol|haha|btw|tbh|though|tho|since)\M.*$', '', 'i'
                ))
                else pymem_private.extraction_value(m.groups[1])
            end as value
        ) as c
    ) as v
    where v.value ~ v.value_check
      and not (extraction_facts.about_others and v.user_only)
      and pymem_private.complete_value(v.value)
    order by v.n
$$;

comment on function pymem_private.extraction_facts(text, boolean, text[]) is
$$The facts about the user that the patterns of the given kinds ('favourite', 'fact', 'negation') find in one
sentence, in pattern order: the value read as the pattern's row says (cut where its clause goes on, a name at its
first word in lower case), checked by its value_check, dropped if it is a fragment
(pymem_private.complete_value) or if the pattern is user_only and the sentence is about someone else
(about_others).
Example: select * from pymem_private.extraction_facts('I moved to Porto in March', false, array['fact']);$$;


create or replace function pymem_private.extraction_languages(sentence text, about_others boolean)
returns table (memory_type text, subject text, predicate text, statement text, negated boolean)
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_language text;
begin
    -- every language a sentence about speaking names ("speaks Yoruba at home, English at work")
    if sentence !~* '\m(speak|speaks|speaking|speaker|fluent|language|languages|tongue)\M' or about_others then
        return;
    end if;
    for v_language in
        select m[1]
        from pg_catalog.regexp_matches(
            sentence,
            '\m(English|French|Spanish|German|Italian|Portuguese|Dutch|Polish|Russian|Ukrainian|Arabic|Hebrew|Turkish'
            || '|Greek|Hindi|Urdu|Bengali|Punjabi|Tamil|Mandarin|Cantonese|Chinese|Japanese|Korean|Vietnamese|Thai'
            || '|Malay|Indonesian|Tagalog|Swahili|Yoruba|Igbo|Hausa|Amharic|Zulu|Swedish|Norwegian|Danish|Finnish'
            || '|Czech|Slovak|Hungarian|Romanian|Catalan|Basque|Irish|Welsh|Gaelic|Persian|Farsi|Georgian|Armenian'
            || '|Maori)\M',
            'g'
        ) as m
    loop
        if sentence ~* ('\m(don''t|do not|can''t|cannot|never)\s+speak\s+(any\s+|a word of\s+)?' || v_language || '\M') then
            return query select 'fact'::text, 'user'::text, 'speaks:not ' || pg_catalog.lower(v_language),
                pg_catalog.format('The user does not speak %s.', v_language), true;
        else
            return query select 'fact'::text, 'user'::text, 'speaks:' || pg_catalog.lower(v_language),
                pg_catalog.format('The user speaks %s.', v_language), false;
        end if;
    end loop;
end;
$$;

comment on function pymem_private.extraction_languages(text, boolean) is
$$The languages a sentence about speaking names, each a fact (speaks:yoruba; speaks:not french when the user does
not speak it); none in a sentence about someone else (about_others).
Example: select * from pymem_private.extraction_languages('I speak Yoruba at home and English at work', false);$$;


create or replace function pymem_private.extraction_relations(sentence text)
returns table (memory_type text, subject text, predicate text, statement text, negated boolean)
language plpgsql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_match text[];
    v_relation text;
    v_family text;
    v_who text;
begin
    -- the groups of a relation pattern: 1 the relation, 2 a name, 3 a job, 4 and 5 a place, 6 an employer,
    -- 7 an allergen, 8 news
    for v_match in select m.groups from pymem_private.extraction_matches(sentence, array['relation']) as m order by m.n loop
        v_relation := pg_catalog.lower(v_match[1]);
        -- someone of the user's ("my sister"; "Mom" alone), named with a capital ("Ana", not "is")
        continue when sentence !~* ('\m(my|their|his|her)\s+' || v_relation)
            and v_relation not in ('mom', 'mum', 'mother', 'dad', 'father');
        if v_match[2] !~ '^[[:upper:]]' then
            v_match[2] := null;
        end if;
        v_who := v_relation || coalesce(' ' || v_match[2], '');
        v_family := case
            when v_relation in ('sister', 'brother') then 'sibling'
            when v_relation in ('husband', 'wife', 'partner', 'other half', 'boyfriend', 'girlfriend')
                or v_relation ~ '^fianc' then 'partner'
            when v_relation in ('son', 'daughter', 'kid') then 'child'
            when v_relation in ('mom', 'mum', 'mother', 'dad', 'father') then 'parent'
            when v_relation in ('friend', 'best friend') then 'friend'
        end;
        return query
        select 'fact'::text, x.subject, x.predicate, x.statement, false
        from (
            values
            (1, 'user', v_family || ':' || pg_catalog.lower(v_match[2]),
             pg_catalog.format('The user''s %s is %s.', v_relation, v_match[2])),
            (3, 'user''s ' || v_relation, 'works_as', pg_catalog.format('The user''s %s is a %s.', v_who, v_match[3])),
            (4, 'user''s ' || v_relation, 'lives_in',
             pg_catalog.format('The user''s %s lives in %s.', v_who, coalesce(v_match[4], v_match[5]))),
            (6, 'user''s ' || v_relation, 'works_at', pg_catalog.format('The user''s %s works at %s.', v_who, v_match[6])),
            (7, 'user''s ' || v_relation, 'allergy:' || pg_catalog.lower(v_match[7]),
             pg_catalog.format('The user''s %s is allergic to %s.', v_who, v_match[7])),
            (8, 'user''s ' || v_relation, 'plans:' || pg_catalog.lower(v_match[8]),
             pg_catalog.format('The user''s %s is %s.', v_who, v_match[8]))
        ) as x (what, subject, predicate, statement)
        where case x.what
            when 1 then v_family is not null and v_match[2] is not null
            when 4 then coalesce(v_match[4], v_match[5]) is not null
            else v_match[x.what] is not null
        end
        order by x.what;
    end loop;
end;
$$;

comment on function pymem_private.extraction_relations(text) is
$$What a sentence says of the user's relations, by the relation patterns of pymem_private.extraction_patterns:
who they are (sibling:ana, "The user's sister is Ana.") and what they do, where they live and work, what they are
allergic to, and news ("my sister Ana is a nurse", "Mom's allergic to shellfish").
Example: select * from pymem_private.extraction_relations('My sister Ana is a nurse in Leeds');$$;


create or replace function pymem_private.extraction_clause(sentence text)
returns table (memory_type text, subject text, predicate text, statement text, negated boolean)
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
    -- a schedule, an appointment or a plan keeps its whole clause ("gym at 6am every weekday")
    select 'fact', 'user', x.kind || ':' || pg_catalog.lower(pg_catalog.left(pg_catalog.btrim(sentence), 60)),
        x.opening || pg_catalog.btrim(sentence, ' .!'), false
    from (
        select
            'monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekend|morning'
            || '|evening|night|week|month|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays'
            || '|weekdays|weekends' as days
    ) as c
    cross join lateral (
        select
            case
                when sentence ~* ('\m(every|each)\s+(other\s+)?(' || c.days || ')\M|\mthe (first|second|third|last) ('
                                  || c.days || ') of (every|each|the) month\M')
                    then 'schedule'
                -- an appointment or a plan is to come and certain: not told in the past, not on a condition
                when sentence ~* '\m(was|were|had|went|did|if)\M' then null
                when sentence ~* ('\m(appointment|interview|ceremony|check-?up|surgery|exam|operation|hearing|viewing)\M'
                                  || '[^.!?]*\m(on|at|next|this|tomorrow)\s+([[:alnum:]]+)')
                     and sentence ~* ('\m(' || c.days || '|tomorrow|january|february|march|april|may|june|july|august'
                                      || '|september|october|november|december|\d{1,2}(st|nd|rd|th)?)\M')
                    then 'appointment'
                when sentence ~* ('(^|\m(i''m|i am|we''re|we are)\s+)(visiting|heading to|flying to|travell?ing to'
                                  || '|going to)\s+')
                     and sentence ~ '\m(visiting|heading|flying|travell?ing|going)\M[^.!?]*\m[A-Z][[:alpha:]]+'
                    then 'plans'
            end as kind
    ) as k
    cross join lateral (
        values
        ('schedule', 'The user''s schedule: '),
        ('appointment', 'The user has an appointment: '),
        ('plans', 'The user''s plans: ')
    ) as x (kind, opening)
    where x.kind = k.kind
$$;

comment on function pymem_private.extraction_clause(text) is
$$A sentence that states a schedule ("every other Tuesday"), an appointment (a date or day with "appointment",
"interview", ...) or a travel plan ("flying to Lisbon"), kept whole as one fact; no row for any other sentence.
Example: select * from pymem_private.extraction_clause('gym at 6am every weekday');$$;


-- the one-argument form (before the speaker of a chat line was known) goes: a call with one argument would be
-- ambiguous between it and the form with a default
drop function if exists pymem_private.extract_statements(text);

create or replace function pymem_private.extract_statements(content text, first_person_only boolean default false)
returns table (memory_type text, subject text, predicate text, statement text, negated boolean)
language plpgsql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_text text := pymem_private.require_text('content', content, 100000);
    v_rule text := pymem_private.extraction_rule(v_text);
    v_sentence text;
    v_others boolean;
    v_found boolean;
begin
    if v_rule is not null then
        return query select 'rule'::text, null::text, null::text, v_rule, false;
    end if;
    for v_sentence in select s from pymem_private.extraction_sentences(v_text) as s loop
        -- a question, hypothetical, counterfactual or hedge asserts nothing
        continue when pymem_private.speculation(v_sentence) is not null
            or pymem_private.extraction_says(v_sentence, 'hedge');
        -- a sentence about the person spoken to ("you will speak Spanish every day") says nothing of the speaker
        continue when v_sentence ~* '^\s*(you|you''ll|you''re|you''ve|you''d|your|u|ur)\M(?!\s+(know|see)\M)';
        -- between people who talk of others, joke and quote ("DIABETES DAD", "leo is obsessed with trains"), only a
        -- sentence in the first person is about the speaker
        continue when first_person_only
            and v_sentence !~* '\m(i|i''m|im|i''ve|ive|i''d|i''ll|my|me|mine|myself)\M';
        -- a sentence about someone else ("my son has a nut allergy") says nothing of the user's health or work
        v_others := pymem_private.extraction_says(v_sentence, 'about_others');
        return query select * from pymem_private.extraction_facts(v_sentence, v_others, array['favourite', 'fact']);
        v_found := found;
        return query select * from pymem_private.extraction_languages(v_sentence, v_others);
        v_found := v_found or found;
        return query select * from pymem_private.extraction_facts(v_sentence, v_others, array['negation']);
        v_found := v_found or found;
        return query select * from pymem_private.extraction_relations(v_sentence);
        v_found := v_found or found;
        -- a schedule, appointment or plan, when the sentence said nothing more precise and is about the user
        continue when v_found or v_others;
        return query select * from pymem_private.extraction_clause(v_sentence);
    end loop;
end;
$$;

comment on function pymem_private.extract_statements(text, boolean) is
$$Every statement the patterns of memory_extract find in an episode, duplicates included: the rule it states
(pymem_private.extraction_rule), then for each sentence (pymem_private.extraction_sentences) that is not a
question, hypothetical or hedge, the facts of the patterns of pymem_private.extraction_patterns (favourites,
facts about the user, languages, negations, relations) or, when none is found and the sentence is about the user,
its schedule, appointment or plan (pymem_private.extraction_clause). A sentence about the person spoken to
("you will ...") yields nothing; with first_person_only (a named speaker's turn), neither does one without "I",
"my" or "me".
Example: select * from pymem_private.extract_statements('My sister Ana is a nurse. I moved to Porto in March.');$$;


create or replace function pymem_private.speaker_kind(label text)
returns text
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
-- who a chat line's label ("Maya:", "User:", "Assistant:") says is speaking: 'user' (the user of a user/assistant
-- chat), 'agent' (the assistant: what it says is not a fact about anyone), 'person' (a named person), or NULL when
-- the label names no one ("Note:", "Tool output:", "The email says:"): the line is text, not a turn
return case
    when pg_catalog.lower(label) in ('user', 'human', 'me') then 'user'
    when pg_catalog.lower(label) in ('assistant', 'ai', 'bot', 'agent', 'claude', 'chatgpt', 'gpt', 'model', 'butler')
        then 'agent'
    when label !~ '^[A-Z][a-z]+( [A-Z][a-z]+)?$' then null
    when pg_catalog.lower(pg_catalog.split_part(label, ' ', 1)) in (
        'note', 'notes', 'update', 'reminder', 'edit', 'ps', 'fyi', 're', 'subject', 'question', 'answer', 'summary',
        'warning', 'tip', 'btw', 'output', 'result', 'results', 'response', 'error', 'log', 'source', 'quote',
        'document', 'message', 'instructions', 'instruction', 'context', 'transcript', 'system', 'tool', 'email',
        'the', 'admin', 'developer', 'operator', 'important', 'todo', 'done', 'status', 'goal', 'plan', 'today',
        'tomorrow', 'yesterday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
        'example', 'problem', 'solution', 'step', 'steps', 'also', 'and', 'but', 'so', 'then', 'address', 'phone',
        'name', 'date', 'time', 'location', 'title', 'description', 'details', 'comment', 'comments', 'feedback',
        'review', 'rule', 'rules', 'policy', 'memory', 'fact', 'facts', 'data', 'info', 'information', 'file', 'page',
        'website', 'link', 'url', 'code', 'command', 'prompt', 'reply', 'asked', 'said', 'says', 'wrote',
        -- an order or a greeting before a colon: "Remember: always ...", "Quick one: ..."
        'remember', 'save', 'store', 'add', 'keep', 'read', 'translate', 'render', 'please', 'standing', 'new',
        'quick', 'ok', 'okay', 'hey', 'hi', 'hello', 'attention', 'urgent', 'fix', 'bug', 'issue', 'task', 'request',
        'preference', 'preferences',
        -- the fields of a note: "Hobbies: bouldering", "Diet: vegan"
        'hobbies', 'hobby', 'likes', 'dislikes', 'allergies', 'allergy', 'diet', 'job', 'work', 'age', 'birthday',
        'pets', 'pet', 'family', 'kids', 'health', 'food', 'music', 'books', 'movies', 'films', 'city', 'home',
        'school', 'education', 'occupation', 'languages', 'language', 'interests', 'skills', 'favourites',
        'favorites', 'favourite', 'favorite', 'contact', 'medication', 'medications', 'condition', 'conditions',
        'schedule', 'appointment', 'appointments', 'goals', 'plans', 'partner', 'spouse', 'children', 'parents',
        'friends', 'sport', 'sports', 'team', 'car', 'travel', 'trip'
    ) then null
    else 'person'
end;

comment on function pymem_private.speaker_kind(text) is
$$Who a chat line's label says is speaking: 'user' ("User:"), 'agent' ("Assistant:"; its words are not facts
about anyone), 'person' (a name of one or two capitalised words: "Maya:", "Tom Hale:"), or NULL for a label that
names no one ("Note:", "Tool output:", "Update:"), whose line is read as text.
Example: select pymem_private.speaker_kind('Maya'), pymem_private.speaker_kind('Note');$$;


create or replace function pymem_private.turn_speaker_kind(content text)
returns text
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
-- the kind of speaker (pymem_private.speaker_kind) of the label that opens a stored chat turn ("Assistant: ..."):
-- what memory_search's agent_turn_weight reads; NULL for a text that opens with no speaker's label
return (
    select pymem_private.speaker_kind(m.opening[1])
    from (select pg_catalog.regexp_match(content, '^\s*([[:alpha:]][[:alpha:] ]{0,40}?)\s*:\s') as opening) as m
    where m.opening is not null
);

comment on function pymem_private.turn_speaker_kind(text) is
$$The kind of speaker whose label opens a text (pymem_private.speaker_kind of its first label): 'user' for
"User: ...", 'agent' for "Assistant: ...", 'person' for "Maya: ...", NULL for a text that opens with no speaker.
memory_search weighs an episode that is an agent's turn by agent_turn_weight.
Example: select pymem_private.turn_speaker_kind('Assistant: Here are three options.');  -- agent$$;

create or replace function pymem_private.speaker_turns(content text)
returns table (speaker text, kind text, said text)
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_line text;
    v_label text[];
    v_kind text;
    v_speaker text;
    v_turn_kind text := 'user';
    v_said text := '';
begin
    -- a line "Name: text" starts a turn of Name; a line without such a label continues the turn; text before any
    -- label is the user's
    for v_line in select l from pg_catalog.regexp_split_to_table(content, '\n') as l loop
        v_label := pg_catalog.regexp_match(v_line, '^\s*([[:alpha:]][[:alpha:] ]{0,40}?)\s*:\s+(.*)$');
        v_kind := case when v_label is not null then pymem_private.speaker_kind(v_label[1]) end;
        if v_kind is null then
            v_said := v_said || case when v_said = '' then '' else E'\n' end || v_line;
            continue;
        end if;
        if pg_catalog.btrim(v_said) <> '' then
            return query select v_speaker, v_turn_kind, pg_catalog.btrim(v_said);
        end if;
        v_speaker := case when v_kind = 'person' then v_label[1] end;
        v_turn_kind := v_kind;
        v_said := v_label[2];
    end loop;
    if pg_catalog.btrim(v_said) <> '' then
        return query select v_speaker, v_turn_kind, pg_catalog.btrim(v_said);
    end if;
end;
$$;

comment on function pymem_private.speaker_turns(text) is
$$An episode's turns: (speaker, kind, said) per run of lines that begins with a speaker's label
(pymem_private.speaker_kind); the text before any label, or an episode without one, is the user's (speaker NULL,
kind 'user').
Example: select * from pymem_private.speaker_turns(E'Maya: I just started at the bakery\nTom: congrats!');$$;


create or replace function pymem_private.spoken_by(phrase text, speaker text)
returns text
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
-- "the user" of a statement or subject drawn from a named speaker's words is that speaker
return case
    when speaker is null then phrase
    else pg_catalog.regexp_replace(
        pg_catalog.regexp_replace(phrase, '\m(the )?user''s\M', speaker || '''s', 'gi'),
        '\m(the )?user\M', speaker, 'gi'
    )
end;

comment on function pymem_private.spoken_by(text, text) is
$$A subject or statement the extractor wrote of "the user", of the named speaker whose words it was drawn from
(NULL speaker: unchanged).
Example: select pymem_private.spoken_by('The user''s sister works as dentist.', 'Maya');$$;


create or replace function pymem.memory_extract(content text)
returns table (memory_type text, subject text, predicate text, statement text, negated boolean)
language sql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
    with spoken as (
        -- each turn of the episode, of its speaker: the assistant's words are not facts about anyone, and only the
        -- user asks the agent for a standing rule
        select
            x.memory_type,
            pymem_private.spoken_by(x.subject, t.speaker) as subject,
            x.predicate,
            pymem_private.spoken_by(x.statement, t.speaker) as statement,
            x.negated
        from pymem_private.speaker_turns(pymem_private.require_text('content', content, 100000)) as t
        cross join lateral pymem_private.extract_statements(t.said, t.kind = 'person') as x
        where t.kind <> 'agent' and (x.memory_type = 'fact' or t.kind = 'user')
    ),

    found as (
        select distinct on (x.memory_type, x.subject, x.predicate) x.*
        from spoken as x
        order by x.memory_type, x.subject, x.predicate, pg_catalog.length(x.statement) desc
    )
    select f.* from found as f
    -- "diabetic" says less than "type 2 diabetic" of the same subject: only the fuller one is kept
    where not exists (
        select from found as g
        where g.subject = f.subject
          and g.predicate <> f.predicate
          and pg_catalog.split_part(g.predicate, ':', 1) = pg_catalog.split_part(f.predicate, ':', 1)
          and pg_catalog.split_part(f.predicate, ':', 2) <> ''
          and pg_catalog.strpos(pg_catalog.split_part(g.predicate, ':', 2), pg_catalog.split_part(f.predicate, ':', 2)) > 0
    );
$$;

comment on function pymem.memory_extract(text) is
$$The built-in extractor of consolidation: the facts (memory_type 'fact', subject, predicate, statement, negated) and
rules (memory_type 'rule', statement) that an episode states, found by regular expressions over the common
statement forms of chat (name, age, where the user lives and comes from, work, study, languages, allergies,
conditions, medication, diet, likes and dislikes, possessions, pets, goals, decisions, relations and what they
do, schedules, appointments, travel plans, negations of these, and standing requests to the agent). A
sentence that is a question, hypothetical, counterfactual or hedge yields nothing. Predicates of what a user can
have several of carry the value (likes:garlic), so that only a single-valued one (lives_in, name, diet, ...)
supersedes an earlier fact. The patterns are rows of pymem_private.extraction_patterns. A chat line's label says
who speaks (pymem_private.speaker_turns): "Maya: I moved to Porto" is a fact of Maya's, not the user's; an
assistant's turn ("Assistant: ...") yields nothing, and only the user's words (no label, or "User:") a rule.
Example: select * from memory_extract(content => 'actually I moved to Porto in March, loving it');$$;
