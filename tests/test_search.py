"""memory_search: semantic, keyword, hybrid (RRF) and weighted modes, the keyword tiers for other
scripts, filters, deterministic ties and reference bumping."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb

from pymem.embeddings import Embedder
from pymem_dev.evaluation.reference import tsvector_terms
from tests.conftest import Tenant
from tests.plans import explain, log_nested_plans, plan_of_log, scans, served_by_index, tenant_partition
from tests.sqlapi import ago, call, store_episode, store_fact, store_rule
from tests.test_schema import _fill_facts

DISTRACTORS = [
    ("user", "favorite_color", "The user's favourite colour is blue"),
    ("user", "home_city", "The user lives in Berlin with two cats"),
    ("user", "employer", "The user works as an accountant at a bank"),
    ("user", "hobby", "The user plays chess on Sunday afternoons"),
    ("user", "car", "The user drives an old red Volvo"),
    ("user", "music", "The user listens to jazz while cooking"),
    ("user", "language", "The user is learning Portuguese"),
]


def search(conn: psycopg.Connection[Any], query: str, embedder: Embedder | None = None, **arguments: Any) -> Any:
    if embedder is not None:
        arguments.setdefault("query_embedding", embedder.embed(query))
    return call(conn, "memory_search", query=query, **arguments)


@pytest.fixture
def health_facts(as_tenant: Tenant, embedder: Embedder) -> dict[str, Any]:
    with as_tenant("acme") as conn:
        ids = {p: store_fact(conn, s, p, c, embedder) for s, p, c in DISTRACTORS}
        ids["nausea"] = store_fact(conn, "user", "symptom", "User experiences nausea after dairy", embedder)
    return ids


# Semantic


def test_semantic_search_returns_conceptually_similar_results(
    as_tenant: Tenant, embedder: Embedder, health_facts: dict[str, Any]
) -> None:
    query = embedder.embed("feeling unwell")
    with as_tenant("acme") as conn:
        rows = search(conn, "feeling unwell", query_embedding=query, mode="semantic")
        vectors = {
            r["memory_id"]: conn.execute(
                "select embedding from pymem.facts where id = %s", (r["memory_id"],)
            ).fetchone()[0]
            for r in rows
        }  # type: ignore[index]
    assert rows[0]["memory_id"] == health_facts["nausea"]
    assert rows[0]["content"] == "User experiences nausea after dairy"
    for row in rows:  # ranked by cosine similarity, score = 1 - cosine distance (at least 0)
        cosine = float(np.dot(vectors[row["memory_id"]].to_numpy(), query))
        assert row["score"] == pytest.approx(max(0.0, cosine), abs=1e-5)
        assert row["search_mode"] == "semantic" and row["keyword_rank"] is None
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)


def test_semantic_search_respects_limit(as_tenant: Tenant, embedder: Embedder, health_facts: dict[str, Any]) -> None:
    with as_tenant("acme") as conn:
        assert len(search(conn, "feeling unwell", embedder, mode="semantic")) == 8
        assert len(search(conn, "feeling unwell", embedder, mode="semantic", limit=5)) == 5


# Keyword


def test_keyword_search_matches_exact_terms(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "doctor", "The user's GP is Dr. Smith at the Elm Street practice")
        store_fact(conn, "user", "dentist", "The user's dentist is Dr. Jones")
        store_fact(conn, "user", "neighbour", "The neighbour, Mr. Smithers, waters the plants")
        rows = search(conn, "Dr. Smith", mode="keyword")
    assert rows[0]["memory_id"] == fact_id
    assert rows[0]["keyword_tier"] == "fts" and rows[0]["search_mode"] == "keyword"
    assert "Smithers" not in {r["content"] for r in rows[:1]}


def test_keyword_search_handles_stemming(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "exercise", "The user runs 5 km every morning")
        store_fact(conn, "user", "pet", "The user has a cat")
        rows = search(conn, "running", mode="keyword")
    assert [r["memory_id"] for r in rows] == [fact_id]


def test_keyword_search_ranks_by_bm25(as_tenant: Tenant) -> None:
    """A rare query word outweighs a common one (IDF), whatever the order of storage; keyword_score is
    bm25/(bm25 + 1) with k1 = 0.9, b = 0.4 over the stored lexemes: tf = positions of the lexeme, the
    length of a row = its distinct lexemes, averaged over the matched rows (here all of them)."""
    with as_tenant("acme") as conn:
        rare = store_fact(conn, "user", "allergy", "The user is allergic to penicillin")
        common = [
            store_fact(
                conn, f"friend {h}", "drink", f"Friend {h} drinks coffee at noon" + ", coffee at night" * (h == 0)
            )
            for h in range(5)
        ]
        rows = search(conn, "penicillin coffee", mode="keyword", limit=10)
        docs = {r[0]: tsvector_terms(r[1]) for r in conn.execute("select id, search_vector::text from pymem.facts")}
    assert [r["memory_id"] for r in rows][:2] == [rare, common[0]]  # then the one with "coffee" twice
    assert {r["memory_id"] for r in rows[1:]} == set(common)
    avgdl = sum(len(t) for t in docs.values()) / len(docs)
    for row in rows:
        terms = docs[row["memory_id"]]
        bm25 = 0.0
        for lexeme in ("penicillin", "coffe"):
            df = sum(lexeme in t for t in docs.values())
            if lexeme in terms:
                tf, norm = terms[lexeme], 1 - 0.4 + 0.4 * len(terms) / avgdl
                bm25 += math.log(1 + (len(docs) - df + 0.5) / (df + 0.5)) * tf * 1.9 / (tf + 0.9 * norm)
        assert row["keyword_tier"] == "fts" and row["keyword_score"] == pytest.approx(bm25 / (bm25 + 1))


def test_keyword_search_always_runs_in_hybrid_mode(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "doctor", "Dr. Smith prescribed ibuprofen", embedder)
        rows = search(conn, "Dr. Smith", embedder)
    assert rows[0]["memory_id"] == fact_id
    assert rows[0]["keyword_rank"] == 1 and rows[0]["semantic_rank"] == 1


# Hybrid (RRF)


def test_hybrid_is_the_default_search_mode(as_tenant: Tenant, embedder: Embedder, health_facts: dict[str, Any]) -> None:
    with as_tenant("acme") as conn:
        rows = search(conn, "nausea", embedder)
    assert {r["search_mode"] for r in rows} == {"hybrid"}
    assert rows[0]["memory_id"] == health_facts["nausea"]


def test_hybrid_search_combines_both_signals(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        for subject, predicate, content in DISTRACTORS:
            store_fact(conn, subject, predicate, content, embedder)
        # semantically close, but shares no word with the query: only in the semantic list
        meaning = store_fact(conn, "user", "digestion", "Milk and cheese upset the user's stomach", embedder)
        # shares the query's words, weak in meaning: in both lists, high in the keyword one
        words = store_fact(conn, "user", "note", "Intolerant of noise; the lactose-free aisle is aisle 4", embedder)
        limit = 20
        rows = search(conn, "lactose intolerant", embedder, limit=limit)
    by_id = {r["memory_id"]: r for r in rows}
    assert meaning in by_id and words in by_id
    assert by_id[meaning]["keyword_rank"] is None
    assert by_id[words]["keyword_rank"] == 1
    for row in rows:  # rrf_score = 1/(k + semantic_rank) + 1/(k + keyword_rank), missing rank = limit + 1
        semantic = row["semantic_rank"] or limit + 1
        keyword = row["keyword_rank"] or limit + 1
        assert row["score"] == pytest.approx(1 / (60 + semantic) + 1 / (60 + keyword))
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)


def test_rrf_k_is_a_parameter(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "doctor", "Dr. Smith prescribed ibuprofen", embedder)
        rows = search(conn, "Dr. Smith", embedder, rrf_k=10)
    assert rows[0]["score"] == pytest.approx(2 / 11)


def test_the_rrf_helper_is_public(app: psycopg.Connection[Any]) -> None:
    row = app.execute(
        "select pymem.memory_rrf_score(1, 15, 21), pymem.memory_rrf_score(10, null, 21),"
        " pymem.memory_rrf_score(1, 1, 21, 1)"
    ).fetchone()
    assert row == pytest.approx((1 / 61 + 1 / 75, 1 / 70 + 1 / 81, 1.0))


# Weighted fusion


def test_weighted_score_merging(as_tenant: Tenant, embedder: Embedder, health_facts: dict[str, Any]) -> None:
    with as_tenant("acme") as conn:
        rows = search(conn, "nausea after dairy", embedder, mode="weighted", min_score=0)
        custom = search(
            conn, "nausea after dairy", embedder, mode="weighted", vector_weight=0.2, keyword_weight=0.8, min_score=0
        )
    assert rows[0]["memory_id"] == health_facts["nausea"]
    for row in rows:
        expected = 0.7 * (row["semantic_score"] or 0) + 0.3 * (row["keyword_score"] or 0)
        assert row["score"] == pytest.approx(expected)
    for row in custom:
        expected = 0.2 * (row["semantic_score"] or 0) + 0.8 * (row["keyword_score"] or 0)
        assert row["score"] == pytest.approx(expected)


def test_weighted_min_score_defaults_to_0_1(
    as_tenant: Tenant, embedder: Embedder, health_facts: dict[str, Any]
) -> None:
    with as_tenant("acme") as conn:
        everything = search(conn, "nausea after dairy", embedder, mode="weighted", min_score=0)
        default = search(conn, "nausea after dairy", embedder, mode="weighted")
        strict = search(conn, "nausea after dairy", embedder, mode="weighted", min_score=0.5)
    assert any(r["score"] < 0.1 for r in everything), "the fixture needs a weak match"
    assert [r["memory_id"] for r in default] == [r["memory_id"] for r in everything if r["score"] >= 0.1]
    assert strict and all(r["score"] >= 0.5 for r in strict)
    assert {r["memory_id"] for r in strict} <= {r["memory_id"] for r in default}


def test_results_beyond_the_limit_are_cut(as_tenant: Tenant, embedder: Embedder, health_facts: dict[str, Any]) -> None:
    with as_tenant("acme") as conn:
        everything = search(conn, "user", embedder, limit=20, bump_references=False)
        top3 = search(conn, "user", embedder, limit=3, bump_references=False)
    assert len(everything) == 8
    assert len(top3) == 3


# Fallbacks


def test_no_embedding_degrades_to_keyword_search(
    as_tenant: Tenant, embedder: Embedder, health_facts: dict[str, Any]
) -> None:
    notices: list[str] = []
    with as_tenant("acme") as conn:
        conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
        fallback = search(conn, "nausea", query_embedding=None)
        keyword = search(conn, "nausea", mode="keyword")
        with_embedding = search(conn, "nausea", embedder)
    assert [r["memory_id"] for r in fallback] == [health_facts["nausea"]]
    assert fallback[0]["search_mode"] == "keyword"
    assert fallback[0].keys() == with_embedding[0].keys()
    assert [r["score"] for r in fallback] == [r["score"] for r in keyword]
    assert notices == ["no query_embedding: hybrid search runs as keyword search"]


def test_rows_without_embedding_are_found_by_keyword(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        bare = store_fact(conn, "user", "allergy", "The user is allergic to peanuts")
        rows = search(conn, "peanuts allergy", embedder)
    assert [(r["memory_id"], r["semantic_rank"], r["keyword_rank"]) for r in rows] == [(bare, None, 1)]


CJK = [
    ("zh", "food", "我喜欢吃寿司和拉面"),
    ("zh", "city", "用户住在上海"),
    ("ja", "drink", "私は毎朝コーヒーを飲みます"),
    ("ja", "pet", "猫を二匹飼っています"),
    ("en", "city", "The user lives in Tokyo"),
]


@pytest.mark.parametrize(
    ("query", "expected", "tier"),
    [
        ("我喜欢吃寿司", "我喜欢吃寿司和拉面", "trigram"),  # Chinese, a long run: trigram similarity
        ("毎朝コーヒーを飲", "私は毎朝コーヒーを飲みます", "trigram"),  # Japanese
        ("寿司", "我喜欢吃寿司和拉面", "ilike"),  # a 2-character run has no trigram: the ILIKE tier
        ("上海", "用户住在上海", "trigram"),  # a run at the end of a word shares its trigrams
        ("二匹", "猫を二匹飼っています", "ilike"),
        ("匹", "猫を二匹飼っています", "ilike"),  # a 1-character run
    ],
)
def test_cjk_queries_use_the_trigram_then_the_ilike_tier(
    as_tenant: Tenant, embedder: Embedder, query: str, expected: str, tier: str
) -> None:
    with as_tenant("acme") as conn:
        for subject, predicate, content in CJK:
            store_fact(conn, subject, predicate, content, embedder)
        keyword = search(conn, query, mode="keyword")
        hybrid = search(conn, query, embedder)
    assert keyword[0]["content"] == expected
    assert keyword[0]["keyword_tier"] == tier
    assert 0 < keyword[0]["keyword_score"] <= 1
    assert expected in [r["content"] for r in hybrid if r["keyword_rank"] is not None]


def test_ilike_matches_each_cjk_run_on_its_own(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        both = store_fact(conn, "a", "p", "我喜欢吃寿司和拉面")
        noodles = store_fact(conn, "b", "p", "兰州拉面很好吃")
        sushi = store_fact(conn, "c", "p", "他在回转寿司店工作")
        store_fact(conn, "d", "p", "今天下雨")
        rows = search(conn, "寿司 拉面", mode="keyword")
    assert [(r["memory_id"], r["keyword_tier"], r["keyword_score"]) for r in rows] == [
        (both, "ilike", 1.0),
        *sorted([(sushi, "ilike", 0.5), (noodles, "ilike", 0.5)], key=lambda r: str(r[0])),
    ]


def test_the_ilike_tier_runs_only_when_the_others_find_nothing(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "code", "Deploy with kubectlx apply")
        rows = search(conn, "kubectlx", mode="keyword")
        assert [(r["memory_id"], r["keyword_tier"]) for r in rows] == [(fact_id, "fts")]
        rows = search(conn, "kubectl", mode="keyword")  # no lexeme matches: ILIKE
        assert [(r["memory_id"], r["keyword_tier"]) for r in rows] == [(fact_id, "ilike")]
        rows = search(conn, "寿司 kubectl", mode="keyword")  # a CJK query: trigram, else ILIKE per term
    assert [(r["memory_id"], r["keyword_tier"]) for r in rows] == [(fact_id, "trigram")]


@pytest.mark.parametrize(
    "query",
    [
        "kubectlx",
        "kubectl",
        "寿司 kubectl",
        "寿司",
        "我喜欢吃寿司",
        "diet vegetarian kubectlx",
        "zzqv plorth",
        "the of",
    ],
)
def test_the_keyword_list_of_memory_candidates_is_keyword_candidates(as_tenant: Tenant, query: str) -> None:
    """memory_candidates runs the full-text tier alone unless the query has CJK or it finds nothing (issue 31: the
    trigram and ILIKE tiers were planned on every call): its keyword list must be keyword_candidates' in every tier."""
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "code", "Deploy with kubectlx apply")
        store_fact(conn, "user", "diet", "The user's diet is vegetarian")
        store_fact(conn, "user", "food", "我喜欢吃寿司和拉面")
        store_fact(conn, "user", "cats", "猫を二匹飼っています")
        store_rule(conn, "Answer in plain English, and mention kubectlx when deploying")
        tenant = conn.execute("select pymem.current_tenant()").fetchone()[0]
        wanted = conn.execute(
            "select k.kind, k.id, k.rank, k.score, k.tier from pymem_private.keyword_candidates("
            " %s, %s, '{fact,rule}', null, 20, 0.2, null, now(),"
            " cardinality(pymem.memory_cjk_runs(%s)) > 0, pymem.memory_like_terms(%s),"
            " (select coalesce(array_agg('%%' || t || '%%'), '{}') from unnest(pymem.memory_like_terms(%s)) as t)"
            ") as k order by k.rank",
            (tenant, query, query, query, query),
        ).fetchall()
        got = conn.execute(
            "select c.c_type, c.c_id, c.c_keyword_rank, c.c_keyword_score, c.c_keyword_tier"
            " from pymem_private.memory_candidates("
            "   %s, %s, null, '{fact,rule}', null, 20, 0.2, null, false, true, false"
            " ) as c where c.c_keyword_rank is not null order by c.c_keyword_rank",
            (tenant, query),
        ).fetchall()
    assert got == wanted
    tiers = {"kubectlx": "fts", "kubectl": "ilike", "寿司 kubectl": "trigram", "zzqv plorth": None}
    if query in tiers:  # each path is taken: the full-text tier alone, the fallbacks, nothing
        assert (got[0][4] if got else None) == tiers[query]


