-- noqa: disable=RF01
-- Time expressions in a question: "last week", "yesterday", "in May", "two weeks ago", "last Tuesday", "2026-05-05".
-- pymem.memory_time_window reads the first one and gives the period it names, relative to the moment of the
-- question, so that search can reach the memories of that time (their created_at: when they were observed).
-- Days and weeks are UTC days and ISO weeks (Monday first); a month or weekday without a year is the latest one
-- that is not after the moment (memory is about the past).

create or replace function pymem.memory_time_window(query text, at timestamptz default null)
returns table (starts timestamptz, ends timestamptz, expression text)
language plpgsql
stable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_at timestamptz := coalesce(memory_time_window.at, pg_catalog.now());
    v_day date := (v_at at time zone 'UTC')::date;
    v_text text := pg_catalog.lower(coalesce(memory_time_window.query, ''));
    v_match text[];
    v_n integer;
    v_unit text;
    v_start date;
    v_end date;
    v_month integer;
    v_year integer;
    v_weekday integer;
    v_months constant text[] := array[
        'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october',
        'november', 'december'
    ];
    v_weekdays constant text[] := array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    v_numbers constant text[] := array[
        'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'
    ];
begin
    if memory_time_window.query is null or pg_catalog.length(memory_time_window.query) > 10000 then
        return;
    end if;

    -- an ISO date
    v_match := pg_catalog.regexp_match(v_text, '\m((\d{4})-(\d{2})-(\d{2}))\M');
    if v_match is not null then
        begin
            v_start := pg_catalog.make_date(v_match[2]::integer, v_match[3]::integer, v_match[4]::integer);
            v_end := v_start + 1;
        exception when others then
            v_start := null;
        end;
    end if;

    -- N units ago ("two weeks ago", "a month ago", "a couple of days ago")
    if v_start is null then
        v_match := pg_catalog.regexp_match(
            v_text,
            '\m((\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|a few)'
            || '\s+(day|week|month|year)s?\s+ago)\M'
        );
        if v_match is not null then
            v_n := case
                when v_match[2] ~ '^\d+$' then v_match[2]::integer
                when v_match[2] in ('a', 'an') then 1
                when v_match[2] = 'a couple of' then 2
                when v_match[2] = 'a few' then 3
                else pg_catalog.array_position(v_numbers, v_match[2])
            end;
            v_unit := v_match[3];
            if v_unit = 'day' then
                v_start := v_day - v_n;
                v_end := v_start + 1;
            elsif v_unit = 'week' then
                v_start := v_day - 7 * v_n - 3;
                v_end := v_day - 7 * v_n + 4;
            elsif v_unit = 'month' then
                v_start := (v_day - pg_catalog.make_interval(months => v_n))::date - 15;
                v_end := v_start + 31;
            else
                v_start := pg_catalog.make_date(pg_catalog.date_part('year', v_day)::integer - v_n, 1, 1);
                v_end := (v_start + interval '1 year')::date;
            end if;
        end if;
    end if;

    -- the day before yesterday, yesterday, last night, today, tonight, this morning
    if v_start is null then
        v_match := pg_catalog.regexp_match(
            v_text, '\m(the day before yesterday|yesterday|last night|today|tonight|this (?:morning|afternoon|evening))\M'
        );
        if v_match is not null then
            v_start := v_day - case
                when v_match[1] = 'the day before yesterday' then 2
                when v_match[1] in ('yesterday', 'last night') then 1
                else 0
            end;
            v_end := v_start + 1;
        end if;
    end if;

    -- last / this / earlier this: week, weekend, month, year
    if v_start is null then
        v_match := pg_catalog.regexp_match(v_text, '\m((last|this|earlier this|past)\s+(week|weekend|month|year))\M');
        if v_match is not null then
            v_unit := v_match[3];
            if v_unit = 'week' then
                v_start := pg_catalog.date_trunc('week', v_day::timestamp)::date;
                v_end := v_start + 7;
            elsif v_unit = 'weekend' then
                -- the latest Saturday that is not after the day (this weekend), or the one before it
                v_start := v_day - ((pg_catalog.date_part('isodow', v_day)::integer + 1) % 7);
                v_end := v_start + 2;
            elsif v_unit = 'month' then
                v_start := pg_catalog.date_trunc('month', v_day::timestamp)::date;
                v_end := (v_start + interval '1 month')::date;
            else
                v_start := pg_catalog.date_trunc('year', v_day::timestamp)::date;
                v_end := (v_start + interval '1 year')::date;
            end if;
            if v_match[2] in ('last', 'past') then
                if v_unit = 'weekend' then
                    -- on a weekday, last weekend is the one just gone; on a Saturday or Sunday, the one before
                    if pg_catalog.date_part('isodow', v_day)::integer >= 6 then
                        v_start := v_start - 7;
                        v_end := v_end - 7;
                    end if;
                elsif v_unit = 'week' then
                    v_start := v_start - 7;
                    v_end := v_end - 7;
                elsif v_unit = 'month' then
                    v_start := (v_start - interval '1 month')::date;
                    v_end := (v_end - interval '1 month')::date;
                else
                    v_start := (v_start - interval '1 year')::date;
                    v_end := (v_end - interval '1 year')::date;
                end if;
            elsif v_unit <> 'weekend' then
                v_end := least(v_end, v_day + 1);  -- this week / month / year: so far
            end if;
        end if;
    end if;

    -- last <weekday>, on <weekday>: the latest one before the day
    if v_start is null then
        v_match := pg_catalog.regexp_match(
            v_text, '\m((?:last|on|past)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday))\M'
        );
        if v_match is not null then
            v_weekday := pg_catalog.array_position(v_weekdays, v_match[2]);
            v_start := v_day - (((pg_catalog.date_part('isodow', v_day)::integer - v_weekday + 6) % 7) + 1);
            v_end := v_start + 1;
        end if;
    end if;

    -- a month, with a day or a year or neither ("in May", "on 5 May", "May 2026", "march 3rd")
    if v_start is null then
        v_match := pg_catalog.regexp_match(
            v_text,
            '\m((january|february|march|april|may|june|july|august|september|october|november|december)'
            || '(?:\s+(\d{4}))?)\M'
        );
        -- "may" is also a verb: only after in / during / since / early / late / mid or with a year or a day
        if v_match is not null and v_match[2] = 'may' and v_match[3] is null
           and v_text !~ '\m(in|during|early|late|mid|of|since|until|last|this)[ -]+may\M'
           and v_text !~ '\mmay\s+\d{1,2}(st|nd|rd|th)?\M'
           and v_text !~ '\m\d{1,2}(st|nd|rd|th)?\s+(of\s+)?may\M' then
            v_match := null;
        end if;
        if v_match is not null then
            v_month := pg_catalog.array_position(v_months, v_match[2]);
            v_year := coalesce(
                v_match[3]::integer,
                case
                    when v_month <= pg_catalog.date_part('month', v_day)::integer
                        then pg_catalog.date_part('year', v_day)::integer
                    else pg_catalog.date_part('year', v_day)::integer - 1
                end
            );
            v_start := pg_catalog.make_date(v_year, v_month, 1);
            v_end := (v_start + interval '1 month')::date;
        end if;
    end if;

    -- a year on its own ("in 2025")
    if v_start is null then
        v_match := pg_catalog.regexp_match(v_text, '\m((?:in|during|since)\s+((?:19|20)\d{2}))\M');
        if v_match is not null then
            v_start := pg_catalog.make_date(v_match[2]::integer, 1, 1);
            v_end := (v_start + interval '1 year')::date;
        end if;
    end if;

    if v_start is null then
        return;
    end if;
    return query select
        (v_start::timestamp at time zone 'UTC'),
        (v_end::timestamp at time zone 'UTC'),
        v_match[1];
end;
$$;

comment on function pymem.memory_time_window(text, timestamptz) is
$$The period the first time expression of a question names, relative to at (default now): starts (inclusive),
ends (exclusive) and the expression; no row when it names none. Read: an ISO date; "N days / weeks / months /
years ago" (N a number, a word up to twelve, a, a couple of, a few); yesterday, the day before yesterday, last
night, today, tonight, this morning; last / this / earlier this / past + week, weekend, month, year ("this ..." so
far); last / on + a weekday (the latest one before the day); a month name, with a year or not ("may" only after
in, during, early, late, mid, of, since, until, last, this or beside a day); in / during / since + a year. UTC
days, ISO weeks; a month without a year is the latest one not after at.
Example: select * from memory_time_window('what did I cook last week?', '2026-06-10 12:00+00');$$;
