"""One rule, one place: each decay formula is written once, in an inlinable SQL helper.

- The confidence decay, confidence * exp(-decay_rate * days), is pymem_private.decayed_confidence; the half-life
  decay, exp(-ln 2 * days / half_life_days), is pymem_private.half_life_decay (sql/functions/100-scoring.sql).
  Every file under sql/ is scanned: a decay expression anywhere else fails (before, four copies of the confidence
  decay stood in the search filters, and an underflow had been fixed in one of them only).
- The helpers are inlined: the planner puts their expression in place of the call (EXPLAIN VERBOSE shows exp(),
  not the function), so the filters of search pay no function call per row; so are the set-returning pieces of
  search (pymem_private.searchable_*, semantic_candidates, keyword_candidates, linked_memories).
- Extreme ages neither underflow nor raise, in the helpers and through search.
- A function that calls set_config is VOLATILE (memory_candidates was STABLE).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.conftest import Tenant
from tests.sqlapi import call, store_fact

SQL_ROOT = Path(__file__).resolve().parent.parent / "sql"

# the one place of each formula: function name -> how many decay expressions its body holds
HELPERS = {"pymem_private.decayed_confidence": 1, "pymem_private.half_life_decay": 1}

# what makes an exponential (or a power of one half) a decay rather than, say, the logistic of relevance
DECAY_MARKERS = re.compile(r"ln\s*\(\s*2|0\.69314|0\.693\b|decay_rate|half_life|86400|'epoch'", re.IGNORECASE)
EXPONENTIAL = re.compile(r"\b(?:exp|power|pow)\s*\(", re.IGNORECASE)
FUNCTION = re.compile(r"create\s+(?:or\s+replace\s+)?function\s+([\w.\"]+)\s*\(", re.IGNORECASE)
# COMMENT ON ... IS <dollar-quoted or quoted text>; documentation that states a formula is not a copy of it
COMMENT_ON = re.compile(r"comment\s+on\s+.*?\s+is\s+(?:(\$\w*\$).*?\1|'(?:[^']|'')*')\s*;", re.IGNORECASE | re.DOTALL)
LINE_COMMENT = re.compile(r"--[^\n]*")


def code_of(text: str) -> str:
    """The SQL without its comments: COMMENT ON statements and -- comments become blanks (offsets kept)."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))  # noqa: E731
    return LINE_COMMENT.sub(blank, COMMENT_ON.sub(blank, text))


def argument_of(code: str, open_paren: int) -> str:
    """The text between the parenthesis at open_paren and its match."""
    depth = 0
    for i in range(open_paren, len(code)):
        if code[i] == "(":
            depth += 1
        elif code[i] == ")":
            depth -= 1
            if depth == 0:
                return code[open_paren + 1 : i]
    return code[open_paren + 1 :]


def decay_expressions(text: str) -> list[tuple[str | None, int, str]]:
    """(the function whose definition holds it, line, text) of every decay expression in a SQL text."""
    code = code_of(text)
    found = []
    for match in EXPONENTIAL.finditer(code):
        argument = argument_of(code, match.end() - 1)
        if not DECAY_MARKERS.search(argument):
            continue
        definitions = list(FUNCTION.finditer(code, 0, match.start()))
        owner = definitions[-1].group(1).replace('"', "").lower() if definitions else None
        line = code.count("\n", 0, match.start()) + 1
        found.append((owner, line, " ".join((match.group(0) + argument + ")").split())[:120]))
    return found


def test_the_scanner_finds_a_written_out_decay_and_ignores_documentation() -> None:
    copy = """
        create or replace function pymem_private.anything(p double precision) returns boolean language sql
        return f.confidence * pg_catalog.exp(greatest(
            -700.0, -f.decay_rate * greatest(0.0, pg_catalog.date_part('epoch', v_at - f.last_confirmed_at) / 86400.0)
        )) >= p;
        create function pymem.recency2(age double precision, half_life double precision) returns double precision
        return EXP(-ln(2) * age / half_life);
        create function pymem.recency3(age double precision) returns double precision
        return power(0.5, age / half_life_days);
        -- exp(-ln 2 * age / half_life) in a comment
        comment on function pymem.recency2(double precision, double precision) is
        $$exp(-ln 2 * age / half_life)$$;
        create function pymem.logistic(x double precision) returns double precision return 1 / (1 + exp(-x));
    """
    found = decay_expressions(copy)
    assert [owner for owner, _, _ in found] == ["pymem_private.anything", "pymem.recency2", "pymem.recency3"]


