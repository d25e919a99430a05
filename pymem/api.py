"""The thin client of the SQL memory API: one call, one SQL function, named arguments.

    rows = api.call(conn, "memory_recall", topic="diet", scope="health")

Arguments are passed in named notation (``name => %(name)s``), so only the ones given
are sent and the SQL defaults apply to the rest. Rows come back as dicts keyed by the
function's output columns. The caller owns the transaction and the tenant
(pymem.tenancy.tenant_transaction); nothing here decides what is stored or found.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import dict_row


def call(conn: psycopg.Connection[Any], function: str, **arguments: Any) -> list[dict[str, Any]]:
    """``select * from pymem.<function>(name => value, ...)`` as a list of dict rows."""
    named = sql.SQL(", ").join(
        sql.SQL("{} => {}").format(sql.Identifier(name), sql.Placeholder(name)) for name in arguments
    )
    query = sql.SQL("select * from pymem.{}({})").format(sql.Identifier(function), named)
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(query, arguments).fetchall()


def call_one(conn: psycopg.Connection[Any], function: str, **arguments: Any) -> dict[str, Any]:
    """The single row of a function that returns one (a scalar function's row is {function: value})."""
    rows = call(conn, function, **arguments)
    if len(rows) != 1:
        raise RuntimeError(f"pymem.{function} returned {len(rows)} rows, expected one")
    return rows[0]


def call_scalar(conn: psycopg.Connection[Any], function: str, **arguments: Any) -> Any:
    """The value of a function that returns a scalar; of memory_store_*, the new memory_id."""
    row = call_one(conn, function, **arguments)
    return row[function] if function in row else row["memory_id"]
