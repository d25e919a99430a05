"""Keyword statistics kept per tenant (migration 0007, sql/functions/125-keyword-stats.sql) and the exact
pruned BM25 top-k of the keyword leg (sql/functions/128-keyword-scores.sql)."""

from __future__ import annotations

import datetime as dt
import random
import threading
from typing import Any

import psycopg
import pytest

from pymem.embeddings import Embedder
from pymem.tenancy import tenant_transaction
from tests.conftest import AppConnect, Tenant
from tests.plans import explain, log_nested_plans, served_by_index, tenant_partition
from tests.sqlapi import call, store_episode, store_fact, store_rule

# What the triggers must keep: the statistics recomputed from the searchable rows.
RECOUNT = """
with m as (
    select f.tenant_id, 'fact' as memory_type, f.search_vector from pymem.facts as f where f.validity = 'active'
    union all
    select r.tenant_id, 'rule', r.search_vector from pymem.rules as r
    where r.forgotten_at is null and r.review_state = 'approved'
    union all
    select e.tenant_id, 'episode', e.search_vector from pymem.episodes as e where e.forgotten_at is null
)
select 'doc' as what, m.tenant_id, m.memory_type, '' as lexeme, count(*)::bigint as n,
       sum(length(m.search_vector))::bigint as total
from m group by m.tenant_id, m.memory_type
union all
select 'lexeme', m.tenant_id, m.memory_type, u.lexeme, count(*), null
from m cross join lateral unnest(m.search_vector) as u group by m.tenant_id, m.memory_type, u.lexeme
"""
KEPT = """
select 'doc' as what, s.tenant_id, s.memory_type, '' as lexeme, s.docs as n, s.total_length as total
from pymem.keyword_stats as s where s.docs <> 0
union all
select 'lexeme', l.tenant_id, l.memory_type, l.lexeme, l.df::bigint, null
from pymem.keyword_lexemes as l where l.df <> 0
"""


def kept(conn: psycopg.Connection[Any]) -> set[tuple[Any, ...]]:
    return set(conn.execute(KEPT).fetchall())


def recounted(conn: psycopg.Connection[Any]) -> set[tuple[Any, ...]]:
    return set(conn.execute(RECOUNT).fetchall())


def docs(conn: psycopg.Connection[Any], memory_type: str) -> int:
    row = conn.execute("select docs from pymem.keyword_stats where memory_type = %s", (memory_type,)).fetchone()
    return int(row[0]) if row else 0


def df(conn: psycopg.Connection[Any], lexeme: str) -> int:
    row = conn.execute("select coalesce(sum(df), 0) from pymem.keyword_lexemes where lexeme = %s", (lexeme,)).fetchone()
    return int(row[0]) if row else 0


def test_statistics_follow_store_supersede_forget_expire_reembed_and_delete(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], embedder: Embedder
) -> None:
    with as_tenant("acme") as conn:
        old = store_fact(conn, "user", "drink", "The user drinks green tea every morning", embedder)
        store_rule(conn, "Always answer about tea briefly", embedder)
        # its TTL passes before the janitor's transaction below
        episode = store_episode(
            conn, "We talked about tea and biscuits", "general", embedder, ttl=dt.timedelta(milliseconds=1)
        )
        assert (docs(conn, "fact"), docs(conn, "rule"), docs(conn, "episode")) == (1, 1, 1)
        assert df(conn, "tea") == 3 and df(conn, "green") == 1
        assert kept(conn) == recounted(conn)
        # supersede: the old fact leaves, the new one enters
        new = store_fact(conn, "user", "drink", "The user drinks black coffee every morning", embedder)
        assert docs(conn, "fact") == 1 and df(conn, "green") == 0 and df(conn, "coffe") == 1
        assert kept(conn) == recounted(conn)
        # forget
        call(conn, "memory_forget", type="fact", id=new)
        call(conn, "memory_forget", type="rule", id=conn.execute("select id from pymem.rules").fetchone()[0])  # type: ignore[index]
        assert docs(conn, "fact") == 0 and docs(conn, "rule") == 0 and df(conn, "tea") == 1
        assert kept(conn) == recounted(conn)
        # re-embedding changes no statistic
        before = kept(conn)
        call(
            conn,
            "memory_set_embedding",
            type="episode",
            id=episode,
            embedding=embedder.embed("x"),
            embedding_model=embedder.model_id,
        )
        assert kept(conn) == before
    # janitor expiry: an expired episode counts until the janitor tombstones it
    with as_tenant("acme") as conn:
        assert docs(conn, "episode") == 1
        call(conn, "memory_janitor_expire", limit=100)
        assert docs(conn, "episode") == 1  # not before consolidation has read it
        call(conn, "memory_consolidate")
        call(conn, "memory_janitor_expire", limit=100)
        assert docs(conn, "episode") == 0 and df(conn, "tea") == 0
        assert kept(conn) == recounted(conn)
        assert old is not None
    # delete (an operator's cleanup) and truncate
    superuser.execute("delete from pymem.facts")
    with as_tenant("acme") as conn:
        assert kept(conn) == recounted(conn)
    superuser.execute("truncate pymem.memory_links, pymem.memory_events, pymem.facts, pymem.rules, pymem.episodes")
    assert superuser.execute("select count(*) from pymem.keyword_lexemes").fetchone() == (0,)


