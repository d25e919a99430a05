"""Issue 17, "bad input": property-based tests (hypothesis) that every SQL function of the memory API and every
MCP tool either does what it is asked or fails with a clear validation error, and that a failed call changes
nothing.

The inputs are drawn from what a careless or hostile caller sends: empty, blank and huge texts (at each limit of
pymem.limits and one past it), NUL characters and lone surrogates, emoji, CJK and other scripts (which must be
accepted and read back exactly), SQL-looking text, NaN, infinite, negative and huge numbers, unknown enumeration
values, malformed and unknown ids, embeddings of the wrong dimension or with values pgvector cannot compute a
cosine of, and deeply nested or enormous metadata.

The property, at the SQL level (as pymem_app, one tenant transaction per example, with explicit casts as the
typed client sends them): the call succeeds (a store then reads back identical through memory_get, a read
returns finite scores), or it raises a project SQLSTATE (PM002, PM003, PM007) or an error that
pymem.errors.translate maps to InvalidArgumentError; never an internal error, a syntax error or an unmapped
one. A lone surrogate cannot be encoded to UTF-8 at all: psycopg raises UnicodeEncodeError before anything is
sent. At the MCP level (a real in-process client session): a tool error whose text names the argument or the
problem, never a traceback or "a database error". (The SDK's client sends NaN and infinities as JSON null: a
required number is then refused by name, an optional one taken as left out.) In every case the row counts of the
memory tables, all tenants (as the superuser), are the same after a failed call as before it; the one write a failure
keeps on purpose is the audit row of a store refused as speculation (grounded ingestion, PM007).
"""

from __future__ import annotations

import inspect
import math
import re
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import anyio.from_thread
import numpy as np
import psycopg
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from mcp import Client
from psycopg import sql
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from pymem import limits, mcp_server
from pymem.embeddings import Embedder
from pymem.errors import InvalidArgumentError, translate
from tests.conftest import Tenant
from tests.mcpclient import stdio_like_server
from tests.sqlapi import store_episode, store_fact, store_rule

PROPERTY = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)

MEMORY_TABLES = ("facts", "rules", "episodes", "memory_links", "memory_events")
STORED_IN = {"memory_store_fact": "facts", "memory_store_rule": "rules", "memory_store_episode": "episodes"}
# what a failed call may still raise at the SQL level: invalid argument, not found, refused as speculation
CLEAR_SQLSTATES = {"PM002", "PM003", "PM007"}
Typed = dict[str, tuple[str, Any]]  # the arguments of an SQL call: name -> (SQL type, value)


# The inputs

SQL_LOOKING = [
    "'; drop table pymem.facts; --",
    "$$",
    "$$; select pg_sleep(10); $$",
    "\\",
    "\\'; select 1; --",
    "' or '1'='1",
    "); delete from pymem.rules; --",
    "%s %(content)s {0} {}",
    "E'\\x00' U&'\\0000'",
    "& | ! <-> :* ( ) !!",
]
UNICODE = [
    "🧠 remembers 💾 everything 🔥",
    "記憶は大切です",
    "用户喜欢喝绿茶",
    "사용자는 차를 좋아한다",
    "e\u0301 n\u0303 a\u030a",  # combining marks
    "👨\u200d👩\u200d👧\u200d👦 family",
    "שלום עולם",
    "مرحبا بالعالم",
    "\u202ereversed\u202c text",
    "zero\u200bwidth\ufeffjoiner",
    "\U0001d518\U0001d52b\U0001d526\U0001d520\U0001d52c\U0001d521\U0001d522 (Fraktur letters)",
    "Ω≈ç√∫\u02dcµ≤≥÷",
    "\U0010fffd plane 16 and \uffff",
    "tab\tnew\nline\rreturn",
]
BROKEN = ["\x00", "a\x00b", "\ud800", "x\udfff", "\udc00\ud800 reversed pair"]
BLANK = ["", " ", "    "]

# text the database accepts: no NUL, no lone surrogate, not blank (PostgreSQL's btrim strips spaces only)
valid_text = st.one_of(
    st.sampled_from(UNICODE + SQL_LOOKING),
    st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), min_size=1, max_size=80),
).filter(lambda s: s.strip(" ") != "")