# Filters


def test_search_across_all_types(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        episode = store_episode(conn, "User talked about their diet preferences", "health", embedder)
        fact = store_fact(conn, "user", "diet", "The user's diet is vegetarian", embedder)
        rule = store_rule(conn, "Respect diet preferences when suggesting meals", embedder)
        rows = search(conn, "diet preferences", embedder)
    assert {(r["memory_type"], r["memory_id"]) for r in rows} == {("episode", episode), ("fact", fact), ("rule", rule)}


def test_search_filtered_to_facts_only(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        store_episode(conn, "User talked about their diet", "health", embedder)
        fact = store_fact(conn, "user", "diet", "The user's diet is vegetarian", embedder)
        store_rule(conn, "Respect the diet when suggesting meals", embedder)
        rows = search(conn, "diet", embedder, types=["fact"])
        two = search(conn, "diet", embedder, types=["fact", "rule"])
    assert [(r["memory_type"], r["memory_id"]) for r in rows] == [("fact", fact)]
    assert {r["memory_type"] for r in two} == {"fact", "rule"}


def test_scope_filters_facts_rules_and_episodes(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        for scope in ("global", "health", "general"):
            store_fact(conn, f"user-{scope}", "diet", f"diet fact {scope}", scope=scope)
            store_rule(conn, f"diet rule {scope}", scope=scope)
            store_episode(conn, f"diet episode {scope}", scope)
        rows = search(conn, "diet", mode="keyword", scope="health")
        everything = search(conn, "diet", mode="keyword")
    assert sorted((r["memory_type"], r["content"]) for r in rows) == [
        ("episode", "diet episode health"),
        ("fact", "diet fact global"),
        ("fact", "diet fact health"),
        ("rule", "diet rule global"),
        ("rule", "diet rule health"),
    ]
    assert len(everything) == 9


def test_min_confidence_filters_fading_memories(as_tenant: Tenant, superuser: psycopg.Connection[Any]) -> None:
    with as_tenant("acme") as conn:
        fading = store_fact(conn, "user", "diet", "diet: fading", confidence=0.15)
        firm = store_fact(conn, "user", "sport", "diet: firm")
    with as_tenant("acme") as conn:
        default = search(conn, "diet", mode="keyword")
        everything = search(conn, "diet", mode="keyword", min_confidence=0)
        strict = search(conn, "diet", mode="keyword", min_confidence=0.99)
    assert [r["memory_id"] for r in default] == [firm]
    assert {r["memory_id"] for r in everything} == {firm, fading}
    assert [r["memory_id"] for r in strict] == [firm]
    assert everything[0]["effective_confidence"] == pytest.approx(everything[0]["confidence"], rel=1e-6)


def test_retired_memories_are_never_found(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "diet", "diet old")  # superseded next
        current = store_fact(conn, "user", "diet", "diet new")
        retracted = store_fact(conn, "user", "x", "diet retracted")
        call(conn, "memory_forget", type="fact", id=retracted)
        rule = store_rule(conn, "diet forgotten rule")
        call(conn, "memory_forget", type="rule", id=rule)
        episode = store_episode(conn, "diet forgotten episode", "health")
        call(conn, "memory_forget", type="episode", id=episode)
        store_episode(conn, "diet expired episode", "health", ttl=dt.timedelta(milliseconds=1))
    with as_tenant("acme") as conn:
        rows = search(conn, "diet", mode="keyword")
    assert [r["memory_id"] for r in rows] == [current]


# Ordering and bumping


def test_equal_score_ties_are_stable(as_tenant: Tenant, superuser: psycopg.Connection[Any]) -> None:
    with as_tenant("acme") as conn:  # one transaction: equal created_at, so id ASC decides
        same = sorted(store_fact(conn, f"user{i}", "p", "identical diet content") for i in range(3))
    with as_tenant("acme") as conn:
        newer = store_fact(conn, "user9", "p", "identical diet content")
    with as_tenant("acme") as conn:
        rows = search(conn, "diet", mode="keyword")
        again = search(conn, "diet", mode="keyword")
    assert len({r["score"] for r in rows}) == 1
    assert [r["memory_id"] for r in rows] == [newer, *same]
    assert [r["memory_id"] for r in again] == [r["memory_id"] for r in rows]


def test_search_bumps_reference_metadata(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "diet", "vegan diet")
        store_fact(conn, "user", "city", "Berlin")
    with as_tenant("acme") as conn:
        rows = search(conn, "diet", mode="keyword")
        stamp = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
    assert [(r["memory_id"], r["reference_count"]) for r in rows] == [(fact_id, 1)]
    with as_tenant("acme") as conn:
        assert conn.execute(
            "select content, reference_count, last_referenced_at = %s from pymem.facts order by content", (stamp,)
        ).fetchall() == [("Berlin", 0, None), ("vegan diet", 1, True)]
        search(conn, "diet", mode="keyword", bump_references=False)
    with as_tenant("acme") as conn:
        conn.execute("set transaction read only")
        assert search(conn, "diet", mode="keyword")[0]["reference_count"] == 1  # read-only: read, no bump
    with as_tenant("acme") as conn:
        assert conn.execute("select reference_count from pymem.facts where id = %s", (fact_id,)).fetchone() == (1,)


BAD_SEARCHES = [
    ({"query": ""}, "query must be a non-empty text"),
    ({"query": "x", "mode": "fuzzy"}, "invalid mode 'fuzzy'"),
    ({"query": "x", "limit": 0}, "limit must be between 1 and 1000"),
    ({"query": "x", "types": []}, "types must name at least one memory type"),
    ({"query": "x", "types": ["fact", "note"]}, "invalid type 'note'"),
    ({"query": "x", "min_confidence": 1.5}, "min_confidence must be between 0 and 1"),
    ({"query": "x", "min_score": -0.1}, "min_score must be between 0 and 1"),
    ({"query": "x", "vector_weight": 0, "keyword_weight": 0}, "must not both be 0"),
    ({"query": "x", "rrf_k": 0}, "rrf_k must be >= 1"),
    ({"query": "x", "query_embedding": np.ones(3, dtype=np.float32)}, "must have 384 dimensions"),
    ({"query": "x", "scope": " "}, "scope must be a non-empty text"),
]


@pytest.mark.parametrize(("arguments", "message"), BAD_SEARCHES)
def test_bad_search_arguments_get_a_clear_error(as_tenant: Tenant, arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call(conn, "memory_search", **arguments)
    assert caught.value.sqlstate == "PM002"
    assert message in str(caught.value)


def _facts_to_explain(as_tenant: Tenant, superuser: psycopg.Connection[Any]) -> tuple[np.ndarray, str]:
    """2,000 facts of tenant acme (more than pymem.exact_search_rows), analysed; their vectors and partition."""
    with as_tenant("acme") as conn:
        vectors = _fill_facts(conn, 2000)
    superuser.execute("analyze pymem.facts")
    return vectors, tenant_partition(superuser, "pymem.facts", "acme")


def test_semantic_candidates_use_the_vector_index(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], db_dsn: str
) -> None:
    """The plan inside memory_search/memory_recall, read with auto_explain (LOAD needs a superuser), run: the
    semantic leg reads the tenant's partition of pymem.facts through its part of facts_embedding_idx, and no
    other partition, even where the tenant is all of it (a tenant above pymem.exact_search_rows is searched through
    the index, not sorted)."""
    vectors, partition = _facts_to_explain(as_tenant, superuser)
    messages: list[str] = []
    with psycopg.connect(db_dsn, autocommit=True) as conn:
        log_nested_plans(conn, messages)
        conn.execute("set auto_explain.log_analyze = on")
        conn.execute("set auto_explain.log_timing = off")
        # 2000 rows in all, all the tenant's: a table the planner would rather read and sort, the distances priced
        # far below their cost; memory_candidates plans its semantic statements with sorts disabled (issue 31)
        with conn.transaction():
            conn.execute("select set_config('pymem.tenant_id', 'acme', true)")
            top = search(conn, "fact number", query_embedding=vectors[42], mode="semantic", limit=5)
            recalled = call(
                conn, "memory_recall", topic="fact number", query_embedding=vectors[42], limit=5, mode="semantic"
            )
    assert top[0]["content"] == "fact number 42" and recalled[0]["content"] == "fact number 42"
    logged = [p for p in map(plan_of_log, messages) if p is not None]
    nested = [
        p
        for p in logged
        if any(s.relation == partition and s.parent_index == "pymem.facts_embedding_idx" for s in scans(superuser, p))
    ]
    assert len(nested) >= 2, "\n".join(messages)
    for plan in nested:
        served_by_index(superuser, plan, partition, "pymem.facts_embedding_idx")


def test_the_keyword_leg_plans_its_own_statements_once_and_its_groups_with_their_values(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], db_dsn: str
) -> None:
    """memory_keyword_top plans its own statements once a session (plan_cache_mode = force_generic_plan): its read of
    the tenant's kept statistics holds the tenant as a parameter, not the call's value (planned again at every call,
    its statements cost ~0.65 ms of a recall or search, issue 31). The groups it reads (memory_keyword_scores) are
    planned with their own values (plan_cache_mode = auto): the GIN scan holds the tenant and the group's words as
    constants."""
    vectors, partition = _facts_to_explain(as_tenant, superuser)
    messages: list[str] = []
    with psycopg.connect(db_dsn, autocommit=True) as conn:
        log_nested_plans(conn, messages)
        with conn.transaction():
            conn.execute("select set_config('pymem.tenant_id', 'acme', true)")
            conn.execute("set local role pymem_app")
            for _ in range(2):
                found = search(
                    conn, "fact number 42", query_embedding=vectors[42], mode="hybrid", types=["fact"], limit=5
                )
    assert found[0]["content"] == "fact number 42"
    read = [s for p in map(plan_of_log, messages) if p is not None for s in scans(superuser, p)]
    statistics = [s for s in read if s.relation == "keyword_stats" and s.index_cond]
    keyword = [s for s in read if s.relation == partition and s.parent_index == "pymem.facts_search_idx"]
    assert statistics and keyword, "\n".join(messages)
    # memory_keyword_top's read of the statistics of the types searched (its $1 and $3); memory_candidates reads them
    # too, planned with its values
    assert any("(tenant_id = $1) AND (memory_type = ANY ($3))" in s.index_cond for s in statistics), statistics
    assert all("'acme'::text" in s.index_cond and "'fact'" in s.index_cond for s in keyword), keyword


# Temporal decay of dated memories (files named YYYY-MM-DD.md; see also tests/test_import.py)


def test_dated_memories_decay_with_a_30_day_half_life(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        today = conn.execute("select (now() at time zone 'UTC')::date").fetchone()[0]  # type: ignore[index]
        dated = {
            days: store_fact(
                conn,
                f"memory/{today - dt.timedelta(days=days)}.md",
                "chunk 1",
                f"Went running with Anna ({days} days)",
                metadata=Jsonb({"source_date": str(today - dt.timedelta(days=days))}),
            )
            for days in (0, 30, 60)
        }
        undated = store_fact(
            conn, "MEMORY.md", "chunk 1", "Anna likes running", metadata=Jsonb({"source_path": "MEMORY.md"})
        )
        rows = {r["memory_id"]: r for r in search(conn, "running Anna", mode="keyword")}
        slow = {r["memory_id"]: r for r in search(conn, "running Anna", mode="keyword", date_half_life_days=60)}
    assert rows[undated]["date_decay"] == 1.0
    for days, memory_id in dated.items():
        row = rows[memory_id]
        # the age counts from midnight UTC of the file's date, so it is a fraction of a day more
        assert 2 ** (-(days + 1) / 30) <= row["date_decay"] <= 2 ** (-days / 30)
        assert row["score"] == pytest.approx(row["keyword_score"] * row["date_decay"])
        assert slow[memory_id]["date_decay"] == pytest.approx(row["date_decay"] ** 0.5)


def test_date_decay_reorders_results(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        old = store_fact(conn, "a", "p", "Anna runs", metadata=Jsonb({"source_date": "2020-01-01"}))
        new = store_fact(conn, "b", "p", "Anna runs")
        rows = search(conn, "Anna runs", mode="keyword")
    assert [r["memory_id"] for r in rows] == [new, old]


def test_the_date_decay_helper(app: psycopg.Connection[Any]) -> None:
    row = app.execute(
        "select pymem.memory_date_decay('{\"source_date\": \"2026-10-24\"}', '2026-11-23 00:00Z'),"
        " pymem.memory_date_decay('{\"source_date\": \"2026-10-24\"}', '2026-11-23 00:00Z', 15),"
        " pymem.memory_date_decay('{}', now()), pymem.memory_date_decay('{\"source_date\": \"2026-13-45\"}', now())"
    ).fetchone()
    assert row == pytest.approx((0.5, 0.25, 1.0, 1.0))


@pytest.mark.parametrize("source_date", ["24/10/2026", "2026-13-45", 20261024, "2026-10-24T10:00"])
def test_a_malformed_source_date_is_rejected(as_tenant: Tenant, source_date: Any) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        store_fact(conn, "a", "p", "c", metadata=Jsonb({"source_date": source_date}))
    assert caught.value.sqlstate == "PM002"
    assert "source_date must be a date written YYYY-MM-DD" in str(caught.value)


# Exact search: what numpy's matrix @ q with argpartition computed, pgvector computes


def test_semantic_search_equals_an_exact_cosine_top_k(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        vectors = _fill_facts(conn, 300)  # few rows: the planner scans exactly
        query = vectors[7] + 0.5 * vectors[11]
        rows = search(conn, "fact", query_embedding=query, mode="semantic", limit=10, bump_references=False)
    cosine = vectors @ (query / np.linalg.norm(query))
    top = np.argpartition(-cosine, 10)[:10]
    top = top[np.argsort(-cosine[top])]
    assert [r["content"] for r in rows] == [f"fact number {i}" for i in top]
    assert [r["score"] for r in rows] == pytest.approx([max(0.0, float(cosine[i])) for i in top], abs=1e-5)


def test_the_semantic_lists_of_tables_of_different_sizes_merge_exactly(
    as_tenant: Tenant, superuser: psycopg.Connection[Any]
) -> None:
    """A table several times smaller than the largest one is searched in a statement of its own, at its own HNSW
    search list (pymem_private.semantic_search_lists), and the lists are ranked again as one by cosine distance:
    the semantic ranks are those of one exact search over both tables, rows of negative cosine (score 0) included."""
    rng = np.random.default_rng(5)
    vectors = rng.normal(size=(40, 384))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    query = vectors[3] + 0.7 * vectors[25]
    with as_tenant("acme") as conn, conn.cursor() as cur:
        register_vector(conn)
        cur.executemany(
            "insert into pymem.facts (subject, predicate, content, embedding, embedding_model)"
            " values (%s, 'p', %s, %s, 'random')",
            [(f"s{i}", f"fact {i}", vectors[i]) for i in range(20)],
        )
        cur.executemany(
            "insert into pymem.rules (content, embedding, embedding_model) values (%s, %s, 'random')",
            [(f"rule {i}", vectors[i]) for i in range(20, 40)],
        )
    with superuser.transaction(force_rollback=True):
        register_vector(superuser)
        # the planner's sizes (of the largest partition, the most a tenant's search reads): facts want a search
        # list of 1000 (the tenant's partition holds 600k rows), rules 200 (every partition 10)
        superuser.execute(
            "update pg_class set reltuples = 600000 where oid = %s::regclass",
            (f"pymem_private.{tenant_partition(superuser, 'pymem.facts', 'acme')}",),
        )
        superuser.execute(
            "update pg_class set reltuples = 10"
            " where oid in (select relid from pg_partition_tree('pymem.rules') where isleaf)"
        )
        lists = superuser.execute(
            "select types, ef_search from pymem_private.semantic_search_lists('{fact,rule}', '{}', 30)"
        ).fetchall()
        superuser.execute("set local role pymem_app")
        superuser.execute("select set_config('pymem.tenant_id', 'acme', true)")
        superuser.execute("set local pymem.exact_search_rows = 0")  # the index path, not the exact one
        rows = superuser.execute(
            "select c_type, c_semantic_rank, c_semantic_score from pymem_private.memory_candidates("
            "'acme', 'unmatched', %s, '{fact,rule}', null, 30, 0.0, null, true, false, false)"
            " where c_semantic_rank is not null order by c_semantic_rank",
            (query,),
        ).fetchall()
    assert lists == [(["fact"], 1000), (["rule"], 200)]
    cosine = vectors @ (query / np.linalg.norm(query))
    order = np.argsort(-cosine)[:30]
    assert cosine[order[-1]] < 0  # the cut reaches rows of negative cosine, whose score is 0
    assert [(r[0], r[1]) for r in rows] == [("fact" if i < 20 else "rule", n) for n, i in enumerate(order, 1)]
    assert [r[2] for r in rows] == pytest.approx([max(0.0, float(cosine[i])) for i in order], abs=1e-5)


def test_only_returned_memories_are_bumped(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        for i in range(8):
            store_fact(conn, f"user{i}", "diet", f"diet note {i}")
    with as_tenant("acme") as conn:
        assert len(search(conn, "diet", mode="keyword", limit=3)) == 3
        assert len(call(conn, "memory_recall", topic="diet", limit=2)) == 2
        assert conn.execute("select sum(reference_count) from pymem.facts").fetchone() == (5,)


def test_read_only_transactions_read_without_bumping(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "diet", "diet vegan")
    with as_tenant("acme") as conn:
        conn.execute("set transaction read only")
        (found,) = search(conn, "diet", mode="keyword")
        (recalled,) = call(conn, "memory_recall", topic="diet")
        (got,) = call(conn, "memory_get", type="fact", id=found["memory_id"])
    assert found["reference_count"] == recalled["reference_count"] == got["reference_count"] == 0
    assert recalled["last_referenced_at"] is None and got["last_referenced_at"] is None


def test_search_as_of_measures_decay_like_recall(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact_id = store_fact(conn, "user", "diet", "diet vegan", observed_at=ago(100))
        call(conn, "memory_confirm", type="fact", id=fact_id)  # confirmed now, after as_of
    with as_tenant("acme") as conn:
        as_of = conn.execute("select now() - interval '10 days'").fetchone()[0]  # type: ignore[index]
        (found,) = search(conn, "diet", mode="keyword", as_of=as_of, min_confidence=0)
        (recalled,) = call(conn, "memory_recall", topic="diet", as_of=as_of, min_confidence=0)
    assert found["memory_id"] == recalled["memory_id"] == fact_id
    assert found["effective_confidence"] == pytest.approx(recalled["effective_confidence"])
    assert found["effective_confidence"] == pytest.approx(2.718281828 ** (-0.008 * 90), rel=1e-4)


def test_as_of_in_the_future_is_rejected_by_search(as_tenant: Tenant) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        conn.execute("select * from pymem.memory_search(query => 'x', as_of => now() + interval '1 day')")
    assert caught.value.sqlstate == "PM002"


def test_keyword_matches_are_index_served_under_rls(as_tenant: Tenant, superuser: psycopg.Connection[Any]) -> None:
    """As pymem_app (row-level security on), the full-text match can be an index condition of the GIN index
    (tenant_id, search_vector): pymem_private.@@@ is @@ declared LEAKPROOF (migration 0007), which the planner may
    evaluate inside the index scan, before the policy's tenant check. Plain @@ can only be a filter tested on
    every row of the tenant. memory_candidates matches with @@@."""
    rows = [
        (f"s{i}", "p", f"note {i} about the garden" if i % 50 == 0 else f"note {i} about the weather")
        for i in range(3000)
    ]
    with as_tenant("acme") as conn, conn.cursor() as cur:
        cur.executemany("insert into pymem.facts (subject, predicate, content) values (%s, %s, %s)", rows)
    superuser.execute("analyze pymem.facts")

    partition = tenant_partition(superuser, "pymem.facts", "acme")

    def plan(conn: psycopg.Connection[Any], operator: str) -> dict[str, Any]:
        # run (the tenant is bound by the policy's InitPlan: its partition is chosen when the plan runs)
        conn.execute("set local enable_seqscan = off")
        query = f"select id from pymem.facts where search_vector operator({operator}) to_tsquery('garden')"
        return explain(conn, query, analyze=True)

    with as_tenant("acme") as conn:
        leakproof = plan(conn, "pymem_private.@@@")
        plain = plan(conn, "pg_catalog.@@")
        found = search(conn, "garden", mode="keyword", limit=100)
    served = served_by_index(superuser, leakproof, partition, "pymem.facts_search_idx")
    assert all("@@@" in s.index_cond for s in served), leakproof
    # what RLS makes of @@: a filter tested on the tenant's rows, not an index condition
    read = [s for s in scans(superuser, plain) if s.relation == partition]
    assert any("search_vector @@" in s.filter for s in read), plain
    assert not any("@@" in s.index_cond for s in read), plain
    assert len(found) == 60 and all("garden" in r["content"] for r in found)


def test_every_search_index_serves_the_leakproof_match(as_tenant: Tenant, superuser: psycopg.Connection[Any]) -> None:
    """The three *_search_idx indexes are built with pymem_private.tsvector_lp_ops, so the keyword leg's @@@ is an
    index condition for episodes, facts and rules alike (migration 0011 had re-created the episodes' index with the
    default operator class: every keyword search of episodes read the tenant's episodes one by one; 0013)."""
    opclasses = dict(
        superuser.execute(
            """select i.indexrelid::regclass::text, o.opcname
                 from pg_index as i join pg_opclass as o on o.oid = i.indclass[1]
                where i.indexrelid in ('pymem.episodes_search_idx'::regclass, 'pymem.facts_search_idx'::regclass,
                                       'pymem.rules_search_idx'::regclass)"""
        ).fetchall()
    )
    assert opclasses == {
        "pymem.episodes_search_idx": "tsvector_lp_ops",
        "pymem.facts_search_idx": "tsvector_lp_ops",
        "pymem.rules_search_idx": "tsvector_lp_ops",
    }
    with as_tenant("acme") as conn, conn.cursor() as cur:
        weather = [f"note {i} about the weather" for i in range(2000)]
        cur.executemany("insert into pymem.episodes (butler, content) values ('home', %s)", [(c,) for c in weather])
        cur.executemany(
            "insert into pymem.facts (subject, predicate, content) values (%s, 'p', %s)",
            [(f"s{i}", c) for i, c in enumerate(weather)],
        )
        cur.executemany("insert into pymem.rules (content) values (%s)", [(c,) for c in weather])
    for table in ("episodes", "facts", "rules"):
        superuser.execute(f"analyze pymem.{table}")
    with as_tenant("acme") as conn:
        conn.execute("set local enable_seqscan = off")
        for table in ("episodes", "facts", "rules"):
            plan = explain(
                conn,
                f"select id from pymem.{table} where search_vector operator(pymem_private.@@@) to_tsquery('garden')",
                analyze=True,  # run: the tenant's partition is chosen then (the policy's InitPlan binds it)
            )
            partition = tenant_partition(superuser, f"pymem.{table}", "acme")
            served = served_by_index(superuser, plan, partition, f"pymem.{table}_search_idx")
            assert all("@@@" in s.index_cond for s in served), plan


def test_a_fact_decayed_for_decades_is_filtered_not_an_underflow(as_tenant: Tenant, embedder: Embedder) -> None:
    """exp(-decay_rate * days) underflows a double below about -745: a volatile fact unconfirmed for 30 years is
    simply fully decayed, in every mode and in recall, and below any confidence floor."""
    with as_tenant("acme") as conn:
        old = store_fact(
            conn,
            "user",
            "mood",
            "The user felt sleepy on a Tuesday",
            embedder,
            permanence="ephemeral",
            observed_at=ago(30 * 365.25),
        )
    with as_tenant("acme") as conn:
        for mode in ("hybrid", "semantic", "keyword", "weighted"):
            assert old not in {r["memory_id"] for r in search(conn, "sleepy Tuesday", embedder, mode=mode)}, mode
        assert search(conn, "sleepy Tuesday", embedder, mode="keyword", min_confidence=0)  # found with no floor
        call(conn, "memory_recall", topic="sleepy Tuesday", query_embedding=embedder.embed("sleepy Tuesday"))