def test_two_connections_storing_into_one_tenant_keep_exact_counts(connect_app: AppConnect) -> None:
    errors: list[BaseException] = []

    def writer(seed: int) -> None:
        conn = connect_app()
        rng = random.Random(seed)
        words = ["tea", "coffee", "garden", "piano", "berlin", "lisbon", "budget", "report"]
        try:
            for i in range(20):
                with tenant_transaction(conn, "acme"):
                    for j in range(5):
                        text = " ".join(rng.sample(words, 4))
                        store_fact(conn, f"s{seed}", f"p{i}_{j}", text)
                        store_episode(conn, text, "general")
        except BaseException as exc:  # handed to the test
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    conn = connect_app()
    with tenant_transaction(conn, "acme"):
        assert docs(conn, "fact") == 200 and docs(conn, "episode") == 200
        assert kept(conn) == recounted(conn)


def test_one_statement_of_many_rows_and_tenants_keeps_exact_counts(superuser: psycopg.Connection[Any]) -> None:
    """Inserts and deletes are counted per statement (a transition table): one statement writing rows of two
    tenants, searchable and not, then deleting some of them, leaves the statistics a recount gives."""
    with superuser.transaction():
        superuser.execute(
            "insert into pymem.facts (tenant_id, subject, predicate, content, validity)"
            " select case when g % 3 = 0 then 'acme' else 'globex' end, 's' || g, 'p',"
            " 'tea ' || repeat('garden ', g % 7) || 'note ' || g,"
            " case when g % 5 = 0 then 'retracted' else 'active' end"
            " from generate_series(1, 300) as g"
        )
        superuser.execute(
            "insert into pymem.episodes (tenant_id, butler, content)"
            " select 'acme', 'general', 'piano lesson ' || g from generate_series(1, 50) as g"
        )
    assert kept(superuser) == recounted(superuser)
    facts = superuser.execute("select sum(docs) from pymem.keyword_stats where memory_type = 'fact'").fetchone()
    assert facts == (240,) and df(superuser, "tea") == 240
    with superuser.transaction():
        superuser.execute("delete from pymem.facts where subject like 's1%'")  # both tenants, some not searchable
        superuser.execute("delete from pymem.episodes where content like '%4%'")
    assert kept(superuser) == recounted(superuser)