def test_each_decay_formula_is_written_once_in_its_helper() -> None:
    files = sorted(SQL_ROOT.rglob("*.sql"))
    assert len(files) > 40
    elsewhere = []
    in_helpers = dict.fromkeys(HELPERS, 0)
    for path in files:
        for owner, line, expression in decay_expressions(path.read_text()):
            if owner in HELPERS:
                in_helpers[owner] += 1
            else:
                elsewhere.append(f"{path.relative_to(SQL_ROOT.parent)}:{line} ({owner}): {expression}")
    assert elsewhere == [], "a decay written out: call pymem_private.decayed_confidence or half_life_decay"
    assert in_helpers == HELPERS


def test_the_helpers_are_inlinable(superuser: psycopg.Connection[Any]) -> None:
    """What PostgreSQL requires to inline a scalar SQL function (inline_function in the planner): SQL with a
    one-expression body, not SECURITY DEFINER, no SET clause, not STRICT (its expression would have to be strict
    too); IMMUTABLE, as its expression is. The set-returning pieces of search: STABLE instead (they read tables)."""
    rows = superuser.execute(
        """
        select p.oid::regprocedure::text, l.lanname, p.provolatile, p.proisstrict, p.prosecdef, p.proconfig,
               p.prosqlbody is not null, p.proretset
        from pg_proc as p join pg_language as l on l.oid = p.prolang
        where p.oid::regproc::text in (
            'pymem_private.decayed_confidence', 'pymem_private.half_life_decay', 'pymem_private.searchable_facts',
            'pymem_private.searchable_rules', 'pymem_private.searchable_episodes', 'pymem_private.semantic_candidates',
            'pymem_private.keyword_candidates', 'pymem_private.linked_memories'
        )
        """
    ).fetchall()
    assert len(rows) == 8
    for name, language, volatility, strict, definer, config, standard_body, returns_set in rows:
        assert (language, strict, definer, config, standard_body) == ("sql", False, False, None, True), name
        assert volatility == ("s" if returns_set else "i"), name


def plan(conn: psycopg.Connection[Any], query: str, *params: Any) -> str:
    return "\n".join(r[0] for r in conn.execute("explain (verbose, costs off) " + query, params).fetchall())


def test_the_planner_puts_the_formula_in_place_of_the_call(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "drinks", "The user drinks tea")
        confidence = plan(
            conn,
            "select pymem_private.decayed_confidence(f.confidence, f.decay_rate, f.last_confirmed_at, now())"
            " from pymem.facts as f",
        )
        recency = plan(
            conn,
            "select pymem_private.half_life_decay(coalesce(f.last_referenced_at, f.created_at), now(), 30)"
            " from pymem.facts as f",
        )
        # the filters of search: one query over the table, the formula in its filter
        searchable = plan(
            conn,
            "select s.id from pymem_private.searchable_facts('acme', null, 0.2, null, now()) as s"
            " where s.search_vector operator(pymem_private.@@@) 'tea'::tsquery",
        )
    for text in (confidence, recency, searchable):
        assert "exp(" in text, text
        assert "decayed_confidence" not in text and "half_life_decay" not in text, text
    assert "Function Scan" not in searchable and "searchable_facts" not in searchable, searchable
    assert "ln(" not in recency or "0.69314" in recency  # ln(2.0) folded to a constant, not computed per row


def test_the_public_functions_are_the_helpers_checked(as_tenant: Tenant) -> None:
    """memory_effective_confidence and memory_recency: the helper's value, after their argument checks."""
    with as_tenant("acme") as conn:
        rows = conn.execute(
            """
            select pymem.memory_effective_confidence(c, d, t - a, t), pymem_private.decayed_confidence(c, d, t - a, t),
                   pymem.memory_recency(t - a, null, t, h), pymem_private.half_life_decay(t - a, t, h)
            from unnest(array[1.0, 0.5, 0.9, 0.0]) as c,
                 unnest(array[0.0, 0.002, 0.1, 1000.0]) as d,
                 unnest(array[interval '0', interval '87 days', interval '-3 days', interval '6000 years']) as a,
                 unnest(array[0.001, 30.0, 100000.0]) as h,
                 (select timestamptz '2026-11-25 12:00+00') as n (t)
            """
        ).fetchall()
        assert len(rows) == 4 * 4 * 4 * 3
        for public_confidence, helper_confidence, public_recency, helper_recency in rows:
            assert public_confidence == helper_confidence and public_recency == helper_recency
        half = conn.execute(
            "select pymem_private.decayed_confidence(1.0, 0.008, now() - interval '1 day' * ln(2) / 0.008, now()),"
            " pymem_private.half_life_decay(now() - interval '30 days', now(), 30)"
        ).fetchone()
        assert half is not None and half == (pytest.approx(0.5), pytest.approx(0.5))
        with pytest.raises(psycopg.Error) as refused:
            conn.execute("select pymem.memory_effective_confidence('NaN', 0.1, now(), now())")
        assert refused.value.sqlstate == "PM002"