def hostile_text(limit: int) -> st.SearchStrategy[str]:
    """Any text a caller might send an argument of at most limit characters, valid or not."""
    return st.one_of(
        st.sampled_from(SQL_LOOKING + UNICODE + BROKEN + BLANK),
        st.text(max_size=40),
        st.tuples(st.sampled_from(["x", "記", "🧠"]), st.sampled_from([limit, limit + 1])).map(lambda t: t[0] * t[1]),
    )


finite_or_not = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e308, -1e308, 5e-324, 10.000001, -1.0]),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-20, max_value=20),
)
an_int = st.one_of(
    st.sampled_from([0, -1, 1, 1000, 1001, 2**31 - 1, 2**31, -(2**31) - 1, 2**63, 10**30]),
    st.integers(min_value=-5, max_value=1500),
)
permanence = st.sampled_from(["permanent", "stable", "standard", "volatile", "ephemeral", "forever", "", "STANDARD"])
source = st.sampled_from(["user_statement", "observation", "agent_inference", "import", "god", "", "Import"])
mode = st.sampled_from(["hybrid", "semantic", "keyword", "weighted", "fuzzy", "", "HYBRID"])
memory_type = st.sampled_from(["fact", "rule", "episode", "facts", "", "Fact", "memory"])
tags = st.one_of(
    st.lists(hostile_text(limits.TAG), max_size=4),
    st.sampled_from([limits.TAGS, limits.TAGS + 1]).map(lambda n: [f"t{i}" for i in range(n)]),
)


def nested_json(depth: int) -> str:
    return '{"a": ' * (depth - 1) + "{}" + "}" * (depth - 1)


metadata = st.one_of(
    st.dictionaries(st.text(max_size=8), st.one_of(st.integers(), st.text(max_size=20), st.booleans()), max_size=3).map(
        Jsonb
    ),
    st.sampled_from([limits.METADATA_DEPTH, limits.METADATA_DEPTH + 1, 5000]).map(nested_json),
    st.sampled_from([limits.METADATA_BYTES, limits.METADATA_BYTES + 1]).map(lambda n: Jsonb({"k": "a" * (n - 9)})),
    st.sampled_from(
        [
            '{"a": "\\u0000"}',  # NUL inside a JSON string
            '{"a": "\\ud800"}',  # a lone surrogate escaped
            '{"a": NaN}',
            '{"a": 1e999999}',
            "[1, 2]",
            '"text"',
            "null",
            "not json",
            '{"source_date": "2024-02-30"}',
            '{"source_date": "2024-02-29"}',
            '{"🧠": "記憶", "$$": "\'; drop table pymem.facts; --"}',
        ]
    ),
)


def a_uuid(seed: int) -> str:
    return str(uuid.UUID(int=seed))


# a malformed, unknown or real id: "<fact>" and "<fact:8>" stand for a real fact's id and its short form
an_id = st.one_of(
    st.sampled_from(["<fact>", "<rule>", "<episode>", "<fact:8>", "<rule:8>", "<episode:8>"]),
    st.integers(min_value=0, max_value=2**128 - 1).map(a_uuid),
    st.sampled_from(
        [
            "",
            "not-a-uuid",
            "0000",
            "0000000g-0000-0000-0000-000000000000",
            "'; drop table pymem.facts; --",
            "\x00" * 8,
            "{12345678-1234-1234-1234-123456789abc}",
            "12345678-1234-1234-1234-123456789abc" + "0" * 40,
            "ffffffff",
            "記憶記憶記憶記憶",
            "\ud800" * 8,
        ]
    ),
)


# Checking the outcome


def counts(superuser: psycopg.Connection[Any]) -> dict[str, int]:
    """Rows of every memory table, every tenant (the superuser bypasses row-level security)."""
    selects = sql.SQL(", ").join(
        sql.SQL("(select count(*) from pymem.{}) as {}").format(sql.Identifier(t), sql.Identifier(t))
        for t in MEMORY_TABLES
    )
    with superuser.cursor(row_factory=dict_row) as cur:
        row = cur.execute(sql.SQL("select {}").format(selects)).fetchone()
    assert row is not None
    return dict(row)