def test_statistics_are_per_tenant_and_under_rls(
    as_tenant: Tenant, connect_app: AppConnect, superuser: psycopg.Connection[Any]
) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "drink", "The user drinks green tea")
        store_fact(conn, "user", "food", "The user eats rye bread")
        store_fact(conn, "user", "city", "The user lives in Lisbon")
        scores = [
            (r["memory_id"], r["keyword_score"]) for r in call(conn, "memory_search", query="green tea", mode="keyword")
        ]
    with as_tenant("other") as conn:
        for i in range(30):
            store_fact(conn, "user", f"drink{i}", f"Green tea number {i}")
        assert {r[0] for r in conn.execute("select tenant_id from pymem.keyword_stats")} == {"other"}
        assert {r[0] for r in conn.execute("select tenant_id from pymem.keyword_lexemes")} == {"other"}
    with pytest.raises(psycopg.errors.InsufficientPrivilege), as_tenant("other") as conn:
        conn.execute(
            "insert into pymem.keyword_lexemes (tenant_id, memory_type, lexeme, df) values ('acme', 'fact', 'x', 1)"
        )
    with as_tenant("other") as conn:
        assert df(conn, "green") == 30
    with as_tenant("acme") as conn:
        again = [
            (r["memory_id"], r["keyword_score"]) for r in call(conn, "memory_search", query="green tea", mode="keyword")
        ]
        assert again == scores
    with connect_app() as conn, conn.transaction():
        assert conn.execute("select count(*) from pymem.keyword_stats").fetchone() == (0,)  # no tenant: nothing
    superuser.execute("create role kw_analyst login in role pymem_analyst")
    try:
        superuser.execute("select pymem.memory_bind_role('kw_analyst', 'acme')")
        dsn = psycopg.conninfo.make_conninfo(superuser.info.dsn, user="kw_analyst")
        with psycopg.connect(dsn) as analyst:
            assert {r[0] for r in analyst.execute("select tenant_id from pymem.keyword_lexemes")} == {"acme"}
    finally:  # the role audit (test_tokens) lists every login role: leave none behind
        superuser.execute("select pymem.memory_unbind_role('kw_analyst')")
        superuser.execute("drop role kw_analyst")


def test_the_pruned_top_k_equals_scoring_every_matching_row(as_tenant: Tenant) -> None:
    rng = random.Random(14)
    common = ["user", "likes", "morning"]
    middle = ["coffee", "tea", "berlin", "lisbon", "piano", "guitar"]
    rare = ["saxophone", "kyoto", "penicillin"]
    with as_tenant("acme") as conn:
        for i in range(300):
            words = rng.sample(common, rng.randint(1, 3)) + rng.sample(middle, rng.randint(0, 3))
            words += rng.sample(rare, 1) if rng.random() < 0.05 else []
            words += [rng.choice(middle)] * rng.randint(0, 2)  # some repeated words (tf > 1)
            rng.shuffle(words)
            text = " ".join(words) + f" filler{rng.randint(0, 40)}" * rng.randint(0, 3)
            if i % 3 == 0:
                store_episode(conn, text, "general")
            elif i % 3 == 1:
                store_rule(conn, text)
            else:
                store_fact(conn, "s", f"p{i}", text)
        queries = [
            "user likes coffee",
            "kyoto tea morning",
            "penicillin",
            "user",
            "guitar piano lisbon berlin user likes",
            "saxophone coffee tea user morning likes kyoto berlin",
            "saxophone coffee tea user morning likes kyoto berlin lisbon guitar piano",
            "nothing matches this",
        ]
        for query in queries:
            for depth in (1, 5, 20):
                args = (query, ["fact", "rule", "episode"], None, depth, 0.0, None)
                sql = "select * from pymem_private.memory_keyword_top('acme', %s, %s, %s, %s, %s, %s)"
                conn.execute("select set_config('pymem.keyword_pruning', 'on', true)")
                pruned = conn.execute(sql, args).fetchall()
                conn.execute("select set_config('pymem.keyword_pruning', 'off', true)")
                full = conn.execute(sql, args).fetchall()
                conn.execute("select set_config('pymem.keyword_pruning', 'on', true)")
                assert [r[1] for r in pruned] == [r[1] for r in full], (query, depth)
                assert len({r[1] for r in pruned}) == len(pruned), (query, depth)
                assert [r[3] for r in pruned] == pytest.approx([r[3] for r in full]), (query, depth)


# BM25 of every matching row recomputed from the rows' positions (unnest), independently of the scoring
# function's ts_rank-based tf (sql/functions/128-keyword-scores.sql, pymem_private.bm25_term).
REFERENCE_BM25 = """
select m.id, coalesce(sum(q.idf * cardinality(u.positions) * 1.9
    / (cardinality(u.positions) + 0.9 * (0.6 + 0.4 * length(m.search_vector) / %(avgdl)s))), 0.0)
from (
    select f.id, f.search_vector from pymem.facts as f where f.search_vector @@ %(tsq)s::tsquery
    union all select r.id, r.search_vector from pymem.rules as r where r.search_vector @@ %(tsq)s::tsquery
    union all select e.id, e.search_vector from pymem.episodes as e where e.search_vector @@ %(tsq)s::tsquery
) as m
cross join lateral unnest(m.search_vector) as u
inner join unnest(%(lexemes)s::text[], %(idf)s::float8[]) as q (lexeme, idf) on q.lexeme = u.lexeme
group by m.id
"""


