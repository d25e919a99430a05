"""Erasure for operators (the right to erasure): pymem.memory_erase / pymem.memory_erase_tenant decide and delete in
SQL; this module calls them as the migrator login and then VACUUMs the tables they touched, so that the dead rows
and their index entries go too (with rewrite: VACUUM FULL, which rewrites the files and rebuilds the indexes, under
an exclusive lock): of a memory table, only the partition that holds the tenant. A memory the erasure kept but
rebuilt without the erased text (the next turn of an erased episode's session: SQL clears its embedding) is
re-embedded here, with the real model, in the erasure's transaction. Every call goes through
pymem.operator_client.OperatorClient (SQL also names the tables to VACUUM and who holds them). `pymem erase` is its
command line."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import psycopg

from pymem.client import MemoryClient
from pymem.errors import BusyError
from pymem.maintenance import ACTOR, TextEmbedder, _connect, _sql_errors, _tenant_work
from pymem.operator_client import OperatorClient


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


# VACUUM FULL takes an ACCESS EXCLUSIVE lock. While it waits for one (any session with the table open in a
# transaction, a bound analyst's among them, holds it back), every other session's read and write of that table
# queues behind the waiting request: every tenant would stall. So it waits at most this long at a time, and tries
# again, up to REWRITE_ATTEMPTS times (about a minute), then gives up with who holds the table.
REWRITE_LOCK_WAIT_MS = 2000
REWRITE_ATTEMPTS = 30


def vacuum(
    dsn: str,
    tables: tuple[str, ...],
    *,
    rewrite: bool = False,
    lock_wait_ms: int = REWRITE_LOCK_WAIT_MS,
    attempts: int = REWRITE_ATTEMPTS,
) -> None:
    """VACUUM (or VACUUM FULL) each table, outside a transaction, as the migrator. VACUUM FULL waits for its lock
    lock_wait_ms at a time, so that no tenant's calls queue behind it for longer, and gives up after `attempts`
    tries with BusyError naming the sessions that hold the table (the erasure itself is committed by then)."""
    with _connect(dsn) as conn:
        client = OperatorClient(conn)
        if rewrite:
            client.set_lock_timeout(milliseconds=lock_wait_ms)
        for table in tables:
            for attempt in range(1, attempts + 1):
                try:
                    client.vacuum(table=table, full=rewrite)
                    break
                except psycopg.errors.LockNotAvailable:
                    if attempt == attempts:
                        raise BusyError(
                            f"VACUUM FULL {table} did not get its lock in {attempts} tries of {lock_wait_ms} ms;"
                            f" sessions holding the table: {_holders(client, table)}",
                            hint="the erasure is committed and the rows are gone from every query; only the rewrite"
                            f" of the files is left: run VACUUM FULL {table} once those sessions end",
                        ) from None
                    time.sleep(min(1.0, lock_wait_ms / 1000))


def _holders(client: OperatorClient, table: str) -> str:
    """The sessions holding a lock on table (pymem.memory_lock_holders): pid, role and state, for the operator to see
    who keeps it open."""
    return ", ".join(
        f"pid {h.pid} ({h.role_name}, {h.state}, in a transaction for {h.in_transaction})"
        for h in client.lock_holders(table=table)
    )


def _reembed(conn: psycopg.Connection[Any], rebuilt: list[tuple[str, UUID]], embedder: TextEmbedder | None) -> bool:
    """Embed the rebuilt memories again from their text as it is now (pymem.memory_embedding_text), unless there is
    no embedder or the recorded model is another one: then they stay flagged, found by keyword until re-embedded."""
    if not rebuilt or embedder is None:
        return False
    client = OperatorClient(conn)
    if client.embedding_model() not in (None, embedder.model_id):
        return False
    texts = [client.embedding_text(type=t, id=i) for t, i in rebuilt]
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
    transaction (with embedder), then VACUUM of the tables it touched (of a memory table, the tenant's partition)."""
    with _connect(dsn) as conn, _sql_errors():
        client = OperatorClient(conn)
        tables = client.tenant_partitions(tenant=tenant, tables=client.erase_tables())
        with _tenant_work(conn, tenant):
            resolved = MemoryClient(conn).resolve_id(type=memory_type, ref=memory_id)
            rows = client.erase(type=memory_type, id=resolved, reason=reason, cascade=cascade)
            rebuilt = [(r.memory_type, r.memory_id) for r in rows if not r.erased]
            reembedded = _reembed(conn, rebuilt, embedder)
    vacuum(dsn, tables, rewrite=rewrite)
    return Erased(
        memories=tuple((r.memory_type, r.memory_id) for r in rows if r.erased),
        rebuilt=tuple(rebuilt),
        reembedded=reembedded,
        vacuumed=tables,
        rewritten=rewrite,
    )


def erase_tenant(dsn: str, *, tenant: str, reason: str, rewrite: bool) -> Erased:
    """pymem.memory_erase_tenant as the migrator (a superuser): the tenant's rows, and its logins with what they own
    (large objects); then VACUUM of each table it deleted from (pg_largeobject and pg_authid among them; of a memory
    table, the tenant's partition)."""
    with _connect(dsn) as conn, _sql_errors(), conn.transaction():
        client = OperatorClient(conn)
        client.set_actor(actor=ACTOR)
        rows = client.erase_tenant(tenant=tenant, reason=reason)
        # every table of the tenant, as the SQL function lists them; of a memory table, the tenant's partition
        tables = client.tenant_partitions(tenant=tenant, tables=tuple(r.table_name for r in rows))
    vacuum(dsn, tables, rewrite=rewrite)
    return Erased(rows=tuple((r.table_name, r.rows_deleted) for r in rows), vacuumed=tables, rewritten=rewrite)