def has_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, list | tuple):
        return any(has_surrogate(v) for v in value)
    return False


def assert_clear_sql_error(exc: BaseException, arguments: Typed) -> None:
    """A failure a caller can act on: a PM code, or an error pymem maps to InvalidArgumentError."""
    if isinstance(exc, UnicodeEncodeError):  # psycopg cannot send a lone surrogate: nothing reached the server
        assert any(has_surrogate(value) for _, value in arguments.values()), exc
        return
    assert isinstance(exc, psycopg.Error), f"{type(exc).__name__}: {exc}"
    if exc.sqlstate is not None and exc.sqlstate.startswith("PM"):
        assert exc.sqlstate in CLEAR_SQLSTATES, f"{exc.sqlstate}: {exc}"
        return
    mapped = translate(exc)
    assert isinstance(mapped, InvalidArgumentError), f"unmapped {exc.sqlstate} ({type(exc).__name__}): {exc}"


def call_sql(conn: psycopg.Connection[Any], function: str, arguments: Typed) -> list[dict[str, Any]]:
    """select * from pymem.<function>(name => value::type, ...), as pymem.client sends a call."""
    named = sql.SQL(", ").join(
        sql.SQL("{} => {}::{}").format(sql.Identifier(name), sql.Placeholder(name), sql.SQL(sql_type))
        for name, (sql_type, _) in arguments.items()
    )
    query = sql.SQL("select * from pymem.{}({})").format(sql.Identifier(function), named)
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(query, {name: value for name, (_, value) in arguments.items()}).fetchall()


def attempt(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], function: str, arguments: Typed
) -> list[dict[str, Any]] | None:
    """The call in its own tenant transaction: its rows, or None when it failed clearly and changed nothing."""
    before = counts(superuser)
    try:
        with as_tenant("acme") as conn:
            rows = call_sql(conn, function, arguments)
    except Exception as exc:  # every failure is checked to be one of the clear ones
        assert_clear_sql_error(exc, arguments)
        event(f"{function}: {getattr(exc, 'sqlstate', None) or type(exc).__name__}")  # --hypothesis-show-statistics
    else:
        event(f"{function}: ok")
        return rows
    assert counts(superuser) == before, f"{function} failed and changed the database"
    return None


def get_record(as_tenant: Tenant, memory_type: str, memory_id: Any) -> dict[str, Any]:
    with as_tenant("acme") as conn:
        rows = call_sql(conn, "memory_get", {"type": ("text", memory_type), "id": ("uuid", memory_id)})
    assert len(rows) == 1
    return rows[0]


def real(ids: dict[str, str], value: str) -> str:
    """A drawn id with its placeholder ("<fact>", "<fact:8>") replaced by the real memory's id."""
    match = re.fullmatch(r"<(\w+)(?::(\d+))?>", value)
    if match is None:
        return value
    full = ids[match.group(1)]
    return full[: int(match.group(2))] if match.group(2) else full


# Fixtures


@pytest.fixture
def vector(embedder: Embedder) -> np.ndarray:
    """A real MiniLM vector (the stores' embedding is an argument: one is enough)."""
    return embedder.embed("the user likes green tea")


@pytest.fixture
def ids(as_tenant: Tenant, embedder: Embedder) -> dict[str, str]:
    """A fact, a rule and an episode of tenant acme, for the calls that take an id."""
    with as_tenant("acme") as conn:
        return {
            "fact": str(store_fact(conn, "user", "drink", "The user likes green tea", embedder)),
            "rule": str(store_rule(conn, "Always offer the user tea", embedder)),
            "episode": str(store_episode(conn, "The user asked for tea", "general", embedder)),
        }


# Part 1: the SQL functions