@pytest.mark.parametrize("lexemes", [3, 8, 9, 12], ids=lambda n: f"{n}-lexemes")
def test_bm25_of_each_row_equals_a_reference_from_its_positions(as_tenant: Tenant, lexemes: int) -> None:
    """Up to 8 query lexemes in rows of up to 64 lexemes are scored by an inlined expression, the rest by a
    subquery: both agree with the positions of every row, repeated words (tf up to 40) included."""
    rng = random.Random(lexemes)
    vocabulary = [
        "coffee",
        "tea",
        "berlin",
        "lisbon",
        "piano",
        "guitar",
        "kyoto",
        "garden",
        "doctor",
        "bread",
        "river",
        "train",
        "winter",
        "violin",
    ]
    with as_tenant("acme") as conn:
        for i in range(60):
            words = [w for w in vocabulary if rng.random() < 0.3] + [rng.choice(vocabulary)] * rng.choice([0, 1, 5, 40])
            text = " ".join(words) or "nothing"
            if i % 4 == 0:  # rows of over 64 lexemes are scored by the other expression
                text += " " + " ".join(f"word{chr(97 + k // 26)}{chr(97 + k % 26)}" for k in range(rng.randint(60, 90)))
            if i % 3 == 0:
                store_episode(conn, text, "general")
            elif i % 3 == 1:
                store_rule(conn, text)
            else:
                store_fact(conn, "s", f"p{i}", text)
        query = vocabulary[:lexemes]
        tsq = " | ".join(query)
        idf = [round(0.5 + 0.25 * k, 2) for k in range(lexemes)]
        lexeme_list = conn.execute(
            "select tsvector_to_array(to_tsvector('english', %s))", (" ".join(query),)
        ).fetchone()
        assert lexeme_list is not None and len(lexeme_list[0]) == lexemes
        stemmed = list(lexeme_list[0])
        reference = dict(
            conn.execute(REFERENCE_BM25, {"avgdl": 7.5, "tsq": tsq, "lexemes": stemmed, "idf": idf}).fetchall()
        )
        scored = {
            row[1]: row[3]
            for row in conn.execute(
                "select * from pymem_private.memory_keyword_scores('acme', %s::tsquery, %s, %s, 7.5,"
                " '{fact,rule,episode}', null, 0.0, null)",
                (tsq, stemmed, idf),
            ).fetchall()
        }
        assert len(reference) > 20
        assert scored.keys() == reference.keys()
        for memory_id, score in scored.items():
            assert score == pytest.approx(reference[memory_id], rel=1e-9), memory_id


