"""Erasure for operators (the right to erasure): pymem.memory_erase / pymem.memory_erase_tenant decide and delete
in SQL; this module calls them as the migrator login and then VACUUMs the tables they touched, so that the dead
rows and their index entries go too (with rewrite: VACUUM FULL, which rewrites the files and rebuilds the indexes,
under an exclusive lock). A memory the erasure kept but rebuilt without the erased text (the next turn of an erased
episode's session: SQL clears its embedding) is re-embedded here, with the real model, in the erasure's
transaction. `pymem erase` is its command line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

import psycopg
from psycopg import sql

from pymem.maintenance import ACTOR, TextEmbedder, _connect, _sql_errors, _tenant_work
from pymem.operator_client import OperatorClient

# what pymem.memory_erase changes (pymem.memory_erase_tenant names the tables it deleted from itself)
MEMORY_TABLES = (
    "pymem.memory_links",
    "pymem.facts",
    "pymem.rules",
    "pymem.episodes",
    "pymem.keyword_lexemes",
    "pymem.memory_events",
)


@dataclass(frozen=True)
class Erased:
    """What an erasure removed: (memory type, id) pairs for a memory, rows per table for a tenant. rebuilt: the
    memories kept but rebuilt without the erased text, re-embedded (reembedded) or left for `pymem reembed`."""

    memories: tuple[tuple[str, UUID], ...] = ()
    rebuilt: tuple[tuple[str, UUID], ...] = ()
    reembedded: bool = False
    rows: tuple[tuple[str, int], ...] = ()
    vacuumed: tuple[str, ...] = ()
    rewritten: bool = False


def vacuum(dsn: str, tables: tuple[str, ...], *, rewrite: bool = False) -> None:
    """VACUUM (or VACUUM FULL) each table, outside a transaction, as the migrator."""
    with _connect(dsn) as conn:
        for table in tables:
            conn.execute(sql.SQL("vacuum {} {}").format(sql.SQL("full" if rewrite else ""), sql.SQL(table)))


def _reembed(conn: psycopg.Connection[Any], rebuilt: list[tuple[str, UUID]], embedder: TextEmbedder | None) -> bool:
    """Embed the rebuilt memories again from their text as it is now (pymem.memory_embedding_text), unless there is
    no embedder or the recorded model is another one: then they stay flagged, found by keyword until re-embedded."""
    if not rebuilt or embedder is None:
        return False
    (configured,) = conn.execute("select pymem.memory_embedding_model()").fetchone() or (None,)
    if configured not in (None, embedder.model_id):
        return False
    texts = [
        str(conn.execute("select pymem.memory_embedding_text(%s, %s)", (t, i)).fetchone()[0])  # type: ignore[index]
        for t, i in rebuilt
    ]
    client = OperatorClient(conn)
    for (memory_type, memory_id), vector in zip(rebuilt, embedder.embed_many(texts), strict=True):
        client.set_embedding(type=memory_type, id=memory_id, embedding=vector, embedding_model=embedder.model_id)
    return True


def erase_memory(
    dsn: str,
    *,
    tenant: str,
    memory_type: str,
    memory_id: str,
    reason: str | None,
    cascade: bool,
    rewrite: bool,
    embedder: TextEmbedder | None = None,
) -> Erased:
    """pymem.memory_erase in tenant's transaction (as pymem_app), the memories it rebuilt re-embedded in the same
    transaction (with embedder), then VACUUM of the tables it touched."""
    with _connect(dsn) as conn, _sql_errors(), _tenant_work(conn, tenant):
        resolved = conn.execute("select pymem.memory_resolve_id(%s, %s)", (memory_type, memory_id)).fetchone()
        assert resolved is not None
        rows: list[Any] = conn.execute(
            "select memory_type, memory_id, erased from pymem.memory_erase(%s, %s, %s, %s)",
            (memory_type, resolved[0], reason, cascade),
        ).fetchall()
        rebuilt = [(str(r[0]), r[1]) for r in rows if not r[2]]
        reembedded = _reembed(conn, rebuilt, embedder)
    vacuum(dsn, MEMORY_TABLES, rewrite=rewrite)
    return Erased(
        memories=tuple((r[0], r[1]) for r in rows if r[2]),
        rebuilt=tuple(rebuilt),
        reembedded=reembedded,
        vacuumed=MEMORY_TABLES,
        rewritten=rewrite,
    )


def erase_tenant(dsn: str, *, tenant: str, reason: str, rewrite: bool) -> Erased:
    """pymem.memory_erase_tenant as the migrator (a superuser): the tenant's rows, and its logins with what they own
    (large objects); then VACUUM of each table it deleted from (pg_largeobject and pg_authid among them)."""
    with _connect(dsn) as conn, _sql_errors(), conn.transaction():
        conn.execute("select set_config('pymem.actor', %s, true)", (ACTOR,))
        rows: list[Any] = conn.execute("select * from pymem.memory_erase_tenant(%s, %s)", (tenant, reason)).fetchall()
    tables = tuple(str(r[0]) for r in rows)  # every table of the tenant, as the SQL function lists them
    vacuum(dsn, tables, rewrite=rewrite)
    return Erased(rows=tuple((r[0], int(r[1])) for r in rows), vacuumed=tables, rewritten=rewrite)
