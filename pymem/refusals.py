"""A refused store keeps its audit row: grounded ingestion's tier 3 (PM007) without losing the event.

``pymem.memory_store_fact`` and ``pymem.memory_store_rule`` refuse speculation with PM007, which rolls back
everything the store would have written; ``pymem.memory_record_refusal`` writes the audit row (without the
content). ``store_or_refusal`` runs the store in a savepoint and, when it is refused, records the refusal in
the caller's transaction instead, so the transaction commits the event and the caller reports the refusal:

    with tenant_transaction(conn, tenant):
        stored = store_or_refusal(db, "fact", lambda: db.store_fact(**fact), content=..., source=..., citation=...)
    if isinstance(stored, RefusedError):
        raise stored
"""

from __future__ import annotations

from collections.abc import Callable

import psycopg

from pymem.client import MemoryClient
from pymem.errors import RefusedError, translate
from pymem.result_schemas import StoredMemory


def store_or_refusal(
    db: MemoryClient,
    memory_type: str,
    store: Callable[[], StoredMemory],
    *,
    content: str,
    source: str | None,
    citation: str | None,
) -> StoredMemory | RefusedError:
    """store() in a savepoint: what it stored, or (PM007) the refusal, its audit row written by SQL."""
    try:
        with db.conn.transaction():
            return store()
    except psycopg.Error as exc:
        if exc.sqlstate != RefusedError.sqlstate:
            raise
        refused = translate(exc)
    db.record_refusal(memory_type=memory_type, content=content, source=source, citation=citation)
    assert isinstance(refused, RefusedError)
    return refused