def test_term_frequency_is_exact_up_to_the_256_positions_a_tsvector_keeps(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        rows = conn.execute(
            """
            select n, (select count(*) from unnest(v) as u, unnest(u.positions) as p)::int,
                   pymem_private.bm25_term(v, 'w', 1.0, 1.0)
            from generate_series(1, 300) as n
            cross join lateral (select string_agg('w:' || i, ' ')::tsvector as v from generate_series(1, n) as i) as t
            """
        ).fetchall()
        for n, kept_positions, score in rows:
            assert kept_positions == min(n, 256)
            assert score == pytest.approx(kept_positions * 1.9 / (kept_positions + 1.0), rel=1e-12), n
        absent = conn.execute("select pymem_private.bm25_term('w:1,2', 'x', 2.0, 1.0)").fetchone()
        stripped = conn.execute("select pymem_private.bm25_term(strip('w:1,2,3'), 'w', 2.0, 1.0)").fetchone()
        assert absent == (0.0,)
        assert stripped is not None and stripped[0] == pytest.approx(2.0 * 1.9 / (1 + 1.0))


def _top(conn: psycopg.Connection[Any], settings: dict[str, str], query: str, depth: int, **kw: Any) -> list[Any]:
    for name, value in settings.items():
        conn.execute("select set_config(%s, %s, true)", (name, value))
    args = (query, kw.get("types", ["fact", "rule", "episode"]), kw.get("scope"), depth, kw.get("min_confidence", 0.0))
    return conn.execute(
        "select * from pymem_private.memory_keyword_top('acme', %s, %s, %s, %s, %s, null)", args
    ).fetchall()


def test_a_group_of_common_words_read_in_length_order_equals_scoring_every_row(as_tenant: Tenant) -> None:
    """memory_keyword_common (migration 0032): a group of the pruned top-k whose words are common is read as its rows
    holding a word twice or more plus the first rows in length order; the top-k is the one of scoring every match.
    The rows are made to break each shortcut: many of one length (ties on created_at, id), long rows holding the
    word three times (they beat short rows), and a word only in long rows (the length order finds too few: the
    group is read whole)."""
    rng = random.Random(32)
    fill = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]
    with as_tenant("acme") as conn:
        for i in range(360):
            words = ["user"] if rng.random() < 0.7 else []
            words += ["garden"] if rng.random() < 0.3 else []
            words += ["user", "user"] if rng.random() < 0.05 else []  # tf 3
            words += ["garden"] if words and rng.random() < 0.05 else []  # tf 2 of garden
            words += rng.sample(fill, 3 if rng.random() < 0.5 else rng.randint(0, 12))  # many rows of one length
            if i % 12 == 0:
                words += ["violin"] + rng.sample(fill, 12) + [f"w{rng.randint(0, 999)}" for _ in range(10)]  # only long
            rng.shuffle(words)
            text = " ".join(words) or "nothing"
            if i % 4 == 3:  # rows of equal length and score told apart by created_at (one transaction: now() is one)
                conn.execute(
                    "insert into pymem.facts (subject, predicate, content, created_at)"
                    " values ('t', %s, %s, now() - %s * interval '1 minute')",
                    (f"q{i}", "user" if i % 8 == 3 else "user garden", rng.randint(0, 5000)),
                )
            elif i % 3 == 0:
                store_episode(conn, text, "general")
            elif i % 3 == 1:
                store_rule(conn, text)
            else:
                store_fact(conn, "s", f"p{i}", text)
        queries = ["user", "user garden", "garden", "user violin", "violin", "user kyoto", "garden user alpha", "kyoto"]
        for query in queries:
            for depth in (1, 3, 10, 40):
                full = _top(conn, {"pymem.keyword_pruning": "off"}, query, depth)
                for common in ("on", "auto", "off"):
                    pruned = _top(conn, {"pymem.keyword_pruning": "on", "pymem.keyword_common": common}, query, depth)
                    assert [r[1] for r in pruned] == [r[1] for r in full], (query, depth, common)
                    assert [r[3] for r in pruned] == pytest.approx([r[3] for r in full]), (query, depth, common)
            # by type and scope, as search and recall ask
            for kw in ({"types": ["fact", "rule"]}, {"types": ["episode"], "scope": "general"}, {"scope": "other"}):
                full = _top(conn, {"pymem.keyword_pruning": "off"}, query, 10, **kw)
                pruned = _top(conn, {"pymem.keyword_pruning": "on", "pymem.keyword_common": "on"}, query, 10, **kw)
                assert [r[1] for r in pruned] == [r[1] for r in full], (query, kw)


def test_auto_reads_a_group_by_its_short_rows_from_an_estimated_sqrt_of_depth_times_rows(
    as_tenant: Tenant, db_dsn: str
) -> None:
    """pymem.keyword_common = auto (issue 31): memory_keyword_top reads a group through memory_keyword_common (its
    rows in order of length) when the group is estimated at sqrt(depth x rows) rows or more, and scores it whole
    below. 1,000 facts at depth 10: 'kiwi' in 150 of them (over sqrt(10 x 1000) = 100; under the 2 x sqrt(depth x
    rows) of before), 'mango' in 80. Seen in the plans of the statements memory_keyword_top runs (auto_explain)."""
    with as_tenant("acme") as conn:
        conn.execute(
            "insert into pymem.facts (subject, predicate, content)"
            " select 's', 'p' || n, case when n < 150 then 'kiwi ' when n < 230 then 'mango ' else '' end"
            " || repeat('filler ', n % 7) || 'word' || n from generate_series(0, 999) as n"
        )
    messages: list[str] = []
    read_by_length = {}
    with psycopg.connect(db_dsn, autocommit=True) as conn:
        log_nested_plans(conn, messages)
        for word in ("kiwi", "mango"):
            messages.clear()
            with conn.transaction():
                conn.execute("set local role pymem_app")
                top = _top(conn, {"pymem.tenant_id": "acme", "pymem.keyword_pruning": "on"}, word, 10, types=["fact"])
            assert len(top) == 10
            read_by_length[word] = any("fact_once as materialized" in m for m in messages)
    assert read_by_length == {"kiwi": True, "mango": False}