def test_extreme_ages_neither_underflow_nor_raise(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        extreme = conn.execute(
            """
            select pymem_private.decayed_confidence(1.0, 1000, '4713-01-01 BC', '200000-01-01'),
                   pymem_private.decayed_confidence(0.7, 0, '4713-01-01 BC', '200000-01-01'),
                   pymem_private.decayed_confidence(0.7, 0, '-infinity', 'infinity'),
                   pymem_private.decayed_confidence(0.7, 0.1, '200000-01-01', '4713-01-01 BC'),
                   pymem_private.half_life_decay('4713-01-01 BC', '200000-01-01', 0.001),
                   pymem_private.half_life_decay('200000-01-01', '4713-01-01 BC', 0.001),
                   pymem.memory_recency(null, '4713-01-01 BC', '200000-01-01', 0.001),
                   pymem.memory_effective_confidence(1.0, 1000, '4713-01-01 BC', '200000-01-01')
            """
        ).fetchone()
    assert extreme is not None
    fully_decayed = math.exp(-700)
    assert extreme == (
        pytest.approx(fully_decayed),
        0.7,
        0.7,
        0.7,
        pytest.approx(fully_decayed),
        1.0,
        pytest.approx(fully_decayed),
        pytest.approx(fully_decayed),
    )
    assert all(v > 0 for v in extreme)


def test_search_and_recall_read_facts_a_century_unconfirmed(
    as_tenant: Tenant, superuser: psycopg.Connection[Any]
) -> None:
    """An ephemeral fact unconfirmed since 1900: exp(-0.1 * 46,000 days) is 0 in double precision (before the
    clamp, "value out of range: underflow"); search and recall filter it out by min_confidence, or, with
    min_confidence 0, return it fully decayed."""
    with as_tenant("acme") as conn:
        old = store_fact(conn, "user", "mood", "The user felt sleepy about tea", permanence="ephemeral")
        fresh = store_fact(conn, "user", "drinks", "The user drinks tea every morning")
    superuser.execute(
        "update pymem.facts set created_at = '1900-01-01', last_confirmed_at = '1900-01-01' where id = %s", (old,)
    )
    with as_tenant("acme") as conn:
        for function, arguments in (("memory_search", {"query": "tea"}), ("memory_recall", {"topic": "tea"})):
            found = {r["memory_id"]: r for r in call(conn, function, **arguments, bump_references=False)}
            assert fresh in found and old not in found, function
            everything = {
                r["memory_id"]: r
                for r in call(conn, function, **arguments, min_confidence=0.0, bump_references=False, min_relevance=0)
            }
            assert old in everything, function
            assert 0 < everything[old]["effective_confidence"] < 1e-300, function


def test_a_function_that_calls_set_config_is_volatile(superuser: psycopg.Connection[Any]) -> None:
    """STABLE promises no side effects; set_config is one (memory_candidates sets hnsw.ef_search)."""
    rows = superuser.execute(
        """
        select p.oid::regprocedure::text, p.provolatile, p.prosrc
        from pg_proc as p
        where p.pronamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)
          and p.prosrc ~* 'set_config'
        """
    ).fetchall()
    calling = {
        name: volatility
        for name, volatility, source in rows
        # a call, not a mention in a message or a comment
        if re.search(r"set_config\s*\(", LINE_COMMENT.sub("", re.sub(r"'(?:[^']|'')*'", "''", source)), re.I)
    }
    assert any(name.startswith("pymem_private.memory_candidates(") for name in calling)
    assert [name for name, volatility in calling.items() if volatility != "v"] == []
