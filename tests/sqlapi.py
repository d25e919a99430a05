"""Calling the SQL memory API from tests the way an analyst does: named notation, one
function per call, any function with any argument (None is sent as NULL, a value without a
cast: the tests also call functions wrongly on purpose). The package itself calls SQL through
its typed clients (pymem.client, pymem.operator_client). Embeddings are real MiniLM vectors
computed by the caller."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import dict_row

from pymem.embeddings import Embedder


def call(conn: psycopg.Connection[Any], function: str, **arguments: Any) -> list[dict[str, Any]]:
    """select * from pymem.<function>(name => value, ...) as a list of dict rows."""
    named = sql.SQL(", ").join(
        sql.SQL("{} => {}").format(sql.Identifier(name), sql.Placeholder(name)) for name in arguments
    )
    query = sql.SQL("select * from pymem.{}({})").format(sql.Identifier(function), named)
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(query, arguments).fetchall()


def ago(days: float) -> datetime:
    """A moment days before now, for the store functions' observed_at (a memory observed that long ago)."""
    return datetime.now(UTC) - timedelta(days=days)


def call_one(conn: psycopg.Connection[Any], function: str, **arguments: Any) -> dict[str, Any]:
    rows = call(conn, function, **arguments)
    assert len(rows) == 1, rows
    return rows[0]


def embedded(embedder: Embedder | None, text: str, arguments: dict[str, Any]) -> dict[str, Any]:
    if embedder is not None:
        arguments.setdefault("embedding", embedder.embed(text))
        arguments.setdefault("embedding_model", embedder.model_id)
        arguments.setdefault("token_count", embedder.count_tokens(text))
    return arguments


def store_fact(
    conn: psycopg.Connection[Any],
    subject: str,
    predicate: str,
    content: str,
    embedder: Embedder | None = None,
    **arguments: Any,
) -> Any:
    arguments.update(subject=subject, predicate=predicate, content=content)
    return call_one(conn, "memory_store_fact", **embedded(embedder, content, arguments))["memory_id"]


def store_rule(conn: psycopg.Connection[Any], content: str, embedder: Embedder | None = None, **arguments: Any) -> Any:
    arguments.update(content=content)
    return call_one(conn, "memory_store_rule", **embedded(embedder, content, arguments))["memory_id"]


def store_episode(
    conn: psycopg.Connection[Any], content: str, butler: str, embedder: Embedder | None = None, **arguments: Any
) -> Any:
    arguments.update(content=content, butler=butler)
    return call_one(conn, "memory_store_episode", **embedded(embedder, content, arguments))["memory_id"]


def counts(conn: psycopg.Connection[Any]) -> dict[str, int]:
    """Rows of every memory table visible to the transaction's tenant."""
    tables = ["episodes", "facts", "rules", "memory_links", "memory_events"]
    return {
        t: conn.execute(sql.SQL("select count(*) from pymem.{}").format(sql.Identifier(t))).fetchone()[0]
        for t in tables
    }  # type: ignore[index]


def declare_reviewer(conn: psycopg.Connection[Any], reviewer: str = "review:tests") -> None:
    """The transaction's caller is a human reviewer (pymem.reviewer, as a review token or `pymem review approve`
    declare one): memory_confirm may then approve what was kept for review (pymem_private.caller_may_review)."""
    conn.execute("select set_config('pymem.reviewer', %s, true)", (reviewer,))