def test_the_common_word_indexes_serve_the_application_role(
    as_tenant: Tenant, superuser: psycopg.Connection[Any]
) -> None:
    """As pymem_app (row-level security on), the rows holding a word twice are found through the
    *_repeated_lexemes_idx index (pymem_private.repeated_lexemes is LEAKPROOF, migration 0032) and the rows in
    length order through *_search_length_idx: the two reads of memory_keyword_common."""
    rows = [("s", f"p{i}", "user user likes tea" if i % 40 == 0 else f"user note {i}") for i in range(3000)]
    with as_tenant("acme") as conn, conn.cursor() as cur:
        cur.executemany("insert into pymem.facts (subject, predicate, content) values (%s, %s, %s)", rows)
    superuser.execute("analyze pymem.facts")
    assert superuser.execute(
        "select proleakproof from pg_proc where oid = 'pymem_private.repeated_lexemes(tsvector)'::regprocedure"
    ).fetchone() == (True,)
    partition = tenant_partition(superuser, "pymem.facts", "acme")
    with as_tenant("acme") as conn:
        conn.execute("set local enable_seqscan = off")
        # run: bound by the policy's InitPlan alone, the tenant's partition is chosen when the plan runs
        repeated = explain(
            conn,
            "select id from pymem.facts"
            " where pymem_private.repeated_lexemes(search_vector) operator(pymem_private.@@@) 'user'::tsquery",
            analyze=True,
        )
        # bound by a constant too: the plan reads the tenant's partition only
        ordered = explain(
            conn,
            "select id from pymem.facts where tenant_id = 'acme'"
            " order by length(search_vector), created_at desc, id limit 10",
        )
        doubled = conn.execute(
            "select count(*) from pymem.facts"
            " where pymem_private.repeated_lexemes(search_vector) operator(pymem_private.@@@) 'user'::tsquery"
        ).fetchone()
    served = served_by_index(superuser, repeated, partition, "pymem.facts_repeated_lexemes_idx")
    assert all("@@@" in s.index_cond for s in served), repeated
    served_by_index(superuser, ordered, partition, "pymem.facts_search_length_idx")
    assert doubled == (75,)


def test_repeated_lexemes_are_those_of_two_positions_or_more(superuser: psycopg.Connection[Any]) -> None:
    cases = {
        "tea, more tea and a cake": "'tea'",
        "the cat sat": "",
        "dogs and dogs and cats and cats and cats": "'cat' 'dog'",
    }
    for text, expected in cases.items():
        got = superuser.execute(
            "select pymem_private.repeated_lexemes(to_tsvector('english', %s))::text", (text,)
        ).fetchone()
        assert got == (expected,), text
    stripped = superuser.execute(
        "select pymem_private.repeated_lexemes(strip(to_tsvector('english', 'tea tea')))::text"
    ).fetchone()
    assert stripped == ("",)


def test_the_pruned_top_k_as_of_a_past_moment_finds_what_was_valid_then(as_tenant: Tenant) -> None:
    """The kept statistics count what is searchable now: a word only a superseded fact holds has df 0. Asked as of
    a moment when that fact was valid, the pruned top-k still reads the group of that word (a group is skipped for
    a word whose every row was read only when the search is of now)."""
    with as_tenant("acme") as conn:
        for i in range(30):
            store_fact(conn, "s", f"p{i}", f"user note {i}")
    with as_tenant("acme") as conn:
        store_fact(conn, "tom", "plays", "tom plays the violin in kyoto")
        then = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
    with as_tenant("acme") as conn:
        store_fact(conn, "tom", "plays", "tom plays nothing now")
        assert df(conn, "kyoto") == 0
        for common in ("on", "auto", "off"):
            conn.execute("select set_config('pymem.keyword_pruning', 'on', true)")
            conn.execute("select set_config('pymem.keyword_common', %s, true)", (common,))
            rows = conn.execute(
                "select k.id from pymem_private.memory_keyword_top('acme', 'violin in kyoto', '{fact}', null, 5, 0.0,"
                " %s) as k",
                (then + dt.timedelta(microseconds=1),),
            ).fetchall()
            assert len(rows) == 1, common