def store_arguments(function: str, text: st.SearchStrategy[str]) -> st.SearchStrategy[Typed]:
    """The arguments of a store function: every one drawn, each optional one sometimes left out."""

    def typed(sql_type: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[str, Any]]:
        return values.map(lambda v: (sql_type, v))

    required = {"content": typed("text", text)}
    optional: dict[str, st.SearchStrategy[tuple[str, Any]]] = {
        "metadata": typed("jsonb", metadata),
        "token_count": typed("bigint", an_int),
    }
    if function == "memory_store_episode":
        required["butler"] = typed("text", hostile_text(limits.BUTLER))
        optional["importance"] = typed("double precision", finite_or_not)
        optional["session_id"] = typed("text", st.sampled_from(["not-a-uuid", "", a_uuid(7)]))
        optional["ttl"] = typed("text", st.sampled_from(["1 hour", "-1 day", "0", "1000000000 years", "infinity"]))
    else:
        optional["scope"] = typed("text", hostile_text(limits.SCOPE))
        optional["tags"] = typed("text[]", tags)
        optional["permanence"] = typed("text", permanence)
        optional["source"] = typed("text", source)
        optional["citation"] = typed("text", hostile_text(limits.CITATION))
        optional["source_episode_id"] = typed("text", st.sampled_from(["not-a-uuid", a_uuid(9)]))
    if function == "memory_store_fact":
        required["subject"] = typed("text", hostile_text(limits.SUBJECT))
        required["predicate"] = typed("text", hostile_text(limits.PREDICATE))
        optional["importance"] = typed("double precision", finite_or_not)
        optional["confidence"] = typed("double precision", finite_or_not)
    return st.fixed_dictionaries(required, optional=optional)


def cast_ttl_and_ids(arguments: Typed) -> Typed:
    """ttl is an interval, the ids uuids, token_count an integer: the casts a caller's text goes through."""
    types = {"ttl": "interval", "session_id": "uuid", "source_episode_id": "uuid", "token_count": "integer"}
    return {name: (types.get(name, sql_type), value) for name, (sql_type, value) in arguments.items()}


store_call = st.sampled_from(sorted(STORED_IN)).flatmap(
    lambda function: st.tuples(st.just(function), store_arguments(function, hostile_text(limits.CONTENT)))
)


@PROPERTY
@given(call=store_call)
def test_a_store_either_reads_back_exactly_or_fails_clearly_and_writes_nothing(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], call: tuple[str, Typed]
) -> None:
    function, drawn = call
    arguments = cast_ttl_and_ids(drawn)
    before = counts(superuser)
    rows = attempt(as_tenant, superuser, function, arguments)
    if rows is None:
        return
    after = counts(superuser)
    table = STORED_IN[function]
    assert after[table] == before[table] + 1, (function, before, after)
    assert all(after[t] == before[t] for t in ("facts", "rules", "episodes") if t != table)
    memory_type = rows[0]["memory_type"]
    record = get_record(as_tenant, memory_type, rows[0]["memory_id"])
    assert record["content"] == arguments["content"][1]
    for column in ("subject", "predicate", "butler", "scope", "citation"):
        if column in arguments:
            assert record["record"][column] == arguments[column][1], column
    if "tags" in arguments:
        assert sorted(record["record"]["tags"]) == sorted(set(arguments["tags"][1]))


@PROPERTY
@given(
    function=st.sampled_from(sorted(STORED_IN)),
    content=valid_text,
    subject=valid_text,
    tag=valid_text.filter(lambda s: len(s) <= limits.TAG),
)
def test_unicode_and_sql_looking_text_is_accepted_and_reads_back_identical(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], function: str, content: str, subject: str, tag: str
) -> None:
    """Emoji, CJK, combining marks, right-to-left text and text that looks like SQL are stored as they are. (A fact
    or rule is a user's statement in quotes, so that grounded ingestion does not take it for speculation.)"""
    stored = f"The user wrote «{content}»." if function != "memory_store_episode" else content
    arguments: Typed = {"content": ("text", stored)}
    if function == "memory_store_episode":
        arguments["butler"] = ("text", "general")
    else:
        arguments |= {"tags": ("text[]", [tag]), "metadata": ("jsonb", Jsonb({subject: content}))}
    if function == "memory_store_fact":
        arguments |= {"subject": ("text", subject), "predicate": ("text", content[: limits.PREDICATE])}
    with as_tenant("acme") as conn:
        (row,) = call_sql(conn, function, arguments)
    record = get_record(as_tenant, row["memory_type"], row["memory_id"])
    assert record["content"] == stored
    if function != "memory_store_episode":
        assert record["record"]["tags"] == [tag] and record["record"]["metadata"] == {subject: content}
    if function == "memory_store_fact":
        assert (record["record"]["subject"], record["record"]["predicate"]) == (subject, content[: limits.PREDICATE])


