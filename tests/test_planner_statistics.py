"""EXPLAIN shows a bound analyst no statistics of what other tenants wrote.

pg_stats hides the statistics of a table row-level security filters, but the planner still uses them,
and a plan's row estimate is visible to anyone who may SELECT the table. Migration 0020 stops ANALYZE
from sampling the columns that hold what tenants wrote; tenant_id keeps its statistics (the threat
model in docs/reliability.md says what that shows).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import psycopg

from tests.conftest import Tenant, connect_as

# System-defined columns of the memory tables: their values are pymem's own vocabulary (states, kinds,
# roles, the model id), not what a tenant wrote, and the planner keeps their statistics.
SYSTEM_COLUMNS = {
    "tenant_id",
    "embedding_model",
    "permanence",
    "validity",
    "maturity",
    "source",
    "review_state",
    "memory_type",
    "operation",
    "from_state",
    "to_state",
    "db_role",
    "session_role",
    "source_type",
    "target_type",
    "relation",
}
TEXT_LIKE = {"text", "jsonb", "tsvector", "vector", "_text", "name", "varchar"}
MEMORY_TABLES = ("episodes", "facts", "rules", "memory_links", "memory_events", "keyword_lexemes", "butler_settings")


def _estimate(conn: psycopg.Connection[Any], query: str, *params: object) -> int:
    plan = "\n".join(row[0] for row in conn.execute("explain " + query, params).fetchall())
    found = re.search(r"rows=(\d+)", plan)
    assert found, plan
    return int(found.group(1))


def test_every_column_a_tenant_writes_has_no_planner_statistics(superuser: psycopg.Connection[Any]) -> None:
    rows = superuser.execute(
        """
        select c.relname, a.attname, t.typname, a.attstattarget
        from pg_attribute as a
        join pg_class as c on c.oid = a.attrelid
        join pg_type as t on t.oid = a.atttypid
        where c.relnamespace = 'pymem'::regnamespace and c.relname = any(%s)
          and a.attnum > 0 and not a.attisdropped
        """,
        (list(MEMORY_TABLES),),
    ).fetchall()
    sampled = [
        f"{table}.{column}"
        for table, column, type_name, target in rows
        if type_name in TEXT_LIKE and column not in SYSTEM_COLUMNS and target != 0
    ]
    assert sampled == [], f"columns holding tenant text are sampled by ANALYZE: {sampled}"


def test_the_migration_lists_the_same_columns_the_check_finds(repo_root: Path) -> None:
    path = repo_root / "migrations" / "versions" / "0020_no_content_statistics.py"
    spec = importlib.util.spec_from_file_location("m0020", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(module.CONTENT_COLUMNS) <= set(MEMORY_TABLES)


def test_explain_estimates_do_not_reveal_another_tenants_common_values(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], make_login: Any, db_dsn: str
) -> None:
    with as_tenant("gamma") as conn:
        for i in range(300):
            conn.execute(
                "select pymem.memory_store_fact('quokkasubject', %s, %s, tags => array['zebratag'])",
                (f"note {i}", f"gamma keeps the zebrafishword secret number {i}"),
            )
    with as_tenant("alpha") as conn:
        for i in range(20):
            conn.execute("select pymem.memory_store_fact('user', %s, %s)", (f"n {i}", f"alpha note {i}"))
    superuser.execute("analyze pymem.facts")

    analyst = connect_as(db_dsn, make_login("alpha"))
    try:
        assert analyst.execute("select count(*) from pymem.facts").fetchone() == (20,)
        # what gamma wrote is estimated exactly as something nobody wrote
        common = _estimate(analyst, "select * from pymem.facts where subject = %s", "quokkasubject")
        unknown = _estimate(analyst, "select * from pymem.facts where subject = %s", "no-such-subject")
        assert common == unknown
        common = _estimate(
            analyst, "select * from pymem.facts where search_vector @@ to_tsquery('english', %s)", "zebrafishword"
        )
        unknown = _estimate(
            analyst, "select * from pymem.facts where search_vector @@ to_tsquery('english', %s)", "nosuchwordxyz"
        )
        assert common == unknown
        common = _estimate(analyst, "select * from pymem.facts where tags ? %s", "zebratag")
        unknown = _estimate(analyst, "select * from pymem.facts where tags ? %s", "nosuchtag")
        assert common == unknown
        # and pg_stats shows it nothing of the table at all
        assert analyst.execute("select count(*) from pg_stats where schemaname = 'pymem'").fetchone() == (0,)
    finally:
        analyst.close()
