-- noqa: disable=RF01
-- The second stage with a model SQL cannot run (a cross-encoder): the wrapper scores stage 1's candidates
-- (memory_search's rows) and passes the scores here; SQL checks them and decides the order.

create or replace function pymem.memory_rerank(
    memory_types text[],
    memory_ids uuid[],
    scores double precision[],
    "limit" integer default 20
)
returns table (memory_type text, memory_id uuid, rerank_score double precision, rerank_rank integer)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_limit integer := pymem_private.require_limit('limit', "limit");
    v_n integer := coalesce(pg_catalog.cardinality(memory_ids), 0);
    v_missing record;
begin
    if memory_types is null or memory_ids is null or scores is null
       or pg_catalog.cardinality(memory_types) <> v_n or pg_catalog.cardinality(scores) <> v_n then
        raise exception 'memory_types, memory_ids and scores must be arrays of one length'
            using errcode = 'PM002',
                  detail = pg_catalog.format(
                      'lengths %s, %s and %s', pg_catalog.cardinality(memory_types), v_n, pg_catalog.cardinality(scores)
                  ),
                  hint = 'Pass one type and one score per candidate of memory_search.';
    end if;
    if v_n > 1000 then
        raise exception 'at most 1000 candidates can be reranked, not %', v_n using errcode = 'PM002';
    end if;
    if exists (
        select from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids), pg_catalog.unnest(scores)) as c (t, i, s)
        where c.t is null or c.i is null or c.s is null or c.s in ('NaN', 'Infinity', '-Infinity')
           or c.t not in ('episode', 'fact', 'rule')
    ) then
        raise exception 'every candidate needs a type (episode, fact or rule), an id and a finite score'
            using errcode = 'PM002';
    end if;
    select c.t, c.i into v_missing
    from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids)) as c (t, i)
    where not pymem_private.memory_exists(v_tenant, c.t, c.i)
    limit 1;
    if found then
        perform pymem_private.not_found(v_missing.t, v_missing.i);
    end if;
    return query
    select r.t, r.i, r.s, r.rank
    from (
        select
            c.t, c.i, c.s,
            pg_catalog.row_number() over (order by c.s desc, m.created_at desc, c.i)::integer as rank
        from (
            select distinct on (c0.t, c0.i) c0.t, c0.i, c0.s
            from rows from (pg_catalog.unnest(memory_types), pg_catalog.unnest(memory_ids), pg_catalog.unnest(scores)) as c0 (t, i, s)
            order by c0.t, c0.i, c0.s desc
        ) as c
        cross join lateral (
            select coalesce(
                (select f.created_at from pymem.facts as f where c.t = 'fact' and f.tenant_id = v_tenant and f.id = c.i),
                (select r0.created_at from pymem.rules as r0 where c.t = 'rule' and r0.tenant_id = v_tenant and r0.id = c.i),
                (select e.created_at from pymem.episodes as e where c.t = 'episode' and e.tenant_id = v_tenant and e.id = c.i)
            ) as created_at
        ) as m
    ) as r
    where r.rank <= v_limit
    order by r.rank;
end;
$$;

comment on function pymem.memory_rerank(text[], uuid[], double precision[], integer) is
$$Stage 2 with an external model: the candidates of a search (their types and ids) ordered by the scores a
reranker gave them (a cross-encoder's logits, higher is better), ties by created_at DESC, id ASC, the first
"limit" of them with rerank_rank from 1. A candidate listed twice counts once, with its best score. PM002 for
arrays of different lengths, more than 1000 candidates, a NULL, NaN or infinite score or an unknown type; PM003
for a memory the tenant does not have. Reads only.
Example: select * from memory_rerank(array['fact', 'rule'], array['<uuid>', '<uuid>']::uuid[], array[2.5, -1.0]);$$;