def read_arguments(function: str) -> st.SearchStrategy[Typed]:
    def typed(sql_type: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[str, Any]]:
        return values.map(lambda v: (sql_type, v))

    weight = typed("double precision", finite_or_not)
    as_of = typed(
        "timestamptz", st.sampled_from(["-infinity", "infinity", "0001-01-01 BC", "2000-01-01", "294276-12-31"])
    )
    if function == "memory_context_candidates":
        required = {
            "trigger_prompt": typed("text", hostile_text(limits.TRIGGER_PROMPT)),
            "butler": typed("text", hostile_text(limits.BUTLER)),
        }
        optional = {
            "scope": typed("text", hostile_text(limits.SCOPE)),
            "system_limit": typed("bigint", an_int),
            "knowledge_limit": typed("bigint", an_int),
            "w_relevance": weight,
            "w_recency": weight,
            "recency_half_life_days": weight,
            "min_relevance": weight,
        }
        return st.fixed_dictionaries(required, optional=optional)
    text = "query" if function == "memory_search" else "topic"
    limit = limits.QUERY if function == "memory_search" else limits.TOPIC
    required = {text: typed("text", hostile_text(limit))}
    optional = {
        "scope": typed("text", hostile_text(limits.SCOPE)),
        "limit": typed("bigint", an_int),
        "mode": typed("text", mode),
        "min_confidence": weight,
        "min_relevance": weight,
        "as_of": as_of,
    }
    if function == "memory_search":
        optional |= {
            "types": typed("text[]", st.lists(memory_type, max_size=3)),
            "vector_weight": weight,
            "keyword_weight": weight,
            "rrf_k": typed("bigint", an_int),
            "date_half_life_days": weight,
            "min_score": weight,
            "graph_rrf_weight": weight,
            "rerank": typed("boolean", st.booleans()),
        }
    else:
        optional |= {"w_importance": weight, "candidates": typed("bigint", an_int), "recency_half_life_days": weight}
    return st.fixed_dictionaries(required, optional=optional)


read_call = st.sampled_from(["memory_search", "memory_recall", "memory_context_candidates"]).flatmap(
    lambda function: st.tuples(st.just(function), read_arguments(function))
)
INTEGER_ARGUMENTS = {"limit", "rrf_k", "candidates", "system_limit", "knowledge_limit"}


@PROPERTY
@given(call=read_call, embedded=st.booleans())
def test_a_read_either_returns_finite_scores_or_fails_clearly_and_changes_nothing(
    as_tenant: Tenant,
    superuser: psycopg.Connection[Any],
    ids: dict[str, str],
    vector: np.ndarray,
    call: tuple[str, Typed],
    embedded: bool,
) -> None:
    function, drawn = call
    # integers as the typed client casts them (a Python int past int4 is then "integer out of range")
    arguments = {name: ("integer" if name in INTEGER_ARGUMENTS else t, v) for name, (t, v) in drawn.items()}
    if embedded:
        arguments["query_embedding"] = ("public.vector", vector)
    rows = attempt(as_tenant, superuser, function, arguments)
    for row in rows or []:
        for column, value in row.items():
            if isinstance(value, float):
                assert math.isfinite(value), (function, column, row)
        if row.get("relevance") is not None:
            assert 0 <= row["relevance"] <= 1, row


# each function taking an id: (type, id, reason) -> its arguments
ID_FUNCTIONS: dict[str, Callable[[str, str, str], Typed]] = {
    "memory_get": lambda t, i, _: {"type": ("text", t), "id": ("uuid", i)},
    "memory_forget": lambda t, i, r: {"type": ("text", t), "id": ("uuid", i), "reason": ("text", r)},
    "memory_confirm": lambda t, i, _: {"type": ("text", t), "id": ("uuid", i)},
    "memory_mark_helpful": lambda _, i, __: {"rule_id": ("uuid", i)},
    "memory_mark_harmful": lambda _, i, r: {"rule_id": ("uuid", i), "reason": ("text", r)},
    "memory_resolve_id": lambda t, i, _: {"type": ("text", t), "ref": ("text", i)},
    "memory_erase": lambda t, i, r: {"type": ("text", t), "id": ("uuid", i), "reason": ("text", r)},
}


@PROPERTY
@given(function=st.sampled_from(sorted(ID_FUNCTIONS)), kind=memory_type, ref=an_id, reason=hostile_text(limits.REASON))
def test_a_call_by_id_either_acts_on_that_memory_or_fails_clearly_and_changes_nothing(
    as_tenant: Tenant,
    superuser: psycopg.Connection[Any],
    ids: dict[str, str],
    function: str,
    kind: str,
    ref: str,
    reason: str,
) -> None:
    """Malformed ids, unknown ids, short ids, real ids of another type, unknown types, and the reasons of
    memory_forget, memory_mark_harmful and memory_erase drawn too. A call that succeeds acted on a real memory."""
    arguments = ID_FUNCTIONS[function](kind, real(ids, ref), reason)
    rows = attempt(as_tenant, superuser, function, arguments)
    if rows is not None and function != "memory_resolve_id":
        assert all(str(row["memory_id"]) in ids.values() for row in rows), rows


def vectors(good: np.ndarray) -> st.SearchStrategy[Any]:
    """Embeddings of the wrong dimension, the zero vector, vectors scaled until pgvector's single-precision cosine
    overflows or underflows (its distance is NaN then), and good ones."""
    return st.one_of(
        st.sampled_from([383, 385, 1, 768]).map(lambda n: np.resize(good, n).astype(np.float32)),
        st.sampled_from([0.0, 1e-25, 1e-3, 1.0, 7.5, 1e15, 1e20, 3e38]).map(lambda s: (good * s).astype(np.float32)),
        st.integers(min_value=0, max_value=383).map(lambda i: np.where(np.arange(384) == i, 1e20, good)),
    )


@PROPERTY
@given(data=st.data())
def test_an_embedding_pgvector_cannot_rank_by_is_refused_by_name_and_stores_nothing(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], vector: np.ndarray, data: st.DataObject
) -> None:
    """A 383- or 385-dimensional, zero, or out-of-range embedding is PM002 naming the argument, for the stores and
    for the reads' query_embedding; an accepted one ranks with finite scores."""
    embedding = data.draw(vectors(vector), label="embedding")
    function = data.draw(st.sampled_from([*sorted(STORED_IN), "memory_search", "memory_recall"]), label="function")
    arguments: Typed
    if function in STORED_IN:
        argument = "embedding"
        arguments = {"content": ("text", "The user likes green tea"), "embedding_model": ("text", "m")}
        arguments |= {"subject": ("text", "user"), "predicate": ("text", "drink")} if function.endswith("fact") else {}
        arguments |= {"butler": ("text", "general")} if function.endswith("episode") else {}
    else:
        argument = "query_embedding"
        arguments = {"query" if function == "memory_search" else "topic": ("text", "tea")}
    arguments[argument] = ("public.vector", embedding.astype(np.float32))
    before = counts(superuser)
    try:
        with as_tenant("acme") as conn:
            rows = call_sql(conn, function, arguments)
    except psycopg.Error as exc:
        assert exc.sqlstate == "PM002" and str(exc).startswith(argument), str(exc)
        assert counts(superuser) == before
        return
    assert embedding.size == 384 and np.linalg.norm(embedding) > 0
    if function in STORED_IN:  # a stored embedding is ranked by every later search
        search = {"query": ("text", "tea"), "mode": ("text", "semantic"), "query_embedding": ("public.vector", vector)}
        with as_tenant("acme") as conn:
            rows = call_sql(conn, "memory_search", search | {"min_relevance": ("double precision", 0.0)})
    for row in rows:
        assert all(math.isfinite(v) for v in row.values() if isinstance(v, float)), row


@settings(PROPERTY, max_examples=10)
@given(
    embedding=st.sampled_from(
        [[math.nan] * 384, [math.inf] * 384, [1.0] * 383 + [-math.inf], [], [1.0] * 16_001],
    ),
)
def test_an_embedding_pgvector_cannot_read_is_an_invalid_argument(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], embedding: list[float]
) -> None:
    """NaN, infinite, empty or too many dimensions: pgvector refuses the value before any pymem function runs."""
    arguments = {"query": ("text", "tea"), "query_embedding": ("public.vector", np.array(embedding, np.float32))}
    assert attempt(as_tenant, superuser, "memory_search", arguments) is None


# Part 2: the MCP tools


@pytest.fixture
def mcp_call(
    app_pool: ConnectionPool, embedder: Embedder, tmp_path: Any
) -> Iterator[Callable[[str, dict[str, Any]], tuple[bool, Any]]]:
    """One real MCP client session for all the examples of a test (an event loop in a thread: the test is sync):
    call(tool, arguments) -> (is_error, the structured content or the error text)."""
    server = stdio_like_server(app_pool, embedder, "acme", tmp_path / "butlers")
    with (
        anyio.from_thread.start_blocking_portal() as portal,
        portal.wrap_async_context_manager(Client(server)) as client,
    ):

        def call(tool: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
            result = portal.call(client.call_tool, tool, arguments)
            if result.is_error:
                return True, " ".join(getattr(part, "text", "") for part in result.content)
            return False, result.structured_content

        yield call


@pytest.fixture
def mcp_ids(mcp_call: Callable[[str, dict[str, Any]], tuple[bool, Any]]) -> dict[str, str]:
    stored = {
        "fact": ("memory_store_fact", {"subject": "user", "predicate": "drink", "content": "The user likes tea"}),
        "rule": ("memory_store_rule", {"content": "Always offer the user tea"}),
        "episode": ("memory_store_episode", {"content": "The user asked for tea", "butler": "general"}),
    }
    ids = {}
    for kind, (tool, arguments) in stored.items():
        failed, result = mcp_call(tool, arguments)
        assert not failed, result
        ids[kind] = str(result["memory_id"])
    return ids


def tool_arguments() -> dict[str, st.SearchStrategy[dict[str, Any]]]:
    """Each tool's arguments: its required ones always, its optional ones sometimes, all drawn hostile."""
    text = hostile_text
    scope = text(limits.SCOPE)
    number = finite_or_not
    by_id = {"type": memory_type, "id": an_id}
    source_and_citation = {"tags": tags, "source": source, "citation": text(limits.CITATION), "scope": scope}
    return {
        "memory_store_episode": st.fixed_dictionaries(
            {"content": text(limits.CONTENT), "butler": text(limits.BUTLER)},
            optional={"session_id": an_id, "importance": number},
        ),
        "memory_store_fact": st.fixed_dictionaries(
            {"subject": text(limits.SUBJECT), "predicate": text(limits.PREDICATE), "content": text(limits.CONTENT)},
            optional={"importance": number, "permanence": permanence, **source_and_citation},
        ),
        "memory_store_rule": st.fixed_dictionaries({"content": text(limits.CONTENT)}, optional=source_and_citation),
        "memory_search": st.fixed_dictionaries(
            {"query": text(limits.QUERY)},
            optional={
                "types": st.lists(memory_type, max_size=3),
                "scope": scope,
                "mode": mode,
                "limit": an_int,
                "min_confidence": number,
                "min_relevance": number,
                "rerank": st.booleans(),
            },
        ),
        "memory_recall": st.fixed_dictionaries(
            {"topic": text(limits.TOPIC)}, optional={"scope": scope, "limit": an_int, "min_relevance": number}
        ),
        "memory_get": st.fixed_dictionaries(by_id),
        "memory_forget": st.fixed_dictionaries(by_id),
        "memory_confirm": st.fixed_dictionaries(by_id),
        "memory_mark_helpful": st.fixed_dictionaries({"rule_id": an_id}),
        "memory_mark_harmful": st.fixed_dictionaries({"rule_id": an_id}, optional={"reason": text(limits.REASON)}),
        "memory_context": st.fixed_dictionaries(
            {"trigger_prompt": text(limits.TRIGGER_PROMPT), "butler": text(limits.BUTLER)},
            optional={"token_budget": an_int, "as_tenant": st.sampled_from(["globex", "", "\x00"])},
        ),
    }


tool_call = st.sampled_from(sorted(tool_arguments().items())).flatmap(lambda item: st.tuples(st.just(item[0]), item[1]))
DECLARED = {
    fn.__name__: set(inspect.signature(fn).parameters) - {"caller", "ctx", "sampled"} for fn, _ in mcp_server.TOOLS
}
# what a tool error may be about without naming its argument: the memory asked for (not found, or an id that is
# no id: memory_resolve_id says "invalid id" for id and rule_id alike), or grounded ingestion's refusal
NAMED_PROBLEMS = ("not found", "refused", "invalid id")


def assert_clear_tool_error(tool: str, arguments: dict[str, Any], text: str) -> None:
    assert "Traceback" not in text and "database error" not in text, text
    assert "internal error" not in text.lower() and "syntax error" not in text.lower(), text
    body = text.removeprefix(f"Error executing tool {tool}:").strip()
    assert body, f"{tool} failed without saying why: {text!r}"
    # an argument of the tool (one it was given, or one to give: "token_budget 3000 is too small ... use at least")
    named = [name for name in DECLARED[tool] if re.search(rf"(^|\W){re.escape(name)}(\W|$)", body)]
    # or the memory it is about, by its id ("rule 1c18... is forgotten and takes no feedback")
    named += [
        name
        for name in ("id", "rule_id")
        if name in arguments and len(arguments[name]) >= 8 and arguments[name] in body
    ]
    assert named or any(problem in body for problem in NAMED_PROBLEMS), f"{tool} {sorted(arguments)}: {body}"


@settings(PROPERTY, max_examples=150)
@given(call=tool_call)
def test_every_tool_answers_bad_input_with_a_named_error_and_changes_nothing(
    mcp_call: Callable[[str, dict[str, Any]], tuple[bool, Any]],
    mcp_ids: dict[str, str],
    superuser: psycopg.Connection[Any],
    call: tuple[str, dict[str, Any]],
) -> None:
    tool, drawn = call
    arguments = {
        name: real(mcp_ids, value) if name in ("id", "rule_id", "session_id") else value
        for name, value in drawn.items()
    }
    before = counts(superuser)
    failed, result = mcp_call(tool, arguments)
    after = counts(superuser)
    event(f"{tool}: {'error' if failed else 'ok'}")
    if failed:
        assert_clear_tool_error(tool, arguments, result)
        if "refused" in result and tool in ("memory_store_fact", "memory_store_rule"):  # its audit row, on purpose
            before["memory_events"] += 1
        assert after == before, f"{tool} failed ({result}) and changed the database"
        return
    if tool in STORED_IN:
        assert after[STORED_IN[tool]] == before[STORED_IN[tool]] + 1
        failed, record = mcp_call("memory_get", {"type": result["memory_type"], "id": str(result["memory_id"])})
        assert not failed and record["content"] == arguments["content"], record


@settings(PROPERTY, max_examples=25)
@given(tool=st.sampled_from(sorted(STORED_IN)), content=valid_text, short_id=st.booleans())
def test_unicode_stored_through_mcp_reads_back_identical_through_memory_get(
    mcp_call: Callable[[str, dict[str, Any]], tuple[bool, Any]], tool: str, content: str, short_id: bool
) -> None:
    stored = f"The user wrote «{content}»." if tool != "memory_store_episode" else content
    arguments: dict[str, Any] = {"content": stored}
    arguments |= {"butler": "general"} if tool == "memory_store_episode" else {}
    arguments |= {"subject": content[: limits.SUBJECT], "predicate": "wrote"} if tool == "memory_store_fact" else {}
    failed, result = mcp_call(tool, arguments)
    assert not failed, result
    memory_id = str(result["memory_id"])
    failed, record = mcp_call(
        "memory_get", {"type": result["memory_type"], "id": memory_id[:8] if short_id else memory_id}
    )
    assert not failed, record
    assert record["content"] == stored
    if tool == "memory_store_fact":
        assert record["record"]["subject"] == content[: limits.SUBJECT]
